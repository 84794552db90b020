#include "cluster/redis_connection.hpp"

#include <stdexcept>
#include <vector>

#include <hiredis/hiredis.h>

namespace cafmcp::cluster {

namespace {

timeval to_timeval(std::chrono::milliseconds ms) {
  return timeval{static_cast<time_t>(ms.count() / 1000), static_cast<suseconds_t>((ms.count() % 1000) * 1000)};
}

} // namespace

void reply_deleter::operator()(redisReply* r) const { freeReplyObject(r); }

std::string_view text_of(const redisReply* r) {
  return r && (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS || r->type == REDIS_REPLY_ERROR)
           ? std::string_view(r->str, r->len)
           : std::string_view();
}

redis_connection::redis_connection(const redis_address& where, std::chrono::milliseconds timeout) {
  auto name = "redis " + where.host + ":" + std::to_string(where.port);
  ctx_ = redisConnectWithTimeout(where.host.c_str(), where.port, to_timeval(timeout));
  if (!ctx_ || ctx_->err) {
    std::string why = ctx_ ? ctx_->errstr : "out of memory";
    if (ctx_)
      redisFree(ctx_);
    throw std::runtime_error(name + ": " + why);
  }
  redisSetTimeout(ctx_, to_timeval(timeout));
  auto fail = [&](const std::string& what, const reply_ptr& r) {
    auto why = r ? std::string(text_of(r.get())) : error();
    redisFree(ctx_);
    throw std::runtime_error(what + ": " + why);
  };
  if (where.password) { // the server's answer, never the password, goes in the message
    auto r = where.user.empty() ? command({"AUTH", *where.password}) : command({"AUTH", where.user, *where.password});
    if (!r || r->type == REDIS_REPLY_ERROR)
      fail(name + " AUTH", r);
  }
  if (where.db != 0) {
    auto db = std::to_string(where.db);
    auto r = command({"SELECT", db});
    if (!r || r->type == REDIS_REPLY_ERROR)
      fail("redis SELECT " + db, r);
  }
}

redis_connection::~redis_connection() { redisFree(ctx_); }

reply_ptr redis_connection::command(std::initializer_list<std::string_view> args) {
  std::vector<const char*> argv;
  std::vector<std::size_t> lens;
  for (auto a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  return reply_ptr(
    static_cast<redisReply*>(redisCommandArgv(ctx_, static_cast<int>(argv.size()), argv.data(), lens.data())));
}

void redis_connection::set_timeout(std::chrono::milliseconds t) { redisSetTimeout(ctx_, to_timeval(t)); }

std::string redis_connection::error() const { return ctx_->err ? std::string(ctx_->errstr) : std::string(); }

} // namespace cafmcp::cluster
