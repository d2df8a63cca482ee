// SPDX-License-Identifier: Apache-2.0
// tile and repeat: the result is allocated once, viewed with one more axis per repeated axis (a
// view, since it is C-ordered), and the source is assigned into that view broadcast along the new
// axes: one element-wise kernel, no temporary. repeat with a count per element is one gather
// kernel whose elements find their source by a binary search in the running sum of the counts
// (memory in the number of counts, not in the length of the result).
#pragma once

#include <string>
#include <vector>

#include "index.hpp"

namespace xf {
namespace detail {

// Along `axis`, result index p reads source index j, the first with ends[j] > p (ends: the running
// sum of the counts, non-decreasing; p < ends[n - 1]). Other axes read the same index.
template <class T, int R>
struct repeat_by_counts {
  const T* data;
  const index_t* ends;
  index_t n;
  int axis;
  index_t stride[R];
  template <class... C>
  XF_HD XF_FORCEINLINE T operator()(const C&... c) const {
    const index_t at[R] = {static_cast<index_t>(c)...};
    index_t off = 0;
    for (int d = 0; d < R; ++d) {
      index_t i = at[d];
      if (d == axis) {
        index_t lo = 0, hi = n - 1;
        while (lo < hi) {
          const index_t mid = lo + (hi - lo) / 2;
          if (ends[mid] > i) hi = mid;
          else lo = mid + 1;
        }
        i = lo;
      }
      off += i * stride[d];
    }
    return data[off];
  }
};

}  // namespace detail

// NumPy's tile(a, reps): a repeated reps[d] times along each axis. With more reps than axes, a
// gets leading extent-1 axes; with fewer, reps gets leading 1s. The result has rank max(R, N).
template <element T, int R, class S, std::size_t N>
auto tile(const array<T, R, S>& a, const std::array<index_t, N>& reps) {
  constexpr int RO = R > static_cast<int>(N) ? R : static_cast<int>(N);
  dims<RO> shape{};
  std::array<index_t, 2 * RO> split{}, source{};
  for (int d = 0; d < RO; ++d) {
    const int i = d - (RO - static_cast<int>(N)), j = d - (RO - R);
    const index_t r = i >= 0 ? reps[i] : 1, e = j >= 0 ? a.shape()[j] : 1;
    if (r < 0) throw shape_error("xf::tile: negative repetition " + std::to_string(r) + " in reps " + to_string(reps));
    shape[d] = detail::extent_product(r, e, "xf::tile");
    split[2 * d] = r;  // the result as (r0, e0, r1, e1, ...)
    split[2 * d + 1] = source[2 * d + 1] = e;
    source[2 * d] = 1;  // the source as (1, e0, 1, e1, ...): broadcast along the r axes
  }
  detail::checked_size(shape, sizeof(T), "xf::tile");
  array<T, RO, S> out(shape);
  if (out.size() > 0) out.reshape(split).assign(a.reshape(source));
  return out;
}
template <element T, int R, class S, std::size_t N>
auto tile(const array<T, R, S>& a, const index_t (&reps)[N]) {
  return tile(a, detail::to_dims(reps));
}
template <element T, int R, class S>
auto tile(const array<T, R, S>& a, index_t reps) {
  return tile(a, std::array<index_t, 1>{reps});
}

// NumPy's repeat(a, repeats, axis): each element repeated `repeats` times along `axis`. One kernel.
template <element T, int R, class S>
array<T, R, S> repeat(const array<T, R, S>& a, index_t repeats, int axis) {
  static_assert(R >= 1, "xf::repeat: a 0-d array has no axis; call xf::repeat(a, repeats) without one");
  axis = detail::normalize_axis_of(axis, a.shape(), "xf::repeat");
  if (repeats < 0) throw shape_error("xf::repeat: negative repeats " + std::to_string(repeats) + " (shape " + to_string(a.shape()) + ")");
  dims<R> shape = a.shape();
  shape[axis] = detail::extent_product(shape[axis], repeats, "xf::repeat");
  detail::checked_size(shape, sizeof(T), "xf::repeat");
  std::array<index_t, R + 1> split{}, source{};  // (..., n, repeats, ...) and (..., n, 1, ...)
  for (int d = 0, i = 0; d <= R; ++d) {
    const bool added = d == axis + 1;
    split[d] = added ? repeats : a.shape()[i];
    source[d] = added ? 1 : a.shape()[i];
    if (!added) ++i;
  }
  array<T, R, S> out(shape);
  if (out.size() > 0) out.reshape(split).assign(a.reshape(source));
  return out;
}
// Without an axis: over the flattened array (a 1-D result), viewed as (a.shape..., repeats). One kernel.
template <element T, int R, class S>
array<T, 1, S> repeat(const array<T, R, S>& a, index_t repeats) {
  if (repeats < 0) throw shape_error("xf::repeat: negative repeats " + std::to_string(repeats) + " (shape " + to_string(a.shape()) + ")");
  std::array<index_t, R + 1> split{};
  for (int d = 0; d < R; ++d) split[d] = a.shape()[d];
  split[R] = repeats;
  const dims<1> shape{detail::extent_product(a.size(), repeats, "xf::repeat")};
  detail::checked_size(shape, sizeof(T), "xf::repeat");
  array<T, 1, S> out(shape);
  if (out.size() > 0) out.reshape(split).assign(a.expand_dims(R));
  return out;
}

// A count per element along `axis` (repeats.size() == a.shape(axis), or one count for all).
// The result is allocated first (so a length past memory fails at once with xf::out_of_memory),
// then the running sum of the counts goes to the array's space and one kernel fills it.
template <element T, int R, class S>
array<T, R, S> repeat(const array<T, R, S>& a, const std::vector<index_t>& repeats, int axis) {
  static_assert(R >= 1, "xf::repeat: a 0-d array has no axis; call xf::repeat(a, repeats) without one");
  axis = detail::normalize_axis_of(axis, a.shape(), "xf::repeat");
  if (repeats.size() == 1) return repeat(a, repeats[0], axis);
  const index_t n = a.shape()[axis];
  if (static_cast<index_t>(repeats.size()) != n)
    throw shape_error("xf::repeat: " + std::to_string(repeats.size()) + " repeats cannot match axis " + std::to_string(axis) +
                      " of shape " + to_string(a.shape()) + " (operands could not be broadcast together with shape (" +
                      std::to_string(n) + ",) (" + std::to_string(repeats.size()) + ",))");
  constexpr const char* op = "xf::repeat";
  std::vector<index_t> ends(repeats.size());
  index_t total = 0;
  for (index_t j = 0; j < n; ++j) {
    if (repeats[j] < 0) throw shape_error("xf::repeat: negative repeats " + std::to_string(repeats[j]) + " at index " + std::to_string(j));
    ends[j] = total = detail::extent_sum(total, repeats[j], op);
  }
  dims<R> shape = a.shape();
  shape[axis] = total;
  detail::checked_size(shape, sizeof(T), op);
  array<T, R, S> out(shape);
  if (out.size() == 0) return out;
  detail::require_access(a.device_id(), op);  // the source is read through a pointer, not as a leaf
  const array<index_t, 1, S> ends_here = asarray<index_t, S>(ends);
  detail::repeat_by_counts<T, R> f{a.data(), ends_here.data(), n, axis, {}};
  for (int d = 0; d < R; ++d) f.stride[d] = a.strides()[d];
  [&]<int... D>(std::integer_sequence<int, D...>) {
    detail::evaluate_into(out, map(f, detail::coordinate<R>(shape, D)...), op);
  }(std::make_integer_sequence<int, R>{});
  return out;
}
template <element T, int R, class S>
array<T, 1, S> repeat(const array<T, R, S>& a, const std::vector<index_t>& repeats) {
  return repeat(atleast_1d(a).ravel(), repeats, 0);
}

}  // namespace xf
