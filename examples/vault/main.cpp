// vault-server: a directory of markdown notes as live resources. Edit a
// note in your editor and every subscribed client hears of it (seed 004).
#include <filesystem>

#include <CLI/CLI.hpp>
#include <cafmcp/startup_error.hpp>
#include <cafmcp/watched_directory.hpp>

#include "server_flags.hpp"

int main(int argc, char** argv) {
  CLI::App app{"Serve a directory of markdown notes, watched for changes"};
  examples::server_flags flags(app, "vault-server");
  std::string root;
  long window_ms = 100;
  app.add_option("--root", root, "the vault directory")->required();
  app.add_option("--coalesce-ms", window_ms, "how long a burst of writes to one note is gathered")
    ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  return flags.run([&] {
    // Checked here, not by the parser: a missing directory is a start-up
    // failure like a port in use, one line and exit 1.
    std::error_code ec;
    if (!std::filesystem::is_directory(root, ec))
      throw cafmcp::startup_error("--root " + root + ": no such directory");
    cafmcp::server_options opts;
    opts.name = "vault-server";
    opts.resources = cafmcp::capability_mode::on;
    flags.apply(opts);
    // seed 004's whitelist, as a policy: the vault's own URIs only
    opts.subscribable = [](std::string_view uri) { return uri.rfind("vault://", 0) == 0; };
    cafmcp::server srv(opts);
    cafmcp::watched_directory vault(srv, {root, "vault", ".md", std::chrono::milliseconds(window_ms)});
    return flags.serve(srv);
  });
}
