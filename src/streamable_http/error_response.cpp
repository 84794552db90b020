#include "streamable_http/error_response.hpp"

#include <memory>

namespace cafmcp::http {

void answer_error(http_conn& reply, int status, const std::string& message,
                  const std::optional<jsonrpc::request_id>& id, const std::string& headers,
                  std::optional<int> code) {
  if (!code)
    code = status == 400 ? jsonrpc::code::invalid_request : -32000;
  auto body = jsonrpc::serialize_error(id, {*code, message, std::nullopt});
  std::string extra = headers;
  if (status == 401 && headers.find("WWW-Authenticate:") == std::string::npos) // else the router's challenge
    extra += "WWW-Authenticate: Bearer\r\n";
  if (status == 405 && headers.find("Allow:") == std::string::npos) // the MCP endpoint's, unless told
    extra += "Allow: GET, POST, DELETE\r\n";
  if (status == 503) // overload or shutdown: worth trying again shortly
    extra += "Retry-After: 1\r\n";
  reply.respond(status, "application/json", extra, std::make_shared<const std::string>(std::move(body)));
}

} // namespace cafmcp::http
