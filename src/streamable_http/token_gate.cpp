#include "streamable_http/token_gate.hpp"

namespace cafmcp::http {

verification_pool::verification_pool(std::shared_ptr<auth::token_verifier> v, std::size_t threads,
                                     std::size_t max_pending)
  : verifier_(std::move(v)), max_pending_(max_pending) {
  for (std::size_t i = 0; i < std::max<std::size_t>(threads, 1); ++i)
    threads_.emplace_back([this] { work(); });
}

verification_pool::~verification_pool() { stop(); }

bool verification_pool::submit(std::string token, std::function<void(auth::verdict)> done) {
  {
    std::lock_guard lock(mtx_);
    if (stopping_ || jobs_.size() >= max_pending_)
      return false;
    jobs_.push_back({std::move(token), std::move(done)});
  }
  wake_.notify_one();
  return true;
}

void verification_pool::stop() {
  {
    std::lock_guard lock(mtx_);
    if (stopping_ && threads_.empty())
      return;
    stopping_ = true;
    jobs_.clear();
  }
  wake_.notify_all();
  for (auto& t : threads_)
    if (t.joinable())
      t.join();
  threads_.clear();
}

void verification_pool::work() {
  for (;;) {
    job j;
    {
      std::unique_lock lock(mtx_);
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (stopping_)
        return;
      j = std::move(jobs_.front());
      jobs_.pop_front();
    }
    auth::verdict v;
    try {
      v = verifier_->verify(j.token);
    } catch (const std::exception& e) { // a verifier's bug must not end the thread
      v = auth::verdict::cannot_tell(std::string("token verifier failed: ") + e.what());
    }
    j.done(std::move(v));
  }
}

std::optional<std::chrono::steady_clock::time_point> steady_expiry(const auth::identity& who,
                                                                   std::chrono::steady_clock::time_point now) {
  if (!who.expires_at)
    return std::nullopt;
  auto left = *who.expires_at - std::chrono::system_clock::now();
  return now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(left);
}

std::shared_ptr<const auth::identity> verdict_cache::find(std::string_view token,
                                                          std::chrono::steady_clock::time_point now) {
  auto it = entries_.find(token);
  if (it == entries_.end())
    return nullptr;
  if (it->second.until <= now) {
    entries_.erase(it);
    return nullptr;
  }
  return it->second.who;
}

void verdict_cache::keep(std::string token, std::shared_ptr<const auth::identity> who,
                         std::chrono::steady_clock::time_point now) {
  if (max_ == 0 || ttl_.count() <= 0)
    return;
  auto until = now + ttl_;
  if (auto exp = steady_expiry(*who, now))
    until = std::min(until, *exp);
  if (until <= now)
    return;
  if (entries_.size() >= max_) {
    std::erase_if(entries_, [now](const auto& e) { return e.second.until <= now; });
    if (entries_.size() >= max_) // every one fresh: start over rather than grow
      entries_.clear();
  }
  entries_.insert_or_assign(std::move(token), entry{std::move(who), until});
}

} // namespace cafmcp::http
