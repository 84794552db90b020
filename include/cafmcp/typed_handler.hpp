#pragma once
// What typed_tool and typed_prompt share: finding a handler's argument type
// (its first parameter, so the type that produces the schema is the one the
// handler reads and the two cannot disagree) and calling it with or without
// the request_context, which most handlers do not need.
#include <functional>
#include <tuple>
#include <type_traits>

#include "cafmcp/request_context.hpp"

namespace cafmcp::detail {

/// typed_tool<>'s default: take the argument type from the handler.
struct deduced_args {};
/// What a handler's argument type is when it cannot be told (a generic
/// lambda, an overloaded call operator).
struct undeducible_args {};

template <class F>
struct first_parameter {
  using type = undeducible_args;
};
template <class R, class A, class... Rest>
struct first_parameter<R (*)(A, Rest...)> {
  using type = std::remove_cvref_t<A>;
};
template <class R, class A, class... Rest>
struct first_parameter<R (*)(A, Rest...) noexcept> {
  using type = std::remove_cvref_t<A>;
};
template <class R, class C, class A, class... Rest>
struct first_parameter<R (C::*)(A, Rest...) const> {
  using type = std::remove_cvref_t<A>;
};
template <class R, class C, class A, class... Rest>
struct first_parameter<R (C::*)(A, Rest...) const noexcept> {
  using type = std::remove_cvref_t<A>;
};
template <class R, class C, class A, class... Rest>
struct first_parameter<R (C::*)(A, Rest...)> {
  using type = std::remove_cvref_t<A>;
};
template <class R, class C, class A, class... Rest>
struct first_parameter<R (C::*)(A, Rest...) noexcept> {
  using type = std::remove_cvref_t<A>;
};

template <class H>
struct handler_argument : first_parameter<std::decay_t<H>> {};
template <class H>
requires requires { &std::decay_t<H>::operator(); }
struct handler_argument<H> : first_parameter<decltype(&std::decay_t<H>::operator())> {};

/// `Args` as named, or as the handler's first parameter.
template <class Args, class Handler>
using typed_args_t =
  std::conditional_t<std::is_same_v<Args, deduced_args>, typename handler_argument<Handler>::type, Args>;

template <class Handler, class Args>
inline constexpr bool takes_context = std::is_invocable_v<Handler&, const Args&, request_context&>;

template <class Handler, class Args>
inline constexpr bool callable_with =
  takes_context<Handler, Args> || std::is_invocable_v<Handler&, const Args&>;

template <class Handler, class Args>
decltype(auto) call_typed(Handler& handler, const Args& args, request_context& ctx) {
  if constexpr (takes_context<Handler, Args>)
    return std::invoke(handler, args, ctx);
  else
    return std::invoke(handler, args);
}

template <class Handler, class Args>
using typed_result_t = decltype(call_typed(std::declval<Handler&>(), std::declval<const Args&>(),
                                           std::declval<request_context&>()));

} // namespace cafmcp::detail
