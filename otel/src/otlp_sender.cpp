#include "otlp_sender.hpp"

#include <algorithm>
#include <cstdio>
#include <random>

#include "http_fetch/http_fetch.hpp"
#include "retry_after.hpp"

namespace cafmcp::otel::detail {
using fetch::http_post;
using fetch::make_tls_client;
using fetch::parse_http_url;

namespace {

// OTLP/HTTP: these mean "try again later"; anything else is final. No
// answer at all (a collector restarting) is transient too.
bool retryable(int status) {
  return status == 0 || status == 429 || status == 502 || status == 503 || status == 504;
}

} // namespace

otlp_sender::otlp_sender(otlp_http_options opts) : opts_(std::move(opts)) {
  // The trust store is loaded once, not per export.
  if (auto url = parse_http_url(opts_.endpoint); url && url->tls) {
    try {
      tls_ = make_tls_client(opts_.certificate_file);
    } catch (const std::runtime_error& e) {
      std::fprintf(stderr, "cafmcp-otel: %s; exports to %s will fail\n", e.what(), opts_.endpoint.c_str());
    }
  }
}

std::optional<std::string> otlp_sender::post(const std::string& body, const char* content_type,
                                             const std::string& what, deadline until) {
  auto url = parse_http_url(opts_.endpoint);
  if (!url) {
    std::fprintf(stderr, "cafmcp-otel: unsupported endpoint %s (http:// or https:// only)\n",
                 opts_.endpoint.c_str());
    return std::nullopt;
  }
  until = std::min(until, std::chrono::steady_clock::now() + opts_.timeout);
  auto backoff = opts_.initial_backoff;
  thread_local std::mt19937 jitter{std::random_device{}()};
  for (int attempt = 1; attempt <= opts_.max_attempts; ++attempt) {
    {
      std::lock_guard<std::mutex> g(stop_mtx_);
      if (stopped_)
        return std::nullopt;
    }
    ++requests_;
    auto r = http_post(*url, opts_.headers, content_type, body, until, tls_.get());
    if (r.status >= 200 && r.status < 300)
      return std::move(r.body);
    // A certificate refused now is refused on the next attempt too.
    if (!retryable(r.status) || attempt == opts_.max_attempts || !r.failure.empty()) {
      if (r.failure.empty())
        std::fprintf(stderr, "cafmcp-otel: export of %s failed (HTTP %d)\n", what.c_str(), r.status);
      else
        std::fprintf(stderr, "cafmcp-otel: export of %s failed: %s\n", what.c_str(), r.failure.c_str());
      return std::nullopt;
    }
    // The server's word wins over our guess; else exponential with full
    // jitter above the base, so many exporters do not retry in lockstep.
    auto wait = parse_retry_after(r.retry_after, std::chrono::system_clock::now())
                  .value_or(backoff
                            + std::chrono::milliseconds(std::uniform_int_distribution<long>(
                              0, static_cast<long>(backoff.count()))(jitter)));
    if (!wait_before_retry(wait, until)) {
      std::fprintf(stderr, "cafmcp-otel: export of %s given up (HTTP %d, no time left to retry)\n",
                   what.c_str(), r.status);
      return std::nullopt;
    }
    backoff = std::min(backoff * 2, opts_.max_backoff);
  }
  return std::nullopt;
}

bool otlp_sender::wait_before_retry(std::chrono::milliseconds wait, deadline until) {
  auto resume = std::chrono::steady_clock::now() + wait;
  if (resume >= until)
    return false; // waiting would leave no time for the retry itself
  std::unique_lock<std::mutex> lock(stop_mtx_);
  return !stop_cv_.wait_until(lock, resume, [&] { return stopped_; });
}

void otlp_sender::shutdown() {
  std::lock_guard<std::mutex> g(stop_mtx_);
  stopped_ = true;
  stop_cv_.notify_all();
}

} // namespace cafmcp::otel::detail
