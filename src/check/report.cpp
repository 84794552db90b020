#include "check/report.hpp"

#include <algorithm>

namespace cafmcp::check {

std::string_view to_string(verdict v) {
  switch (v) {
    case verdict::pass: return "PASS";
    case verdict::fail: return "FAIL";
    case verdict::skip: return "SKIP";
    case verdict::info: return "INFO";
  }
  return "?";
}

bool report::any_fail() const { return count(verdict::fail) > 0; }

std::size_t report::count(verdict v) const {
  return static_cast<std::size_t>(
    std::count_if(results_.begin(), results_.end(), [v](const check_result& r) { return r.outcome == v; }));
}

json report::to_json(const std::string& target, const std::string& transport) const {
  json checks = json::array();
  for (auto& r : results_)
    checks.push_back({{"id", r.id},
                      {"title", r.title},
                      {"spec", r.spec},
                      {"status", std::string(to_string(r.outcome))},
                      {"detail", r.detail}});
  return {{"target", target},
          {"transport", transport},
          {"checks", std::move(checks)},
          {"summary",
           {{"pass", count(verdict::pass)},
            {"fail", count(verdict::fail)},
            {"skip", count(verdict::skip)},
            {"info", count(verdict::info)}}}};
}

std::string report::to_text(const std::string& target, const std::string& transport) const {
  std::string out = "cafmcp-check: " + target + " (" + transport + ")\n\n";
  for (auto& r : results_) {
    out += std::string(to_string(r.outcome)) + "  " + r.id + "  " + r.title + "\n";
    out += "      spec: " + r.spec + "\n";
    if (!r.detail.empty())
      out += "      " + r.detail + "\n";
  }
  out += "\n" + std::to_string(count(verdict::pass)) + " passed, " + std::to_string(count(verdict::fail))
         + " failed, " + std::to_string(count(verdict::skip)) + " skipped, "
         + std::to_string(count(verdict::info)) + " info\n";
  return out;
}

} // namespace cafmcp::check
