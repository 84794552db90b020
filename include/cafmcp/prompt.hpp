#pragma once
// Prompts as a server author registers them.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cafmcp/json.hpp"
#include "cafmcp/request_context.hpp"
#include "cafmcp/resource.hpp"

namespace cafmcp {

struct prompt_argument {
  std::string name;
  std::optional<std::string> title;
  std::optional<std::string> description;
  bool required = false;
  completion_handler complete; // optional: `completion/complete` for it
};

struct prompt_message {
  std::string role; // "user" | "assistant"
  json content;     // one ContentBlock
};

struct prompt_result {
  std::optional<std::string> description;
  std::vector<prompt_message> messages;
  json to_json() const;
};

using prompt_handler =
  std::function<prompt_result(const std::map<std::string, std::string>& arguments, request_context&)>;

struct prompt {
  std::string name;
  std::optional<std::string> title;
  std::optional<std::string> description;
  std::vector<prompt_argument> arguments; // required ones are checked (-32602)
  json icons;
  json meta;
  prompt_handler handler;
  /// The handler returns at once and never blocks (see tool::quick).
  bool quick = false;
  /// Over HTTP with a token verifier: the scopes a caller's token must
  /// carry to see this in lists and to use it (403 insufficient_scope
  /// otherwise). Empty: every authenticated caller.
  std::vector<std::string> scopes;

  json descriptor() const;
};

} // namespace cafmcp
