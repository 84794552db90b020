// watch-resource: starts an MCP server over stdio, reads one resource and
// prints it again each time the server says it changed. The cache makes a
// second read free until then; the client clears it on the update.
//
//   watch-resource --uri test://static-text -- ./everything-server --stdio
//   watch-resource --uri notes://today --updates 3 --url http://127.0.0.1:3000/mcp
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <optional>

#include <CLI/CLI.hpp>
#include <cafmcp/client.hpp>
#include <cafmcp/http_client_transport.hpp>
#include <cafmcp/stdio_client_transport.hpp>

int main(int argc, char** argv) {
  CLI::App app{"Reads an MCP resource and prints it whenever the server updates it"};
  std::string uri;
  int updates = 0;
  std::string url;
  std::vector<std::string> server;
  app.add_option("--uri", uri, "the resource to watch")->required();
  app.add_option("--updates", updates, "exit after this many updates (0: print once and exit)")
    ->capture_default_str();
  auto* over_http = app.add_option("--url", url, "a Streamable HTTP server's MCP endpoint");
  app.add_option("server", server, "or: the server command and its arguments (stdio)")->excludes(over_http);
  CLI11_PARSE(app, argc, argv);
  if (url.empty() && server.empty()) {
    std::cerr << "give --url or a server command\n";
    return 2;
  }

  std::optional<cafmcp::client> made;
  cafmcp::json init;
  try {
    made.emplace(url.empty() ? std::unique_ptr<cafmcp::client_transport>(
                   cafmcp::make_stdio_client_transport({.argv = server}))
                             : cafmcp::make_http_client_transport({.url = url}));
    init = made->connect().get();
  } catch (const std::exception& e) { // refused, not an MCP server, a command that fails
    std::cerr << "watch-resource: cannot connect to " << (url.empty() ? server.front() : url) << ": "
              << e.what() << std::endl;
    return 1;
  }
  auto& c = *made;
  std::cout << "connected to " << init["serverInfo"].value("name", "?") << "\n";

  auto print = [&] {
    auto read = c.read_resource(uri).get(); // fetched, and cached until it changes
    if (!read->ok())
      throw std::runtime_error("cannot read " + uri + ": " + read->error->message);
    for (const auto& part : read->result["contents"])
      std::cout << uri << ": " << part.value("text", "<binary>") << std::endl;
  };
  try {
    print();
  } catch (const std::exception& e) {
    std::cerr << "watch-resource: " << e.what() << std::endl;
    return 1;
  }
  if (updates == 0)
    return 0;

  std::mutex mtx;
  std::condition_variable cv;
  int seen = 0;
  auto on_update = c.on(cafmcp::client_event_kind::resource_updated, [&](const cafmcp::client_event&) {
    std::lock_guard<std::mutex> g(mtx);
    ++seen;
    cv.notify_one();
  });
  c.subscribe(uri).get();
  std::cout << "watching " << uri << std::endl;
  for (int printed = 0; printed < updates; ++printed) {
    std::unique_lock<std::mutex> g(mtx);
    cv.wait(g, [&] { return seen > printed; });
    g.unlock();
    print(); // the update cleared the cache entry: this reads afresh
  }
}
