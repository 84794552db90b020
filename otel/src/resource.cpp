#include "cafmcp/otel/resource.hpp"

#include <cstdio>
#include <cstdlib>

#include "key_values.hpp"

namespace cafmcp::otel {

resource resource::with_service(std::string service_name) {
  return resource{{{"service.name", std::move(service_name)},
                   {"telemetry.sdk.name", std::string("cafmcp-otel")},
                   {"telemetry.sdk.language", std::string("cpp")},
                   {"telemetry.sdk.version", std::string("0.1.0")}}};
}

resource resource_from_environment(const std::string& default_service) {
  resource res = resource::with_service(default_service);
  std::string service = default_service;
  if (const char* ra = std::getenv("OTEL_RESOURCE_ATTRIBUTES"); ra && *ra) {
    if (auto pairs = detail::parse_key_values(ra)) {
      for (auto& [k, v] : *pairs) {
        if (k == "service.name")
          service = v;
        else
          res.attributes.emplace_back(k, v);
      }
    } else {
      std::fprintf(stderr, "cafmcp-otel: ignoring malformed OTEL_RESOURCE_ATTRIBUTES\n");
    }
  }
  if (const char* sn = std::getenv("OTEL_SERVICE_NAME"); sn && *sn)
    service = sn;
  std::get<std::string>(res.attributes[0].second) = service; // with_service put it first
  return res;
}

} // namespace cafmcp::otel
