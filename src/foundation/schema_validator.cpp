#include "foundation/schema_validator.hpp"

#include <stdexcept>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

namespace cafmcp {

struct schema_validator::impl {
  json document; // valijson's schema refers into it
  valijson::Schema schema;
};

schema_validator::schema_validator(const json& schema) : impl_(std::make_unique<impl>()) {
  if (!schema.is_object())
    throw std::invalid_argument("a JSON Schema must be an object");
  impl_->document = schema;
  impl_->document.erase("$schema");
  try {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::NlohmannJsonAdapter adapter(impl_->document);
    parser.populateSchema(adapter, impl_->schema);
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("invalid JSON Schema: ") + e.what());
  }
}

schema_validator::~schema_validator() = default;

std::optional<std::string> schema_validator::validate(const json& instance) const {
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter target(instance);
  if (validator.validate(impl_->schema, target, &results))
    return std::nullopt;
  std::string out;
  valijson::ValidationResults::Error err;
  while (results.popError(err)) {
    std::string where;
    for (auto& part : err.context)
      if (part != "<root>")
        where += "/" + (part.size() > 2 && part.front() == '[' ? part.substr(1, part.size() - 2) : part);
    if (!out.empty())
      out += "; ";
    out += (where.empty() ? "/" : where) + ": " + err.description;
  }
  return out.empty() ? std::optional<std::string>("does not match the schema") : out;
}

} // namespace cafmcp
