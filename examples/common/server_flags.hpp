#pragma once
// The flags every example server binary takes, the same everywhere:
//   --stdio (default) | --http [--host H] [--port P] [--shutdown-grace-ms MS]
//     [--max-connections N] [--request-header-timeout-ms MS] [--request-body-timeout-ms MS]
//     [--stream-history-budget-bytes N] [--event-loops N]
//   --scheduler-threads N
//   --otlp-endpoint URL, --trace-file PATH (and the OTEL_* variables)
//   --metrics (Prometheus text at GET /metrics with --http)
//   --log-level LEVEL
//   --auth-issuer URL --resource-uri URI ... (auth_flags.hpp)
// and the start-up they choose. Every line goes to stderr, never stdout
// (stdio's MCP stream), and each start-up failure is one line,
// "<name>: <cause>", and exit code 1.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <cafmcp/http_options.hpp>
#include <cafmcp/log_level.hpp>
#include <cafmcp/server.hpp>
#include <cafmcp/stdio.hpp>

#include "auth_flags.hpp"

namespace cafmcp::otel {
class tracer_provider;
class periodic_metric_reader;
} // namespace cafmcp::otel

namespace examples {

class server_flags {
public:
  /// Adds the flags to `app`. `name` begins every line written on stderr;
  /// it is also the service name traces carry unless OTEL_SERVICE_NAME
  /// says otherwise.
  server_flags(CLI::App& app, std::string name, std::uint16_t default_port = 3000);
  ~server_flags();
  server_flags(const server_flags&) = delete;
  server_flags& operator=(const server_flags&) = delete;

  /// --host and --port land here; a binary may add flags of its own to it.
  cafmcp::http_options http;
  /// With --stdio (--actors-on-workers lands here too).
  cafmcp::stdio_options stdio;

  /// After parsing: runs `body` (which builds the server and returns
  /// serve(srv)). A cafmcp::startup_error or any other exception thrown on
  /// the way becomes the line "<name>: <what>" and exit code 1.
  int run(const std::function<int()>& body);
  /// What the flags say of the server: its tracer and metrics (below), and
  /// with --stdio, cafmcp::tune_for_stdio (one client, one scheduler thread).
  void apply(cafmcp::server_options& o);
  /// The tracer for server_options::tracer, from --otlp-endpoint,
  /// --trace-file and the OTEL_* environment; nullptr when tracing is off.
  /// Throws cafmcp::startup_error for an endpoint or file it cannot use.
  std::shared_ptr<cafmcp::tracer> tracer();
  /// The registry for server_options::metrics: kept when --metrics asks for
  /// GET /metrics, or when an OTLP endpoint (--otlp-endpoint, the OTEL_*
  /// environment) receives metrics every OTEL_METRIC_EXPORT_INTERVAL ms;
  /// nullptr otherwise (metrics off, and free).
  std::shared_ptr<cafmcp::metrics_registry> metrics();
  /// Serves `srv` on stdin/stdout until the client closes it, or over
  /// Streamable HTTP until SIGINT/SIGTERM, after saying where on stderr.
  /// Throws cafmcp::startup_error when HTTP cannot listen.
  int serve(cafmcp::server& srv);
  /// --auth-issuer was given: HTTP requests need its tokens.
  bool auth_requested() const { return auth_.requested(); }
  /// Writes "<name>: <text>" on stderr, in one write, when `level` is at
  /// least --log-level.
  void say(cafmcp::log_level level, const std::string& text) const;

private:
  std::string name_;
  bool stdio_ = true;
  bool http_ = false;
  std::string otlp_endpoint_;
  std::string trace_file_;
  std::string tls_cert_; // with tls_key_: serve HTTPS
  std::string tls_key_;
  std::string log_level_ = "info";
  bool metrics_ = false;
  std::size_t scheduler_threads_ = 0; // 0: the server's default
  std::optional<std::size_t> scheduler_spin_polls_; // none: the server's default
  auth_flags auth_;
  // Declared in the program before its server: outlives it, flushes at exit.
  std::shared_ptr<cafmcp::otel::tracer_provider> provider_;
  std::unique_ptr<cafmcp::otel::periodic_metric_reader> metric_reader_; // exports the last values at exit
};

} // namespace examples
