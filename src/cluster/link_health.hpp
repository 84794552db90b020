#pragma once
// What is wrong with a node's link to the cluster, by part ("log writer",
// "log reader"), for /healthz. Written by the cluster's threads when a
// connection fails or comes back; read by health checks. Never on a hot
// path: a part reports only when its state changes.
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace cafmcp::cluster {

class link_health {
public:
  /// `problem` nullopt: the part is fine again.
  void report(const std::string& part, std::optional<std::string> problem) {
    std::lock_guard<std::mutex> g(mtx_);
    if (problem)
      problems_[part] = std::move(*problem);
    else
      problems_.erase(part);
  }
  /// Every part's problem, "part: problem; ...", or nullopt when all is well.
  std::optional<std::string> problem() const {
    std::lock_guard<std::mutex> g(mtx_);
    if (problems_.empty())
      return std::nullopt;
    std::string all;
    for (auto& [part, why] : problems_)
      all += (all.empty() ? "" : "; ") + part + ": " + why;
    return all;
  }

private:
  mutable std::mutex mtx_;
  std::map<std::string, std::string> problems_;
};

} // namespace cafmcp::cluster
