#include "cafmcp/otel/span_data.hpp"

namespace cafmcp::otel {

std::uint64_t now_unix_nano() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                      std::chrono::system_clock::now().time_since_epoch())
                                      .count());
}

std::vector<span_data> span_group::expand() const {
  std::vector<span_data> out;
  out.reserve(members.size());
  for (auto& m : members) {
    span_data s = common;
    s.context.span = m.id;
    s.start_unix_nano = m.start_unix_nano;
    s.end_unix_nano = m.end_unix_nano;
    s.attributes.emplace_back(member_key, m.value);
    out.push_back(std::move(s));
  }
  return out;
}

} // namespace cafmcp::otel
