#pragma once
// Reads one HTTP request into http::request: Beast's parser (its grammar,
// limits, chunked bodies and keep-alive rules) with the transport's own
// store behind it, which keeps the headers the transport reads and no
// other (http_request.hpp says why).
#include "streamable_http/http_request.hpp"

namespace cafmcp::http {

/// One request's parser, as Beast's request_parser: a new one for each
/// request; set its limits, feed it (beast::http::async_read, put), and
/// take the request when is_done().
class request_parser final : public beast::http::basic_parser<true> {
public:
  // Nothing in it allocates or throws (Beast does not say so of its part).
  request_parser() noexcept {}

  /// The request read; this parser is spent.
  request release() {
    req_.keep_alive_ = keep_alive();
    return std::move(req_);
  }

private:
  void on_request_impl(beast::http::verb method, beast::string_view method_str, beast::string_view target,
                       int version, beast::error_code& ec) override;
  void on_response_impl(int, beast::string_view, int, beast::error_code&) override {}
  void on_field_impl(beast::http::field name, beast::string_view name_string, beast::string_view value,
                     beast::error_code& ec) override;
  void on_header_impl(beast::error_code&) override {}
  void on_body_init_impl(const boost::optional<std::uint64_t>& content_length, beast::error_code& ec) override;
  std::size_t on_body_impl(beast::string_view body, beast::error_code& ec) override;
  void on_chunk_header_impl(std::uint64_t, beast::string_view, beast::error_code&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t remain, beast::string_view body, beast::error_code& ec) override;
  void on_finish_impl(beast::error_code&) override {}

  request::span keep(beast::string_view text);

  request req_;
};

} // namespace cafmcp::http
