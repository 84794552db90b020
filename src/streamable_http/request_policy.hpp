#pragma once
// Which HTTP requests reach MCP at all: path, Host (DNS-rebinding
// protection), Origin, bearer token, Accept and Content-Type, and the
// MCP-Protocol-Version header. Pure, so every status code is tested without
// a socket.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cafmcp/streamable_http.hpp"

namespace cafmcp::http {

struct request_facts {
  std::string_view method; // "POST", "GET", ...
  std::string_view target; // path and query
  std::optional<std::string_view> host;
  std::optional<std::string_view> origin;
  std::optional<std::string_view> accept;
  std::optional<std::string_view> content_type;
  std::optional<std::string_view> authorization;
  std::optional<std::string_view> protocol_version;
};

struct rejection {
  int status;
  std::string message;
};

struct request_policy {
  std::string path;
  std::vector<std::string> hosts;   // exact Host header values
  std::vector<std::string> origins; // exact Origin values
  std::optional<std::string> token;

  static request_policy from(const http_options& opts, std::uint16_t bound_port);
  std::optional<rejection> check(const request_facts& r) const;
};

} // namespace cafmcp::http
