#include "cluster/redis_log.hpp"

#include <atomic>

#include <hiredis/hiredis.h>
#include <sys/socket.h>

#include "cluster/redis_connection.hpp"

namespace cafmcp::cluster {
namespace {

// One stream entry [id, [field, value, ...]]: the value of field "c".
std::optional<log_entry> entry_of(const redisReply* e) {
  if (!e || e->type != REDIS_REPLY_ARRAY || e->elements != 2)
    return std::nullopt;
  auto pos = log_position::parse(text_of(e->element[0]));
  auto* fields = e->element[1];
  if (!pos || !fields || fields->type != REDIS_REPLY_ARRAY)
    return std::nullopt;
  for (std::size_t i = 0; i + 1 < fields->elements; i += 2)
    if (text_of(fields->element[i]) == "c")
      return log_entry{*pos, std::string(text_of(fields->element[i + 1]))};
  return std::nullopt;
}

class redis_log final : public log_backend {
public:
  redis_log(const redis_address& where, const log_settings& s)
    : conn_(where, s.timeout), ctx_(conn_.context()), key_(s.key_prefix + ":log"),
      max_entries_(std::to_string(s.max_entries)), timeout_(s.timeout) {}

  std::size_t append(std::span<const std::string> bodies) override {
    for (auto& b : bodies) {
      const char* argv[] = {"XADD", key_.c_str(), "MAXLEN", "~", max_entries_.c_str(), "*", "c", b.data()};
      std::size_t lens[] = {4, key_.size(), 6, 1, max_entries_.size(), 1, 1, b.size()};
      if (redisAppendCommandArgv(ctx_, 8, argv, lens) != REDIS_OK)
        return 0;
    }
    std::size_t done = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      void* raw = nullptr;
      if (redisGetReply(ctx_, &raw) != REDIS_OK)
        return done;
      reply_ptr r(static_cast<redisReply*>(raw));
      if (r->type == REDIS_REPLY_ERROR) { // e.g. OOM: this connection is no use
        server_error_ = std::string(text_of(r.get()));
        return done;
      }
      ++done;
    }
    return done;
  }

  std::optional<std::vector<log_entry>> read(const log_position& after, std::size_t max,
                                             std::chrono::milliseconds wait) override {
    if (interrupted_)
      return std::nullopt;
    auto count = std::to_string(max);
    auto from = after.text();
    reply_ptr r;
    if (wait.count() > 0) {
      // The socket must outwait the server's BLOCK.
      conn_.set_timeout(wait + timeout_);
      r = command({"XREAD", "COUNT", count, "BLOCK", std::to_string(wait.count()), "STREAMS", key_, from});
      conn_.set_timeout(timeout_);
    } else {
      r = command({"XREAD", "COUNT", count, "STREAMS", key_, from});
    }
    if (!r || interrupted_ || r->type == REDIS_REPLY_ERROR) {
      if (r && r->type == REDIS_REPLY_ERROR)
        server_error_ = std::string(text_of(r.get()));
      return std::nullopt;
    }
    std::vector<log_entry> out;
    if (r->type != REDIS_REPLY_ARRAY) // nil: BLOCK ran out
      return out;
    for (std::size_t s = 0; s < r->elements; ++s) { // [[key, [entries...]]]
      auto* stream = r->element[s];
      if (!stream || stream->type != REDIS_REPLY_ARRAY || stream->elements != 2)
        continue;
      auto* entries = stream->element[1];
      for (std::size_t i = 0; entries && i < entries->elements; ++i)
        if (auto e = entry_of(entries->element[i]))
          out.push_back(std::move(*e));
    }
    return out;
  }

  std::optional<log_position> newest() override {
    auto r = command({"XREVRANGE", key_, "+", "-", "COUNT", "1"});
    if (!r || r->type != REDIS_REPLY_ARRAY)
      return std::nullopt;
    if (r->elements == 0)
      return log_position{};
    auto* e = r->element[0];
    if (!e || e->type != REDIS_REPLY_ARRAY || e->elements < 1)
      return std::nullopt;
    return log_position::parse(text_of(e->element[0]));
  }

  // Wakes a blocked XREAD: the socket is shut, the read fails at once.
  // Only the reading side: a waiting read returns at once, and a command
  // not yet sent still goes out and then finds nothing to read. Shutting
  // the writing side too raised SIGPIPE in a reader about to send its next
  // XREAD, which killed the process (seen once in a test).
  void interrupt() override {
    interrupted_ = true;
    ::shutdown(ctx_->fd, SHUT_RD);
  }

  std::string error() const override {
    if (interrupted_)
      return "interrupted";
    if (!server_error_.empty())
      return server_error_;
    return ctx_->err ? std::string(ctx_->errstr) : std::string();
  }

private:
  reply_ptr command(std::initializer_list<std::string_view> args) { return conn_.command(args); }

  redis_connection conn_;
  redisContext* ctx_; // conn_'s, for the socket and its error
  std::string key_;
  std::string max_entries_;
  std::chrono::milliseconds timeout_;
  std::atomic<bool> interrupted_{false};
  std::string server_error_;
};

} // namespace

std::unique_ptr<log_backend> open_redis_log(const redis_address& where, const log_settings& settings) {
  return std::make_unique<redis_log>(where, settings);
}

} // namespace cafmcp::cluster
