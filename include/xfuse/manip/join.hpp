// SPDX-License-Identifier: Apache-2.0
// Joining arrays: concatenate, stack, vstack, hstack. The result is allocated once and each input
// is assigned into its slice of it: one element-wise kernel per (non-empty) input, no temporaries.
// Inputs are a std::vector or a braced list of arrays of one type, or arrays passed one by one
// (which may differ in element type: the result has NumPy's promoted type).
#pragma once

#include <initializer_list>
#include <string>
#include <tuple>
#include <vector>

#include "views.hpp"

namespace xf {
namespace detail {

// Arrays of one type, in a contiguous run (std::vector, std::initializer_list).
template <class A>
struct array_run {
  const A* first;
  std::size_t count;
  std::size_t size() const { return count; }
  template <class F>
  void each(F&& f) const {
    for (std::size_t i = 0; i < count; ++i) f(i, first[i]);
  }
};
// Arrays passed one by one; element types may differ.
template <class... A>
struct array_pack {
  std::tuple<const A&...> items;
  static constexpr std::size_t size() { return sizeof...(A); }
  template <class F>
  void each(F&& f) const {
    [&]<std::size_t... I>(std::index_sequence<I...>) { (f(I, std::get<I>(items)), ...); }(std::index_sequence_for<A...>{});
  }
};

template <class... A>
using joined_t = promoted_t<wtype<value_t<A>, false>...>;

template <class... A>
constexpr void check_pack() {
  static_assert(sizeof...(A) >= 1 && (is_array_v<A> && ...), "xf::concatenate/stack: the arguments must be xf::arrays");
  static_assert(((rank_v<A> == rank_v<last_t<A...>>) && ...),
                "xf::concatenate/stack: the arrays must have the same rank");
  static_assert(!std::is_void_v<common_space_t<space_t<A>...>>,
                "xf::concatenate/stack: the arrays must all be host or all be device arrays");
}

// Joins view(part) for every part along `axis` of the rank-R result (after the views, every part
// has rank R). Each part is assigned into its slice of the result: one kernel per part.
template <class Out, int R, class S, class Parts, class View>
array<Out, R, S> join(const Parts& parts, int axis, const View& view, const char* op) {
  static_assert(R >= 1, "xf::concatenate: zero-dimensional arrays cannot be concatenated");
  if (parts.size() == 0) throw error(std::string(op) + ": need at least one array to concatenate");
  dims<R> shape{}, first{};
  parts.each([&](std::size_t i, const auto& p) {
    const auto s = view(p).shape();
    if (i == 0) {
      axis = normalize_axis_of(axis, s, op);
      shape = first = s;
      shape[axis] = 0;
    }
    for (int d = 0; d < R; ++d)
      if (d != axis && s[d] != first[d])
        throw shape_error(std::string(op) + ": all the input array dimensions except for the concatenation axis must "
                          "match exactly, but along dimension " + std::to_string(d) + ", the array at index 0 has shape " +
                          to_string(first) + " and the array at index " + std::to_string(i) + " has shape " + to_string(s));
    shape[axis] = extent_sum(shape[axis], s[axis], op);
  });
  checked_size(shape, sizeof(Out), op);
  array<Out, R, S> out(shape);
  index_t at = 0;
  parts.each([&](std::size_t, const auto& p) {
    const auto v = view(p);
    const index_t n = v.shape()[axis];
    if (n > 0 && out.size() > 0) axis_slice(out, axis, at, at + n).assign(v);
    at += n;
  });
  return out;
}

template <class Out, int R, class S, class Parts>
array<Out, R, S> concatenate_parts(const Parts& parts, int axis) {
  return join<Out, R, S>(parts, axis, [](const auto& p) -> const auto& { return p; }, "xf::concatenate");
}

// Every part must have the first one's shape; each gets a new extent-1 axis, then they are joined.
template <class Out, int R, class S, class Parts>
array<Out, R + 1, S> stack_parts(const Parts& parts, int axis) {
  if (parts.size() == 0) throw error("xf::stack: need at least one array to stack");
  dims<R> first{};
  parts.each([&](std::size_t i, const auto& p) {
    if (i == 0) first = p.shape();
    if (p.shape() != first)
      throw shape_error("xf::stack: all input arrays must have the same shape, but the array at index 0 has shape " +
                        to_string(first) + " and the array at index " + std::to_string(i) + " has shape " +
                        to_string(p.shape()));
  });
  if (axis < -(R + 1) || axis > R)
    throw shape_error("xf::stack: axis " + std::to_string(axis) + " is out of bounds for the result's rank " +
                      std::to_string(R + 1) + " (inputs of shape " + to_string(first) + ")");
  const int a = axis < 0 ? axis + R + 1 : axis;
  return join<Out, R + 1, S>(parts, a, [a](const auto& p) { return p.expand_dims(a); }, "xf::stack");
}

template <class Out, int R, class S, class Parts>
auto vstack_parts(const Parts& parts) {
  constexpr int RO = R >= 2 ? R : 2;
  return join<Out, RO, S>(parts, 0, [](const auto& p) { return atleast_2d(p); }, "xf::vstack");
}

template <class Out, int R, class S, class Parts>
auto hstack_parts(const Parts& parts) {
  constexpr int RO = R >= 1 ? R : 1;
  return join<Out, RO, S>(parts, RO == 1 ? 0 : 1, [](const auto& p) { return atleast_1d(p); }, "xf::hstack");
}

template <class T, int R, class S>
array_run<array<T, R, S>> run_of(const std::vector<array<T, R, S>>& v) {
  return {v.data(), v.size()};
}
template <class T, int R, class S>
array_run<array<T, R, S>> run_of(std::initializer_list<array<T, R, S>> v) {
  return {v.begin(), v.size()};
}

}  // namespace detail

// NumPy's concatenate((a, b, ...), axis=0): every axis but `axis` must match. xf::concatenate({a, b}, 1),
// a std::vector of arrays, or xf::concatenate(a, b, c) (axis 0, element types promoted).
template <element T, int R, class S>
array<T, R, S> concatenate(const std::vector<array<T, R, S>>& arrays, int axis = 0) {
  return detail::concatenate_parts<T, R, S>(detail::run_of(arrays), axis);
}
template <element T, int R, class S>
array<T, R, S> concatenate(std::initializer_list<array<T, R, S>> arrays, int axis = 0) {
  return detail::concatenate_parts<T, R, S>(detail::run_of(arrays), axis);
}
template <class A, class... B>
  requires detail::is_array_v<A> && (detail::is_array_v<B> && ...)
auto concatenate(const A& first, const B&... rest) {
  detail::check_pack<A, B...>();
  return detail::concatenate_parts<detail::joined_t<A, B...>, rank_v<A>, space_t<A>>(
      detail::array_pack<A, B...>{{first, rest...}}, 0);
}

// NumPy's stack: arrays of one shape joined along a new axis (in [-R-1, R]).
template <element T, int R, class S>
array<T, R + 1, S> stack(const std::vector<array<T, R, S>>& arrays, int axis = 0) {
  return detail::stack_parts<T, R, S>(detail::run_of(arrays), axis);
}
template <element T, int R, class S>
array<T, R + 1, S> stack(std::initializer_list<array<T, R, S>> arrays, int axis = 0) {
  return detail::stack_parts<T, R, S>(detail::run_of(arrays), axis);
}
template <class A, class... B>
  requires detail::is_array_v<A> && (detail::is_array_v<B> && ...)
auto stack(const A& first, const B&... rest) {
  detail::check_pack<A, B...>();
  return detail::stack_parts<detail::joined_t<A, B...>, rank_v<A>, space_t<A>>(detail::array_pack<A, B...>{{first, rest...}}, 0);
}

// NumPy's vstack: 1-D arrays of length n become rows of an (k, n) result; higher ranks join along
// axis 0 (0-d arrays count as (1, 1)).
template <element T, int R, class S>
auto vstack(const std::vector<array<T, R, S>>& arrays) {
  return detail::vstack_parts<T, R, S>(detail::run_of(arrays));
}
template <element T, int R, class S>
auto vstack(std::initializer_list<array<T, R, S>> arrays) {
  return detail::vstack_parts<T, R, S>(detail::run_of(arrays));
}
template <class A, class... B>
  requires detail::is_array_v<A> && (detail::is_array_v<B> && ...)
auto vstack(const A& first, const B&... rest) {
  detail::check_pack<A, B...>();
  return detail::vstack_parts<detail::joined_t<A, B...>, rank_v<A>, space_t<A>>(detail::array_pack<A, B...>{{first, rest...}});
}

// NumPy's hstack: 1-D arrays join end to end (axis 0); higher ranks along axis 1.
template <element T, int R, class S>
auto hstack(const std::vector<array<T, R, S>>& arrays) {
  return detail::hstack_parts<T, R, S>(detail::run_of(arrays));
}
template <element T, int R, class S>
auto hstack(std::initializer_list<array<T, R, S>> arrays) {
  return detail::hstack_parts<T, R, S>(detail::run_of(arrays));
}
template <class A, class... B>
  requires detail::is_array_v<A> && (detail::is_array_v<B> && ...)
auto hstack(const A& first, const B&... rest) {
  detail::check_pack<A, B...>();
  return detail::hstack_parts<detail::joined_t<A, B...>, rank_v<A>, space_t<A>>(detail::array_pack<A, B...>{{first, rest...}});
}

}  // namespace xf
