// With --auth-issuer: what an authorization test needs to see from inside
// the server: who the verified caller is, and a tool only one scope opens.
#include "fixtures.hpp"

namespace everything {

void install_auth_fixtures(cafmcp::server& srv) {
  srv.add_tool(make_tool("whoami", "The verified caller: subject, client id and scopes",
                         {{"type", "object"}},
                         [](const cafmcp::json&, cafmcp::request_context& ctx) {
                           auto* who = ctx.caller();
                           if (!who)
                             return cafmcp::tool_result::error("no verified caller");
                           cafmcp::tool_result r = cafmcp::tool_result::text(who->subject);
                           r.structured_content = cafmcp::json{
                             {"subject", who->subject}, {"clientId", who->client_id}, {"scopes", who->scopes}};
                           return r;
                         }));
  auto admin = make_tool("admin_report", "Needs the mcp:admin scope", {{"type", "object"}},
                         [](const cafmcp::json&, cafmcp::request_context&) {
                           return cafmcp::tool_result::text("for admins only");
                         });
  admin.scopes = {"mcp:admin"};
  srv.add_tool(admin);
}

} // namespace everything
