#include "check/context.hpp"

#include <algorithm>

#include <unistd.h>

#include "cafmcp/stdio_client_transport.hpp"

#include "check/shape.hpp"

namespace cafmcp::check {

context::context(const options& o, report& r) : opts(o), out(r) {}

context::~context() = default;

http_client_options context::http_options() const {
  http_client_options h;
  h.url = opts.url;
  h.headers = opts.headers;
  h.auth = opts.auth;
  h.ca_file = opts.ca_file;
  return h;
}

std::unique_ptr<probe> context::open_probe(bool delete_on_close) {
  if (is_http()) {
    auto h = http_options();
    h.delete_on_close = delete_on_close;
    auto t = make_http_client_transport(h);
    auto* raw = t.get();
    return std::make_unique<probe>(std::move(t), raw);
  }
  stdio_client_options s;
  s.argv = opts.stdio_command;
  s.child_stderr = opts.server_stderr ? stdio_client_options::stderr_mode::inherit
                                      : stdio_client_options::stderr_mode::discard;
  return std::make_unique<probe>(make_stdio_client_transport(s), nullptr);
}

std::unique_ptr<probe> context::open_stateless_probe() {
  if (!is_http())
    return open_probe();
  auto h = http_options();
  h.delete_on_close = false; // there is no session to end
  h.open_get_stream = false;
  h.method_headers = true;
  auto t = make_http_client_transport(h);
  auto* raw = t.get();
  return std::make_unique<probe>(std::move(t), raw);
}

std::unique_ptr<probe> context::open_session(bool delete_on_close) {
  auto p = open_probe(delete_on_close);
  p->initialize(opts.timeout);
  p->send_initialized();
  if (p->http() && !p->stream()->wait_get_stream(opts.timeout))
    throw probe_error("the server refused or did not open the GET stream");
  return p;
}

void context::collect(const probe& p) {
  auto m = p.messages();
  seen.insert(seen.end(), m.begin(), m.end());
}

void context::set_primary(std::unique_ptr<probe> p, json capabilities) {
  primary_ = std::move(p);
  caps_ = std::move(capabilities);
}

bool context::declares(const std::string& kind, const std::string& flag) const {
  return caps_.contains(kind) && caps_[kind].is_object()
         && caps_[kind].value(flag, json(false)) == json(true);
}

std::string context::unique(const std::string& stem) {
  return "cafmcp-check-" + std::to_string(::getpid()) + "-" + std::to_string(++counter_) + "-" + stem;
}

std::optional<std::string> context::mutate(probe& p, const std::string& tool, json args) {
  if (tool.empty())
    return std::string("no mutation tool configured");
  try {
    auto res = p.request("tools/call", {{"name", tool}, {"arguments", std::move(args)}}, opts.timeout);
    if (res.contains("error"))
      return "tools/call " + tool + " failed: " + res["error"].dump();
    if (member_or(res["result"], "isError", false))
      return "tool " + tool + " reported an error: " + res["result"].dump();
    return std::nullopt;
  } catch (const probe_error& e) {
    return std::string(e.what());
  }
}

bool context::none_arrives(probe& p, const message_filter& match, std::size_t from) {
  p.barrier(opts.timeout);
  return !p.wait_notifications(match, 1, from, opts.quiet);
}

void context::record(std::string id, std::string title, std::string spec, verdict v, std::string detail) {
  out.add({std::move(id), std::move(title), std::move(spec), v, std::move(detail)});
}

bool context::recorded(const std::string& id) const {
  const auto& all = out.results();
  return std::any_of(all.begin(), all.end(), [&](const check_result& r) { return r.id == id; });
}

} // namespace cafmcp::check
