// A program that uses cafmcp the way a user's would: a server with one tool,
// called by cafmcp::client in the same process and over Streamable HTTP on a
// loopback port, traced to a JSON-lines file. Exits 0 only when every answer
// is right, so the install tests check behaviour, not just a link.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include <cafmcp/client.hpp>
#include <cafmcp/http_client_transport.hpp>
#include <cafmcp/in_process_client_transport.hpp>
#include <cafmcp/otel/environment.hpp>
#include <cafmcp/otel/mcp_tracer.hpp>
#include <cafmcp/server.hpp>
#include <cafmcp/streamable_http.hpp>
#include <cafmcp/version.hpp>

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  std::cout << (ok ? "ok:   " : "FAIL: ") << what << std::endl;
  if (!ok)
    ++failures;
}

// The text of the first content block of a tools/call result, or "".
std::string answer_of(cafmcp::client& c, int a, int b) {
  auto call = c.call_tool("add", {{"a", a}, {"b", b}}).get();
  if (!call->success())
    return "";
  return call->result.at("content").at(0).value("text", "");
}

} // namespace

int main(int argc, char** argv) {
  std::string trace_file = argc > 1 ? argv[1] : "consumer-spans.jsonl";
  std::remove(trace_file.c_str());
  auto provider = cafmcp::otel::provider_from_environment({.jsonl_path = trace_file});
  expect(provider != nullptr, "tracer provider writing to " + trace_file);
  {
    cafmcp::server srv(
      {.name = "install-consumer", .version = "1.0", .tracer = cafmcp::otel::make_mcp_tracer(provider)});
    cafmcp::tool add;
    add.name = "add";
    add.description = "Adds two integers";
    add.input_schema = {{"type", "object"},
                        {"properties", {{"a", {{"type", "integer"}}}, {"b", {{"type", "integer"}}}}},
                        {"required", {"a", "b"}}};
    add.handler = [](const cafmcp::json& args, cafmcp::request_context&) {
      return cafmcp::tool_result::text(std::to_string(args.at("a").get<int>() + args.at("b").get<int>()));
    };
    srv.add_tool(add).get();

    {
      cafmcp::client c(cafmcp::make_in_process_client_transport(srv));
      c.connect().get();
      auto sum = answer_of(c, 2, 3);
      std::cout << "in-process: add(2, 3) = " << sum << std::endl;
      expect(sum == "5", "in-process tools/call answers 5");
    }

    cafmcp::streamable_http http(srv, {.port = 0});
    http.start();
    {
      cafmcp::client c(cafmcp::make_http_client_transport(
        {.url = "http://127.0.0.1:" + std::to_string(http.port()) + "/mcp"}));
      c.connect().get();
      auto sum = answer_of(c, 40, 2);
      std::cout << "http: add(40, 2) = " << sum << std::endl;
      expect(sum == "42", "Streamable HTTP tools/call answers 42");
    }
    http.stop();
  }
  provider.reset(); // flushes the batch processor
  std::ifstream in(trace_file);
  std::string spans((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  expect(spans.find("tools/call") != std::string::npos, "a tools/call span was exported");
  std::cout << "cafmcp " << cafmcp::version() << (failures ? ": FAILED" : ": all good") << std::endl;
  return failures ? 1 : 0;
}
