#pragma once
// What cafmcp-check is pointed at and which mutations it may drive.
#include <chrono>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "cafmcp/client_auth.hpp"
#include "cafmcp/json.hpp"

namespace cafmcp::check {

/// The server's tools that change it while it runs, with the everything-
/// server's argument names: add_resource{uri,name,text},
/// update_resource{uri,text?,name?}, remove_resource{uri}, add_tool{name},
/// remove_tool{name}, add_prompt{name}, remove_prompt{name}; update_tool and
/// update_prompt{name} have no fixture. An empty name: that mutation is not
/// available, and the checks that need it are skipped.
struct mutation_tools {
  std::string add_resource = "add_resource";
  std::string update_resource = "update_resource";
  std::string remove_resource = "remove_resource";
  std::string add_tool = "add_tool";
  std::string update_tool;
  std::string remove_tool = "remove_tool";
  std::string add_prompt = "add_prompt";
  std::string update_prompt;
  std::string remove_prompt = "remove_prompt";
};

struct options {
  std::vector<std::string> stdio_command; // spawn this server (one process per session)...
  std::string url;                        // ...or speak Streamable HTTP to this endpoint
  std::map<std::string, std::string> headers;
  /// https: trust only these PEM certificates (a private CA), not the
  /// system's store.
  std::optional<std::string> ca_file;
  /// HTTP: the bearer token of every request (a fixed one, or OAuth client
  /// credentials with discovery from the server's 401).
  std::shared_ptr<bearer_token_source> auth;
  mutation_tools mutations;
  /// How long an expected notification (or a response) may take.
  std::chrono::milliseconds timeout{5000};
  /// After a barrier (a ping answered), how long "nothing arrives" is
  /// watched for before it counts as never.
  std::chrono::milliseconds quiet{500};
  bool server_stderr = false; // stdio: pass the server's stderr through
  /// The tool the tasks checks call as a task (empty: the first listed one
  /// that allows a task and needs no arguments), and its arguments.
  std::string task_tool;
  json task_arguments = json::object();
  /// "2025-11-25" (sessions, subscribe) or "2026-07-28" (stateless, listen).
  std::string protocol = "2025-11-25";
};

} // namespace cafmcp::check
