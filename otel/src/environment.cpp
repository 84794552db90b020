#include "cafmcp/otel/environment.hpp"

#include <cstdio>
#include <cstdlib>

#include "cafmcp/otel/otlp.hpp"

#include "environment_variables.hpp"
#include "key_values.hpp"

namespace cafmcp::otel::detail {
namespace {
// Durations and sizes must be positive integers.
template <class T>
void positive_into(const char* name, T& target) {
  auto v = env(name);
  if (!v)
    return;
  char* end = nullptr;
  long long n = std::strtoll(v->c_str(), &end, 10);
  if (end && *end == '\0' && n > 0)
    target = static_cast<T>(n);
  else
    std::fprintf(stderr, "cafmcp-otel: ignoring %s=%s (not a positive integer)\n", name, v->c_str());
}
} // namespace

std::optional<std::string> env(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v)
    return std::nullopt;
  return std::string(v);
}

void positive_from_env(const char* name, long long& target) { positive_into(name, target); }
void positive_from_env(const char* name, std::size_t& target) { positive_into(name, target); }

void ms_from_env(const char* name, std::chrono::milliseconds& target) {
  long long ms = target.count();
  positive_from_env(name, ms);
  target = std::chrono::milliseconds(ms);
}

std::optional<std::string> signal_endpoint(const std::optional<std::string>& given,
                                           const char* signal_variable, const char* signal_path) {
  auto with_path = [signal_path](std::string base) {
    while (!base.empty() && base.back() == '/')
      base.pop_back();
    return base + signal_path;
  };
  if (given)
    return with_path(*given);
  if (auto e = env(signal_variable))
    return e; // signal-specific: used exactly as given
  if (auto e = env("OTEL_EXPORTER_OTLP_ENDPOINT"))
    return with_path(*e);
  return std::nullopt;
}

} // namespace cafmcp::otel::detail

namespace cafmcp::otel {
using detail::env;
using detail::ms_from_env;
using detail::positive_from_env;
namespace {

std::string lower(std::string s) {
  for (auto& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

} // namespace

std::optional<std::string> traces_endpoint_from_environment(const provider_settings& s) {
  return detail::signal_endpoint(s.otlp_endpoint, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "/v1/traces");
}

std::shared_ptr<sampler> sampler_from_environment() {
  auto name = env("OTEL_TRACES_SAMPLER").value_or("parentbased_always_on");
  auto smp = sampler_from_name(lower(name), env("OTEL_TRACES_SAMPLER_ARG").value_or(""));
  if (!smp) {
    std::fprintf(stderr, "cafmcp-otel: unknown OTEL_TRACES_SAMPLER %s; using parentbased_always_on\n",
                 name.c_str());
    smp = parent_based(always_on());
  }
  return smp;
}

batch_options batch_options_from_environment() {
  batch_options b;
  ms_from_env("OTEL_BSP_SCHEDULE_DELAY", b.schedule_delay);
  ms_from_env("OTEL_BSP_EXPORT_TIMEOUT", b.export_timeout);
  positive_from_env("OTEL_BSP_MAX_QUEUE_SIZE", b.max_queue_size);
  positive_from_env("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", b.max_export_batch_size);
  return b;
}

otlp_http_options otlp_http_options_from_environment(std::string endpoint, std::string_view signal) {
  otlp_http_options o;
  o.endpoint = std::move(endpoint);
  auto general = [](const char* what) { return std::string("OTEL_EXPORTER_OTLP_") + what; };
  auto specific = [&](const char* what) {
    return std::string("OTEL_EXPORTER_OTLP_") + std::string(signal) + "_" + what;
  };
  // The signal-specific variable wins key by key over the general one.
  for (auto& name : {general("HEADERS"), specific("HEADERS")}) {
    auto h = env(name.c_str());
    if (!h)
      continue;
    if (auto pairs = detail::parse_key_values(*h))
      for (auto& [k, v] : *pairs)
        o.headers[k] = v;
    else
      std::fprintf(stderr, "cafmcp-otel: ignoring malformed %s\n", name.c_str());
  }
  // The signal-specific variable wins over the general one.
  for (auto& name : {general("PROTOCOL"), specific("PROTOCOL")}) {
    auto p = env(name.c_str());
    if (!p)
      continue;
    if (*p == "http/protobuf")
      o.protocol = otlp_protocol::http_protobuf;
    else if (*p == "http/json")
      o.protocol = otlp_protocol::http_json;
    else
      std::fprintf(stderr, "cafmcp-otel: %s=%s is not supported (http/protobuf, http/json); keeping %s\n",
                   name.c_str(), p->c_str(),
                   o.protocol == otlp_protocol::http_json ? "http/json" : "http/protobuf");
  }
  ms_from_env(general("TIMEOUT").c_str(), o.timeout);
  ms_from_env(specific("TIMEOUT").c_str(), o.timeout);
  // The CA file for https receivers; the signal-specific variable wins.
  for (auto& name : {general("CERTIFICATE"), specific("CERTIFICATE")})
    if (auto c = env(name.c_str()); c && !c->empty())
      o.certificate_file = *c;
  return o;
}

std::shared_ptr<tracer_provider> provider_from_environment(const provider_settings& s) {
  auto disabled = env("OTEL_SDK_DISABLED");
  if (disabled && lower(*disabled) == "true")
    return nullptr;
  auto exporter_kind = lower(env("OTEL_TRACES_EXPORTER").value_or(""));
  if (exporter_kind == "none")
    return nullptr;

  auto endpoint = traces_endpoint_from_environment(s);
  if (!endpoint && exporter_kind == "otlp")
    endpoint = "http://localhost:4318/v1/traces"; // asked for explicitly: the spec's default
  auto jsonl = s.jsonl_path;
  if (!jsonl && exporter_kind == "console")
    jsonl = "/dev/stderr"; // never stdout: it may be an MCP stdio stream
  if (!endpoint && !jsonl)
    return nullptr; // nowhere to send spans: tracing stays off, and free

  resource res = resource_from_environment(s.default_service);
  if (s.service_name)
    std::get<std::string>(res.attributes[0].second) = *s.service_name;

  std::shared_ptr<span_exporter> exporter;
  if (jsonl)
    exporter = std::make_shared<json_lines_exporter>(*jsonl, res, s.scope);
  else
    exporter =
      std::make_shared<otlp_http_exporter>(otlp_http_options_from_environment(*endpoint), res, s.scope);
  auto processor = std::make_shared<batch_span_processor>(exporter, batch_options_from_environment());
  return std::make_shared<tracer_provider>(std::move(res), sampler_from_environment(), processor);
}

} // namespace cafmcp::otel
