// SPDX-License-Identifier: Apache-2.0
// Order statistics (NumPy's quantile and percentile with the default "linear" method, and median)
// of any expression: over all elements or along one axis, with keepdims, for one q or several
// (a leading axis of the result, as NumPy's). A NaN in a line makes its result NaN, as NumPy's.
//
// Along an axis, the lines are sorted (../sort.hpp) and one fused kernel reads each line's two
// neighbouring order statistics. Over all elements of a device array nothing is sorted: radix
// selection (select.cuh) reads the keys once per 11-bit digit (three times for 32-bit keys,
// six for 64-bit ones) and once more for the upper neighbour, for each q. Host arrays sort.
//
// Result types: a floating input keeps its type (also with several q, where NumPy 2 returns
// float64 for a float32 input); integers and bool give float64.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "../reduce.hpp"
#include "sorting.hpp"
#include "select.cuh"
#include "../base/nvtx_emit.hpp"

namespace xf {
namespace detail {

template <class T>
using quantile_result_t = std::conditional_t<std::is_floating_point_v<compute_t<T>>, T, double>;

// One result from the keys of rank lo and lo + 1 (hi) of a line: NumPy's _lerp with the weight
// gamma of hi (computed as NumPy does, so the rounding is NumPy's for float, double and integers;
// 16-bit floats interpolate in float and round once, where NumPy rounds each step to half), or for
// the median the mean of the one or two middle values.
template <class T, bool Median>
struct order_statistic {
  using K = radix_key_t<T>;
  using Out = quantile_result_t<T>;
  using C = compute_t<Out>;
  double gamma = 0;  // median: 0 for one middle value, else 0.5
  XF_HD Out from_keys(K lo, K hi, bool any_nan) const {
    if (any_nan) return convert<Out>(limits<C>::quiet_NaN());
    const C a = convert<C>(from_radix_key<T>{}(lo)), b = convert<C>(from_radix_key<T>{}(hi));
    if constexpr (Median) {
      return convert<Out>(gamma == 0 ? a : (a + b) / C(2));
    } else {
      const C diff = b - a;
      return convert<Out>(gamma >= 0.5 ? b - math::rounded_product(diff, static_cast<C>(1 - gamma))
                                       : a + math::rounded_product(diff, static_cast<C>(gamma)));
    }
  }
  // A sorted line: its keys of rank lo and hi, and its last key (NaN sorts last).
  XF_HD XF_FORCEINLINE Out operator()(K lo, K hi, K last) const {
    return from_keys(lo, hi, std::is_floating_point_v<compute_t<T>> && last == K(~K(0)));
  }
};

// Where q falls in a line of n > 0 sorted values: ranks lo and hi and the weight of hi, as NumPy's
// _get_indexes and _get_gamma give them (past the end both ranks are the last, gamma > 1).
struct quantile_position {
  index_t lo, hi;
  double gamma;
};
inline quantile_position position_of(double q, index_t n) {
  const double at = static_cast<double>(n - 1) * q;
  if (at >= static_cast<double>(n - 1)) return {n - 1, n - 1, at + 1};
  const double below = std::floor(at);
  return {static_cast<index_t>(below), static_cast<index_t>(below) + 1, at - below};
}

template <bool Median, class T>
order_statistic<T, Median> statistic_at(double q, index_t n, quantile_position& where) {
  if constexpr (Median) {
    where = {(n - 1) / 2, n / 2, 0};
    return {n % 2 == 0 ? 0.5 : 0.0};
  } else {
    where = position_of(q, n);
    return {where.gamma};
  }
}

inline void check_quantiles(const std::vector<double>& qs, double scale, const char* op) {
  for (const double q : qs)
    if (!(q >= 0 && q <= scale))
      throw error(std::string(op) + ": quantiles must be in the range [0, " + (scale == 1 ? "1" : "100") + "] (got " +
                  std::to_string(q) + ")");
}

// The order statistics of the n-element lines of `keys` (sorted, C-ordered, lines last) into
// result(i, line) for each q.
template <bool Median, class T, class Keys, class Result>
void statistics_of_sorted_lines(const Keys& keys, const std::vector<double>& qs, const Result& result) {
  const index_t n = keys.shape()[Keys::rank - 1], lines = keys.size() / n;
  const auto rows = keys.reshape({lines, n});
  for (std::size_t i = 0; i < qs.size(); ++i) {
    quantile_position where{};
    const auto stat = statistic_at<Median, T>(qs[i], n, where);
    result(static_cast<index_t>(i), all) = map(stat, rows(all, where.lo), rows(all, where.hi), rows(all, n - 1));
  }
}

// All elements of a device expression: radix selection of each q's two keys.
template <bool Median, class T, class Keys, class Result>
void statistics_by_selection(const Keys& keys, const std::vector<double>& qs, const Result& result) {
#if XF_CUDA_TU
  const index_t n = keys.size();
  auto each = [&](auto&& select) {
    for (std::size_t i = 0; i < qs.size(); ++i) {
      quantile_position where{};
      const auto stat = statistic_at<Median, T>(qs[i], n, where);
      select(static_cast<unsigned long long>(where.lo), stat, static_cast<index_t>(i), where.hi == where.lo);
    }
  };
  select_ranks<std::is_floating_point_v<compute_t<T>>>(keys.data(), n, result.data(), each,
                                                         current_slot(keys.device_id()).handle);
#else
  (void)keys, (void)qs, (void)result;
#endif
}

// The statistics of `e` for each q as an array [q, kept...]: over all elements (AllElements) or
// along `axis`; kept is the shape without the reduced axes, or with them as 1 (Keep).
template <bool Median, bool Keep, bool AllElements, class E>
auto order_statistics(const E& e, const std::vector<double>& qs, int axis, const char* op) {
  using T = value_t<E>;
  using S = resolved_space_t<space_t<E>>;
  constexpr int R = rank_v<E>;
  constexpr int Kept = Keep ? R : (AllElements ? 0 : R - 1);
  const nvtx_range range(op);
  constexpr bool all_elements = AllElements;
  dims<Kept + 1> shape{};
  shape[0] = static_cast<index_t>(qs.size());
  for (int d = 0, at = 1; d < R; ++d) {
    const bool reduced = all_elements || d == axis;
    if (Keep) shape[at++] = reduced ? 1 : e.shape()[d];
    else if (!reduced) shape[at++] = e.shape()[d];
  }
  const index_t n = all_elements ? e.size() : e.shape()[axis];
  array<quantile_result_t<T>, Kept + 1, S> result(shape);
  if (result.size() == 0) return result;  // no q (NumPy: an empty result), or no line
  const index_t lines = n == 0 ? 0 : result.size() / static_cast<index_t>(qs.size());
  if (n == 0) {
    if constexpr (!Median)
      throw index_error(std::string(op) + ": zero-size reduction (shape " + to_string(e.shape()) +
                        ") has no quantile (NumPy raises IndexError)");
    using Out = quantile_result_t<T>;
    result.assign(convert<Out>(std::numeric_limits<compute_t<Out>>::quiet_NaN()));  // NumPy's median of nothing
    return result;
  }
  auto flat = result.reshape({static_cast<index_t>(qs.size()), lines});
  if constexpr (R == 0) {
    statistics_of_sorted_lines<Median, T>(radix_keys<false>(as_array(e).reshape({index_t{1}})).reshape({1, 1}), qs, flat);
  } else if constexpr (all_elements) {
    if constexpr (std::is_same_v<S, device>) {
      static_assert(cuda_tu || always_false<E>, "xfuse: quantiles of device arrays launch CUDA kernels; compile this file with nvcc");
      statistics_by_selection<Median, T>(radix_keys<false>(e), qs, flat);
    } else {
      statistics_of_sorted_lines<Median, T>(sorted_keys(as_array(e).ravel()), qs, flat);
    }
  } else {
    const auto moved = as_array(e).transpose(axis_last_order<R>(axis));
    statistics_of_sorted_lines<Median, T>(sorted_keys(moved), qs, flat);
  }
  return result;
}

// The statistics without the leading q axis (one q).
template <class A>
auto without_q_axis(const A& a) {
  dims<A::rank - 1> shape{};
  for (int d = 1; d < A::rank; ++d) shape[d - 1] = a.shape()[d];
  return a.reshape(shape);
}

template <class E>
int statistic_axis(const E& e, int axis, const char* op) {
  constexpr int R = rank_v<E>;
  static_assert(R >= 1, "xf::quantile/percentile/median: a 0-d array has no axis; call it without one");
  return normalize_axis_of(axis, e.shape(), op);
}

}  // namespace detail

// np.quantile(e, q) (method "linear"): over all elements (a 0-d array), along one axis, with
// keepdims; q in [0, 1]. On device arrays it runs in stream order (no synchronisation).
template <expression E>
auto quantile(const E& e, double q) {
  detail::check_quantiles({q}, 1, "xf::quantile");
  return detail::without_q_axis(detail::order_statistics<false, false, true>(e, {q}, -1, "xf::quantile"));
}
template <expression E>
auto quantile(const E& e, double q, keepdims_t) {
  detail::check_quantiles({q}, 1, "xf::quantile");
  return detail::without_q_axis(detail::order_statistics<false, true, true>(e, {q}, -1, "xf::quantile"));
}
template <expression E>
auto quantile(const E& e, double q, int axis) {
  detail::check_quantiles({q}, 1, "xf::quantile");
  const int a = detail::statistic_axis(e, axis, "xf::quantile");
  return detail::without_q_axis(detail::order_statistics<false, false, false>(e, {q}, a, "xf::quantile"));
}
template <expression E>
auto quantile(const E& e, double q, int axis, keepdims_t) {
  detail::check_quantiles({q}, 1, "xf::quantile");
  const int a = detail::statistic_axis(e, axis, "xf::quantile");
  return detail::without_q_axis(detail::order_statistics<false, true, false>(e, {q}, a, "xf::quantile"));
}
// Several quantiles at once: the result's first axis runs over qs.
template <expression E>
auto quantile(const E& e, const std::vector<double>& qs) {
  detail::check_quantiles(qs, 1, "xf::quantile");
  return detail::order_statistics<false, false, true>(e, qs, -1, "xf::quantile");
}
template <expression E>
auto quantile(const E& e, const std::vector<double>& qs, int axis) {
  detail::check_quantiles(qs, 1, "xf::quantile");
  return detail::order_statistics<false, false, false>(e, qs, detail::statistic_axis(e, axis, "xf::quantile"), "xf::quantile");
}
template <expression E>
auto quantile(const E& e, const std::vector<double>& qs, int axis, keepdims_t) {
  detail::check_quantiles(qs, 1, "xf::quantile");
  return detail::order_statistics<false, true, false>(e, qs, detail::statistic_axis(e, axis, "xf::quantile"), "xf::quantile");
}

// np.percentile(e, p): quantile(e, p / 100), p in [0, 100].
template <expression E>
auto percentile(const E& e, double p) {
  detail::check_quantiles({p}, 100, "xf::percentile");
  return detail::without_q_axis(detail::order_statistics<false, false, true>(e, {p / 100}, -1, "xf::percentile"));
}
template <expression E>
auto percentile(const E& e, double p, int axis) {
  detail::check_quantiles({p}, 100, "xf::percentile");
  const int a = detail::statistic_axis(e, axis, "xf::percentile");
  return detail::without_q_axis(detail::order_statistics<false, false, false>(e, {p / 100}, a, "xf::percentile"));
}
template <expression E>
auto percentile(const E& e, double p, int axis, keepdims_t) {
  detail::check_quantiles({p}, 100, "xf::percentile");
  const int a = detail::statistic_axis(e, axis, "xf::percentile");
  return detail::without_q_axis(detail::order_statistics<false, true, false>(e, {p / 100}, a, "xf::percentile"));
}
template <expression E>
auto percentile(const E& e, std::vector<double> ps) {
  detail::check_quantiles(ps, 100, "xf::percentile");
  for (double& p : ps) p /= 100;
  return detail::order_statistics<false, false, true>(e, ps, -1, "xf::percentile");
}
template <expression E>
auto percentile(const E& e, std::vector<double> ps, int axis) {
  detail::check_quantiles(ps, 100, "xf::percentile");
  for (double& p : ps) p /= 100;
  return detail::order_statistics<false, false, false>(e, ps, detail::statistic_axis(e, axis, "xf::percentile"), "xf::percentile");
}

// np.median(e): the middle value, or the mean of the two middle values; NaN for no elements.
template <expression E>
auto median(const E& e) {
  return detail::without_q_axis(detail::order_statistics<true, false, true>(e, {0.5}, -1, "xf::median"));
}
template <expression E>
auto median(const E& e, keepdims_t) {
  return detail::without_q_axis(detail::order_statistics<true, true, true>(e, {0.5}, -1, "xf::median"));
}
template <expression E>
auto median(const E& e, int axis) {
  const int a = detail::statistic_axis(e, axis, "xf::median");
  return detail::without_q_axis(detail::order_statistics<true, false, false>(e, {0.5}, a, "xf::median"));
}
template <expression E>
auto median(const E& e, int axis, keepdims_t) {
  const int a = detail::statistic_axis(e, axis, "xf::median");
  return detail::without_q_axis(detail::order_statistics<true, true, false>(e, {0.5}, a, "xf::median"));
}

}  // namespace xf
