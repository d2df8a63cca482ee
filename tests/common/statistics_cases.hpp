// Statistics and ordering, shared by the host suite (host arrays) and the GPU suite (device arrays):
// the NaN-skipping reductions (nanprod, nanvar, nanstd, nanargmin, nanargmax), ptp, nancumsum and
// nancumprod, sort and argsort along any axis, quantile / percentile / median (over all elements:
// radix selection on the device; along an axis: sorted lines) and average with weights. Each is
// checked against a long-double or std::stable_sort reference on fresh random data with NaN and
// infinities, and against NumPy 2.4.6's printed answers where rounding and edge cases matter.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include <xfuse/average.hpp>
#include <xfuse/manip.hpp>
#include <xfuse/quantile.hpp>
#include <xfuse/scan.hpp>
#include <xfuse/sort.hpp>

#include "check.hpp"
#include "random.hpp"

namespace xf_test::statistics {

using shape3 = std::array<xf::index_t, 3>;

// The flat positions of each line along `axis` of a C-ordered array, lines in C order of the
// other axes.
inline std::vector<std::vector<std::size_t>> lines_along(const shape3& shape, int axis) {
  std::array<std::size_t, 3> stride{};
  std::size_t size = 1;
  for (int d = 2; d >= 0; --d) {
    stride[d] = size;
    size *= static_cast<std::size_t>(shape[d]);
  }
  std::vector<std::vector<std::size_t>> lines;
  for (std::size_t flat = 0; flat < size; ++flat) {
    if ((flat / stride[axis]) % static_cast<std::size_t>(shape[axis]) != 0) continue;
    std::vector<std::size_t> line;
    for (xf::index_t k = 0; k < shape[axis]; ++k) line.push_back(flat + static_cast<std::size_t>(k) * stride[axis]);
    lines.push_back(line);
  }
  return lines;
}

template <class T>
bool is_nan(const T& v) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  else return false;
}

// Random values with a share of NaN and infinities (floats), or small integers that repeat.
template <class T>
std::vector<T> values_with_specials(std::size_t n, double nan_share) {
  std::vector<T> v = uniform<T>(n, -50, 50);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<double> coin(0, 1);
    for (T& x : v) {
      const double c = coin(rng());
      if (c < nan_share) x = std::numeric_limits<T>::quiet_NaN();
      else if (c < nan_share * 1.5) x = std::numeric_limits<T>::infinity();
      else if (c < nan_share * 2) x = -std::numeric_limits<T>::infinity();
    }
  }
  return v;
}

// NumPy's order: NaN after everything, equal values in input order (std::stable_sort).
template <class T>
bool numpy_less(const T& a, const T& b) {
  if (is_nan(a)) return false;
  if (is_nan(b)) return true;
  return a < b;
}

// ---------------------------------------------------------------- NaN-skipping reductions, ptp
template <class Space>
void nan_reductions_match_reference() {
  const shape3 shape{5, 37, 6};
  const std::size_t size = 5 * 37 * 6;
  std::vector<double> x = values_with_specials<double>(size, 0.2);
  for (double& v : x)
    if (std::isinf(v)) v = 0.5;  // finite: the products and variances have references
  std::vector<double> near_one = uniform<double>(size, 0.9, 1.1);
  for (std::size_t i = 0; i < size; ++i)
    if (std::isnan(x[i])) near_one[i] = x[i];
  const auto a = xf::asarray<double, Space>(x, shape);
  const auto b = xf::asarray<double, Space>(near_one, shape);
  for (int axis = 0; axis < 3; ++axis) {
    const auto lines = lines_along(shape, axis);
    const auto prod = xf::to_host(xf::nanprod(b, axis));
    const auto var = xf::to_host(xf::nanvar(a, axis));
    const auto std1 = xf::to_host(xf::nanstd(a, axis, xf::ddof(1)));
    const auto amax = xf::to_host(xf::nanargmax(a, axis));
    const auto amin = xf::to_host(xf::nanargmin(a, axis));
    const auto ptp = xf::to_host(xf::ptp(a, axis));
    REQUIRE(prod.size() == lines.size());
    for (std::size_t l = 0; l < lines.size(); ++l) {
      long double p = 1, s = 0, high = -INFINITY, low = INFINITY;
      std::int64_t count = 0, at_max = -1, at_min = -1;
      bool any_nan = false;
      for (std::size_t k = 0; k < lines[l].size(); ++k) {
        const std::size_t i = lines[l][k];
        if (!std::isnan(near_one[i])) p *= near_one[i];
        if (std::isnan(x[i])) {
          any_nan = true;
          continue;
        }
        s += x[i], ++count;
        if (at_max < 0 || x[i] > high) high = x[i], at_max = static_cast<std::int64_t>(k);
        if (at_min < 0 || x[i] < low) low = x[i], at_min = static_cast<std::int64_t>(k);
      }
      long double m2 = 0;
      for (std::size_t i : lines[l])
        if (!std::isnan(x[i])) m2 += (x[i] - s / count) * (x[i] - s / count);
      INFO("axis " << axis << ", line " << l);
      CHECK(close_double(prod[l], static_cast<double>(p), 1e-13, 0));
      CHECK(close_double(var[l], static_cast<double>(m2 / count), 1e-12, 1e-12));
      // No degree of freedom left (count <= ddof): 0 / 0, NaN as in NumPy.
      const double want_std = count > 1 ? static_cast<double>(std::sqrt(m2 / (count - 1))) : std::nan("");
      CHECK(close_double(std1[l], want_std, 1e-12, 1e-12));
      CHECK(amax[l] == at_max);
      CHECK(amin[l] == at_min);
      if (any_nan) CHECK(std::isnan(ptp[l]));
      else CHECK(ptp[l] == static_cast<double>(high - low));
    }
  }
  // NumPy 2.4.6: nanargmax([[nan, 1], [nan, 2]], axis=0) raises "All-NaN slice encountered"; we
  // give -1 there (CuPy's answer). NaN reads as -inf, so a NaN ahead of a -inf wins the tie.
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const auto c = xf::asarray<double, Space>({nan, 1, nan, 2}, {2, 2});
  CHECK(xf::to_host(xf::nanargmax(c, 0)) == std::vector<std::int64_t>{-1, 1});
  CHECK(xf::to_host(xf::nanargmin(c, 1)) == std::vector<std::int64_t>{1, 1});
  CHECK(xf::nanargmax(xf::asarray<double, Space>({nan, -inf})).item() == 0);
  CHECK(xf::nanargmax(xf::asarray<double, Space>({-inf, nan, 3, 3})).item() == 2);
  // np.nanvar([1, 2, nan], ddof=2) is nan (no degree of freedom left; var([1, 2], ddof=2) is inf).
  CHECK(std::isnan(xf::nanvar(xf::asarray<double, Space>({1, 2, nan}), xf::ddof(2)).item()));
  CHECK(std::isinf(xf::var(xf::asarray<double, Space>({1, 2}), xf::ddof(2)).item()));
  // np.var([1, 2, inf]), np.nanstd([inf, 1, nan]) and np.var([inf, inf]) are nan: the deviations
  // from an infinite mean are inf - inf.
  CHECK(std::isnan(xf::var(xf::asarray<double, Space>({1, 2, inf})).item()));
  CHECK(std::isnan(xf::nanstd(xf::asarray<double, Space>({inf, 1, nan})).item()));
  CHECK(std::isnan(xf::var(xf::asarray<float, Space>({INFINITY, INFINITY})).item()));
  // np.nanvar([nan, nan]) is nan; np.nanprod([nan]) is 1.0; np.nanstd([2.0], ddof=1) is nan.
  CHECK(std::isnan(xf::nanvar(xf::asarray<double, Space>({nan, nan})).item()));
  CHECK(xf::nanprod(xf::asarray<double, Space>({nan})).item() == 1.0);
  CHECK(std::isnan(xf::nanstd(xf::asarray<float, Space>({2.0f, NAN}), xf::ddof(1)).item()));
  // np.ptp(np.array([-128, 127], np.int8)) is -1 (int8 wraps); np.ptp([[1, 5], [7, 2]], axis=1) is [4, 5].
  CHECK(xf::ptp(xf::asarray<std::int8_t, Space>({-128, 127})).item() == -1);
  CHECK(xf::to_host(xf::ptp(xf::asarray<int, Space>({1, 5, 7, 2}, {2, 2}), 1)) == std::vector<int>{4, 5});
  CHECK(xf::to_host(xf::ptp(xf::asarray<int, Space>({1, 5, 7, 2}, {2, 2}), 0, xf::keepdims)) == std::vector<int>{6, 3});
  CHECK_THROWS_AS(xf::ptp(xf::array<float, 1, Space>({0})), xf::shape_error);
  CHECK_THROWS_AS(xf::nanargmax(xf::array<float, 2, Space>({3, 0}), 1), xf::shape_error);
  // Integers have no NaN: nanargmax is argmax.
  CHECK(xf::nanargmax(xf::asarray<int, Space>({3, 9, 9, 1})).item() == 1);
}

template <class Space>
void nan_scans_match_reference() {
  const shape3 shape{3, 50, 4};
  std::vector<float> x = values_with_specials<float>(600, 0.25);
  for (float& v : x)
    if (std::isinf(v)) v = 2;
  std::vector<float> small = uniform<float>(600, 0.8f, 1.2f);
  for (std::size_t i = 0; i < 600; ++i)
    if (std::isnan(x[i])) small[i] = x[i];
  const auto a = xf::asarray<float, Space>(x, shape);
  const auto b = xf::asarray<float, Space>(small, shape);
  for (int axis = 0; axis < 3; ++axis) {
    const auto sums = xf::to_host(xf::nancumsum(a, axis));
    const auto prods = xf::to_host(xf::nancumprod(b, axis));
    for (const auto& line : lines_along(shape, axis)) {
      long double s = 0, p = 1;
      for (std::size_t i : line) {
        if (!std::isnan(x[i])) s += x[i];
        if (!std::isnan(small[i])) p *= small[i];
        INFO("axis " << axis << ", element " << i);
        CHECK(close_double(sums[i], static_cast<double>(s), 1e-5, 1e-4));
        CHECK(close_double(prods[i], static_cast<double>(p), 1e-5, 0));
      }
    }
  }
  // np.nancumsum([nan, 1, nan, 2]) is [0, 1, 1, 3]; np.nancumprod([[nan, 2], [3, nan]]) is [1, 2, 6, 6].
  CHECK(xf::to_host(xf::nancumsum(xf::asarray<double, Space>({NAN, 1, NAN, 2}))) == std::vector<double>{0, 1, 1, 3});
  CHECK(xf::to_host(xf::nancumprod(xf::asarray<double, Space>({NAN, 2, 3, NAN}, {2, 2}))) == std::vector<double>{1, 2, 6, 6});
  // Integers: nancumsum is cumsum (int8 accumulates in int64).
  CHECK(xf::to_host(xf::nancumsum(xf::asarray<std::int8_t, Space>({100, 100, 100}))) == std::vector<std::int64_t>{100, 200, 300});
}

// ---------------------------------------------------------------- sort and argsort along an axis
template <class Space, class T>
void sort_along_every_axis() {
  for (const shape3 shape : {shape3{4, 33, 5}, shape3{1, 7, 300}, shape3{129, 2, 3}, shape3{3, 0, 2}}) {
    const std::size_t size = static_cast<std::size_t>(shape[0] * shape[1] * shape[2]);
    const std::vector<T> x = values_with_specials<T>(size, 0.1);
    const auto a = xf::asarray<T, Space>(x, shape);
    for (int axis = -3; axis < 3; ++axis) {
      const int at = axis < 0 ? axis + 3 : axis;
      const auto sorted = xf::sort(a, axis);
      const auto order = xf::argsort(a * T(1), axis);  // an expression, sorted through a temporary
      REQUIRE(sorted.shape() == a.shape());
      REQUIRE(order.shape() == a.shape());
      const auto got = xf::to_host(sorted);
      const auto got_order = xf::to_host(order);
      for (const auto& line : lines_along(shape, at)) {
        std::vector<std::int64_t> want(line.size());
        std::iota(want.begin(), want.end(), 0);
        std::stable_sort(want.begin(), want.end(), [&](std::int64_t p, std::int64_t q) { return numpy_less(x[line[p]], x[line[q]]); });
        for (std::size_t k = 0; k < line.size(); ++k) {
          INFO("shape (" << shape[0] << ", " << shape[1] << ", " << shape[2] << "), axis " << axis << ", position " << k);
          CHECK(got_order[line[k]] == want[k]);
          const T w = x[line[static_cast<std::size_t>(want[k])]];
          CHECK((got[line[k]] == w || (is_nan(w) && is_nan(got[line[k]]))));
        }
      }
    }
  }
  CHECK_THROWS_AS(xf::sort(xf::array<T, 2, Space>({2, 2}), 2), xf::shape_error);
  CHECK_THROWS_AS(xf::argsort(xf::array<T, 2, Space>({2, 2}), -3), xf::shape_error);
}

// ---------------------------------------------------------------- quantile, percentile, median
// NumPy's linear quantile of sorted values in long double (independent of the library's steps):
// _get_indexes, _get_gamma and _lerp's two branches, which decide where infinities give NaN.
inline long double quantile_of_sorted(const std::vector<long double>& v, double q) {
  if (std::isnan(v.back())) return NAN;
  const std::size_t n = v.size();
  const double at = static_cast<double>(n - 1) * q;  // NumPy's virtual index, a float64
  std::size_t lo = n - 1, hi = n - 1;
  long double t = static_cast<long double>(at) + 1;
  if (at < static_cast<double>(n - 1)) {
    lo = static_cast<std::size_t>(std::floor(at)), hi = lo + 1;
    t = at - std::floor(at);
  }
  const long double diff = v[hi] - v[lo];
  return t >= 0.5 ? v[hi] - diff * (1 - t) : v[lo] + diff * t;
}
// The magnitude the answer for q is rounded at: its larger finite neighbour.
inline long double scale_at(const std::vector<long double>& v, double q) {
  const std::size_t lo = static_cast<std::size_t>(std::floor(static_cast<long double>(v.size() - 1) * q));
  long double s = 0;
  for (std::size_t i = lo; i <= std::min(lo + 1, v.size() - 1); ++i)
    if (std::isfinite(v[i])) s = std::max(s, std::fabs(v[i]));
  return s;
}
inline long double median_of_sorted(const std::vector<long double>& v) {
  if (std::isnan(v.back())) return NAN;
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

inline std::string show_values(const std::vector<long double>& v) {
  std::string s;
  for (const long double x : v) s += std::to_string(static_cast<double>(x)) + " ";
  return s;
}

template <class T, class Line>
std::vector<long double> sorted_line(const std::vector<T>& x, const Line& line) {
  std::vector<T> v;
  for (std::size_t i : line) v.push_back(x[i]);
  std::stable_sort(v.begin(), v.end(), numpy_less<T>);
  return {v.begin(), v.end()};
}

// The result within a few ulp of T (of the larger neighbour) of the long-double answer.
template <class R>
bool near_quantile(R got, long double want, long double scale) {
  if (std::isnan(want) || std::isinf(want)) return std::isnan(want) ? std::isnan(got) : static_cast<long double>(got) == want;
  const double ulp = std::is_same_v<R, float> ? 0x1p-23 : 0x1p-52;
  return std::fabs(static_cast<long double>(got) - want) <= 4 * ulp * scale;
}

template <class Space, class T>
void quantiles_along_axes() {
  using R = xf::detail::quantile_result_t<T>;
  const shape3 shape{6, 41, 8};
  const std::size_t size = 6 * 41 * 8;
  const std::vector<T> x = values_with_specials<T>(size, 0.01);
  const auto a = xf::asarray<T, Space>(x, shape);
  const std::vector<double> qs{0, 0.01, 0.25, 0.5, 0.77, 1};
  for (int axis = 0; axis < 3; ++axis) {
    const auto many = xf::quantile(a, qs, axis);
    static_assert(std::is_same_v<xf::value_t<decltype(many)>, R>);
    REQUIRE(many.shape()[0] == static_cast<xf::index_t>(qs.size()));
    const auto got = xf::to_host(many);
    const auto med = xf::to_host(xf::median(a, axis));
    const auto kept = xf::median(a, axis, xf::keepdims);
    CHECK(kept.shape()[axis] == 1);
    const auto lines = lines_along(shape, axis);
    for (std::size_t l = 0; l < lines.size(); ++l) {
      const auto v = sorted_line(x, lines[l]);
      for (std::size_t i = 0; i < qs.size(); ++i) {
        INFO("axis " << axis << ", line " << l << ", q " << qs[i] << ": " << show<R>(got[i * lines.size() + l]) << ", sorted line "
                      << show_values(v));
        CHECK(near_quantile<R>(got[i * lines.size() + l], quantile_of_sorted(v, qs[i]), scale_at(v, qs[i])));
      }
      INFO("median, axis " << axis << ", line " << l);
      CHECK(near_quantile<R>(med[l], median_of_sorted(v), scale_at(v, 0.5)));
    }
  }
  // percentile is quantile / 100.
  const auto by_percent = xf::to_host(xf::percentile(a, 37.0, 1)), by_fraction = xf::to_host(xf::quantile(a, 0.37, 1));
  for (std::size_t i = 0; i < by_percent.size(); ++i)
    CHECK((by_percent[i] == by_fraction[i] || (is_nan(by_percent[i]) && is_nan(by_fraction[i]))));
}

// Over all elements (radix selection on device arrays): every q against the sorted values, and
// on the device bit for bit the host's sorted answer.
template <class Space, class T>
void quantiles_of_all_elements(std::size_t n, double nan_share) {
  using R = xf::detail::quantile_result_t<T>;
  std::vector<T> x = values_with_specials<T>(n, nan_share);
  const auto a = xf::asarray<T, Space>(x, {static_cast<xf::index_t>(n)});
  std::vector<double> qs{0, 1, 0.5, 1e-7, 0.999999};
  for (int i = 0; i < 4; ++i) qs.push_back(std::uniform_real_distribution<double>(0, 1)(rng()));
  const auto got = xf::to_host(xf::quantile(a, qs));
  const R med = xf::median(a).item();
  const auto v = sorted_line(x, [&] {
    std::vector<std::size_t> all(n);
    std::iota(all.begin(), all.end(), std::size_t{0});
    return all;
  }());
  for (std::size_t i = 0; i < qs.size(); ++i) {
    INFO(n << " elements, q " << qs[i] << ": got " << show<R>(got[i]));
    CHECK(near_quantile<R>(got[i], quantile_of_sorted(v, qs[i]), scale_at(v, qs[i])));
  }
  INFO(n << " elements, median " << show<R>(med));
  CHECK(near_quantile<R>(med, median_of_sorted(v), scale_at(v, 0.5)));
  if constexpr (std::is_same_v<Space, xf::device>) {
    const auto host = xf::to_host(xf::quantile(xf::asarray<T, xf::host>(x), qs));
    for (std::size_t i = 0; i < qs.size(); ++i) CHECK((got[i] == host[i] || (is_nan(got[i]) && is_nan(host[i]))));
    const R host_median = xf::median(xf::asarray<T, xf::host>(x)).item();
    CHECK((med == host_median || (is_nan(med) && is_nan(host_median))));
  }
}

// Over all elements, values spread over every digit of the keys: integers over their whole range,
// floats over 60 decades of both signs.
template <class Space, class T>
void quantiles_of_wide_values(std::size_t n) {
  std::vector<T> x;
  if constexpr (std::is_integral_v<T>) {
    x = full_range<T>(n);
  } else {
    const std::vector<double> exponent = uniform<double>(n, -30, 30), sign = uniform<double>(n, -1, 1);
    for (std::size_t i = 0; i < n; ++i) x.push_back(static_cast<T>((sign[i] < 0 ? -1 : 1) * std::pow(10.0, exponent[i])));
  }
  const std::vector<double> qs{0, 0.001, 0.25, 0.5, 0.9, 1};
  const auto got = xf::to_host(xf::quantile(xf::asarray<T, Space>(x), qs));
  const auto want = xf::to_host(xf::quantile(xf::asarray<T, xf::host>(x), qs));
  for (std::size_t i = 0; i < qs.size(); ++i) {
    INFO(n << " wide values, q " << qs[i]);
    CHECK(got[i] == want[i]);
  }
  const auto v = sorted_line(x, [&] {
    std::vector<std::size_t> all(n);
    std::iota(all.begin(), all.end(), std::size_t{0});
    return all;
  }());
  CHECK(got[0] == static_cast<double>(v.front()));
  CHECK(got[qs.size() - 1] == static_cast<double>(v.back()));
}

template <class Space>
void quantiles_match_numpy() {
  const float inf = std::numeric_limits<float>::infinity();
  // NumPy 2.4.6: np.quantile(np.float32([1, 2, 3, 4]), 0.5) -> 2.5; np.median -> 2.5;
  // np.quantile(np.float32([0.1, 0.7]), 0.3) -> np.float32(0.28) (float32 arithmetic).
  CHECK(xf::quantile(xf::asarray<float, Space>({1, 2, 3, 4}), 0.5).item() == 2.5f);
  CHECK(xf::median(xf::asarray<float, Space>({4, 1, 3, 2})).item() == 2.5f);
  CHECK(xf::quantile(xf::asarray<float, Space>({0.1f, 0.7f}), 0.3).item() == 0.28f);
  // np.quantile(np.int32([1, 2, 3, 4]), 0.3) -> np.float64(1.9); np.median(np.int32([5, 1, 4, 2, 3])) -> 3.0.
  const auto q_int = xf::quantile(xf::asarray<int, Space>({1, 2, 3, 4}), 0.3);
  static_assert(std::is_same_v<xf::value_t<decltype(q_int)>, double>);
  CHECK(q_int.item() == 1.9);
  CHECK(xf::median(xf::asarray<int, Space>({5, 1, 4, 2, 3})).item() == 3.0);
  CHECK(xf::median(xf::asarray<bool, Space>({true, false})).item() == 0.5);
  // np.percentile(np.arange(10.), 33.3) -> 2.997; np.quantile(np.ones((2, 3, 4)), [0.25, 0.5], axis=1, keepdims=True).shape -> (2, 2, 1, 4).
  CHECK(xf::percentile(xf::asarray<double, Space>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), 33.3).item() == 2.997);
  const auto shaped = xf::quantile(xf::asarray<double, Space>(std::vector<double>(24, 1.0), {2, 3, 4}), std::vector<double>{0.25, 0.5}, 1, xf::keepdims);
  CHECK(shaped.shape() == std::array<xf::index_t, 4>{2, 2, 1, 4});
  // Infinities: np.quantile([1, inf], 1.0) nan, ([1, inf], 0.0) nan, ([-inf, inf], 0.5) nan, ([inf], 0.3) nan,
  // np.median([inf]) inf, np.median([-inf, inf]) nan; np.quantile([-0.0, 0.0], 0.5) 0.0.
  CHECK(std::isnan(xf::quantile(xf::asarray<float, Space>({1, inf}), 1.0).item()));
  CHECK(std::isnan(xf::quantile(xf::asarray<float, Space>({1, inf}), 0.0).item()));
  CHECK(std::isnan(xf::quantile(xf::asarray<float, Space>({-inf, inf}), 0.5).item()));
  CHECK(std::isnan(xf::quantile(xf::asarray<float, Space>({inf}), 0.3).item()));
  CHECK(xf::median(xf::asarray<float, Space>({inf})).item() == inf);
  CHECK(std::isnan(xf::median(xf::asarray<float, Space>({-inf, inf})).item()));
  CHECK(xf::quantile(xf::asarray<double, Space>({-0.0, 0.0}), 0.5).item() == 0.0);
  // Empty: np.median([]) nan, np.median(np.zeros((0, 3)), axis=0) [nan, nan, nan]; np.quantile([], 0.5) IndexError;
  // np.median(np.zeros((3, 0)), axis=0) has shape (0,).
  CHECK(std::isnan(xf::median(xf::array<float, 1, Space>({0})).item()));
  const auto none = xf::to_host(xf::median(xf::array<float, 2, Space>({0, 3}), 0));
  CHECK((none.size() == 3 && std::isnan(none[0]) && std::isnan(none[2])));
  CHECK_THROWS_AS(xf::quantile(xf::array<float, 1, Space>({0}), 0.5), xf::index_error);
  CHECK(xf::median(xf::array<float, 2, Space>({3, 0}), 0).size() == 0);
  // q outside [0, 1] (or NaN) is NumPy's ValueError.
  const auto three = xf::asarray<float, Space>({1, 2, 3});
  CHECK_THROWS_AS(xf::quantile(three, 1.5), xf::error);
  CHECK_THROWS_AS(xf::quantile(three, std::nan("")), xf::error);
  CHECK_THROWS_AS(xf::percentile(three, 101.0), xf::error);
  CHECK_THROWS_AS(xf::median(three, 1), xf::shape_error);
}

// ---------------------------------------------------------------- average
template <class Space>
void average_matches_reference() {
  const shape3 shape{4, 25, 3};
  const std::vector<float> x = uniform<float>(300, -10, 10);
  const std::vector<float> w = uniform<float>(300, 0.1, 2);
  const auto a = xf::asarray<float, Space>(x, shape);
  const auto weights = xf::asarray<float, Space>(w, shape);
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < 300; ++i) num += static_cast<long double>(x[i]) * w[i], den += w[i];
  const auto whole = xf::average(a, weights);
  static_assert(std::is_same_v<xf::value_t<decltype(whole)>, float>);
  CHECK(close_double(whole.item(), static_cast<double>(num / den), 1e-5, 1e-6));
  for (int axis = 0; axis < 3; ++axis) {
    const auto by_axis = xf::to_host(xf::average(a, axis, weights));
    std::vector<float> line_weights = uniform<float>(static_cast<std::size_t>(shape[axis]), 0.1, 2);
    const auto by_line = xf::to_host(xf::average(a, axis, xf::asarray<float, Space>(line_weights)));
    const auto lines = lines_along(shape, axis);
    for (std::size_t l = 0; l < lines.size(); ++l) {
      long double n1 = 0, d1 = 0, n2 = 0, d2 = 0;
      for (std::size_t k = 0; k < lines[l].size(); ++k) {
        const std::size_t i = lines[l][k];
        n1 += static_cast<long double>(x[i]) * w[i], d1 += w[i];
        n2 += static_cast<long double>(x[i]) * line_weights[k], d2 += line_weights[k];
      }
      INFO("axis " << axis << ", line " << l);
      CHECK(close_double(by_axis[l], static_cast<double>(n1 / d1), 1e-5, 1e-5));
      CHECK(close_double(by_line[l], static_cast<double>(n2 / d2), 1e-5, 1e-5));
    }
  }
  // np.average(np.arange(6.).reshape(2, 3), axis=1, weights=[1, 2, 3]) -> [1.33333333, 4.33333333];
  // np.average(np.arange(6).reshape(2, 3), weights=np.ones((2, 3), np.float32)) -> np.float64(2.5).
  const auto rows = xf::to_host(xf::average(xf::asarray<double, Space>({0, 1, 2, 3, 4, 5}, {2, 3}), 1, xf::asarray<double, Space>({1, 2, 3})));
  CHECK(close_double(rows[0], 4.0 / 3, 1e-15, 0));
  CHECK(close_double(rows[1], 13.0 / 3, 1e-15, 0));
  const auto ints = xf::average(xf::asarray<int, Space>({0, 1, 2, 3, 4, 5}, {2, 3}), xf::asarray<float, Space>(std::vector<float>(6, 1.0f), {2, 3}));
  static_assert(std::is_same_v<xf::value_t<decltype(ints)>, double>);
  CHECK(ints.item() == 2.5);
  // np.average(np.int8([100, 100]), weights=np.int8([2, 2])) -> 100.0: products in float64, no int8 wrap.
  CHECK(xf::average(xf::asarray<std::int8_t, Space>({100, 100}), xf::asarray<std::int8_t, Space>({2, 2})).item() == 100.0);
  CHECK_THROWS_AS(xf::average(a, 1, xf::asarray<float, Space>(std::vector<float>(24, 1.0f))), xf::shape_error);
  CHECK_THROWS_AS(xf::average(a, xf::asarray<float, Space>(std::vector<float>(24, 1.0f), {4, 3, 2})), xf::shape_error);
}

// ---------------------------------------------------------------- searching and counting
template <class Space>
void searching_and_counting_match_numpy() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // NumPy 2.4.6: np.searchsorted([1, 2, 2, 3, nan], [[2, 0.5], [nan, 3.5]]) -> [[1, 0], [4, 4]];
  // side="right" -> [[3, 0], [5, 4]].
  const auto sorted = xf::asarray<double, Space>({1, 2, 2, 3, nan});
  const auto v = xf::asarray<double, Space>({2, 0.5, nan, 3.5}, {2, 2});
  CHECK(xf::to_host(xf::searchsorted(sorted, v)) == std::vector<std::int64_t>{1, 0, 4, 4});
  CHECK(xf::to_host(xf::searchsorted(sorted, v, "right")) == std::vector<std::int64_t>{3, 0, 5, 4});
  CHECK_THROWS_AS(xf::searchsorted(sorted, v, "middle"), xf::error);
  // Random: against std::lower_bound / upper_bound, int values searched in a float array.
  std::vector<float> a = uniform<float>(1000, -100, 100);
  std::sort(a.begin(), a.end());
  const std::vector<int> probes = uniform<int>(5000, -120, 120);
  const auto left = xf::to_host(xf::searchsorted(xf::asarray<float, Space>(a), xf::asarray<int, Space>(probes)));
  const auto right = xf::to_host(xf::searchsorted(xf::asarray<float, Space>(a), xf::asarray<int, Space>(probes) + 0, "right"));
  for (std::size_t i = 0; i < probes.size(); ++i) {
    CHECK(left[i] == std::lower_bound(a.begin(), a.end(), static_cast<float>(probes[i])) - a.begin());
    CHECK(right[i] == std::upper_bound(a.begin(), a.end(), static_cast<float>(probes[i])) - a.begin());
  }
  // np.flatnonzero([[0, 1, 0], [2, 0, 3]]) -> [1, 3, 5]; of an expression too.
  const auto m = xf::asarray<int, Space>({0, 1, 0, 2, 0, 3}, {2, 3});
  CHECK(xf::to_host(xf::flatnonzero(m)) == std::vector<std::int64_t>{1, 3, 5});
  CHECK(xf::to_host(xf::flatnonzero(m > 1)) == std::vector<std::int64_t>{3, 5});
  CHECK(xf::flatnonzero(m * 0).size() == 0);
  // np.partition([3, 1, 2, 5, 4], 2) -> [1, 2, 3, 5, 4] or any partition around 3: check the contract.
  const auto part = xf::to_host(xf::partition(xf::asarray<int, Space>({3, 1, 2, 5, 4}), 2));
  CHECK(part[2] == 3);
  CHECK((part[0] < 3 && part[1] < 3 && part[3] > 3 && part[4] > 3));
  const auto order = xf::to_host(xf::argpartition(xf::asarray<int, Space>({3, 1, 2, 5, 4}), {1, 3}));
  CHECK((order[1] == 2 && order[3] == 4));
  CHECK_THROWS_AS(xf::partition(xf::asarray<int, Space>({3, 1, 2}), 3), xf::index_error);
  // np.unique_all([[3, 1, 2], [1, 3, nan]]): values [1, 2, 3, nan], indices [1, 2, 0, 5],
  // inverse_indices [[2, 0, 1], [0, 2, 3]], counts [2, 1, 2, 1].
  const auto u = xf::unique_all(xf::asarray<double, Space>({3, 1, 2, 1, 3, nan}, {2, 3}));
  const auto uv = xf::to_host(u.values);
  CHECK((uv.size() == 4 && uv[0] == 1 && uv[1] == 2 && uv[2] == 3 && std::isnan(uv[3])));
  CHECK(xf::to_host(u.indices) == std::vector<std::int64_t>{1, 2, 0, 5});
  CHECK(u.inverse_indices.shape() == std::array<xf::index_t, 2>{2, 3});
  CHECK(xf::to_host(u.inverse_indices) == std::vector<std::int64_t>{2, 0, 1, 0, 2, 3});
  CHECK(xf::to_host(u.counts) == std::vector<std::int64_t>{2, 1, 2, 1});
  // Random repeats: values(inverse) rebuilds x, counts add up, indices are first occurrences.
  const std::vector<int> reps = uniform<int>(20000, -300, 300);
  const auto [values, counts] = xf::unique_counts(xf::asarray<int, Space>(reps) * 2);
  const auto [same_values, inverse] = xf::unique_inverse(xf::asarray<int, Space>(reps) * 2);
  const auto hv = xf::to_host(values);
  const auto hc = xf::to_host(counts);
  const auto hi = xf::to_host(inverse);
  CHECK(xf::to_host(same_values) == hv);
  std::vector<int> distinct(reps);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  REQUIRE(hv.size() == distinct.size());
  for (std::size_t j = 0; j < hv.size(); ++j) {
    CHECK(hv[j] == 2 * distinct[j]);
    CHECK(hc[j] == std::count(reps.begin(), reps.end(), distinct[j]));
  }
  for (std::size_t k = 0; k < reps.size(); ++k) CHECK(hv[static_cast<std::size_t>(hi[k])] == 2 * reps[k]);
  const auto firsts = xf::to_host(xf::unique_all(xf::asarray<int, Space>(reps)).indices);
  for (std::size_t j = 0; j < firsts.size(); ++j)
    CHECK(std::find(reps.begin(), reps.end(), distinct[j]) - reps.begin() == firsts[j]);
  CHECK(xf::unique_all(xf::array<float, 1, Space>(xf::dims<1>{0})).values.size() == 0);
  // NumPy 2's unique_all keeps every NaN apart: [nan, 1, nan] -> values [1, nan, nan], indices
  // [1, 0, 2], inverse [1, 0, 2], counts [1, 1, 1].
  const auto nans = xf::unique_all(xf::asarray<double, Space>({nan, 1, nan}));
  CHECK(nans.values.size() == 3);
  CHECK(xf::to_host(nans.indices) == std::vector<std::int64_t>{1, 0, 2});
  CHECK(xf::to_host(nans.inverse_indices) == std::vector<std::int64_t>{1, 0, 2});
  CHECK(xf::to_host(nans.counts) == std::vector<std::int64_t>{1, 1, 1});
  // np.bincount([0, 1, 1, 3, 2, 1, 7]) -> [1, 3, 1, 1, 0, 0, 0, 1]; minlength=6 of [0, 1, 1, 3] ->
  // [1, 2, 0, 1, 0, 0]; weights [0.5, 1, 1.25, 2] of [0, 1, 1, 2] -> [0.5, 2.25, 2].
  CHECK(xf::to_host(xf::bincount(xf::asarray<int, Space>({0, 1, 1, 3, 2, 1, 7}))) == std::vector<std::int64_t>{1, 3, 1, 1, 0, 0, 0, 1});
  CHECK(xf::to_host(xf::bincount(xf::asarray<std::uint8_t, Space>({0, 1, 1, 3}), 6)) == std::vector<std::int64_t>{1, 2, 0, 1, 0, 0});
  CHECK(xf::to_host(xf::bincount(xf::asarray<int, Space>({0, 1, 1, 2}), xf::asarray<float, Space>({0.5f, 1, 1.25f, 2}))) ==
        std::vector<double>{0.5, 2.25, 2});
  CHECK(xf::to_host(xf::bincount(xf::array<int, 1, Space>(xf::dims<1>{0}), 3)) == std::vector<std::int64_t>{0, 0, 0});
  CHECK_THROWS_AS(xf::bincount(xf::asarray<int, Space>({0, -1})), xf::error);
  CHECK_THROWS_AS(xf::bincount(xf::asarray<std::int64_t, Space>({0, std::numeric_limits<std::int64_t>::max()})), xf::error);
  // Random: few bins (counted in shared memory on the device) and many (in global memory).
  for (const int range : {50, 20000}) {
    const std::vector<int> x = uniform<int>(100000, 0, range);
    std::vector<std::int64_t> want(static_cast<std::size_t>(*std::max_element(x.begin(), x.end()) + 1));
    for (const int i : x) ++want[static_cast<std::size_t>(i)];
    CHECK(xf::to_host(xf::bincount(xf::asarray<int, Space>(x))) == want);
  }
  // np.histogram(np.float32([1, 2, 1, 4, 2.5, 3, 7]), bins=3) -> [4, 2, 1], edges float32 [1, 3, 5, 7];
  // np.histogram(np.arange(11), bins=4, range=(0, 10)) -> [3, 2, 3, 3], edges [0, 2.5, 5, 7.5, 10];
  // np.histogram([0.1, 0.2, ..., 1.0], bins=10, range=(0, 1)) -> [0, 1, 2, 0, 1, 2, 1, 0, 1, 2] (the
  // edges' rounding decides); np.histogram([5, 5, 5], bins=2) -> [0, 3], edges [4.5, 5, 5.5].
  const auto [h1, e1] = xf::histogram(xf::asarray<float, Space>({1, 2, 1, 4, 2.5f, 3, 7}), 3);
  static_assert(std::is_same_v<xf::value_t<decltype(e1)>, float>);
  CHECK(xf::to_host(h1) == std::vector<std::int64_t>{4, 2, 1});
  CHECK(xf::to_host(e1) == std::vector<float>{1, 3, 5, 7});
  const auto [h2, e2] = xf::histogram(xf::asarray<int, Space>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}), 4, 0, 10);
  CHECK(xf::to_host(h2) == std::vector<std::int64_t>{3, 2, 3, 3});
  CHECK(xf::to_host(e2) == std::vector<double>{0, 2.5, 5, 7.5, 10});
  const auto [h3, e3] = xf::histogram(xf::asarray<double, Space>({0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0}), 10, 0, 1);
  CHECK(xf::to_host(h3) == std::vector<std::int64_t>{0, 1, 2, 0, 1, 2, 1, 0, 1, 2});
  const auto [h4, e4] = xf::histogram(xf::asarray<int, Space>({5, 5, 5}), 2);
  CHECK(xf::to_host(h4) == std::vector<std::int64_t>{0, 3});
  CHECK(xf::to_host(e4) == std::vector<double>{4.5, 5, 5.5});
  // Values outside the range and NaN are left out.
  const auto [h5, e5] = xf::histogram(xf::asarray<double, Space>({-1, 0, nan, 0.5, 1, 2}), 2, 0, 1);
  CHECK(xf::to_host(h5) == std::vector<std::int64_t>{1, 2});
  CHECK_THROWS_AS(xf::histogram(xf::asarray<double, Space>({1, nan})), xf::error);
  CHECK_THROWS_AS(xf::histogram(xf::asarray<double, Space>({1, 2}), 0), xf::error);
  // NumPy raises "Too many bins for data range" when the bins cannot have finite, positive widths:
  // float32 edges around 1e8 (the +-0.5 widening is lost), a range of 2e308, 10 bins over [1e17, 1e17].
  CHECK_THROWS_AS(xf::histogram(xf::asarray<float, Space>({1e8f, 1e8f})), xf::error);
  CHECK_THROWS_AS(xf::histogram(xf::asarray<double, Space>({-1e308, 1e308})), xf::error);
  CHECK_THROWS_AS(xf::histogram(xf::asarray<double, Space>({1, 2}), 10, 1e17, 1e17), xf::error);
}

}  // namespace xf_test::statistics
