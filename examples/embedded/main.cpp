// An existing service - a job queue with its own worker threads - that
// embeds a cafmcp server: its threads publish their changing state through
// the server's API while clients read and subscribe over stdio (or
// Streamable HTTP, with --http).
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include <CLI/CLI.hpp>
#include <cafmcp/server.hpp>
#include <cafmcp/typed_tool.hpp>

#include "server_flags.hpp"

namespace {

// The service as it was before MCP: jobs in, workers out.
class job_queue {
public:
  void push(std::string job) {
    std::lock_guard<std::mutex> g(mtx_);
    jobs_.push_back(std::move(job));
    cv_.notify_one();
  }
  bool pop(std::string& job) { // false once stopped
    std::unique_lock<std::mutex> lock(mtx_);
    cv_.wait(lock, [&] { return stopped_ || !jobs_.empty(); });
    if (jobs_.empty())
      return false;
    job = std::move(jobs_.front());
    jobs_.pop_front();
    return true;
  }
  void stop() {
    std::lock_guard<std::mutex> g(mtx_);
    stopped_ = true;
    cv_.notify_all();
  }
  std::size_t pending() {
    std::lock_guard<std::mutex> g(mtx_);
    return jobs_.size();
  }

private:
  std::mutex mtx_;
  std::condition_variable cv_;
  std::deque<std::string> jobs_;
  bool stopped_ = false;
};

// What `submit` takes; its inputSchema is derived from this.
struct submit_args {
  std::string job;
};
CAFMCP_FIELDS(submit_args, (job, "What to do"));

cafmcp::resource stats_resource(std::size_t done, std::size_t pending) {
  cafmcp::resource r;
  r.uri = "jobs://stats";
  r.name = "stats";
  r.mime_type = "application/json";
  cafmcp::json body = {{"done", done}, {"pending", pending}};
  r.contents.push_back(cafmcp::resource_contents::make_text(r.uri, body.dump(), "application/json"));
  return r;
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"A job queue whose workers publish their state through an embedded MCP server"};
  examples::server_flags flags(app, "embedded-job-queue");
  CLI11_PARSE(app, argc, argv);

  return flags.run([&] {
    cafmcp::server_options opts;
    opts.name = "job-queue";
    opts.version = "1.0";
    flags.apply(opts);
    cafmcp::server srv(opts);
    job_queue queue;
    std::atomic<std::size_t> done{0};
    srv.add_resource(stats_resource(0, 0));

    srv.add_tool(cafmcp::typed_tool("submit", "Queues a job", [&](const submit_args& a) {
      queue.push(a.job);
      return "queued";
    }));

    // The service's own threads call the server directly: each call is one
    // message to an actor, safe from any thread, never blocking the worker.
    std::vector<std::thread> workers;
    for (int i = 0; i < 2; ++i)
      workers.emplace_back([&] {
        std::string job;
        while (queue.pop(job)) {
          auto n = ++done;
          cafmcp::resource result;
          result.uri = "jobs://done/" + std::to_string(n);
          result.name = "job " + std::to_string(n);
          result.contents.push_back(cafmcp::resource_contents::make_text(result.uri, "finished: " + job));
          srv.add_resource(result);                 // list_changed "added" to everyone
          srv.set_resource_contents("jobs://stats", // resources/updated to subscribers
                                    stats_resource(n, queue.pending()).contents);
        }
      });

    // However serving ends (the client leaves, or the port is in use),
    // the workers stop before the server they publish to goes.
    struct stop_workers {
      job_queue& queue;
      std::vector<std::thread>& workers;
      ~stop_workers() {
        queue.stop();
        for (auto& w : workers)
          w.join();
      }
    } stopping{queue, workers};
    return flags.serve(srv);
  });
}
