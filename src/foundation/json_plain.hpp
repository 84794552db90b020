#pragma once
// Whether a string goes into JSON text as it is, judged sixteen bytes a
// step: the MCP writer (json_write.cpp) and the OTLP/JSON exporter
// (otel/src/otlp_json.cpp) copy most of their strings whole after it.
#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace cafmcp {

// Printable ASCII but `"` and `\`: copied as it is.
inline constexpr std::array<bool, 256> json_plain_bytes = [] {
  std::array<bool, 256> t{};
  for (int c = 0x20; c < 0x7f; ++c)
    t[c] = c != '"' && c != '\\';
  return t;
}();

/// Whether `v` goes into JSON as it is: no byte below 0x20 or above 0x7e,
/// no `"` or `\` (DEL and UTF-8 are left to a writer's slow path, which
/// judges them exactly). Sixteen bytes a step with SSE2 (every x86-64 has
/// it; for a 32-byte session id, ~40 instructions where eight bytes a step
/// took ~140), the last step overlapping the one before; a string of 4 to
/// 15 bytes is gathered into one step from two overlapping loads (keys and
/// short values are mostly that short: a byte at a time they were ~90
/// instructions an OTLP attribute). Nothing is read outside `v`. Inlined:
/// out of line, the call and the constants' setup cost an OTLP member span
/// ~14 more.
[[gnu::always_inline]] inline bool is_plain_json_text(std::string_view v) {
  const char* d = v.data();
  std::size_t n = v.size();
#ifdef __SSE2__
  const auto space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f), quote = _mm_set1_epi8('"'),
             backslash = _mm_set1_epi8('\\');
  auto plain = [&](__m128i x) {
    // As signed bytes, 0x80-0xff are below 0x20 too.
    auto bad = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(x, space), _mm_cmpeq_epi8(x, del)),
                            _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)));
    return _mm_movemask_epi8(bad) == 0;
  };
  if (n >= 16) {
    for (std::size_t i = 0; i + 16 <= n; i += 16)
      if (!plain(_mm_loadu_si128(reinterpret_cast<const __m128i*>(d + i))))
        return false;
    return n % 16 == 0 || plain(_mm_loadu_si128(reinterpret_cast<const __m128i*>(d + n - 16)));
  }
  if (n >= 8)
    return plain(_mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(d)),
                                    _mm_loadl_epi64(reinterpret_cast<const __m128i*>(d + n - 8))));
  if (n >= 4) {
    std::int32_t head, tail;
    std::memcpy(&head, d, 4);
    std::memcpy(&tail, d + n - 4, 4);
    return plain(_mm_set_epi32(0x61616161, 0x61616161, tail, head)); // the rest of the step: 'a's
  }
#endif
  for (std::size_t i = 0; i < n; ++i)
    if (!json_plain_bytes[static_cast<unsigned char>(d[i])])
      return false;
  return true;
}

} // namespace cafmcp
