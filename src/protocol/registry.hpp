#pragma once
// The server's catalogue: resources, templates, tools, prompts. Owned by the
// server actor (and kept by the supervisor across restarts); pure data with
// the lookups the MCP methods need. Ordered maps make pagination cursors
// stable under concurrent mutation (see pagination.hpp).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "cafmcp/prompt.hpp"
#include "cafmcp/resource.hpp"
#include "cafmcp/tool.hpp"
#include "cafmcp/uri_template.hpp"

#include "foundation/schema_validator.hpp"
#include "foundation/string_hash.hpp"

namespace cafmcp::protocol {

struct template_entry {
  resource_template spec;
  uri_template compiled;
};

/// Made by make_shared only (mutation.cpp): a call's job holds the entry
/// it runs (shared_from_this), not copies of its handler and name.
struct tool_entry : std::enable_shared_from_this<tool_entry> {
  tool spec;
  std::shared_ptr<const schema_validator> input;  // compiled once per add
  std::shared_ptr<const schema_validator> output; // null without outputSchema
};

/// Tools by name. Entries are shared and never changed in place (a
/// replacement is a new entry), so a copy of the table is a copy of
/// pointers: sessions read such a copy (actors/published_tools.hpp).
using tool_map = std::map<std::string, std::shared_ptr<const tool_entry>, std::less<>>;
/// The same, hashed by name: for a table that is only searched (a
/// session's copy), a lookup hashes the name once where the tree compared
/// it with ~5 names (~300 instructions a tools/call).
using tool_index = std::unordered_map<std::string, std::shared_ptr<const tool_entry>, string_hash, std::equal_to<>>;

struct registry {
  std::map<std::string, resource> resources;           // by uri
  std::map<std::string, std::string> resource_listing; // list_order \x1f uri -> uri
  std::map<std::string, template_entry> templates;     // by uriTemplate
  tool_map tools;                                      // by name
  std::map<std::string, prompt> prompts;               // by name
  /// Counts every change to `tools` (a replacement that lists the same is
  /// one too: its handler changed), so that a copy knows whether it is current.
  std::uint64_t tool_edits = 0;

  /// A tool that may run as a task is registered (the tasks capability).
  bool offers_tasks() const;
  /// The template a concrete URI belongs to (first match in key order).
  const template_entry* match_template(const std::string& uri) const;
  /// A registered resource, or a URI some template matches.
  bool knows_uri(const std::string& uri) const;
};

/// The key of `r` in registry::resource_listing.
std::string listing_key(const resource& r);

/// SEP-986: 1-128 characters of [A-Za-z0-9_.-].
bool valid_tool_name(std::string_view name);

} // namespace cafmcp::protocol
