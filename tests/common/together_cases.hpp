// Several reductions in one pass (xf::eval of xf::lazy reductions) on host arrays (host suite)
// and device arrays (GPU suite), against the long double references of reduce_reference.hpp:
// sums, sums of squares, extremes and their indices, means with variances, over all axes, one
// axis, several axes and keepdims; plain arrays, transposed views and expressions; NaN and inf;
// empty axes; lengths that split across blocks; and the fallback when shapes or axes differ.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <xfuse/reduce.hpp>

#include "reduce_cases.hpp"

namespace xf_test::together {

using xf::index_t;

// Calls f() for all axes, f(one) or f(two) (int arrays) for one or two of them.
template <class F>
void with_axes(const std::vector<int>& axes, const F& f) {
  if (axes.empty()) {
    f();
  } else if (axes.size() == 1) {
    const int one[1] = {axes[0]};
    f(one);
  } else {
    const int two[2] = {axes[0], axes[1]};
    f(two);
  }
}

template <class T>
std::vector<T> squares(const std::vector<T>& v) {
  std::vector<T> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[i] * v[i];
  return out;
}

template <class Got>
void require_extremes(const std::vector<Got>& got, const std::vector<extreme>& want, const std::string& what) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO(what << " at " << i);
    const long double g = ld(got[i]), w = want[i].value;
    if (w != w) REQUIRE(g != g);
    else REQUIRE(g == w);
  }
}

template <class Got>
void require_indices(const std::vector<Got>& got, const std::vector<extreme>& want, const std::string& what) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO(what << " at " << i);
    REQUIRE(static_cast<index_t>(got[i]) == want[i].index);
  }
}

// sum(x), sum(x * x) and max(x) in one pass, over every axis set of a rank-3 array `s`.
template <class Space, class T>
void sums_squares_max(const shape_t& s) {
  const std::size_t n = static_cast<std::size_t>(s[0] * s[1] * s[2]);
  const auto v = uniform<T>(n, -4, 4);
  const auto x = xf::asarray<T, Space>(v, {s[0], s[1], s[2]});
  const double rt = reduce_rtol<T>();
  for (const auto& axes : axis_sets) {
    const std::string what = std::string(xf::dtype_name<T>) + " over " + std::to_string(axes.size()) + " axes";
    with_axes(axes, [&](const auto&... ax) {
      auto [sum, sum_sq, max] = xf::eval(xf::lazy::sum(x, ax...), xf::lazy::sum(x * x, ax...), xf::lazy::max(x, ax...));
      require_sums(xf::to_host(sum), ref_sum(v, s, axes), 1, rt, "sum " + what);
      require_sums(xf::to_host(sum_sq), ref_sum(squares(v), s, axes), 1, rt, "sum of squares " + what);
      require_extremes(xf::to_host(max), ref_extreme(v, s, axes, true, false), "max " + what);
    });
  }
}

// Mean, var (ddof 1) and std (ddof 0) against the two-pass long double variance.
template <class M, class V>
void check_moments(const std::vector<M>& got_mean, const std::vector<V>& got_var, const std::vector<V>& got_sd,
                   const std::vector<M>& v, const shape_t& s, const std::vector<int>& axes, const std::string& what) {
  const double rt = reduce_rtol<M>();
  {
    const auto n = static_cast<long double>(reduced_count(s, axes));
    require_sums(got_mean, ref_sum(v, s, axes), n, rt, "mean " + what);
    const auto want_var = ref_var(v, s, axes, 1), want_var0 = ref_var(v, s, axes, 0);
    REQUIRE(got_var.size() == want_var.size());
    for (std::size_t i = 0; i < got_var.size(); ++i) {
      INFO("var " << what << " at " << i);
      REQUIRE(std::fabs(ld(got_var[i]) - want_var[i]) <= 50 * rt * want_var[i]);
      REQUIRE(std::fabs(ld(got_sd[i]) - std::sqrt(want_var0[i])) <= 50 * rt * std::sqrt(want_var0[i]));
    }
  }
}

// mean and var (ddof 1) in one pass, and std beside them, over rows, columns and all elements.
template <class Space, class T>
void mean_and_variance(index_t rows, index_t cols) {
  const auto v = uniform<T>(static_cast<std::size_t>(rows * cols), 100, 104);  // a large mean: cancellation shows
  const auto a = xf::asarray<T, Space>(v, {rows, cols});
  const shape_t s{rows, cols};
  for (const std::vector<int>& axes : std::vector<std::vector<int>>{{0}, {1}, {}}) {
    const std::string what = std::string(xf::dtype_name<T>) + " over " + (axes.empty() ? "all" : std::to_string(axes[0]));
    with_axes(axes, [&](const auto&... ax) {
      const auto [mean, var, sd] = xf::eval(xf::lazy::mean(a, ax...), xf::lazy::var(a, ax..., xf::ddof(1)), xf::lazy::std(a, ax...));
      check_moments(xf::to_host(mean), xf::to_host(var), xf::to_host(sd), v, s, axes, what);
    });
  }
}

// Views and expressions: a transposed view, keepdims on some results and not others, argmax with
// max, NaN and inf (max and argmax take the first NaN; nansum skips them).
template <class Space, class T>
void views_and_specials() {
  const index_t rows = 45, cols = 70;
  auto v = uniform<T>(static_cast<std::size_t>(rows * cols), -3, 3);
  v[7 * cols + 3] = std::numeric_limits<T>::quiet_NaN();
  v[7 * cols + 9] = std::numeric_limits<T>::quiet_NaN();
  v[20 * cols + 5] = std::numeric_limits<T>::infinity();
  v[31 * cols + 0] = -std::numeric_limits<T>::infinity();
  const auto a = xf::asarray<T, Space>(v, {rows, cols});
  // Over axis 1 of a: per row. The row with NaN has NaN in max and nansum skips the NaN.
  const auto [m, am, ns, mn] = xf::eval(xf::lazy::max(a, 1, xf::keepdims), xf::lazy::argmax(a, 1), xf::lazy::nansum(a, 1),
                                       xf::lazy::min(a * 2 + 1, 1, xf::keepdims));
  static_assert(std::decay_t<decltype(m)>::rank == 2 && std::decay_t<decltype(am)>::rank == 1);
  REQUIRE(m.shape() == std::array<index_t, 2>{rows, 1});
  const shape_t s{rows, cols};
  const std::vector<int> ax{1};
  require_extremes(xf::to_host(m), ref_extreme(v, s, ax, true, false), "max of rows");
  require_indices(xf::to_host(am), ref_extreme(v, s, ax, true, false), "argmax of rows");
  require_sums(xf::to_host(ns), ref_sum(v, s, ax, true), 1, reduce_rtol<T>(), "nansum of rows");
  std::vector<T> affine(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) affine[i] = v[i] * 2 + 1;
  require_extremes(xf::to_host(mn), ref_extreme(affine, s, ax, false, false), "min of 2a+1");
  // The transposed view: its axis 0 is a's axis 1.
  const auto t = a.transpose();
  const auto [tm, tam] = xf::eval(xf::lazy::max(t, 0), xf::lazy::argmax(t, 0));
  require_extremes(xf::to_host(tm), ref_extreme(v, s, ax, true, false), "max of a transposed view");
  require_indices(xf::to_host(tam), ref_extreme(v, s, ax, true, false), "argmax of a transposed view");
}

// Long reductions that split across blocks (a device's second kernel folds the tuples of partials).
template <class Space>
void long_reductions(index_t n) {
  const auto v = uniform<float>(static_cast<std::size_t>(n), -1, 1);
  const auto x = xf::asarray<float, Space>(v, {n});
  const auto [s, q, m, am] = xf::eval(xf::lazy::sum(x), xf::lazy::sum(x * x), xf::lazy::max(x), xf::lazy::argmin(x));
  const shape_t sh{n};
  const std::vector<int> all;
  require_sums(xf::to_host(s), ref_sum(v, sh, all), 1, 2e-5, "sum");
  require_sums(xf::to_host(q), ref_sum(squares(v), sh, all), 1, 2e-5, "sum of squares");
  require_extremes(xf::to_host(m), ref_extreme(v, sh, all, true, false), "max");
  require_indices(xf::to_host(am), ref_extreme(v, sh, all, false, false), "argmin");
}

// Different axes or shapes run as separate passes, with the same answers; empty axes give the
// identity or NumPy's error, naming the reduction.
template <class Space>
void fallback_and_empty() {
  const index_t rows = 9, cols = 13;
  const auto v = uniform<double>(static_cast<std::size_t>(rows * cols), -2, 2);
  const auto a = xf::asarray<double, Space>(v, {rows, cols});
  const auto b = xf::asarray<double, Space>(uniform<double>(5, -2, 2), {5});
  const shape_t s{rows, cols};
  const auto [col_sums, row_max] = xf::eval(xf::lazy::sum(a, 0), xf::lazy::max(a, 1));
  require_sums(xf::to_host(col_sums), ref_sum(v, s, {0}), 1, 1e-12, "column sums beside row maxima");
  require_extremes(xf::to_host(row_max), ref_extreme(v, s, {1}, true, false), "row maxima beside column sums");
  const auto [sum_a, sum_b] = xf::eval(xf::lazy::sum(a), xf::lazy::sum(b));
  require_sums(xf::to_host(sum_a), ref_sum(v, s, {}), 1, 1e-12, "sum of a beside sum of b");
  REQUIRE(std::fabs(sum_b.item() - xf::sum(b).item()) <= 1e-12);

  const auto empty = xf::asarray<double, Space>(std::vector<double>{}, {4, 0});
  const auto [zero_sums, zero_counts] = xf::eval(xf::lazy::sum(empty, 1), xf::lazy::count_nonzero(empty, 1));
  REQUIRE(xf::to_host(zero_sums) == std::vector<double>(4, 0.0));
  REQUIRE(xf::to_host(zero_counts) == std::vector<std::int64_t>(4, 0));
  REQUIRE_THROWS_WITH(xf::eval(xf::lazy::sum(empty, 1), xf::lazy::max(empty, 1)),
                      XF_CONTAINS("xf::lazy::max") && XF_CONTAINS("zero-size reduction"));
  const auto [none_a, none_b] = xf::eval(xf::lazy::sum(empty, 0), xf::lazy::max(empty, 0));  // no results: no error
  REQUIRE(none_a.size() == 0);
  REQUIRE(none_b.size() == 0);
  REQUIRE_THROWS_WITH(xf::lazy::sum(a, 2), XF_CONTAINS("xf::lazy::sum") && XF_CONTAINS("out of bounds"));
}

// A described reduction written into an array (`out.assign(xf::lazy::sum(x, 1))`): straight into
// a C-ordered destination of the result's shape and type (the description's result stays unset:
// no result array was made), otherwise through the result. Equal to the eager reduction bit for bit
// either way; empty reductions as elsewhere.
template <class Space>
void reduction_into_destination() {
  const index_t rows = 37, cols = 1001;
  const auto v = uniform<double>(static_cast<std::size_t>(rows * cols), -2, 2);
  const auto a = xf::asarray<double, Space>(v, {rows, cols});
  const auto eager_rows = xf::to_host(xf::sum(a, 1));

  const xf::array<double, 1, Space> row_sums({rows});
  const auto direct = xf::lazy::sum(a, 1);
  row_sums.assign(direct);
  REQUIRE_FALSE(direct.state->value.has_value());
  REQUIRE(xf::to_host(row_sums) == eager_rows);
  const xf::array<double, 0, Space> total(xf::dims<0>{});
  total.assign(xf::lazy::mean(a));
  REQUIRE(total.item() == xf::mean(a).item());
  const xf::array<double, 2, Space> kept({1, cols});
  const auto columns = xf::lazy::max(a, 0, xf::keepdims);
  kept.assign(columns);
  REQUIRE_FALSE(columns.state->value.has_value());
  REQUIRE(xf::to_host(kept) == xf::to_host(xf::max(a, 0, xf::keepdims)));

  // Through the result: a strided destination, another element type, a destination the
  // reduction reads, a broadcast.
  const xf::array<double, 1, Space> wide({2 * rows});
  const auto strided = xf::lazy::sum(a, 1);
  wide(xf::slice(0, 2 * rows, 2)).assign(strided);
  REQUIRE(strided.state->value.has_value());
  REQUIRE(xf::to_host(xf::eval(wide(xf::slice(0, 2 * rows, 2)))) == eager_rows);
  const xf::array<float, 1, Space> narrow({rows});
  narrow.assign(xf::lazy::sum(a, 1));
  const auto narrow_host = xf::to_host(narrow);
  for (index_t i = 0; i < rows; ++i) REQUIRE(narrow_host[static_cast<std::size_t>(i)] == static_cast<float>(eager_rows[static_cast<std::size_t>(i)]));
  const auto b = xf::asarray<double, Space>(v, {rows, cols});
  const auto reads_itself = xf::lazy::sum(b, 0, xf::keepdims);  // its result goes into b's first row
  b(xf::slice(0, 1), xf::slice()).assign(reads_itself);
  REQUIRE(reads_itself.state->value.has_value());
  REQUIRE(xf::to_host(xf::eval(b(0, xf::slice()))) == xf::to_host(xf::sum(a, 0)));
  const xf::array<double, 2, Space> spread({rows, cols});
  spread.assign(xf::lazy::sum(a, 0, xf::keepdims));  // broadcast along rows: through the result
  REQUIRE(xf::to_host(xf::eval(spread(rows - 1, xf::slice()))) == xf::to_host(xf::sum(a, 0)));

  const auto empty = xf::asarray<double, Space>(std::vector<double>{}, {4, 0});
  const xf::array<double, 1, Space> zeros({4});
  zeros.assign(xf::lazy::sum(empty, 1));
  REQUIRE(xf::to_host(zeros) == std::vector<double>(4, 0.0));
  REQUIRE_THROWS_WITH(zeros.assign(xf::lazy::max(empty, 1)), XF_CONTAINS("xf::lazy::max") && XF_CONTAINS("zero-size reduction"));
}

}  // namespace xf_test::together
