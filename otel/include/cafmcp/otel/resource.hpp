#pragma once
// The entity producing telemetry: `service.name` and the other attributes
// every span of a process shares (sent once per export, not per span).
#include <string>

#include "cafmcp/otel/span_data.hpp"

namespace cafmcp::otel {

struct resource {
  otel::attributes attributes;
  /// `service.name` first, then the SDK's `telemetry.sdk.*` attributes.
  static resource with_service(std::string service_name);
};

/// As the SDK specification builds it: OTEL_RESOURCE_ATTRIBUTES (k=v,k2=v2,
/// percent-decoded; discarded whole when malformed), then OTEL_SERVICE_NAME
/// over its `service.name`, and `default_service` when neither names one.
resource resource_from_environment(const std::string& default_service);

} // namespace cafmcp::otel
