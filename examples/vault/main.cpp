// vault-server: a directory of markdown notes as live resources. Edit a
// note in your editor and every subscribed client hears of it (seed 004).
#include <iostream>

#include <CLI/CLI.hpp>
#include <cafmcp/stdio.hpp>
#include <cafmcp/streamable_http.hpp>
#include <cafmcp/watched_directory.hpp>

int main(int argc, char** argv) {
  CLI::App app{"Serve a directory of markdown notes, watched for changes"};
  std::string root;
  long window_ms = 100;
  bool http = false;
  cafmcp::http_options http_opts;
  app.add_option("--root", root, "the vault directory")->required()->check(CLI::ExistingDirectory);
  app.add_option("--coalesce-ms", window_ms, "how long a burst of writes to one note is gathered");
  app.add_flag("--http", http, "serve Streamable HTTP instead of stdio");
  app.add_option("--host", http_opts.host, "address to bind")->capture_default_str();
  app.add_option("--port", http_opts.port, "HTTP port (0: any free one)")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  cafmcp::server_options opts;
  opts.name = "vault-server";
  opts.resources = cafmcp::capability_mode::on;
  // seed 004's whitelist, as a policy: the vault's own URIs only
  opts.subscribable = [](std::string_view uri) { return uri.rfind("vault://", 0) == 0; };
  cafmcp::server srv(opts);
  cafmcp::watched_directory vault(srv, {root, "vault", ".md", std::chrono::milliseconds(window_ms)});
  if (!http)
    return cafmcp::serve_stdio(srv);
  cafmcp::streamable_http transport(srv, http_opts);
  try {
    transport.start();
  } catch (const cafmcp::startup_error& e) { // a port in use
    std::cerr << "vault-server: " << e.what() << std::endl;
    return 1;
  }
  std::cerr << "vault-server: listening on http://" + http_opts.host + ":" + std::to_string(transport.port())
                 + http_opts.path + "\n"
            << std::flush;
  return transport.run();
}
