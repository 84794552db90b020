// JSON-RPC parse and serialize (src/foundation/json_rpc.cpp): whatever the
// text, parse() returns a message or a failure, never throws. A message
// serializes to one line that parses back to the same message and
// serializes to the same line again; a failure's error response is itself a
// well-formed JSON-RPC error that names the same id. answer_error_code()
// reads every answer serialized here as a parse of it does.
#include "cafmcp/json_rpc.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"

namespace {

using namespace cafmcp;

// The parts serialize() keeps; error `data: null` is dropped on the wire,
// so it reads back absent.
bool same(const jsonrpc::message& a, const jsonrpc::message& b) {
  if (a.index() != b.index())
    return false;
  auto params = [](const std::optional<json>& p) { return p.value_or(json()); };
  if (auto* x = std::get_if<jsonrpc::request>(&a)) {
    auto& y = std::get<jsonrpc::request>(b);
    return x->id == y.id && x->method == y.method && params(x->params) == params(y.params);
  }
  if (auto* x = std::get_if<jsonrpc::notification>(&a)) {
    auto& y = std::get<jsonrpc::notification>(b);
    return x->method == y.method && params(x->params) == params(y.params);
  }
  if (auto* x = std::get_if<jsonrpc::response>(&a)) {
    auto& y = std::get<jsonrpc::response>(b);
    return x->id == y.id && x->result == y.result;
  }
  auto& x = std::get<jsonrpc::error_response>(a);
  auto& y = std::get<jsonrpc::error_response>(b);
  return x.id == y.id && x.err.code == y.err.code && x.err.message == y.err.message
         && params(x.err.data) == params(y.err.data);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  jsonrpc::limits lim;
  lim.max_depth = 16; // small enough for the fuzzer to reach and cross
  auto parsed = jsonrpc::parse(text, lim);

  if (auto* bad = std::get_if<jsonrpc::parse_failure>(&parsed)) {
    FUZZ_CHECK(!bad->err.message.empty());
    FUZZ_CHECK(bad->err.code == jsonrpc::code::parse_error
               || bad->err.code == jsonrpc::code::invalid_request);
    auto answer = jsonrpc::serialize_error(bad->id, bad->err);
    auto back = jsonrpc::parse(answer, lim);
    auto* msg = std::get_if<jsonrpc::message>(&back);
    FUZZ_CHECK(msg != nullptr);
    auto* err = std::get_if<jsonrpc::error_response>(msg);
    FUZZ_CHECK(err != nullptr);
    FUZZ_CHECK(err->id == bad->id);
    FUZZ_CHECK(err->err.code == bad->err.code);
    FUZZ_CHECK(jsonrpc::answer_error_code(answer) == bad->err.code);
    return 0;
  }

  auto& msg = std::get<jsonrpc::message>(parsed);
  auto line = jsonrpc::serialize(msg);
  FUZZ_CHECK(line.find('\n') == std::string::npos); // stdio frames one message per line
  auto again = jsonrpc::parse(line, lim);
  auto* msg2 = std::get_if<jsonrpc::message>(&again);
  FUZZ_CHECK(msg2 != nullptr);
  FUZZ_CHECK(same(msg, *msg2));
  FUZZ_CHECK(jsonrpc::serialize(*msg2) == line);
  if (auto* e = std::get_if<jsonrpc::error_response>(&msg))
    FUZZ_CHECK(jsonrpc::answer_error_code(line) == e->err.code);
  else if (std::holds_alternative<jsonrpc::response>(msg))
    FUZZ_CHECK(!jsonrpc::answer_error_code(line));

  // Request ids survive the map-key form the session and HTTP use.
  const jsonrpc::request_id* id = nullptr;
  if (auto* r = std::get_if<jsonrpc::request>(&msg))
    id = &r->id;
  else if (auto* r = std::get_if<jsonrpc::response>(&msg))
    id = &r->id;
  if (id) {
    auto key = jsonrpc::to_key(*id);
    auto from = jsonrpc::from_key(key);
    FUZZ_CHECK(from && *from == *id);
  }
  return 0;
}
