#include "cafmcp/otel/context.hpp"

#include <cstring>
#include <random>

#include <sys/random.h>

#include "cafmcp/otel/trace_state.hpp"
#include "hex_digits.hpp"

namespace cafmcp::otel {
namespace {

template <std::size_t N>
std::string hex(const std::array<std::uint8_t, N>& bytes) {
  std::string out(N * 2, '\0');
  detail::put_hex_digits(out.data(), bytes);
  return out;
}

template <std::size_t N>
bool nonzero(const std::array<std::uint8_t, N>& bytes) {
  for (auto b : bytes)
    if (b)
      return true;
  return false;
}

int lower_hex(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1; // uppercase is invalid in traceparent
}

template <std::size_t N>
bool read_hex(std::string_view text, std::array<std::uint8_t, N>& out) {
  if (text.size() != N * 2)
    return false;
  for (std::size_t i = 0; i < N; ++i) {
    int hi = lower_hex(text[2 * i]), lo = lower_hex(text[2 * i + 1]);
    if (hi < 0 || lo < 0)
      return false;
    out[i] = static_cast<std::uint8_t>(hi << 4 | lo);
  }
  return true;
}

std::mt19937_64& generator() {
  thread_local std::mt19937_64 gen = [] {
    std::uint64_t seed = 0;
    while (::getrandom(&seed, sizeof seed, 0) != sizeof seed) {
    }
    return std::mt19937_64(seed);
  }();
  return gen;
}

// Whole 64-bit draws copied in (a byte at a time was ~90 instructions of
// each send span's export).
template <std::size_t N>
std::array<std::uint8_t, N> random_bytes() {
  static_assert(N % 8 == 0);
  std::array<std::uint8_t, N> out{};
  auto& gen = generator();
  do {
    for (std::size_t i = 0; i < N; i += 8) {
      std::uint64_t v = gen();
      std::memcpy(out.data() + i, &v, 8);
    }
  } while (!nonzero(out));
  return out;
}

} // namespace

std::string to_hex(const trace_id& id) { return hex(id); }
std::string to_hex(const span_id& id) { return hex(id); }
bool is_valid(const trace_id& id) { return nonzero(id); }
bool is_valid(const span_id& id) { return nonzero(id); }
trace_id random_trace_id() { return random_bytes<16>(); }
span_id random_span_id() { return random_bytes<8>(); }

bool valid_tracestate(std::string_view ts) { return trace_state::parse(ts).has_value(); }

std::optional<span_context> parse_traceparent(std::string_view tp, std::string_view tracestate) {
  // version-traceid-spanid-flags; later versions may append fields.
  if (tp.size() < 55 || tp[2] != '-' || tp[35] != '-' || tp[52] != '-')
    return std::nullopt;
  std::array<std::uint8_t, 1> version{}, flags{};
  if (!read_hex(tp.substr(0, 2), version) || version[0] == 0xff)
    return std::nullopt;
  if (version[0] == 0 && tp.size() != 55)
    return std::nullopt;
  if (tp.size() > 55 && tp[55] != '-')
    return std::nullopt;
  span_context ctx;
  if (!read_hex(tp.substr(3, 32), ctx.trace) || !read_hex(tp.substr(36, 16), ctx.span)
      || !read_hex(tp.substr(53, 2), flags) || !ctx.valid())
    return std::nullopt;
  ctx.flags = flags[0];
  ctx.remote = true;
  if (auto state = trace_state::parse(tracestate))
    ctx.tracestate = state->to_header();
  return ctx;
}

// Every traced request formats its span's: one string, written in place.
std::string format_traceparent(const span_context& ctx) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(55, '-'); // 00-<32 digits>-<16 digits>-<2 digits>
  out[0] = out[1] = '0';
  detail::put_hex_digits(out.data() + 3, ctx.trace);
  detail::put_hex_digits(out.data() + 36, ctx.span);
  out[53] = digits[ctx.flags >> 4];
  out[54] = digits[ctx.flags & 15];
  return out;
}

} // namespace cafmcp::otel
