#include "auth/as_client.hpp"

#include "foundation/percent_encoding.hpp"

namespace cafmcp::auth::detail {

as_client::as_client(fetch_options how) : how_(std::move(how)), tls_(fetch::make_tls_client(how_.ca_file)) {}

std::optional<json> as_client::exchange(const std::string& url, const fetch::http_exchange& what,
                                        std::string& why) const {
  auto u = fetch::parse_http_url(url);
  if (!u) {
    why = "not an http(s) URL: " + url;
    return std::nullopt;
  }
  auto reply = fetch::http_send(*u, what, std::chrono::steady_clock::now() + how_.timeout, tls_.get());
  if (reply.status == 0) {
    why = url + ": no answer" + (reply.failure.empty() ? std::string() : " (" + reply.failure + ")");
    return std::nullopt;
  }
  if (reply.status != 200 && !(reply.status == 201 && what.method == "POST")) {
    why = url + " answered HTTP " + std::to_string(reply.status);
    return std::nullopt;
  }
  auto doc = json::parse(reply.body, nullptr, false);
  if (!doc.is_object()) {
    why = url + " did not answer a JSON object";
    return std::nullopt;
  }
  return doc;
}

std::optional<json> as_client::get_json(const std::string& url, std::string& why) const {
  fetch::http_exchange what;
  what.headers["Accept"] = "application/json";
  what.max_body = 1024 * 1024;
  return exchange(url, what, why);
}

std::optional<json> as_client::post_form(const std::string& url, const std::string& form,
                                         const std::map<std::string, std::string>& headers,
                                         std::string& why) const {
  fetch::http_exchange what;
  what.method = "POST";
  what.headers = headers;
  what.headers["Accept"] = "application/json";
  what.content_type = "application/x-www-form-urlencoded";
  what.body = form;
  what.max_body = 1024 * 1024;
  return exchange(url, what, why);
}

std::optional<json> as_client::post_json(const std::string& url, const json& doc, std::string& why) const {
  fetch::http_exchange what;
  what.method = "POST";
  what.headers["Accept"] = "application/json";
  what.content_type = "application/json";
  what.body = doc.dump();
  what.max_body = 1024 * 1024;
  return exchange(url, what, why);
}

std::string form_encode(std::string_view v) {
  std::string out;
  for (char c : v)
    if (cafmcp::detail::is_unreserved(c))
      out += c;
    else
      cafmcp::detail::append_percent_encoded(out, c);
  return out;
}

} // namespace cafmcp::auth::detail
