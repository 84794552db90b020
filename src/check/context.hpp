#pragma once
// What every check shares: how to open another session to the server, the
// first (primary) session and the capabilities it was given, the report,
// and every message any session saw (for the wire-shape checks).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "check/options.hpp"
#include "check/probe.hpp"
#include "check/report.hpp"

namespace cafmcp::check {

class context {
public:
  context(const options& opts, report& out);
  ~context();

  bool is_http() const { return !opts.url.empty(); }
  /// The HTTP client's options every probe starts from (url, headers,
  /// token source, trusted CAs).
  http_client_options http_options() const;
  /// A new connection, not yet initialized (stdio: a new server process).
  std::unique_ptr<probe> open_probe(bool delete_on_close = true);
  /// A connection for stateless requests (2026-07-28): no session; over
  /// HTTP each POST carries Mcp-Method/Mcp-Name and no GET stream is opened.
  std::unique_ptr<probe> open_stateless_probe();
  /// A new session: initialize, initialized, and (HTTP) its GET stream open.
  std::unique_ptr<probe> open_session(bool delete_on_close = true);
  /// Remembers what `p` received, for the checks over every notification.
  void collect(const probe& p);

  probe& primary() { return *primary_; }
  void set_primary(std::unique_ptr<probe> p, json capabilities);
  const json& capabilities() const { return caps_; }
  /// capabilities[kind][flag] == true, e.g. ("tools", "listChanged").
  bool declares(const std::string& kind, const std::string& flag) const;

  /// A name no earlier run or check used: "cafmcp-check-<pid>-<n>-<stem>".
  std::string unique(const std::string& stem);
  std::string unique_uri(const std::string& stem) { return "test://cafmcp-check/" + unique(stem); }

  /// Calls mutation tool `tool` with `args` on `p`. nullopt when it worked,
  /// else why not (no such tool, an error result, no answer).
  std::optional<std::string> mutate(probe& p, const std::string& tool, json args);

  /// After a barrier on `p`, watches `quiet` for a notification matching
  /// `match` from `from`; true when none came.
  bool none_arrives(probe& p, const message_filter& match, std::size_t from);

  void record(std::string id, std::string title, std::string spec, verdict v, std::string detail = {});
  bool recorded(const std::string& id) const;

  const options& opts;
  report& out;
  std::vector<json> seen; // every inbound message of every session, per session in order

private:
  std::unique_ptr<probe> primary_;
  json caps_ = json::object();
  int counter_ = 0;
};

} // namespace cafmcp::check
