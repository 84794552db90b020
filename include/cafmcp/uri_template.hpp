#pragma once
// RFC 6570 URI templates, levels 1-3: expansion for clients, matching for
// servers (which template does a concrete URI belong to, and with which
// variable values). Pure: no actors.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cafmcp {

class uri_template {
public:
  using variables = std::map<std::string, std::string>;

  /// Throws std::invalid_argument on a malformed template (unbalanced braces,
  /// an unknown operator, an operator beyond level 3, a bad variable name).
  explicit uri_template(std::string text);

  const std::string& text() const noexcept { return text_; }

  /// Variable names in order of appearance.
  const std::vector<std::string>& variable_names() const noexcept { return names_; }

  /// RFC 6570 expansion. Operators: none, +, #, ., /, ;, ?, &.
  /// Undefined variables expand as the RFC says (omitted).
  std::string expand(const variables& vars) const;

  /// Inverse of expand: if `uri` is an expansion of this template, returns
  /// the variable values (percent-decoded). Simple-string expressions `{x}`
  /// never match '/', '?', '#' or '&' (one path segment); `{+x}` and `{#x}`
  /// may span segments. Literal text must match exactly.
  std::optional<variables> match(std::string_view uri) const;

  /// match()'s answer, and whether a "no" was the matcher giving up: its
  /// work is bounded by a budget linear in the URI's length, and the rare
  /// template that needs more for some URI (adjacent expressions, a name
  /// repeated among many in one expression, long runs of literal text
  /// inside values) is refused rather than searched without end.
  struct match_result {
    std::optional<variables> values;
    bool gave_up = false;
  };
  match_result try_match(std::string_view uri) const;

  /// True when the text holds at least one expression.
  bool is_template() const noexcept { return !names_.empty(); }

  struct part; // literal or expression; opaque, defined in the .cpp

private:
  std::string text_;
  std::vector<std::string> names_;
  std::vector<std::shared_ptr<const part>> parts_;
};

} // namespace cafmcp
