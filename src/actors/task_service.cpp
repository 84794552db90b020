#include "actors/task_service.hpp"

#include "cafmcp/json_rpc.hpp"

#include "foundation/random_hex.hpp"
#include "protocol/pagination.hpp"

namespace cafmcp::actors {

namespace {

// 128 random bits: the id is all a client without a token needs to read a
// task, so it must not be guessable.
std::string new_task_id() { return "task-" + detail::random_hex(16); }

json ack() { return {{"resultType", "complete"}}; }

} // namespace

task_service::task_service(task_options limits, std::unique_ptr<task_store> store)
  : limits_(limits), store_(std::move(store)), poller_([this] { poll_remote(); }) {}

task_service::~task_service() {
  {
    std::lock_guard<std::mutex> g(mtx_);
    stopping_ = true;
  }
  poll_wake_.notify_all();
  poller_.join();
}

// tasks/result for tasks another node runs: their end is seen by reading
// the shared store, every poll_interval while anyone waits.
void task_service::poll_remote() {
  std::unique_lock<std::mutex> g(mtx_);
  while (!stopping_) {
    if (remote_waiters_.empty()) {
      poll_wake_.wait(g, [this] { return stopping_ || !remote_waiters_.empty(); });
      continue;
    }
    poll_wake_.wait_for(g, limits_.poll_interval, [this] { return stopping_; });
    std::vector<std::string> ids;
    for (auto& [id, w] : remote_waiters_)
      if (ids.empty() || ids.back() != id)
        ids.push_back(id);
    g.unlock();
    std::vector<std::pair<std::string, protocol::outcome>> ended;
    for (auto& id : ids) {
      auto t = store_->find(id);
      if (!t)
        ended.emplace_back(id, protocol::unknown_task(id));
      else if (protocol::is_terminal(t->status)) {
        auto out = protocol::task_outcome(*t);
        if (auto* j = std::get_if<json>(&out))
          ended.emplace_back(id, std::move(*j));
        else
          ended.emplace_back(id, std::get<jsonrpc::error>(std::move(out)));
      }
    }
    std::vector<std::pair<std::function<void(protocol::outcome)>, protocol::outcome>> woken;
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

void task_service::set_runner(runner r) { run_ = std::move(r); }
void task_service::set_notifier(notifier n) { notify_ = std::move(n); }

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
  t.poll_interval = limits_.poll_interval;
  if (auto refused = store_->insert(t, limits_))
    return *refused;
  auto flag = std::make_shared<std::atomic<bool>>(false);
  {
    std::lock_guard<std::mutex> g(mtx_);
    continuation k{job, c, flag};
    k.c.task_id = t.id;
    k.c.cancelled = flag;
    running_.emplace(t.id, std::move(k));
  }
  return started{std::move(t), std::move(flag)};
}

void task_service::settle(const std::string& id, protocol::outcome out) {
  auto now = clock::now();
  auto after = store_->modify(id, [&](protocol::task_record& t) {
    if (protocol::is_terminal(t.status))
      return false;
    t.updated = now;
    t.input_requests = json::object();
    if (auto* result = std::get_if<json>(&out)) {
      auto size = result->dump().size();
      if (size > limits_.max_result_bytes) {
        t.status = protocol::task_status::failed;
        t.error = jsonrpc::error{jsonrpc::code::internal_error,
                                 "The task's result (" + std::to_string(size) + " bytes) exceeds the server's limit of "
                                   + std::to_string(limits_.max_result_bytes) + " bytes",
                                 std::nullopt};
      } else {
        t.status = protocol::task_status::completed;
        t.result = std::move(*result);
      }
    } else {
      t.status = protocol::task_status::failed;
      t.error = std::get<jsonrpc::error>(std::move(out));
      t.status_message = t.error->message;
    }
    return true;
  });
  if (after)
    changed(*after);
}

void task_service::park(const std::string& id, json requests, json answers, json state) {
  bool resume = false;
  auto after = store_->modify(id, [&](protocol::task_record& t) {
    if (protocol::is_terminal(t.status))
      return false;
    t.answers = answers.is_object() ? std::move(answers) : json::object();
    t.handler_state = std::move(state);
    t.input_requests = json::object();
    if (requests.is_object())
      for (auto& [key, ask] : requests.items())
        if (!t.answers.contains(key))
          t.input_requests[key] = ask;
    t.updated = clock::now();
    if (t.input_requests.empty()) { // asked only for what it has: run again
      resume = true;
      t.status = protocol::task_status::working;
    } else {
      t.status = protocol::task_status::input_required;
    }
    return true;
  });
  if (after)
    changed(*after);
  if (resume && after)
    update(id, json::object(), after->subject);
}

void task_service::note(const std::string& id, const json& notification) {
  const json& p = notification.contains("params") ? notification["params"] : notification;
  std::string text;
  if (p.contains("message") && p["message"].is_string())
    text = p["message"].get<std::string>();
  else if (p.contains("data"))
    text = p["data"].is_string() ? p["data"].get<std::string>() : p["data"].dump();
  else if (p.contains("progress"))
    text = "progress " + p["progress"].dump() + (p.contains("total") ? " of " + p["total"].dump() : "");
  if (text.empty())
    return;
  store_->modify(id, [&](protocol::task_record& t) {
    if (protocol::is_terminal(t.status))
      return false;
    t.status_message = text;
    t.updated = clock::now();
    return true;
  });
}

void task_service::waiting_for_input(const std::string& id, bool waiting) {
  auto to = waiting ? protocol::task_status::input_required : protocol::task_status::working;
  auto after = store_->modify(id, [&](protocol::task_record& t) {
    if (!protocol::may_move(t.status, to))
      return false;
    t.status = to;
    t.updated = clock::now();
    return true;
  });
  if (after)
    changed(*after);
}

std::optional<protocol::task_record> task_service::visible(const std::string& id, const std::string& who) {
  auto t = store_->find(id);
  // Another subject's task is as unknown as one that never was.
  if (t && !t->subject.empty() && t->subject != who)
    return std::nullopt;
  return t;
}

protocol::outcome task_service::get(const std::string& id, const std::string& who) {
  sweep();
  auto t = visible(id, who);
  if (!t)
    return protocol::unknown_task(id);
  return protocol::task_view(*t);
}

protocol::outcome task_service::update(const std::string& id, const json& responses, const std::string& who) {
  if (!visible(id, who))
    return protocol::unknown_task(id);
  if (!responses.is_object())
    return jsonrpc::error{jsonrpc::code::invalid_params, "tasks/update: inputResponses must be an object",
                          std::nullopt};
  {
    // Only the node running the handler can run it again with the input
    // (clustered, another node may hold the task's record).
    std::lock_guard<std::mutex> g(mtx_);
    if (!running_.count(id)) {
      auto t = store_->find(id);
      if (t && !protocol::is_terminal(t->status))
        return jsonrpc::error{jsonrpc::code::internal_error,
                              "tasks/update: task " + id + " runs on another server node (" + t->node
                                + "); retry, or route this client to that node",
                              std::nullopt};
    }
  }
  bool resume = false;
  auto after = store_->modify(id, [&](protocol::task_record& t) {
    bool waiting = t.status == protocol::task_status::input_required
                   || (t.status == protocol::task_status::working && t.input_requests.empty()
                       && responses.empty());
    if (!waiting)
      return false;
    for (auto& [key, answer] : responses.items())
      if (t.input_requests.contains(key)) {
        t.answers[key] = answer;
        t.input_requests.erase(key);
      }
    if (t.input_requests.empty()) {
      t.status = protocol::task_status::working;
      resume = true;
    }
    t.updated = clock::now();
    return true;
  });
  if (after)
    changed(*after);
  if (resume && after) {
    std::optional<continuation> k;
    {
      std::lock_guard<std::mutex> g(mtx_);
      if (auto it = running_.find(id); it != running_.end())
        k = it->second;
    }
    if (k && run_) {
      k->c.request_state = {{"answers", after->answers}, {"state", after->handler_state}};
      run_(std::move(k->job), std::move(k->c));
    } else {
      settle(id, jsonrpc::error{jsonrpc::code::internal_error,
                                "The task cannot resume: its handler is not held by this server", std::nullopt});
    }
  }
  return ack();
}

protocol::outcome task_service::cancel(const std::string& id, const std::string& who) {
  auto t = visible(id, who);
  if (!t)
    return protocol::unknown_task(id);
  auto after = store_->modify(id, [&](protocol::task_record& r) {
    if (protocol::is_terminal(r.status))
      return false;
    r.status = protocol::task_status::cancelled;
    r.status_message = "Cancelled by the client";
    r.input_requests = json::object();
    r.updated = clock::now();
    return true;
  });
  if (after)
    changed(*after);
  if (t->wire == protocol::task_wire::extension)
    return ack(); // idempotent: a terminal task acks the same
  if (!after)     // 2025-11-25: cancelling a finished task is invalid params
    return jsonrpc::error{jsonrpc::code::invalid_params,
                          "Task " + id + " is already " + std::string(protocol::to_string(t->status)),
                          json{{"taskId", id}}};
  return protocol::status_params(*after);
}

void task_service::result(const std::string& id, const std::string& who,
                          std::function<void(protocol::outcome)> reply) {
  auto t = visible(id, who);
  if (!t)
    return reply(protocol::unknown_task(id));
  {
    std::lock_guard<std::mutex> g(mtx_);
    t = store_->find(id); // settled in between: answered below
    if (t && !protocol::is_terminal(t->status)) {
      if (!running_.count(id)) { // another node runs it: looked at again until it ends
        remote_waiters_.emplace(id, std::move(reply));
        poll_wake_.notify_all();
        return;
      }
      waiters_.emplace(id, std::move(reply));
      return;
    }
  }
  if (!t)
    return reply(protocol::unknown_task(id));
  auto out = protocol::task_outcome(*t);
  if (auto* j = std::get_if<json>(&out))
    reply(std::move(*j));
  else
    reply(std::get<jsonrpc::error>(std::move(out)));
}

protocol::outcome task_service::list(const std::string& owner, const json& params) {
  sweep();
  // Keyed by creation (then id): a page resumes after the last task shown.
  std::map<std::string, protocol::task_record> mine;
  if (!owner.empty())
    for (auto& t : store_->owned_by(owner)) {
      auto us = std::chrono::duration_cast<std::chrono::microseconds>(t.created.time_since_epoch()).count();
      auto key = std::to_string(us);
      key.insert(0, 20 - std::min<std::size_t>(20, key.size()), '0');
      mine.emplace(key + "/" + t.id, std::move(t));
    }
  return protocol::page(
    mine, "tasks", "tasks", params, limits_.list_page_size,
    [](const protocol::task_record& t) { return protocol::status_params(t); },
    [](const protocol::task_record&) { return true; });
}

void task_service::changed(const protocol::task_record& t) {
  if (t.wire == protocol::task_wire::sessions && notify_) {
    std::optional<session_actor> to;
    {
      std::lock_guard<std::mutex> g(mtx_);
      if (auto it = running_.find(t.id); it != running_.end() && it->second.c.env)
        to = it->second.c.env->session;
    }
    if (to) // a session that ended drops it
      notify_(*to, jsonrpc::notification_message("notifications/tasks/status", protocol::status_params(t)));
  }
  if (!protocol::is_terminal(t.status))
    return;
  std::vector<std::function<void(protocol::outcome)>> woken;
  {
    std::lock_guard<std::mutex> g(mtx_);
    if (auto it = running_.find(t.id); it != running_.end()) {
      it->second.cancelled->store(true); // ended: a handler still running may stop
      running_.erase(it);
    }
    auto [b, e] = waiters_.equal_range(t.id);
    for (auto it = b; it != e; ++it)
      woken.push_back(std::move(it->second));
    waiters_.erase(b, e);
  }
  if (woken.empty())
    return;
  auto out = protocol::task_outcome(t);
  for (auto& w : woken) {
    if (auto* j = std::get_if<json>(&out))
      w(*j);
    else
      w(std::get<jsonrpc::error>(out));
  }
}

void task_service::sweep() {
  for (auto& gone : store_->expire(clock::now())) {
    std::vector<std::function<void(protocol::outcome)>> woken;
    {
      std::lock_guard<std::mutex> g(mtx_);
      if (auto it = running_.find(gone.id); it != running_.end()) {
        it->second.cancelled->store(true); // its time is up: the handler may stop
        running_.erase(it);
      }
      auto [b, e] = waiters_.equal_range(gone.id);
      for (auto it = b; it != e; ++it)
        woken.push_back(std::move(it->second));
      waiters_.erase(b, e);
    }
    for (auto& w : woken)
      w(protocol::unknown_task(gone.id));
  }
}

void task_service::stop() {
  std::vector<std::string> ids;
  {
    std::lock_guard<std::mutex> g(mtx_);
    for (auto& [id, k] : running_)
      ids.push_back(id);
  }
  for (auto& id : ids)
    settle(id, jsonrpc::error{jsonrpc::code::internal_error, "The server stopped before the task ended",
                              std::nullopt});
  std::lock_guard<std::mutex> g(mtx_);
  for (auto& [id, k] : running_) // parked ones settled above went already
    k.cancelled->store(true);
}

} // namespace cafmcp::actors
