#pragma once
// Everything OTLP in one include: the JSON encoding and both exporters.
#include "cafmcp/otel/json_lines_exporter.hpp"
#include "cafmcp/otel/otlp_http_exporter.hpp"
#include "cafmcp/otel/otlp_json.hpp"
