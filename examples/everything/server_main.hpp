#pragma once
// everything-server's whole start-up as a function, so that a variant (the
// soak's chaos server) is the same server with something added.
#include <functional>
#include <memory>

#include <cafmcp/server.hpp>

namespace everything {

struct server_hooks {
  /// Called with the options before the server is made.
  std::function<void(cafmcp::server_options&)> configure;
  /// Called once the fixtures are installed, before serving; what it
  /// returns lives until the server stops serving.
  std::function<std::shared_ptr<void>(cafmcp::server&)> started;
};

/// Parses the command line, serves, and returns the exit code.
int server_main(int argc, char** argv, const server_hooks& hooks = {});

} // namespace everything
