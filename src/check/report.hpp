#pragma once
// What cafmcp-check found: one verdict per check, each naming the part of
// the MCP specification it rests on. Human text or JSON.
#include <string>
#include <vector>

#include "cafmcp/json.hpp"

namespace cafmcp::check {

enum class verdict { pass, fail, skip, info };
std::string_view to_string(verdict v); // "PASS", "FAIL", "SKIP", "INFO"

struct check_result {
  std::string id;    // stable, e.g. "tools.list_changed.added"
  std::string title; // what is checked, in words
  std::string spec;  // the section it rests on
  verdict outcome = verdict::skip;
  std::string detail; // why (always set for FAIL and SKIP)
};

class report {
public:
  void add(check_result r) { results_.push_back(std::move(r)); }
  const std::vector<check_result>& results() const { return results_; }
  bool any_fail() const;
  std::size_t count(verdict v) const;

  /// {"target": ..., "transport": ..., "checks": [{id,title,spec,status,detail}],
  ///  "summary": {"pass","fail","skip","info"}}
  json to_json(const std::string& target, const std::string& transport) const;
  std::string to_text(const std::string& target, const std::string& transport) const;

private:
  std::vector<check_result> results_;
};

} // namespace cafmcp::check
