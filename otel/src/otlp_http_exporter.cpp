#include "cafmcp/otel/otlp_http_exporter.hpp"

#include <algorithm>
#include <cstdio>
#include <random>

#include "cafmcp/otel/otlp_json.hpp"
#include "cafmcp/otel/otlp_protobuf.hpp"

#include "http_post.hpp"
#include "partial_success.hpp"
#include "retry_after.hpp"

namespace cafmcp::otel {
namespace {

// OTLP/HTTP: these mean "try again later"; anything else is final. No
// answer at all (a collector restarting) is transient too.
bool retryable(int status) {
  return status == 0 || status == 429 || status == 502 || status == 503 || status == 504;
}

std::size_t report_rejected(std::size_t n, const std::string& message) {
  if (n > 0 || !message.empty())
    std::fprintf(stderr, "cafmcp-otel: receiver rejected %zu spans: %s\n", n, message.c_str());
  return n;
}

// partialSuccess is a success the exporter must not retry, only report.
std::size_t rejected_in(const std::string& body, otlp_protocol protocol) {
  auto ps = detail::partial_success_in(body, protocol);
  if (!ps)
    return 0;
  return report_rejected(static_cast<std::size_t>(ps->rejected_spans), ps->error_message);
}

} // namespace

bool is_supported_endpoint(const std::string& url) { return detail::parse_http_url(url).has_value(); }

otlp_http_exporter::otlp_http_exporter(otlp_http_options opts, resource res, std::string scope)
  : opts_(std::move(opts)), resource_(std::move(res)), scope_(std::move(scope)) {
  // The trust store is loaded once, not per export.
  if (auto url = detail::parse_http_url(opts_.endpoint); url && url->tls) {
    try {
      tls_ = detail::make_tls_client(opts_.certificate_file);
    } catch (const std::runtime_error& e) {
      std::fprintf(stderr, "cafmcp-otel: %s; exports to %s will fail\n", e.what(), opts_.endpoint.c_str());
    }
  }
}

bool otlp_http_exporter::export_spans(const std::vector<span_data>& spans) {
  return export_until(spans, deadline::max());
}

bool otlp_http_exporter::export_until(const std::vector<span_data>& spans, deadline until) {
  if (spans.empty())
    return true;
  if (opts_.protocol == otlp_protocol::http_protobuf)
    return post(encode_otlp_protobuf(resource_, scope_, spans), spans.size(), until);
  return post(encode_otlp_json(resource_, scope_, spans), spans.size(), until);
}

bool otlp_http_exporter::export_batch(span_batch& batch, deadline until) {
  if (batch.empty())
    return true;
  if (opts_.protocol == otlp_protocol::http_protobuf)
    encode_otlp_protobuf(buffer_, resource_, scope_, batch);
  else
    encode_otlp_json(buffer_, resource_, scope_, batch);
  return post(buffer_, batch.size(), until);
}

bool otlp_http_exporter::post(const std::string& body, std::size_t spans, deadline until) {
  auto url = detail::parse_http_url(opts_.endpoint);
  if (!url) {
    std::fprintf(stderr, "cafmcp-otel: unsupported endpoint %s (http:// or https:// only)\n",
                 opts_.endpoint.c_str());
    return false;
  }
  until = std::min(until, std::chrono::steady_clock::now() + opts_.timeout);
  auto backoff = opts_.initial_backoff;
  const char* content_type =
    opts_.protocol == otlp_protocol::http_protobuf ? "application/x-protobuf" : "application/json";
  thread_local std::mt19937 jitter{std::random_device{}()};
  for (int attempt = 1; attempt <= opts_.max_attempts; ++attempt) {
    {
      std::lock_guard<std::mutex> g(stop_mtx_);
      if (stopped_)
        return false;
    }
    ++requests_;
    auto r = detail::http_post(*url, opts_.headers, content_type, body, until, tls_.get());
    if (r.status >= 200 && r.status < 300) {
      rejected_ += rejected_in(r.body, opts_.protocol);
      return true;
    }
    // A certificate refused now is refused on the next attempt too.
    if (!retryable(r.status) || attempt == opts_.max_attempts || !r.failure.empty()) {
      if (r.failure.empty())
        std::fprintf(stderr, "cafmcp-otel: export of %zu spans failed (HTTP %d)\n", spans, r.status);
      else
        std::fprintf(stderr, "cafmcp-otel: export of %zu spans failed: %s\n", spans, r.failure.c_str());
      return false;
    }
    // The server's word wins over our guess; else exponential with full
    // jitter above the base, so many exporters do not retry in lockstep.
    auto wait = detail::parse_retry_after(r.retry_after, std::chrono::system_clock::now())
                  .value_or(backoff
                            + std::chrono::milliseconds(std::uniform_int_distribution<long>(
                              0, static_cast<long>(backoff.count()))(jitter)));
    if (!wait_before_retry(wait, until)) {
      std::fprintf(stderr, "cafmcp-otel: export of %zu spans given up (HTTP %d, no time left to retry)\n",
                   spans, r.status);
      return false;
    }
    backoff = std::min(backoff * 2, opts_.max_backoff);
  }
  return false;
}

bool otlp_http_exporter::wait_before_retry(std::chrono::milliseconds wait, deadline until) {
  auto resume = std::chrono::steady_clock::now() + wait;
  if (resume >= until)
    return false; // waiting would leave no time for the retry itself
  std::unique_lock<std::mutex> lock(stop_mtx_);
  return !stop_cv_.wait_until(lock, resume, [&] { return stopped_; });
}

void otlp_http_exporter::shutdown() {
  std::lock_guard<std::mutex> g(stop_mtx_);
  stopped_ = true;
  stop_cv_.notify_all();
}

} // namespace cafmcp::otel
