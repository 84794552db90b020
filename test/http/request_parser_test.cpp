// Reading a request off the wire (request_parser.hpp): what the transport
// reads of it, its body whole however it came, the keep-alive rules, the
// limits, and a request that keeps what it read when it moves.
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "streamable_http/request_facts.hpp"
#include "streamable_http/request_parser.hpp"

namespace cafmcp::http {
namespace {

struct limits {
  std::uint64_t body = 1 << 20;
  std::uint32_t header = 8192;
};

// Feeds `pieces` one after another, as reads would bring them; the error
// the parser ended with (none when the request is whole).
beast::error_code feed(request_parser& p, const std::vector<std::string_view>& pieces, limits l = {}) {
  p.body_limit(l.body);
  p.header_limit(l.header);
  p.eager(true);
  std::string unread;
  beast::error_code ec;
  for (auto piece : pieces) {
    unread += piece;
    ec = {};
    unread.erase(0, p.put(net::buffer(unread), ec));
    if (ec && ec != beast::http::error::need_more)
      return ec;
  }
  if (!p.is_done())
    return beast::http::error::need_more;
  return {};
}

request read(const std::vector<std::string_view>& pieces) {
  request_parser p;
  auto ec = feed(p, pieces);
  EXPECT_FALSE(ec) << ec.message();
  return p.release();
}

// One pass over the fields finds every header the transport reads, its
// name in any case; a repeated header is read from its first line.
TEST(RequestParser, FindsTheHeadersInAnyCaseAndTheFirstOfARepeatedOneCounts) {
  auto req = read({"POST /mcp HTTP/1.1\r\n"
                   "hOST: 127.0.0.1:3000\r\n"
                   "Accept: application/json, text/event-stream\r\n"
                   "content-type: application/json\r\n"
                   "MCP-SESSION-ID: first\r\n"
                   "Mcp-Session-Id: second\r\n"
                   "mcp-protocol-version: 2025-11-25\r\n"
                   "Mcp-Method: tools/call\r\n"
                   "MCP-NAME: echo\r\n"
                   "Last-Event-Id: 7\r\n"
                   "Mcp-Session-Ids: not the session id\r\n" // a longer name is another header
                   "Mcp-Session_Id: nor this\r\n"
                   "Mcp-Protocol-Versio: nor this\r\n"
                   "X-Other: ignored\r\n"
                   "Content-Length: 2\r\n\r\n{}"});
  auto h = headers_of(req);
  EXPECT_EQ(h.host, "127.0.0.1:3000");
  EXPECT_EQ(h.accept, "application/json, text/event-stream");
  EXPECT_EQ(h.content_type, "application/json");
  EXPECT_EQ(h.session_id, "first");
  EXPECT_EQ(h.protocol_version, "2025-11-25");
  EXPECT_EQ(h.mcp_method, "tools/call");
  EXPECT_EQ(h.mcp_name, "echo");
  EXPECT_EQ(h.last_event_id, "7");
  EXPECT_FALSE(h.origin);
  EXPECT_FALSE(h.authorization);
  EXPECT_EQ(req.method(), beast::http::verb::post);
  auto facts = facts_of(req, h);
  EXPECT_EQ(facts.method, "POST");
  EXPECT_EQ(facts.target, "/mcp");
  EXPECT_EQ(facts.protocol_version, "2025-11-25");
  EXPECT_EQ(req.body(), "{}");
  EXPECT_EQ(req.param_count(), 0u);
}

// An empty value is there, and told from an absent header.
TEST(RequestParser, AnEmptyHeaderIsThereAndAnAbsentOneIsNot) {
  auto req = read({"GET /mcp HTTP/1.1\r\nHost: h\r\nOrigin:\r\n\r\n"});
  EXPECT_EQ(req[header::origin], std::string_view());
  EXPECT_FALSE(req[header::authorization]);
  EXPECT_EQ(req.body(), "");
}

// SEP-2243: Mcp-Param-* named after the prefix, lower-cased, in the order
// they came; the prefix alone names nothing; a repeated one is read from
// its first line.
TEST(RequestParser, ReadsTheParamHeadersLowerCasedAfterTheirPrefix) {
  auto req = read({"POST /mcp HTTP/1.1\r\n"
                   "Host: h\r\n"
                   "MCP-PARAM-City: Paris\r\n"
                   "mcp-param-: nothing\r\n"
                   "Mcp-Param-Units: metric\r\n"
                   "mcp-param-city: Lyon\r\n"
                   "Mcp-Params: not one\r\n"
                   "Content-Length: 0\r\n\r\n"});
  ASSERT_EQ(req.param_count(), 3u);
  EXPECT_EQ(req.param(0).first, "city");
  EXPECT_EQ(req.param(0).second, "Paris");
  EXPECT_EQ(req.param(1).first, "units");
  EXPECT_EQ(req.param(1).second, "metric");
  EXPECT_EQ(req.param(2).first, "city");
  auto params = param_headers_of(req);
  EXPECT_EQ(*params, (std::map<std::string, std::string>{{"city", "Paris"}, {"units", "metric"}}));
}

// A body is read whole, in one read or many, by length or in chunks.
TEST(RequestParser, ReadsABodyWholeHoweverItComes) {
  auto by_length = read({"POST /mcp HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhel", "lo wo", "rld"});
  EXPECT_EQ(by_length.body(), "hello world");
  auto chunked = read({"POST /mcp HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel",
                       "lo\r\n6\r\n world\r\n0\r\n\r\n"});
  EXPECT_EQ(chunked.body(), "hello world");
  auto header_in_pieces = read({"POST /m", "cp HTTP/1.1\r\nHo", "st: h\r\nContent-Length: 2\r\n", "\r\n{}"});
  EXPECT_EQ(header_in_pieces.target(), "/mcp");
  EXPECT_EQ(header_in_pieces[header::host], "h");
  EXPECT_EQ(header_in_pieces.body(), "{}");
}

TEST(RequestParser, KeepsAliveAsHttpSays) {
  EXPECT_TRUE(read({"GET / HTTP/1.1\r\nHost: h\r\n\r\n"}).keep_alive());
  EXPECT_FALSE(read({"GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"}).keep_alive());
  EXPECT_FALSE(read({"GET / HTTP/1.0\r\nHost: h\r\n\r\n"}).keep_alive());
  auto old = read({"GET / HTTP/1.0\r\nHost: h\r\nConnection: keep-alive\r\n\r\n"});
  EXPECT_TRUE(old.keep_alive());
  EXPECT_EQ(old.version(), 10);
}

TEST(RequestParser, AnUnknownMethodIsReadAsSent) {
  auto req = read({"BREW /pot HTTP/1.1\r\nHost: h\r\n\r\n"});
  EXPECT_EQ(req.method(), beast::http::verb::unknown);
  EXPECT_EQ(req.method_string(), "BREW");
  EXPECT_EQ(facts_of(req).method, "BREW");
}

TEST(RequestParser, RefusesWhatIsOverItsLimits) {
  request_parser big_header;
  EXPECT_EQ(feed(big_header, {"GET / HTTP/1.1\r\nHost: h\r\nX: " + std::string(200, 'x') + "\r\n\r\n"}, {1024, 128}),
            beast::http::error::header_limit);
  request_parser big_body;
  EXPECT_EQ(feed(big_body, {"POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhello world"}, {10, 8192}),
            beast::http::error::body_limit);
  request_parser big_chunks;
  EXPECT_EQ(feed(big_chunks, {"POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nhello \r\n",
                              "5\r\nworld\r\n0\r\n\r\n"},
                 {10, 8192}),
            beast::http::error::body_limit);
  request_parser malformed;
  EXPECT_EQ(feed(malformed, {"GET / HTTP/1.1\r\nHo st: h\r\n\r\n"}), beast::http::error::bad_field);
}

// A request moves (to a token's verification and back, to another event
// loop): what it read stays readable, short texts too.
TEST(RequestParser, ARequestKeepsWhatItReadWhenItMoves) {
  std::vector<request> held;
  held.push_back(read({"GET /a HTTP/1.1\r\nHost: h\r\nMcp-Session-Id: s\r\nMcp-Param-X: y\r\n\r\n"}));
  for (int i = 0; i < 8; ++i) // the vector grows: the request moves each time
    held.push_back(read({"GET /b HTTP/1.1\r\nHost: other\r\n\r\n"}));
  request moved = std::move(held.front());
  EXPECT_EQ(moved.target(), "/a");
  EXPECT_EQ(moved[header::host], "h");
  EXPECT_EQ(moved[header::session_id], "s");
  EXPECT_EQ(moved.param(0).first, "x");
  EXPECT_EQ(moved.param(0).second, "y");
  EXPECT_EQ(held.back()[header::host], "other");
}

} // namespace
} // namespace cafmcp::http
