#pragma once
// A directory of markdown notes served as resources and watched with
// inotify (seed 004 and its "future enhancements"): `<scheme>://note/{+path}`
// for each note, plus derived `<scheme>://recent`, `://stats` and `://tags`.
// A changed note sends resources/updated to its subscribers and to those of
// the derived resources it affects; a created, deleted or renamed note sends
// list_changed with operation metadata. Bursts of file events are coalesced
// per note within a window. Paths that leave the root (`..`, symlinks out of
// the tree) are refused. Which URIs may be subscribed is the server's policy
// (server_options::subscribable).
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include "cafmcp/server.hpp"

namespace cafmcp {

struct watched_directory_options {
  std::filesystem::path root;
  std::string scheme = "vault";
  std::string extension = ".md"; // only these files are notes
  std::chrono::milliseconds coalesce_window{100};
  std::size_t recent_count = 10;
  std::size_t max_note_bytes = 1 << 20;
};

class watched_directory {
public:
  /// Scans the tree, registers every note and the derived resources, and
  /// starts watching. Throws std::system_error when the root cannot be
  /// watched. Must not outlive the server.
  watched_directory(server& srv, watched_directory_options options);
  ~watched_directory(); // stops watching

  watched_directory(const watched_directory&) = delete;
  watched_directory& operator=(const watched_directory&) = delete;

  struct impl;

private:
  std::unique_ptr<impl> impl_;
};

} // namespace cafmcp
