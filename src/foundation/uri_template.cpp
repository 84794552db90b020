#include "cafmcp/uri_template.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "foundation/percent_encoding.hpp"

namespace cafmcp {

// An expression's operator, as RFC 6570 section 3.2.1's table has it, plus
// what matching needs to know about it.
struct op_rules {
  char op;
  const char* first;
  char sep;
  bool named;
  const char* if_empty;
  bool allow_reserved;
  // Characters that can never occur inside this operator's expansion in a
  // URI, so a match can stop looking at the first one.
  const char* never;
  // Characters a single value may not hold raw (besides the separators).
  const char* not_in_value;
};

struct uri_template::part {
  std::string literal; // when names is empty
  const op_rules* rules = nullptr;
  std::vector<std::string> names; // the expression's variables
  // No name of this part or a later one stands in an earlier part: where
  // the match stands here, nothing read before matters (a dead state may be
  // remembered).
  bool independent = true;
};

namespace {

using parts_t = std::vector<std::shared_ptr<const uri_template::part>>;

// Query values may hold '/' and '?' (RFC 3986 allows them there); path-ish
// values stop at any structural delimiter.
constexpr op_rules rule_table[] = {
  {'\0', "", ',', false, "", false, "/?#&", "/?#&"}, {'+', "", ',', false, "", true, "", ""},
  {'#', "#", ',', false, "", true, "", ""},          {'.', ".", '.', false, "", false, "/?#&", "/?#&"},
  {'/', "/", '/', false, "", false, "?#&", "?#&"},   {';', ";", ';', true, "", false, "/?#&", "/?#&"},
  {'?', "?", '&', true, "=", false, "#", "#"},       {'&', "&", '&', true, "=", false, "#", "#"},
};

const op_rules* rules_for(char op) {
  for (auto& r : rule_table)
    if (r.op == op)
      return &r;
  return nullptr;
}

bool is_alpha_digit(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool is_reserved(char c) { return std::string_view(":/?#[]@!$&'()*+,;=").find(c) != std::string_view::npos; }

using detail::append_percent_encoded;
using detail::is_hex_digit;
using detail::is_unreserved;
using detail::percent_decode;

bool contains(const char* set, char c) { return std::string_view(set).find(c) != std::string_view::npos; }

std::string encode(std::string_view value, bool allow_reserved) {
  std::string out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    char c = value[i];
    // Reserved expansion keeps existing pct-triplets as they are (RFC 6570
    // section 3.2.3), so an already-encoded value is not encoded twice.
    bool pct = c == '%' && i + 2 < value.size() && is_hex_digit(value[i + 1]) && is_hex_digit(value[i + 2]);
    if (is_unreserved(c) || (allow_reserved && (is_reserved(c) || pct)))
      out.push_back(c);
    else
      append_percent_encoded(out, c);
  }
  return out;
}

// varname = varchar *( ["."] varchar ); varchar = ALPHA / DIGIT / "_" / pct-encoded
bool valid_name(std::string_view n) {
  if (n.empty() || n.front() == '.' || n.back() == '.')
    return false;
  for (std::size_t i = 0; i < n.size(); ++i) {
    char c = n[i];
    if (c == '%') {
      if (i + 2 >= n.size() || !is_hex_digit(n[i + 1]) || !is_hex_digit(n[i + 2]))
        return false;
      i += 2;
    } else if (c == '.') {
      if (n[i + 1] == '.')
        return false;
    } else if (!is_alpha_digit(c) && c != '_') {
      return false;
    }
  }
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

bool value_ok(std::string_view v, const op_rules& r, bool single) {
  for (char c : v) {
    if (contains(r.not_in_value, c))
      return false;
    // With several variables the separator between them cannot be data.
    if (!single && (c == r.sep || c == ','))
      return false;
  }
  return true;
}

// One value per name, however often the template names it: a name used
// twice (`{?x,y,x}`, `{x}/{x}`) expands twice and reads back twice.
bool assign_value(uri_template::variables& vars, const std::string& name, const std::string& value) {
  auto [it, fresh] = vars.try_emplace(name, value);
  return fresh || it->second == value;
}

bool assign(uri_template::variables& vars, const std::string& name, std::string_view raw) {
  auto decoded = percent_decode(raw);
  return decoded && assign_value(vars, name, *decoded);
}

// `;x=1;y=2`, `?x=1&y=2`: names say which variable each piece is, so pieces
// may come in any order and any of them may be missing (optional query
// parameters), but each at most once and none unknown.
bool read_named(const uri_template::part& p, std::string_view text, uri_template::variables& vars) {
  const auto& r = *p.rules;
  for (auto piece : split(text, r.sep)) {
    auto eq = piece.find('=');
    auto name = piece.substr(0, eq);
    auto value = eq == std::string_view::npos ? std::string_view{} : piece.substr(eq + 1);
    const std::string* known = nullptr;
    for (auto& n : p.names)
      if (n == name)
        known = &n;
    if (!known || !value_ok(value, r, p.names.size() == 1) || !assign(vars, *known, value))
      return false;
  }
  return true;
}

// Takes one reading of an expression; true when the whole match succeeded
// with it.
using reading_taker = std::function<bool(const uri_template::variables&)>;

// Pieces of a positional expression (`{a,b,c}`, `{/a,b}`) back onto its
// names. Expansion skips undefined names, so the pieces name the defined
// ones in order; with distinct names those are simply the first ones. A
// name may repeat in one expression (RFC 6570's own `{.who,who}`): then
// every place it stands holds its value or none does, and which names were
// undefined may take a search (`{b,a,x,a}` expanded with x undefined is
// "1,2,2": b=1, a=2, x undefined; read as "the first three" it would make
// x=2 and then fail on a). Defined-first keeps the usual case linear; the
// search spends the match's work budget, so a hostile template is refused,
// never a hang. Two counts cut doomed choices short: pieces left over that
// the names left cannot hold, and pieces owed to places where a name
// already chosen defined stands again (a 17-name expression repeating four
// names, found by fuzzing, took 6,191 steps instead of 10,155 to read
// back when it was found: still past its budget of ~4,900, a refusal).
class positional_reader {
public:
  /// Each step spends one unit of `budget`, the whole match's (matcher).
  positional_reader(const std::vector<std::string>& names, const std::vector<std::string_view>& pieces,
                    std::size_t& budget)
    : names_(names), pieces_(pieces), budget_(budget) {
    if (names.size() < 2)
      return; // nothing repeats: nothing owed
    again_.resize(names.size());
    std::unordered_map<std::string_view, std::size_t> seen_after;
    for (std::size_t i = names.size(); i-- > 0;)
      again_[i] = seen_after[names[i]]++;
  }

  /// Offers each reading to `take` until it accepts one (true) or none is
  /// left (false): the first reading of an expression may disagree with a
  /// later expression where another reading would not.
  bool read(const reading_taker& take) {
    take_ = &take;
    return at(0, 0);
  }

private:
  bool at(std::size_t name, std::size_t piece) {
    if (name == names_.size())
      return piece == pieces_.size() && offer();
    std::size_t pieces_left = pieces_.size() - piece;
    if (pieces_left > names_.size() - name || pieces_left < owed_)
      return false;
    if (budget_ == 0)
      return false;
    --budget_;
    const auto& n = names_[name];
    if (auto it = chosen_.find(n); it != chosen_.end()) { // decided where it first stood
      if (!it->second)
        return at(name + 1, piece);
      if (piece == pieces_.size() || decoded(piece) != it->second)
        return false;
      --owed_;
      bool found = at(name + 1, piece + 1);
      ++owed_;
      return found;
    }
    if (piece < pieces_.size() && decoded(piece)) {
      chosen_[n] = decoded(piece);
      std::size_t owes = again_.empty() ? 0 : again_[name];
      owed_ += owes;
      bool found = at(name + 1, piece + 1);
      owed_ -= owes;
      if (found)
        return true;
    }
    chosen_[n] = std::nullopt; // undefined: it stands nowhere
    if (at(name + 1, piece))
      return true;
    chosen_.erase(n);
    return false;
  }

  bool offer() {
    uri_template::variables vars;
    for (auto& [name, value] : chosen_)
      if (value)
        vars.emplace(name, *value);
    return (*take_)(vars);
  }

  const std::optional<std::string>& decoded(std::size_t piece) {
    auto [it, fresh] = decoded_.try_emplace(piece);
    if (fresh)
      it->second = percent_decode(pieces_[piece]);
    return it->second;
  }

  const std::vector<std::string>& names_;
  const std::vector<std::string_view>& pieces_;
  std::map<std::string, std::optional<std::string>> chosen_; // name -> its value, or undefined
  std::map<std::size_t, std::optional<std::string>> decoded_; // piece -> percent-decoded, or invalid
  std::size_t& budget_;
  std::vector<std::size_t> again_; // place -> how many later places its name stands in
  std::size_t owed_ = 0;           // places ahead where a name chosen defined stands again
  const reading_taker* take_ = nullptr;
};

// Reads one expression's expansion back into variables and offers each
// reading to `take`; false if `text` cannot be an expansion of it, no
// reading was taken, or `budget` ran out reading it.
bool read_expression(const uri_template::part& p, std::string_view text, const reading_taker& take,
                     std::size_t& budget) {
  const auto& r = *p.rules;
  std::string_view first = r.first;
  if (text.empty())
    // An operator with a prefix marks its presence, so its absence means
    // "all undefined"; `{x}` and `{+x}` must match something, or a template
    // like `a/{id}/b` would accept `a//b`.
    return !first.empty() && take({});
  if (text.substr(0, first.size()) != first)
    return false;
  text.remove_prefix(first.size());
  if (r.named) {
    uri_template::variables vars;
    return read_named(p, text, vars) && take(vars);
  }
  bool single = p.names.size() == 1;
  auto pieces = single ? std::vector<std::string_view>{text} : split(text, r.sep);
  if (pieces.size() > p.names.size())
    return false;
  for (auto piece : pieces)
    if (!value_ok(piece, r, single))
      return false;
  return positional_reader(p.names, pieces, budget).read(take);
}

// Backtracking over where each expression ends, made cheap enough for
// hostile URIs (a resources/read may carry megabytes): an expression never
// extends past a character its operator cannot produce, it ends only where
// the following literal occurs, the last one takes the rest, dead
// (part, offset) states are remembered, and a work budget bounds the
// remaining pathological cases (adjacent reserved expressions).
//
// A name in several expressions (`{x}/{x}`, `{#f}{b}{#f}`) is defined in
// all of them with one value, or in none: what each expression read
// travels down the search, and a reading that disagrees gives way to the
// expression's next reading, then to its next length. (Merging on the way
// back up took the first reading of the rest and never asked it for
// another: "x,t#abx,x,t#ab", an expansion of `{b,s}{#frag}{b,b,s}{#frag}`,
// did not match, and a name undefined in one place but defined in another
// gave values that expand to another URI: 200 of 648 small cases in
// test ANameInSeveralExpressionsIsDefinedInAllOrNone; found by fuzzing.)
// A dead state is remembered only where nothing bound so far can matter.
class matcher {
public:
  matcher(const parts_t& parts, std::string_view uri)
    : parts_(parts), uri_(uri), budget_(16 * uri.size() + 4096) {}

  bool run(uri_template::variables& out) {
    // Literal text at either end is fixed: checking it first settles most
    // non-matches in linear time.
    if (!parts_.empty() && parts_.front()->names.empty()
        && uri_.substr(0, parts_.front()->literal.size()) != parts_.front()->literal)
      return false;
    if (!parts_.empty() && parts_.back()->names.empty()
        && (uri_.size() < parts_.back()->literal.size()
            || uri_.substr(uri_.size() - parts_.back()->literal.size()) != parts_.back()->literal))
      return false;
    if (!at(0, 0))
      return false;
    for (auto& [name, b] : bound_)
      if (b.value)
        out.emplace(name, std::move(*b.value));
    return true;
  }

  /// After run(): whether the budget ran out (a refusal, not a verdict).
  bool gave_up() const { return budget_ == 0; }

private:
  bool at(std::size_t index, std::size_t pos) {
    if (index == parts_.size())
      return pos == uri_.size();
    auto key = (static_cast<std::uint64_t>(index) << 40) | pos;
    bool memo = parts_[index]->independent;
    if (memo && dead_.count(key))
      return false;
    if (try_part(index, pos))
      return true;
    if (memo)
      dead_.insert(key);
    return false;
  }

  bool try_part(std::size_t index, std::size_t pos) {
    const auto& p = *parts_[index];
    auto rest = uri_.substr(pos);
    if (p.names.empty())
      return rest.substr(0, p.literal.size()) == p.literal && at(index + 1, pos + p.literal.size());
    auto limit = extent(*p.rules, rest);
    if (index + 1 == parts_.size()) // the last expression takes the whole rest
      return limit == rest.size() && try_end(index, pos, rest.size());
    // Otherwise longest first, backing off until the rest matches too.
    const auto& next = *parts_[index + 1];
    if (next.names.empty()) {
      for (std::size_t len = limit + 1; len-- > 0 && spend(1);)
        if (rest.compare(len, next.literal.size(), next.literal) == 0 && try_end(index, pos, len))
          return true;
      return false;
    }
    // Before an operator with a prefix (`{+path}{#section}`, `{id}{?q}`),
    // ends where that prefix follows come first, so the optional part gets
    // its value instead of being swallowed by a greedy reserved expression.
    std::string_view prefix = next.rules->first;
    auto starts_next = [&](std::size_t len) {
      return !prefix.empty() && rest.compare(len, prefix.size(), prefix) == 0;
    };
    for (std::size_t len = limit + 1; len-- > 0 && spend(1);)
      if (starts_next(len) && try_end(index, pos, len))
        return true;
    for (std::size_t len = limit + 1; len-- > 0 && spend(1);)
      if (!starts_next(len) && try_end(index, pos, len))
        return true;
    return false;
  }

  // Expression `index` covers uri_[pos, pos + len), agrees with what is
  // bound, and the rest matches.
  bool try_end(std::size_t index, std::size_t pos, std::size_t len) {
    if (!spend(len + 1))
      return false;
    struct where {
      std::size_t index, end;
    } here{index, pos + len};
    // One reference captured: the taker fits std::function's own storage.
    return read_expression(
      *parts_[index], uri_.substr(pos, len),
      [&here, this](const uri_template::variables& mine) { return take(here.index, here.end, mine); },
      budget_);
  }

  // Expression `index`, read as `mine`, agrees with what is bound, and the
  // rest from `end` matches. Every name of the expression binds: its value
  // here, or undefined.
  bool take(std::size_t index, std::size_t end, const uri_template::variables& mine) {
    const auto& names = parts_[index]->names;
    bool agrees = true;
    for (auto& name : names) {
      auto m = mine.find(name);
      const std::string* here = m == mine.end() ? nullptr : &m->second;
      auto it = bound_.find(name);
      if (it == bound_.end()) {
        bound_.emplace(name, binding{here ? std::optional<std::string>(*here) : std::nullopt, index});
      } else if (it->second.value.has_value() != (here != nullptr) || (here && *it->second.value != *here)) {
        agrees = false;
        break;
      }
    }
    if (agrees && at(index + 1, end))
      return true;
    for (auto& name : names)
      if (auto it = bound_.find(name); it != bound_.end() && it->second.by == index)
        bound_.erase(it);
    return false;
  }

  // How far this expression could reach from the start of `rest`.
  static std::size_t extent(const op_rules& r, std::string_view rest) {
    std::size_t skip = std::string_view(r.first).size();
    if (rest.substr(0, skip) != r.first)
      return 0;
    for (std::size_t i = skip; i < rest.size(); ++i)
      if (contains(r.never, rest[i]))
        return i;
    return rest.size();
  }

  bool spend(std::size_t steps) {
    if (steps > budget_) {
      budget_ = 0;
      return false;
    }
    budget_ -= steps;
    return true;
  }

  const parts_t& parts_;
  std::string_view uri_;
  std::size_t budget_;
  std::unordered_set<std::uint64_t> dead_;
  // What the expressions read so far, down the current path, made of each
  // name: its value, or undefined (a name is defined everywhere it stands
  // or nowhere).
  struct binding {
    std::optional<std::string> value;
    std::size_t by; // the expression that bound it first (undone with it)
  };
  std::map<std::string, binding> bound_;
};

} // namespace

uri_template::uri_template(std::string text) : text_(std::move(text)) {
  std::vector<std::shared_ptr<part>> built;
  std::size_t i = 0;
  while (i < text_.size()) {
    auto open = text_.find('{', i);
    auto close_before = text_.find('}', i);
    if (close_before < open)
      throw std::invalid_argument("unbalanced '}' in URI template: " + text_);
    if (open != i) {
      auto p = std::make_shared<part>();
      p->literal = text_.substr(i, open - i);
      built.push_back(std::move(p));
    }
    if (open == std::string::npos)
      break;
    auto close = text_.find('}', open);
    if (close == std::string::npos)
      throw std::invalid_argument("unbalanced '{' in URI template: " + text_);
    std::string_view body(text_.data() + open + 1, close - open - 1);
    if (body.find('{') != std::string_view::npos)
      throw std::invalid_argument("nested '{' in URI template: " + text_);
    auto p = std::make_shared<part>();
    char op = body.empty() ? '\0' : body.front();
    if (op != '\0' && contains("=,!@|", op))
      throw std::invalid_argument(std::string("reserved operator '") + op + "' in URI template: " + text_);
    p->rules = rules_for(op);
    if (p->rules && op != '\0')
      body.remove_prefix(1);
    else
      p->rules = rules_for('\0');
    for (auto name : split(body, ',')) {
      if (!name.empty() && (name.back() == '*' || name.find(':') != std::string_view::npos))
        throw std::invalid_argument("level-4 modifiers (':' and '*') are not supported: " + text_);
      if (!valid_name(name))
        throw std::invalid_argument("bad variable name '" + std::string(name)
                                    + "' in URI template: " + text_);
      p->names.emplace_back(name);
      names_.emplace_back(name);
    }
    built.push_back(std::move(p));
    i = close + 1;
  }
  // Which parts are independent of those before them (see part): a name
  // whose first place is f and last place l makes the parts f+1..l
  // dependent (marked as ranges, not place by place).
  std::map<std::string_view, std::pair<std::size_t, std::size_t>> places; // name -> first, last
  for (std::size_t at = 0; at < built.size(); ++at)
    for (auto& n : built[at]->names)
      places.try_emplace(n, at, at).first->second.second = at;
  std::vector<int> opened(built.size() + 1, 0);
  for (auto& [name, range] : places)
    if (range.first < range.second) {
      ++opened[range.first + 1];
      --opened[range.second + 1];
    }
  int spanning = 0;
  for (std::size_t at = 0; at < built.size(); ++at) {
    spanning += opened[at];
    built[at]->independent = spanning == 0;
  }
  parts_.assign(built.begin(), built.end());
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
  return try_match(uri).values;
}

uri_template::match_result uri_template::try_match(std::string_view uri) const {
  variables vars;
  matcher m(parts_, uri);
  if (m.run(vars))
    return {std::move(vars), false};
  return {std::nullopt, m.gave_up()};
}

} // namespace cafmcp
