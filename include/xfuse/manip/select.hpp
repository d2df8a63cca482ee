// SPDX-License-Identifier: Apache-2.0
// Selecting by value: nonzero, flatnonzero, argwhere and unique (with unique_all, unique_counts
// and unique_inverse), each with a result whose length depends on the data, so each reads one
// number on the host (the count, the last element of a running count): on device arrays that
// waits for the current stream, and it is the only host round trip. Also searchsorted (binary
// searches in one fused kernel), partition and argpartition.
//
// Compaction without a scatter: with c the inclusive running count (xf::cumsum) of a mask, the
// j-th selected element is the first k with c[k] > j, a binary search that one fused kernel does
// for every output element (xf::map over generators).
#pragma once

#include <array>
#include <initializer_list>
#include <string>
#include <utility>
#include <type_traits>

#include "../scan/scans.hpp"
#include "../sort/sorting.hpp"
#include "../user/map.hpp"
#include "index.hpp"
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

// The same with every NaN its own value (NumPy 2's unique_all, unique_counts, unique_inverse:
// equal_nan=False).
template <class T>
struct differs_nan_distinct {
  XF_HD XF_FORCEINLINE bool operator()(const T& next, const T& prev) const {
    return !(convert<compute_t<T>>(next) == convert<compute_t<T>>(prev));
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

// The j-th nonzero element's flat position.
struct nth_nonzero_position {
  const std::int64_t* counts;
  index_t n;
  XF_HD XF_FORCEINLINE std::int64_t operator()(index_t j) const { return first_count_above(counts, n, j); }
};

// NumPy's order for searching: NaN after every number.
template <class C>
XF_HD XF_FORCEINLINE bool ordered_before(const C& a, const C& b) {
  if constexpr (std::is_floating_point_v<C>) return a < b || (b != b && a == a);
  else return a < b;
}

// The first position in [0, n) where `before(i)` is false, for a predicate that holds on a prefix
// of the positions: the binary search behind every lookup in sorted values (searchsorted, isin,
// digitize, interp).
template <class Before>
XF_HD XF_FORCEINLINE index_t partition_point(index_t n, const Before& before) {
  index_t lo = 0, hi = n;
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Where v goes in the sorted `sorted[0, n)`: before the first element not below it (left), or
// after the last element not above it (right). Reversed: `sorted` is in descending order, and the
// answer counts from its end (digitize's decreasing bins).
template <class T, class C, bool Right, bool Reversed = false>
struct insertion_point {
  const T* sorted;
  index_t n;
  template <class V>
  XF_HD XF_FORCEINLINE std::int64_t operator()(const V& value) const {
    const C v = convert<C>(value);
    const index_t at = partition_point(n, [&](index_t i) {
      const C m = convert<C>(sorted[Reversed ? n - 1 - i : i]);
      return Right ? !ordered_before(v, m) : ordered_before(m, v);
    });
    return Reversed ? n - at : at;
  }
};

template <class E>
int partition_axis(const E& e, std::initializer_list<index_t> kth, int axis, const char* op) {
  constexpr int R = rank_v<E>;
  static_assert(R >= 1, "xf::partition/argpartition: a 0-d array has no axis to partition along");
  const int a = normalize_axis_of(axis, e.shape(), op);
  const index_t n = e.shape()[a];
  for (const index_t k : kth)
    if (k < -n || k >= n)
      throw index_error(std::string(op) + ": kth " + std::to_string(k) + " is out of bounds for axis " + std::to_string(a) +
                        " of length " + std::to_string(n));
  return a;
}

// Where run j of equal sorted values starts (runs follow the differences counted in `counts`).
struct nth_run_start {
  const std::int64_t* counts;  // running count of the differences, n - 1 of them
  index_t n;
  XF_HD XF_FORCEINLINE std::int64_t operator()(index_t j) const { return j == 0 ? 0 : 1 + first_count_above(counts, n - 1, j - 1); }
};
// The length of run j.
struct nth_run_length {
  const std::int64_t* starts;
  index_t runs, n;
  XF_HD XF_FORCEINLINE std::int64_t operator()(index_t j) const { return (j + 1 < runs ? starts[j + 1] : n) - starts[j]; }
};
// The run of sorted position k.
struct run_of_position {
  const std::int64_t* counts;
  XF_HD XF_FORCEINLINE std::int64_t operator()(index_t k) const { return k == 0 ? 0 : counts[k - 1]; }
};

}  // namespace detail

// NumPy 2's unique_all(x): the sorted distinct values of the flattened x (each NaN its own, last), the
// index of each one's first occurrence, the inverse indices (x's shape: where each element's
// value is in `values`) and the counts. unique_counts and unique_inverse return parts of it.
template <class T, int R, class S>
struct unique_all_result {
  array<T, 1, S> values;
  array<std::int64_t, 1, S> indices;
  array<std::int64_t, R, S> inverse_indices;
  array<std::int64_t, 1, S> counts;
};

// One stable argsort, a gather, a scan of "differs from the previous value", one host read (the
// count of distinct values), then one kernel per result (the inverse is a scatter).
template <expression E>
auto unique_all(const E& e) {
  using T = value_t<E>;
  using S = resolved_space_t<space_t<E>>;
  constexpr int R = rank_v<E>;
  static_assert(!is_complex<T>, "xf::unique_all: complex values have no order here (xf::sort takes real types)");
  const auto flat = atleast_1d(detail::as_array(e)).ravel();
  const index_t n = flat.size();
  using Index = array<std::int64_t, 1, S>;
  unique_all_result<T, R, S> r{array<T, 1, S>(dims<1>{0}), Index(dims<1>{0}), array<std::int64_t, R, S>(e.shape()), Index(dims<1>{0})};
  if (n == 0) return r;
  const auto order = argsort(flat);
  const auto sorted = take(flat, order, "clip");  // valid positions: no check, no host read
  const auto counts = cumsum(map(detail::differs_nan_distinct<T>{}, sorted(slice(1, _)), sorted(slice(_, -1))));
  const index_t runs = 1 + (n > 1 ? static_cast<index_t>(counts(n - 2).item()) : 0);  // the host read
  detail::require_access(counts.device_id(), "xf::unique_all");
  const Index starts = map(detail::nth_run_start{counts.data(), n}, arange<index_t>(runs));
  r.values = take(sorted, starts, "clip");
  r.indices = take(order, starts, "clip");
  r.counts = map(detail::nth_run_length{starts.data(), runs, n}, arange<index_t>(runs));
  const Index inverse(dims<1>{n});
  put(inverse, order, Index(map(detail::run_of_position{counts.data()}, arange<index_t>(n))), "clip");
  r.inverse_indices = inverse.reshape(e.shape());
  return r;
}

// np.unique_counts(x): {values, counts}.
template <expression E>
auto unique_counts(const E& e) {
  auto r = unique_all(e);
  return std::pair{r.values, r.counts};
}

// np.unique_inverse(x): {values, inverse_indices}; values(inverse_indices) rebuilds x.
template <expression E>
auto unique_inverse(const E& e) {
  auto r = unique_all(e);
  return std::pair{r.values, r.inverse_indices};
}

// NumPy's flatnonzero(a): the int64 positions of the nonzero elements of the flattened argument.
// One scan, one host read (the count), one kernel.
template <expression E>
auto flatnonzero(const E& e) {
  using S = resolved_space_t<space_t<E>>;
  const auto counts = cumsum(map(detail::truthy{}, e));  // flattened, C order, int64
  const index_t n = counts.size();
  const index_t count = n > 0 ? counts(n - 1).item() : 0;  // the host read
  array<std::int64_t, 1, S> out(dims<1>{count});
  if (count == 0) return out;
  detail::require_access(counts.device_id(), "xf::flatnonzero");
  detail::evaluate_into(out, map(detail::nth_nonzero_position{counts.data(), n}, arange<index_t>(count)), "xf::flatnonzero");
  return out;
}

// NumPy's searchsorted(a, v, side): for each value of v (any expression, any shape), the int64
// position in the sorted 1-D `a` where it would be inserted: before equal elements ("left") or
// after them ("right"); NaN sorts last. One fused kernel of binary searches over v's shape.
template <expression A, expression V>
auto searchsorted(const A& a, const V& v, const std::string& side = "left") {
  static_assert(rank_v<A> == 1, "xf::searchsorted: the sorted array must be 1-D");
  static_assert(!is_complex<value_t<A>> && !is_complex<value_t<V>>, "xf::searchsorted: complex values have no order here");
  using S = detail::operands_space_t<A, V>;
  if (side != "left" && side != "right")
    throw error("xf::searchsorted: side must be \"left\" or \"right\" (got \"" + side + "\")");
  using T = value_t<A>;
  using C = compute_t<promote_t<T, value_t<V>>>;
  const auto sorted = ascontiguousarray(detail::as_array<S>(a));
  detail::require_access(sorted.device_id(), "xf::searchsorted");
  const auto positions = [&](auto point) { return array<std::int64_t, rank_v<V>, S>(map(point, v)); };
  if (side == "right") return positions(detail::insertion_point<T, C, true>{sorted.data(), sorted.size()});
  return positions(detail::insertion_point<T, C, false>{sorted.data(), sorted.size()});
}

// NumPy's partition(a, kth, axis) and argpartition: each kth element in its sorted place, smaller
// ones before it, larger ones after. Done by sorting the lines (xf::sort / xf::argsort), which
// meets the contract (and NumPy's answer when kth lists every position); kth is checked.
template <expression E>
auto partition(const E& e, std::initializer_list<index_t> kth, int axis = -1) {
  return sort(e, detail::partition_axis(e, kth, axis, "xf::partition"));
}
template <expression E>
auto partition(const E& e, index_t kth, int axis = -1) {
  return partition(e, {kth}, axis);
}
template <expression E>
auto argpartition(const E& e, std::initializer_list<index_t> kth, int axis = -1) {
  return argsort(e, detail::partition_axis(e, kth, axis, "xf::argpartition"));
}
template <expression E>
auto argpartition(const E& e, index_t kth, int axis = -1) {
  return argpartition(e, {kth}, axis);
}

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
