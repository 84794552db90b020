#pragma once
// A worker runs one handler on a thread of its own (an idle thread of the
// runtime's worker_pool, else a new one), so a slow or blocking tool delays
// neither the server actor, nor the notifier, nor the session's other
// requests. It answers the session directly.
//
// A quick handler (tool::quick) is run by its session's actor instead,
// through run_call: the same handling of results and errors, on the
// actor's thread.
#include <chrono>
#include <memory>
#include <optional>

#include "actors/messages.hpp"
#include "protocol/request_state.hpp"

namespace cafmcp::actors {

struct runtime;

void run_on_worker(runtime& rt, protocol::job&& job, call&& c);

class task_service;
class loop_door;

/// Runs `job` here and returns its answer (input_required, refusals and
/// exceptions made into results or errors). `quick`: on an actor's thread,
/// where request() to the client must not wait. Nothing when the call is
/// a task: its request was answered with the task, and what the handler
/// ended with went to `tasks`. `home`: the door of the loop the call came
/// from, when this is not that loop's thread (an asynchronous tool's answer
/// given on another thread goes back through it); on a loop, its own.
std::optional<protocol::outcome> run_call(const protocol::request_state_seal& seal,
                                          std::chrono::milliseconds timeout, protocol::job& job, call&& c,
                                          bool quick, const std::shared_ptr<task_service>& tasks,
                                          const std::shared_ptr<loop_door>& home = nullptr);

} // namespace cafmcp::actors
