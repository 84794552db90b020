#include "actors/cluster_node.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>

#include "actors/runtime.hpp"

namespace cafmcp::actors {
namespace {

std::string random_hex(std::size_t bytes) {
  std::random_device rd;
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < bytes; ++i) {
    auto b = rd() & 0xff;
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

// node id "/" incarnation: a restarted node numbers its entries from 1
// again, under a name no reader has seen.
std::string origin_of(const cluster_options& o) {
  return (o.node_id.empty() ? random_hex(4) : o.node_id) + "/" + random_hex(6);
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
  : rt_(rt), origin_(origin_of(rt.options->cluster)), connect_(cluster::connector_for(settings_of(rt.options->cluster))) {
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
  reader_ = std::make_unique<cluster::log_reader>(
    connect_, cluster::log_reader::limits{512, std::chrono::milliseconds(1000), retry},
    [this](std::vector<cluster::log_entry>& entries, bool history) { on_entries(entries, history); },
    health_, history_end);
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

settlement_ptr cluster_node::delivered(std::uint64_t seq) {
  return std::static_pointer_cast<settlement>(writer_->taken(seq));
}

// On the reader's thread, in log order.
void cluster_node::on_entries(std::vector<cluster::log_entry>& entries, bool history) {
  auto server = rt_.server();
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
    bool mine = own(*r);
    caf::anon_send(server, logged_atom::value, logged_change{std::move(*r), mine, history, ++handed_});
  }
}

} // namespace cafmcp::actors
