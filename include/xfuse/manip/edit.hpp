// SPDX-License-Identifier: Apache-2.0
// NumPy's insert and delete along an axis (or of the flattened array when no axis is given):
// new arrays, the input unchanged. `delete` is a C++ keyword, so NumPy's np.delete is
// xf::delete_. The positions are worked out on the host from the index arguments (an index array
// on the device is read first); then one gather kernel (xf::take) builds the result, reading the
// array and, for insert, a block of the values converted to its type (NumPy casts them too).
#pragma once

#include <algorithm>
#include <initializer_list>
#include <numeric>
#include <string>
#include <vector>

#include "index.hpp"
#include "join.hpp"
#include "shape.hpp"
#include "views.hpp"

namespace xf {
namespace detail {

// The gather that builds a result from `source` along `axis`: result position j reads source
// position positions[j].
template <class T, int R, class S>
array<T, R, S> gather_positions(const array<T, R, S>& source, const std::vector<std::int64_t>& positions, int axis) {
  const auto where = asarray<std::int64_t, S>(positions);
  return take_unchecked(source, where, axis, index_mode::wrap, "xf::insert/delete_");
}

// An index argument given as an integer array: its values on the host.
template <class I, int RI, class S>
std::vector<index_t> host_indices(const array<I, RI, S>& obj) {
  check_index_type<I>();
  std::vector<index_t> out;
  for (const auto v : to_host(obj)) out.push_back(static_cast<index_t>(v));
  return out;
}

// index in [-n, n] (insert: n is the end) as a position in [0, n]; or xf::index_error.
inline index_t insertion_index(index_t i, index_t n, int axis, const char* op) {
  if (i < -n || i > n)
    throw index_error(std::string(op) + ": index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) +
                      " with size " + std::to_string(n));
  return i < 0 ? i + n : i;
}

// The values to insert as a block of arr's rank and type whose extent along `axis` is the number
// inserted: NumPy's array(values, ndmin=arr.ndim), with the leading axis moved to `axis` when the
// index is a scalar (block_from_scalar_index), broadcast to arr's other extents and cast to its type.
template <class T, int R, class S, class V>
array<T, R, S> insertion_block(const array<T, R, S>& arr, const V& values, int axis, bool block_from_scalar_index,
                               index_t count, const char* op) {
  dims<R> shape = arr.shape();
  if constexpr (is_array_v<V>) {
    constexpr int RV = rank_v<V>;
    static_assert(RV <= R, "xf::insert: the values have a higher rank than the array");
    dims<R> vshape{};
    for (int d = 0; d < R; ++d) vshape[d] = d < R - RV ? 1 : values.shape()[d - (R - RV)];
    auto v = values.reshape(vshape);
    if (block_from_scalar_index) v = moveaxis(v, 0, axis);
    shape[axis] = count < 0 ? v.shape()[axis] : count;
    for (int d = 0; d < R; ++d)
      if (v.shape()[d] != shape[d] && v.shape()[d] != 1)
        throw shape_error(std::string(op) + ": values of shape " + to_string(values.shape()) +
                          " do not broadcast to the inserted block's shape " + to_string(shape));
    array<T, R, S> block(shape);
    block.assign(astype<T>(v));  // NumPy casts the values to the array's type
    return block;
  } else {
    shape[axis] = count < 0 ? 1 : count;
    return array<T, R, S>(full(shape, convert<T>(values)));
  }
}

// Insert a block before position `at` (scalar index) or its elements before each of `at` (a list).
template <class T, int R, class S, class V>
array<T, R, S> insert_along(const array<T, R, S>& arr, const std::vector<index_t>& obj, bool scalar_index, const V& values,
                            int axis, const char* op) {
  const index_t n = arr.shape()[axis];
  std::vector<index_t> at;
  for (const index_t i : obj) at.push_back(insertion_index(i, n, axis, op));
  const bool block = scalar_index || at.size() == 1;
  const auto inserted = insertion_block(arr, values, axis, scalar_index, block ? -1 : static_cast<index_t>(at.size()), op);
  const index_t k = inserted.shape()[axis];
  // Result position of each inserted element: its index plus the elements inserted before it.
  std::vector<std::int64_t> positions(static_cast<std::size_t>(n + k), -1);
  if (block) {
    for (index_t j = 0; j < k; ++j) positions[static_cast<std::size_t>(at[0] + j)] = n + j;
  } else {
    std::vector<std::size_t> order(at.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return at[a] < at[b]; });
    for (std::size_t j = 0; j < order.size(); ++j)
      positions[static_cast<std::size_t>(at[order[j]]) + j] = n + static_cast<std::int64_t>(order[j]);
  }
  std::int64_t next = 0;
  for (auto& p : positions)
    if (p < 0) p = next++;
  if (arr.size() + inserted.size() == 0) {
    dims<R> shape = arr.shape();
    shape[axis] = n + k;
    return array<T, R, S>(shape);
  }
  return gather_positions(concatenate({arr, inserted}, axis), positions, axis);
}

template <class T, int R, class S>
array<T, R, S> delete_along(const array<T, R, S>& arr, const std::vector<index_t>& obj, int axis, const char* op) {
  const index_t n = arr.shape()[axis];
  std::vector<char> removed(static_cast<std::size_t>(n), 0);
  for (const index_t i : obj) {
    if (i < -n || i >= n)
      throw index_error(std::string(op) + ": index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) +
                        " with size " + std::to_string(n));
    removed[static_cast<std::size_t>(i < 0 ? i + n : i)] = 1;
  }
  std::vector<std::int64_t> kept;
  for (index_t i = 0; i < n; ++i)
    if (!removed[static_cast<std::size_t>(i)]) kept.push_back(i);
  if (kept.empty() || arr.size() == 0) {
    dims<R> shape = arr.shape();
    shape[axis] = static_cast<index_t>(kept.size());
    return array<T, R, S>(shape);
  }
  return gather_positions(arr, kept, axis);
}

// A Python slice's positions along an axis of extent n.
inline std::vector<index_t> slice_positions(const slice& s, index_t n, int axis) {
  const resolved_slice r = resolve(s, n, axis);
  std::vector<index_t> out;
  for (index_t j = 0; j < r.length; ++j) out.push_back(r.start + j * r.step);
  return out;
}

}  // namespace detail

// np.insert(arr, index, values, axis): values inserted before `index` along `axis`, as one block
// (NumPy's scalar-index rule: np.insert(a, 1, [1, 2, 3], axis=1) inserts one column).
template <element T, int R, class S, class V>
  requires(weak_scalar<V> || detail::is_array_v<V>)
array<T, R, S> insert(const array<T, R, S>& arr, index_t index, const V& values, int axis) {
  axis = detail::normalize_axis_of(axis, arr.shape(), "xf::insert");
  return detail::insert_along(arr, {index}, true, values, axis, "xf::insert");
}
// np.insert(arr, [i, j, ...], values, axis): values[k] inserted before index k of the list
// (values broadcast to one slice per index).
template <element T, int R, class S, class V>
  requires(weak_scalar<V> || detail::is_array_v<V>)
array<T, R, S> insert(const array<T, R, S>& arr, const std::vector<index_t>& indices, const V& values, int axis) {
  axis = detail::normalize_axis_of(axis, arr.shape(), "xf::insert");
  return detail::insert_along(arr, indices, false, values, axis, "xf::insert");
}
template <element T, int R, class S, class V>
  requires(weak_scalar<V> || detail::is_array_v<V>)
array<T, R, S> insert(const array<T, R, S>& arr, std::initializer_list<index_t> indices, const V& values, int axis) {
  return insert(arr, std::vector<index_t>(indices), values, axis);
}
template <element T, int R, class S, class I, class V>
  requires(weak_scalar<V> || detail::is_array_v<V>)
array<T, R, S> insert(const array<T, R, S>& arr, const array<I, 1, S>& indices, const V& values, int axis) {
  return insert(arr, detail::host_indices(indices), values, axis);
}
// Without an axis: into the flattened array.
template <element T, int R, class S, class V>
  requires(weak_scalar<V> || detail::is_array_v<V>)
array<T, 1, S> insert(const array<T, R, S>& arr, index_t index, const V& values) {
  return insert(ascontiguousarray(arr).ravel(), index, values, 0);
}
template <element T, int R, class S, class V>
  requires(weak_scalar<V> || detail::is_array_v<V>)
array<T, 1, S> insert(const array<T, R, S>& arr, const std::vector<index_t>& indices, const V& values) {
  return insert(ascontiguousarray(arr).ravel(), indices, values, 0);
}
template <element T, int R, class S, class V>
  requires(weak_scalar<V> || detail::is_array_v<V>)
array<T, 1, S> insert(const array<T, R, S>& arr, std::initializer_list<index_t> indices, const V& values) {
  return insert(ascontiguousarray(arr).ravel(), std::vector<index_t>(indices), values, 0);
}

// np.delete(arr, obj, axis): the array without the slices at the given indices (a repeated index
// removes its slice once), a slice of them, or one index.
template <element T, int R, class S>
array<T, R, S> delete_(const array<T, R, S>& arr, const std::vector<index_t>& indices, int axis) {
  axis = detail::normalize_axis_of(axis, arr.shape(), "xf::delete_");
  return detail::delete_along(arr, indices, axis, "xf::delete_");
}
template <element T, int R, class S>
array<T, R, S> delete_(const array<T, R, S>& arr, std::initializer_list<index_t> indices, int axis) {
  return delete_(arr, std::vector<index_t>(indices), axis);
}
template <element T, int R, class S>
array<T, R, S> delete_(const array<T, R, S>& arr, index_t index, int axis) {
  return delete_(arr, std::vector<index_t>{index}, axis);
}
template <element T, int R, class S>
array<T, R, S> delete_(const array<T, R, S>& arr, const slice& positions, int axis) {
  axis = detail::normalize_axis_of(axis, arr.shape(), "xf::delete_");
  return detail::delete_along(arr, detail::slice_positions(positions, arr.shape()[axis], axis), axis, "xf::delete_");
}
template <element T, int R, class S, class I>
array<T, R, S> delete_(const array<T, R, S>& arr, const array<I, 1, S>& indices, int axis) {
  return delete_(arr, detail::host_indices(indices), axis);
}
// Without an axis: from the flattened array.
template <element T, int R, class S>
array<T, 1, S> delete_(const array<T, R, S>& arr, const std::vector<index_t>& indices) {
  return delete_(ascontiguousarray(arr).ravel(), indices, 0);
}
template <element T, int R, class S>
array<T, 1, S> delete_(const array<T, R, S>& arr, std::initializer_list<index_t> indices) {
  return delete_(ascontiguousarray(arr).ravel(), std::vector<index_t>(indices), 0);
}
template <element T, int R, class S>
array<T, 1, S> delete_(const array<T, R, S>& arr, index_t index) {
  return delete_(ascontiguousarray(arr).ravel(), index, 0);
}
template <element T, int R, class S>
array<T, 1, S> delete_(const array<T, R, S>& arr, const slice& positions) {
  return delete_(ascontiguousarray(arr).ravel(), positions, 0);
}

}  // namespace xf
