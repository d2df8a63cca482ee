// SPDX-License-Identifier: Apache-2.0
// NumPy's nanquantile, nanpercentile and nanmedian: the order statistics of each line with its NaN
// left out (quantile.hpp's "linear" method and rounding on the numbers that remain); a line of NaN
// only, or no elements at all, gives NaN. Integer and bool inputs have no NaN: they are quantile
// and median, but for the empty case.
//
// Floating inputs sort their lines (also over all elements: the count of numbers, which the ranks
// depend on, is known only on the device, and radix selection needs the ranks on the host), then
// one fused kernel per q finds each line's count of numbers by a binary search for the first NaN
// key (every NaN sorts last, as the largest key) and reads its two neighbouring order statistics.
// No host read.
#pragma once

#include <string>
#include <vector>

#include "quantile.hpp"
#include "../base/nvtx_emit.hpp"

namespace xf {
namespace detail {

// The statistic of one sorted line of keys with its NaN keys left out: q's two neighbours among
// the m numbers and NumPy's weight of the upper one (quantile.hpp's position_of with m), or the
// middle of them (Median).
template <class T, bool Median>
struct nan_skipping_statistic {
  using K = radix_key_t<T>;
  using Out = quantile_result_t<T>;
  const K* keys;
  index_t n;
  double q;
  XF_HD XF_FORCEINLINE Out operator()(index_t line) const {
    const K* row = keys + line * n;
    index_t m = 0, hi = n;  // the count of numbers: the first NaN key's rank
    while (m < hi) {
      const index_t mid = m + (hi - m) / 2;
      if (row[mid] == K(~K(0))) hi = mid;
      else m = mid + 1;
    }
    if (m == 0) return order_statistic<T, Median>{}.from_keys(0, 0, true);  // only NaN: NaN
    if constexpr (Median) {
      return order_statistic<T, true>{m % 2 == 0 ? 0.5 : 0.0}.from_keys(row[(m - 1) / 2], row[m / 2], false);
    } else {
      const double at = static_cast<double>(m - 1) * q;
      if (at >= static_cast<double>(m - 1)) return order_statistic<T, false>{at + 1}.from_keys(row[m - 1], row[m - 1], false);
      const index_t below = static_cast<index_t>(at);  // at >= 0: the floor
      return order_statistic<T, false>{at - static_cast<double>(below)}.from_keys(row[below], row[below + 1], false);
    }
  }
};

// As order_statistics (quantile.hpp), NaN left out: the result [q, kept...].
template <bool Median, bool Keep, bool AllElements, class E>
auto nan_order_statistics(const E& e, const std::vector<double>& qs, int axis, const char* op) {
  using T = value_t<E>;
  constexpr int R = rank_v<E>;
  const index_t n = AllElements ? e.size() : e.shape()[axis];
  // No NaN to leave out (integers, bool), or no element: the median machinery (NaN for no element,
  // as NumPy's nanmean of nothing, where quantile raises) or the quantile itself.
  if (n == 0) return order_statistics<true, Keep, AllElements>(e, qs, axis, op);
  if constexpr (!std::is_floating_point_v<compute_t<T>>) {
    return order_statistics<Median, Keep, AllElements>(e, qs, axis, op);
  } else {
    const nvtx_range range(op);
    constexpr int Kept = Keep ? R : (AllElements ? 0 : R - 1);
    dims<Kept + 1> shape{};
    shape[0] = static_cast<index_t>(qs.size());
    for (int d = 0, at = 1; d < R; ++d) {
      const bool reduced = AllElements || d == axis;
      if (Keep) shape[at++] = reduced ? 1 : e.shape()[d];
      else if (!reduced) shape[at++] = e.shape()[d];
    }
    array<quantile_result_t<T>, Kept + 1, resolved_space_t<space_t<E>>> result(shape);
    if (result.size() == 0) return result;
    const index_t lines = result.size() / static_cast<index_t>(qs.size());
    const auto keys = [&] {
      if constexpr (AllElements || R == 0) return sorted_keys(as_array(e).reshape(dims<1>{n}));
      else return sorted_keys(as_array(e).transpose(axis_last_order<R>(axis)));
    }();
    require_access(keys.device_id(), op);  // read through its pointer
    const auto flat = result.reshape(dims<2>{static_cast<index_t>(qs.size()), lines});
    for (std::size_t i = 0; i < qs.size(); ++i)
      flat(static_cast<index_t>(i), all) = map(nan_skipping_statistic<T, Median>{keys.data(), n, qs[i]}, arange<index_t>(lines));
    return result;
  }
}

}  // namespace detail

// np.nanquantile(e, q) (method "linear"): quantile with NaN left out; a line of NaN only gives
// NaN. Over all elements, along one axis, with keepdims, several q at once (a leading axis), as
// xf::quantile; q in [0, 1]. Stream-ordered on device arrays.
template <expression E>
auto nanquantile(const E& e, double q) {
  detail::check_quantiles({q}, 1, "xf::nanquantile");
  return detail::without_q_axis(detail::nan_order_statistics<false, false, true>(e, {q}, -1, "xf::nanquantile"));
}
template <expression E>
auto nanquantile(const E& e, double q, keepdims_t) {
  detail::check_quantiles({q}, 1, "xf::nanquantile");
  return detail::without_q_axis(detail::nan_order_statistics<false, true, true>(e, {q}, -1, "xf::nanquantile"));
}
template <expression E>
auto nanquantile(const E& e, double q, int axis) {
  detail::check_quantiles({q}, 1, "xf::nanquantile");
  const int a = detail::statistic_axis(e, axis, "xf::nanquantile");
  return detail::without_q_axis(detail::nan_order_statistics<false, false, false>(e, {q}, a, "xf::nanquantile"));
}
template <expression E>
auto nanquantile(const E& e, double q, int axis, keepdims_t) {
  detail::check_quantiles({q}, 1, "xf::nanquantile");
  const int a = detail::statistic_axis(e, axis, "xf::nanquantile");
  return detail::without_q_axis(detail::nan_order_statistics<false, true, false>(e, {q}, a, "xf::nanquantile"));
}
template <expression E>
auto nanquantile(const E& e, const std::vector<double>& qs) {
  detail::check_quantiles(qs, 1, "xf::nanquantile");
  return detail::nan_order_statistics<false, false, true>(e, qs, -1, "xf::nanquantile");
}
template <expression E>
auto nanquantile(const E& e, const std::vector<double>& qs, int axis) {
  detail::check_quantiles(qs, 1, "xf::nanquantile");
  return detail::nan_order_statistics<false, false, false>(e, qs, detail::statistic_axis(e, axis, "xf::nanquantile"),
                                                           "xf::nanquantile");
}
template <expression E>
auto nanquantile(const E& e, const std::vector<double>& qs, int axis, keepdims_t) {
  detail::check_quantiles(qs, 1, "xf::nanquantile");
  return detail::nan_order_statistics<false, true, false>(e, qs, detail::statistic_axis(e, axis, "xf::nanquantile"),
                                                          "xf::nanquantile");
}

// np.nanpercentile(e, p): nanquantile(e, p / 100), p in [0, 100].
template <expression E>
auto nanpercentile(const E& e, double p) {
  detail::check_quantiles({p}, 100, "xf::nanpercentile");
  return detail::without_q_axis(detail::nan_order_statistics<false, false, true>(e, {p / 100}, -1, "xf::nanpercentile"));
}
template <expression E>
auto nanpercentile(const E& e, double p, int axis) {
  detail::check_quantiles({p}, 100, "xf::nanpercentile");
  const int a = detail::statistic_axis(e, axis, "xf::nanpercentile");
  return detail::without_q_axis(detail::nan_order_statistics<false, false, false>(e, {p / 100}, a, "xf::nanpercentile"));
}
template <expression E>
auto nanpercentile(const E& e, double p, int axis, keepdims_t) {
  detail::check_quantiles({p}, 100, "xf::nanpercentile");
  const int a = detail::statistic_axis(e, axis, "xf::nanpercentile");
  return detail::without_q_axis(detail::nan_order_statistics<false, true, false>(e, {p / 100}, a, "xf::nanpercentile"));
}
template <expression E>
auto nanpercentile(const E& e, std::vector<double> ps) {
  detail::check_quantiles(ps, 100, "xf::nanpercentile");
  for (double& p : ps) p /= 100;
  return detail::nan_order_statistics<false, false, true>(e, ps, -1, "xf::nanpercentile");
}
template <expression E>
auto nanpercentile(const E& e, std::vector<double> ps, int axis) {
  detail::check_quantiles(ps, 100, "xf::nanpercentile");
  for (double& p : ps) p /= 100;
  return detail::nan_order_statistics<false, false, false>(e, ps, detail::statistic_axis(e, axis, "xf::nanpercentile"),
                                                           "xf::nanpercentile");
}

// np.nanmedian(e): the median of the numbers, NaN left out; NaN for a line of NaN only or no
// elements.
template <expression E>
auto nanmedian(const E& e) {
  return detail::without_q_axis(detail::nan_order_statistics<true, false, true>(e, {0.5}, -1, "xf::nanmedian"));
}
template <expression E>
auto nanmedian(const E& e, keepdims_t) {
  return detail::without_q_axis(detail::nan_order_statistics<true, true, true>(e, {0.5}, -1, "xf::nanmedian"));
}
template <expression E>
auto nanmedian(const E& e, int axis) {
  const int a = detail::statistic_axis(e, axis, "xf::nanmedian");
  return detail::without_q_axis(detail::nan_order_statistics<true, false, false>(e, {0.5}, a, "xf::nanmedian"));
}
template <expression E>
auto nanmedian(const E& e, int axis, keepdims_t) {
  const int a = detail::statistic_axis(e, axis, "xf::nanmedian");
  return detail::without_q_axis(detail::nan_order_statistics<true, true, false>(e, {0.5}, a, "xf::nanmedian"));
}

}  // namespace xf
