// The client's text/event-stream parser (src/client_transport/sse_parser.cpp)
// over bytes a hostile server sends. The same bytes give the same events,
// `retry` and last event id whether they arrive at once or in chunks of any
// size (TCP decides where a read ends); a field never carries a line break;
// an id never holds NUL; `retry` is a count of milliseconds (digits only,
// WHATWG), never negative.
#include "client_transport/sse_parser.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"

namespace {

using cafmcp::client_detail::sse_event;
using cafmcp::client_detail::sse_parser;

bool same(const sse_event& a, const sse_event& b) {
  return a.id == b.id && a.has_id == b.has_id && a.event == b.event && a.data == b.data;
}

bool no_line_break(std::string_view s) { return s.find_first_of("\r\n") == std::string_view::npos; }

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);

  sse_parser whole;
  std::vector<sse_event> at_once;
  whole.feed(bytes, at_once);

  // Chunk sizes 1..8 cycling from a seed the input chooses (its length), so
  // '\r' | '\n' pairs and fields are cut everywhere over the corpus.
  sse_parser chunked;
  std::vector<sse_event> in_chunks;
  std::size_t step = size % 8;
  for (std::size_t pos = 0; pos < size;) {
    auto n = std::min<std::size_t>(step % 8 + 1, size - pos);
    chunked.feed(bytes.substr(pos, n), in_chunks);
    pos += n;
    ++step;
  }

  FUZZ_CHECK(at_once.size() == in_chunks.size());
  for (std::size_t i = 0; i < at_once.size(); ++i)
    FUZZ_CHECK(same(at_once[i], in_chunks[i]));
  FUZZ_CHECK(whole.retry_ms() == chunked.retry_ms());
  FUZZ_CHECK(whole.last_event_id() == chunked.last_event_id());
  FUZZ_CHECK(whole.has_last_event_id() == chunked.has_last_event_id());

  for (auto& e : at_once) {
    FUZZ_CHECK(no_line_break(e.id) && no_line_break(e.event));
    FUZZ_CHECK(e.data.find('\r') == std::string::npos); // lines are joined with '\n' only
    FUZZ_CHECK(e.id.find('\0') == std::string::npos);
  }
  if (whole.retry_ms())
    FUZZ_CHECK(*whole.retry_ms() >= 0);
  return 0;
}
