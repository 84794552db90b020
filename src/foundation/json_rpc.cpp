#include "cafmcp/json_rpc.hpp"

#include <charconv>
#include <climits>
#include <cstdint>

#include "foundation/json_parse.hpp"
#include "foundation/json_write.hpp"

namespace cafmcp::jsonrpc {
namespace {

parse_failure failure(int code, std::string message, std::optional<request_id> id = {}) {
  return {error{code, std::move(message), std::nullopt}, std::move(id)};
}

std::optional<request_id> read_id(const json& v) {
  // An unsigned id past int64's range would come back as a different number.
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(INT64_MAX))
    return std::nullopt;
  if (v.is_number_integer())
    return request_id{v.get<std::int64_t>()};
  if (v.is_string())
    return request_id{v.get<std::string>()};
  return std::nullopt;
}

bool fits_int(const json& v) {
  if (v.is_number_unsigned())
    return v.get<std::uint64_t>() <= std::uint64_t(INT_MAX);
  auto n = v.get<std::int64_t>();
  return n >= INT_MIN && n <= INT_MAX;
}

} // namespace

json to_json(const request_id& id) {
  return std::visit([](const auto& v) { return json(v); }, id);
}

// An integer id, the common case, is its decimal text both ways: no JSON
// value is built (a call makes and reads its key several times).
std::string to_key(const request_id& id) {
  if (auto* n = std::get_if<std::int64_t>(&id))
    return std::to_string(*n);
  return to_json(id).dump();
}

std::optional<request_id> from_key(std::string_view key) {
  if (!key.empty() && (key.front() == '-' || (key.front() >= '0' && key.front() <= '9'))) {
    std::int64_t n = 0;
    auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), n);
    // Only to_key's own text: "007" or "-0" is not a key (nor JSON's).
    if (ec == std::errc() && end == key.data() + key.size() && std::to_string(n) == key)
      return n;
  }
  auto j = json::parse(key, nullptr, false);
  if (j.is_string())
    return j.get<std::string>();
  if (j.is_number_integer())
    return j.get<std::int64_t>();
  return std::nullopt;
}

std::variant<message, parse_failure> parse(std::string_view text, const limits& lim) {
  if (text.size() > lim.max_message_bytes)
    return failure(code::invalid_request,
                   "message exceeds " + std::to_string(lim.max_message_bytes) + " bytes");
  std::optional<json_envelope> env;
  try {
    env = read_envelope(text, lim.max_depth);
  } catch (const json::parse_error& e) {
    // The byte offset is what a client author needs to find the mistake.
    return failure(code::parse_error, "Parse error: not valid JSON (at byte " + std::to_string(e.byte) + ")");
  } catch (const json::exception&) {
    // A number beyond a double (1e999999) is valid JSON text, but nlohmann
    // reports it as out_of_range, not as a parse_error: uncaught, one such
    // request ended the whole server.
    return failure(code::parse_error, "Parse error: a number too large to represent");
  }
  if (!env)
    return failure(code::invalid_request, "nesting deeper than " + std::to_string(lim.max_depth));
  if (env->top == json_envelope::shape::array)
    return failure(code::invalid_request, "batches are not supported, send one message");
  if (env->top != json_envelope::shape::object)
    return failure(code::invalid_request, "a JSON-RPC message must be an object");

  auto member = [](std::optional<json>& m) { return m ? &*m : nullptr; };
  json *id_v = member(env->id), *jsonrpc_v = member(env->jsonrpc), *method_v = member(env->method),
       *params_v = member(env->params), *result_v = member(env->result), *error_v = member(env->error);
  const std::string* unknown = env->unknown ? &*env->unknown : nullptr;

  // The id, when readable, goes back in any error about this message.
  std::optional<request_id> id;
  // JSON-RPC answers an unreadable request with `"id": null`, so only an
  // error response may carry a null id; it then has no id to correlate.
  const bool has_method = method_v || env->method_name;
  bool null_error_id = id_v && id_v->is_null() && error_v && !has_method;
  if (id_v && !null_error_id) {
    id = read_id(*id_v);
    if (!id) {
      const auto& v = *id_v;
      return failure(code::invalid_request, v.is_null() ? "id must not be null"
                                            : v.is_number_float()
                                              ? "id must be an integer or a string, not a fraction"
                                            : v.is_number() ? "id is out of the 64-bit integer range"
                                                            : "id must be an integer or a string");
    }
  }
  if (!env->jsonrpc_2_0 && (!jsonrpc_v || !jsonrpc_v->is_string() || *jsonrpc_v != "2.0"))
    return failure(code::invalid_request, "jsonrpc must be \"2.0\"", id);
  if (unknown)
    return failure(code::invalid_request, "unknown member \"" + *unknown + "\"", id);

  if (has_method) {
    if (method_v && !method_v->is_string())
      return failure(code::invalid_request, "method must be a string", id);
    if (result_v || error_v)
      return failure(code::invalid_request, "a request cannot carry result or error", id);
    std::optional<json> params;
    if (params_v) {
      if (!params_v->is_object())
        return failure(code::invalid_request,
                       params_v->is_null() ? "params must be omitted, not null" : "params must be an object",
                       id);
      params = std::move(*params_v);
    }
    auto method = env->method_name ? std::move(*env->method_name) : std::move(method_v->get_ref<std::string&>());
    if (id)
      return message{request{std::move(*id), std::move(method), std::move(params)}};
    return message{notification{std::move(method), std::move(params)}};
  }

  bool has_result = result_v != nullptr, has_error = error_v != nullptr;
  if (has_result == has_error)
    return failure(code::invalid_request,
                   has_result ? "a response carries result or error, not both"
                              : "neither a request (method) nor a response (result/error)",
                   id);
  if (has_result) {
    if (!id)
      return failure(code::invalid_request, "a result response needs an id");
    if (!result_v->is_object())
      return failure(code::invalid_request, "result must be an object", id);
    return message{response{std::move(*id), std::move(*result_v)}};
  }
  const auto& e = *error_v;
  if (!e.is_object() || !e.contains("code") || !e["code"].is_number_integer() || !fits_int(e["code"])
      || !e.contains("message") || !e["message"].is_string())
    return failure(code::invalid_request, "error must be {code: integer, message: string}", id);
  error err{e["code"].get<int>(), e["message"].get<std::string>(), std::nullopt};
  if (e.contains("data"))
    err.data = e["data"];
  return message{error_response{std::move(id), std::move(err)}};
}

json request_message(const json& id, std::string_view method, json params) {
  json m = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null())
    m["params"] = std::move(params);
  return m;
}

// Built member by member: an initializer list builds each pair as a
// two-element array first and copies it (24 allocations for a
// resources/updated notification against 12 this way).
json notification_message(std::string_view method, json params) {
  json m(json::value_t::object);
  m.emplace("jsonrpc", "2.0");
  m.emplace("method", method);
  if (!params.is_null())
    m.emplace("params", std::move(params));
  return m;
}

json result_message(const json& id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", result.is_null() ? json::object() : std::move(result)}};
}

json error_message(const json& id, int code, std::string message, json data) {
  json e = {{"code", code}, {"message", std::move(message)}};
  if (!data.is_null())
    e["data"] = std::move(data);
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(e)}};
}

std::string serialize(const message& msg) {
  if (auto* e = std::get_if<error_response>(&msg))
    return serialize_error(e->id, e->err);
  return wire_text(std::visit(
    [](const auto& m) -> json {
      using T = std::decay_t<decltype(m)>;
      if constexpr (std::is_same_v<T, request>)
        return request_message(to_json(m.id), m.method, m.params.value_or(nullptr));
      else if constexpr (std::is_same_v<T, notification>)
        return notification_message(m.method, m.params.value_or(nullptr));
      else if constexpr (std::is_same_v<T, response>)
        return result_message(to_json(m.id), m.result);
      else
        return error_message(m.id ? to_json(*m.id) : json(nullptr), m.err.code, m.err.message,
                             m.err.data.value_or(nullptr));
    },
    msg));
}

std::string wire_text(const json& j) {
  std::string out;
  append_json(out, j);
  return out;
}

namespace {

// Room for an envelope and a small payload in one allocation (a tools/call
// answer was 8: each append grew the string); a larger payload grows it
// by doubling.
constexpr std::size_t envelope_reserve = 256;

// An id as JSON prints it: an integer as its decimal text, a string quoted
// and escaped, none as null (an error about a message whose id was not
// readable).
void append_id(std::string& out, const std::optional<request_id>& id) {
  if (!id)
    out += "null";
  else if (auto* n = std::get_if<std::int64_t>(&*id))
    out += std::to_string(*n);
  else
    append_json_string(out, std::get<std::string>(*id));
}

} // namespace

// A result and a notification, the messages every call and broadcast
// sends, are written as text around their payload's own dump: no JSON tree
// is built for the envelope and the payload is not copied into one (a
// tools/call answer: 46 allocations fewer). Members in the order a JSON
// object of them would print (sorted), the same bytes as before.
std::string serialize_result(const request_id& id, const json& result) {
  std::string out;
  out.reserve(envelope_reserve);
  out += R"({"id":)";
  append_id(out, id);
  out += R"(,"jsonrpc":"2.0","result":)";
  if (result.is_null())
    out += "{}";
  else
    append_json(out, result);
  out += '}';
  return out;
}

// An error answer likewise: every malformed message, unknown method and
// bad argument is answered with one, and a flood of them (a broken client,
// a fuzzer: 12% of its CPU went here) built, copied and printed a tree each.
std::string serialize_error(const std::optional<request_id>& id, const error& err) {
  std::string out;
  out.reserve(envelope_reserve);
  out += R"({"error":{"code":)";
  out += std::to_string(err.code);
  if (err.data && !err.data->is_null()) {
    out += R"(,"data":)";
    append_json(out, *err.data);
  }
  out += R"(,"message":)";
  append_json_string(out, err.message);
  out += R"(},"id":)";
  append_id(out, id);
  out += R"(,"jsonrpc":"2.0"})";
  return out;
}

std::string serialize_notification(std::string_view method, const json* params) {
  std::string out;
  out.reserve(envelope_reserve);
  out += R"({"jsonrpc":"2.0","method":)";
  append_json_string(out, method);
  if (params && !params->is_null()) {
    out += R"(,"params":)";
    append_json(out, *params);
  }
  out += '}';
  return out;
}

std::optional<int> answer_error_code(std::string_view answer) {
  // The heads serialize_result() and serialize_error() write (and wire_text()
  // of result_message()/error_message(): nlohmann's objects keep key order,
  // "error" < "id" < "jsonrpc" < "result").
  constexpr std::string_view result_head = R"({"id":)";
  constexpr std::string_view error_head = R"({"error":{"code":)";
  if (answer.starts_with(result_head))
    return std::nullopt;
  if (answer.starts_with(error_head)) {
    const char* end = answer.data() + answer.size();
    int code = 0;
    auto [p, ec] = std::from_chars(answer.data() + error_head.size(), end, code);
    if (ec == std::errc() && p != end && (*p == ',' || *p == '}'))
      return code;
  }
  auto j = json::parse(answer, nullptr, false);
  if (!j.is_object())
    return std::nullopt;
  auto e = j.find("error");
  if (e == j.end() || !e->is_object())
    return std::nullopt;
  auto c = e->find("code");
  if (c == e->end() || !c->is_number_integer())
    return std::nullopt;
  auto v = c->get<std::int64_t>();
  if (v < INT_MIN || v > INT_MAX)
    return std::nullopt;
  return static_cast<int>(v);
}

} // namespace cafmcp::jsonrpc
