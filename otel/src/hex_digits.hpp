#pragma once
// Bytes as lowercase hex digits, written onto a pointer into room the
// caller has made: trace and span ids in traceparent headers and in
// OTLP/JSON. With SSE2, eight bytes at once: the nibbles split and
// interleaved, then each made a digit or a letter (a byte at a time, with
// a push_back each, was ~60 instructions a span id and ~700 a traceparent).
#include <array>
#include <cstddef>
#include <cstdint>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace cafmcp::otel::detail {

/// The 16 digits of 8 bytes, the first byte first; returns the end.
inline char* put_hex8(char* p, const std::uint8_t* bytes) {
#ifdef __SSE2__
  auto x = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(bytes));
  auto low4 = _mm_set1_epi8(0x0f);
  auto nibbles = _mm_unpacklo_epi8(_mm_and_si128(_mm_srli_epi16(x, 4), low4), _mm_and_si128(x, low4));
  auto letters = _mm_and_si128(_mm_cmpgt_epi8(nibbles, _mm_set1_epi8(9)), _mm_set1_epi8('a' - '0' - 10));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm_add_epi8(_mm_add_epi8(nibbles, _mm_set1_epi8('0')), letters));
  return p + 16;
#else
  static constexpr char digits[] = "0123456789abcdef";
  for (std::size_t i = 0; i < 8; ++i) {
    *p++ = digits[bytes[i] >> 4];
    *p++ = digits[bytes[i] & 0xf];
  }
  return p;
#endif
}

/// The 2N digits of an id of N bytes (N a multiple of 8); returns the end.
template <std::size_t N>
char* put_hex_digits(char* p, const std::array<std::uint8_t, N>& bytes) {
  static_assert(N % 8 == 0);
  for (std::size_t i = 0; i < N; i += 8)
    p = put_hex8(p, bytes.data() + i);
  return p;
}

} // namespace cafmcp::otel::detail
