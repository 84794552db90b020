#include "foundation/plain_schema.hpp"

#include <algorithm>
#include <string_view>

namespace cafmcp {
namespace {

// Keywords that never make a value invalid.
bool annotation(std::string_view key) {
  static constexpr std::string_view names[] = {"title",    "description", "default",  "examples",
                                               "$comment", "deprecated",  "readOnly", "writeOnly"};
  return std::find(std::begin(names), std::end(names), key) != std::end(names);
}

// Schemas nest no deeper than a message may (jsonrpc::parse's limit is 64);
// deeper ones are left to valijson, which schema_dialect bounds.
constexpr int max_depth = 64;

} // namespace

std::optional<plain_schema> plain_schema::from(const json& schema) {
  auto root = compile(schema, 0);
  if (!root)
    return std::nullopt;
  return plain_schema(std::move(root));
}

std::unique_ptr<plain_schema::node> plain_schema::compile(const json& s, int depth) {
  if (depth > max_depth)
    return nullptr;
  auto n = std::make_unique<node>();
  if (s.is_boolean()) {
    n->never = !s.get<bool>();
    return n;
  }
  if (!s.is_object())
    return nullptr;
  for (auto& member : s.items()) {
    // Named, not bound: clang before 16 cannot capture a structured binding.
    const std::string& key = member.key();
    const json& v = member.value();
    if (annotation(key))
      continue;
    if (key == "type") {
      static constexpr std::pair<std::string_view, type> names[] = {
        {"null", type::null},     {"boolean", type::boolean}, {"integer", type::integer},
        {"number", type::number}, {"string", type::string},   {"object", type::object},
        {"array", type::array}};
      if (!v.is_string())
        return nullptr; // a list of types: valijson
      auto named = std::find_if(std::begin(names), std::end(names),
                                [&v](auto& entry) { return entry.first == v.get_ref<const std::string&>(); });
      if (named == std::end(names))
        return nullptr;
      n->is = named->second;
    } else if (key == "properties") {
      if (!v.is_object())
        return nullptr;
      for (auto& [name, sub] : v.items()) {
        auto child = compile(sub, depth + 1);
        if (!child)
          return nullptr;
        n->properties.emplace_back(name, std::move(child));
      }
    } else if (key == "required") {
      if (!v.is_array())
        return nullptr;
      for (auto& name : v) {
        if (!name.is_string())
          return nullptr;
        n->required.push_back(name.get<std::string>());
      }
    } else if (key == "additionalProperties" || key == "items") {
      if (v.is_array())
        return nullptr; // `items` as a tuple (drafts before 2020-12): valijson
      auto child = compile(v, depth + 1);
      if (!child)
        return nullptr;
      (key == "items" ? n->items : n->additional) = std::move(child);
    } else if (key == "enum") {
      if (!v.is_array())
        return nullptr;
      std::vector<std::string> names;
      for (auto& e : v) {
        if (!e.is_string())
          return nullptr; // numbers compare by value, objects by members: valijson
        names.push_back(e.get<std::string>());
      }
      n->one_of_strings = std::move(names);
    } else {
      return nullptr;
    }
  }
  return n;
}

bool plain_schema::is_a(type t, const json& value) {
  switch (t) {
    case type::any: return true;
    case type::null: return value.is_null();
    case type::boolean: return value.is_boolean();
    // Only integers as written: 3.0 is one too, and schema_validator's
    // normalization (for valijson) decides it.
    case type::integer: return value.is_number_integer();
    case type::number: return value.is_number();
    case type::string: return value.is_string();
    case type::object: return value.is_object();
    case type::array: return value.is_array();
  }
  return false;
}

bool plain_schema::accepts(const node& n, const json& value) {
  if (n.never || !is_a(n.is, value))
    return false;
  if (n.one_of_strings) {
    if (!value.is_string())
      return false;
    auto& text = value.get_ref<const std::string&>();
    if (std::find(n.one_of_strings->begin(), n.one_of_strings->end(), text) == n.one_of_strings->end())
      return false;
  }
  if (value.is_object()) {
    for (auto& name : n.required)
      if (!value.contains(name))
        return false;
    for (auto& entry : value.items()) {
      const std::string& key = entry.key();
      const json& member = entry.value();
      auto known =
        std::find_if(n.properties.begin(), n.properties.end(), [&key](auto& p) { return p.first == key; });
      const node* rule = known != n.properties.end() ? known->second.get() : n.additional.get();
      if (rule && !accepts(*rule, member))
        return false;
    }
  } else if (value.is_array() && n.items) {
    for (auto& item : value)
      if (!accepts(*n.items, item))
        return false;
  }
  return true;
}

} // namespace cafmcp
