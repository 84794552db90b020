#include "server_flags.hpp"

#include <cstdio>
#include <exception>

#include <cafmcp/otel/environment.hpp>
#include <cafmcp/otel/mcp_metrics.hpp>
#include <cafmcp/otel/mcp_tracer.hpp>
#include <cafmcp/otel/otlp_http_exporter.hpp>
#include <cafmcp/startup_error.hpp>
#include <cafmcp/stdio.hpp>
#include <cafmcp/streamable_http.hpp>

namespace examples {
namespace {

// One write: std::cerr writes each << on its own, and another thread's
// message (a tracing warning) could land inside the URL a client reads.
void write_line(const std::string& name, const std::string& text) {
  auto line = name + ": " + text + "\n";
  std::fputs(line.c_str(), stderr);
}

} // namespace

server_flags::server_flags(CLI::App& app, std::string name, std::uint16_t default_port)
  : name_(std::move(name)), auth_(app) {
  http.port = default_port;
  app.add_flag("--stdio", stdio_, "serve one client on stdin/stdout (default)");
  app.add_flag("--http", http_, "serve Streamable HTTP at http://HOST:PORT/mcp instead");
  app.add_option("--host", http.host, "address to bind (an IP address, or localhost)")->capture_default_str();
  app.add_option("--port", http.port, "port (0: any free port, printed on stderr)")->capture_default_str();
  app.add_option("--tls-cert", tls_cert_, "serve HTTPS with this PEM certificate chain (needs --tls-key)");
  app.add_option("--tls-key", tls_key_, "the PEM private key of --tls-cert");
  app
    .add_option_function<std::int64_t>(
      "--shutdown-grace-ms", [this](std::int64_t ms) { http.shutdown_grace = std::chrono::milliseconds(ms); },
      "HTTP: on SIGINT/SIGTERM, how long requests in flight may still be answered before they get an error "
      "(default "
        + std::to_string(http.shutdown_grace.count()) + ")")
    ->check(CLI::Range(std::int64_t{0}, std::int64_t{3600000}));
  app.add_option("--max-connections", http.max_connections, "HTTP: open connections; one more gets 503")
    ->capture_default_str()
    ->check(CLI::PositiveNumber);
  app
    .add_option_function<std::int64_t>(
      "--request-header-timeout-ms",
      [this](std::int64_t ms) { http.request_header_timeout = std::chrono::milliseconds(ms); },
      "HTTP: a request's header must arrive within this (idle keep-alive connections close then) (default "
        + std::to_string(http.request_header_timeout.count()) + ")")
    ->check(CLI::Range(std::int64_t{1}, std::int64_t{3600000}));
  app
    .add_option_function<std::int64_t>(
      "--request-body-timeout-ms",
      [this](std::int64_t ms) { http.request_body_timeout = std::chrono::milliseconds(ms); },
      "HTTP: then its body within this (default " + std::to_string(http.request_body_timeout.count()) + ")")
    ->check(CLI::Range(std::int64_t{1}, std::int64_t{3600000}));
  app.add_option("--event-loops", http.event_loops, "HTTP: event-loop threads; sessions are spread over them")
    ->capture_default_str()
    ->check(CLI::Range(std::size_t{1}, std::size_t{16}));
  app
    .add_flag_function(
      "--actors-on-workers",
      [this](std::int64_t) {
        http.actors_on_event_loops = false;
        stdio.actors_on_reader = false;
      },
      "run every actor on the actor threads, none on the HTTP event loops or the thread reading stdin (for a "
      "quick handler that may block)")
    ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app
    .add_flag_function(
      "--unbatched-writes", [this](std::int64_t) { http.batched_writes = false; },
      "HTTP: a send(2) for every write, rather than one io_uring submission for the writes that one step of "
      "the event loop starts")
    ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app
    .add_option_function<std::int64_t>(
      "--stdio-poll-us", [this](std::int64_t us) { stdio.poll_before_sleep = std::chrono::microseconds(us); },
      "stdio: how long the reader looks for the next line before it sleeps (default "
        + std::to_string(stdio.poll_before_sleep.count()) + "; 0: off)")
    ->check(CLI::Range(std::int64_t{0}, std::int64_t{100000}));
  app.add_option("--scheduler-threads", scheduler_threads_,
                 "actor scheduler threads (default: one per core, at least 2; with --stdio, 1)")
    ->check(CLI::Range(std::size_t{1}, std::size_t{256}));
  app.add_option("--scheduler-spin-polls", scheduler_spin_polls_,
                 "how often an idle scheduler thread looks for work before it sleeps (about 10 ns a look; "
                 "default: CAF's 100; with --stdio, 2000)")
    ->check(CLI::Range(std::size_t{0}, std::size_t{10000000}));
  app.add_option("--stream-history-budget-bytes", http.stream_history_budget_bytes,
                 "HTTP: bytes every SSE stream's resumption history may hold together; the oldest events go "
                 "first (a client resuming from before them gets 410)")
    ->capture_default_str()
    ->check(CLI::PositiveNumber);
  app.add_option("--otlp-endpoint", otlp_endpoint_,
                 "export traces over OTLP/HTTP(S) to this base URL, e.g. http://localhost:4318 "
                 "(the OTEL_* environment variables work too, OTEL_EXPORTER_OTLP_CERTIFICATE for a CA)");
  app.add_flag("--metrics", metrics_,
               "with --http: serve the server's metrics in Prometheus's text format at GET /metrics (same "
               "Host/Origin/token checks as /mcp); metrics also go to the OTLP endpoint when one is set");
  app.add_option("--trace-file", trace_file_,
                 "write traces as OTLP/JSON lines to this file instead (Jaeger's UI loads it)");
  app
    .add_option("--log-level", log_level_,
                "the least severe of this program's own stderr lines to write (\"listening on\" is info; "
                "a start-up failure is always written); clients choose their MCP log level themselves "
                "(logging/setLevel)")
    ->capture_default_str()
    ->check(CLI::IsMember({"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}));
}

server_flags::~server_flags() = default;

int server_flags::run(const std::function<int()>& body) {
  try {
    return body();
  } catch (const std::exception& e) { // cafmcp::startup_error, and whatever else stops the start
    write_line(name_, e.what());
    return 1;
  }
}

void server_flags::apply(cafmcp::server_options& o) {
  o.tracer = tracer();
  o.metrics = metrics();
  if (!http_)
    cafmcp::tune_for_stdio(o);
  if (scheduler_threads_ > 0) // what the operator measured wins over either default
    o.scheduler_threads = scheduler_threads_;
  if (scheduler_spin_polls_)
    o.scheduler_spin_polls = *scheduler_spin_polls_;
}

std::shared_ptr<cafmcp::tracer> server_flags::tracer() {
  cafmcp::otel::provider_settings tracing;
  tracing.default_service = name_;
  if (!otlp_endpoint_.empty()) {
    tracing.otlp_endpoint = otlp_endpoint_;
    if (!cafmcp::otel::is_supported_endpoint(*cafmcp::otel::traces_endpoint_from_environment(tracing)))
      throw cafmcp::startup_error("--otlp-endpoint " + otlp_endpoint_ + ": not an http(s)://HOST[:PORT] URL");
  }
  if (!trace_file_.empty())
    tracing.jsonl_path = trace_file_;
  try {
    provider_ = cafmcp::otel::provider_from_environment(tracing);
  } catch (const std::exception& e) { // a --trace-file it cannot open
    throw cafmcp::startup_error(e.what());
  }
  return cafmcp::otel::make_mcp_tracer(provider_);
}

std::shared_ptr<cafmcp::metrics_registry> server_flags::metrics() {
  auto registry = std::make_shared<cafmcp::metrics_registry>();
  cafmcp::otel::provider_settings settings;
  settings.default_service = name_;
  if (!otlp_endpoint_.empty())
    settings.otlp_endpoint = otlp_endpoint_;
  metric_reader_ = cafmcp::otel::export_mcp_metrics(registry, settings);
  if (metrics_)
    http.metrics_path = "/metrics";
  return metrics_ || metric_reader_ ? registry : nullptr;
}

int server_flags::serve(cafmcp::server& srv) {
  if (!http_) {
    if (auth_.requested()) // stdio takes its credentials from the environment, not tokens
      throw cafmcp::startup_error("--auth-issuer needs --http");
    say(cafmcp::log_level::info, "serving MCP on stdin/stdout");
    return cafmcp::serve_stdio(srv, stdio);
  }
  if (!tls_cert_.empty())
    http.tls_certificate_file = tls_cert_;
  if (!tls_key_.empty())
    http.tls_private_key_file = tls_key_;
  auth_.apply(http);
  cafmcp::streamable_http transport(srv, http);
  transport.start(); // throws startup_error: a port in use, a bad --host, half a TLS setup
  say(cafmcp::log_level::info, "listening on " + std::string(tls_cert_.empty() ? "http://" : "https://")
                                 + http.host + ":" + std::to_string(transport.port()) + http.path);
  return transport.run(); // until SIGINT/SIGTERM
}

void server_flags::say(cafmcp::log_level level, const std::string& text) const {
  auto least = cafmcp::parse_log_level(log_level_);
  if (!least || level >= *least)
    write_line(name_, text);
}

} // namespace examples
