// The HTTP client transport's bearer tokens against a real everything-server
// that wants one (a static token): a refusal renews the token once, off the
// io thread, and the request goes again; a source that cannot renew fails
// the request with the server's status and its own reason.
#include <cstdlib>
#include <stdexcept>

#include <gtest/gtest.h>

#include "cafmcp/http_client_transport.hpp"

#include "client_transport/http_stream_control.hpp"
#include "support.hpp"

namespace cafmcp::test {
namespace {

// Hands out `before` until renewed, then `after`; remembers what it was told.
class scripted_tokens final : public bearer_token_source {
public:
  scripted_tokens(std::string before, std::optional<std::string> after) : now_(std::move(before)), after_(after) {}
  std::optional<std::string> current() override {
    std::lock_guard lock(mtx_);
    return now_;
  }
  bool renew(const auth_challenge& why) override {
    std::lock_guard lock(mtx_);
    ++renewals;
    last = why;
    if (!after_)
      throw std::runtime_error("no way to get another token");
    now_ = *after_;
    return true;
  }
  std::mutex mtx_;
  int renewals = 0;
  auth_challenge last;

private:
  std::string now_;
  std::optional<std::string> after_;
};

// A server that wants "s3cret" (CAFMCP_HTTP_TOKEN is read at its start).
std::unique_ptr<http_server_process> guarded_server() {
  ::setenv("CAFMCP_HTTP_TOKEN", "s3cret", 1);
  auto s = std::make_unique<http_server_process>(
    std::vector<std::string>{bin("everything-server"), "--http", "--port", "0"});
  ::unsetenv("CAFMCP_HTTP_TOKEN");
  return s;
}

// A transport to `server` taking its tokens from `tokens`, started.
std::unique_ptr<http_client_transport> started(const http_server_process& server,
                                               std::shared_ptr<bearer_token_source> tokens, recorder& r) {
  http_client_options o;
  o.url = server.url();
  o.auth = std::move(tokens);
  auto t = make_http_client_transport(o);
  t->start(r.handlers());
  return t;
}

TEST(HttpClientTransportAuth, ARefusedTokenIsRenewedOnceAndTheRequestSentAgain) {
  auto server = guarded_server();
  auto tokens = std::make_shared<scripted_tokens>("stale", "s3cret");
  recorder r;
  auto t = started(*server, tokens, r);
  handshake(*t, r); // initialize: 401, renewal, 200
  {
    std::lock_guard lock(tokens->mtx_);
    EXPECT_EQ(tokens->renewals, 1);
    EXPECT_EQ(tokens->last.status, 401);
    EXPECT_EQ(tokens->last.error, "invalid_token");
    EXPECT_EQ(tokens->last.refused_token, "stale");
    EXPECT_EQ(tokens->last.server_url, server->url());
  }
  ASSERT_TRUE(stream_control(*t).wait_get_stream(10s)); // the GET carries the renewed token too
  t->send(request(2, "ping"));
  auto pong = r.response(2);
  ASSERT_TRUE(pong);
  EXPECT_TRUE(pong->contains("result")) << pong->dump();
  std::lock_guard lock(tokens->mtx_);
  EXPECT_EQ(tokens->renewals, 1);
}

TEST(HttpClientTransportAuth, ATokenThatCannotBeRenewedFailsTheRequestSayingWhy) {
  auto server = guarded_server();
  auto tokens = std::make_shared<scripted_tokens>("stale", std::nullopt);
  recorder r;
  auto t = started(*server, tokens, r);
  t->send(request(1, "initialize", initialize_params()));
  auto res = r.response(1);
  ASSERT_TRUE(res);
  ASSERT_TRUE(res->contains("error")) << res->dump();
  EXPECT_EQ((*res)["error"]["data"]["httpStatus"], 401);
  EXPECT_NE((*res)["error"]["message"].get<std::string>().find("no way to get another token"), std::string::npos)
    << res->dump();
  std::lock_guard lock(tokens->mtx_);
  EXPECT_EQ(tokens->renewals, 1); // once, not in a loop
}

TEST(BearerChallenge, ParametersAreReadQuotedOrNot) {
  auto c = parse_bearer_challenge(
    R"(Bearer error="insufficient_scope", scope="a b", resource_metadata="https://x/.well-known/oauth-protected-resource/mcp", error_description="say \"why\"")");
  EXPECT_EQ(c.error, "insufficient_scope");
  EXPECT_EQ(c.scope, "a b");
  EXPECT_EQ(c.resource_metadata, "https://x/.well-known/oauth-protected-resource/mcp");
  EXPECT_EQ(parse_bearer_challenge("bearer error=invalid_token").error, "invalid_token");
  EXPECT_EQ(parse_bearer_challenge("Bearer").error, "");
  EXPECT_EQ(parse_bearer_challenge("Basic realm=\"x\"").error, "");
  EXPECT_EQ(parse_bearer_challenge(R"(Bearer scope="unterminated)").scope, "unterminated");
}

} // namespace
} // namespace cafmcp::test
