#include "protocol/session_replay.hpp"

#include <algorithm>

#include "cafmcp/uri_template.hpp"

#include "protocol/request_span.hpp"

namespace cafmcp::protocol {
namespace {

bool is_template_text(const std::string& s) { return s.find('{') != std::string::npos; }

} // namespace

bool session_view::covers(const std::string& uri) const {
  for (auto& s : subscriptions) {
    if (s == uri)
      return true;
    if (is_template_text(s) && uri_template(s).match(uri))
      return true;
  }
  return false;
}

std::vector<std::string> session_view::exact() const {
  std::vector<std::string> out;
  for (auto& s : subscriptions)
    if (!is_template_text(s))
      out.push_back(s);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<told> what_entry_tells(const log_record& r, const std::string& id, session_view& s,
                                   change_metadata meta) {
  std::vector<told> out;
  if (s.ended)
    return out;
  if (r.list_change)
    out.push_back({entry_place::list_change, list_changed_notification(*r.list_change, meta)});
  if (r.updated_uri && s.covers(*r.updated_uri))
    out.push_back({entry_place::updated, resource_updated_notification(*r.updated_uri)});
  if (r.resync) {
    std::uint32_t place = 0;
    for (auto kind : resync_kinds)
      out.push_back({place++, plain_list_changed_notification(kind)});
    place = entry_place::resync_updated_first;
    for (auto& uri : s.exact())
      out.push_back({place++, resource_updated_notification(uri)});
  }
  if (!r.trace.empty())
    for (auto& t : out)
      inject_trace_context(t.message, r.trace);
  if (r.message && r.message->id == id)
    out.push_back({entry_place::session_message, r.message->message});
  if (r.session && r.session->id == id) {
    if (r.session->record)
      s.subscriptions = r.session->record->subscriptions;
    else
      s.ended = true;
  }
  return out;
}

} // namespace cafmcp::protocol
