// SPDX-License-Identifier: Apache-2.0
// Array manipulation without copies: atleast_1d, atleast_2d, meshgrid (broadcast views), and
// ascontiguousarray (the array itself when it is already C-contiguous, else one copy kernel).
#pragma once

#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "../core.hpp"

namespace xf {
namespace detail {

// The last type of a pack.
template <class... A>
using last_t = typename decltype((std::type_identity<A>{}, ...))::type;

template <class X>
inline constexpr bool is_array_v = false;
template <class T, int R, class S>
inline constexpr bool is_array_v<array<T, R, S>> = true;

// The view of `a` with indices [start, stop) along a run-time axis.
template <class T, int R, class S>
array<T, R, S> axis_slice(const array<T, R, S>& a, int axis, index_t start, index_t stop) {
  return a.swapaxes(0, axis)(slice(start, stop)).swapaxes(0, axis);
}

// The index along axis d of every element of a result of `shape` (a generator leaf).
template <int R>
generator_node<arange_leaf<index_t>, R> coordinate(const dims<R>& shape, int d) {
  dims<R> strides{};
  strides[d] = 1;
  return generator_node<arange_leaf<index_t>, R>(arange_leaf<index_t>{0.0, 1.0, 0, 1}, shape, strides);
}

inline bool parse_indexing(std::string_view indexing) {
  if (indexing == "xy") return true;
  if (indexing != "ij")
    throw error("xf::meshgrid: indexing must be \"xy\" or \"ij\", got \"" + std::string(indexing) + "\"");
  return false;
}

template <class... A, std::size_t... K>
auto meshgrid_views(std::string_view indexing, std::index_sequence<K...>, const A&... xs) {
  constexpr int N = static_cast<int>(sizeof...(A));
  static_assert(N >= 1, "xf::meshgrid: give at least one array");
  static_assert(((is_array_v<A> && rank_v<A> == 1) && ...), "xf::meshgrid: the inputs must be 1-D xf::arrays (ravel() others)");
  static_assert(!std::is_void_v<common_space_t<space_t<A>...>>, "xf::meshgrid: the arrays must all be host or all be device arrays");
  const bool xy = parse_indexing(indexing);
  // Output axis of input k: k, except that "xy" swaps the first two (NumPy's Cartesian order).
  auto axis_of = [&](int k) { return xy && N >= 2 && k < 2 ? 1 - k : k; };
  dims<N> shape{};
  ((shape[axis_of(static_cast<int>(K))] = xs.size()), ...);
  std::size_t itemsize = 1;
  ((itemsize = sizeof(value_t<A>) > itemsize ? sizeof(value_t<A>) : itemsize), ...);
  checked_size(shape, itemsize, "xf::meshgrid");
  auto one = [&](int k, const auto& x) {
    dims<N> s{};
    s.fill(1);
    s[axis_of(k)] = x.size();
    return x.reshape(s).broadcast_to(shape);
  };
  return std::tuple{one(static_cast<int>(K), xs)...};
}

}  // namespace detail

// NumPy's atleast_1d / atleast_2d: views with leading extent-1 axes where the rank is lower.
template <element T, int R, class S>
auto atleast_1d(const array<T, R, S>& a) {
  if constexpr (R >= 1) return a;
  else return a.reshape(std::array<index_t, 1>{1});
}
template <element T, int R, class S>
auto atleast_2d(const array<T, R, S>& a) {
  if constexpr (R >= 2) return a;
  else if constexpr (R == 1) return a.expand_dims(0);
  else return a.reshape(std::array<index_t, 2>{1, 1});
}

// NumPy's meshgrid(x, y, ..., indexing="xy", copy=False): coordinate arrays as broadcast views of
// the inputs (zero strides, no copy; writing into them throws). A last argument "ij" gives matrix
// indexing: output k varies along axis k. With "xy" (the default) the first two axes swap, so
// meshgrid(x, y) has shape (y.size(), x.size()). Returns a std::tuple of rank-N arrays.
template <class... A>
  requires(sizeof...(A) >= 1)
auto meshgrid(const A&... args) {
  using Last = detail::last_t<A...>;
  if constexpr (std::is_convertible_v<const Last&, std::string_view>) {
    const auto all_args = std::forward_as_tuple(args...);
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return detail::meshgrid_views(std::string_view(std::get<sizeof...(A) - 1>(all_args)), std::index_sequence<K...>{},
                                    std::get<K>(all_args)...);
    }(std::make_index_sequence<sizeof...(A) - 1>{});
  } else {
    return detail::meshgrid_views("xy", std::index_sequence_for<A...>{}, args...);
  }
}

// NumPy's ascontiguousarray: `a` itself (shared, no copy) when it is C-contiguous, otherwise a
// C-ordered copy (one kernel). A 0-d array becomes shape (1,), as in NumPy.
template <element T, int R, class S>
auto ascontiguousarray(const array<T, R, S>& a) {
  const array<T, R, S> c = a.is_contiguous() ? a : a.copy();
  return atleast_1d(c);
}
// An expression is materialised once, C-ordered.
template <expression E>
  requires(!detail::is_array_v<std::remove_cvref_t<E>>)
auto ascontiguousarray(const E& e) {
  return atleast_1d(eval(e));
}

}  // namespace xf
