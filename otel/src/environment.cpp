#include "cafmcp/otel/environment.hpp"

#include <cstdlib>

#include "cafmcp/otel/otlp.hpp"

namespace cafmcp::otel {
namespace {

std::optional<std::string> env(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v)
    return std::nullopt;
  return std::string(v);
}

std::string percent_decode(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1]))
        && std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

std::string trim(std::string s) {
  auto b = s.find_first_not_of(" \t");
  auto e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// "k=v,k2=v2" with percent-encoded values (OTEL_RESOURCE_ATTRIBUTES,
// OTEL_EXPORTER_OTLP_HEADERS).
std::vector<std::pair<std::string, std::string>> key_values(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    auto comma = text.find(',', pos);
    auto item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    auto eq = item.find('=');
    if (eq != std::string::npos && eq > 0)
      out.emplace_back(trim(percent_decode(item.substr(0, eq))), trim(percent_decode(item.substr(eq + 1))));
    if (comma == std::string::npos)
      break;
    pos = comma + 1;
  }
  return out;
}

template <class T>
void number_from_env(const char* name, T& target) {
  if (auto v = env(name)) {
    try {
      target = static_cast<T>(std::stoll(*v));
    } catch (...) {
      std::fprintf(stderr, "cafmcp-otel: ignoring %s=%s (not a number)\n", name, v->c_str());
    }
  }
}

bool truthy(const std::optional<std::string>& v) {
  if (!v)
    return false;
  std::string s = *v;
  for (auto& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s == "true" || s == "1";
}

} // namespace

std::shared_ptr<tracer_provider> provider_from_environment(const provider_settings& s) {
  if (truthy(env("OTEL_SDK_DISABLED")))
    return nullptr;
  auto exporter_kind = env("OTEL_TRACES_EXPORTER").value_or("");
  if (exporter_kind == "none")
    return nullptr;

  std::optional<std::string> endpoint;
  if (s.otlp_endpoint)
    endpoint = *s.otlp_endpoint + "/v1/traces";
  else if (auto e = env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"))
    endpoint = *e;
  else if (auto e = env("OTEL_EXPORTER_OTLP_ENDPOINT"))
    endpoint = *e + "/v1/traces";
  else if (exporter_kind == "otlp")
    endpoint = "http://localhost:4318/v1/traces";
  if (endpoint) // "http://h:4318/" + "/v1/traces": one slash is enough
    if (auto p = endpoint->find("//v1/traces"); p != std::string::npos)
      endpoint->erase(p, 1);
  auto jsonl = s.jsonl_path;
  if (!jsonl && exporter_kind == "console")
    jsonl = "/dev/stderr"; // never stdout: it may be an MCP stdio stream
  if (!endpoint && !jsonl)
    return nullptr; // nowhere to send spans: tracing stays off, and free

  resource res = resource::with_service(s.default_service);
  std::string service = s.default_service;
  if (auto ra = env("OTEL_RESOURCE_ATTRIBUTES"))
    for (auto& [k, v] : key_values(*ra)) {
      if (k == "service.name")
        service = v;
      else
        res.attributes.emplace_back(k, v);
    }
  if (auto sn = env("OTEL_SERVICE_NAME"))
    service = *sn;
  if (s.service_name)
    service = *s.service_name;
  std::get<std::string>(res.attributes[0].second) = service; // with_service put it first

  std::shared_ptr<span_exporter> exporter;
  if (jsonl) {
    exporter = std::make_shared<json_lines_exporter>(*jsonl, res, s.scope);
  } else {
    otlp_http_options o;
    o.endpoint = *endpoint;
    for (auto* name : {"OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"})
      if (auto h = env(name))
        for (auto& [k, v] : key_values(*h))
          o.headers[k] = v;
    long long timeout_ms = o.timeout.count();
    number_from_env("OTEL_EXPORTER_OTLP_TIMEOUT", timeout_ms);
    number_from_env("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", timeout_ms);
    o.timeout = std::chrono::milliseconds(timeout_ms);
    exporter = std::make_shared<otlp_http_exporter>(o, res, s.scope);
  }

  auto sampler_name = env("OTEL_TRACES_SAMPLER").value_or("parentbased_always_on");
  auto smp = sampler_from_name(sampler_name, env("OTEL_TRACES_SAMPLER_ARG").value_or(""));
  if (!smp) {
    std::fprintf(stderr, "cafmcp-otel: unknown OTEL_TRACES_SAMPLER %s; using parentbased_always_on\n",
                 sampler_name.c_str());
    smp = parent_based(always_on());
  }

  batch_options b;
  long long delay = b.schedule_delay.count(), export_timeout = b.export_timeout.count();
  number_from_env("OTEL_BSP_SCHEDULE_DELAY", delay);
  number_from_env("OTEL_BSP_EXPORT_TIMEOUT", export_timeout);
  number_from_env("OTEL_BSP_MAX_QUEUE_SIZE", b.max_queue_size);
  number_from_env("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", b.max_export_batch_size);
  b.schedule_delay = std::chrono::milliseconds(delay);
  b.export_timeout = std::chrono::milliseconds(export_timeout);
  auto processor = std::make_shared<batch_span_processor>(exporter, b);
  return std::make_shared<tracer_provider>(res, smp, processor);
}

} // namespace cafmcp::otel
