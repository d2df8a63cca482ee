// SPDX-License-Identifier: Apache-2.0
// What an expression is: the protocol every node follows, the spaces operands may live in, and a
// small device-copyable tuple for the fused kernel's parameters.
//
// An expression type E provides
//   using value_type;  static constexpr int rank;  using space;  // device, host or any_space
//   dims<rank> shape() const;
//   auto leaves() const;            // tuple of positional leaves, left to right (see exec/plan.hpp)
//   template <int First> auto evaluator() const;  // device functor; leaf k is slot First + k
//   static constexpr int leaf_count;
// Arrays are expressions (leaves); so are generators (arange, full, eye, ...).
#pragma once

#include <type_traits>
#include <utility>

#include "../base/device.hpp"
#include "../base/dtype.hpp"

namespace xf {

// Generators and scalars adapt to the space of the arrays they meet (device when alone).
struct any_space {};

template <class E>
concept expression = requires { typename std::remove_cvref_t<E>::xf_expression_tag; };

// A C++ value that joins an expression as a weak scalar (NEP 50).
template <class S>
concept weak_scalar = std::is_arithmetic_v<std::remove_cvref_t<S>> || is_complex<std::remove_cvref_t<S>>;

template <class E>
using value_t = typename std::remove_cvref_t<E>::value_type;
template <class E>
inline constexpr int rank_v = std::remove_cvref_t<E>::rank;
template <class E>
using space_t = typename std::remove_cvref_t<E>::space;

namespace detail {

template <class A, class B>
constexpr auto combine_spaces() {
  if constexpr (std::is_same_v<A, any_space>) return std::type_identity<B>{};
  else if constexpr (std::is_same_v<B, any_space> || std::is_same_v<A, B>) return std::type_identity<A>{};
  else return std::type_identity<void>{};  // host meets device
}

// Folds the spaces left to right; void (host met device) absorbs everything after it.
template <class... S>
struct common_space;
template <class S>
struct common_space<S> {
  using type = S;
};
template <class A, class B, class... Rest>
struct common_space<A, B, Rest...> {
  using first = typename decltype(combine_spaces<A, B>())::type;
  using type = typename std::conditional_t<std::is_void_v<first>, std::type_identity<void>,
                                           common_space<first, Rest...>>::type;
};

}  // namespace detail

template <class... S>
using common_space_t = typename detail::common_space<S...>::type;

// The space an expression is evaluated in when nothing else decides it.
template <class S>
using resolved_space_t = std::conditional_t<std::is_same_v<S, any_space>, device, S>;

#define XF_SPACES_MATCH(...)                                                                      \
  static_assert(!std::is_void_v<::xf::common_space_t<__VA_ARGS__>>,                              \
                "xfuse: this expression mixes host and device arrays; move one side first "     \
                "(xf::asarray(host_array) to the device, device_array.get() to the host)")

namespace detail {

// ---- a tuple that is an aggregate of trivially copyable members: a valid kernel parameter ----
template <int I, class T>
struct tuple_leaf {
  T value;
};
template <class Seq, class... Ts>
struct tuple_base;
template <int... Is, class... Ts>
struct tuple_base<std::integer_sequence<int, Is...>, Ts...> : tuple_leaf<Is, Ts>... {};
template <class... Ts>
struct tuple : tuple_base<std::make_integer_sequence<int, sizeof...(Ts)>, Ts...> {
  static constexpr int size = sizeof...(Ts);
};

template <int I, class T>
XF_HD XF_FORCEINLINE constexpr T& get(tuple_leaf<I, T>& t) noexcept {
  return t.value;
}
template <int I, class T>
XF_HD XF_FORCEINLINE constexpr const T& get(const tuple_leaf<I, T>& t) noexcept {
  return t.value;
}

template <int... Is, class... Ts>
constexpr tuple<Ts...> make_tuple_impl(std::integer_sequence<int, Is...>, const Ts&... v) {
  return tuple<Ts...>{{tuple_leaf<Is, Ts>{v}...}};
}
template <class... Ts>
constexpr tuple<Ts...> make_tuple(const Ts&... v) {
  return make_tuple_impl(std::make_integer_sequence<int, sizeof...(Ts)>{}, v...);
}

template <class... A, class... B, int... IA, int... IB>
constexpr tuple<A..., B...> tuple_cat_impl(const tuple<A...>& a, const tuple<B...>& b,
                                           std::integer_sequence<int, IA...>, std::integer_sequence<int, IB...>) {
  return tuple<A..., B...>{{tuple_leaf<IA, A>{get<IA>(a)}..., tuple_leaf<int(sizeof...(A)) + IB, B>{get<IB>(b)}...}};
}
template <class... A, class... B>
constexpr tuple<A..., B...> tuple_cat(const tuple<A...>& a, const tuple<B...>& b) {
  return tuple_cat_impl(a, b, std::make_integer_sequence<int, sizeof...(A)>{},
                        std::make_integer_sequence<int, sizeof...(B)>{});
}
template <class A, class B, class C, class... Rest>
constexpr auto tuple_cat(const A& a, const B& b, const C& c, const Rest&... rest) {
  return detail::tuple_cat(detail::tuple_cat(a, b), c, rest...);
}

// The type of element I of a tuple type.
template <int I, class Tuple>
using tuple_element_t = std::remove_cvref_t<decltype(get<I>(std::declval<const Tuple&>()))>;

}  // namespace detail
}  // namespace xf
