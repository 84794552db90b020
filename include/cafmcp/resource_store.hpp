#pragma once
// A TTL/LRU store of entries published as MCP resources (seed 002): every
// entry is listed once (newest first) and readable under each of its
// representations' URI templates. Storing says list_changed "added" (or
// "updated", plus resources/updated to subscribers of the replaced entry);
// eviction and expiry say "removed". Expiry runs on the store actor's timer,
// on time whether or not anyone reads.
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cafmcp/server.hpp"

namespace cafmcp {

struct store_entry {
  std::string id; // one URI segment: [A-Za-z0-9._~-], 1-128 characters
  std::string title;
  std::optional<std::string> description;
  std::string mime_type = "text/plain"; // of `content`
  std::string content;                  // text, or the bytes of a binary entry
  bool binary = false;
  json data;                                       // optional structured metadata
  std::chrono::system_clock::time_point stored_at; // set by put()
};

/// One way to read an entry, under its own URI template with `{id}`.
struct store_representation {
  std::string uri_template; // e.g. "store://packet/{id}"
  std::string name;         // the template's name
  std::string mime_type;
  std::function<resource_contents(const store_entry&, const std::string& uri)> render;

  /// The entry as JSON: id, title, description, mimeType, storedAt, data,
  /// and the content (for text entries).
  static store_representation packet(std::string uri_template);
  /// The content as text with the entry's own mime type.
  static store_representation text(std::string uri_template);
  /// The content as a base64 blob with the entry's mime type.
  static store_representation blob(std::string uri_template);
};

struct resource_store_options {
  std::chrono::milliseconds ttl = std::chrono::minutes(5);
  std::size_t max_entries = 100;
  /// The first one is what resources/list shows, one resource per entry.
  std::vector<store_representation> representations;
  /// The clock a read judges expiry by (empty: steady_clock::now). A read
  /// past an entry's TTL finds nothing even before its timer has fired; a
  /// clock that runs ahead shows that without waiting for the timer.
  std::function<std::chrono::steady_clock::time_point()> now;
};

class resource_store {
public:
  /// Registers the representations' templates on `srv`. The store must not
  /// outlive the server.
  resource_store(server& srv, resource_store_options options);
  ~resource_store();
  resource_store(const resource_store&) = delete;
  resource_store& operator=(const resource_store&) = delete;

  /// Stores (or replaces) an entry; true when the id was new. Throws
  /// std::invalid_argument for an id that is not one URI segment.
  bool put(store_entry entry);
  /// false when there was no such entry.
  bool remove(const std::string& id);
  /// A live entry (reading refreshes its place in the LRU order).
  std::optional<store_entry> get(const std::string& id);
  /// Live entry ids, newest first.
  std::vector<std::string> ids();

  struct impl;

private:
  std::shared_ptr<impl> impl_;
};

} // namespace cafmcp
