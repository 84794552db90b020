#include "cafmcp/uri_template.hpp"

#include <stdexcept>

namespace cafmcp {

// An expression's operator, as RFC 6570 section 3.2.1's table has it.
struct op_rules {
  char op;
  const char* first;
  char sep;
  bool named;
  const char* if_empty;
  bool allow_reserved;
};

struct uri_template::part {
  std::string literal;            // when names is empty
  const op_rules* rules = nullptr;
  std::vector<std::string> names; // the expression's variables
};

namespace {

constexpr op_rules rule_table[] = {
  {'\0', "", ',', false, "", false}, {'+', "", ',', false, "", true},
  {'#', "#", ',', false, "", true},  {'.', ".", '.', false, "", false},
  {'/', "/", '/', false, "", false}, {';', ";", ';', true, "", false},
  {'?', "?", '&', true, "=", false}, {'&', "&", '&', true, "=", false},
};

const op_rules* rules_for(char op) {
  for (auto& r : rule_table)
    if (r.op == op)
      return &r;
  return nullptr;
}

bool is_unreserved(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'
         || c == '.' || c == '_' || c == '~';
}

bool is_reserved(char c) {
  return std::string_view(":/?#[]@!$&'()*+,;=").find(c) != std::string_view::npos;
}

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

std::string encode(std::string_view value, bool allow_reserved) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    char c = value[i];
    // Reserved expansion keeps existing pct-triplets as they are.
    bool pct = c == '%' && i + 2 < value.size() && is_hex(value[i + 1]) && is_hex(value[i + 2]);
    if (is_unreserved(c) || (allow_reserved && (is_reserved(c) || pct))) {
      out.push_back(c);
    } else {
      auto u = static_cast<unsigned char>(c);
      out.push_back('%');
      out.push_back(hex[u >> 4]);
      out.push_back(hex[u & 15]);
    }
  }
  return out;
}

std::optional<std::string> decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out.push_back(s[i]);
      continue;
    }
    if (i + 2 >= s.size() || !is_hex(s[i + 1]) || !is_hex(s[i + 2]))
      return std::nullopt;
    out.push_back(static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16)));
    i += 2;
  }
  return out;
}

bool valid_name(std::string_view n) {
  if (n.empty())
    return false;
  for (char c : n)
    if (!(is_unreserved(c) && c != '-' && c != '~') && c != '%')
      return false;
  return true;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    auto p = s.find(sep, start);
    out.push_back(s.substr(start, p - start));
    if (p == std::string_view::npos)
      return out;
    start = p + 1;
  }
}

// Characters a single value may not contain raw in a match: they delimit
// the URI's structure (or this operator's own separators).
bool value_ok(std::string_view v, const op_rules& r, bool single) {
  for (char c : v) {
    if (r.allow_reserved) {
      if (!single && c == ',')
        return false;
      continue;
    }
    if (c == '/' || c == '?' || c == '#' || c == '&' || c == ',' || c == '=' || c == r.sep)
      return false;
  }
  return true;
}

// Reads one expression's expansion back into variables; false if `text`
// cannot be an expansion of it.
bool read_expression(const uri_template::part& p, std::string_view text,
                     uri_template::variables& vars) {
  const auto& r = *p.rules;
  if (text.empty())
    return true; // every variable undefined
  std::string_view first = r.first;
  if (text.substr(0, first.size()) != first)
    return false;
  text.remove_prefix(first.size());
  auto pieces = p.names.size() == 1 && !r.named ? std::vector<std::string_view>{text}
                                                 : split(text, r.sep);
  if (r.named) {
    std::size_t next = 0;
    for (auto piece : pieces) {
      auto eq = piece.find('=');
      auto name = piece.substr(0, eq);
      auto value = eq == std::string_view::npos ? std::string_view{} : piece.substr(eq + 1);
      while (next < p.names.size() && p.names[next] != name)
        ++next; // names come in template order; skipped ones were undefined
      if (next == p.names.size() || !value_ok(value, r, false))
        return false;
      auto decoded = decode(value);
      if (!decoded)
        return false;
      vars[p.names[next++]] = *decoded;
    }
    return true;
  }
  if (pieces.size() > p.names.size())
    return false;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (!value_ok(pieces[i], r, p.names.size() == 1))
      return false;
    auto decoded = decode(pieces[i]);
    if (!decoded)
      return false;
    vars[p.names[i]] = *decoded;
  }
  return true;
}

bool match_from(const std::vector<std::shared_ptr<const uri_template::part>>& parts,
                std::size_t index, std::string_view rest, uri_template::variables& vars) {
  if (index == parts.size())
    return rest.empty();
  const auto& p = *parts[index];
  if (p.names.empty()) {
    if (rest.substr(0, p.literal.size()) != p.literal)
      return false;
    return match_from(parts, index + 1, rest.substr(p.literal.size()), vars);
  }
  // Longest expansion first, backing off until the rest matches too.
  for (std::size_t len = rest.size() + 1; len-- > 0;) {
    auto attempt = vars;
    if (read_expression(p, rest.substr(0, len), attempt)
        && match_from(parts, index + 1, rest.substr(len), attempt)) {
      vars = std::move(attempt);
      return true;
    }
  }
  return false;
}

} // namespace

uri_template::uri_template(std::string text) : text_(std::move(text)) {
  std::size_t i = 0;
  while (i < text_.size()) {
    auto open = text_.find('{', i);
    auto close_before = text_.find('}', i);
    if (close_before < open)
      throw std::invalid_argument("unbalanced '}' in URI template: " + text_);
    if (open != i) {
      auto p = std::make_shared<part>();
      p->literal = text_.substr(i, open - i);
      parts_.push_back(std::move(p));
    }
    if (open == std::string::npos)
      break;
    auto close = text_.find('}', open);
    if (close == std::string::npos)
      throw std::invalid_argument("unbalanced '{' in URI template: " + text_);
    std::string_view body(text_.data() + open + 1, close - open - 1);
    auto p = std::make_shared<part>();
    char op = body.empty() ? '\0' : body.front();
    if (std::string_view("=,!@|").find(op) != std::string_view::npos && op != '\0')
      throw std::invalid_argument("reserved operator in URI template: " + text_);
    p->rules = rules_for(op);
    if (p->rules && op != '\0')
      body.remove_prefix(1);
    else
      p->rules = rules_for('\0');
    for (auto name : split(body, ',')) {
      if (name.find(':') != std::string_view::npos || name.find('*') != std::string_view::npos)
        throw std::invalid_argument("level-4 modifiers are not supported: " + text_);
      if (!valid_name(name))
        throw std::invalid_argument("bad variable name in URI template: " + text_);
      p->names.emplace_back(name);
      names_.emplace_back(name);
    }
    parts_.push_back(std::move(p));
    i = close + 1;
  }
}

std::string uri_template::expand(const variables& vars) const {
  std::string out;
  for (auto& p : parts_) {
    if (p->names.empty()) {
      out += p->literal;
      continue;
    }
    const auto& r = *p->rules;
    bool first = true;
    for (auto& name : p->names) {
      auto it = vars.find(name);
      if (it == vars.end())
        continue;
      out += first ? std::string(r.first) : std::string(1, r.sep);
      first = false;
      if (r.named) {
        out += name;
        out += it->second.empty() ? std::string(r.if_empty) : "=" + encode(it->second, false);
      } else {
        out += encode(it->second, r.allow_reserved);
      }
    }
  }
  return out;
}

std::optional<uri_template::variables> uri_template::match(std::string_view uri) const {
  variables vars;
  if (match_from(parts_, 0, uri, vars))
    return vars;
  return std::nullopt;
}

} // namespace cafmcp
