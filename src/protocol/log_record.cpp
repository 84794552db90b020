#include "protocol/log_record.hpp"

#include "foundation/json_member.hpp"

namespace cafmcp::protocol {

std::string encode(const log_record& r) {
  json j = {{"o", r.origin}, {"s", r.seq}};
  if (r.list_change)
    j["c"] = {{"kind", to_string(r.list_change->kind)},
              {"op", to_string(r.list_change->op)},
              {"key", r.list_change->key},
              {"d", r.list_change->descriptor}};
  if (r.updated_uri)
    j["u"] = *r.updated_uri;
  if (r.resync)
    j["resync"] = true;
  if (!r.replica.is_null())
    j["r"] = r.replica;
  if (r.session)
    j["sess"] = {{"id", r.session->id}, {"record", r.session->record ? to_json(*r.session->record) : json()}};
  if (r.answer) {
    json a = {{"id", r.answer->id}, {"ask", r.answer->ask_id}};
    if (auto* err = std::get_if<jsonrpc::error>(&r.answer->answer))
      a["error"] = {
        {"code", err->code}, {"message", err->message}, {"data", err->data ? *err->data : json()}};
    else
      a["result"] = std::get<json>(r.answer->answer);
    j["ans"] = std::move(a);
  }
  if (r.message)
    j["msg"] = {{"id", r.message->id}, {"m", r.message->message}};
  if (r.claim)
    j["claim"] = {{"id", r.claim->id}, {"n", r.claim->number}};
  if (!r.trace.empty())
    j["t"] = {{"traceparent", r.trace.traceparent}, {"tracestate", r.trace.tracestate}};
  // Replicas carry resource text a client chose: invalid UTF-8 is replaced,
  // never thrown (it came in through JSON, so it is rare, but not impossible
  // from an embedding application).
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<log_record> decode(std::string_view text) {
  auto j = json::parse(text, nullptr, false);
  if (!j.is_object())
    return std::nullopt;
  log_record r;
  r.origin = member_or<std::string>(j, "o", "");
  r.seq = member_or<std::uint64_t>(j, "s", 0);
  if (r.origin.empty() || r.seq == 0)
    return std::nullopt;
  if (auto it = j.find("c"); it != j.end()) {
    auto kind = item_kind_named(member_or<std::string>(*it, "kind", ""));
    auto op = operation_named(member_or<std::string>(*it, "op", ""));
    if (!kind || !op)
      return std::nullopt;
    auto d = it->is_object() && it->contains("d") ? (*it)["d"] : json();
    r.list_change = change{*kind, *op, member_or<std::string>(*it, "key", ""), std::move(d)};
  }
  if (auto it = j.find("u"); it != j.end()) {
    if (!it->is_string())
      return std::nullopt;
    r.updated_uri = it->get<std::string>();
  }
  r.resync = member_or<bool>(j, "resync", false);
  if (auto it = j.find("r"); it != j.end())
    r.replica = *it;
  if (auto it = j.find("sess"); it != j.end()) {
    auto id = member_or<std::string>(*it, "id", "");
    if (id.empty())
      return std::nullopt;
    r.session = log_record::session_note{std::move(id), std::nullopt};
    if (it->is_object() && it->contains("record") && !(*it)["record"].is_null()) {
      r.session->record = session_record_from((*it)["record"]);
      if (!r.session->record)
        return std::nullopt;
    }
  }
  if (auto it = j.find("ans"); it != j.end()) {
    auto id = member_or<std::string>(*it, "id", "");
    auto ask = member_or<std::string>(*it, "ask", "");
    if (id.empty() || ask.empty())
      return std::nullopt;
    outcome answer = json::object();
    if (auto e = it->find("error"); e != it->end()) {
      jsonrpc::error err{member_or<int>(*e, "code", jsonrpc::code::internal_error),
                         member_or<std::string>(*e, "message", ""), std::nullopt};
      if (e->is_object() && e->contains("data") && !(*e)["data"].is_null())
        err.data = (*e)["data"];
      answer = std::move(err);
    } else if (auto res = it->find("result"); res != it->end()) {
      answer = *res;
    }
    r.answer = log_record::client_answer{std::move(id), std::move(ask), std::move(answer)};
  }
  if (auto it = j.find("msg"); it != j.end()) {
    auto id = member_or<std::string>(*it, "id", "");
    if (id.empty() || !it->contains("m") || !(*it)["m"].is_object())
      return std::nullopt;
    r.message = log_record::session_message{std::move(id), (*it)["m"]};
  }
  if (auto it = j.find("claim"); it != j.end()) {
    r.claim =
      log_record::stream_claim{member_or<std::string>(*it, "id", ""), member_or<std::uint64_t>(*it, "n", 0)};
    if (r.claim->id.empty() || r.claim->number == 0)
      return std::nullopt;
  }
  if (auto it = j.find("t"); it != j.end()) {
    r.trace.traceparent = member_or<std::string>(*it, "traceparent", "");
    r.trace.tracestate = member_or<std::string>(*it, "tracestate", "");
  }
  return r;
}

} // namespace cafmcp::protocol
