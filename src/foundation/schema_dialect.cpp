#include "foundation/schema_dialect.hpp"

#include <map>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "foundation/ecma_pattern.hpp"
#include "foundation/percent_encoding.hpp"

namespace cafmcp::schema_dialect {
namespace {

enum class style { draft3, draft4, draft7, modern };

style style_of(const json& root) {
  if (!root.is_object() || !root.contains("$schema") || !root["$schema"].is_string())
    return style::modern;
  auto uri = root["$schema"].get<std::string>();
  auto has = [&uri](const char* s) { return uri.find(s) != std::string::npos; };
  if (has("draft-03"))
    return style::draft3;
  if (has("draft-04"))
    return style::draft4;
  if (has("draft-06") || has("draft-07"))
    return style::draft7;
  return style::modern; // 2020-12, 2019-09, or a dialect we read as the default
}

std::string escape(std::string_view token) {
  std::string out;
  for (char c : token) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

enum class shape { one, list, map };

struct keyword {
  const char* name;
  shape form;
  bool in_place; // applies to the same value rather than to a part of it
};

// Where subschemas live. `items` is listed as `one` and read as a list when
// it holds an array (drafts before 2020-12).
constexpr keyword keywords[] = {
  {"allOf", shape::list, true},
  {"anyOf", shape::list, true},
  {"oneOf", shape::list, true},
  {"not", shape::one, true},
  {"if", shape::one, true},
  {"then", shape::one, true},
  {"else", shape::one, true},
  {"dependencies", shape::map, true},
  {"dependentSchemas", shape::map, true},
  {"items", shape::one, false},
  {"prefixItems", shape::list, false},
  {"additionalItems", shape::one, false},
  {"unevaluatedItems", shape::one, false},
  {"contains", shape::one, false},
  {"properties", shape::map, false},
  {"patternProperties", shape::map, false},
  {"additionalProperties", shape::one, false},
  {"unevaluatedProperties", shape::one, false},
  {"propertyNames", shape::one, false},
  {"contentSchema", shape::one, false},
  {"$defs", shape::map, false},
  {"definitions", shape::map, false},
};

bool is_schema(const json& j) { return j.is_object() || j.is_boolean(); }

// What translate() moved inside one node, so that pointers written against
// the original document can be followed into the translated one.
struct renames {
  bool prefix_items = false;                  // prefixItems -> items
  bool items_to_additional = false;           // items -> additionalItems
  bool unevaluated = false;                   // unevaluatedProperties -> additionalProperties
  std::vector<std::string> dependent_schemas; // dependentSchemas/k -> dependencies/k
  std::optional<std::size_t> wrapped_ref;     // allOf/i is the node's own $ref
};

class preparer {
public:
  explicit preparer(style s) : style_(s) {}

  prepared run(const json& schema) {
    if (!is_schema(schema))
      throw std::invalid_argument("a JSON Schema must be an object or a boolean, not "
                                  + std::string(schema.type_name()));
    prepared out;
    out.document = schema;
    out.parse_as = style_ == style::draft3 ? draft::v3 : style_ == style::draft4 ? draft::v4 : draft::v7;
    if (schema.is_object() && schema.contains("$id") && schema["$id"].is_string()) {
      base_ = schema["$id"].get<std::string>();
      base_ = base_.substr(0, base_.find('#'));
    }
    walk(out.document, std::string(), std::string());
    for (auto& holder : refs_) {
      auto& node = out.document.at(json::json_pointer(holder));
      auto target = resolve(node["$ref"].get<std::string>(), holder);
      node["$ref"] = "#" + target;
      in_place_[holder].push_back(target);
    }
    check_cycles();
    return out;
  }

private:
  void walk(json& node, const std::optional<std::string>& orig, const std::string& now) {
    if (orig)
      moved_[*orig] = now;
    if (!node.is_object())
      return;
    collect_anchors(node, now);
    renames r;
    if (style_ == style::modern)
      r = translate(node, now);
    if (node.contains("$ref")) {
      if (!node["$ref"].is_string())
        throw std::invalid_argument("$ref must be a string at '" + now + "'");
      refs_.push_back(now);
    }
    check_patterns(node, now);
    // Before 2020-12 a $ref replaces its siblings, so they apply nothing.
    bool siblings_apply = !node.contains("$ref");
    for (auto& kw : keywords) {
      auto it = node.find(kw.name);
      if (it == node.end())
        continue;
      std::string kw_now = now + "/" + kw.name;
      std::optional<std::string> kw_orig;
      if (orig)
        kw_orig = *orig + "/" + original_keyword(kw.name, r);
      auto visit = [&](json& child, const std::string& child_now, std::optional<std::string> child_orig) {
        if (!is_schema(child))
          return; // e.g. the property-name lists of `dependencies`
        if (kw.in_place && siblings_apply)
          in_place_[now].push_back(child_now);
        walk(child, child_orig, child_now);
      };
      auto under = [](const std::optional<std::string>& base, const std::string& token) {
        return base ? std::optional<std::string>(*base + "/" + token) : std::nullopt;
      };
      bool is_all_of = std::string_view(kw.name) == "allOf";
      if ((kw.form == shape::list || kw.form == shape::one) && it->is_array()) {
        for (std::size_t i = 0; i < it->size(); ++i) {
          auto token = std::to_string(i);
          bool fresh = is_all_of && r.wrapped_ref && i == *r.wrapped_ref;
          visit((*it)[i], kw_now + "/" + token, fresh ? std::nullopt : under(kw_orig, token));
        }
      } else if (kw.form == shape::map && it->is_object()) {
        for (auto& [key, child] : it->items()) {
          auto token = escape(key);
          auto child_orig = under(kw_orig, token);
          if (orig && kw.name == std::string_view("dependencies"))
            for (auto& k : r.dependent_schemas)
              if (k == key)
                child_orig = *orig + "/dependentSchemas/" + token;
          visit(child, kw_now + "/" + token, child_orig);
        }
      } else if (kw.form == shape::one) {
        if (!is_schema(*it))
          throw std::invalid_argument(std::string(kw.name) + " must hold a schema at '" + now + "'");
        visit(*it, kw_now, kw_orig);
      }
    }
  }

  // 2020-12 spellings rewritten into their draft-7 equivalents.
  renames translate(json& node, const std::string& now) {
    renames r;
    // Both dependent* keywords merge into draft 7's `dependencies`, which
    // must then be an object of schemas or name lists; anything else was a
    // json::type_error out of prepare() (found by fuzz/schema_dialect).
    auto dependencies = [&]() -> json& {
      if (!node.contains("dependencies"))
        node["dependencies"] = json::object();
      auto& deps = node["dependencies"];
      if (!deps.is_object())
        throw std::invalid_argument("dependencies must be an object at '" + now + "'");
      return deps;
    };
    node.erase("$schema");
    // 2020-12's default vocabulary makes `format` an annotation only.
    node.erase("format");
    for (auto key : {"$dynamicRef", "$recursiveRef"})
      if (node.contains(key)) {
        if (!node.contains("$ref"))
          node["$ref"] = node[key];
        node.erase(key);
      }
    if (node.contains("prefixItems")) {
      if (node.contains("items")) {
        node["additionalItems"] = std::move(node["items"]);
        r.items_to_additional = true;
      }
      node["items"] = std::move(node["prefixItems"]);
      node.erase("prefixItems");
      r.prefix_items = true;
    }
    if (node.contains("dependentSchemas") && node["dependentSchemas"].is_object()) {
      auto& deps = dependencies();
      for (auto& [key, schema] : node["dependentSchemas"].items()) {
        deps[key] = schema;
        r.dependent_schemas.push_back(key);
      }
      node.erase("dependentSchemas");
    }
    if (node.contains("dependentRequired") && node["dependentRequired"].is_object()) {
      auto& deps = dependencies();
      for (auto& [key, names] : node["dependentRequired"].items()) {
        if (!names.is_array())
          throw std::invalid_argument("dependentRequired/" + key + " must be an array of names at '" + now
                                      + "'");
        if (!deps.contains(key)) {
          deps[key] = names;
        } else if (deps[key].is_object()) {
          // Both forms for one property: the schema also requires the names.
          auto& req = deps[key]["required"];
          if (!req.is_null() && !req.is_array())
            throw std::invalid_argument("required must be an array at '" + now + "/dependencies/" + key
                                        + "'");
          for (auto& n : names)
            req.push_back(n);
        } else if (deps[key] == json(true)) {
          deps[key] = json{{"required", names}};
        }
      }
      node.erase("dependentRequired");
    }
    // From 2019-09 on, $ref is one keyword among others instead of
    // replacing them; allOf gives draft 7 the same meaning.
    if (node.contains("$ref") && node.size() > 1) {
      json ref = {{"$ref", std::move(node["$ref"])}};
      node.erase("$ref");
      auto& all = node["allOf"];
      if (!all.is_array())
        all = json::array();
      all.push_back(std::move(ref));
      r.wrapped_ref = all.size() - 1;
    }
    // Without in-place applicators nothing else can evaluate a property,
    // so unevaluatedProperties means exactly additionalProperties.
    if (node.contains("unevaluatedProperties") && !node.contains("additionalProperties")
        && !node.contains("allOf") && !node.contains("anyOf") && !node.contains("oneOf")
        && !node.contains("if") && !node.contains("dependencies") && !node.contains("$ref")) {
      node["additionalProperties"] = std::move(node["unevaluatedProperties"]);
      node.erase("unevaluatedProperties");
      r.unevaluated = true;
    }
    return r;
  }

  static std::string original_keyword(std::string_view now, const renames& r) {
    if (now == "items" && r.prefix_items)
      return "prefixItems";
    if (now == "additionalItems" && r.items_to_additional)
      return "items";
    if (now == "additionalProperties" && r.unevaluated)
      return "unevaluatedProperties";
    return std::string(now);
  }

  void collect_anchors(json& node, const std::string& now) {
    for (auto key : {"$anchor", "$dynamicAnchor"})
      if (node.contains(key) && node[key].is_string()) {
        anchors_[node[key].get<std::string>()] = now;
        node.erase(key);
      }
    // `"$id": "#name"` (drafts 6/7) and `"id": "#name"` (draft 4) are
    // anchors; other ids would move the base URI, which only remote
    // references need, and those are refused anyway.
    for (auto key : {"$id", "id"})
      if (node.contains(key) && node[key].is_string()) {
        auto id = node[key].get<std::string>();
        auto hash = id.find('#');
        if (hash != std::string::npos && hash + 1 < id.size())
          anchors_[id.substr(hash + 1)] = now;
        node.erase(key);
      }
  }

  // `pattern` is compiled as schema_validator will match it (Boost.Regex);
  // `patternProperties` keys as schema_validator will (Boost.Regex,
  // valijson_pattern_properties.hpp).
  void check_patterns(json& node, const std::string& now) {
    auto refuse = [&now](const std::string& pattern, const char* why) {
      auto shown = pattern.size() > 100 ? pattern.substr(0, 100) + "..." : pattern;
      throw std::invalid_argument("invalid regular expression '" + shown + "' at '" + now + "': " + why);
    };
    if (node.contains("pattern") && node["pattern"].is_string()) {
      auto pattern = node["pattern"].get<std::string>();
      try {
        ecma_pattern checked(pattern);
      } catch (const std::invalid_argument& e) {
        refuse(pattern, e.what());
      }
      node[pattern_keyword] = std::move(node["pattern"]);
      node.erase("pattern");
    }
    if (node.contains("patternProperties") && node["patternProperties"].is_object()) {
      for (auto& [key, ignored] : node["patternProperties"].items()) {
        try {
          ecma_pattern checked(key);
        } catch (const std::invalid_argument& e) {
          refuse(key, e.what());
        }
      }
    }
    // 2020-12 drops `format` (an annotation there); before it, valijson
    // would check date, time and date-time with std::regex.
    if (node.contains("format") && node["format"].is_string()) {
      node[format_keyword] = std::move(node["format"]);
      node.erase("format");
    }
  }

  std::string resolve(std::string ref, const std::string& where) const {
    if (ref.empty() || ref.front() != '#') {
      if (base_.empty() || ref.compare(0, base_.size(), base_) != 0)
        throw std::invalid_argument("$ref '" + ref + "' at '" + where
                                    + "' is not local to the schema (remote references are "
                                      "not supported)");
      ref = ref.substr(base_.size());
      if (ref.empty())
        return "";
    }
    // The fragment is URI-encoded; the pointer or anchor inside is not.
    auto raw_fragment = std::string_view(ref).substr(1);
    auto fragment = detail::percent_decode(raw_fragment).value_or(std::string(raw_fragment));
    if (fragment.empty())
      return "";
    if (fragment.front() == '/') {
      auto it = moved_.find(fragment);
      if (it == moved_.end())
        throw std::invalid_argument("$ref '" + ref + "' at '" + where
                                    + "' does not point to a schema in this document");
      return it->second;
    }
    auto it = anchors_.find(fragment);
    if (it == anchors_.end())
      throw std::invalid_argument("$ref '" + ref + "' at '" + where + "' names no $anchor");
    return it->second;
  }

  // A schema that reaches itself without descending into the value (for
  // instance `{"$ref":"#"}` under the root's allOf) would make validation
  // recurse forever.
  void check_cycles() const {
    enum class mark { open, done };
    std::map<std::string, mark> seen;
    for (auto& [start, ignored] : in_place_) {
      if (seen.count(start))
        continue;
      // Depth-first without recursion: (node, index of the next edge).
      std::vector<std::pair<std::string, std::size_t>> stack{{start, 0}};
      seen[start] = mark::open;
      while (!stack.empty()) {
        auto& [node, next] = stack.back();
        auto edges = in_place_.find(node);
        if (edges == in_place_.end() || next == edges->second.size()) {
          seen[node] = mark::done;
          stack.pop_back();
          continue;
        }
        const auto& to = edges->second[next++];
        auto s = seen.find(to);
        if (s == seen.end()) {
          seen[to] = mark::open;
          stack.emplace_back(to, 0);
        } else if (s->second == mark::open) {
          throw std::invalid_argument("the schema at '" + (to.empty() ? std::string("#") : to)
                                      + "' refers back to itself without descending into the "
                                        "value ($ref cycle)");
        }
      }
    }
  }

  style style_;
  std::string base_;                           // the root's $id without fragment
  std::map<std::string, std::string> moved_;   // original pointer -> translated pointer
  std::map<std::string, std::string> anchors_; // anchor name -> translated pointer
  std::vector<std::string> refs_;              // nodes holding a $ref
  std::map<std::string, std::vector<std::string>> in_place_;
};

} // namespace

prepared prepare(const json& schema) {
  auto s = style_of(schema);
  auto out = preparer(s).run(schema);
  if (out.document.is_object())
    out.document.erase("$schema");
  return out;
}

} // namespace cafmcp::schema_dialect
