#include "transport/stdio.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <functional>

#include <poll.h>
#include <unistd.h>

#include "cafmcp/server.hpp"
#include "cafmcp/stdio.hpp"

#include "foundation/usable_cpus.hpp"
#include "transport/line_writer.hpp"
#include "transport/reader_inbox.hpp"
#include "transport/spin_policy.hpp"

namespace cafmcp::transport {

int serve_stdio(server& srv, int in, int out, const stdio_options& options) {
  std::signal(SIGPIPE, SIG_IGN); // a vanished client is an EPIPE, not a kill
  auto writer = std::make_shared<line_writer>(out, srv.options().max_outbound_queue);
  auto conn = srv.connect(writer);
  // The reader as an execution unit (stdio_options::actors_on_reader): what
  // a line wakes (its session, the server actor, the notifier, the session
  // again) runs here, after the lines of one read and before the next, and
  // writes its answers itself (line_writer's RWF_NOWAIT path). `inbox` is
  // what is handed to this thread, by the unit and, through its door, by
  // handler threads with their answers (reader_inbox.hpp); it outlives the
  // unit (declared first), whose leftovers go to CAF's scheduler when it is
  // destroyed.
  reader_inbox inbox;
  std::shared_ptr<void> unit;
  if (options.actors_on_reader)
    unit = srv.run_actors_here([&inbox](std::function<void()> job) { inbox.post(std::move(job)); },
                               inbox.wakeable() ? server::post_from::any_thread_while_awaited
                                                : server::post_from::this_thread);
  // A line longer than the limit is cut at limit+1 bytes: the session's
  // parser answers it with a size error, and we never buffer the rest.
  const std::size_t cap = srv.options().message_limits.max_message_bytes + 1;
  std::string line;
  bool oversized = false;
  char buf[65536];
  // Polls `in` until it has something to read (or is at its end), for at
  // most poll_before_sleep: the read() after it then finds the line
  // without sleeping. Bounded, and over as soon as the next line arrives.
  // On one CPU the poll would only take the time a handler thread needs;
  // on a CPU the client shares, too (spin_policy.hpp tells, as it goes).
  // One CPU is the ones this thread may run on: a client that starts the
  // server held to one CPU (taskset, a one-CPU cpuset) holds it there too,
  // and a spin there only delays the client's answer (2 cores, both held
  // to one: 1.01-1.23x updates/s without it, 4 pairs).
  spin_policy spin(detail::usable_cpus() > 1 ? options.poll_before_sleep : std::chrono::microseconds(0));
  // What the poll before a read found: a line (or the end of input), a job
  // handed to this thread, or nothing within the budget.
  enum class found { line, job, nothing };
  auto look_within = [in, &inbox, &unit](spin_policy::duration budget) {
    pollfd p{in, POLLIN, 0};
    const auto until = std::chrono::steady_clock::now() + budget;
    for (;;) {
      if (::poll(&p, 1, 0) != 0)
        return found::line; // ready, hung up or an error: read() says which
      if (unit && inbox.pending())
        return found::job;
      if (std::chrono::steady_clock::now() >= until)
        return found::nothing;
    }
  };
  for (;;) {
    inbox.run(); // what other threads handed over meanwhile (a handler thread's answer)
    bool missed = false;
    if (auto budget = spin.next(); budget > spin_policy::duration::zero()) {
      switch (look_within(budget)) {
        case found::line:
          spin.found();
          break;
        case found::job:
          continue; // says nothing of the client: the spin policy does not hear of it
        case found::nothing:
          missed = true;
          break;
      }
    }
    const auto blocked_at =
      missed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
    // While a handler thread's answer is awaited, the sleep before a read
    // wakes for it too (it must not wait for the client's next line);
    // otherwise this thread sleeps in read(2) alone, a poll(2) less a line.
    // Awaited is asked first: once it says no, every answer it awaited was
    // posted, and pending() sees it.
    if (unit) {
      const bool awaited = server::posts_awaited(unit);
      if ((awaited || inbox.pending()) && !inbox.wait(in))
        continue;
    }
    auto n = ::read(in, buf, sizeof buf);
    if (missed)
      spin.missed(std::chrono::steady_clock::now() - blocked_at);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    // What the lines of this read cause, answers and notifications, is
    // written together once they are handled (line_writer::hold).
    if (unit)
      writer->hold();
    // Whole runs of bytes up to each newline (memchr), not a byte at a
    // time: ~4,000 instructions per update went to the loop here.
    const char* p = buf;
    const char* const end = buf + n;
    for (;;) {
      auto* newline = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      auto* stop = newline ? newline : end;
      if (!oversized && stop != p) {
        line.append(p, std::min(static_cast<std::size_t>(stop - p), cap - line.size()));
        oversized = line.size() >= cap;
      }
      if (!newline)
        break;
      if (!line.empty() && line.back() == '\r')
        line.pop_back();
      if (!line.empty())
        conn->receive(std::move(line));
      line.clear();
      oversized = false;
      p = newline + 1;
    }
    inbox.run(); // every line read is handled before this thread sleeps again
    if (unit)
      writer->release();
  }
  if (!line.empty())
    conn->receive(std::move(line));
  inbox.run();
  unit.reset(); // from here on, the session finishes on CAF's threads (the door is closed)
  // What was handed over as the door closed goes unrun: a unit's drain would
  // find its unit gone, and an answer sends itself through CAF's scheduler
  // as it is destroyed (worker.cpp's homebound_reply). Now, not at the end:
  // the session waits for such an answer before it finishes.
  inbox.drop();
  // The client may still read: answer what it already asked, then stop. The
  // session enforces drain_timeout; the margin covers a session that died.
  conn->finish();
  writer->drain_and_stop(srv.options().drain_timeout + std::chrono::seconds(5));
  conn->close();
  return 0;
}

} // namespace cafmcp::transport

int cafmcp::serve_stdio(server& srv, const stdio_options& options) {
  return transport::serve_stdio(srv, 0, 1, options);
}

void cafmcp::tune_for_stdio(server_options& o) {
  o.scheduler_threads = 1;
  // ~20 us: a client that reads the answer and sends its next request at
  // once (the load's stdio row: 15-20 us later) finds the thread awake.
  o.scheduler_spin_polls = 2000;
}
