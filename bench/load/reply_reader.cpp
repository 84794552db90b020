#include "reply_reader.hpp"

#include <optional>
#include <string_view>

#include <simdjson.h>

namespace cafmcp::load {

// The DOM parser: its kernel is chosen at run time for the CPU (the
// on-demand API's is fixed when compiled, and for a plain x86-64 build
// that is the scalar fallback).
struct reply_reader::impl {
  simdjson::dom::parser parser;
};

reply_reader::reply_reader() : impl_(std::make_unique<impl>()) {}
reply_reader::~reply_reader() = default;

namespace {

// isError of a result; nullopt when the result is no object or its
// isError no boolean.
std::optional<bool> is_error(simdjson::dom::element result) {
  simdjson::dom::object members;
  if (result.get_object().get(members))
    return std::nullopt;
  bool error = false;
  for (auto [key, value] : members)
    if (key == "isError" && value.get_bool().get(error))
      return std::nullopt;
  return error;
}

} // namespace

tool_reply reply_reader::read(std::string& body, std::int64_t id) {
  auto size = body.size();
  body.reserve(size + simdjson::SIMDJSON_PADDING);
  simdjson::dom::element doc;
  simdjson::dom::object top;
  if (impl_->parser.parse(body.data(), size, false).get(doc) || doc.get_object().get(top))
    return tool_reply::other;
  bool ours = false;
  std::optional<bool> error;
  for (auto [key, value] : top) {
    if (key == "id") {
      std::int64_t v;
      if (value.get_int64().get(v) || v != id)
        return tool_reply::other;
      ours = true;
    } else if (key == "result") {
      if (!(error = is_error(value)))
        return tool_reply::other;
    } else if (key == "error") {
      return tool_reply::other;
    }
  }
  if (!ours || !error)
    return tool_reply::other;
  return *error ? tool_reply::error_result : tool_reply::result;
}

} // namespace cafmcp::load
