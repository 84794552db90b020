#include "actors/task_service.hpp"

#include <future>

#include "foundation/random_hex.hpp"
#include "protocol/pagination.hpp"
#include "protocol/task_moves.hpp"

namespace cafmcp::actors {

namespace {

// 128 random bits: the id is all a client without a token needs to read a
// task, so it must not be guessable.
std::string new_task_id() { return "task-" + detail::random_hex(16); }

// How long stop() waits for the task actors to record the server's end.
constexpr auto stop_grace = std::chrono::seconds(5);

} // namespace

task_service::task_service(caf::actor_system& sys, task_options limits, std::unique_ptr<task_store> store)
  : sys_(sys), core_(std::make_shared<task_core>(limits, std::move(store))), poller_([this] { poll_remote(); }) {}

task_service::~task_service() {
  {
    std::lock_guard<std::mutex> g(remote_mtx_);
    stopping_ = true;
  }
  poll_wake_.notify_all();
  poller_.join();
}

void task_service::set_runner(runner r) { core_->run = std::move(r); }
void task_service::set_notifier(notifier n) { core_->notify = std::move(n); }
void task_service::set_watcher(watcher w) { core_->watch = std::move(w); }

// tasks/result for tasks another node runs: their end is seen by reading
// the shared store, every poll_interval while anyone waits.
void task_service::poll_remote() {
  auto& store = *core_->store;
  std::unique_lock<std::mutex> g(remote_mtx_);
  while (!stopping_) {
    if (remote_waiters_.empty()) {
      poll_wake_.wait(g, [this] { return stopping_ || !remote_waiters_.empty(); });
      continue;
    }
    poll_wake_.wait_for(g, core_->limits.poll_interval, [this] { return stopping_; });
    std::vector<std::string> ids;
    for (auto& [id, w] : remote_waiters_)
      if (ids.empty() || ids.back() != id)
        ids.push_back(id);
    g.unlock();
    std::vector<std::pair<std::string, protocol::outcome>> ended;
    for (auto& id : ids) {
      auto t = store.find(id);
      if (!t)
        ended.emplace_back(id, protocol::unknown_task(id));
      else if (protocol::is_terminal(t->status))
        ended.emplace_back(id, protocol::task_outcome(*t));
    }
    std::vector<std::pair<reply, protocol::outcome>> woken;
    g.lock();
    for (auto& [id, out] : ended) {
      auto [b, e] = remote_waiters_.equal_range(id);
      for (auto it = b; it != e; ++it)
        woken.emplace_back(std::move(it->second), out);
      remote_waiters_.erase(b, e);
    }
    g.unlock();
    for (auto& [w, out] : woken)
      w(std::move(out));
    g.lock();
  }
  // Stopping: whoever still waits is told.
  auto left = std::move(remote_waiters_);
  g.unlock();
  for (auto& [id, w] : left)
    w(jsonrpc::error{jsonrpc::code::internal_error, "The server stopped", std::nullopt});
}

std::variant<task_service::started, jsonrpc::error> task_service::start(const call& c,
                                                                        const protocol::job& job) {
  sweep();
  const auto& plan = *c.task_plan;
  protocol::task_record t;
  t.id = new_task_id();
  t.subject = c.caller ? c.caller->subject : std::string();
  t.owner = !t.subject.empty() ? "sub:" + t.subject
            : plan.wire == protocol::task_wire::sessions ? "session:" + c.env->session_id
                                                         : std::string();
  t.session_id = c.env->session_id;
  t.wire = plan.wire;
  t.created = t.updated = clock::now();
  t.ttl = plan.ttl;
  t.poll_interval = core_->limits.poll_interval;
  if (auto refused = core_->store->insert(t, core_->limits))
    return *refused;
  auto flag = std::make_shared<std::atomic<bool>>(false);
  task_continuation k{job, c, flag};
  k.c.task_id = t.id;
  k.c.cancelled = flag;
  spawn_task_actor(sys_, core_, t.id, std::move(k));
  return started{std::move(t), std::move(flag)};
}

void task_service::settle(const std::string& id, protocol::outcome out) {
  if (auto a = core_->actor_of(id))
    caf::anon_send(*a, settle_atom::value, std::move(out));
}

void task_service::park(const std::string& id, json requests, json answers, json state) {
  if (auto a = core_->actor_of(id))
    caf::anon_send(*a, park_atom::value, std::move(requests), std::move(answers), std::move(state));
}

void task_service::note(const std::string& id, const json& notification) {
  if (auto a = core_->actor_of(id))
    caf::anon_send(*a, note_atom::value, notification);
}

void task_service::waiting_for_input(const std::string& id, bool waiting) {
  if (auto a = core_->actor_of(id))
    caf::anon_send(*a, input_atom::value, waiting);
}

std::optional<protocol::task_record> task_service::visible(const std::string& id, const std::string& who) {
  auto t = core_->store->find(id);
  // Another subject's task is as unknown as one that never was.
  if (t && !t->subject.empty() && t->subject != who)
    return std::nullopt;
  return t;
}

bool task_service::visible_to(const std::string& id, const std::string& who) {
  return visible(id, who).has_value();
}

protocol::outcome task_service::get(const std::string& id, const std::string& who) {
  sweep();
  auto t = visible(id, who);
  if (!t)
    return protocol::unknown_task(id);
  return protocol::task_view(*t);
}

void task_service::update(const std::string& id, const json& responses, const std::string& who, reply r) {
  auto t = visible(id, who);
  if (!t)
    return r(protocol::unknown_task(id));
  if (!responses.is_object())
    return r(jsonrpc::error{jsonrpc::code::invalid_params, "tasks/update: inputResponses must be an object",
                            std::nullopt});
  auto a = core_->actor_of(id);
  if (!a) {
    // Only the node running the handler can run it again with the input
    // (clustered, another node may hold the task's record).
    if (!protocol::is_terminal(t->status))
      return r(jsonrpc::error{jsonrpc::code::internal_error,
                              "tasks/update: task " + id + " runs on another server node (" + t->node
                                + "); retry, or route this client to that node",
                              std::nullopt});
    return r(protocol::task_ack()); // ended: answers to nothing pending are ignored
  }
  caf::anon_send(*a, update_atom::value, responses,
                 std::make_shared<task_answer>(std::move(r), [] { return protocol::outcome{protocol::task_ack()}; }));
}

void task_service::cancel(const std::string& id, const std::string& who, reply r) {
  if (!visible(id, who))
    return r(protocol::unknown_task(id));
  auto a = core_->actor_of(id);
  if (!a) // ended, or run by another node: its record is all there is here
    return r(core_->cancel(id).first);
  auto core = core_;
  caf::anon_send(*a, cancel_atom::value,
                 std::make_shared<task_answer>(std::move(r), [core, id] { return core->cancel(id).first; }));
}

void task_service::result(const std::string& id, const std::string& who, reply r) {
  auto t = visible(id, who);
  if (!t)
    return r(protocol::unknown_task(id));
  if (protocol::is_terminal(t->status))
    return r(protocol::task_outcome(*t));
  auto a = core_->actor_of(id);
  if (!a) { // another node runs it: looked at again until it ends
    std::lock_guard<std::mutex> g(remote_mtx_);
    remote_waiters_.emplace(id, std::move(r));
    poll_wake_.notify_all();
    return;
  }
  auto core = core_;
  caf::anon_send(*a, result_atom::value,
                 std::make_shared<task_answer>(std::move(r), [core, id] { return core->outcome_of(id); }));
}

protocol::outcome task_service::list(const std::string& owner, const json& params) {
  sweep();
  // Keyed by creation (then id): a page resumes after the last task shown.
  std::map<std::string, protocol::task_record> mine;
  if (!owner.empty())
    for (auto& t : core_->store->owned_by(owner)) {
      auto us = std::chrono::duration_cast<std::chrono::microseconds>(t.created.time_since_epoch()).count();
      auto key = std::to_string(us);
      key.insert(0, 20 - std::min<std::size_t>(20, key.size()), '0');
      mine.emplace(key + "/" + t.id, std::move(t));
    }
  return protocol::page(
    mine, "tasks", "tasks", params, core_->limits.list_page_size,
    [](const protocol::task_record& t) { return protocol::status_params(t); },
    [](const protocol::task_record&) { return true; });
}

// Expiry runs with the requests (the earliest end only, so it is cheap):
// the store forgets what ran out, and the actors of those tasks end.
void task_service::sweep() {
  for (auto& gone : core_->store->expire(clock::now()))
    if (auto a = core_->actor_of(gone.id))
      caf::anon_send(*a, expire_atom::value);
}

void task_service::stop() {
  std::vector<task_actor> running;
  {
    std::lock_guard<std::mutex> g(core_->mtx);
    for (auto& [id, a] : core_->live)
      running.push_back(a);
  }
  if (running.empty())
    return;
  // Each actor lets go of the token once its task is recorded failed (or
  // the message is dropped with an actor that ended meanwhile).
  auto done = std::make_shared<std::promise<void>>();
  auto finished = done->get_future();
  settlement_ptr token(nullptr, [done](void*) { done->set_value(); });
  for (auto& a : running)
    caf::anon_send(a, stop_atom::value, token);
  token.reset();
  finished.wait_for(stop_grace);
}

} // namespace cafmcp::actors
