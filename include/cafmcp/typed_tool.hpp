#pragma once
// A tool from a C++ argument type and a handler that takes it:
//
//   struct weather_args { std::string city; std::optional<int> days; };
//   CAFMCP_FIELDS(weather_args, (city, "City name"), (days, "Forecast days, 1-7"));
//   srv.add_tool(cafmcp::typed_tool("weather", "Forecast for a city",
//     [](const weather_args& a) { return "Sunny in " + a.city; }));
//
// The inputSchema is derived from the handler's parameter type (or from
// typed_tool<Args>, when named), so schema and handler cannot disagree. The
// server checks arguments against that schema first, as for any tool (an
// `isError` result "Invalid arguments for tool ...", SEP-1303); the handler
// then gets them converted, and a value the schema lets through but the type
// cannot hold (an integer too big for an `int`) becomes the same kind of
// result. The handler may take a request_context& as its second parameter,
// and returns:
//   - cafmcp::tool_result: sent as it is;
//   - a std::string (or what converts to one, as "done"): one text block;
//   - a struct with CAFMCP_FIELDS: the tool declares its outputSchema and the
//     value becomes `structuredContent` (plus its text form, for clients
//     without structured output).
// The result is a plain cafmcp::tool: set title, annotations or quick on it
// before add_tool.
#include <string>
#include <type_traits>
#include <utility>

#include "cafmcp/fields.hpp"
#include "cafmcp/json_conversion.hpp"
#include "cafmcp/json_schema.hpp"
#include "cafmcp/tool.hpp"
#include "cafmcp/typed_handler.hpp"

namespace cafmcp {

template <class Args = detail::deduced_args, class Handler>
tool typed_tool(std::string name, std::string description, Handler handler) {
  using A = detail::typed_args_t<Args, Handler>;
  constexpr bool deduced = !std::is_same_v<A, detail::undeducible_args>;
  static_assert(deduced, "cafmcp::typed_tool: cannot tell the argument type from this handler (a generic "
                         "lambda?); name it: typed_tool<Args>(name, description, handler)");
  constexpr bool described = described_struct<A>;
  static_assert(!deduced || described,
                "cafmcp::typed_tool: the argument type must be a struct described with "
                "CAFMCP_FIELDS (its fields become the inputSchema)");
  // Asked only of a type that was found: asking a generic lambda whether it
  // takes undeducible_args would compile its body and bury the message above.
  constexpr bool callable = [] {
    if constexpr (deduced)
      return detail::callable_with<Handler, A>;
    else
      return false;
  }();
  static_assert(!deduced || callable,
                "cafmcp::typed_tool: the handler must be callable as handler(const Args&, "
                "cafmcp::request_context&) or handler(const Args&)");
  tool t;
  if constexpr (deduced && described && callable) {
    using R = std::remove_cvref_t<detail::typed_result_t<Handler, A>>;
    constexpr bool structured = described_struct<R>;
    constexpr bool text = !std::is_same_v<R, tool_result> && std::is_convertible_v<R, std::string>;
    constexpr bool known_result = std::is_same_v<R, tool_result> || text || structured;
    static_assert(known_result,
                  "cafmcp::typed_tool: the handler must return cafmcp::tool_result, std::string, or "
                  "a struct described with CAFMCP_FIELDS (its outputSchema)");
    if constexpr (known_result) {
      t.name = name;
      t.description = std::move(description);
      t.input_schema = json_schema_of<A>();
      if constexpr (structured)
        t.output_schema = json_schema_of<R>();
      t.handler = [handler = std::move(handler), name = std::move(name)](
                    const json& arguments, request_context& ctx) mutable -> tool_result {
        A args;
        try {
          args = from_json_value<A>(arguments);
        } catch (const conversion_error& e) {
          // Worded as the server words a schema violation: the model reads both.
          return tool_result::error("Invalid arguments for tool " + name + ": " + e.what());
        }
        if constexpr (structured)
          return tool_result::structured(to_json_value(detail::call_typed(handler, args, ctx)));
        else if constexpr (text)
          return tool_result::text(std::string(detail::call_typed(handler, args, ctx)));
        else
          return detail::call_typed(handler, args, ctx);
      };
    }
  }
  return t;
}

} // namespace cafmcp
