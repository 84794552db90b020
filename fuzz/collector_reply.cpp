// What the OTLP exporter reads from a collector's reply (otel/src): the
// Retry-After header of a 429/503 (retry_after.cpp) and the body of a 2xx,
// protobuf or JSON (partial_success.cpp, decode_otlp_protobuf_response).
// Input: the header value, a newline, the body.
//
// A Retry-After is ignored or a wait from 0 to the one-year cap, and
// delay-seconds mean that many seconds, up to the cap; a body reads as nothing
// rejected or as a count from 0 to INT64_MAX with a message no longer than
// the body. Nothing throws and nothing overflows (UBSan stops the run).
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "partial_success.hpp"
#include "retry_after.hpp"

namespace {

using namespace cafmcp::otel;
using namespace std::chrono;

void check_retry_after(std::string_view value, system_clock::time_point now) {
  auto wait = detail::parse_retry_after(value, now);
  if (!wait)
    return;
  FUZZ_CHECK(wait->count() >= 0);
  FUZZ_CHECK(*wait <= hours(24 * 365));
  auto digits = value;
  while (!digits.empty() && (digits.front() == ' ' || digits.front() == '\t'))
    digits.remove_prefix(1);
  while (!digits.empty() && (digits.back() == ' ' || digits.back() == '\t'))
    digits.remove_suffix(1);
  if (!digits.empty() && digits.size() <= 9
      && digits.find_first_not_of("0123456789") == std::string_view::npos)
    FUZZ_CHECK(*wait == std::min<milliseconds>(seconds(std::stol(std::string(digits))), hours(24 * 365)));
}

void check_body(std::string_view body, otlp_protocol protocol) {
  auto ps = detail::partial_success_in(body, protocol);
  if (!ps)
    return;
  FUZZ_CHECK(ps->rejected_spans >= 0);
  FUZZ_CHECK(ps->error_message.size() <= body.size());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto nl = text.find('\n');
  auto header = text.substr(0, nl);
  auto body = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);

  // A fixed clock (June 2025) keeps runs reproducible.
  check_retry_after(header, system_clock::time_point(seconds(1'750'000'000)));

  check_body(body, otlp_protocol::http_protobuf);
  check_body(body, otlp_protocol::http_json);
  return 0;
}
