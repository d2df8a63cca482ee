// SPDX-License-Identifier: Apache-2.0
// Looking values up in sorted ones, NumPy's rules and result types: isin (membership in the sorted
// test elements), digitize (the bin of each value, for increasing or decreasing bins) and interp
// (piecewise-linear interpolation). Each is one fused kernel of binary searches over the first
// argument's shape, which may be any expression (it is read in the same kernel); the sorted side is
// read through its pointer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "../exec/as_array.hpp"
#include "../reduce/reductions.hpp"
#include "../reduce/row_statistics.hpp"
#include "../reduce/together.hpp"
#include "../sort/sorting.hpp"
#include "../user/map.hpp"
#include "select.hpp"
#include "views.hpp"

namespace xf {
namespace detail {

// ---------------------------------------------------------------- isin
// Whether the value is one of sorted[0, n) (compared in the promoted type C: NaN is never found, as
// NumPy's isin compares with ==), or is not (Invert).
template <class T, class C, bool Invert>
struct member_of {
  const T* sorted;
  index_t n;
  template <class V>
  XF_HD XF_FORCEINLINE bool operator()(const V& value) const {
    const C v = convert<C>(value);
    const index_t at = insertion_point<T, C, false>{sorted, n}(v);
    const bool found = at < n && convert<C>(sorted[at]) == v;
    return found != Invert;
  }
};

// ---------------------------------------------------------------- digitize
// NumPy's digitize: searchsorted(bins, x, side="right") for increasing bins ("left" when Right),
// n - searchsorted(bins[::-1], x, side) for decreasing ones; NaN sorts last.
template <class T, class C, bool Right, bool Decreasing>
using bin_of = insertion_point<T, C, !Right, Decreasing>;

// Pair j of neighbouring bins (in float64, as NumPy checks them): where the values first change
// (NaN never equals), coded 2 j for a rise and 2 j + 1 for anything else; equal pairs give the
// largest code.
struct first_change {
  template <class A, class B>
  XF_HD XF_FORCEINLINE std::int64_t operator()(const A& a, const B& b, std::int64_t j) const {
    const double x = convert<double>(a), y = convert<double>(b);
    if (x == y) return 0x7FFFFFFFFFFFFFFF;
    return 2 * j + (x < y ? 0 : 1);
  }
};

// NumPy's check_array_monotonic: 1 for increasing bins (also when all are equal, or fewer than 2),
// -1 for decreasing ones, 0 otherwise. The direction is that of the first pair that differs; then no
// pair may go the other way. One pass over the bins, then three host reads (the answer decides
// whether digitize raises), which wait for the current stream.
template <class B>
int bins_monotonicity(const B& bins) {
  const index_t n = bins.size();
  if (n < 2) return 1;
  const auto lo = bins(slice(0, n - 1)).template astype<double>(), hi = bins(slice(1, n)).template astype<double>();
  const auto [change, rises, falls] =
      eval(lazy::min(map(first_change{}, lo, hi, arange<std::int64_t>(n - 1))), lazy::any(lo < hi), lazy::any(lo > hi));
  const std::int64_t code = change.item();
  if (code == 0x7FFFFFFFFFFFFFFF) return 1;
  if (code % 2 == 0) return falls.item() ? 0 : 1;
  return rises.item() ? 0 : -1;
}

// ---------------------------------------------------------------- interp
// slope * dx + y0 with the product rounded on its own, as NumPy computes it (no fused multiply-add).
XF_HD XF_FORCEINLINE double line_through(double slope, double dx, double y0) { return math::rounded_product(slope, dx) + y0; }

// One value of NumPy's interp (arr_interp in NumPy's compiled_base.c), in float64: below xp[0] the
// left value, above xp[n-1] the right one, on a sample point its fp; between, the line through the
// two neighbours, from the other neighbour when that gives NaN. NaN stays NaN (but for one sample
// point, where NumPy's comparisons give fp[0]).
struct interp_point {
  const double* xp;
  const double* fp;
  index_t n;
  bool has_left, has_right;
  double left, right;
  template <class V>
  XF_HD XF_FORCEINLINE double operator()(const V& value) const {
    const double x = convert<double>(value);
    const double l = has_left ? left : fp[0], r = has_right ? right : fp[n - 1];
    if (n == 1) return x < xp[0] ? l : (x > xp[0] ? r : fp[0]);
    if (x != x) return x;
    if (x > xp[n - 1]) return r;
    if (x < xp[0]) return l;
    const index_t j = partition_point(n, [&](index_t i) { return x >= xp[i]; }) - 1;  // the last xp[j] <= x
    if (j == n - 1 || xp[j] == x) return fp[j];
    const double slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
    double y = line_through(slope, x - xp[j], fp[j]);
    if (y != y) {
      y = line_through(slope, x - xp[j + 1], fp[j + 1]);
      if (y != y && fp[j] == fp[j + 1]) y = fp[j];
    }
    return y;
  }
};

}  // namespace detail

// NumPy's isin(element, test_elements, invert): a bool array of element's shape, true where the
// value is among the test elements (any shape, flattened; compared in the promoted type, so NaN is
// never found). The test elements are sorted once (xf::sort), then one fused kernel of binary
// searches runs over `element` (any expression). invert = true gives NumPy's invert=True.
template <expression E, expression Test>
auto isin(const E& element, const Test& test_elements, bool invert = false) {
  using T = value_t<Test>;
  static_assert(!is_complex<value_t<E>> && !is_complex<T>, "xf::isin: complex values have no order here (the test elements are sorted)");
  using S = detail::operands_space_t<E, Test>;
  using C = compute_t<promote_t<value_t<E>, T>>;
  const auto sorted = sort(atleast_1d(detail::as_array<S>(test_elements)).ravel());
  detail::require_access(sorted.device_id(), "xf::isin");
  const auto run = [&](auto member) { return array<bool, rank_v<E>, S>(map(member, element)); };
  if (invert) return run(detail::member_of<T, C, true>{sorted.data(), sorted.size()});
  return run(detail::member_of<T, C, false>{sorted.data(), sorted.size()});
}

// NumPy's digitize(x, bins, right): the int64 index of the bin of each value of x (any expression):
// for increasing bins i with bins[i-1] <= x < bins[i] (bins[i-1] < x <= bins[i] when right), for
// decreasing ones bins[i-1] > x >= bins[i] (bins[i-1] >= x > bins[i] when right); 0 or len(bins)
// outside. NaN counts as above every edge (len(bins), or 0 for decreasing bins), as NumPy's. bins is
// 1-D and monotonic, else xf::error: checking that is one pass and a host read, which waits for the
// current stream; then one fused kernel of binary searches.
template <expression X, expression B>
auto digitize(const X& x, const B& bins, bool right = false) {
  static_assert(rank_v<B> == 1, "xf::digitize: bins must be 1-D");
  static_assert(!is_complex<value_t<X>> && !is_complex<value_t<B>>, "xf::digitize: complex values have no order (NumPy raises TypeError)");
  using S = detail::operands_space_t<X, B>;
  using T = value_t<B>;
  using C = compute_t<promote_t<value_t<X>, T>>;
  const auto b = ascontiguousarray(detail::as_array<S>(bins));
  const int direction = detail::bins_monotonicity(b);
  if (direction == 0)
    throw error("xf::digitize: bins must be monotonically increasing or decreasing (bins of shape " + to_string(b.shape()) + " and " +
                dtype_name<T> + ")");
  detail::require_access(b.device_id(), "xf::digitize");
  using Out = array<std::int64_t, rank_v<X>, S>;
  const index_t n = b.size();
  if (direction > 0) {
    if (right) return Out(map(detail::bin_of<T, C, true, false>{b.data(), n}, x));
    return Out(map(detail::bin_of<T, C, false, false>{b.data(), n}, x));
  }
  if (right) return Out(map(detail::bin_of<T, C, true, true>{b.data(), n}, x));
  return Out(map(detail::bin_of<T, C, false, true>{b.data(), n}, x));
}

// NumPy's interp(x, xp, fp, left, right): the piecewise-linear interpolant through (xp, fp) at x (any
// expression), in float64 as NumPy computes it (results equal NumPy's bit for bit). xp must be
// increasing (not checked, as in NumPy); left and right (default fp[0] and fp[-1]) are the values
// outside [xp[0], xp[-1]]; NaN in x gives NaN. One fused kernel of binary searches over x's shape,
// no host read. Real fp only; NumPy's period is not provided.
template <expression X, expression XP, expression FP>
auto interp(const X& x, const XP& xp, const FP& fp, std::optional<double> left = std::nullopt,
            std::optional<double> right = std::nullopt) {
  static_assert(rank_v<XP> == 1 && rank_v<FP> == 1, "xf::interp: the data points xp and fp must be 1-D");
  static_assert(!is_complex<value_t<X>> && !is_complex<value_t<XP>>, "xf::interp: x and xp must be real");
  static_assert(!is_complex<value_t<FP>>, "xf::interp: complex fp is not provided; interpolate xf::real(fp) and xf::imag(fp)");
  using S = detail::operands_space_t<X, XP, FP>;
  if (xp.shape()[0] == 0) throw error("xf::interp: array of sample points is empty (xp of shape (0,))");
  if (xp.shape()[0] != fp.shape()[0])
    throw shape_error("xf::interp: fp and xp are not of the same length (xp of shape " + to_string(xp.shape()) + ", fp of shape " +
                      to_string(fp.shape()) + ")");
  array<double, rank_v<X>, S> out(x.shape());
  if (out.size() == 0) return out;
  const auto px = ascontiguousarray(detail::as_array_of<double, S>(xp));
  const auto pf = ascontiguousarray(detail::as_array_of<double, S>(fp));
  detail::require_access(px.device_id(), "xf::interp");
  const detail::interp_point point{px.data(), pf.data(), px.size(), left.has_value(), right.has_value(), left.value_or(0.0),
                                   right.value_or(0.0)};
  detail::evaluate_into(out, map(point, x), "xf::interp");
  return out;
}

}  // namespace xf
