#pragma once
// What every OTLP/HTTP exporter does the same way, whatever the signal
// (traces, metrics): POST a body to the endpoint within a deadline, retry
// 429/502/503/504 and unreachable receivers with exponential backoff and
// jitter, honour Retry-After, and stop waiting at shutdown.
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "cafmcp/otel/exporter.hpp"
#include "cafmcp/otel/otlp_http_exporter.hpp"

namespace cafmcp::fetch {
struct tls_client;
}

namespace cafmcp::otel::detail {

using fetch::tls_client;

class otlp_sender {
public:
  explicit otlp_sender(otlp_http_options opts);
  /// The receiver's answer body on a 2xx; nullopt once it failed or gave
  /// up (reported on stderr, naming `what`: "12 spans").
  std::optional<std::string> post(const std::string& body, const char* content_type, const std::string& what,
                                  deadline until);
  /// Ends any backoff wait; posts fail from now on.
  void shutdown();
  std::size_t requests() const { return requests_; }
  const otlp_http_options& options() const { return opts_; }

private:
  bool wait_before_retry(std::chrono::milliseconds wait, deadline until);
  otlp_http_options opts_;
  std::shared_ptr<tls_client> tls_; // https endpoints only
  std::atomic<std::size_t> requests_{0};
  std::mutex stop_mtx_;
  std::condition_variable stop_cv_;
  bool stopped_ = false;
};

} // namespace cafmcp::otel::detail
