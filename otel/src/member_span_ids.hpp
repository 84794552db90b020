#pragma once
// Span ids for a group's members, drawn as the group is encoded.
//
// A broadcast to 500 sessions is 500 member spans, each needing an id of its
// own on the exporter's thread. A draw from the thread's mt19937_64 behind
// random_span_id (its thread-local guard, the 64-bit draw, the zero check
// byte by byte) was ~77 instructions a member, an eighth of the exporter's
// cost per send span. A group's ids come from SplitMix64 instead: a 64-bit
// pseudo-random generator (a counter stepped by an odd constant, each step
// put through a bijective mix), seeded once per group from the thread's
// generator; ~10 instructions an id. Within a group no two ids are equal
// (the mix is a bijection and the counter does not come back within 2^64
// steps); across groups, ids collide as rarely as independent draws do.
#include <cstdint>
#include <cstring>

#include "cafmcp/otel/context.hpp"

namespace cafmcp::otel::detail {

class member_span_ids {
public:
  member_span_ids() : state_(random_seed()) {}
  /// A sequence of its own: the same seed, the same ids (for tests).
  explicit member_span_ids(std::uint64_t seed) : state_(seed) {}

  /// The next id as its 64 bits (never 0, which is no valid span id), in
  /// the order its bytes go out: the lowest byte first.
  std::uint64_t next_bits() {
    for (;;) {
      std::uint64_t z = state_ += gamma;
      z = (z ^ (z >> 30)) * 0xbf58'476d'1ce4'e5b9;
      z = (z ^ (z >> 27)) * 0x94d0'49bb'1331'11eb;
      z ^= z >> 31;
      if (z != 0)
        return z;
    }
  }

  span_id next() {
    span_id id;
    auto bits = next_bits();
    std::memcpy(id.data(), &bits, sizeof bits);
    return id;
  }

  /// The step between counter values (odd: the counter visits every value).
  static constexpr std::uint64_t gamma = 0x9e37'79b9'7f4a'7c15;

private:
  static std::uint64_t random_seed() {
    auto bytes = random_span_id();
    std::uint64_t seed;
    std::memcpy(&seed, bytes.data(), sizeof seed);
    return seed;
  }

  std::uint64_t state_;
};

} // namespace cafmcp::otel::detail
