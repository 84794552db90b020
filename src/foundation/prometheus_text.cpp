#include "cafmcp/prometheus_text.hpp"

#include <charconv>
#include <cmath>

namespace cafmcp {
namespace {

bool name_char(char c, bool first) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':'
         || (!first && c >= '0' && c <= '9');
}

// Characters a Prometheus name cannot hold become one underscore (a run of
// them too); a leading digit gets one in front.
std::string sanitized(std::string_view in, bool colons_allowed) {
  std::string out;
  for (char c : in) {
    bool ok = name_char(c, out.empty()) && (colons_allowed || c != ':');
    if (!ok && out.empty() && c >= '0' && c <= '9') {
      out += '_';
      ok = true;
    }
    if (ok)
      out += c;
    else if (out.empty() || out.back() != '_')
      out += '_';
  }
  return out;
}

// UCUM units as Prometheus spells them; `{session}`-like annotations and
// the dimensionless "1" add nothing.
std::string unit_suffix(std::string_view unit) {
  if (unit.empty() || unit == "1" || unit.front() == '{')
    return {};
  if (unit == "s")
    return "seconds";
  if (unit == "ms")
    return "milliseconds";
  if (unit == "us")
    return "microseconds";
  if (unit == "By")
    return "bytes";
  return sanitized(unit, false);
}

void append_number(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "NaN";
    return;
  }
  if (std::isinf(v)) {
    out += v > 0 ? "+Inf" : "-Inf";
    return;
  }
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v); // shortest text that reads back the same
  out.append(buf, r.ptr);
}

void append_label_value(std::string& out, std::string_view v) {
  for (char c : v) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
}

// `{a="x",b="y"}`, with `extra` (a histogram's le) last; nothing when empty.
void append_labels(std::string& out, const metric_attributes& attributes, std::string_view extra_key = {},
                   std::string_view extra_value = {}) {
  if (attributes.empty() && extra_key.empty())
    return;
  out += '{';
  bool first = true;
  auto one = [&](std::string_view k, std::string_view v) {
    if (!first)
      out += ',';
    first = false;
    out += sanitized(k, false);
    out += "=\"";
    append_label_value(out, v);
    out += '"';
  };
  for (auto& [k, v] : attributes)
    one(k, v);
  if (!extra_key.empty())
    one(extra_key, extra_value);
  out += '}';
}

void append_help(std::string& out, std::string_view text) {
  for (char c : text) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
}

} // namespace

std::string prometheus_name(const metric_family& f) {
  auto name = sanitized(f.name, true);
  auto unit = unit_suffix(f.unit);
  if (!unit.empty()
      && (name.size() < unit.size() + 1 || name.compare(name.size() - unit.size(), unit.size(), unit) != 0))
    name += "_" + unit;
  if (f.kind == metric_kind::counter)
    name += "_total";
  return name;
}

std::string prometheus_text(const metrics_snapshot& snapshot) {
  std::string out;
  for (auto& f : snapshot.families) {
    if (f.points.empty())
      continue;
    auto name = prometheus_name(f);
    out += "# HELP " + name + " ";
    append_help(out, f.description);
    out += "\n# TYPE " + name + " ";
    out += f.kind == metric_kind::counter     ? "counter"
           : f.kind == metric_kind::histogram ? "histogram"
                                              : "gauge";
    out += '\n';
    for (auto& p : f.points) {
      if (f.kind != metric_kind::histogram) {
        out += name;
        append_labels(out, p.attributes);
        out += ' ' + std::to_string(p.value) + '\n';
        continue;
      }
      std::uint64_t cumulative = 0;
      std::string le;
      for (std::size_t i = 0; i < p.bucket_counts.size(); ++i) {
        cumulative += p.bucket_counts[i];
        le.clear();
        append_number(le, i < f.bounds.size() ? f.bounds[i] : INFINITY);
        out += name + "_bucket";
        append_labels(out, p.attributes, "le", le);
        out += ' ' + std::to_string(cumulative) + '\n';
      }
      out += name + "_sum";
      append_labels(out, p.attributes);
      out += ' ';
      append_number(out, p.sum);
      out += '\n' + name + "_count";
      append_labels(out, p.attributes);
      out += ' ' + std::to_string(p.count) + '\n';
    }
  }
  return out;
}

} // namespace cafmcp
