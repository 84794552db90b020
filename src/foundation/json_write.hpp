#pragma once
// Writing a json value as the compact text that goes on the wire. Every
// answer and every notification is written here once. nlohmann's
// serializer spent ~4.5k instructions on a 90-byte tools/call result: an
// output adapter behind a virtual call and a shared_ptr, and a UTF-8 decode
// step for every byte of every string; this writer copies runs of plain
// bytes whole.
#include <string>
#include <string_view>

#include "cafmcp/json.hpp"

namespace cafmcp {

/// Appends to `out` exactly what `j.dump(-1, ' ', false,
/// json::error_handler_t::replace)` returns: members in the object's
/// order, valid UTF-8 as is, `"`, `\` and control characters escaped as
/// nlohmann escapes them. What it would write differently of its own
/// (floating-point numbers, binary values, a string holding invalid UTF-8,
/// which gets U+FFFD) nlohmann's serializer writes.
void append_json(std::string& out, const json& j);

/// Appends `s` as a JSON string, as append_json(out, json(s)) would,
/// without the copy into a json value.
void append_json_string(std::string& out, std::string_view s);

} // namespace cafmcp
