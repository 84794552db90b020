// cafmcp as an OAuth 2.1 resource server over real sockets: JWTs signed
// with keys made here, checked by the real jwt_verifier against a JWKS on
// a loopback port. Every refusal is checked for status, header and body.
// (The flows with a real authorization server, oidc-provider, and the
// official SDK client are in test/interop/auth.test.mjs.)
#include "cafmcp/auth_verifiers.hpp"

#include "http_fixture.hpp"
#include "local_as.hpp"
#include "test_keys.hpp"

namespace cafmcp::test {
namespace {

const std::string issuer = "https://as.test", resource = "https://mcp.test/mcp";
const std::string metadata_url = "https://mcp.test/.well-known/oauth-protected-resource/mcp";

class OAuthHttp : public HttpTest {
protected:
  test_key key = test_key::ec("k1");
  json served = jwks({&key});
  local_as as{[this](const local_as::asked&) { return std::pair{200, served.dump()}; }};
  std::string jwks_uri = as.url("/jwks");

  http_options transport_options() override {
    auto o = HttpTest::transport_options();
    auth::jwt_options j;
    j.issuer = issuer;
    j.audience = resource;
    j.jwks_uri = jwks_uri;
    j.clock_skew = std::chrono::seconds(0);
    o.token_verifier = auth::jwt_verifier(j);
    o.protected_resource = auth::protected_resource{resource, {issuer}, {"mcp:read", "mcp:admin"}, {}, {}, {}};
    return o;
  }

  void SetUp() override {
    HttpTest::SetUp();
    auto wipe = text_tool("wipe");
    wipe.scopes = {"mcp:admin"};
    srv->add_tool(wipe).get();
    tool whoami;
    whoami.name = "whoami";
    whoami.handler = [](const json&, request_context& ctx) {
      auto* who = ctx.caller();
      if (!who)
        return tool_result::error("no caller");
      return tool_result::text(who->subject + " via " + who->client_id + " with " + json(who->scopes).dump());
    };
    srv->add_tool(whoami).get();
  }

  std::string token(const std::string& sub, const std::string& scope = "mcp:read", json extra = json::object()) {
    auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
                 .count();
    json c{{"iss", issuer}, {"aud", resource}, {"sub", sub}, {"client_id", "app"}, {"scope", scope},
           {"iat", now}, {"exp", now + 600}};
    c.update(extra);
    return key.jwt(c);
  }
  static std::map<std::string, std::string> bearer(const std::string& t, std::map<std::string, std::string> h = {}) {
    h["Authorization"] = "Bearer " + t;
    return h;
  }

  /// An initialized session of the token's subject.
  open_session session_of(const std::string& t) {
    open_session s{std::make_unique<raw_http>(port), {}};
    s.conn->send("POST", initialize_body(), bearer(t));
    auto r = s.conn->read_reply();
    EXPECT_EQ(r.status, 200) << r.body;
    s.id = r.header("mcp-session-id");
    s.conn->send("POST", initialized_body, bearer(t, {{"Mcp-Session-Id", s.id}}));
    EXPECT_EQ(s.conn->read_reply().status, 202);
    return s;
  }
  json call(open_session& s, const std::string& t, int id, const std::string& method, json params = json::object(),
            int expected_status = 200) {
    s.conn->send("POST", rpc(id, method, std::move(params)), bearer(t, {{"Mcp-Session-Id", s.id}}));
    auto r = s.conn->read_reply();
    EXPECT_EQ(r.status, expected_status) << r.body;
    last_challenge = r.header("www-authenticate");
    return r.json_body();
  }
  std::string last_challenge;
};

TEST_F(OAuthHttp, TheMetadataIsPublicAndEverythingElseWantsAToken) {
  for (std::string path : {"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"}) {
    raw_http c(port);
    c.send("GET", "", {{"Accept", "application/json"}}, path);
    auto r = c.read_reply();
    ASSERT_EQ(r.status, 200) << path;
    auto doc = r.json_body();
    EXPECT_EQ(doc["resource"], resource);
    EXPECT_EQ(doc["authorization_servers"], json::array({issuer}));
    EXPECT_EQ(doc["scopes_supported"], json::array({"mcp:read", "mcp:admin"}));
  }
  raw_http anonymous(port);
  anonymous.send("POST", initialize_body());
  auto r = anonymous.read_reply();
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(r.header("www-authenticate"), "Bearer resource_metadata=\"" + metadata_url + "\"");
  EXPECT_EQ(r.json_body()["error"]["message"], "Unauthorized: a bearer token is required");
  raw_http basic(port);
  basic.send("POST", initialize_body(), {{"Authorization", "Basic YTpi"}});
  EXPECT_EQ(basic.read_reply().status, 401);
  raw_http get(port);
  get.send("GET", "", {{"Mcp-Session-Id", "whatever"}});
  EXPECT_EQ(get.read_reply().status, 401);
  // Not even an existing session can be ended without a token.
  auto s = session_of(token("alice"));
  raw_http del(port);
  del.send("DELETE", "", {{"Mcp-Session-Id", s.id}});
  auto refused = del.read_reply();
  EXPECT_EQ(refused.status, 401);
  EXPECT_EQ(call(s, token("alice"), 2, "ping")["result"], json::object());
}

TEST_F(OAuthHttp, EveryBadTokenGets401InvalidTokenSayingWhy) {
  auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
               .count();
  auto claims = [&](json extra) {
    json c{{"iss", issuer}, {"aud", resource}, {"sub", "alice"}, {"exp", now + 600}};
    c.update(extra);
    return c;
  };
  auto stranger = test_key::ec("k1"); // same kid, another key
  struct bad_case {
    std::string token, reason;
  };
  for (auto& [t, reason] : std::vector<bad_case>{
         {token("alice", "mcp:read", {{"exp", now - 10}}), "token expired"},
         {token("alice", "mcp:read", {{"nbf", now + 600}}), "token not yet valid"},
         {token("alice", "mcp:read", {{"aud", "https://other.test/mcp"}}), "token audience is not this resource"},
         {token("alice", "mcp:read", {{"iss", "https://evil.test"}}), "token issued by another issuer"},
         {unsigned_jwt(claims(json::object()), "k1"), "alg 'none' is not accepted"},
         {hs256_jwt(claims(json::object()), key.public_pem(), "k1"), "alg 'HS256' is not accepted"},
         {stranger.jwt(claims(json::object())), "signature does not verify"},
         {"opaque-garbage", "not a JWT (three dot-separated parts)"},
       }) {
    raw_http c(port);
    c.send("POST", initialize_body(), bearer(t));
    auto r = c.read_reply();
    EXPECT_EQ(r.status, 401) << reason;
    EXPECT_EQ(r.header("www-authenticate"), "Bearer error=\"invalid_token\", error_description=\"" + reason
                                               + "\", resource_metadata=\"" + metadata_url + "\"");
    EXPECT_EQ(r.json_body()["error"]["message"], "Unauthorized: invalid bearer token (" + reason + ")");
  }
}

TEST_F(OAuthHttp, ScopesDecideWhatIsListedAndUsedAndAStepUpTokenGetsMore) {
  auto reader = token("alice", "mcp:read");
  auto s = session_of(reader);
  auto listed = call(s, reader, 2, "tools/list");
  std::vector<std::string> names;
  for (auto& t : listed["result"]["tools"])
    names.push_back(t["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"hello", "whoami"}));
  auto refused = call(s, reader, 3, "tools/call", {{"name", "wipe"}}, 403);
  EXPECT_EQ(last_challenge,
            "Bearer error=\"insufficient_scope\", scope=\"mcp:admin\", resource_metadata=\"" + metadata_url + "\"");
  EXPECT_EQ(refused["error"]["code"], jsonrpc::code::insufficient_scope);
  EXPECT_EQ(refused["id"], 3);
  // The same subject with a token carrying the scope (step-up), same session.
  auto admin = token("alice", "mcp:read mcp:admin");
  EXPECT_EQ(call(s, admin, 4, "tools/list")["result"]["tools"].size(), 3u);
  EXPECT_EQ(call(s, admin, 5, "tools/call", {{"name", "wipe"}})["result"]["content"][0]["text"], "ok");
}

TEST_F(OAuthHttp, HandlersSeeTheVerifiedCaller) {
  auto t = token("carol", "mcp:read");
  auto s = session_of(t);
  auto r = call(s, t, 2, "tools/call", {{"name", "whoami"}});
  EXPECT_EQ(r["result"]["content"][0]["text"], "carol via app with [\"mcp:read\"]");
}

TEST_F(OAuthHttp, ASessionBelongsToTheSubjectThatMadeIt) {
  auto alice = token("alice"), bob = token("bob");
  auto s = session_of(alice);
  auto stolen = call(s, bob, 2, "tools/list", json::object(), 404);
  EXPECT_EQ(stolen["id"], 2);
  raw_http get(port);
  get.send("GET", "", bearer(bob, {{"Mcp-Session-Id", s.id}}));
  EXPECT_EQ(get.read_reply().status, 404);
  raw_http del(port);
  del.send("DELETE", "", bearer(bob, {{"Mcp-Session-Id", s.id}}));
  EXPECT_EQ(del.read_reply().status, 404);
  // Still alice's, untouched.
  EXPECT_EQ(call(s, alice, 3, "ping")["result"], json::object());
}

TEST_F(OAuthHttp, AGetStreamEndsWhenItsTokenExpires) {
  auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
               .count();
  auto lasting = token("dave");
  auto s = session_of(lasting);
  auto brief = token("dave", "mcp:read", {{"exp", now + 2}});
  raw_http stream(port);
  stream.send("GET", "", bearer(brief, {{"Mcp-Session-Id", s.id}}));
  auto r = stream.read_reply();
  ASSERT_EQ(r.status, 200);
  EXPECT_TRUE(stream.closed_by_peer(std::chrono::milliseconds(6000)));
  // The session itself lives on for a valid token.
  EXPECT_EQ(call(s, lasting, 2, "ping")["result"], json::object());
}

TEST_F(OAuthHttp, StatelessRequestsAreAuthenticatedEachOnItsOwn) {
  raw_http anonymous(port);
  anonymous.send("POST", stateless_body(1, "tools/list"), stateless_headers("tools/list"));
  EXPECT_EQ(anonymous.read_reply().status, 401);
  raw_http c(port);
  c.send("POST", stateless_body(2, "tools/call", {{"name", "wipe"}}),
         bearer(token("erin"), stateless_headers("tools/call", "wipe")));
  auto r = c.read_reply();
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.json_body()["error"]["code"], jsonrpc::code::insufficient_scope);
  c.send("POST", stateless_body(3, "tools/call", {{"name", "whoami"}}),
         bearer(token("erin"), stateless_headers("tools/call", "whoami")));
  auto ok = c.read_reply();
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(ok.json_body()["result"]["content"][0]["text"], "erin via app with [\"mcp:read\"]");
}

class OAuthHttpWithoutItsAs : public OAuthHttp {
  http_options transport_options() override {
    jwks_uri = "http://127.0.0.1:1/jwks"; // nothing listens there
    return OAuthHttp::transport_options();
  }
};

TEST_F(OAuthHttpWithoutItsAs, AnUnreachableKeySetIs503NotAnInvalidToken) {
  raw_http c(port);
  c.send("POST", initialize_body(), bearer(token("alice")));
  auto r = c.read_reply();
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.header("retry-after"), "1");
  EXPECT_NE(r.json_body()["error"]["message"].get<std::string>().find("Cannot verify the bearer token now"),
            std::string::npos);
}

} // namespace
} // namespace cafmcp::test
