// SPDX-License-Identifier: Apache-2.0
// Rearranging and splitting, NumPy's names and rules: moveaxis and rot90 (views), split,
// array_split, hsplit, vsplit, dsplit (lists of views), column_stack, dstack and append (one
// joining), tril, triu (lazy: they fuse), diag and diagflat, take_along_axis (one fused gather),
// put_along_axis (one scatter), select and compress; and the generators logspace and geomspace (lazy).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "../expr/functions.hpp"
#include "index.hpp"
#include "join.hpp"
#include "select.hpp"
#include "views.hpp"

namespace xf {
namespace detail {

// Samples of logspace / geomspace: base ** y of a linspace sample y; geomspace also pins the
// first and last samples to start and stop and restores their sign (NumPy's geomspace).
struct power_sample {
  double base, first, last, sign;
  index_t last_index;  // -1: no pinned last sample
  bool pinned;
  XF_HD XF_FORCEINLINE double operator()(index_t i, double y) const {
    if (pinned && i == 0) return sign * first;
    if (pinned && i == last_index) return sign * last;
    return sign * math::r_pow(base, y);
  }
};

// Where an element of a take_along_axis result reads `a`: its own coordinates, with the one along
// `axis` replaced by the index it holds (negative from the end). The result is C-ordered.
template <class T, int R>
struct along_axis_gather {
  const T* source;
  index_t extent[R], source_stride[R], result_stride[R];
  int axis;
  template <class I>
  XF_HD XF_FORCEINLINE T operator()(const I& index, index_t flat) const {
    index_t offset = 0;
    for (int d = 0; d < R; ++d) {
      index_t at = flat / result_stride[d] % extent[d];
      if (d == axis) {
        at = static_cast<index_t>(index);
        if (at < 0) at += extent[d];
      }
      offset += at * source_stride[d];
    }
    return source[offset];
  }
};

// The parts a[0:cut0], a[cut0:cut1], ..., a[cutk:] along `axis`, cut as Python slices are
// (negative from the end, clipped to the extent, empty when a cut comes before the previous one).
template <class T, int R, class S>
std::vector<array<T, R, S>> split_at(const array<T, R, S>& a, const std::vector<index_t>& cuts, int axis) {
  const index_t n = a.shape()[axis];
  auto clip = [n](index_t i) { return std::min(std::max(i < 0 ? i + n : i, index_t{0}), n); };
  std::vector<array<T, R, S>> parts;
  reserve_host_list(parts, cuts.size() + 1, "xf::split");
  index_t start = 0;
  for (std::size_t i = 0; i <= cuts.size(); ++i) {
    const index_t stop = i < cuts.size() ? clip(cuts[i]) : n;
    parts.push_back(axis_slice(a, axis, start, std::max(start, stop)));
    start = stop;
  }
  return parts;
}

template <class T, int R, class S>
std::vector<array<T, R, S>> split_into(const array<T, R, S>& a, index_t sections, int axis, bool even, const char* op) {
  const index_t n = a.shape()[axis];
  if (sections <= 0) throw error(std::string(op) + ": number sections must be larger than 0 (got " + std::to_string(sections) + ")");
  if (even && n % sections != 0)
    throw shape_error(std::string(op) + ": array split does not result in an equal division (" + std::to_string(n) +
                      " along axis " + std::to_string(axis) + " into " + std::to_string(sections) + ")");
  // The parts and their cuts, refused at once when they cannot fit (array_split(x, 2^62)).
  check_host_list(static_cast<std::size_t>(sections), sizeof(array<T, R, S>) + sizeof(index_t), op);
  std::vector<index_t> cuts;
  reserve_host_list(cuts, static_cast<std::size_t>(sections - 1), op);
  const index_t each = n / sections, extra = n % sections;
  index_t at = 0;
  for (index_t i = 0; i + 1 < sections; ++i) cuts.push_back(at += each + (i < extra ? 1 : 0));
  return split_at(a, cuts, axis);
}

}  // namespace detail

// np.logspace(start, stop, num, endpoint, base): base ** linspace(start, stop, num), float64, lazy.
inline auto logspace(double start, double stop, index_t num = 50, bool endpoint = true, double base = 10.0) {
  return map(detail::power_sample{base, 0, 0, 1, -1, false}, arange<index_t>(num), linspace(start, stop, num, endpoint));
}

// np.geomspace(start, stop, num, endpoint): a geometric progression from start to stop (same sign,
// not zero), its ends exactly start and stop, float64, lazy.
inline auto geomspace(double start, double stop, index_t num = 50, bool endpoint = true) {
  if (start == 0 || stop == 0) throw error("xf::geomspace: geometric sequence cannot include zero");
  if ((start < 0) != (stop < 0))
    throw error("xf::geomspace: start and stop of opposite signs need complex samples (not supported)");
  const double sign = start < 0 ? -1.0 : 1.0;
  const double first = start * sign, last = stop * sign;
  const detail::power_sample sample{10.0, first, last, sign, endpoint && num > 1 ? num - 1 : -1, true};
  return map(sample, arange<index_t>(num), linspace(std::log10(first), std::log10(last), num, endpoint));
}

// np.moveaxis(a, source, destination): the axis moved, the others in order (a view).
template <class T, int R, class S>
array<T, R, S> moveaxis(const array<T, R, S>& a, int source, int destination) {
  const int from = detail::normalize_axis_of(source, a.shape(), "xf::moveaxis");
  const int to = detail::normalize_axis_of(destination, a.shape(), "xf::moveaxis");
  dims<R> order{};
  for (int d = 0, at = 0; d < R; ++d) {
    if (at == to) ++at;
    if (d != from) order[at++] = d;
  }
  order[to] = from;
  return a.transpose(order);
}

// np.rot90(m, k, axes): rotated by 90 degrees k times in the plane of two axes, from the first
// towards the second (a view).
template <class T, int R, class S>
array<T, R, S> rot90(const array<T, R, S>& m, int k = 1, int axis0 = 0, int axis1 = 1) {
  static_assert(R >= 2, "xf::rot90: needs at least two dimensions");
  const int a = detail::normalize_axis_of(axis0, m.shape(), "xf::rot90");
  const int b = detail::normalize_axis_of(axis1, m.shape(), "xf::rot90");
  if (a == b) throw error("xf::rot90: the axes must be different (got " + std::to_string(axis0) + " and " + std::to_string(axis1) + ")");
  switch (((k % 4) + 4) % 4) {
    case 0: return m;
    case 1: return m.flip(b).swapaxes(a, b);
    case 2: return m.flip(a).flip(b);
    default: return m.swapaxes(a, b).flip(b);
  }
}

// np.split(a, sections, axis): equal parts (shape_error when they are not); np.array_split: the
// first n % sections parts one longer. With a list of indices: the parts between them. Views.
template <class T, int R, class S>
std::vector<array<T, R, S>> split(const array<T, R, S>& a, index_t sections, int axis = 0) {
  return detail::split_into(a, sections, detail::normalize_axis_of(axis, a.shape(), "xf::split"), true, "xf::split");
}
template <class T, int R, class S>
std::vector<array<T, R, S>> split(const array<T, R, S>& a, const std::vector<index_t>& indices, int axis = 0) {
  return detail::split_at(a, indices, detail::normalize_axis_of(axis, a.shape(), "xf::split"));
}
template <class T, int R, class S>
std::vector<array<T, R, S>> array_split(const array<T, R, S>& a, index_t sections, int axis = 0) {
  return detail::split_into(a, sections, detail::normalize_axis_of(axis, a.shape(), "xf::array_split"), false, "xf::array_split");
}
// np.hsplit (axis 1, or 0 for 1-D), np.vsplit (axis 0, at least 2-D), np.dsplit (axis 2, 3-D or more).
template <class T, int R, class S>
std::vector<array<T, R, S>> hsplit(const array<T, R, S>& a, index_t sections) {
  static_assert(R >= 1, "xf::hsplit: needs at least one dimension");
  return split(a, sections, R == 1 ? 0 : 1);
}
template <class T, int R, class S>
std::vector<array<T, R, S>> vsplit(const array<T, R, S>& a, index_t sections) {
  static_assert(R >= 2, "xf::vsplit: needs at least two dimensions");
  return split(a, sections, 0);
}
template <class T, int R, class S>
std::vector<array<T, R, S>> dsplit(const array<T, R, S>& a, index_t sections) {
  static_assert(R >= 3, "xf::dsplit: needs at least three dimensions");
  return split(a, sections, 2);
}

// np.column_stack(arrays): 1-D arrays as columns, 2-D arrays as they are, side by side.
template <class T, int R, class S>
array<T, 2, S> column_stack(const std::vector<array<T, R, S>>& arrays) {
  static_assert(R == 1 || R == 2, "xf::column_stack: takes 1-D or 2-D arrays");
  std::vector<array<T, 2, S>> columns;
  for (const auto& a : arrays) {
    if constexpr (R == 1) columns.push_back(a.reshape({a.shape()[0], index_t{1}}));
    else columns.push_back(a);
  }
  return concatenate(columns, 1);
}

// np.dstack(arrays): stacked along a third axis (1-D (n) as (1, n, 1), 2-D (m, n) as (m, n, 1)).
template <class T, int R, class S>
array<T, 3, S> dstack(const std::vector<array<T, R, S>>& arrays) {
  static_assert(R >= 1 && R <= 3, "xf::dstack: takes 1-D, 2-D or 3-D arrays");
  std::vector<array<T, 3, S>> planes;
  for (const auto& a : arrays) {
    if constexpr (R == 1) planes.push_back(a.reshape({index_t{1}, a.shape()[0], index_t{1}}));
    else if constexpr (R == 2) planes.push_back(a.reshape({a.shape()[0], a.shape()[1], index_t{1}}));
    else planes.push_back(a);
  }
  return concatenate(planes, 2);
}

// np.append(a, values): both flattened, one after the other; with an axis, joined along it.
template <class T, int R, class S, int RV>
array<T, 1, S> append(const array<T, R, S>& a, const array<T, RV, S>& values) {
  return concatenate({atleast_1d(a).ravel(), atleast_1d(values).ravel()}, 0);
}
template <class T, int R, class S>
array<T, R, S> append(const array<T, R, S>& a, const array<T, R, S>& values, int axis) {
  return concatenate({a, values}, axis);
}

// np.tril(m, k) and np.triu(m, k): the last two axes' lower (upper) triangle from diagonal k,
// zeros elsewhere; lazy, so they fuse into whatever uses them.
template <expression E>
auto tril(const E& m, index_t k = 0) {
  constexpr int R = rank_v<E>;
  static_assert(R >= 2, "xf::tril: needs at least two dimensions");
  return where(detail::coordinate<R>(m.shape(), R - 1) - detail::coordinate<R>(m.shape(), R - 2) <= k, m, value_t<E>(0));
}
template <expression E>
auto triu(const E& m, index_t k = 0) {
  constexpr int R = rank_v<E>;
  static_assert(R >= 2, "xf::triu: needs at least two dimensions");
  return where(detail::coordinate<R>(m.shape(), R - 1) - detail::coordinate<R>(m.shape(), R - 2) >= k, m, value_t<E>(0));
}

// np.diag(v, k): a 2-D array's diagonal k (a view, as CuPy's), or a square matrix with the 1-D v
// on diagonal k.
template <class T, class S>
array<T, 1, S> diag(const array<T, 2, S>& m, index_t k = 0) {
  return m.diagonal(k);
}
template <class T, class S>
array<T, 2, S> diag(const array<T, 1, S>& v, index_t k = 0) {
  const index_t n = v.shape()[0] + (k < 0 ? -k : k);
  array<T, 2, S> m = zeros<T>({n, n});
  m.diagonal(k) = v;
  return m;
}
// np.diagflat(v, k): the flattened v on diagonal k of a square matrix.
template <class T, int R, class S>
array<T, 2, S> diagflat(const array<T, R, S>& v, index_t k = 0) {
  return diag(atleast_1d(v).ravel(), k);
}

// np.take_along_axis(a, indices, axis): out[..., j, ...] = a[..., indices[..., j, ...], ...]; off
// the axis, indices and a broadcast against each other (equal extents, or 1 in either). Indices
// are checked (one host read); then one fused gather.
template <class T, int R, class S, class I>
array<T, R, S> take_along_axis(const array<T, R, S>& a, const array<I, R, S>& indices, int axis) {
  constexpr const char* op = "xf::take_along_axis";
  detail::check_index_type<I>();
  axis = detail::normalize_axis_of(axis, a.shape(), op);
  dims<R> shape = indices.shape();
  for (int d = 0; d < R; ++d) {
    if (d == axis) continue;
    const index_t x = a.shape()[d], i = indices.shape()[d];
    if (x != i && x != 1 && i != 1)
      throw shape_error(std::string(op) + ": indices of shape " + to_string(indices.shape()) + " do not broadcast against a's shape " +
                        to_string(a.shape()) + " off axis " + std::to_string(axis));
    shape[d] = x == 1 ? i : x;
  }
  detail::check_indices(indices, a.shape()[axis], axis, op);
  detail::require_access(a.device_id(), op);
  detail::along_axis_gather<T, R> g{a.data(), {}, {}, {}, axis};
  const auto result_strides = detail::c_strides(shape);
  for (int d = 0; d < R; ++d) {
    g.extent[d] = d == axis ? a.shape()[d] : shape[d];
    g.source_stride[d] = a.shape()[d] == 1 && d != axis ? 0 : a.strides()[d];  // a broadcast along d
    g.result_stride[d] = result_strides[d];
  }
  // Each result element's C-order position: a generator, no memory.
  const detail::generator_node<detail::arange_leaf<index_t>, R> positions(detail::arange_leaf<index_t>{0.0, 1.0, 0, 1}, shape,
                                                                        result_strides);
  return map(g, indices.broadcast_to(shape), positions);
}

// np.put_along_axis(arr, indices, values, axis): arr[..., indices[..., j, ...], ...] = values[..., j, ...]
// in place; off the axis, indices and arr broadcast together, and values to the selection's shape
// (their broadcast shape with indices' extent along the axis). Indices are checked (one host read); then one
// scatter. Where an index repeats along a line, one of its values is kept (NumPy: the last).
template <class T, int R, class S, class I, class V>
  requires operand<V>
void put_along_axis(const array<T, R, S>& arr, const array<I, R, S>& indices, const V& values, int axis) {
  constexpr const char* op = "xf::put_along_axis";
  static_assert(R >= 1, "xf::put_along_axis: a 0-d array has no axis");
  detail::check_index_type<I>();
  axis = detail::normalize_axis_of(axis, arr.shape(), op);
  detail::refuse_repeating_destination(arr, op);
  dims<R> shape{};
  const auto idx_strides = detail::c_strides(indices.shape());
  detail::index_scatter<T, I, R> s{arr.data(), nullptr, nullptr, 0, arr.shape()[axis], arr.strides()[axis], {}, {}, {}};
  for (int d = 0; d < R; ++d) {
    const index_t x = arr.shape()[d], i = indices.shape()[d];
    if (d != axis && i != x && i != 1 && x != 1)
      throw index_error(std::string(op) + ": indices of shape " + to_string(indices.shape()) + " and the array's shape " +
                        to_string(arr.shape()) + " do not broadcast together off axis " + std::to_string(axis));
    shape[d] = d == axis || x == 1 ? i : x;  // an extent of 1 in arr is written again for each index (NumPy's)
    s.extent[d] = detail::fast_divmod(shape[d] > 0 ? shape[d] : 1);
    s.stride[d] = d == axis || x == 1 ? 0 : arr.strides()[d];
    s.idx_stride[d] = i == 1 ? 0 : idx_strides[d];
  }
  if (detail::product(shape) > 0 && arr.shape()[axis] == 0)
    throw index_error(std::string(op) + ": cannot put into an empty axis (axis " + std::to_string(axis) + " of shape " +
                      to_string(arr.shape()) + ")");
  detail::scatter_selection(s, arr.device_id(), shape, indices, axis, values, op);
}

// np.select(conditions, choices, default): from the first condition that holds, its choice;
// otherwise the default. One fused where per pair, from the last.
template <class T, int R, class S, class C>
array<T, R, S> select(const std::vector<C>& conditions, const std::vector<array<T, R, S>>& choices, T default_value = T(0)) {
  if (conditions.size() != choices.size())
    throw error("xf::select: " + std::to_string(conditions.size()) + " conditions for " + std::to_string(choices.size()) + " choices");
  if (choices.empty()) throw error("xf::select: needs at least one condition and choice");
  array<T, R, S> out = where(conditions.back(), choices.back(), default_value);
  for (std::size_t i = choices.size() - 1; i-- > 0;) out = where(conditions[i], choices[i], out);
  return out;
}

// np.compress(condition, a, axis): the slices along the axis where the 1-D condition holds (a
// shorter condition leaves the rest out; a longer one may only hold past the axis where it is
// false, else xf::index_error). One host read (the count), two for a longer condition.
template <class T, int R, class S, class C>
array<T, R, S> compress(const array<C, 1, S>& condition, const array<T, R, S>& a, int axis) {
  axis = detail::normalize_axis_of(axis, a.shape(), "xf::compress");
  return take(a, flatnonzero(condition), axis, condition.shape()[0] > a.shape()[axis] ? "raise" : "clip");
}

}  // namespace xf
