#pragma once
// How the verifiers talk to an authorization server: one blocking exchange
// with a deadline (http_fetch), its TLS trust set up once per verifier.
#include <memory>
#include <string>

#include "cafmcp/auth_verifiers.hpp"

#include "http_fetch/http_fetch.hpp"

namespace cafmcp::auth::detail {

class as_client {
public:
  /// Throws std::runtime_error when `how.ca_file` cannot be loaded.
  explicit as_client(fetch_options how);
  /// GET `url` as JSON; nullopt with `why` unless it answered 200 with a
  /// JSON object.
  std::optional<json> get_json(const std::string& url, std::string& why) const;
  /// POST a form; the answer as `get_json` gives it.
  std::optional<json> post_form(const std::string& url, const std::string& form,
                                const std::map<std::string, std::string>& headers, std::string& why) const;
  /// POST a JSON document (dynamic client registration: 201 or 200).
  std::optional<json> post_json(const std::string& url, const json& doc, std::string& why) const;

private:
  std::optional<json> exchange(const std::string& url, const fetch::http_exchange& what, std::string& why) const;
  fetch_options how_;
  std::shared_ptr<fetch::tls_client> tls_;
};

/// The fields of an authorization server's metadata document.
authorization_server_metadata metadata_from(json doc);

/// application/x-www-form-urlencoded value.
std::string form_encode(std::string_view v);

} // namespace cafmcp::auth::detail
