#pragma once
// A tracer provider configured the way every OpenTelemetry SDK is: from the
// standard environment variables, with explicit values taking precedence.
#include <memory>
#include <optional>
#include <string>

#include "cafmcp/otel/tracer.hpp"

namespace cafmcp::otel {

struct provider_settings {
  std::optional<std::string> service_name;  // else OTEL_SERVICE_NAME, else default_service
  std::optional<std::string> otlp_endpoint; // base URL (/v1/traces appended) - wins over env
  std::optional<std::string> jsonl_path;    // export JSON lines here instead ("-": stdout)
  std::string default_service = "cafmcp";
  std::string scope = "cafmcp";
};

/// nullptr when tracing is off: OTEL_SDK_DISABLED=true, or neither an OTLP
/// endpoint (settings or OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT) nor a JSON
/// lines path is configured. Reads OTEL_SERVICE_NAME,
/// OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER
/// (+_ARG) and OTEL_BSP_* as the SDK specification describes.
std::shared_ptr<tracer_provider> provider_from_environment(const provider_settings& s = {});

} // namespace cafmcp::otel
