#pragma once
// The token a client source holds between renewals: read by every request
// (current), replaced by a renewal (keep). Thread-safe.
#include <chrono>
#include <mutex>
#include <optional>
#include <string>

#include "auth/token_request.hpp"

namespace cafmcp::auth::detail {

class held_token {
public:
  std::optional<std::string> current() const {
    std::lock_guard lock(mtx_);
    if (t_.access_token.empty() || std::chrono::steady_clock::now() >= expires_)
      return std::nullopt;
    return t_.access_token;
  }
  /// A renewal elsewhere already replaced the token that was refused.
  bool fresher_than(const std::string& refused) const {
    std::lock_guard lock(mtx_);
    return !t_.access_token.empty() && t_.access_token != refused && std::chrono::steady_clock::now() < expires_;
  }
  std::string granted() const {
    std::lock_guard lock(mtx_);
    return t_.scope;
  }
  std::string refresh_token() const {
    std::lock_guard lock(mtx_);
    return t_.refresh_token;
  }
  void keep(token_answer t) {
    std::lock_guard lock(mtx_);
    // Renewed a little before it runs out rather than refused mid-request.
    expires_ = std::chrono::steady_clock::now() + t.lifetime - std::min(t.lifetime / 10, std::chrono::seconds(30));
    if (t.refresh_token.empty()) // a refresh answer may omit it: the old one stays good
      t.refresh_token = t_.refresh_token;
    t_ = std::move(t);
  }

private:
  mutable std::mutex mtx_;
  token_answer t_;
  std::chrono::steady_clock::time_point expires_;
};

} // namespace cafmcp::auth::detail
