// A bearer token, when configured, guards every request on the socket.
#include "http_fixture.hpp"

namespace cafmcp::test {
namespace {

class WithToken : public HttpTest {
  http_options transport_options() override {
    auto o = HttpTest::transport_options();
    o.bearer_token = "s3cret";
    return o;
  }
};

TEST_F(WithToken, RequestsWithoutTheTokenGet401AndThoseWithItAreServed) {
  raw_http anonymous(port);
  anonymous.send("POST", initialize_body());
  auto refused = anonymous.read_reply();
  EXPECT_EQ(refused.status, 401);
  EXPECT_EQ(refused.header("www-authenticate"), "Bearer");
  EXPECT_EQ(refused.json_body()["error"]["code"], -32000);

  raw_http wrong(port);
  wrong.send("POST", initialize_body(), {{"Authorization", "Bearer guess"}});
  EXPECT_EQ(wrong.read_reply().status, 401);

  raw_http client(port);
  client.send("POST", initialize_body(), {{"Authorization", "Bearer s3cret"}});
  auto ok = client.read_reply();
  ASSERT_EQ(ok.status, 200);
  auto id = ok.header("mcp-session-id");
  client.send("GET", "", {{"Mcp-Session-Id", id}}); // the GET stream needs it too
  EXPECT_EQ(client.read_reply().status, 401);
}

} // namespace
} // namespace cafmcp::test
