#pragma once
// The state behind cafmcp::request_context: which session and request a
// handler works for, and how it reaches the client.
#include <atomic>
#include <chrono>
#include <optional>

#include "cafmcp/request_context.hpp"

#include "actors/messages.hpp"

namespace cafmcp::actors {
class task_service;
}

namespace cafmcp {

class request_context::impl {
public:
  impl(actors::call c, std::chrono::milliseconds default_timeout);
  ~impl();
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;

  actors::call call;
  std::optional<json> progress_token;
  std::optional<double> last_progress;
  json meta;
  std::chrono::milliseconds default_timeout;
  // Stateless multi-round-trip: every answer the client gave so far, the
  // handler's state from the last round, and how many inputs it asked for.
  // Objects for a stateless request only (null otherwise: two allocations
  // fewer for every other call).
  json answers;
  json handler_state;
  std::uint64_t inputs_asked = 0;
  // Run by the session's actor (tool::quick): it cannot wait for the client,
  // whose answer that very actor would have to deliver.
  bool quick = false;
  // Tasks: where a call becomes one (null: this server keeps none).
  std::shared_ptr<actors::task_service> tasks;
  const protocol::job* job = nullptr; // what runs: a task keeps it, to run it again with input

  void emit(const json& notification) const;
};

} // namespace cafmcp
