#include "foundation/schema_validator.hpp"

#include <cmath>
#include <limits>
#include <new>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

// Without this valijson reports a bad schema by printing and calling abort().
#define VALIJSON_USE_EXCEPTIONS 1
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include "foundation/valijson_pattern_properties.hpp" // before the first validation

#include "foundation/ecma_pattern.hpp"
#include "foundation/plain_schema.hpp"
#include "foundation/schema_dialect.hpp"

namespace cafmcp {

struct schema_validator::impl {
  json document; // valijson's compiled schema refers into it
  valijson::Schema schema;
  std::optional<plain_schema> plain; // a quick yes for most tool inputs
};

namespace {

// `pattern`, matched with Boost.Regex (ecma_pattern.hpp) in place of
// valijson's std::regex. The messages are valijson's own.
class pattern_constraint : public valijson::constraints::PolyConstraint {
public:
  explicit pattern_constraint(const std::string& text) : pattern_(text) {}

  bool validate(const valijson::adapters::Adapter& target, const std::vector<std::string>& context,
                valijson::ValidationResults* results) const override {
    if (!target.isString())
      return true;
    bool matched = false;
    const char* failure = "Failed to match regex specified by 'pattern' constraint.";
    try {
      matched = pattern_.search(target.asString());
    } catch (const std::runtime_error&) { // past Boost.Regex's bounds: fail closed
      failure = "String too long or pattern too complex to check against 'pattern'.";
    }
    if (!matched && results)
      results->pushError(context, failure);
    return matched;
  }

private:
  valijson::constraints::Constraint* cloneInto(void* where) const override {
    return new (where) pattern_constraint(*this);
  }
  size_t sizeOf() const override { return sizeof(pattern_constraint); }

  ecma_pattern pattern_;
};

// `format` before 2020-12: date, time and date-time as valijson checks them
// (the same expressions and day ranges), matched with Boost.Regex; other
// formats are annotations, as in valijson.
class format_constraint : public valijson::constraints::PolyConstraint {
public:
  explicit format_constraint(std::string format) : format_(std::move(format)) {}

  bool validate(const valijson::adapters::Adapter& target, const std::vector<std::string>& context,
                valijson::ValidationResults* results) const override {
    static const ecma_pattern date("^([0-9]+)-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])$");
    static const ecma_pattern time(
      "^([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9]|60)(\\.[0-9]+)?(([Zz])|([\\+|\\-]([01][0-9]|2[0-3]):[0-5][0-9]))$");
    static const ecma_pattern date_time(
      "^([0-9]+)-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])[Tt]([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9]|60)"
      "(\\.[0-9]+)?(([Zz])|([\\+|\\-]([01][0-9]|2[0-3]):[0-5][0-9]))$");
    const ecma_pattern* shape = format_ == "date" ? &date
                                : format_ == "time" ? &time
                                : format_ == "date-time" ? &date_time
                                                         : nullptr;
    if (!shape || !target.isString())
      return true;
    auto s = target.asString();
    bool ok = false;
    try {
      ok = shape->search(s) && (shape == &time || day_fits(s));
    } catch (const std::runtime_error&) {
    }
    if (!ok && results)
      results->pushError(context, "String should be a valid " + format_);
    return ok;
  }

private:
  // "YYYY...-MM-DD": the day within its month (February: 29).
  static bool day_fits(const std::string& s) {
    auto dash = s.find('-');
    int month = std::stoi(s.substr(dash + 1, 2)), day = std::stoi(s.substr(dash + 4, 2));
    int limit = month == 2 ? 29 : (month <= 7) == (month % 2 == 1) ? 31 : 30;
    return day <= limit;
  }
  valijson::constraints::Constraint* cloneInto(void* where) const override {
    return new (where) format_constraint(*this);
  }
  size_t sizeOf() const override { return sizeof(format_constraint); }

  std::string format_;
};

struct pattern_builder : valijson::ConstraintBuilder {
  valijson::constraints::Constraint* make(const valijson::adapters::Adapter& value) const override {
    if (!value.maybeString())
      throw std::invalid_argument("pattern must be a string");
    return new pattern_constraint(value.asString());
  }
};

struct format_builder : valijson::ConstraintBuilder {
  valijson::constraints::Constraint* make(const valijson::adapters::Adapter& value) const override {
    if (!value.maybeString())
      throw std::invalid_argument("format must be a string");
    return new format_constraint(value.asString());
  }
};

valijson::SchemaParser::Version parser_version(schema_dialect::draft d) {
  switch (d) {
    case schema_dialect::draft::v3: return valijson::SchemaParser::kDraft3;
    case schema_dialect::draft::v4: return valijson::SchemaParser::kDraft4;
    default: return valijson::SchemaParser::kDraft7;
  }
}

bool is_integral_float(const json& v) {
  if (!v.is_number_float())
    return false;
  double d = v.get<double>();
  return std::isfinite(d) && std::trunc(d) == d
         && std::fabs(d) < static_cast<double>(std::numeric_limits<std::int64_t>::max());
}

bool has_integral_float(const json& v) {
  if (is_integral_float(v))
    return true;
  if (v.is_structured())
    for (auto& child : v)
      if (has_integral_float(child))
        return true;
  return false;
}

// JSON Schema counts 3.0 as an integer; valijson, looking at how the number
// was written, does not.
void integral_floats_to_integers(json& v) {
  if (is_integral_float(v))
    v = static_cast<std::int64_t>(v.get<double>());
  else if (v.is_structured())
    for (auto& child : v)
      integral_floats_to_integers(child);
}

std::string type_of(const json& v) {
  if (v.is_number_integer())
    return "integer";
  if (v.is_number())
    return "number";
  return v.type_name();
}

// Follows an instance path through the schema far enough to say what was
// expected there; nullptr when composition makes that ambiguous.
class schema_lookup {
public:
  explicit schema_lookup(const json& root) : root_(root) {}

  const json* at(const std::vector<std::string>& path, const json& instance) const {
    const json* schema = deref(&root_);
    const json* value = &instance;
    for (auto& token : path) {
      if (!schema || !schema->is_object() || !value)
        return nullptr;
      if (value->is_object()) {
        value = value->contains(token) ? &(*value)[token] : nullptr;
        schema = property(*schema, token);
      } else if (value->is_array()) {
        auto index = std::stoul(token);
        value = index < value->size() ? &(*value)[index] : nullptr;
        schema = item(*schema, index);
      } else {
        return nullptr;
      }
      schema = deref(schema);
    }
    return schema;
  }

private:
  const json* deref(const json* s) const {
    for (int hops = 0; s && s->is_object() && s->contains("$ref") && hops < 32; ++hops) {
      auto ref = (*s)["$ref"].get<std::string>(); // "#" or "#/pointer" after prepare()
      json::json_pointer p(ref.substr(1));
      s = root_.contains(p) ? &root_.at(p) : nullptr;
    }
    return s;
  }

  static const json* property(const json& s, const std::string& name) {
    if (s.contains("properties") && s["properties"].contains(name))
      return &s["properties"][name];
    if (s.contains("additionalProperties") && s["additionalProperties"].is_object())
      return &s["additionalProperties"];
    return nullptr;
  }

  static const json* item(const json& s, std::size_t index) {
    if (!s.contains("items"))
      return nullptr;
    const auto& items = s["items"];
    if (items.is_object())
      return &items;
    if (items.is_array() && index < items.size())
      return &items[index];
    if (items.is_array() && s.contains("additionalItems") && s["additionalItems"].is_object())
      return &s["additionalItems"];
    return nullptr;
  }

  const json& root_;
};

std::string pointer_of(const std::vector<std::string>& path) {
  if (path.empty())
    return "/";
  std::string out;
  for (auto& token : path) {
    out += '/';
    for (char c : token)
      out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  }
  return out;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

// valijson prints limits with std::to_string: "3.000000" reads better as
// "3", "2.500000" as "2.5". A scan, not std::regex: messages quote names
// from the schema and the instance, and std::regex recursed once per digit
// (a dependency named by a megabyte of digits overflowed the stack).
std::string tidy_numbers(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (!(is_digit(text[i]) && i + 1 < text.size() && text[i + 1] == '.')) {
      out += text[i++];
      continue;
    }
    out += text[i]; // a digit, then a point: the fraction's trailing zeros go
    std::size_t begin = i + 2, end = begin;
    while (end < text.size() && is_digit(text[end]))
      ++end;
    std::size_t kept = end; // "1.00x" is no number to tidy
    if (end == text.size() || !is_word(text[end]))
      while (kept > begin && text[kept - 1] == '0')
        --kept;
    if (kept > begin) // else a bare point after a number goes too ("3." is "3")
      out.append(text, i + 1, kept - i - 1); // the point and what is left
    i = end;
  }
  return out;
}

// valijson's summary that a property or item failed: which one.
std::optional<std::string> failed_child(std::string_view d) {
  constexpr std::string_view property = "Failed to validate against schema associated with property name '";
  constexpr std::string_view item = "Failed to validate item #";
  if (starts_with(d, property)) {
    auto rest = d.substr(property.size());
    auto end = rest.rfind('\'');
    return std::string(rest.substr(0, end));
  }
  if (starts_with(d, item)) {
    auto rest = d.substr(item.size());
    return std::string(rest.substr(0, rest.find(' ')));
  }
  return std::nullopt;
}

// One violation in our words, or nothing for valijson's summaries of
// errors it has already reported at the deeper path.
std::optional<std::string> describe(const std::string& description, const json* schema, const json* value) {
  std::string_view d = description;
  if (starts_with(d, "Failed to validate against child schema #")
      || starts_with(d, "Failed to validate against additional properties schema")
      || starts_with(d, "Failed to validate against schema associated with pattern '"))
    return std::nullopt;
  if (d == "Value type not permitted by 'type' constraint.") {
    std::string got = value ? ", got " + type_of(*value) : std::string();
    if (schema && schema->is_object() && schema->contains("type")) {
      const auto& t = (*schema)["type"];
      std::string expected;
      if (t.is_string()) {
        expected = t.get<std::string>();
      } else if (t.is_array()) {
        for (auto& one : t)
          if (one.is_string())
            expected += (expected.empty() ? "" : " or ") + one.get<std::string>();
      }
      if (!expected.empty())
        return "expected " + expected + got;
    }
    return "wrong type" + got;
  }
  if (starts_with(d, "Missing required property '"))
    return "missing required property " + std::string(d.substr(26, d.size() - 27));
  const std::string_view unexpected =
    "Object contains a property that could not be validated using 'properties' or "
    "'additionalProperties' constraints: ";
  if (starts_with(d, unexpected)) {
    auto name = d.substr(unexpected.size());
    if (!name.empty() && name.back() == '.')
      name.remove_suffix(1);
    return "unexpected property " + std::string(name);
  }
  if (d == "Failed to match against any enum values.") {
    if (schema && schema->is_object() && schema->contains("enum"))
      return "must be one of " + (*schema)["enum"].dump();
    return "not one of the allowed values";
  }
  if (d == "Failed to match expected value set by 'const' constraint.") {
    if (schema && schema->is_object() && schema->contains("const"))
      return "must be " + (*schema)["const"].dump();
    return "not the required constant";
  }
  if (d == "Failed to validate against any child schemas allowed by oneOf constraint.")
    return "matches none of the oneOf alternatives";
  if (d == "Failed to validate against exactly one child schema.")
    return "matches more than one of the oneOf alternatives";
  if (d == "Failed to validate against any schemas allowed by anyOf constraint.")
    return "matches none of the anyOf alternatives";
  if (d == "Failed to validate against a conditional schema set by if-then-else constraints.")
    return std::nullopt; // the then/else violation itself is reported
  std::string text = tidy_numbers(description);
  if (!text.empty() && text.back() == '.')
    text.pop_back();
  if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z')
    text[0] = static_cast<char>(text[0] - 'A' + 'a');
  return text;
}

} // namespace

schema_validator::schema_validator(const json& schema) : impl_(std::make_unique<impl>()) {
  auto prepared = schema_dialect::prepare(schema); // throws std::invalid_argument itself
  impl_->document = std::move(prepared.document);
  try {
    valijson::SchemaParser parser(parser_version(prepared.parse_as));
    parser.addConstraintBuilder(schema_dialect::pattern_keyword, new pattern_builder); // the parser owns it
    parser.addConstraintBuilder(schema_dialect::format_keyword, new format_builder);
    valijson::adapters::NlohmannJsonAdapter adapter(impl_->document);
    parser.populateSchema(adapter, impl_->schema);
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("invalid JSON Schema: ") + e.what());
  }
  if (prepared.parse_as != schema_dialect::draft::v3) // whose `required` is another keyword
    impl_->plain = plain_schema::from(impl_->document);
}

schema_validator::~schema_validator() = default;

std::optional<std::string> schema_validator::validate(const json& instance) const {
  if (impl_->plain && impl_->plain->accepts(instance))
    return std::nullopt;
  std::optional<json> normalized;
  if (has_integral_float(instance)) {
    normalized = instance;
    integral_floats_to_integers(*normalized);
  }
  const json& target = normalized ? *normalized : instance;
  // Without a place for results valijson stops at the first failure and
  // keeps no context (a path string per property visited) and no error
  // queue: a valid instance, the usual case, costs that much less. Only an
  // invalid one is walked again for its messages.
  valijson::Validator validator;
  auto apply = [&](valijson::ValidationResults* into) -> std::optional<std::string> {
    try {
      valijson::adapters::NlohmannJsonAdapter adapter(target);
      if (validator.validate(impl_->schema, adapter, into))
        return std::string();
    } catch (const std::exception& e) {
      return std::string("/: the schema could not be applied: ") + e.what();
    }
    return std::nullopt;
  };
  if (auto verdict = apply(nullptr)) // "" valid, else why it could not be applied
    return verdict->empty() ? std::nullopt : verdict;
  valijson::ValidationResults results; // a std::deque: allocates when made
  if (auto verdict = apply(&results))
    return verdict->empty() ? std::nullopt : verdict; // not reached: the same instance and schema
  schema_lookup lookup(impl_->document);
  std::vector<std::string> lines, failed_children;
  valijson::ValidationResults::Error err;
  while (results.popError(err)) {
    std::vector<std::string> path;
    for (auto& part : err.context)
      if (part != "<root>")
        path.push_back(part.size() >= 2 && part.front() == '[' && part.back() == ']'
                         ? part.substr(1, part.size() - 2)
                         : part);
    const json* value = &target;
    for (auto& token : path) {
      if (value && value->is_object() && value->contains(token))
        value = &(*value)[token];
      else if (value && value->is_array() && !token.empty()
               && token.find_first_not_of("0123456789") == std::string::npos
               && std::stoul(token) < value->size())
        value = &(*value)[std::stoul(token)];
      else
        value = nullptr;
    }
    if (auto child = failed_child(err.description)) {
      // Reported again at the child's own path, unless the child schema is
      // `false` and had nothing more specific to say. (valijson gives the
      // tuple-item summary the item's path, the others the parent's.)
      auto child_path = path;
      if (err.description.find("corresponding item schema") == std::string::npos)
        child_path.push_back(*child);
      failed_children.push_back(pointer_of(child_path));
      continue;
    }
    auto text = describe(err.description, value ? lookup.at(path, target) : nullptr, value);
    if (!text)
      continue;
    auto line = pointer_of(path) + ": " + *text;
    bool seen = false;
    for (auto& l : lines)
      seen = seen || l == line;
    if (!seen)
      lines.push_back(std::move(line));
  }
  for (auto& child : failed_children) {
    bool explained = false;
    for (auto& l : lines)
      explained = explained || starts_with(l, child + ":") || starts_with(l, child + "/");
    if (!explained)
      lines.push_back(child + ": not allowed by the schema");
  }
  if (lines.empty())
    return "/: does not match the schema";
  std::string out;
  for (auto& l : lines)
    out += (out.empty() ? "" : "; ") + l;
  return out;
}

} // namespace cafmcp
