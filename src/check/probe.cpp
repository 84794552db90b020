#include "check/probe.hpp"

#include "cafmcp/client.hpp" // client_error_code
#include "cafmcp/json_rpc.hpp"

#include "check/shape.hpp"

namespace cafmcp::check {

namespace {
bool is_notification(const json& m) { return m.is_object() && m.contains("method") && !m.contains("id"); }
} // namespace

message_filter method_is(std::string m) {
  return [m = std::move(m)](const json& n) { return n.is_object() && member_or(n, "method", "") == m; };
}

probe::probe(std::unique_ptr<client_transport> t, http_client_transport* http)
  : transport_(std::move(t)), http_(http), stream_(http ? &stream_control(*http) : nullptr) {
  client_transport::handlers h;
  h.on_message = [this](std::string text) { on_message(std::move(text)); };
  h.on_closed = [this](std::string reason) {
    std::lock_guard<std::mutex> g(mtx_);
    closed_ = reason;
    failing_locally_ = true;
    rpc_.fail_all({client_error_code::connection_closed, "the connection closed: " + reason, nullptr});
    failing_locally_ = false;
    cv_.notify_all();
  };
  transport_->start(std::move(h));
}

// The transport goes first: its threads (which call into this probe) are
// joined before the probe's own members are destroyed.
probe::~probe() {
  close();
  transport_.reset();
}

void probe::close() {
  if (transport_)
    transport_->close();
}

void probe::on_message(std::string text) {
  json m = json::parse(text, nullptr, false); // kept even when invalid: a shape check sees it
  if (m.is_discarded())
    m = json{{"cafmcp-check/unparsable", text}};
  // A server->client request: answer it so the server never waits on us.
  if (m.is_object() && m.contains("method") && m.contains("id")) {
    auto reply = m["method"] == "ping" ? jsonrpc::result_message(m["id"], json::object())
                                       : jsonrpc::error_message(m["id"], jsonrpc::code::method_not_found,
                                                                "cafmcp-check does not serve this request");
    transport_->send(jsonrpc::wire_text(reply));
  }
  std::lock_guard<std::mutex> g(mtx_);
  rpc_.complete(m);
  inbound_.push_back(std::move(m));
  cv_.notify_all();
}

json probe::initialize(ms timeout) {
  auto res = request("initialize",
                     {{"protocolVersion", version_},
                      {"capabilities", json::object()},
                      {"clientInfo", {{"name", "cafmcp-check"}, {"version", "0.1.0"}}}},
                     timeout);
  if (!res.contains("result") || !res["result"].is_object())
    throw probe_error("initialize failed: " + res.dump());
  version_ = member_or(res["result"], "protocolVersion", version_);
  return res["result"];
}

void probe::send_initialized() {
  {
    std::lock_guard<std::mutex> g(mtx_);
    initialized_at_ = inbound_.size();
  }
  transport_->send(jsonrpc::wire_text(jsonrpc::notification_message("notifications/initialized")));
  transport_->negotiated(version_);
}

void probe::negotiated_only() { transport_->negotiated(version_); }

void probe::go_stateless(const std::string& version, json meta) {
  {
    std::lock_guard<std::mutex> g(mtx_);
    version_ = version;
    request_meta_ = std::move(meta);
  }
  transport_->negotiated(version);
}

namespace {
json with_meta(json params, const json& meta) {
  if (meta.is_null())
    return params;
  if (!params.is_object())
    params = json::object();
  for (auto& [k, v] : meta.items())
    params["_meta"][k] = v;
  return params;
}
} // namespace

json probe::start_request(const std::string& method, json params) {
  std::int64_t id = 0;
  std::optional<std::string> text;
  {
    std::lock_guard<std::mutex> g(mtx_);
    if (closed_)
      throw probe_error(method + ": the connection closed: " + *closed_);
    // Its answer comes when the stream ends, if ever: nobody waits for it.
    text = rpc_.start(
      method, with_meta(std::move(params), request_meta_),
      client_core::steady::now() + std::chrono::hours(24), [](json, std::optional<rpc_failure>) {}, &id);
    if (!text)
      throw probe_error(method + ": too many requests in flight");
  }
  if (!transport_->send(*text))
    throw probe_error("the connection is closed (" + method + ")");
  return id;
}

void probe::notify(const std::string& method, json params) {
  transport_->send(jsonrpc::wire_text(jsonrpc::notification_message(method, std::move(params))));
}

json probe::request(const std::string& method, json params, ms timeout) {
  // What the channel's completion leaves: the response as the server sent
  // it ({result} or {error}), or why there is none (local).
  struct outcome {
    bool done = false;
    std::int64_t id = 0;
    std::optional<std::string> local_failure;
    json response;
  };
  auto out = std::make_shared<outcome>();
  std::optional<std::string> text;
  {
    std::lock_guard<std::mutex> g(mtx_);
    if (closed_)
      throw probe_error(method + ": the connection closed: " + *closed_);
    text = rpc_.start(
      method, with_meta(std::move(params), request_meta_), client_core::steady::now() + timeout,
      [this, out](json result, std::optional<rpc_failure> failure) {
        out->done = true;
        if (failure && failing_locally_) {
          out->local_failure = failure->message;
          return;
        }
        // As the server sent it (data null when it sent none).
        if (failure) {
          out->response = jsonrpc::error_message(out->id, failure->code, failure->message);
          out->response["error"]["data"] = failure->data;
        } else {
          out->response = jsonrpc::result_message(out->id, std::move(result));
        }
      },
      &out->id);
    if (!text)
      throw probe_error(method + ": too many requests in flight");
  }
  if (!transport_->send(*text))
    throw probe_error("the connection is closed (" + method + ")");
  std::unique_lock<std::mutex> lk(mtx_);
  if (!cv_.wait_for(lk, timeout, [&] { return out->done; })) {
    failing_locally_ = true;
    rpc_.expire(client_core::steady::now()); // ours is past its deadline by now
    failing_locally_ = false;
  }
  if (out->local_failure || !out->done)
    throw probe_error(method + ": " + out->local_failure.value_or("no answer in time"));
  return out->response;
}

std::size_t probe::mark() const {
  std::lock_guard<std::mutex> g(mtx_);
  return inbound_.size();
}

std::vector<json> probe::notifications(std::size_t from) const {
  std::lock_guard<std::mutex> g(mtx_);
  std::vector<json> out;
  for (std::size_t i = from; i < inbound_.size(); ++i)
    if (is_notification(inbound_[i]))
      out.push_back(inbound_[i]);
  return out;
}

std::size_t probe::count_notifications(const message_filter& match, std::size_t from) const {
  std::lock_guard<std::mutex> g(mtx_);
  std::size_t n = 0;
  for (std::size_t i = from; i < inbound_.size(); ++i)
    n += is_notification(inbound_[i]) && match(inbound_[i]) ? 1 : 0;
  return n;
}

bool probe::wait_notifications(const message_filter& match, std::size_t n, std::size_t from, ms timeout) {
  std::unique_lock<std::mutex> lk(mtx_);
  return cv_.wait_for(lk, timeout, [&] {
    std::size_t k = 0;
    for (std::size_t i = from; i < inbound_.size(); ++i)
      k += is_notification(inbound_[i]) && match(inbound_[i]) ? 1 : 0;
    return k >= n;
  });
}

std::vector<json> probe::messages() const {
  std::lock_guard<std::mutex> g(mtx_);
  return inbound_;
}

std::vector<json> probe::notifications_before_initialized() const {
  std::lock_guard<std::mutex> g(mtx_);
  std::vector<json> out;
  for (std::size_t i = 0; i < std::min(initialized_at_, inbound_.size()); ++i)
    if (is_notification(inbound_[i]))
      out.push_back(inbound_[i]);
  return out;
}

} // namespace cafmcp::check
