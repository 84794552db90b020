#pragma once
// Resources and resource templates as a server author registers them.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cafmcp/json.hpp"
#include "cafmcp/request_context.hpp"
#include "cafmcp/uri_template.hpp"

namespace cafmcp {

/// One item of a `resources/read` result.
struct resource_contents {
  std::string uri;
  std::optional<std::string> mime_type;
  std::optional<std::string> text; // exactly one of text / blob
  std::optional<std::string> blob; // base64
  json meta;                       // `_meta`, omitted when null

  static resource_contents make_text(std::string uri, std::string text, std::optional<std::string> mime = {});
  static resource_contents make_blob(std::string uri, std::string base64,
                                     std::optional<std::string> mime = {});
  json to_json() const;
};

/// Produces a resource's contents at read time. Runs on a worker; throw
/// resource_not_found_error to answer -32002, anything else answers -32603.
using resource_reader =
  std::function<std::vector<resource_contents>(const std::string& uri, request_context&)>;

struct resource_not_found_error : std::runtime_error {
  explicit resource_not_found_error(std::string uri)
    : std::runtime_error("Resource not found: " + uri), uri(std::move(uri)) {}
  std::string uri;
};

/// A concrete resource. Either `contents` (static, served by the server
/// actor itself) or `reader` (called per read) supplies the data.
struct resource {
  std::string uri;
  std::string name;
  std::optional<std::string> title;
  std::optional<std::string> description;
  std::optional<std::string> mime_type;
  json annotations; // {audience, priority, lastModified}; omitted when null
  std::optional<std::uint64_t> size;
  json icons; // array of Icon; omitted when null
  json meta;  // `_meta`; omitted when null
  /// resources/list shows resources ordered by (list_order, uri): empty
  /// first. A store lists newest first by giving later entries smaller keys.
  std::string list_order;

  std::vector<resource_contents> contents; // static data
  resource_reader reader;                  // or dynamic data
  /// The reader returns at once and never blocks: its session's actor runs
  /// it, as a quick tool's handler (tool::quick).
  bool quick = false;
  /// Over HTTP with a token verifier: the scopes a caller's token must
  /// carry to see this in lists and to use it (403 insufficient_scope
  /// otherwise). Empty: every authenticated caller.
  std::vector<std::string> scopes;

  /// The `Resource` descriptor as MCP lists it.
  json descriptor() const;
};

/// Completion for one variable of a template or argument of a prompt:
/// given the partial value (and the other arguments already chosen),
/// return up to 100 candidates.
using completion_handler = std::function<std::vector<std::string>(
  const std::string& partial, const std::map<std::string, std::string>& context)>;

/// A family of resources addressed by an RFC 6570 template. Reading or
/// subscribing to any URI the template matches is allowed.
struct resource_template {
  std::string uri_template;
  std::string name;
  std::optional<std::string> title;
  std::optional<std::string> description;
  std::optional<std::string> mime_type;
  json annotations;
  json icons;
  json meta;

  /// Called with the concrete URI; `request_context` carries the rest.
  /// The matched variables are available through uri_template::match.
  resource_reader reader;
  /// The reader returns at once and never blocks (see tool::quick).
  bool quick = false;
  /// Per-variable completion (`completion/complete` with ref/resource).
  std::map<std::string, completion_handler> completions;
  /// Over HTTP with a token verifier: the scopes a caller's token must
  /// carry to see this template and to read (or complete) what it matches.
  std::vector<std::string> scopes;

  json descriptor() const;
};

} // namespace cafmcp
