// SPDX-License-Identifier: Apache-2.0
// NumPy's lexsort: the int64 positions that sort along an axis by several keys, the last key
// primary, ties broken by the key before it, and so on, equal rows kept in their order. Built as a
// least-significant-first radix of stable sorts: a stable argsort (xf::argsort) by the first key,
// then for each next key one gather of the key in the order so far, a stable argsort of it, and
// one gather composing the two orders. Keys may have different element types; NaN sorts last.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>

#include "../exec/as_array.hpp"
#include "../sort/sorting.hpp"
#include "../user/map.hpp"
#include "views.hpp"

namespace xf {
namespace detail {

// Element (row, at) of a 2-D view read through its pointer: a key, or an earlier order, read in
// the order given by `at`.
template <class T>
struct gather_in_row {
  const T* data;
  index_t row_stride, column_stride;
  XF_HD XF_FORCEINLINE T operator()(std::int64_t at, index_t row) const { return data[row * row_stride + at * column_stride]; }
};

// Key k with `axis` moved last, as a (lines, n) view (a copy only where the strides do not allow it).
template <class T, int R, class S>
array<T, 2, S> key_lines(const array<T, R, S>& key, int axis) {
  const auto moved = key.transpose(axis_last_order<R>(axis));
  const index_t n = key.shape()[axis];
  index_t lines = 1;
  for (int d = 0; d < R; ++d)
    if (d != axis) lines *= key.shape()[d];
  return moved.reshape(dims<2>{lines, n});
}

// out[l, i] = source[l, at[l, i]].
template <class T, class S>
array<T, 2, S> gather_rows(const array<T, 2, S>& source, const array<std::int64_t, 2, S>& at, const char* op) {
  require_access(source.device_id(), op);  // read through its pointer, not as a leaf
  const gather_in_row<T> g{source.data(), source.strides()[0], source.strides()[1]};
  return array<T, 2, S>(map(g, at, coordinate<2>(at.shape(), 0)));
}

// The order refined by one more significant key: stable, so ties keep the order so far.
template <class T, class S>
array<std::int64_t, 2, S> refine(const array<std::int64_t, 2, S>& order, const array<T, 2, S>& key, const char* op) {
  if (order.size() == 0) return order;
  const auto by_key = argsort(gather_rows(key, order, op));
  return gather_rows(order, by_key, op);
}

// The (lines, n) order back in the keys' shape, C-ordered.
template <class S, std::size_t N>
array<std::int64_t, static_cast<int>(N), S> order_in_key_shape(const array<std::int64_t, 2, S>& order, const std::array<index_t, N>& shape,
                                                                int axis) {
  constexpr int R = static_cast<int>(N);
  dims<R> moved_shape{};
  const dims<R> to_last = axis_last_order<R>(axis);
  for (int d = 0; d < R; ++d) moved_shape[d] = shape[to_last[d]];
  const auto moved = order.reshape(moved_shape);
  if (axis == R - 1) return moved;
  return moved.transpose(axis_last_inverse<R>(axis)).copy();
}

template <std::size_t N>
void check_key_shape(const std::array<index_t, N>& shape, const std::array<index_t, N>& first) {
  if (shape != first)
    throw shape_error("xf::lexsort: all keys must have one shape (got " + to_string(first) + " and " + to_string(shape) + ")");
}

// Keys of one type and rank (a list or the rows of an array), last one primary.
template <class T, int R, class S, class Keys>
array<std::int64_t, R, S> lexsort_list(const Keys& keys, index_t count, int axis) {
  constexpr const char* op = "xf::lexsort";
  static_assert(R >= 1, "xf::lexsort: 0-d keys have no axis to sort along");
  if (count == 0) throw error("xf::lexsort: need at least one key");
  const auto first = keys(0);
  const int ax = normalize_axis_of(axis, first.shape(), op);
  auto order = argsort(key_lines(first, ax));
  for (index_t k = 1; k < count; ++k) {
    const auto key = keys(k);
    check_key_shape(key.shape(), first.shape());
    order = refine(order, key_lines(key, ax), op);
  }
  return order_in_key_shape(order, first.shape(), ax);
}

}  // namespace detail

// NumPy's lexsort((k0, k1, ..., kn)): the int64 positions that sort along the last axis by kn, then
// k(n-1), ..., then k0 (the last key is primary, as in NumPy), stable. Keys are expressions of one
// shape and any real element types.
template <expression K0, expression K1, expression... K>
auto lexsort(const K0& k0, const K1& k1, const K&... rest) {
  constexpr const char* op = "xf::lexsort";
  constexpr int R = rank_v<K0>;
  static_assert(R >= 1, "xf::lexsort: 0-d keys have no axis to sort along");
  static_assert(((rank_v<K1> == R) && ... && (rank_v<K> == R)), "xf::lexsort: all keys must have one number of dimensions");
  using S = detail::operands_space_t<K0, K1, K...>;
  const auto first = detail::as_array<S>(k0);
  auto order = argsort(detail::key_lines(first, R - 1));
  const auto next = [&](const auto& key) {
    const auto a = detail::as_array<S>(key);
    detail::check_key_shape(a.shape(), first.shape());
    order = detail::refine(order, detail::key_lines(a, R - 1), op);
  };
  next(k1);
  (next(rest), ...);
  return detail::order_in_key_shape(order, first.shape(), R - 1);
}

// lexsort({k0, k1, ...}, axis): keys of one array type, sorted along `axis`.
template <element T, int R, class S>
auto lexsort(std::initializer_list<array<T, R, S>> keys, int axis = -1) {
  return detail::lexsort_list<T, R, S>([&](index_t k) { return keys.begin()[k]; }, static_cast<index_t>(keys.size()), axis);
}

// lexsort(keys) for an array: NumPy's lexsort of a (k, ...) array, whose rows keys(0) .. keys(k-1)
// are the keys (keys(k-1) primary); the result has a row's shape.
template <element T, int R, class S>
  requires(R >= 2)
auto lexsort(const array<T, R, S>& keys, int axis = -1) {
  return detail::lexsort_list<T, R - 1, S>([&](index_t k) { return keys(k); }, keys.shape()[0], axis);
}

}  // namespace xf
