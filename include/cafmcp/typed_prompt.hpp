#pragma once
// A prompt from a C++ argument type and a handler that takes it. Prompt
// arguments are strings in MCP, so the type is a struct of std::string
// (required) and std::optional<std::string> (optional) fields:
//
//   struct review_args { std::string code; std::optional<std::string> focus; };
//   CAFMCP_FIELDS(review_args, (code, "The code to review"), (focus, "What to look at"));
//   srv.add_prompt(cafmcp::typed_prompt("review", "Asks for a code review",
//     [](const review_args& a) { return "Please review:\n" + a.code; }));
//
// The fields become the prompt's argument list (name, description, required),
// which the server checks as for any prompt (-32602 for a missing one); the
// handler gets them in the struct. It may take a request_context& as its
// second parameter and returns a cafmcp::prompt_result, or a std::string (or
// what converts to one): one user message of that text. The result is a plain cafmcp::prompt: set
// a title, or an argument's completion handler, on it before add_prompt.
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cafmcp/fields.hpp"
#include "cafmcp/prompt.hpp"
#include "cafmcp/typed_handler.hpp"

namespace cafmcp {

namespace detail {

template <class T>
constexpr bool string_fields_only() {
  return std::apply(
    [](const auto&... f) {
      return (... && [](const auto& one) {
        using member = typename std::decay_t<decltype(one)>::member_type;
        return std::is_same_v<member, std::string> || std::is_same_v<member, std::optional<std::string>>;
      }(f));
    },
    fields_of<T>());
}

template <class T>
std::vector<prompt_argument> prompt_arguments_of() {
  std::vector<prompt_argument> out;
  std::apply(
    [&](const auto&... f) {
      [[maybe_unused]] auto one = [&](const auto& d) {
        prompt_argument a;
        a.name = std::string(d.name);
        if (!d.description.empty())
          a.description = std::string(d.description);
        using member = typename std::decay_t<decltype(d)>::member_type;
        a.required = std::is_same_v<member, std::string>;
        out.push_back(std::move(a));
      };
      (one(f), ...);
    },
    fields_of<T>());
  return out;
}

template <class T>
T prompt_args_from(const std::map<std::string, std::string>& arguments) {
  T out{};
  std::apply(
    [&](const auto&... f) {
      [[maybe_unused]] auto one = [&](const auto& d) {
        std::string name(d.name);
        auto it = arguments.find(name);
        using member = typename std::decay_t<decltype(d)>::member_type;
        if (it != arguments.end())
          out.*(d.member) = it->second;
        else if constexpr (std::is_same_v<member, std::string>)
          // The server refuses a call without a required argument before the
          // handler runs; this is for a handler called some other way.
          throw request_refused{-32602, "Missing required argument: " + name, std::nullopt};
      };
      (one(f), ...);
    },
    fields_of<T>());
  return out;
}

} // namespace detail

template <class Args = detail::deduced_args, class Handler>
prompt typed_prompt(std::string name, std::string description, Handler handler) {
  using A = detail::typed_args_t<Args, Handler>;
  constexpr bool deduced = !std::is_same_v<A, detail::undeducible_args>;
  static_assert(deduced, "cafmcp::typed_prompt: cannot tell the argument type from this handler (a generic "
                         "lambda?); name it: typed_prompt<Args>(name, description, handler)");
  constexpr bool described = described_struct<A>;
  static_assert(!deduced || described,
                "cafmcp::typed_prompt: the argument type must be a struct described with "
                "CAFMCP_FIELDS (its fields become the prompt's arguments)");
  constexpr bool strings = [] {
    if constexpr (described_struct<A>)
      return detail::string_fields_only<A>();
    else
      return true;
  }();
  static_assert(strings, "cafmcp::typed_prompt: prompt arguments are strings in MCP: every field must be "
                         "std::string (required) or std::optional<std::string> (optional)");
  // Asked only of a type that was found: asking a generic lambda whether it
  // takes undeducible_args would compile its body and bury the message above.
  constexpr bool callable = [] {
    if constexpr (deduced)
      return detail::callable_with<Handler, A>;
    else
      return false;
  }();
  static_assert(!deduced || callable,
                "cafmcp::typed_prompt: the handler must be callable as handler(const Args&, "
                "cafmcp::request_context&) or handler(const Args&)");
  prompt p;
  if constexpr (deduced && described && strings && callable) {
    using R = std::remove_cvref_t<detail::typed_result_t<Handler, A>>;
    constexpr bool text = !std::is_same_v<R, prompt_result> && std::is_convertible_v<R, std::string>;
    constexpr bool known_result = std::is_same_v<R, prompt_result> || text;
    static_assert(known_result,
                  "cafmcp::typed_prompt: the handler must return cafmcp::prompt_result or std::string");
    if constexpr (known_result) {
      p.name = std::move(name);
      p.description = std::move(description);
      p.arguments = detail::prompt_arguments_of<A>();
      p.handler = [handler = std::move(handler)](const std::map<std::string, std::string>& arguments,
                                                 request_context& ctx) mutable -> prompt_result {
        A args = detail::prompt_args_from<A>(arguments);
        if constexpr (text) {
          prompt_result r;
          r.messages.push_back(
            {"user", {{"type", "text"}, {"text", std::string(detail::call_typed(handler, args, ctx))}}});
          return r;
        } else {
          return detail::call_typed(handler, args, ctx);
        }
      };
    }
  }
  return p;
}

} // namespace cafmcp
