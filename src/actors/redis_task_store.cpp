#include "actors/redis_task_store.hpp"

#include <algorithm>

#include <hiredis/hiredis.h>

namespace cafmcp::actors {

namespace {

constexpr auto beat_every = std::chrono::seconds(1);
constexpr auto beat_lasts = std::chrono::seconds(3);

std::string ms_text(std::chrono::milliseconds d) { return std::to_string(std::max<std::int64_t>(1, d.count())); }

// How long the record still has to live.
std::chrono::milliseconds remaining(const protocol::task_record& t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.created + t.ttl - task_store::clock::now());
}

} // namespace

redis_task_store::redis_task_store(cluster::redis_address where, std::string key_prefix, std::string node,
                                   std::chrono::milliseconds timeout)
  : where_(std::move(where)), prefix_(std::move(key_prefix)), node_(std::move(node)), timeout_(timeout),
    heartbeat_([this] { beat(); }) {}

redis_task_store::~redis_task_store() {
  {
    std::lock_guard<std::mutex> g(mtx_);
    stopping_ = true;
  }
  wake_.notify_all();
  heartbeat_.join();
}

void redis_task_store::beat() {
  std::unique_lock<std::mutex> g(mtx_);
  while (!stopping_) {
    command({"SET", prefix_ + ":node:" + node_, "1", "PX", ms_text(beat_lasts)});
    wake_.wait_for(g, beat_every, [this] { return stopping_; });
  }
  command({"DEL", prefix_ + ":node:" + node_}); // stopped cleanly: its tasks failed already
}

cluster::reply_ptr redis_task_store::command(std::initializer_list<std::string_view> args) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      if (!conn_)
        conn_ = std::make_unique<cluster::redis_connection>(where_, timeout_);
      auto r = conn_->command(args);
      if (r)
        return r;
    } catch (const std::exception&) {
    }
    conn_.reset(); // broken: a new one next time
  }
  return nullptr;
}

std::optional<protocol::task_record> redis_task_store::read(const std::string& id) {
  auto r = command({"GET", prefix_ + ":task:" + id});
  if (!r || r->type != REDIS_REPLY_STRING)
    return std::nullopt;
  return protocol::record_from_json(json::parse(cluster::text_of(r.get()), nullptr, false));
}

bool redis_task_store::node_alive(const std::string& node) {
  if (node.empty() || node == node_)
    return true;
  auto r = command({"EXISTS", prefix_ + ":node:" + node});
  return !r || r->type != REDIS_REPLY_INTEGER || r->integer == 1; // unknown: not judged dead
}

std::optional<jsonrpc::error> redis_task_store::insert(protocol::task_record r, const task_options& limits) {
  std::lock_guard<std::mutex> g(mtx_);
  auto now = clock::now();
  while (!local_ends_.empty() && local_ends_.begin()->first < now)
    local_ends_.erase(local_ends_.begin());
  if (local_ends_.size() >= limits.max_tasks)
    return too_many_tasks(limits.max_tasks);
  r.node = node_;
  if (!r.owner.empty()) {
    auto set = prefix_ + ":owner:" + r.owner;
    auto ids = command({"SMEMBERS", set});
    std::size_t live = 0;
    if (ids && ids->type == REDIS_REPLY_ARRAY)
      for (std::size_t i = 0; i < ids->elements; ++i) {
        auto id = std::string(cluster::text_of(ids->element[i]));
        auto e = command({"EXISTS", prefix_ + ":task:" + id});
        if (e && e->type == REDIS_REPLY_INTEGER && e->integer == 1)
          ++live;
        else
          command({"SREM", set, id}); // expired
      }
    if (live >= limits.max_tasks_per_owner)
      return too_many_tasks_of_owner(limits.max_tasks_per_owner);
    command({"SADD", set, r.id});
    command({"PEXPIRE", set, ms_text(limits.max_ttl)});
  }
  auto stored = command({"SET", prefix_ + ":task:" + r.id, protocol::record_json(r).dump(), "PX", ms_text(r.ttl)});
  if (!stored || stored->type == REDIS_REPLY_ERROR)
    return jsonrpc::error{jsonrpc::code::internal_error,
                          "The task could not be stored: " + (stored ? std::string(cluster::text_of(stored.get()))
                                                                     : std::string("Redis unreachable")),
                          std::nullopt};
  local_ends_.emplace(r.created + r.ttl, r.id);
  return std::nullopt;
}

std::optional<protocol::task_record>
redis_task_store::change_locked(const std::string& id, const std::function<bool(protocol::task_record&)>& change) {
  auto key = prefix_ + ":task:" + id;
  for (int attempt = 0; attempt < 8; ++attempt) {
    if (!command({"WATCH", key}))
      return std::nullopt;
    auto t = read(id);
    if (!t || !change(*t)) {
      command({"UNWATCH"});
      return std::nullopt;
    }
    command({"MULTI"});
    command({"SET", key, protocol::record_json(*t).dump(), "PX", ms_text(remaining(*t))});
    auto done = command({"EXEC"});
    if (done && done->type == REDIS_REPLY_ARRAY) // nil: another node changed it first
      return t;
    if (!done)
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<protocol::task_record> redis_task_store::find(const std::string& id) {
  std::lock_guard<std::mutex> g(mtx_);
  auto t = read(id);
  if (t && !protocol::is_terminal(t->status) && !node_alive(t->node)) {
    auto node = t->node;
    auto failed = change_locked(id, [&](protocol::task_record& r) {
      if (protocol::is_terminal(r.status))
        return false;
      r.status = protocol::task_status::failed;
      r.error = jsonrpc::error{jsonrpc::code::internal_error,
                               "The server node running this task (" + node + ") stopped before it ended",
                               std::nullopt};
      r.status_message = r.error->message;
      r.input_requests = json::object();
      r.updated = clock::now();
      return true;
    });
    return failed ? failed : read(id);
  }
  return t;
}

std::optional<protocol::task_record>
redis_task_store::modify(const std::string& id, const std::function<bool(protocol::task_record&)>& change) {
  std::lock_guard<std::mutex> g(mtx_);
  return change_locked(id, change);
}

std::vector<protocol::task_record> redis_task_store::owned_by(const std::string& owner) {
  std::vector<std::string> ids;
  {
    std::lock_guard<std::mutex> g(mtx_);
    auto r = command({"SMEMBERS", prefix_ + ":owner:" + owner});
    if (r && r->type == REDIS_REPLY_ARRAY)
      for (std::size_t i = 0; i < r->elements; ++i)
        ids.emplace_back(cluster::text_of(r->element[i]));
  }
  std::vector<protocol::task_record> out;
  for (auto& id : ids)
    if (auto t = find(id); t && t->owner == owner)
      out.push_back(std::move(*t));
  return out;
}

std::vector<protocol::task_record> redis_task_store::expire(clock::time_point now) {
  // Redis forgets the records itself; this node learns which of its own
  // ran out, so that their handlers are told to stop.
  std::vector<protocol::task_record> gone;
  std::lock_guard<std::mutex> g(mtx_);
  while (!local_ends_.empty() && local_ends_.begin()->first < now) {
    protocol::task_record t;
    t.id = local_ends_.begin()->second;
    gone.push_back(std::move(t));
    local_ends_.erase(local_ends_.begin());
  }
  return gone;
}

} // namespace cafmcp::actors
