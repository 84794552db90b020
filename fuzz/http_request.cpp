// Which HTTP requests reach MCP (src/streamable_http/request_policy.cpp), over
// raw request bytes: parsed with the transport's parser and its limits as
// a connection does (http_conn::read_request), read into request_facts as the
// router does (request_facts.hpp), then judged by two policies, one open and
// one with an extra allowed Origin.
//
// A refusal is one of the statuses the policy documents, with a message; a
// request let through has the endpoint's path, an allowed Host, an allowed
// Origin or none, and one of POST, GET, DELETE; the bearer token the router
// would verify is read out of its header, never made up. A stateless POST's mirrored headers are checked without throwing,
// and a mismatch is a 400 with HeaderMismatch.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cafmcp/http_options.hpp"
#include "cafmcp/json_rpc.hpp"

#include "fuzz_check.hpp"
#include "streamable_http/auth_challenge.hpp"
#include "streamable_http/request_facts.hpp"
#include "streamable_http/request_parser.hpp"

namespace {

using namespace cafmcp;
using namespace cafmcp::http;

constexpr std::uint16_t port = 3000;

const request_policy& open_policy() {
  static const request_policy p = request_policy::from(http_options{}, port);
  return p;
}

const request_policy& origin_policy() {
  static const request_policy p = [] {
    http_options o;
    o.allowed_origins = {"https://app.example"};
    return request_policy::from(o, port);
  }();
  return p;
}

bool listed(const std::vector<std::string>& list, std::string_view v) {
  for (auto& s : list)
    if (s == v)
      return true;
  return false;
}

void judge(const request_policy& policy, const request_facts& facts) {
  auto no = policy.check(facts);
  if (no) {
    FUZZ_CHECK(no->status == 400 || no->status == 401 || no->status == 403 || no->status == 404
               || no->status == 405 || no->status == 406 || no->status == 415);
    FUZZ_CHECK(!no->message.empty());
    return;
  }
  FUZZ_CHECK(facts.method == "POST" || facts.method == "GET" || facts.method == "DELETE");
  FUZZ_CHECK(facts.target.substr(0, facts.target.find('?')) == policy.path);
  FUZZ_CHECK(facts.host && listed(policy.hosts, *facts.host));
  FUZZ_CHECK(!facts.origin || listed(policy.origins, *facts.origin));
  // The bearer token (judged by the router's verifier, not the policy) is
  // read out of the header, never made up.
  if (auto token = bearer_token_of(facts.authorization)) {
    FUZZ_CHECK(!token->empty() && token->front() != ' ' && token->back() != ' ');
    FUZZ_CHECK(facts.authorization->find(*token) != std::string_view::npos);
  }
  if (facts.method == "POST")
    FUZZ_CHECK(facts.accept && facts.content_type);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  http_options limits;
  request_parser parser;
  parser.body_limit(limits.max_body_bytes);
  parser.header_limit(static_cast<std::uint32_t>(limits.max_header_bytes));
  parser.eager(true);
  beast::error_code ec;
  auto used = parser.put(net::buffer(data, size), ec);
  FUZZ_CHECK(used <= size);
  if (!ec && !parser.is_done())
    parser.put_eof(ec); // the client closed after its bytes
  if (ec || !parser.is_done())
    return 0; // http_conn answers 400, 413 or 431, or waits for more

  auto req = parser.release();
  auto headers = headers_of(req);
  auto facts = facts_of(req, headers);
  judge(open_policy(), facts);
  judge(origin_policy(), facts);

  if (req.method() != beast::http::verb::post)
    return 0;
  jsonrpc::limits message_limits;
  auto parsed = jsonrpc::parse(req.body(), message_limits);
  auto* msg = std::get_if<jsonrpc::message>(&parsed);
  if (!msg)
    return 0;
  auto* call = std::get_if<jsonrpc::request>(msg);
  bool has_session = headers.session_id.has_value();
  if (!call || !is_stateless_post(has_session, facts.protocol_version))
    return 0;
  if (auto mismatch = check_mirrored_headers(mirrored_headers_of(headers), *call)) {
    FUZZ_CHECK(mismatch->status == 400);
    FUZZ_CHECK(mismatch->code == jsonrpc::code::header_mismatch);
    FUZZ_CHECK(!mismatch->message.empty());
    // Its body goes out as JSON-RPC whatever bytes the header carried.
    auto body = jsonrpc::serialize_error(call->id, {*mismatch->code, mismatch->message, std::nullopt});
    FUZZ_CHECK(std::holds_alternative<jsonrpc::message>(jsonrpc::parse(body)));
  }
  auto status = stateless_answer_status(req.body());
  FUZZ_CHECK(status == 200 || status == 400 || status == 404);
  return 0;
}
