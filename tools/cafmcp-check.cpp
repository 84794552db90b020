// cafmcp-check: a notification compliance checker any MCP server can be run
// against, over stdio or Streamable HTTP. Exit 1 on any FAIL, 2 when it
// could not run at all.
#include <cstdlib>
#include <iostream>

#include <CLI/CLI.hpp>

#include "cafmcp/command_line.hpp"
#include "cafmcp/stdio_client_transport.hpp"

#include "check/checks.hpp"

int main(int argc, char** argv) {
  using namespace cafmcp::check;
  CLI::App app{"cafmcp-check: does an MCP server send the notifications the specification asks for?"};
  options opts;
  std::string stdio_command;
  bool as_json = false;
  long timeout_ms = opts.timeout.count(), quiet_ms = opts.quiet.count();
  std::vector<std::string> headers;
  auto* stdio =
    app.add_option("--stdio", stdio_command, "spawn this server command, e.g. \"node server.mjs --stdio\"");
  auto* url = app.add_option("--url", opts.url, "Streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp");
  stdio->excludes(url);
  app.add_option("--header", headers, "an extra HTTP header \"Name: value\" (repeatable)");
  std::string ca_file;
  app.add_option("--ca-file", ca_file, "https: trust these PEM certificates (a private CA) instead of the system's")
    ->check(CLI::ExistingFile);
  std::string bearer, oauth_client, oauth_scope;
  app.add_option("--bearer-token", bearer, "HTTP: send this bearer token on every request");
  app.add_option("--oauth-client-id", oauth_client,
                 "HTTP: get tokens with the OAuth client credentials grant as this client (its secret in "
                 "CAFMCP_OAUTH_CLIENT_SECRET), from the authorization server the server's 401 points at");
  app.add_option("--oauth-scope", oauth_scope, "with --oauth-client-id: the scopes to ask for");
  app.add_flag("--json", as_json, "print the report as JSON");
  app
    .add_option(
      "--protocol", opts.protocol,
      "2025-11-25: sessions, subscribe, GET stream; 2026-07-28: stateless requests and subscriptions/listen")
    ->check(CLI::IsMember({"2025-11-25", "2026-07-28"}));
  app.add_flag("--server-stderr", opts.server_stderr, "stdio: pass the server's stderr through");
  app.add_option("--timeout-ms", timeout_ms, "how long an expected answer or notification may take")
    ->check(CLI::PositiveNumber);
  app
    .add_option("--quiet-ms", quiet_ms,
                "after a ping barrier, how long to watch for a notification that must not come")
    ->check(CLI::PositiveNumber);
  auto& m = opts.mutations;
  auto tool_opt = [&](const char* flag, std::string& field, const char* args) {
    app
      .add_option(flag, field,
                  std::string("mutation tool taking ") + args + " (\"\" disables the checks needing it)")
      ->capture_default_str();
  };
  tool_opt("--add-resource", m.add_resource, "{uri,name,text}");
  tool_opt("--update-resource", m.update_resource, "{uri,text?,name?}");
  tool_opt("--remove-resource", m.remove_resource, "{uri}");
  tool_opt("--add-tool", m.add_tool, "{name}");
  tool_opt("--update-tool", m.update_tool, "{name} (changes its descriptor)");
  tool_opt("--remove-tool", m.remove_tool, "{name}");
  tool_opt("--add-prompt", m.add_prompt, "{name}");
  tool_opt("--update-prompt", m.update_prompt, "{name} (changes its descriptor)");
  tool_opt("--remove-prompt", m.remove_prompt, "{name}");
  std::string task_args = "{}";
  app.add_option("--task-tool", opts.task_tool,
                 "the tool the tasks checks call as a task (default: the first listed that allows one "
                 "and needs no arguments)");
  app.add_option("--task-args", task_args, "its arguments, a JSON object")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  opts.task_arguments = cafmcp::json::parse(task_args, nullptr, false);
  if (!opts.task_arguments.is_object()) {
    std::cerr << "cafmcp-check: --task-args needs a JSON object\n";
    return 2;
  }
  if (stdio_command.empty() && opts.url.empty()) {
    std::cerr << "cafmcp-check: give --stdio \"CMD ARGS\" or --url http://HOST:PORT/mcp\n";
    return 2;
  }
  opts.stdio_command = cafmcp::split_command_line(stdio_command);
  opts.timeout = std::chrono::milliseconds(timeout_ms);
  opts.quiet = std::chrono::milliseconds(quiet_ms);
  for (auto& h : headers) {
    auto colon = h.find(':');
    if (colon == std::string::npos) {
      std::cerr << "cafmcp-check: --header needs \"Name: value\"\n";
      return 2;
    }
    opts.headers[h.substr(0, colon)] = h.substr(h.find_first_not_of(' ', colon + 1));
  }

  if (!ca_file.empty())
    opts.ca_file = ca_file;
  if (!bearer.empty())
    opts.auth = cafmcp::static_bearer_token(bearer);
  if (!oauth_client.empty()) {
    const char* secret = std::getenv("CAFMCP_OAUTH_CLIENT_SECRET");
    cafmcp::oauth_client_options o;
    o.client_id = oauth_client;
    o.client_secret = secret ? secret : "";
    o.scope = oauth_scope;
    if (!ca_file.empty())
      o.ca_file = ca_file;
    opts.auth = cafmcp::oauth_client_credentials(o);
  }

  std::string target = opts.url.empty() ? stdio_command : opts.url;
  std::string transport = opts.url.empty() ? "stdio" : "streamable-http";
  report r;
  try {
    r = run_checks(opts);
  } catch (const std::exception& e) {
    std::cerr << "cafmcp-check: " << e.what() << "\n";
    return 2;
  }
  if (as_json)
    std::cout << r.to_json(target, transport).dump(2) << "\n";
  else
    std::cout << r.to_text(target, transport);
  // Could not even connect: no session (capabilities.declared failed) and
  // nothing else judged (the authorization probe at most skipped).
  bool no_session = false;
  for (auto& c : r.results())
    no_session = no_session || (c.id == "capabilities.declared" && c.outcome == verdict::fail);
  if (no_session && r.count(verdict::pass) == 0 && r.count(verdict::info) == 0 && r.count(verdict::fail) == 1)
    return 2;
  return r.any_fail() ? 1 : 0;
}
