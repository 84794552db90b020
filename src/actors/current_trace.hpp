#pragma once
// The trace a worker thread is working for. A handler that mutates the
// server (server::add_resource from inside a tool) thereby makes the
// mutation's span a child of the request that caused it, without passing
// anything through the public API.
#include "cafmcp/tracing.hpp"

namespace cafmcp::actors {

trace_context& current_trace();

/// Sets the thread's current trace for a scope.
class trace_scope {
public:
  explicit trace_scope(trace_context ctx) : saved_(current_trace()) { current_trace() = std::move(ctx); }
  ~trace_scope() { current_trace() = std::move(saved_); }
  trace_scope(const trace_scope&) = delete;
  trace_scope& operator=(const trace_scope&) = delete;

private:
  trace_context saved_;
};

} // namespace cafmcp::actors
