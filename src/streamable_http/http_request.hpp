#pragma once
// The request a connection reads and hands on (request_parser.hpp fills
// it), and the short names for Asio and Beast that the transport's files
// share.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace cafmcp::http {

namespace net = boost::asio;
namespace beast = boost::beast;
using tcp = net::ip::tcp;
/// A connection's socket, its executor its loop's io_context's own: Asio's
/// default (any_io_executor) type-erases it, and every read's composed
/// operations paid for that in each step (tracking work, moving and
/// calling through the erased executor).
using loop_socket = tcp::socket::rebind_executor<net::io_context::executor_type>::other;

/// The headers the transport reads.
enum class header : std::uint8_t {
  host,
  origin,
  accept,
  content_type,
  authorization,
  protocol_version, // MCP-Protocol-Version
  session_id,       // Mcp-Session-Id
  last_event_id,    // Last-Event-ID
  mcp_method,       // Mcp-Method (2026-07-28)
  mcp_name,         // Mcp-Name (2026-07-28)
};
inline constexpr std::size_t header_count = 10;

/// One HTTP request as the transport reads it: its line, the headers it
/// reads (each the first, when repeated), its `Mcp-Param-*` headers and
/// its body. No other header is kept: Beast's message allocated every field
/// (six a POST) into a case-insensitive tree, ~2,500 instructions of a
/// tools/call (callgrind) for headers read once each.
///
/// Its texts lie in one string, found by offsets, and views are made when
/// read: a request moves (to the answer of a token's verification, to
/// another event loop), and a view into a moved short string would not.
class request {
public:
  beast::http::verb method() const noexcept { return method_; }
  /// The method as sent (an unknown one too).
  std::string_view method_string() const noexcept { return text(method_text_); }
  std::string_view target() const noexcept { return text(target_); }
  int version() const noexcept { return version_; } // 10 or 11
  bool keep_alive() const noexcept { return keep_alive_; }

  /// The header's value (its first line, when repeated); none if absent.
  std::optional<std::string_view> operator[](header h) const noexcept {
    auto& s = headers_[static_cast<std::size_t>(h)];
    if (s.at == absent)
      return std::nullopt;
    return text(s);
  }

  /// The `Mcp-Param-*` headers (SEP-2243) in the order they came: the name
  /// after the prefix, lower-cased, and the raw value.
  std::size_t param_count() const noexcept { return params_.size(); }
  std::pair<std::string_view, std::string_view> param(std::size_t i) const noexcept {
    return {text(params_[i].first), text(params_[i].second)};
  }

  std::string& body() noexcept { return body_; }
  const std::string& body() const noexcept { return body_; }

private:
  friend class request_parser;
  static constexpr std::uint32_t absent = UINT32_MAX;
  struct span {
    std::uint32_t at = absent;
    std::uint32_t size = 0;
  };
  std::string_view text(span s) const noexcept {
    return s.at == absent ? std::string_view() : std::string_view(texts_).substr(s.at, s.size);
  }

  beast::http::verb method_ = beast::http::verb::unknown;
  int version_ = 11;
  bool keep_alive_ = true;
  span method_text_, target_;
  std::array<span, header_count> headers_{};
  std::vector<std::pair<span, span>> params_;
  std::string texts_; // every span's bytes, one after another
  std::string body_;
};

} // namespace cafmcp::http
