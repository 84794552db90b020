#pragma once
// A tracer provider configured the way every OpenTelemetry SDK is: from the
// standard environment variables, with explicit values taking precedence.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cafmcp/otel/otlp_http_exporter.hpp"
#include "cafmcp/otel/tracer.hpp"

namespace cafmcp::otel {

struct provider_settings {
  std::optional<std::string> service_name;  // wins over OTEL_SERVICE_NAME
  std::optional<std::string> otlp_endpoint; // base URL (/v1/traces appended); wins over env
  std::optional<std::string> jsonl_path;    // export JSON lines here instead ("-": stdout)
  std::string default_service = "cafmcp";   // when nothing names the service
  std::string scope = "cafmcp";             // for spans that carry no scope of their own
};

/// The configure-from-environment factory. nullptr means tracing is off
/// (and free; get_tracer(nullptr, ...) is a disabled tracer):
/// OTEL_SDK_DISABLED=true, OTEL_TRACES_EXPORTER=none, or nowhere to send
/// spans (no endpoint in `s` nor OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT, no
/// JSON-lines path, OTEL_TRACES_EXPORTER neither `otlp` nor `console`).
/// Otherwise: a batch span processor (OTEL_BSP_*) feeding the OTLP/HTTP
/// exporter (OTEL_EXPORTER_OTLP_[TRACES_]HEADERS / _TIMEOUT / _CERTIFICATE,
/// the last a CA file for https endpoints) or the
/// JSON-lines exporter, the sampler from OTEL_TRACES_SAMPLER (+_ARG), and
/// the resource from OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES.
std::shared_ptr<tracer_provider> provider_from_environment(const provider_settings& s = {});

/// The pieces, for programs assembling a provider of their own.
std::optional<std::string> traces_endpoint_from_environment(const provider_settings& s = {});
std::shared_ptr<sampler> sampler_from_environment();
batch_options batch_options_from_environment();
/// `signal`: which OTEL_EXPORTER_OTLP_<SIGNAL>_* variables win over the
/// general ones ("TRACES", "METRICS").
otlp_http_options otlp_http_options_from_environment(std::string endpoint,
                                                     std::string_view signal = "TRACES");

} // namespace cafmcp::otel
