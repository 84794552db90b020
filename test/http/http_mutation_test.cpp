// A live server against damaged requests: valid MCP requests over HTTP
// (every method a client sends, stateful and 2026-07-28 stateless) with
// their bodies or their whole text flipped, cut, repeated and spliced with
// hostile tokens, or with members of the wrong type and size, each on a
// connection of its own. Every one must get an HTTP answer (a JSON-RPC error
// body when it is JSON) or a closed connection, never silence and never a
// crash; and a bystander session, subscribed with its stream open
// throughout, must still be served afterwards. Seeded, so a failure names a
// request that reproduces.
#include <string>
#include <vector>

#include <poll.h>
#include <sys/socket.h>

#include "http_fixture.hpp"
#include "mutator.hpp"

namespace cafmcp::test {
namespace {

using ms = std::chrono::milliseconds;

struct request_shape {
  std::string method;
  std::string body;
  std::map<std::string, std::string> headers;
};

class HttpMutation : public HttpTest {
protected:
  void SetUp() override {
    HttpTest::SetUp();
    tool typed = text_tool("typed");
    typed.input_schema = json::parse(
      R"({"type":"object","properties":{"text":{"type":"string","maxLength":64},"n":{"type":"integer"}},"required":["text"]})");
    srv->add_tool(typed).get();
    resource doc;
    doc.uri = "test://fuzz/doc";
    doc.name = "doc";
    doc.contents = {resource_contents::make_text(doc.uri, "text")};
    srv->add_resource(doc).get();
    resource_template items;
    items.uri_template = "test://fuzz/items/{id}";
    items.name = "items";
    items.reader = [](const std::string& uri, request_context&) {
      return std::vector<resource_contents>{resource_contents::make_text(uri, "item")};
    };
    items.completions["id"] = [](const std::string& partial, const std::map<std::string, std::string>&) {
      return std::vector<std::string>{partial + "1", partial + "2"};
    };
    srv->add_resource_template(items).get();
    prompt greet;
    greet.name = "greet";
    greet.arguments = {prompt_argument{"who", {}, {}, true, {}}};
    greet.handler = [](const std::map<std::string, std::string>& args, request_context&) {
      return prompt_result{
        {}, {prompt_message{"user", json{{"type", "text"}, {"text", "hi " + args.at("who")}}}}};
    };
    srv->add_prompt(greet).get();
  }

  // What a client sends, for a session `sid` (stateful) or none (2026-07-28).
  std::vector<request_shape> corpus(const std::string& sid) {
    std::map<std::string, std::string> in{{"Mcp-Session-Id", sid}, {"MCP-Protocol-Version", "2025-11-25"}};
    auto call = [&](int id, const std::string& method, json params) {
      return request_shape{"POST", rpc(id, method, std::move(params)), in};
    };
    std::vector<request_shape> c = {
      {"POST", initialize_body(), {}},
      call(2, "ping", json::object()),
      call(3, "tools/list", {{"cursor", "x"}}),
      call(4, "tools/call", {{"name", "typed"}, {"arguments", {{"text", "a"}, {"n", 3}}}}),
      call(5, "tools/call",
           {{"name", "hello"}, {"arguments", json::object()}, {"_meta", {{"progressToken", 1}}}}),
      call(6, "resources/list", json::object()),
      call(7, "resources/read", {{"uri", "test://fuzz/items/7"}}),
      call(8, "resources/templates/list", json::object()),
      call(9, "resources/subscribe", {{"uri", "test://fuzz/doc"}}),
      call(10, "resources/unsubscribe", {{"uri", "test://fuzz/doc"}}),
      call(11, "prompts/get", {{"name", "greet"}, {"arguments", {{"who", "x"}}}}),
      call(12, "completion/complete",
           {{"ref", {{"type", "ref/resource"}, {"uri", "test://fuzz/items/{id}"}}},
            {"argument", {{"name", "id"}, {"value", "4"}}}}),
      call(13, "logging/setLevel", {{"level", "debug"}}),
      {"POST",
       R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4,"reason":"x"}})", in},
      {"POST", R"({"jsonrpc":"2.0","id":77,"result":{"roots":[]}})", in},
      {"POST", R"({"jsonrpc":"2.0","id":78,"error":{"code":-1,"message":"no"}})", in},
      {"GET", "", {{"Mcp-Session-Id", sid}}},
      {"DELETE", "", {{"Mcp-Session-Id", sid}}},
    };
    // 2026-07-28: one request, no session; its metadata in _meta.
    json meta = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                 {"io.modelcontextprotocol/clientInfo", {{"name", "raw"}, {"version", "1"}}},
                 {"io.modelcontextprotocol/clientCapabilities", json::object()}};
    std::map<std::string, std::string> stateless{{"MCP-Protocol-Version", "2026-07-28"}};
    c.push_back({"POST", rpc(20, "tools/call", {{"name", "hello"}, {"_meta", meta}}), stateless});
    c.push_back({"POST", rpc(21, "server/discover", {{"_meta", meta}}), stateless});
    c.push_back({"POST",
                 rpc(22, "subscriptions/listen",
                     {{"_meta", meta}, {"notifications", {{"resourceSubscriptions", {"test://fuzz/doc"}}}}}),
                 stateless});
    return c;
  }
};

enum class outcome { answered, closed, silent };

// Sends the bytes and half-closes: a server waiting for more of a request
// then sees its end. Reads until a full HTTP head, the connection's close,
// or the deadline.
outcome exchange(std::uint16_t port, const std::string& bytes, std::string& head, std::string& body) {
  raw_http c(port);
  try {
    c.send_raw(bytes);
  } catch (const std::runtime_error&) {
    return outcome::closed; // the server hung up before taking it all
  }
  ::shutdown(c.fd(), SHUT_WR);
  std::string got;
  auto deadline = std::chrono::steady_clock::now() + ms(5000);
  for (;;) {
    if (auto end = got.find("\r\n\r\n"); end != std::string::npos) {
      head = got.substr(0, end);
      body = got.substr(end + 4);
      // The rest of a body with a length (an SSE answer stays open).
      auto at = head.find("Content-Length: ");
      std::size_t want = at == std::string::npos ? 0 : std::stoul(head.substr(at + 16));
      if (body.size() >= want) {
        if (at != std::string::npos) // what follows answers a second request the bytes held
          body.resize(want);
        return outcome::answered;
      }
    }
    auto left = std::chrono::duration_cast<ms>(deadline - std::chrono::steady_clock::now()).count();
    pollfd p{c.fd(), POLLIN, 0};
    if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0)
      return outcome::silent;
    char buf[16384];
    auto n = ::recv(c.fd(), buf, sizeof buf, 0);
    if (n <= 0)
      return got.find("\r\n\r\n") == std::string::npos ? outcome::closed : outcome::answered;
    got.append(buf, static_cast<std::size_t>(n));
  }
}

// A JSON body is one JSON-RPC message; an error status carries an error.
void expect_sound(const std::string& head, const std::string& body, const std::string& sent) {
  ASSERT_GE(head.size(), 12u) << sent;
  ASSERT_EQ(head.rfind("HTTP/1.1 ", 0), 0u) << head << "\nfor\n" << sent;
  int status = std::stoi(head.substr(9, 3));
  EXPECT_TRUE(status >= 200 && status <= 599) << head;
  if (head.find("Content-Type: application/json") == std::string::npos || body.empty())
    return;
  auto j = json::parse(body, nullptr, false);
  ASSERT_TRUE(j.is_object()) << body << "\nfor\n" << sent;
  EXPECT_EQ(j.value("jsonrpc", ""), "2.0") << body;
  if (status >= 400) {
    ASSERT_TRUE(j.contains("error")) << body;
    EXPECT_TRUE(j["error"]["code"].is_number_integer()) << body;
    EXPECT_TRUE(j["error"]["message"].is_string()) << body;
  }
}

TEST_F(HttpMutation, DamagedRequestsAreAnsweredOrClosedAndABystanderIsStillServed) {
  auto bystander = initialize();
  bystander.conn->send("POST", rpc(50, "resources/subscribe", {{"uri", "test://fuzz/doc"}}),
                       {{"Mcp-Session-Id", bystander.id}});
  ASSERT_EQ(bystander.conn->read_reply().status, 200);
  auto stream = open_stream(bystander);

  auto target = initialize(); // the damaged requests' session (some end it)
  auto shapes = corpus(target.id);
  mutator mutate(20261123);
  raw_http text_of(port); // builds request text only
  int answered = 0, closed = 0;
  for (int i = 0; i < 1500; ++i) {
    const auto& shape = shapes[static_cast<std::size_t>(i) % shapes.size()];
    std::string bytes;
    switch (mutate.pick(3)) {
      case 0: // the body's members of the wrong type or size: it reaches the handlers
        bytes = text_of.request_text(shape.method, shape.body.empty() ? "" : mutate.reshape(shape.body),
                                     shape.headers);
        break;
      case 1: // the body damaged, its length told right: it reaches JSON-RPC
        bytes = text_of.request_text(shape.method, mutate(shape.body), shape.headers);
        break;
      default: // anything damaged: request line, headers, length, body
        bytes = mutate(text_of.request_text(shape.method, shape.body, shape.headers));
    }
    std::string head, body;
    auto o = exchange(port, bytes, head, body);
    ASSERT_NE(o, outcome::silent) << "no answer and no close within 5 s (request " << i << "):\n" << bytes;
    if (o == outcome::answered) {
      ++answered;
      expect_sound(head, body, bytes);
    } else {
      ++closed;
    }
    if (HasFatalFailure())
      return;
  }
  EXPECT_GT(answered, 1000) << closed << " closed without an answer";

  // The bystander's stream is intact and its subscription served.
  srv->set_resource_contents("test://fuzz/doc", {resource_contents::make_text("test://fuzz/doc", "v2")})
    .get();
  std::optional<sse_event> e;
  while ((e = stream->next_event()) && e->data.find("notifications/resources/updated") == std::string::npos) {
  }
  ASSERT_TRUE(e) << "the bystander's update never came";
  EXPECT_NE(e->data.find("test://fuzz/doc"), std::string::npos);
  bystander.conn->send("POST", rpc(51, "tools/call", {{"name", "hello"}}),
                       {{"Mcp-Session-Id", bystander.id}});
  EXPECT_EQ(bystander.conn->read_reply().status, 200);
  initialize(); // and newcomers are still welcome
}

} // namespace
} // namespace cafmcp::test
