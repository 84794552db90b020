#include "auth/token_request.hpp"

#include <stdexcept>

#include "auth/resource_discovery.hpp"
#include "foundation/base64.hpp"

namespace cafmcp::auth::detail {

token_answer request_token(const as_client& http, const std::string& endpoint, std::string form,
                           const client_identity& client, const std::string& asked_scope) {
  std::map<std::string, std::string> headers;
  auto method = client.method.empty() ? (client.secret.empty() ? "none" : "client_secret_basic") : client.method;
  if (method == "client_secret_basic")
    headers["Authorization"] = "Basic " + cafmcp::detail::base64_encode(form_encode(client.id) + ":"
                                                                        + form_encode(client.secret));
  else
    form += "&client_id=" + form_encode(client.id);
  if (method == "private_key_jwt")
    form += "&client_assertion_type=" + form_encode("urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
            + "&client_assertion=" + form_encode(client.assertion);
  if (method == "client_secret_post")
    form += "&client_secret=" + form_encode(client.secret);
  std::string failure;
  auto answer = http.post_form(endpoint, form, headers, failure);
  if (!answer)
    throw std::runtime_error("token request failed: " + failure);
  token_answer t;
  t.access_token = json_text(*answer, "access_token");
  if (t.access_token.empty())
    throw std::runtime_error("token endpoint answered no access_token");
  t.refresh_token = json_text(*answer, "refresh_token");
  t.scope = answer->contains("scope") ? json_text(*answer, "scope") : asked_scope;
  if (auto e = answer->find("expires_in"); e != answer->end() && e->is_number() && e->get<double>() > 0)
    t.lifetime = std::chrono::seconds(static_cast<long long>(std::min(e->get<double>(), 1e9)));
  return t;
}

} // namespace cafmcp::auth::detail
