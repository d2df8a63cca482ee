// Scan and sort cases shared by the host suite (host arrays) and the GPU suite (device arrays):
// cumsum and cumprod along every axis and flattened, sort and argsort along the last axis, on
// plain arrays, views and expressions, against plain sequential loops (long double or exact
// integer arithmetic; std::stable_sort with NumPy's order, NaN last), no xfuse code involved.
#pragma once

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include <xfuse/scan.hpp>
#include <xfuse/sort.hpp>

#include "reduce_reference.hpp"

namespace xf_test {

// Running fold of `x` (C-ordered, shape `s`) along `axis`, or over the flattened x when axis is
// empty; results in the result's C order.
template <class Acc, class T, class Step>
std::vector<Acc> ref_scan(const std::vector<T>& x, const shape_t& s, const std::vector<int>& axis, Acc init, Step step) {
  std::vector<Acc> out(x.size());
  if (axis.empty()) {
    Acc acc = init;
    for (std::size_t i = 0; i < x.size(); ++i) out[i] = acc = step(acc, x[i]);
    return out;
  }
  const int r = static_cast<int>(s.size()), a = axis[0] < 0 ? axis[0] + r : axis[0];
  xf::index_t inner = 1, outer = 1;
  for (int d = a + 1; d < r; ++d) inner *= s[d];
  for (int d = 0; d < a; ++d) outer *= s[d];
  for (xf::index_t o = 0; o < outer; ++o)
    for (xf::index_t i = 0; i < inner; ++i) {
      Acc acc = init;
      for (xf::index_t k = 0; k < s[a]; ++k) {
        const auto at = static_cast<std::size_t>((o * s[a] + k) * inner + i);
        out[at] = acc = step(acc, x[at]);
      }
    }
  return out;
}

template <class L>
struct sum_abs_of {
  L sum{};
  long double abs = 0;
};

template <class L>
struct prod_count_of {
  L prod = L(1);
  long double count = 0;  // factors in the product
};

template <class Scan, class X>
auto scanned_values(const Scan& scan, const X& x, const std::vector<int>& axis) {
  return axis.empty() ? xf::to_host(scan(x)) : xf::to_host(scan(x, axis[0]));
}

#define XF_SCAN(NAME) [](const auto& a, const auto&... rest) { return xf::NAME(a, rest...); }

inline const std::vector<std::vector<int>> scan_axes = {{}, {0}, {1}, {2}, {-1}};

// cumsum and cumprod of T over every axis of a rank-3 array of shape s, and with a Dtype.
template <class Space, class T>
void cumulative(const shape_t& s) {
  const std::size_t n = static_cast<std::size_t>(s[0] * s[1] * s[2]);
  const auto x_sum = xf::asarray<T, Space>(xf::is_integer<T> ? full_range<T>(n) : uniform<T>(n, -10, 10), {s[0], s[1], s[2]});
  // Products stay in range (and integer products exact): values in [-2, 2], or e^u with u uniform
  // in [-0.01, 0.01], whose log has mean 0 (uniform values near 1 drift down and underflow).
  auto near_one = xf::is_integer<T> ? uniform<T>(n, -2, 2) : uniform<T>(n, 1, 1);
  if constexpr (!xf::is_integer<T> && !xf::is_bool<T>) {
    const auto u = uniform<double>(n, -0.01, 0.01), w = uniform<double>(n, -0.01, 0.01);
    for (std::size_t i = 0; i < n; ++i) {
      if constexpr (xf::is_complex<T>) near_one[i] = T(std::exp(u[i]) * std::cos(w[i]), std::exp(u[i]) * std::sin(w[i]));
      else near_one[i] = xf::detail::convert<T>(std::exp(u[i]));
    }
  }
  const auto x_prod = xf::asarray<T, Space>(near_one, {s[0], s[1], s[2]});
  const auto v_sum = xf::to_host(x_sum), v_prod = xf::to_host(x_prod);
  using Sum = xf::value_t<decltype(xf::cumsum(x_sum))>;
  static_assert(std::is_same_v<Sum, xf::value_t<decltype(xf::cumprod(x_sum, 0))>>);
  for (const auto& axis : scan_axes) {
    const std::string what = std::string(xf::dtype_name<T>) + (axis.empty() ? " flattened" : " along axis " + std::to_string(axis[0]));
    const auto sums = scanned_values(XF_SCAN(cumsum), x_sum, axis);
    const auto prods = scanned_values(XF_SCAN(cumprod), x_prod, axis);
    if constexpr (xf::is_integer<T> || xf::is_bool<T>) {
      // Exact: wrapped 64-bit arithmetic, as NumPy's int64 (uint64) accumulation.
      const auto want_sum = ref_scan(v_sum, s, axis, std::uint64_t{0}, [](std::uint64_t a, const T& e) {
        return a + static_cast<std::uint64_t>(static_cast<std::int64_t>(e));
      });
      const auto want_prod = ref_scan(v_prod, s, axis, std::int64_t{1}, [](std::int64_t a, const T& e) {
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(static_cast<std::int64_t>(e)));
      });
      REQUIRE(sums.size() == want_sum.size());
      REQUIRE(prods.size() == want_prod.size());
      std::size_t bad = 0;
      for (std::size_t i = 0; i < sums.size(); ++i)
        bad += static_cast<std::uint64_t>(sums[i]) != want_sum[i] || static_cast<std::int64_t>(prods[i]) != want_prod[i];
      INFO("cumsum/cumprod " << what);
      CHECK(bad == 0);
    } else {
      // Sums: error bounded by the running sum of magnitudes (CUB adds in a tree, we compare with
      // a sequential long double sum); products: by the number of factors.
      using L = std::conditional_t<xf::is_complex<T>, std::complex<long double>, long double>;
      auto lift = [](const T& e) {
        if constexpr (xf::is_complex<T>) return L(e.real(), e.imag());
        else return static_cast<L>(as_real(e));
      };
      const auto want_sum = ref_scan(v_sum, s, axis, sum_abs_of<L>{}, [&](sum_abs_of<L> a, const T& e) {
        return sum_abs_of<L>{a.sum + lift(e), a.abs + std::abs(lift(e))};
      });
      const auto want_prod = ref_scan(v_prod, s, axis, prod_count_of<L>{}, [&](prod_count_of<L> a, const T& e) {
        return prod_count_of<L>{a.prod * lift(e), a.count + 1};
      });
      // Accumulation in compute_t<T> (float for the 16-bit floats), then one rounding to T. A
      // product of k factors carries k - 1 roundings of random sign, in any order of multiplication:
      // a relative error near sqrt(k) / 2 ulps. 4 sqrt(k) + 4 ulps is far beyond that, and still
      // 6.4e-4 at most (k = 1.8 M floats): below most factors' distance from 1 (e^u, |u| <= 0.01).
      const double acc_eps = eps<xf::compute_t<T>>(), out_eps = xf::is_low_precision<T> ? eps<T>() : 0.0;
      std::size_t bad = 0;
      for (std::size_t i = 0; i < sums.size(); ++i) {
        bad += !(std::abs(lift(sums[i]) - want_sum[i].sum) <= (out_eps + 64 * acc_eps) * (want_sum[i].abs + 1e-30L));
        const long double prod_rtol = out_eps + acc_eps * (4 + 4 * std::sqrt(want_prod[i].count));
        bad += !(std::abs(lift(prods[i]) - want_prod[i].prod) <= prod_rtol * std::abs(want_prod[i].prod));
      }
      INFO("cumsum/cumprod " << what << ": " << bad << " of " << 2 * sums.size() << " differ");
      CHECK(bad == 0);
    }
  }
  if constexpr (std::is_same_v<T, float>) {
    STATIC_REQUIRE(std::is_same_v<xf::value_t<decltype(xf::cumsum<double>(x_sum))>, double>);
    const auto got = xf::to_host(xf::cumsum<double>(x_sum, 1));
    const auto want = ref_scan(v_sum, s, {1}, 0.0L, [](long double a, float e) { return a + e; });
    for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(std::fabs(got[i] - static_cast<double>(want[i])) <= 1e-9);
  }
}

// Scans of expressions and views, and the edge cases.
template <class Space>
void scan_expressions_and_edges() {
  const shape_t s = {31, 67, 1};
  const auto v = uniform<float>(31 * 67, -2, 2);
  const auto x = xf::asarray<float, Space>(v, {31, 67});
  auto close_to = [](const std::vector<float>& got, const std::vector<long double>& want, const std::string& what) {
    REQUIRE(got.size() == want.size());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < got.size(); ++i) bad += !(std::fabs(got[i] - want[i]) <= 1e-4L * (1 + std::fabs(want[i])));
    INFO(what << ": " << bad << " differ");
    CHECK(bad == 0);
  };
  // An expression of two operands, one broadcast: read in the scan, no temporary.
  const auto row = xf::asarray<float, Space>(std::vector<float>(v.begin(), v.begin() + 67), {67});
  std::vector<float> fused(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) fused[i] = v[i] * v[i % 67] - 1;
  close_to(xf::to_host(xf::cumsum(x * row - 1, 0)), ref_scan(fused, s, {0}, 0.0L, [](long double a, float e) { return a + e; }),
           "cumsum(x * row - 1, 0)");
  // A transposed view: result of the view's shape, C-ordered.
  std::vector<float> t(v.size());
  for (std::size_t i = 0; i < 31; ++i)
    for (std::size_t j = 0; j < 67; ++j) t[j * 31 + i] = v[i * 67 + j];
  const auto xt = xf::cumsum(x.T(), 1);
  REQUIRE(xt.shape() == xf::dims<2>{67, 31});
  close_to(xf::to_host(xt), ref_scan(t, {67, 31, 1}, {1}, 0.0L, [](long double a, float e) { return a + e; }), "cumsum(x.T(), 1)");
  // Flattened: a plain contiguous array (CUB reads its pointer) and the same array type as a
  // transposed view (read through the plan), in C order of the view.
  close_to(xf::to_host(xf::cumsum(x)), ref_scan(v, s, {}, 0.0L, [](long double a, float e) { return a + e; }), "cumsum(x)");
  close_to(xf::to_host(xf::cumsum(x.T())), ref_scan(t, {67, 31, 1}, {}, 0.0L, [](long double a, float e) { return a + e; }),
           "cumsum(x.T())");
  // Empty inputs keep their shape; a bad axis names the operation and the shape.
  const xf::array<float, 2, Space> e({0, 5});
  CHECK(xf::cumsum(e, 1).shape() == xf::dims<2>{0, 5});
  CHECK(xf::cumprod(e).size() == 0);
  CHECK_THROWS_AS(xf::cumsum(x, 2), xf::shape_error);
  CHECK_THROWS_WITH(xf::cumprod(x, -3), XF_CONTAINS("xf::cumprod") && XF_CONTAINS("(31, 67)"));
  // A 1-element axis copies; bool cumsum counts.
  const auto b = xf::asarray<bool, Space>({true, false, true, true});
  CHECK(xf::to_host(xf::cumsum(b)) == std::vector<std::int64_t>{1, 1, 2, 3});
}

// Scans along an axis of expressions and views at sizes that fill a GPU with lines (a block per
// line for long contiguous rows, 32 lines a block otherwise): a broadcast operand along rows, and
// a transposed view whose lines are columns of the array beneath, around the tile edges.
template <class Space>
void scan_lines_of_expressions() {
  for (const xf::index_t n : {1024, 2047, 2048, 2049, 6000}) {
    const xf::index_t m = 300;
    const auto v = uniform<float>(static_cast<std::size_t>(m * n), -2, 2), r = uniform<float>(static_cast<std::size_t>(n), -2, 2);
    const auto x = xf::asarray<float, Space>(v, {m, n});
    const auto row = xf::asarray<float, Space>(r, {n});
    std::vector<float> fused(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) fused[i] = v[i] * r[i % static_cast<std::size_t>(n)] - 1;
    const auto got = xf::to_host(xf::cumsum(x * row - 1, 1));
    const auto want = ref_scan(fused, {m, n, 1}, {1}, sum_abs_of<long double>{}, [](sum_abs_of<long double> a, float e) {
      return sum_abs_of<long double>{a.sum + e, a.abs + std::fabs(e)};
    });
    std::size_t bad = 0;
    for (std::size_t i = 0; i < got.size(); ++i) bad += !(std::fabs(got[i] - want[i].sum) <= 1e-5L * (want[i].abs + 1));
    INFO("cumsum(x * row - 1, 1) of (300, " << n << "): " << bad << " differ");
    CHECK(bad == 0);
  }
  for (const xf::index_t n : {1, 255, 256, 257, 1500}) {
    const xf::index_t m = 6600;  // x is (n, m); x.T() is (m, n): m lines of n steps, each strided by m
    const auto v = uniform<double>(static_cast<std::size_t>(m * n), -2, 2);
    const auto x = xf::asarray<double, Space>(v, {n, m});
    std::vector<double> t(v.size());
    for (xf::index_t i = 0; i < n; ++i)
      for (xf::index_t j = 0; j < m; ++j) t[static_cast<std::size_t>(j * n + i)] = v[static_cast<std::size_t>(i * m + j)];
    const auto got = xf::to_host(xf::cumsum(x.T() * 2, 1));
    const auto want = ref_scan(t, {m, n, 1}, {1}, 0.0L, [](long double a, double e) { return a + 2 * e; });
    std::size_t bad = 0;
    for (std::size_t i = 0; i < got.size(); ++i) bad += !(std::fabs(got[i] - want[i]) <= 1e-12L * (1 + std::fabs(want[i])) * n);
    INFO("cumsum(x.T() * 2, 1) of (" << m << ", " << n << "): " << bad << " differ");
    CHECK(bad == 0);
  }
}

// NumPy's order: NaN last, -0.0 == +0.0; stable.
template <class T>
bool numpy_less(const T& a, const T& b) {
  if constexpr (xf::is_bool<T> || xf::is_integer<T>) {
    return a < b;
  } else {
    const double x = as_real(a), y = as_real(b);
    return !std::isnan(x) && (std::isnan(y) || x < y);
  }
}

template <class T>
bool same_value(const T& a, const T& b) {
  if constexpr (xf::is_bool<T> || xf::is_integer<T>) return a == b;
  else return (std::isnan(as_real(a)) && std::isnan(as_real(b))) || as_real(a) == as_real(b);
}

// Values with many ties, and for floats NaN, infinities and both zeros.
template <class T>
std::vector<T> sort_input(std::size_t n) {
  if constexpr (xf::is_bool<T>) {
    return uniform<T>(n, 0, 1);
  } else if constexpr (xf::is_integer<T>) {
    auto v = full_range<T>(n);
    const auto few = uniform<T>(n, 0, 9);
    for (std::size_t i = 0; i < n; i += 2) v[i] = few[i];  // half the values tie
    return v;
  } else {
    auto v = uniform<T>(n, -100, 100);
    const auto pick = uniform<int>(n, 0, 15);
    const float special[6] = {NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f};
    for (std::size_t i = 0; i < n; ++i) {
      if (pick[i] < 6) v[i] = xf::detail::convert<T>(special[pick[i]]);
      else if (pick[i] < 9) v[i] = xf::detail::convert<T>(static_cast<float>(pick[i]));  // ties
    }
    return v;
  }
}

// sort and argsort of `lines` lines of n values (shape s, last axis n) against std::stable_sort.
template <class T, class Sort, class Argsort>
void check_sorted(const std::vector<T>& v, xf::index_t n, const Sort& sorted, const Argsort& order, const std::string& what) {
  REQUIRE(sorted.size() == v.size());
  REQUIRE(order.size() == v.size());
  std::size_t bad_values = 0, bad_order = 0;
  std::vector<std::int64_t> want(static_cast<std::size_t>(n));
  for (std::size_t at = 0; at < v.size(); at += static_cast<std::size_t>(n)) {
    std::iota(want.begin(), want.end(), std::int64_t{0});
    std::stable_sort(want.begin(), want.end(), [&](std::int64_t a, std::int64_t b) { return numpy_less(v[at + a], v[at + b]); });
    for (std::size_t k = 0; k < want.size(); ++k) {
      bad_order += order[at + k] != want[k];
      bad_values += !same_value(sorted[at + k], v[at + static_cast<std::size_t>(want[k])]);
    }
  }
  INFO(what << ": " << bad_values << " values and " << bad_order << " positions differ of " << v.size());
  CHECK(bad_values == 0);
  CHECK(bad_order == 0);
}

template <class Space, class T>
void sorting(const shape_t& s) {
  const std::size_t n = static_cast<std::size_t>(s[0] * s[1] * s[2]);
  const auto v = sort_input<T>(n);
  const std::string what = std::string(xf::dtype_name<T>) + " " + std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" +
                           std::to_string(s[2]);
  const auto x3 = xf::asarray<T, Space>(v, {s[0], s[1], s[2]});
  check_sorted(v, s[2], xf::to_host(xf::sort(x3)), xf::to_host(xf::argsort(x3)), "sort " + what);
  const auto x1 = xf::asarray<T, Space>(v);
  check_sorted(v, static_cast<xf::index_t>(n), xf::to_host(xf::sort(x1)), xf::to_host(xf::argsort(x1)), "1-D sort " + what);
  STATIC_REQUIRE(std::is_same_v<xf::value_t<decltype(xf::argsort(x1))>, std::int64_t>);
  STATIC_REQUIRE(std::is_same_v<xf::value_t<decltype(xf::sort(x1))>, T>);
}

// Sorting expressions and views, empty inputs.
template <class Space>
void sort_expressions_and_edges() {
  const auto v = sort_input<float>(40 * 33);
  const auto x = xf::asarray<float, Space>(v, {40, 33});
  std::vector<float> neg(v.size()), t(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) neg[i] = -2 * v[i];
  check_sorted(neg, 33, xf::to_host(xf::sort(-2 * x)), xf::to_host(xf::argsort(-2 * x)), "sort(-2 * x)");
  for (std::size_t i = 0; i < 40; ++i)
    for (std::size_t j = 0; j < 33; ++j) t[j * 40 + i] = v[i * 33 + j];
  check_sorted(t, 40, xf::to_host(xf::sort(x.T())), xf::to_host(xf::argsort(x.T())), "sort(x.T())");
  const xf::array<double, 2, Space> e({4, 0}), f({0, 3});
  CHECK(xf::sort(e).shape() == xf::dims<2>{4, 0});
  CHECK(xf::argsort(f).shape() == xf::dims<2>{0, 3});
  // -0.0 and +0.0 are equal and keep their input order and signs, as np.sort(kind="stable") gives
  // [-1., 0., -0.] and [-0., 0., 1.].
  const auto z = xf::to_host(xf::sort(xf::asarray<float, Space>({0.0f, -0.0f, -1.0f})));
  CHECK((z[0] == -1.0f && !std::signbit(z[1]) && z[1] == 0.0f && std::signbit(z[2]) && z[2] == 0.0f));
  const auto z2 = xf::to_host(xf::sort(xf::asarray<double, Space>({-0.0, 1.0, 0.0})));
  CHECK((std::signbit(z2[0]) && z2[0] == 0.0 && !std::signbit(z2[1]) && z2[1] == 0.0 && z2[2] == 1.0));
}

template <class Space>
void all_sort_types(const shape_t& s) {
  sorting<Space, bool>(s);
  sorting<Space, std::int8_t>(s);
  sorting<Space, std::uint8_t>(s);
  sorting<Space, std::int16_t>(s);
  sorting<Space, std::uint16_t>(s);
  sorting<Space, std::int32_t>(s);
  sorting<Space, std::uint32_t>(s);
  sorting<Space, std::int64_t>(s);
  sorting<Space, std::uint64_t>(s);
  sorting<Space, xf::half>(s);
  sorting<Space, xf::bfloat16>(s);
  sorting<Space, float>(s);
  sorting<Space, double>(s);
}

template <class Space>
void all_scan_types(const shape_t& s) {
  cumulative<Space, bool>(s);
  cumulative<Space, std::int8_t>(s);
  cumulative<Space, std::uint16_t>(s);
  cumulative<Space, std::int32_t>(s);
  cumulative<Space, xf::half>(s);
  cumulative<Space, float>(s);
  cumulative<Space, double>(s);
  cumulative<Space, xf::complex<float>>(s);
}

}  // namespace xf_test
