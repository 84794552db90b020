#include "streamable_http/http_session.hpp"

#include <algorithm>

#include "cafmcp/json_rpc.hpp"

#include "streamable_http/error_response.hpp"
#include "streamable_http/request_policy.hpp"
#include "streamable_http/sse.hpp"

namespace cafmcp::http {

http_session::http_session(std::string id, session_host& host, bool stateless)
  : stateless_(stateless), clustered_(!stateless && !host.core().options().cluster.url.empty()),
    outbox_(host.outbox()), id_(std::move(id)), host_(host), options_(host.options()),
    headers_(stateless ? std::string() : "Mcp-Session-Id: " + id_ + "\r\n") {
  standalone_ = &new_stream(0);
  if (clustered_)
    last_mark_ = {host.core().log_now(), 0};
}

bool http_session::hand_over(outgoing o) {
  if (closing_.load())
    return false;
  return outbox_->push(std::move(o));
}

bool http_session::send(frame message, const routing& where) {
  // A notification for the standalone stream, sent by an actor the loop
  // runs (the notifier, after a mutation read on this loop, or a change
  // read from a cluster's log that this loop announces), with no more
  // right behind it: routed here and now when nothing waits in the outbox,
  // with no outgoing entry, no reference taken and no second visit to this
  // session's memory (one update at a time: 1,870 -> 1,713 instructions
  // per delivery), and as a lone event (http_conn::followed::no): straight
  // into the loop's collected writes. A burst queues: its frames then reach
  // each connection's write together (a storm routed at once wrote 5.0
  // frames per write, not 6.8). Messages of a request queue (their
  // request's state is the loop's to change, in order), all but a plain
  // answer with nothing ahead of it (answers_here).
  if (!where.request_key && !where.burst && !closing_.load() && outbox_->idle_here()) {
    route(std::move(message), where, http_conn::followed::no);
    return true;
  }
  if (where.request_key && where.final_response && answers_here(*where.request_key)) {
    route(std::move(message), where);
    return true;
  }
  return hand_over({shared_from_this(), std::move(message), where, outgoing::kind::frame});
}

// A request's plain JSON answer, sent by an actor the loop runs (a quick
// tool's session, a mutation's callback) with nothing waiting in the
// outbox: nothing of this request is queued ahead of it, so it is written
// here and now, in the step that computed it, instead of a loop step
// later. Only an answer that cannot end the session (not initialize's,
// not a stateless one's) and that is not the last event of an SSE stream.
bool http_session::answers_here(const std::string& key) const {
  if (stateless_ || closing_.load() || !outbox_->idle_here())
    return false;
  auto it = pending_.find(key);
  return it != pending_.end() && !it->second.initialize && it->second.stream == 0;
}

// A notification for the standalone stream reads its map node and its
// connection's first lines; this object's own were asked for before.
void http_session::prefetch() const noexcept {
  prefetch_lines(standalone_, 2);
  prefetch_lines(standalone_conn_.load(std::memory_order_relaxed), 2);
}

void http_session::end_request(const std::string& key) {
  hand_over({shared_from_this(), nullptr, routing{key}, outgoing::kind::end_request});
}

void http_session::release_stream(const std::string& key) {
  hand_over({shared_from_this(), nullptr, routing{key}, outgoing::kind::release_stream});
}

void http_session::close() {
  if (closing_.exchange(true))
    return;
  // After what was sent before it.
  outbox_->push({shared_from_this(), nullptr, {}, outgoing::kind::close});
}

void http_session::run(outgoing& o) {
  switch (o.what) {
    case outgoing::kind::frame: return o.to->route(std::move(o.message), o.where);
    case outgoing::kind::end_request: return o.to->end_without_response(*o.where.request_key);
    case outgoing::kind::release_stream: return o.to->release_stream_of(*o.where.request_key);
    case outgoing::kind::close: return o.to->end();
  }
}

http_session::stream& http_session::new_stream(std::uint64_t id) {
  return streams_
    .try_emplace(id, options_.stream_history_events, options_.stream_history_age, options_.stream_history_bytes,
                 host_.histories())
    .first->second;
}

void http_session::post_request(const std::shared_ptr<http_conn>& c, std::string key, jsonrpc::message msg,
                                bool initialize, std::shared_ptr<const auth::identity> who,
                                std::shared_ptr<const std::map<std::string, std::string>> param_headers) {
  touch();
  pending_[key] = pending{c, 0, initialize};
  if (stateless_) { // the client leaving ends its request (and a listen stream)
    std::weak_ptr<http_session> weak = shared_from_this();
    c->on_close = [weak] {
      if (auto self = weak.lock())
        self->end();
    };
  }
  if (param_headers)
    core_->receive(std::move(msg), std::move(who), std::move(param_headers));
  else if (who)
    core_->receive(std::move(msg), std::move(who));
  else
    core_->receive(std::move(msg));
}

void http_session::post_other(jsonrpc::message msg, std::shared_ptr<const auth::identity> who) {
  touch();
  if (who)
    core_->receive(std::move(msg), std::move(who));
  else
    core_->receive(std::move(msg));
}

void http_session::write(stream& s, std::uint64_t stream_id, std::uint64_t seq, frame f,
                         http_conn::followed next) {
  if (auto c = s.conn.lock(); c && c->open()) {
    c->send_event(stream_id, seq, std::move(f), next);
    s.delivered = seq;
  }
}

void http_session::write_marked(stream& s, const stream_mark& m, const frame& f) {
  if (auto c = s.conn.lock(); c && c->open())
    c->send_event(m, f);
}

// Clustered: the standalone stream's events are named by their place in the
// change log (stream_mark.hpp). A notification a replay told already is not
// told again.
void http_session::route_marked(const frame& f, const std::optional<log_mark>& logged,
                                http_conn::followed next) {
  stream_mark m;
  if (logged) {
    if (replayed_upto_ && *logged <= *replayed_upto_)
      return;
    m = {*logged, 0};
  } else {
    m = last_mark_.next_own();
  }
  last_mark_ = std::max(last_mark_, m);
  standalone_->history.append(f, coarse_now(), m);
  flush_marked(next);
}

// Writes what the open GET stream has not had yet, while this node owns it:
// a stream another node took over ends here without another byte, and
// while the lease lapsed (this node paused or cut off from the log) what
// would go out waits in the history until the node hears from the log.
// `next` is the newest event's (a lone one: http_conn::collect_event); any
// before it is followed by it.
void http_session::flush_marked(http_conn::followed next) {
  auto& s = *standalone_;
  auto c = s.conn.lock();
  if (!c || !c->open())
    return;
  if (claim_ && claim_->taken_over()) {
    c->end_sse();
    s.conn.reset();
    claim_.reset();
    return;
  }
  if (claim_ && !claim_->lease_holds())
    return;
  bool kept = s.history.each_after(s.delivered, [&](const event_store::event& e) {
    c->send_event(e.mark, e.data, e.seq == s.history.last_seq() ? next : http_conn::followed::maybe);
    s.delivered = e.seq;
  });
  if (!kept) { // more waited than the history keeps: the client resumes, from the log
    c->end_sse();
    s.conn.reset();
  }
}

void http_session::answer_json(pending& p, const frame& f) {
  auto& c = p.conn;
  if (!c || !c->open())
    return; // the client left before its answer: nothing to deliver it on
  if (p.initialize) {
    // A failed initialize creates no session.
    if (jsonrpc::answer_error_code(*f)) {
      c->respond(200, "application/json", {}, f);
      end();
      return;
    }
  }
  // A call refused for its token's scopes is the HTTP 403 the
  // authorization spec names, with the scopes to ask for (step-up).
  if (auto scopes = insufficient_scopes_in(*f))
    return c->respond(403, "application/json",
                      headers() + host_.auth().challenge("insufficient_scope", {}, *scopes), f);
  c->respond(stateless_ ? stateless_answer_status(*f) : 200, "application/json", headers(), f);
}

void http_session::route(frame f, const routing& where, http_conn::followed next) {
  if (ended_)
    return;
  if (!where.request_key) { // unrelated: the standalone stream, or its history
    if (clustered_)
      return route_marked(f, where.logged, next);
    auto& s = *standalone_;
    auto seq = s.history.append(f);
    write(s, 0, seq, std::move(f), next);
    return;
  }
  auto it = pending_.find(*where.request_key);
  if (it == pending_.end())
    return; // its POST was answered already (a late duplicate)
  // Any write may end this session and clear pending_: a failed initialize
  // does, and so does a stateless client whose connection drops. So the
  // request's last message takes its entry out first, and a related one
  // looks at nothing of it once it has written.
  if (!where.final_response) {
    auto& p = it->second;
    if (p.stream == 0)
      start_stream(p); // a related message comes first: the answer becomes SSE
    if (ended_)
      return;
    auto& s = streams_.at(p.stream);
    write(s, p.stream, s.history.append(f), f);
    return;
  }
  auto p = std::move(it->second);
  pending_.erase(it);
  if (p.stream == 0) {
    answer_json(p, f); // the only message: plain JSON
  } else {
    auto& s = streams_.at(p.stream);
    write(s, p.stream, s.history.append(f), f);
    finish(p.stream);
  }
  if (stateless_)
    end();
}

// The request ended without a response (the client cancelled it, or ended a
// listen stream): nothing more will come for it.
void http_session::end_without_response(const std::string& key) {
  if (ended_)
    return;
  auto it = pending_.find(key);
  if (it == pending_.end())
    return;
  auto p = std::move(it->second);
  pending_.erase(it);
  if (p.stream != 0)
    finish(p.stream);
  else if (p.conn && p.conn->open())
    p.conn->respond(202, {}, headers(), nullptr);
  if (stateless_)
    end();
}

void http_session::release_stream_of(const std::string& key) {
  if (ended_)
    return;
  if (auto it = pending_.find(key); it != pending_.end())
    release(it->second);
}

// The stream stays resumable for a while (its response may not have reached
// the client), but only the newest few and only for the history's age.
void http_session::finish(std::uint64_t stream_id) {
  auto& s = streams_.at(stream_id);
  s.finished = true;
  s.finished_at = std::chrono::steady_clock::now();
  if (auto c = s.conn.lock())
    c->end_sse();
  s.conn.reset();
  finished_.push_back(stream_id);
  while (finished_.size() > options_.finished_streams_per_session) {
    streams_.erase(finished_.front());
    finished_.pop_front();
  }
}

void http_session::expire(std::chrono::steady_clock::time_point older_than) {
  while (!finished_.empty() && streams_.at(finished_.front()).finished_at < older_than) {
    streams_.erase(finished_.front());
    finished_.pop_front();
  }
}

void http_session::start_stream(pending& p) {
  p.stream = next_stream_++;
  auto& s = new_stream(p.stream);
  if (auto c = p.conn; c && c->open()) { // a copy: writing may end the session, and `p` with it
    c->begin_sse(headers());
    c->send_text(priming_event(event_id(p.stream, 0), options_.retry_hint.count()));
    s.conn = c;
  }
}

// SSE polling: end the connection (after `retry:`), keep the stream; the
// client comes back with GET + Last-Event-ID for the rest.
void http_session::release(pending& p) {
  if (p.stream == 0)
    start_stream(p);
  if (ended_)
    return; // writing its first event ended the session
  auto& s = streams_.at(p.stream);
  if (auto c = s.conn.lock()) {
    c->send_text(retry_field(options_.retry_hint.count()));
    c->end_sse();
  }
  s.conn.reset();
  p.conn.reset();
}

void http_session::attach_stream(stream& s, std::uint64_t id, const std::shared_ptr<http_conn>& c) {
  s.conn = c;
  if (&s == standalone_)
    standalone_conn_.store(c.get(), std::memory_order_relaxed);
  std::weak_ptr<http_session> weak = shared_from_this();
  c->on_close = [weak] {
    if (auto self = weak.lock())
      self->touch(); // idle time counts from when the last connection left
  };
}

void http_session::open_stream(const std::shared_ptr<http_conn>& c,
                               const std::optional<std::string>& last_event_id) {
  touch();
  if (clustered_) {
    if (!last_event_id)
      return open_marked_stream(c, std::nullopt);
    if (auto m = stream_mark::parse(*last_event_id))
      return open_marked_stream(c, *m);
  }
  std::uint64_t stream_id = 0, seq = 0;
  bool resuming = last_event_id.has_value();
  if (resuming && !parse_event_id(*last_event_id, stream_id, seq))
    return answer_error(*c, 400, "Malformed Last-Event-ID: " + *last_event_id, std::nullopt, headers());
  auto it = streams_.find(stream_id);
  // (A clustered session's standalone stream names its events otherwise.)
  if (it == streams_.end() || (clustered_ && stream_id == 0))
    return answer_error(*c, 410, "Stream of event " + *last_event_id + " is gone", std::nullopt, headers());
  auto& s = it->second;
  if (auto current = s.conn.lock(); current && current->open()) {
    if (!resuming)
      return answer_error(*c, 409, "This session already has an open GET stream", std::nullopt, headers());
    current->end_sse(); // the client came back: the new connection takes over
  }
  // Resumption: everything after the client's last event, or a clear
  // "gone". Fresh standalone GET: whatever no connection has taken yet and
  // is still kept (it promised no one a complete replay).
  auto from = resuming ? seq : s.delivered;
  auto missed = resuming ? s.history.after(from)
                         : std::optional<std::vector<event_store::event>>(s.history.kept_after(from));
  if (!missed)
    return answer_error(
      *c, 410, "Events after " + *last_event_id + " are no longer kept; reconnect without Last-Event-ID",
      std::nullopt, headers());
  c->begin_sse(headers());
  c->send_text(priming_event(event_id(stream_id, from), options_.retry_hint.count()));
  attach_stream(s, stream_id, c);
  for (auto& e : *missed)
    write(s, stream_id, e.seq, e.data);
  if (s.finished) { // a POST stream that already ended: replay only
    c->end_sse();
    s.conn.reset();
  }
}

// Clustered standalone stream. Resumed: what the change log told the
// session after the client's last event, from this node's recent entries
// (wherever the stream was served until now), merged in mark order with
// this node's own messages of the session after it; a notification that
// reaches this session later and was told here is dropped (route_marked).
// The replay runs on this loop: it costs one walk over the node's recent
// entries, paid once per resumption. Fresh, and the session's first stream
// anywhere: the same, from the session's start (nothing carried it yet).
// Fresh after another stream: from now on, for what this node kept may
// have reached the client on that stream, and a message must not go out on
// two streams.
void http_session::open_marked_stream(const std::shared_ptr<http_conn>& c,
                                      const std::optional<stream_mark>& after) {
  auto& s = *standalone_;
  if (auto current = s.conn.lock(); current && current->open()) {
    if (!after)
      return answer_error(*c, 409, "This session already has an open GET stream", std::nullopt, headers());
    current->end_sse(); // the client came back: the new connection takes over
  }
  // Resumed: the claim follows the replay (a 410 claims nothing). Fresh: it
  // comes first, for only the log says whether a stream came before.
  std::optional<stream_mark> from = after;
  if (!after) {
    claim_ = host_.core().claim_stream(id_); // returns once the claim is read back
    if (auto since = claim_->first_since())
      from = stream_mark{*since, 0};
  }
  std::vector<std::pair<stream_mark, frame>> missed;
  bool replayed = false;
  if (from) {
    auto replay = host_.core().replay(id_, from->at);
    if (replay.complete) {
      replayed = true;
      for (auto& [m, f] : replay.messages)
        missed.emplace_back(stream_mark{m, 0}, std::move(f));
      for (auto& e : s.history.kept_after(0))
        if (e.mark > *from && (e.mark.own != 0 || e.mark.at > replay.upto))
          missed.emplace_back(e.mark, e.data);
      std::stable_sort(missed.begin(), missed.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      if (!replayed_upto_ || *replayed_upto_ < replay.upto)
        replayed_upto_ = replay.upto;
      last_mark_ = std::max(last_mark_, stream_mark{replay.upto, 0});
      if (!missed.empty())
        last_mark_ = std::max(last_mark_, missed.back().first);
    } else if (after) {
      return answer_error(*c, 410,
                          "Events after " + after->text()
                            + " are no longer kept on this node; reconnect without Last-Event-ID",
                          std::nullopt, headers());
    }
  }
  if (after)
    claim_ = host_.core().claim_stream(id_); // returns once the claim is read back
  if (!replayed) {
    // Fresh after another stream (or the session's start no longer kept):
    // from the claim on. What the log told the session before it may have
    // gone out on another node's stream (this node may have read it only
    // now, or still hand it to this session later): none of it here.
    if (auto before = host_.core().replay(id_, last_mark_.at); before.complete) {
      if (!replayed_upto_ || *replayed_upto_ < before.upto)
        replayed_upto_ = before.upto;
      last_mark_ = std::max(last_mark_, stream_mark{before.upto, 0});
    }
  }
  auto primed = replayed ? *from : last_mark_;
  s.delivered = s.history.last_seq(); // what is older was replayed, or predates this stream
  c->begin_sse(headers());
  c->send_text(priming_event(primed.text(), options_.retry_hint.count()));
  attach_stream(s, 0, c);
  for (auto& [m, f] : missed)
    write_marked(s, m, f);
}

void http_session::end(int status, const std::string& why) {
  if (ended_)
    return;
  ended_ = true;
  closing_ = true;
  if (core_)
    core_->close(); // the session actor stops; its subscriptions go with it
  // Requests in flight: a plain POST gets the status, one whose answer is
  // already an SSE stream gets the error as its last event.
  for (auto& [key, p] : pending_) {
    auto id = jsonrpc::from_key(key);
    if (p.stream != 0) {
      auto& s = streams_.at(p.stream);
      auto err =
        std::make_shared<const std::string>(jsonrpc::serialize_error(id, {-32000, why, std::nullopt}));
      write(s, p.stream, s.history.append(err), err);
    } else if (p.conn && p.conn->open()) {
      answer_error(*p.conn, status, why, id);
    }
  }
  pending_.clear();
  for (auto& [id, s] : streams_) {
    if (auto c = s.conn.lock())
      c->end_sse();
    s.history.clear(); // on this loop: the session object may die elsewhere
  }
  host_.ended(*this);
}

void http_session::drain() {
  if (!ended_ && core_)
    core_->finish();
}

bool http_session::idle_since(std::chrono::steady_clock::time_point t) const {
  if (!pending_.empty())
    return false;
  for (auto& [id, s] : streams_)
    if (auto c = s.conn.lock(); c && c->open())
      return false;
  return last_activity_ < t;
}

void http_session::keep_alive(std::chrono::steady_clock::time_point older_than) {
  bool owns_get_stream = true;
  if (clustered_ && claim_) {
    flush_marked(); // ends a stream taken over, writes what waited for the lease
    owns_get_stream = claim_ && claim_->lease_holds(); // else not a byte to it
  }
  for (auto& [id, s] : streams_) {
    if (id == 0 && !owns_get_stream)
      continue;
    if (auto c = s.conn.lock(); c && c->open() && c->last_write() < older_than)
      c->send_text(keep_alive_comment);
  }
}

} // namespace cafmcp::http
