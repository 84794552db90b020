#include "actors/worker.hpp"

#include "actors/current_trace.hpp"
#include "actors/request_context_impl.hpp"
#include "actors/runtime.hpp"

namespace cafmcp::actors {

trace_context& current_trace() {
  thread_local trace_context ctx;
  return ctx;
}

void run_on_worker(runtime& rt, protocol::job job, call c) {
  auto timeout = rt.options->client_request_timeout;
  // Counted as a running actor, as the detached actor per call it replaces
  // was: the actor system's shutdown waits for the call to answer.
  auto& registry = rt.system.registry();
  registry.inc_running();
  auto work = std::make_shared<std::pair<protocol::job, call>>(std::move(job), std::move(c));
  rt.workers->run([work = std::move(work), timeout, &registry]() mutable {
    {
      auto& [job, c] = *work;
      auto session = c.env->session;
      auto key = c.key;
      trace_scope scope(c.trace);
      request_context ctx(std::make_shared<request_context::impl>(std::move(c), timeout));
      protocol::outcome result;
      try {
        result = job(ctx);
      } catch (const std::exception& e) {
        result = jsonrpc::error{jsonrpc::code::internal_error, e.what(), std::nullopt};
      }
      // Sent from this thread after every emit of the handler: the session
      // sees progress and log messages before the result.
      caf::anon_send(session, reply_atom::value, std::move(key), std::move(result));
    }
    work.reset(); // the call's handles go while the actor system still waits for us
    registry.dec_running();
  });
}

} // namespace cafmcp::actors
