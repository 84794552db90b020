#pragma once
// One synchronous hiredis connection: connected (with AUTH and SELECT as the
// URL says) or a std::runtime_error naming why not, commands as argument
// lists. Used by one thread at a time (the change log's threads, the task
// store under its lock).
#include <chrono>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

#include "cluster/cluster_url.hpp"

struct redisReply;
struct redisContext;

namespace cafmcp::cluster {

struct reply_deleter {
  void operator()(redisReply* r) const;
};
using reply_ptr = std::unique_ptr<redisReply, reply_deleter>;

/// A string, status or error reply's text; empty for anything else.
std::string_view text_of(const redisReply* r);

class redis_connection {
public:
  redis_connection(const redis_address& where, std::chrono::milliseconds timeout);
  ~redis_connection();
  redis_connection(const redis_connection&) = delete;
  redis_connection& operator=(const redis_connection&) = delete;

  /// The reply, or null when the connection failed (error() says why).
  reply_ptr command(std::initializer_list<std::string_view> args);
  /// Sets how long a command may take (a blocking read needs longer).
  void set_timeout(std::chrono::milliseconds t);
  std::string error() const;
  redisContext* context() const { return ctx_; }

private:
  redisContext* ctx_ = nullptr;
};

} // namespace cafmcp::cluster
