#include "cafmcp/otel/span_data.hpp"

#include "cafmcp/otel/exporter.hpp"

namespace cafmcp::otel {

std::uint64_t now_unix_nano() {
  return static_cast<std::uint64_t>(
    std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count());
}

span_data span_group::expand(const member& m) const {
  span_data s = common;
  s.context.span = random_span_id();
  s.start_unix_nano = m.start_unix_nano;
  s.end_unix_nano = m.end_unix_nano;
  s.attributes.emplace_back(member_key, std::string(value(m)));
  return s;
}

std::vector<span_data> span_group::expand() const {
  std::vector<span_data> out;
  out.reserve(members.size());
  for (auto& m : members)
    out.push_back(expand(m));
  return out;
}

std::size_t span_batch::size() const {
  auto n = spans.size();
  for (auto& g : groups)
    n += g->members.size();
  return n;
}

void span_batch::clear() {
  spans.clear();
  groups.clear();
}

std::vector<span_data> span_batch::expanded() && {
  std::vector<span_data> out = std::move(spans);
  out.reserve(size());
  for (auto& g : groups)
    for (auto& m : g->members)
      out.push_back(g->expand(m));
  return out;
}

} // namespace cafmcp::otel
