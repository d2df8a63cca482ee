// SPDX-License-Identifier: Apache-2.0
// Selecting by value: nonzero, argwhere and unique. Each has a result whose length depends on the
// data, so each reads one number on the host (the count, the last element of a running count):
// on device arrays that waits for the current stream, and it is the only host round trip.
//
// Compaction without a scatter: with c the inclusive running count (xf::cumsum) of a mask, the
// j-th selected element is the first k with c[k] > j, a binary search that one fused kernel does
// for every output element (xf::map over generators).
#pragma once

#include <array>
#include <type_traits>

#include "../scan.hpp"
#include "../sort.hpp"
#include "../user/map.hpp"
#include "views.hpp"

namespace xf {
namespace detail {

// The first k in [0, n) with counts[k] > j (counts is non-decreasing).
XF_HD XF_FORCEINLINE index_t first_count_above(const std::int64_t* counts, index_t n, index_t j) {
  index_t lo = 0, hi = n;
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    if (counts[mid] > j) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

struct truthy {
  template <class V>
  XF_HD XF_FORCEINLINE bool operator()(const V& v) const {
    return convert<bool>(v);
  }
};

// Coordinate d of the j-th nonzero element of an array of shape `extent` (C order).
template <int R>
struct nth_nonzero_coordinate {
  const std::int64_t* counts;
  index_t n;
  index_t extent[R], stride[R];
  XF_HD XF_FORCEINLINE std::int64_t operator()(index_t j, index_t d) const {
    return first_count_above(counts, n, j) / stride[d] % extent[d];
  }
};

// The coordinates of the nonzero elements of e: shape (count, R), or (R, count) when Transposed.
template <bool Transposed, class E>
auto nonzero_coordinates(const E& e, const char* op) {
  constexpr int R = rank_v<E>;
  static_assert(R >= 1, "xf::nonzero/argwhere: a 0-d array has no coordinates; use xf::atleast_1d first");
  using S = resolved_space_t<space_t<E>>;
  const auto counts = cumsum(map(truthy{}, e));  // int64, C order
  const index_t n = counts.size();
  const index_t count = n > 0 ? counts(n - 1).item() : 0;  // the host read
  array<std::int64_t, 2, S> out(Transposed ? dims<2>{R, count} : dims<2>{count, R});
  if (count == 0) return out;
  require_access(counts.device_id(), op);
  nth_nonzero_coordinate<R> f{counts.data(), n, {}, {}};
  const auto shape = e.shape();
  const auto strides = c_strides(shape);
  for (int d = 0; d < R; ++d) f.extent[d] = shape[d], f.stride[d] = strides[d];
  const int j_axis = Transposed ? 1 : 0;
  evaluate_into(out, map(f, coordinate<2>(out.shape(), j_axis), coordinate<2>(out.shape(), 1 - j_axis)), op);
  return out;
}

// Sorted values: true where a value differs from the one before it (NaN equals NaN, as NumPy's
// unique with equal_nan=True).
template <class T>
struct differs {
  XF_HD XF_FORCEINLINE bool operator()(const T& next, const T& prev) const {
    const auto a = convert<compute_t<T>>(next), b = convert<compute_t<T>>(prev);
    if constexpr (is_floating<T>) return !(a == b) && !(a != a && b != b);
    else return a != b;
  }
};

// The j-th unique value: run j starts after the j-th difference.
template <class T>
struct nth_unique {
  const T* sorted;
  const std::int64_t* counts;  // running count of the differences, n - 1 of them
  index_t n;
  XF_HD XF_FORCEINLINE T operator()(index_t j) const {
    return sorted[j == 0 ? 0 : 1 + first_count_above(counts, n - 1, j - 1)];
  }
};

}  // namespace detail

// NumPy's argwhere(a): the coordinates of the nonzero elements of any expression, in C order, as
// an (N, a.ndim()) int64 array. One scan, one host read (N), one kernel.
template <expression E>
auto argwhere(const E& e) {
  return detail::nonzero_coordinates<false>(e, "xf::argwhere");
}

// NumPy's nonzero(a): one int64 array of coordinates per axis (each a row of one (ndim, N) array).
template <expression E>
auto nonzero(const E& e) {
  const auto c = detail::nonzero_coordinates<true>(e, "xf::nonzero");
  std::array<array<std::int64_t, 1, typename decltype(c)::space>, rank_v<E>> out;
  for (int d = 0; d < rank_v<E>; ++d) out[d] = c(d);
  return out;
}

// NumPy's unique(a): the sorted distinct values of the flattened array (NaN once, last). One sort
// (xf::sort), a scan of "differs from the previous value", one host read (the count), one kernel.
// Complex values have no order here (a compile error, as for xf::sort).
template <expression E>
auto unique(const E& e) {
  using T = value_t<E>;
  static_assert(!is_complex<T>, "xf::unique: complex values have no order here (xf::sort takes real types)");
  const auto flat = [&] {
    if constexpr (detail::is_array_v<std::remove_cvref_t<E>>) return atleast_1d(e).ravel();
    else return atleast_1d(eval(e)).ravel();
  }();
  using Out = array<T, 1, typename decltype(flat)::space>;
  const index_t n = flat.size();
  if (n == 0) return Out(dims<1>{0});
  const auto sorted = sort(flat);
  const auto counts = cumsum(map(detail::differs<T>{}, sorted(slice(1, _)), sorted(slice(_, -1))));
  const index_t count = 1 + (n > 1 ? static_cast<index_t>(counts(n - 2).item()) : 0);  // the host read
  Out out(dims<1>{count});
  detail::evaluate_into(out, map(detail::nth_unique<T>{sorted.data(), counts.data(), n}, arange<index_t>(count)), "xf::unique");
  return out;
}

}  // namespace xf
