#include "actors/cluster_node.hpp"

#include <algorithm>
#include <stdexcept>

#include "actors/loop_unit.hpp"
#include "actors/runtime.hpp"
#include "foundation/random_hex.hpp"

namespace cafmcp::actors {
namespace {

// node id "/" incarnation: a restarted node numbers its entries from 1
// again, under a name no reader has seen.
std::string origin_of(const cluster_options& o) {
  return (o.node_id.empty() ? detail::random_hex(4) : o.node_id) + "/" + detail::random_hex(6);
}

cluster::log_settings settings_of(const cluster_options& o) {
  cluster::log_settings s;
  s.url = o.url;
  s.key_prefix = o.key_prefix;
  s.max_entries = o.log_max_entries;
  s.timeout = o.log_timeout;
  return s;
}

} // namespace

cluster_node::cluster_node(runtime& rt)
  : rt_(rt), origin_(origin_of(rt.options->cluster)),
    connect_(cluster::connector_for(settings_of(rt.options->cluster))),
    recent_(rt.options->cluster.replay_entries) {
  if (rt.options->cluster.secret.empty())
    throw std::invalid_argument("a cluster needs cluster.secret: the key every node seals requestState with");
}

cluster_node::~cluster_node() { stop(); }

void cluster_node::start() {
  auto retry = std::max(std::chrono::milliseconds(10), rt_.options->cluster.log_timeout / 10);
  writer_ = std::make_unique<cluster::log_writer>(
    connect_, cluster::log_writer::limits{rt_.options->cluster.outbox_limit, 256, retry},
    [origin = origin_](std::uint64_t seq) {
      protocol::log_record r;
      r.origin = origin;
      r.seq = seq;
      r.resync = true;
      return protocol::encode(r);
    },
    health_);
  // Where history ends, found before the constructor returns: a change
  // logged once the server exists is announced to its sessions. (With the
  // log unreachable the reader finds out when it first reaches it.)
  std::optional<cluster::log_position> history_end;
  try {
    history_end = connect_()->newest();
  } catch (const std::exception&) {
  }
  // Heard from at least three times per lease, while the log answers.
  auto wait = std::clamp(rt_.options->cluster.stream_lease / 3, std::chrono::milliseconds(10),
                         std::chrono::milliseconds(1000));
  reader_ = std::make_unique<cluster::log_reader>(
    connect_, cluster::log_reader::limits{512, wait, retry},
    [this](std::vector<cluster::log_entry>& entries, bool history) { on_entries(entries, history); }, health_,
    history_end,
    // After the claims of what it read: a node that was paused hears of a
    // takeover before its lease holds again.
    [heard = heard_at_](std::chrono::steady_clock::time_point asked) {
      heard->store(asked.time_since_epoch().count());
    });
}

void cluster_node::stop() { reader_.reset(); }

void cluster_node::publish(protocol::log_record r, settlement_ptr done) {
  r.origin = origin_;
  writer_->append(
    [&r](std::uint64_t seq) {
      r.seq = seq;
      return protocol::encode(r);
    },
    std::move(done));
}

settlement_ptr cluster_node::delivered(std::uint64_t seq) { return writer_->taken(seq); }

std::optional<protocol::session_record> cluster_node::known_session(const std::string& id) {
  {
    std::lock_guard<std::mutex> g(known_mtx_);
    if (auto it = known_.find(id); it != known_.end())
      return it->second.latest.second;
  }
  // Announced elsewhere a moment ago, perhaps: read as far as the log
  // reaches now, then look again. (An unknown id costs one round trip; with
  // the log unreachable, none: the caller answers that it cannot tell.)
  if (problem())
    return std::nullopt;
  std::optional<cluster::log_position> newest;
  {
    std::lock_guard<std::mutex> g(probe_mtx_);
    try {
      if (!probe_)
        probe_ = connect_();
      newest = probe_->newest();
    } catch (const std::exception&) {
    }
    if (!newest)
      probe_.reset(); // a new connection next time
  }
  if (!newest)
    return std::nullopt;
  std::unique_lock<std::mutex> g(known_mtx_);
  read_further_.wait_for(g, rt_.options->cluster.log_timeout, [&] { return read_upto_ >= *newest; });
  if (auto it = known_.find(id); it != known_.end())
    return it->second.latest.second;
  return std::nullopt;
}

void cluster_node::remember(const protocol::log_record::session_note& note, log_mark at) {
  std::lock_guard<std::mutex> g(known_mtx_);
  if (!note.record) {
    known_.erase(note.id);
    return; // its id stays in known_order_ until it comes round: harmless
  }
  auto [it, added] = known_.try_emplace(note.id, known_session_entry{at, {at, *note.record}});
  if (!added) {
    it->second.latest = {at, *note.record};
    return;
  }
  known_order_.push_back(note.id);
  while (known_.size() > rt_.options->cluster.max_known_sessions && !known_order_.empty()) {
    known_.erase(known_order_.front());
    known_order_.pop_front();
  }
}

// On the reader's thread, in log order.
void cluster_node::on_entries(std::vector<cluster::log_entry>& entries, bool history) {
  std::vector<logged_change> batch;
  batch.reserve(entries.size());
  for (auto& e : entries) {
    auto r = protocol::decode(e.body);
    if (!r) // not ours to read (another writer's key, damage): skipped
      continue;
    auto verdict = filter_.admit(r->origin, r->seq);
    if (verdict == cluster::origin_filter::verdict::duplicate)
      continue;
    // Entries of that origin were lost before this node read them: what
    // they said cannot be replayed, so every session re-reads everything.
    if (verdict == cluster::origin_filter::verdict::after_gap)
      r->resync = true;
    log_mark at{e.position.ms, e.position.seq, 0};
    if (r->session)
      remember(*r->session, at);
    {
      std::lock_guard<std::mutex> g(recent_mtx_);
      recent_.add(at, *r);
      if (history) // told to no one: a session starting now hears of what follows
        notifying_ = {at.ms, at.seq, protocol::whole_entry};
    }
    if (r->claim)
      settle_claim(*r);
    bool mine = own(*r);
    batch.push_back(logged_change{std::move(*r), mine, history, ++handed_, at});
  }
  if (!batch.empty())
    hand_on(std::move(batch));
  if (!entries.empty()) {
    std::lock_guard<std::mutex> g(known_mtx_);
    read_upto_ = entries.back().position;
  }
  read_further_.notify_all();
}

namespace {

// A batch on its way to the server actor through a loop: sent there, in
// order, on the loop's unit (loop_unit.hpp); or, where its job is destroyed
// unrun (the loop stopped first), through CAF's scheduler: never dropped.
struct logged_batch {
  logged_batch(server_actor t, std::vector<logged_change> c) : to(std::move(t)), changes(std::move(c)) {}
  logged_batch(const logged_batch&) = delete;
  logged_batch& operator=(const logged_batch&) = delete;

  server_actor to;
  std::vector<logged_change> changes;
  bool sent = false;

  void send(caf::execution_unit* unit) {
    sent = true;
    if (to)
      for (auto& c : changes)
        to->eq_impl(caf::make_message_id(), nullptr, unit, logged_atom::value, std::move(c));
  }
  ~logged_batch() {
    if (!sent)
      send(nullptr);
  }
};

} // namespace

void cluster_node::hand_on(std::vector<logged_change> batch) {
  auto b = std::make_shared<logged_batch>(rt_.server(), std::move(batch));
  std::function<void()> job = [b] { b->send(loop_unit::here()); };
  if (!announcer_.post(job))
    b->send(nullptr);
}

} // namespace cafmcp::actors

namespace cafmcp::actors {

protocol::recent_log::replay cluster_node::replay(const std::string& id, log_mark after) {
  std::optional<std::pair<log_mark, protocol::session_record>> latest;
  {
    std::lock_guard<std::mutex> g(known_mtx_);
    if (auto it = known_.find(id); it != known_.end())
      latest = it->second.latest;
  }
  std::lock_guard<std::mutex> g(recent_mtx_);
  return recent_.since(id, after, latest, rt_.options->list_changed_metadata);
}

struct cluster_node::claim_state : stream_claim {
  claim_state(std::uint64_t n, std::chrono::nanoseconds lease,
              std::shared_ptr<std::atomic<std::int64_t>> heard)
    : number(n), lease(lease), heard_at(std::move(heard)) {}
  bool taken_over() const override { return fenced.load(); }
  bool lease_holds() const override {
    auto now = std::chrono::steady_clock::now().time_since_epoch().count();
    return now - heard_at->load() < lease.count();
  }
  // Written by the reader before `logged`; read once the claim is logged.
  std::optional<log_mark> first_since() const override { return logged.load() ? first : std::nullopt; }
  std::optional<log_mark> first;
  const std::uint64_t number;
  const std::chrono::nanoseconds lease;
  std::shared_ptr<std::atomic<std::int64_t>> heard_at;
  std::atomic<bool> logged{false}; // read back from the log
  std::atomic<bool> fenced{false};
};

std::shared_ptr<stream_claim> cluster_node::claim(const std::string& id) {
  std::shared_ptr<claim_state> c;
  {
    std::lock_guard<std::mutex> g(claims_mtx_);
    c = std::make_shared<claim_state>(++claims_made_, rt_.options->cluster.stream_lease, heard_at_);
    claims_[id] = c;
    std::erase_if(claims_, [](auto& kv) { return kv.second.expired(); });
  }
  protocol::log_record r;
  r.claim = protocol::log_record::stream_claim{id, c->number};
  publish(std::move(r), nullptr);
  // The stream is this node's only once the claim is in the log and read
  // back: a node paused past its lease that reads on afterwards then reads
  // the claim with the changes made meanwhile, and ends its copy of the
  // stream before writing them (answering the client first let it write
  // them to the old stream too). Read back, it also means this node has read
  // everything logged before it (the fresh stream starts after that: see
  // http_session::open_marked_stream). Bounded: with the log out of reach
  // the lease lapses anyway and nothing is written until it is back.
  std::unique_lock<std::mutex> g(claims_mtx_);
  claim_read_.wait_for(g, rt_.options->cluster.log_timeout, [&] { return c->logged.load(); });
  return c;
}

// On the reader's thread: a claim read back from the log. This node's
// current claim of that stream is now logged; another node's claim after
// it takes the stream over.
void cluster_node::settle_claim(const protocol::log_record& r) {
  // The first claim of a session's stream in the log owes its client what
  // the log told the session since it started (no stream carried it).
  std::optional<log_mark> first;
  {
    std::lock_guard<std::mutex> g(known_mtx_);
    if (auto it = known_.find(r.claim->id); it != known_.end()) {
      if (!it->second.streamed)
        first = it->second.started;
      it->second.streamed = true;
    }
  }
  std::lock_guard<std::mutex> g(claims_mtx_);
  auto it = claims_.find(r.claim->id);
  if (it == claims_.end())
    return;
  auto c = it->second.lock();
  if (!c) {
    claims_.erase(it);
    return;
  }
  if (own(r)) {
    if (r.claim->number == c->number) {
      c->first = first;
      c->logged = true;
      claim_read_.notify_all();
    }
  } else if (c->logged) {
    c->fenced = true;
  }
}

void cluster_node::forget(const std::string& id) {
  std::lock_guard<std::mutex> g(known_mtx_);
  known_.erase(id);
}

void cluster_node::notifying(log_mark at) {
  std::lock_guard<std::mutex> g(recent_mtx_);
  notifying_ = {at.ms, at.seq, protocol::whole_entry};
}

log_mark cluster_node::notifying_now() const {
  std::lock_guard<std::mutex> g(recent_mtx_);
  return notifying_;
}

} // namespace cafmcp::actors
