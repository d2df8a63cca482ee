// diff, gradient, trapezoid, isin, digitize, interp, lexsort, cov, corrcoef, nanmedian,
// nanquantile and nanpercentile, shared by the host suite (host arrays) and the GPU suite (device
// arrays). Expected values are NumPy 2.4.6's printed results, pasted with the call beside them;
// fresh random inputs (NaN and infinities where they matter) are checked against scalar references
// that compute what NumPy computes, in the same order, so most comparisons are exact.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include <xfuse/complex.hpp>
#include <xfuse/linalg.hpp>
#include <xfuse/manip.hpp>
#include <xfuse/quantile.hpp>

#include "check.hpp"
#include "random.hpp"

namespace xf_test::numpy_more {

inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();
inline constexpr double inf = std::numeric_limits<double>::infinity();

using shape3 = std::array<xf::index_t, 3>;

// Flat C-order position of (i, j, k) in `shape`.
inline std::size_t at3(const shape3& shape, xf::index_t i, xf::index_t j, xf::index_t k) {
  return static_cast<std::size_t>((i * shape[1] + j) * shape[2] + k);
}

// v[.. i+1 ..] - v[.. i ..] along `axis` of a C-ordered 3-D array: NumPy's diff, in double.
inline std::vector<double> reference_diff(const std::vector<double>& v, shape3& shape, int axis) {
  shape3 out = shape;
  out[axis] = std::max<xf::index_t>(shape[axis] - 1, 0);
  std::vector<double> r;
  for (xf::index_t i = 0; i < out[0]; ++i)
    for (xf::index_t j = 0; j < out[1]; ++j)
      for (xf::index_t k = 0; k < out[2]; ++k) {
        const xf::index_t up[3] = {i + (axis == 0), j + (axis == 1), k + (axis == 2)};
        r.push_back(v[at3(shape, up[0], up[1], up[2])] - v[at3(shape, i, j, k)]);
      }
  shape = out;
  return r;
}

// Equal values, NaN equal to NaN.
inline bool same(double got, double want) { return (std::isnan(got) && std::isnan(want)) || got == want; }
template <class T>
void require_same(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  require_all_close(got, want, 0.0, 0.0, what);
}

// ---------------------------------------------------------------- diff
template <class Space>
void diff_matches_numpy() {
  // np.diff([1, 2, 4, 7, 0]) -> [1, 2, 3, -7]; n=2 -> [1, 1, -10]; n=5 -> []; n=0 -> the input.
  const auto v = xf::asarray<int, Space>({1, 2, 4, 7, 0});
  CHECK(xf::to_host(xf::diff(v)) == std::vector<int>{1, 2, 3, -7});
  CHECK(xf::to_host(xf::diff(v, 2)) == std::vector<int>{1, 1, -10});
  CHECK(xf::diff(v, 5).size() == 0);
  CHECK(xf::diff(v, 1000000000).size() == 0);
  CHECK(xf::to_host(xf::diff(v, 0)) == std::vector<int>{1, 2, 4, 7, 0});
  // x = [[1, 3, 6, 10], [0, 5, 6, 8]]: np.diff(x, axis=0) -> [[-1, 2, 0, -2]]; np.diff(x, n=2) -> [[1, 1], [-4, 1]].
  const auto x = xf::asarray<int, Space>({1, 3, 6, 10, 0, 5, 6, 8}, {2, 4});
  const auto d0 = xf::diff(x, 1, 0);
  CHECK(d0.shape() == std::array<xf::index_t, 2>{1, 4});
  CHECK(xf::to_host(d0) == std::vector<int>{-1, 2, 0, -2});
  CHECK(xf::to_host(xf::diff(x, 2)) == std::vector<int>{1, 1, -4, 1});
  CHECK(xf::to_host(xf::diff(x.T(), 1, 1)) == std::vector<int>{-1, 2, 0, -2});  // a transposed view
  // np.diff([True, False, False, True]) -> [True, False, True] (not_equal); uint8 wraps: [1, 0, 255] -> [255, 255].
  CHECK(xf::to_host(xf::diff(xf::asarray<bool, Space>({true, false, false, true}))) == std::vector<bool>{true, false, true});
  CHECK(xf::to_host(xf::diff(xf::asarray<std::uint8_t, Space>({1, 0, 255}))) == std::vector<std::uint8_t>{255, 255});
  // np.diff([1.0, inf, inf, nan, 2]) -> [inf, nan, nan, nan].
  const auto specials = xf::to_host(xf::diff(xf::asarray<double, Space>({1.0, inf, inf, nan, 2})));
  CHECK((specials[0] == inf && std::isnan(specials[1]) && std::isnan(specials[2]) && std::isnan(specials[3])));
  // Of an expression: evaluated once, then differenced.
  CHECK(xf::to_host(xf::diff(v * 2 + 1)) == std::vector<int>{2, 4, 6, -14});
  // Empty: shape (0,) stays (0,); (3, 0) along axis 0 gives (2, 0).
  CHECK(xf::diff(xf::array<float, 1, Space>(xf::dims<1>{0})).size() == 0);
  CHECK(xf::diff(xf::array<float, 2, Space>(xf::dims<2>{3, 0}), 1, 0).shape() == std::array<xf::index_t, 2>{2, 0});
}

template <class Space>
void diff_joins_prepend_and_append() {
  const auto a = xf::asarray<int, Space>({1, 2, 4});
  // np.diff(np.array([1, 2, 4], np.int32), prepend=np.int32(0), append=np.array([10], np.int32)) -> [1, 1, 2, 6]
  const auto both = xf::diff(a, 1, 0, 0, xf::asarray<int, Space>({10}));
  static_assert(std::is_same_v<xf::value_t<decltype(both)>, int>);
  CHECK(xf::to_host(both) == std::vector<int>{1, 1, 2, 6});
  // np.diff(np.array([1, 2, 4], np.int32), prepend=0.5) -> array([0.5, 1., 2.]): the float64 of the prepended value.
  const auto promoted = xf::diff(a, 1, -1, 0.5);
  static_assert(std::is_same_v<xf::value_t<decltype(promoted)>, double>);
  CHECK(xf::to_host(promoted) == std::vector<double>{0.5, 1, 2});
  CHECK(xf::to_host(xf::diff(a, 1, 0, std::nullopt, 3)) == std::vector<int>{1, 2, -1});
  // x = [[1, 3, 6, 10], [0, 5, 6, 8]]: np.diff(x, axis=1, prepend=x[:, :1] * 0, append=[[1], [2]])
  // -> [[1, 2, 3, 4, -9], [0, 5, 1, 2, -6]].
  const auto x = xf::asarray<int, Space>({1, 3, 6, 10, 0, 5, 6, 8}, {2, 4});
  const auto ends = xf::diff(x, 1, 1, xf::eval(x(xf::all, xf::slice(0, 1)) * 0), xf::asarray<int, Space>({1, 2}, {2, 1}));
  CHECK(ends.shape() == std::array<xf::index_t, 2>{2, 5});
  CHECK(xf::to_host(ends) == std::vector<int>{1, 2, 3, 4, -9, 0, 5, 1, 2, -6});
  // n = 0 returns `a` without the ends, as NumPy.
  CHECK(xf::to_host(xf::diff(a, 0, 0, 7, 8)) == std::vector<int>{1, 2, 4});
  // Bad input names the operation and the shapes.
  CHECK_THROWS_AS(xf::diff(a, -1), xf::error);
  CHECK_THROWS_AS(xf::diff(a, 1, 1), xf::shape_error);
  CHECK_THROWS_AS(xf::diff(x, 1, 1, xf::asarray<int, Space>({1, 2, 3}, {3, 1})), xf::shape_error);
  CHECK_THROWS_WITH(xf::diff(x, 1, 1, xf::asarray<int, Space>({1, 2, 3}, {3, 1})), XF_CONTAINS("xf::diff"));
}

template <class Space>
void diff_matches_reference_along_every_axis() {
  const shape3 shape{4, 5, 6};
  const std::vector<double> v = uniform<double>(4 * 5 * 6, -100, 100);
  const auto a = xf::asarray<double, Space>(v, shape);
  for (int axis = 0; axis < 3; ++axis) {
    shape3 s = shape;
    const auto once = reference_diff(v, s, axis);
    const auto twice = reference_diff(once, s, axis);
    require_same(xf::to_host(xf::diff(a, 1, axis)), once, "diff along axis " + std::to_string(axis));
    const auto d2 = xf::diff(a, 2, axis - 3);
    CHECK(d2.shape() == s);
    require_same(xf::to_host(d2), twice, "second differences along axis " + std::to_string(axis));
  }
}

// ---------------------------------------------------------------- gradient
template <class Space>
void gradient_matches_numpy() {
  const auto f = xf::asarray<double, Space>({1, 2, 4, 7, 11, 16});
  // np.gradient([1, 2, 4, 7, 11, 16.]) -> [1., 1.5, 2.5, 3.5, 4.5, 5.]; spacing 2 -> halves;
  // edge_order=2 -> [0.5, 1.5, 2.5, 3.5, 4.5, 5.5].
  CHECK(xf::to_host(xf::gradient(f)) == std::vector<double>{1, 1.5, 2.5, 3.5, 4.5, 5});
  CHECK(xf::to_host(xf::gradient(f, 2.0)) == std::vector<double>{0.5, 0.75, 1.25, 1.75, 2.25, 2.5});
  CHECK(xf::to_host(xf::gradient(f, xf::edge_order(2))) == std::vector<double>{0.5, 1.5, 2.5, 3.5, 4.5, 5.5});
  // np.gradient([[1, 2, 6], [3, 4, 5.]]) -> ([[2, 2, -1], [2, 2, -1]], [[1, 2.5, 4], [1, 1, 1]]).
  const auto [g0, g1] = xf::gradient(xf::asarray<double, Space>({1, 2, 6, 3, 4, 5}, {2, 3}));
  CHECK(xf::to_host(g0) == std::vector<double>{2, 2, -1, 2, 2, -1});
  CHECK(xf::to_host(g1) == std::vector<double>{1, 2.5, 4, 1, 1, 1});
  // g = [[1, 2, 6, 3], [3, 4, 5, 9], [0, -2, 7, 1.5]]: np.gradient(g, 2.0, 0.5, edge_order=2) and
  // np.gradient(g, 0.25, axis=1, edge_order=2).
  const auto g = xf::asarray<double, Space>({1, 2, 6, 3, 3, 4, 5, 9, 0, -2, 7, 1.5}, {3, 4});
  const auto [h0, h1] = xf::gradient(g, {2.0, 0.5}, xf::edge_order(2));
  CHECK(xf::to_host(h0) == std::vector<double>{2.25, 3, -1.25, 6.375, -0.25, -1, 0.25, -0.375, -2.75, -5, 1.75, -7.125});
  CHECK(xf::to_host(h1) == std::vector<double>{-1, 5, 1, -13, 2, 2, 5, 11, -15, 7, 3.5, -25.5});
  CHECK(xf::to_host(xf::gradient(g, 0.25, 1, xf::edge_order(2))) ==
        std::vector<double>{-2, 10, 2, -26, 4, 4, 10, 22, -30, 14, 7, -51});
  CHECK(xf::to_host(xf::gradient(g.T(), 0.25, 0, xf::edge_order(2))) ==
        xf::to_host(xf::eval(xf::gradient(g, 0.25, 1, xf::edge_order(2)).T())));
  // float32 stays float32, rounded as NumPy's: np.gradient(np.array([0.1, 0.7, 0.3, 1.9], np.float32), 0.3)
  // -> [1.9999998, 0.33333334, 2., 5.333333]; edge_order=2 -> [3.6666665, 0.33333334, 2., 8.666667].
  const auto s = xf::asarray<float, Space>({0.1f, 0.7f, 0.3f, 1.9f});
  const auto gs = xf::gradient(s, 0.3);
  static_assert(std::is_same_v<xf::value_t<decltype(gs)>, float>);
  CHECK(xf::to_host(gs) == std::vector<float>{1.9999998f, 0.33333334f, 2.f, 5.333333f});
  CHECK(xf::to_host(xf::gradient(s, 0.3, xf::edge_order(2))) == std::vector<float>{3.6666665f, 0.33333334f, 2.f, 8.666667f});
  // Integers give float64: np.gradient(np.array([1, 4, 9, 16])) -> [3., 4., 6., 7.].
  const auto gi = xf::gradient(xf::asarray<int, Space>({1, 4, 9, 16}));
  static_assert(std::is_same_v<xf::value_t<decltype(gi)>, double>);
  CHECK(xf::to_host(gi) == std::vector<double>{3, 4, 6, 7});
  // np.gradient([1, nan, 3, inf, 5.]) -> [nan, 1., nan, 1., -inf].
  const auto gn = xf::to_host(xf::gradient(xf::asarray<double, Space>({1, nan, 3, inf, 5})));
  CHECK((std::isnan(gn[0]) && gn[1] == 1 && std::isnan(gn[2]) && gn[3] == 1 && gn[4] == -inf));
  // Complex keeps its type: np.gradient([1+1j, 2, 4-2j, 7j]) -> [1-1j, 1.5-1.5j, -1+3.5j, -4+9j];
  // spacing 0.5, edge_order=2 -> [1-1j, 3-3j, -2+7j, -14+29j].
  using z = xf::complex64;
  const auto zf = xf::asarray<z, Space>({z(1, 1), z(2, 0), z(4, -2), z(0, 7)});
  const auto gz = xf::gradient(zf);
  static_assert(std::is_same_v<xf::value_t<decltype(gz)>, z>);
  CHECK(xf::to_host(gz) == std::vector<z>{z(1, -1), z(1.5f, -1.5f), z(-1, 3.5f), z(-4, 9)});
  CHECK(xf::to_host(xf::gradient(zf, 0.5, xf::edge_order(2))) == std::vector<z>{z(1, -1), z(3, -3), z(-2, 7), z(-14, 29)});
  // Too few elements for the edge order, edge orders other than 1 and 2, bad axes.
  CHECK_THROWS_AS(xf::gradient(xf::asarray<double, Space>({1, 2}), xf::edge_order(2)), xf::shape_error);
  CHECK_THROWS_AS(xf::gradient(xf::asarray<double, Space>({1})), xf::shape_error);
  CHECK_THROWS_AS(xf::gradient(f, xf::edge_order(3)), xf::error);
  CHECK_THROWS_AS(xf::gradient(g, 1.0, 2), xf::shape_error);
  CHECK(xf::gradient(xf::array<float, 2, Space>(xf::dims<2>{0, 3}), 1.0, 1).size() == 0);
}

// NumPy's gradient of each line along `axis`, in double, in NumPy's order of operations.
inline std::vector<double> reference_gradient(const std::vector<double>& v, const shape3& shape, int axis, double dx, int order) {
  std::vector<double> r(v.size());
  const xf::index_t n = shape[axis];
  for (xf::index_t i = 0; i < shape[0]; ++i)
    for (xf::index_t j = 0; j < shape[1]; ++j)
      for (xf::index_t k = 0; k < shape[2]; ++k) {
        const xf::index_t c[3] = {i, j, k}, p = c[axis];
        auto f = [&](xf::index_t q) {
          xf::index_t d[3] = {i, j, k};
          d[axis] = q;
          return v[at3(shape, d[0], d[1], d[2])];
        };
        double out;
        if (p > 0 && p < n - 1) out = (f(p + 1) - f(p - 1)) / (2. * dx);
        else if (order == 1) out = p == 0 ? (f(1) - f(0)) / dx : (f(n - 1) - f(n - 2)) / dx;
        else if (p == 0) out = (-1.5 / dx) * f(0) + (2. / dx) * f(1) + (-0.5 / dx) * f(2);
        else out = (0.5 / dx) * f(n - 3) + (-2. / dx) * f(n - 2) + (1.5 / dx) * f(n - 1);
        r[at3(shape, i, j, k)] = out;
      }
  return r;
}

template <class Space>
void gradient_matches_reference() {
  const shape3 shape{5, 3, 7};
  const std::vector<double> v = uniform<double>(5 * 3 * 7, -10, 10);
  const auto a = xf::asarray<double, Space>(v, shape);
  for (int order = 1; order <= 2; ++order) {
    const auto all = xf::gradient(a, {0.37, 1.9, 3e-3}, xf::edge_order(order));
    const double dxs[3] = {0.37, 1.9, 3e-3};
    for (int axis = 0; axis < 3; ++axis) {
      const auto want = reference_gradient(v, shape, axis, dxs[axis], order);
      const std::string what = "gradient along axis " + std::to_string(axis) + ", edge order " + std::to_string(order);
      require_same(xf::to_host(all[static_cast<std::size_t>(axis)]), want, what);
      require_same(xf::to_host(xf::gradient(a * 1.0, dxs[axis], axis, xf::edge_order(order))), want, what + " (one axis)");
    }
  }
}

// ---------------------------------------------------------------- trapezoid
template <class Space>
void trapezoid_matches_numpy() {
  const auto y = xf::asarray<double, Space>({1, 2, 3});
  // np.trapezoid([1, 2, 3]) -> 4.0; dx=2 -> 8.0; x=[4, 6, 8] -> 8.0.
  CHECK(xf::trapezoid(y).item() == 4.0);
  CHECK(xf::trapezoid(y, 2.0).item() == 8.0);
  CHECK(xf::trapezoid(y, xf::asarray<double, Space>({4, 6, 8})).item() == 8.0);
  // a = np.arange(6).reshape(2, 3): trapezoid(a, axis=0) -> [1.5, 2.5, 3.5]; axis=1 -> [2., 8.];
  // x=[[0, 1, 3], [0, 2, 3]], axis=1 -> [3.5, 11.5]; x=[0, 0.5], axis=0 -> [0.75, 1.25, 1.75].
  const auto a = xf::asarray<int, Space>({0, 1, 2, 3, 4, 5}, {2, 3});
  const auto t0 = xf::trapezoid(a, 1.0, 0);
  static_assert(std::is_same_v<xf::value_t<decltype(t0)>, double>);
  CHECK(xf::to_host(t0) == std::vector<double>{1.5, 2.5, 3.5});
  CHECK(xf::to_host(xf::trapezoid(a)) == std::vector<double>{2, 8});
  CHECK(xf::to_host(xf::trapezoid(a, xf::asarray<double, Space>({0, 1, 3, 0, 2, 3}, {2, 3}), 1)) == std::vector<double>{3.5, 11.5});
  CHECK(xf::to_host(xf::trapezoid(a, xf::asarray<double, Space>({0, 0.5}), 0)) == std::vector<double>{0.75, 1.25, 1.75});
  // np.trapezoid(np.array([1, 2, 3], np.float32), dx=0.1) -> np.float32(0.4);
  // np.trapezoid(np.array([0.3, 2.2, 3.7, 1.1], np.float32), x=np.array([0, 0.1, 0.35, 1.0])) -> 2.4225000739097595.
  const auto tf = xf::trapezoid(xf::asarray<float, Space>({1, 2, 3}), 0.1);
  static_assert(std::is_same_v<xf::value_t<decltype(tf)>, float>);
  CHECK(tf.item() == 0.4f);
  CHECK(close_double(xf::trapezoid(xf::asarray<float, Space>({0.3f, 2.2f, 3.7f, 1.1f}), xf::asarray<double, Space>({0, 0.1, 0.35, 1.0})).item(),
                     2.4225000739097595, 1e-15, 0));
  // np.trapezoid([]) -> 0.0, [5.0] -> 0.0, [1, nan, 3] -> nan, [1, inf, 3] -> inf;
  // np.trapezoid(np.array([100, 100], np.int8)) -> -28.0 (int8 wraps in y[1:] + y[:-1], as NumPy's).
  CHECK(xf::trapezoid(xf::array<double, 1, Space>(xf::dims<1>{0})).item() == 0.0);
  CHECK(xf::trapezoid(xf::asarray<double, Space>({5})).item() == 0.0);
  CHECK(std::isnan(xf::trapezoid(xf::asarray<double, Space>({1, nan, 3})).item()));
  CHECK(xf::trapezoid(xf::asarray<double, Space>({1, inf, 3})).item() == inf);
  CHECK(xf::trapezoid(xf::asarray<std::int8_t, Space>({100, 100})).item() == -28.0);
  CHECK_THROWS_AS(xf::trapezoid(y, xf::asarray<double, Space>({1, 2})), xf::shape_error);
  CHECK_THROWS_AS(xf::trapezoid(a, xf::asarray<double, Space>({0, 1, 3, 0, 2, 3}, {3, 2}), 1), xf::shape_error);
  CHECK_THROWS_AS(xf::trapezoid(a, 1.0, 2), xf::shape_error);
  // Random lines of an expression along each axis, against a long-double sum.
  const shape3 shape{4, 33, 5};
  const std::vector<double> v = uniform<double>(4 * 33 * 5, -3, 3);
  const auto r = xf::asarray<double, Space>(v, shape);
  for (int axis = 0; axis < 3; ++axis) {
    const auto got = xf::to_host(xf::trapezoid(r * 2.0, 0.25, axis));
    std::vector<double> want;
    for (xf::index_t i = 0; i < (axis == 0 ? 1 : shape[0]); ++i)
      for (xf::index_t j = 0; j < (axis == 1 ? 1 : shape[1]); ++j)
        for (xf::index_t k = 0; k < (axis == 2 ? 1 : shape[2]); ++k) {
          long double s = 0;
          for (xf::index_t p = 1; p < shape[axis]; ++p) {
            xf::index_t c[3] = {i, j, k}, b[3] = {i, j, k};
            c[axis] = p, b[axis] = p - 1;
            s += 0.25L * (2.0L * v[at3(shape, c[0], c[1], c[2])] + 2.0L * v[at3(shape, b[0], b[1], b[2])]) / 2;
          }
          want.push_back(static_cast<double>(s));
        }
    require_all_close(got, want, 1e-13, 1e-13, "trapezoid along axis " + std::to_string(axis));
  }
}

// ---------------------------------------------------------------- isin
template <class Space>
void isin_matches_numpy() {
  // np.isin([[1, 2], [3, 4]], [4, 2, 9]) -> [[False, True], [False, True]]; invert=True the opposite.
  const auto e = xf::asarray<int, Space>({1, 2, 3, 4}, {2, 2});
  const auto t = xf::asarray<int, Space>({4, 2, 9});
  const auto in = xf::isin(e, t);
  CHECK(in.shape() == std::array<xf::index_t, 2>{2, 2});
  CHECK(xf::to_host(in) == std::vector<bool>{false, true, false, true});
  CHECK(xf::to_host(xf::isin(e, t, true)) == std::vector<bool>{true, false, true, false});
  // np.isin([nan, 1.0], [nan, 1.0]) -> [False, True]; np.isin(np.array([1, 2, 3], np.int32), [2.0, 2.5]) ->
  // [False, True, False]; np.isin([-0.0], [0.0]) -> [True]; np.isin([1, 2], []) -> [False, False];
  // np.isin(np.array([300, 44], np.int32), np.array([44], np.uint8)) -> [False, True].
  CHECK(xf::to_host(xf::isin(xf::asarray<double, Space>({nan, 1}), xf::asarray<double, Space>({nan, 1}))) == std::vector<bool>{false, true});
  CHECK(xf::to_host(xf::isin(xf::asarray<int, Space>({1, 2, 3}), xf::asarray<double, Space>({2.0, 2.5}))) ==
        std::vector<bool>{false, true, false});
  CHECK(xf::to_host(xf::isin(xf::asarray<double, Space>({-0.0}), xf::asarray<double, Space>({0.0}))) == std::vector<bool>{true});
  CHECK(xf::to_host(xf::isin(xf::asarray<int, Space>({1, 2}), xf::array<int, 1, Space>(xf::dims<1>{0}))) == std::vector<bool>{false, false});
  CHECK(xf::to_host(xf::isin(xf::asarray<int, Space>({300, 44}), xf::asarray<std::uint8_t, Space>({44}))) == std::vector<bool>{false, true});
  CHECK(xf::isin(xf::array<int, 2, Space>(xf::dims<2>{0, 3}), t).shape() == std::array<xf::index_t, 2>{0, 3});
  // Random: an expression against 2-D test elements, against std::find.
  const std::vector<int> values = uniform<int>(5000, -60, 60), tests = uniform<int>(40, -60, 60);
  const auto got = xf::to_host(xf::isin(xf::asarray<int, Space>(values) - 1, xf::asarray<int, Space>(tests, {8, 5})));
  const auto inverted = xf::to_host(xf::isin(xf::asarray<int, Space>(values) - 1, xf::asarray<int, Space>(tests, {8, 5}), true));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const bool want = std::find(tests.begin(), tests.end(), values[i] - 1) != tests.end();
    CHECK(got[i] == want);
    CHECK(inverted[i] == !want);
  }
}

// ---------------------------------------------------------------- digitize
template <class Space>
void digitize_matches_numpy() {
  const auto bins = xf::asarray<double, Space>({0.0, 1.0, 2.5, 4.0, 10.0});
  const auto down = xf::asarray<double, Space>({10.0, 4.0, 2.5, 1.0, 0.0});
  // np.digitize([0.2, 6.4, 3.0, 1.6], bins) -> [1, 4, 3, 2]; [1.0, 2.5, 4.0] -> [2, 3, 4], right=True [1, 2, 3].
  CHECK(xf::to_host(xf::digitize(xf::asarray<double, Space>({0.2, 6.4, 3.0, 1.6}), bins)) == std::vector<std::int64_t>{1, 4, 3, 2});
  const auto edges = xf::asarray<double, Space>({1.0, 2.5, 4.0});
  CHECK(xf::to_host(xf::digitize(edges, bins)) == std::vector<std::int64_t>{2, 3, 4});
  CHECK(xf::to_host(xf::digitize(edges, bins, true)) == std::vector<std::int64_t>{1, 2, 3});
  // Decreasing: np.digitize([0.2, 6.4, 3.0, 1.6, 1.0, 10.0], down) -> [4, 1, 2, 3, 3, 0]; right=True -> [4, 1, 2, 3, 4, 1].
  const auto probes = xf::asarray<double, Space>({0.2, 6.4, 3.0, 1.6, 1.0, 10.0}, {2, 3});
  const auto dd = xf::digitize(probes, down);
  CHECK(dd.shape() == std::array<xf::index_t, 2>{2, 3});
  CHECK(xf::to_host(dd) == std::vector<std::int64_t>{4, 1, 2, 3, 3, 0});
  CHECK(xf::to_host(xf::digitize(probes, down, true)) == std::vector<std::int64_t>{4, 1, 2, 3, 4, 1});
  // NaN: np.digitize([nan], [1, 2, 3]) -> [3] (also right=True); decreasing [3, 2, 1] -> [0].
  const auto n1 = xf::asarray<double, Space>({nan});
  CHECK(xf::digitize(n1, xf::asarray<int, Space>({1, 2, 3})).item() == 3);
  CHECK(xf::digitize(n1, xf::asarray<int, Space>({1, 2, 3}), true).item() == 3);
  CHECK(xf::digitize(n1, xf::asarray<int, Space>({3, 2, 1})).item() == 0);
  // Repeated edges: np.digitize([1, 2, 3], [1, 1, 2, 2, 3]) -> [2, 4, 5]; right=True -> [0, 2, 4].
  // All equal: np.digitize([0, 1, 2], [1, 1]) -> [0, 2, 2]; no bins: [0, 0]; one bin [1]: [0, 1, 1].
  const auto small = xf::asarray<int, Space>({1, 2, 3});
  CHECK(xf::to_host(xf::digitize(small, xf::asarray<int, Space>({1, 1, 2, 2, 3}))) == std::vector<std::int64_t>{2, 4, 5});
  CHECK(xf::to_host(xf::digitize(small, xf::asarray<int, Space>({1, 1, 2, 2, 3}), true)) == std::vector<std::int64_t>{0, 2, 4});
  const auto zero_one_two = xf::asarray<int, Space>({0, 1, 2});
  CHECK(xf::to_host(xf::digitize(zero_one_two, xf::asarray<int, Space>({1, 1}))) == std::vector<std::int64_t>{0, 2, 2});
  CHECK(xf::to_host(xf::digitize(zero_one_two, xf::array<int, 1, Space>(xf::dims<1>{0}))) == std::vector<std::int64_t>{0, 0, 0});
  CHECK(xf::to_host(xf::digitize(zero_one_two, xf::asarray<int, Space>({1}))) == std::vector<std::int64_t>{0, 1, 1});
  // np.digitize(np.array([-3, 0, 7], np.int8), [-2.5, 0.0, 6.5]) -> [0, 2, 3]; bins [1, 2, nan] are increasing
  // for NumPy ([1.5, 2.5] -> [1, 2]), [nan, nan] decreasing ([2, 2]).
  CHECK(xf::to_host(xf::digitize(xf::asarray<std::int8_t, Space>({-3, 0, 7}), xf::asarray<double, Space>({-2.5, 0.0, 6.5}))) ==
        std::vector<std::int64_t>{0, 2, 3});
  const auto mid = xf::asarray<double, Space>({1.5, 2.5});
  CHECK(xf::to_host(xf::digitize(mid, xf::asarray<double, Space>({1, 2, nan}))) == std::vector<std::int64_t>{1, 2});
  CHECK(xf::to_host(xf::digitize(mid, xf::asarray<double, Space>({nan, nan}))) == std::vector<std::int64_t>{2, 2});
  // Not monotonic (NumPy's ValueError): [1, 3, 2], and [nan, 1, 2] (NaN first reads as falling).
  CHECK_THROWS_AS(xf::digitize(mid, xf::asarray<double, Space>({1, 3, 2})), xf::error);
  CHECK_THROWS_WITH(xf::digitize(mid, xf::asarray<double, Space>({nan, 1, 2})), XF_CONTAINS("monotonically"));
}

template <class Space>
void digitize_matches_binary_search() {
  std::vector<float> edges = uniform<float>(300, -50, 50);
  std::sort(edges.begin(), edges.end());
  std::vector<float> x = uniform<float>(20000, -60, 60);
  for (std::size_t i = 0; i < x.size(); i += 97) x[i] = edges[i % edges.size()];  // values on the edges
  x[5] = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> reversed(edges.rbegin(), edges.rend());
  const auto xs = xf::asarray<float, Space>(x);
  const auto up = xf::asarray<float, Space>(edges), down = xf::asarray<float, Space>(reversed);
  const auto inc = xf::to_host(xf::digitize(xs, up)), inc_right = xf::to_host(xf::digitize(xs, up, true));
  const auto dec = xf::to_host(xf::digitize(xs, down)), dec_right = xf::to_host(xf::digitize(xs, down, true));
  const auto n = static_cast<std::int64_t>(edges.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    INFO("x = " << x[i]);
    const std::int64_t below = std::lower_bound(edges.begin(), edges.end(), x[i]) - edges.begin();
    const std::int64_t not_above = std::upper_bound(edges.begin(), edges.end(), x[i]) - edges.begin();
    if (std::isnan(x[i])) {
      CHECK((inc[i] == n && inc_right[i] == n && dec[i] == 0 && dec_right[i] == 0));
      continue;
    }
    CHECK(inc[i] == not_above);      // bins[i-1] <= x < bins[i]
    CHECK(inc_right[i] == below);    // bins[i-1] < x <= bins[i]
    CHECK(dec[i] == n - not_above);  // bins[i-1] > x >= bins[i]
    CHECK(dec_right[i] == n - below);    // bins[i-1] >= x > bins[i]
  }
}

// ---------------------------------------------------------------- interp
// NumPy's arr_interp for one x, in double (the product rounded on its own).
inline double reference_interp(double x, const std::vector<double>& xp, const std::vector<double>& fp) {
  const std::size_t n = xp.size();
  if (std::isnan(x)) return x;
  if (x > xp[n - 1]) return fp[n - 1];
  if (x < xp[0]) return fp[0];
  const std::size_t j = static_cast<std::size_t>(std::upper_bound(xp.begin(), xp.end(), x) - xp.begin()) - 1;
  if (j == n - 1 || xp[j] == x) return fp[j];
  const double slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
  volatile double product = slope * (x - xp[j]);
  return product + fp[j];
}

template <class Space>
void interp_matches_numpy() {
  const auto xp = xf::asarray<double, Space>({1, 2, 3}), fp = xf::asarray<double, Space>({3, 2, 0});
  // np.interp(2.5, [1, 2, 3], [3, 2, 0]) -> 1.0; np.interp([0, 1, 1.5, 2.72, 3.14], ...) ->
  // [3.0, 3.0, 2.5, 0.5599999999999996, 0.0].
  CHECK(xf::interp(xf::asarray<double, Space>({2.5}), xp, fp).item() == 1.0);
  CHECK(xf::to_host(xf::interp(xf::asarray<double, Space>({0, 1, 1.5, 2.72, 3.14}), xp, fp)) ==
        std::vector<double>{3.0, 3.0, 2.5, 0.5599999999999996, 0.0});
  // left=-1, right=9: [0, 4] -> [-1, 9]. One sample point: np.interp([nan, 0, 1, 2], [1], [5]) -> [5, 5, 5, 5],
  // with left=-1, right=9 -> [5, -1, 5, 9] (NaN compares false both ways).
  const auto outside = xf::asarray<double, Space>({0, 4});
  CHECK(xf::to_host(xf::interp(outside, xp, fp, -1.0, 9.0)) == std::vector<double>{-1, 9});
  CHECK(xf::to_host(xf::interp(outside, xp, fp, std::nullopt, 9.0)) == std::vector<double>{3, 9});
  const auto four = xf::asarray<double, Space>({nan, 0, 1, 2});
  const auto one_x = xf::asarray<double, Space>({1}), one_f = xf::asarray<double, Space>({5});
  CHECK(xf::to_host(xf::interp(four, one_x, one_f)) == std::vector<double>{5, 5, 5, 5});
  CHECK(xf::to_host(xf::interp(four, one_x, one_f, -1.0, 9.0)) == std::vector<double>{5, -1, 5, 9});
  // Infinities: [1.5] with fp [inf, inf] -> [inf] (the NaN slope falls back to fp), [0, inf] -> [inf],
  // [-inf, inf] -> [nan]; x = nan -> nan, 1.25 -> 0.25 for ([1, 2], [0, 1]).
  const auto half = xf::asarray<double, Space>({1.5}), ends = xf::asarray<double, Space>({1, 2});
  CHECK(xf::interp(half, ends, xf::asarray<double, Space>({inf, inf})).item() == inf);
  CHECK(xf::interp(half, ends, xf::asarray<double, Space>({0, inf})).item() == inf);
  CHECK(std::isnan(xf::interp(half, ends, xf::asarray<double, Space>({-inf, inf})).item()));
  const auto nq = xf::to_host(xf::interp(xf::asarray<double, Space>({nan, 1.25}), ends, xf::asarray<double, Space>({0, 1})));
  CHECK((std::isnan(nq[0]) && nq[1] == 0.25));
  // float32 arguments, float64 result: np.interp(np.float32([0.1, 0.7]), np.float32([0, 0.5, 1]),
  // np.float32([1, 2.1, -3])) -> [1.2199999842047689, 0.060000064373014084].
  const auto f32 = xf::interp(xf::asarray<float, Space>({0.1f, 0.7f}), xf::asarray<float, Space>({0, 0.5f, 1}),
                              xf::asarray<float, Space>({1, 2.1f, -3}));
  static_assert(std::is_same_v<xf::value_t<decltype(f32)>, double>);
  CHECK(xf::to_host(f32) == std::vector<double>{1.2199999842047689, 0.060000064373014084});
  // np.interp([0.3, 1.7, 2.9999, 2.2, -1, 5], [0.1, 1.3, 2.2, 3.0], [0.7, -1.9, 2.3, 1e-3]).
  CHECK(xf::to_host(xf::interp(xf::asarray<double, Space>({0.3, 1.7, 2.9999, 2.2, -1, 5}), xf::asarray<double, Space>({0.1, 1.3, 2.2, 3.0}),
                               xf::asarray<double, Space>({0.7, -1.9, 2.3, 1e-3}))) ==
        std::vector<double>{0.26666666666666666, -0.033333333333334325, 0.0012873750000004236, 2.3, 0.7, 0.001});
  // Repeated sample points: np.interp([2.0, 2.5], [1, 2, 2, 3], [0, 1, 5, 7]) -> [5.0, 6.0]; integer x and xp:
  // np.interp(np.int32([[1, 5], [3, 8]]), np.int64([0, 2, 4, 6]), [1, -1, 4, 0.5]) -> [[0.0, 2.25], [1.5, 0.5]].
  CHECK(xf::to_host(xf::interp(xf::asarray<double, Space>({2.0, 2.5}), xf::asarray<double, Space>({1, 2, 2, 3}),
                               xf::asarray<double, Space>({0, 1, 5, 7}))) == std::vector<double>{5, 6});
  const auto grid = xf::interp(xf::asarray<int, Space>({1, 5, 3, 8}, {2, 2}), xf::asarray<std::int64_t, Space>({0, 2, 4, 6}),
                               xf::asarray<double, Space>({1, -1, 4, 0.5}));
  CHECK(grid.shape() == std::array<xf::index_t, 2>{2, 2});
  CHECK(xf::to_host(grid) == std::vector<double>{0.0, 2.25, 1.5, 0.5});
  // NumPy's ValueErrors: no sample points (even for no x), xp and fp of different lengths.
  CHECK_THROWS_AS(xf::interp(outside, xf::array<double, 1, Space>(xf::dims<1>{0}), xf::array<double, 1, Space>(xf::dims<1>{0})), xf::error);
  CHECK_THROWS_AS(xf::interp(xf::array<double, 1, Space>(xf::dims<1>{0}), xf::array<double, 1, Space>(xf::dims<1>{0}), xf::array<double, 1, Space>(xf::dims<1>{0})),
                  xf::error);
  CHECK_THROWS_AS(xf::interp(outside, ends, fp), xf::shape_error);
  CHECK(xf::interp(xf::array<double, 1, Space>(xf::dims<1>{0}), xp, fp).size() == 0);
}

template <class Space>
void interp_matches_reference() {
  std::vector<double> xp = uniform<double>(200, -10, 10);
  std::sort(xp.begin(), xp.end());
  xp.erase(std::unique(xp.begin(), xp.end()), xp.end());
  const std::vector<double> fp = uniform<double>(xp.size(), -1e3, 1e3);
  std::vector<double> x = uniform<double>(30000, -12, 12);
  for (std::size_t i = 0; i < x.size(); i += 101) x[i] = xp[i % xp.size()];
  x[7] = nan, x[8] = inf, x[9] = -inf;
  const auto got = xf::to_host(xf::interp(xf::asarray<double, Space>(x) * 1.0, xf::asarray<double, Space>(xp), xf::asarray<double, Space>(fp)));
  std::vector<double> want;
  for (const double v : x) want.push_back(reference_interp(v, xp, fp));
  require_same(got, want, "interp of random points");
}

// ---------------------------------------------------------------- lexsort
template <class Space>
void lexsort_matches_numpy() {
  // a = [1, 5, 1, 4, 3, 4, 4], b = [9, 4, 0, 4, 0, 2, 1]: np.lexsort((b, a)) -> [2, 0, 4, 6, 5, 3, 1],
  // also np.lexsort(np.array([b, a])).
  const auto a = xf::asarray<int, Space>({1, 5, 1, 4, 3, 4, 4}), b = xf::asarray<int, Space>({9, 4, 0, 4, 0, 2, 1});
  const std::vector<std::int64_t> order{2, 0, 4, 6, 5, 3, 1};
  CHECK(xf::to_host(xf::lexsort(b, a)) == order);
  CHECK(xf::to_host(xf::lexsort({b, a})) == order);
  CHECK(xf::to_host(xf::lexsort(xf::asarray<int, Space>({9, 4, 0, 4, 0, 2, 1, 1, 5, 1, 4, 3, 4, 4}, {2, 7}))) == order);
  CHECK(xf::to_host(xf::lexsort(b.template astype<double>(), a * 1)) == order);  // expressions, mixed types
  // np.lexsort(([1, 2, 3, 4], [nan, 1.0, nan, 1.0])) -> [1, 3, 0, 2]: NaN last.
  CHECK(xf::to_host(xf::lexsort(xf::asarray<int, Space>({1, 2, 3, 4}), xf::asarray<double, Space>({nan, 1, nan, 1}))) ==
        std::vector<std::int64_t>{1, 3, 0, 2});
  // k0 = [[3, 1, 2], [1, 1, 0]], k1 = [[0, 0, 1], [1, 0, 0]]: np.lexsort((k0, k1), axis=0) -> [[0, 0, 1], [1, 1, 0]];
  // axis=1 -> [[1, 0, 2], [2, 1, 0]]. np.lexsort(np.array([[-0.0, 0.0, -0.0]])) -> [0, 1, 2] (zeros equal).
  const auto k0 = xf::asarray<int, Space>({3, 1, 2, 1, 1, 0}, {2, 3}), k1 = xf::asarray<int, Space>({0, 0, 1, 1, 0, 0}, {2, 3});
  CHECK(xf::to_host(xf::lexsort({k0, k1}, 0)) == std::vector<std::int64_t>{0, 0, 1, 1, 1, 0});
  CHECK(xf::to_host(xf::lexsort({k0, k1}, 1)) == std::vector<std::int64_t>{1, 0, 2, 2, 1, 0});
  CHECK(xf::to_host(xf::lexsort(xf::asarray<double, Space>({-0.0, 0.0, -0.0}, {1, 3}))) == std::vector<std::int64_t>{0, 1, 2});
  CHECK(xf::lexsort(xf::array<float, 1, Space>(xf::dims<1>{0}), xf::array<int, 1, Space>(xf::dims<1>{0})).size() == 0);
  CHECK_THROWS_AS(xf::lexsort(a, xf::asarray<int, Space>({1, 2})), xf::shape_error);
  CHECK_THROWS_AS(xf::lexsort(xf::array<int, 2, Space>(xf::dims<2>{0, 4})), xf::error);
  CHECK_THROWS_AS(xf::lexsort({k0, k1}, 2), xf::shape_error);
}

template <class Space>
void lexsort_matches_stable_sort() {
  const std::size_t n = 3000;
  const std::vector<bool> k0 = uniform<bool>(n, 0, 1);
  const std::vector<int> k1 = uniform<int>(n, -3, 3);
  std::vector<float> k2 = uniform<float>(n, -2, 2);
  for (float& v : k2) v = std::round(v);  // ties, broken by the keys before
  for (std::size_t i = 0; i < n; i += 13) k2[i] = std::numeric_limits<float>::quiet_NaN();
  std::vector<std::int64_t> want(n);
  std::iota(want.begin(), want.end(), 0);
  auto rank2 = [&](std::int64_t i) { return std::isnan(k2[i]) ? 1e9f : k2[i]; };
  std::stable_sort(want.begin(), want.end(), [&](std::int64_t i, std::int64_t j) {
    if (rank2(i) != rank2(j)) return rank2(i) < rank2(j);
    if (k1[i] != k1[j]) return k1[i] < k1[j];
    return k0[i] < k0[j];
  });
  const auto got = xf::lexsort(xf::asarray<bool, Space>(k0), xf::asarray<int, Space>(k1), xf::asarray<float, Space>(k2));
  CHECK(xf::to_host(got) == want);
  // Along the first axis of (60, 50) keys: each column sorted on its own.
  const std::vector<int> c0 = uniform<int>(3000, 0, 4), c1 = uniform<int>(3000, 0, 4);
  const auto cols = xf::to_host(xf::lexsort({xf::asarray<int, Space>(c0, {60, 50}), xf::asarray<int, Space>(c1, {60, 50})}, 0));
  for (std::size_t col = 0; col < 50; ++col) {
    std::vector<std::int64_t> w(60);
    std::iota(w.begin(), w.end(), 0);
    std::stable_sort(w.begin(), w.end(), [&](std::int64_t i, std::int64_t j) {
      const std::size_t a = static_cast<std::size_t>(i) * 50 + col, b = static_cast<std::size_t>(j) * 50 + col;
      return c1[a] != c1[b] ? c1[a] < c1[b] : c0[a] < c0[b];
    });
    for (std::size_t r = 0; r < 60; ++r) CHECK(cols[r * 50 + col] == w[r]);
  }
}

// ---------------------------------------------------------------- cov and corrcoef
template <class Space>
void covariance_matches_numpy() {
  // np.cov([[0, 1, 2], [2, 1, 0]]) -> [[1, -1], [-1, 1]] (float64 from integers).
  const auto c = xf::cov(xf::asarray<int, Space>({0, 1, 2, 2, 1, 0}, {2, 3}));
  static_assert(std::is_same_v<xf::value_t<decltype(c)>, double>);
  CHECK(xf::to_host(c) == std::vector<double>{1, -1, -1, 1});
  // 1-D: np.cov([-2.1, -1, 4.3]) -> 11.709999999999999 (0-d); bias=True -> 7.806666666666666; ddof=2 -> 23.419999999999998.
  const auto v = xf::asarray<double, Space>({-2.1, -1, 4.3});
  const auto c1 = xf::cov(v);
  static_assert(decltype(c1)::rank == 0);
  CHECK(close_double(c1.item(), 11.709999999999999, 1e-15, 0));
  CHECK(close_double(xf::cov(v, true, true).item(), 7.806666666666666, 1e-15, 0));
  CHECK(close_double(xf::cov(v, true, false, 2).item(), 23.419999999999998, 1e-15, 0));
  // rowvar=False: np.cov([[1, 2], [3, 5], [4, 4.5]], rowvar=False) -> [[2.3333333333333335, 2.1666666666666665], [.., 2.5833333333333335]].
  const auto m = xf::asarray<double, Space>({1, 2, 3, 5, 4, 4.5}, {3, 2});
  require_all_close(xf::to_host(xf::cov(m, false)), {2.3333333333333335, 2.1666666666666665, 2.1666666666666665, 2.5833333333333335}, 1e-15, 0,
                    "cov(rowvar=False)");
  // float32 gives float64: np.cov(np.float32([[1.5, 2.25, 7.0, 0.1], [3, 1, 2, 2.5]])).
  const auto c32 = xf::cov(xf::asarray<float, Space>({1.5f, 2.25f, 7.0f, 0.1f, 3, 1, 2, 2.5f}, {2, 4}));
  static_assert(std::is_same_v<xf::value_t<decltype(c32)>, double>);
  require_all_close(xf::to_host(c32), {8.963958330738047, -0.6854166664804021, -0.6854166664804021, 0.7291666666666666}, 1e-14, 0, "cov of float32");
  // No degree of freedom left: np.cov([[1., 2.]], ddof=2) -> inf; np.cov([[1., 2.], [3., 3.]], ddof=2) -> [[inf, nan], [nan, nan]].
  const auto over = xf::to_host(xf::cov(xf::asarray<double, Space>({1, 2, 3, 3}, {2, 2}), true, false, 2));
  CHECK((over[0] == inf && std::isnan(over[1]) && std::isnan(over[2]) && std::isnan(over[3])));
  // No observations: np.cov(np.zeros((2, 0))) -> all NaN; no variables: np.cov(np.zeros((0, 3))) has shape (0, 0).
  for (const double x : xf::to_host(xf::cov(xf::array<double, 2, Space>(xf::dims<2>{2, 0})))) CHECK(std::isnan(x));
  CHECK(xf::cov(xf::array<double, 2, Space>(xf::dims<2>{0, 3})).shape() == std::array<xf::index_t, 2>{0, 0});
  // Complex: np.cov([[1+1j, 2-1j, 3], [0, 1j, 2]]) -> [[2, 0.5], [0.5, 1.6666666666666667]] (imaginary parts ~1e-17).
  using z = xf::complex128;
  const auto cz = xf::to_host(xf::cov(xf::asarray<z, Space>({z(1, 1), z(2, -1), z(3, 0), z(0, 0), z(0, 1), z(2, 0)}, {2, 3})));
  require_all_close(cz, {z(2, 0), z(0.5, 0), z(0.5, 0), z(1.6666666666666667, 0)}, 1e-15, 1e-15, "cov of complex rows");
}

template <class Space>
void correlation_matches_numpy() {
  // np.corrcoef([[1, 2, 3, 4], [2, 4, 6, 8.5], [4, 3, 2, 1]]).
  const auto r = xf::corrcoef(xf::asarray<double, Space>({1, 2, 3, 4, 2, 4, 6, 8.5, 4, 3, 2, 1}, {3, 4}));
  const double p = 0.9983814394570298;
  require_all_close(xf::to_host(r), {1.0, p, -1.0, p, 0.9999999999999999, -p, -1.0, -p, 1.0}, 1e-15, 0, "corrcoef");
  for (const double x : xf::to_host(r)) CHECK(std::fabs(x) <= 1.0);  // clipped
  // A constant row: np.corrcoef([[1, 2, 3], [5, 5, 5]]) -> [[1, nan], [nan, nan]]. 1-D: np.corrcoef([1., 2., 4.]) -> 1.0,
  // np.corrcoef([3., 3.]) -> nan. rowvar=False: np.corrcoef([[1, 2], [3, 5], [4, 4.5]], rowvar=False).
  const auto k = xf::to_host(xf::corrcoef(xf::asarray<int, Space>({1, 2, 3, 5, 5, 5}, {2, 3})));
  CHECK((k[0] == 1.0 && std::isnan(k[1]) && std::isnan(k[2]) && std::isnan(k[3])));
  CHECK(xf::corrcoef(xf::asarray<double, Space>({1, 2, 4})).item() == 1.0);
  CHECK(std::isnan(xf::corrcoef(xf::asarray<double, Space>({3, 3})).item()));
  require_all_close(xf::to_host(xf::corrcoef(xf::asarray<double, Space>({1, 2, 3, 5, 4, 4.5}, {3, 2}), false)),
                    {1.0, 0.8824975032927697, 0.8824975032927697, 1.0}, 1e-15, 0, "corrcoef(rowvar=False)");
  // Complex: np.corrcoef([[1+1j, 2-1j, 3], [0, 1j, 2]]) -> [[1, 0.273861278752583], [0.273861278752583, 1]]
  // (imaginary parts ~1e-17).
  using z = xf::complex128;
  const auto rz = xf::to_host(xf::corrcoef(xf::asarray<z, Space>({z(1, 1), z(2, -1), z(3, 0), z(0, 0), z(0, 1), z(2, 0)}, {2, 3})));
  require_all_close(rz, {z(1, 0), z(0.273861278752583, 0), z(0.273861278752583, 0), z(1, 0)}, 1e-15, 1e-15, "corrcoef of complex rows");
  // Random (5, 40) against long double.
  const std::vector<double> x = uniform<double>(200, -5, 5);
  const auto c = xf::to_host(xf::cov(xf::asarray<double, Space>(x, {5, 40}) * 1.0, true, false, 0));
  const auto cc = xf::to_host(xf::corrcoef(xf::asarray<double, Space>(x, {40, 5}), false));
  long double mean[5] = {};
  for (int i = 0; i < 5; ++i) {
    for (int t = 0; t < 40; ++t) mean[i] += x[static_cast<std::size_t>(i * 40 + t)];
    mean[i] /= 40;
  }
  auto sum = [&](int i, int j, bool columns) {
    long double s = 0, mi = 0, mj = 0;
    auto at = [&](int v, int t) { return x[static_cast<std::size_t>(columns ? t * 5 + v : v * 40 + t)]; };
    for (int t = 0; t < 40; ++t) mi += at(i, t), mj += at(j, t);
    mi /= 40, mj /= 40;
    for (int t = 0; t < 40; ++t) s += (at(i, t) - mi) * (at(j, t) - mj);
    return s;
  };
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) {
      CHECK(close_double(c[static_cast<std::size_t>(i * 5 + j)], static_cast<double>(sum(i, j, false) / 40), 1e-12, 1e-14));
      const long double rho = sum(i, j, true) / std::sqrt(sum(i, i, true) * sum(j, j, true));
      CHECK(close_double(cc[static_cast<std::size_t>(i * 5 + j)], static_cast<double>(rho), 1e-12, 1e-14));
    }
}

// ---------------------------------------------------------------- nanmedian, nanquantile, nanpercentile
template <class Space>
void nan_quantiles_match_numpy() {
  // a = [[10, nan, 4], [3, 2, 1]]: np.nanmedian(a) -> 3.0; axis=0 -> [6.5, 2, 2.5]; axis=1 -> [7, 2].
  const auto a = xf::asarray<double, Space>({10, nan, 4, 3, 2, 1}, {2, 3});
  CHECK(xf::nanmedian(a).item() == 3.0);
  CHECK(xf::to_host(xf::nanmedian(a, 0)) == std::vector<double>{6.5, 2, 2.5});
  CHECK(xf::to_host(xf::nanmedian(a, 1)) == std::vector<double>{7, 2});
  CHECK(xf::nanmedian(a, 1, xf::keepdims).shape() == std::array<xf::index_t, 2>{2, 1});
  CHECK(xf::nanmedian(a, xf::keepdims).shape() == std::array<xf::index_t, 2>{1, 1});
  // np.nanquantile(a, 0.4) -> 2.6; axis=0 -> [5.800000000000001, 2.0, 2.2]; [0.1, 0.9], axis=1 -> [[4.6, 1.2], [9.4, 2.8]].
  CHECK(xf::nanquantile(a, 0.4).item() == 2.6);
  CHECK(xf::to_host(xf::nanquantile(a, 0.4, 0)) == std::vector<double>{5.800000000000001, 2.0, 2.2});
  CHECK(xf::to_host(xf::nanquantile(a, std::vector<double>{0.1, 0.9}, 1)) == std::vector<double>{4.6, 1.2, 9.4, 2.8});
  CHECK(xf::nanquantile(a, std::vector<double>{0.1, 0.9}, 1, xf::keepdims).shape() == std::array<xf::index_t, 3>{2, 2, 1});
  CHECK(xf::nanquantile(a, 0.4, 0, xf::keepdims).shape() == std::array<xf::index_t, 2>{1, 3});
  CHECK(xf::nanquantile(a, 0.4, xf::keepdims).item() == 2.6);
  CHECK(xf::to_host(xf::nanquantile(a, std::vector<double>{0.4})) == std::vector<double>{2.6});
  // np.nanpercentile(a, 35, axis=1) -> [6.1, 1.7]; [5, 50] -> [1.2, 3.0]; 90 -> 7.6000000000000005.
  CHECK(xf::to_host(xf::nanpercentile(a, 35.0, 1)) == std::vector<double>{6.1, 1.7});
  CHECK(xf::to_host(xf::nanpercentile(a, 35.0, 1, xf::keepdims)) == std::vector<double>{6.1, 1.7});
  CHECK(xf::to_host(xf::nanpercentile(a, {5.0, 50.0})) == std::vector<double>{1.2, 3.0});
  CHECK(xf::to_host(xf::nanpercentile(a, {5.0, 50.0}, 0)) == std::vector<double>{3.35, 2, 1.15, 6.5, 2, 2.5});
  CHECK(xf::nanpercentile(a, 90.0).item() == 7.6000000000000005);
  // All-NaN lines give NaN: b = [[nan, nan], [1, nan]]: nanmedian(b, 1) -> [nan, 1], nanquantile(b, 0.3, 1) -> [nan, 1].
  const auto b = xf::asarray<double, Space>({nan, nan, 1, nan}, {2, 2});
  const auto mb = xf::to_host(xf::nanmedian(b, 1)), qb = xf::to_host(xf::nanquantile(b, 0.3, 1));
  CHECK((std::isnan(mb[0]) && mb[1] == 1 && std::isnan(qb[0]) && qb[1] == 1));
  CHECK(std::isnan(xf::nanmedian(xf::asarray<double, Space>({nan})).item()));
  // float32 stays float32: np.nanquantile(np.float32([0.1, nan, 0.7, 0.35]), 0.3) -> 0.25; nanmedian -> 0.35.
  const auto s = xf::asarray<float, Space>({0.1f, NAN, 0.7f, 0.35f});
  const auto qs = xf::nanquantile(s, 0.3);
  static_assert(std::is_same_v<xf::value_t<decltype(qs)>, float>);
  CHECK(qs.item() == 0.25f);
  CHECK(xf::nanmedian(s).item() == 0.35f);
  // Integers (no NaN): np.nanmedian([[3, 1, 2], [7, 5, 9]], axis=1) -> [2., 7.]; np.nanquantile([3, 1, 2, 8], 0.25) -> 1.75.
  CHECK(xf::to_host(xf::nanmedian(xf::asarray<int, Space>({3, 1, 2, 7, 5, 9}, {2, 3}), 1)) == std::vector<double>{2, 7});
  CHECK(xf::nanquantile(xf::asarray<int, Space>({3, 1, 2, 8}), 0.25).item() == 1.75);
  // No elements: NaN (NumPy's nanmean of nothing), where quantile raises: nanmedian(zeros((2, 0)), 1) -> [nan, nan].
  for (const double x : xf::to_host(xf::nanmedian(xf::array<double, 2, Space>(xf::dims<2>{2, 0}), 1))) CHECK(std::isnan(x));
  CHECK(std::isnan(xf::nanquantile(xf::array<double, 1, Space>(xf::dims<1>{0}), 0.5).item()));
  CHECK(std::isnan(xf::nanquantile(xf::array<int, 1, Space>(xf::dims<1>{0}), 0.5).item()));
  // Infinities: np.nanmedian([inf, -inf, nan, inf]) -> inf; np.nanquantile([inf, -inf, nan, 1], 0.5) -> nan (1 + inf * 0);
  // np.nanquantile([-inf, 1, nan], 0.75) -> -inf.
  CHECK(xf::nanmedian(xf::asarray<double, Space>({inf, -inf, nan, inf})).item() == inf);
  CHECK(std::isnan(xf::nanquantile(xf::asarray<double, Space>({inf, -inf, nan, 1}), 0.5).item()));
  CHECK(xf::nanquantile(xf::asarray<double, Space>({-inf, 1, nan}), 0.75).item() == -inf);
  CHECK_THROWS_AS(xf::nanquantile(a, 1.5), xf::error);
  CHECK_THROWS_AS(xf::nanpercentile(a, -1.0), xf::error);
  CHECK_THROWS_AS(xf::nanmedian(a, 2), xf::shape_error);
}

// NumPy's nanquantile of one line: the numbers sorted, then _lerp in T as quantile.hpp describes.
template <class T>
T reference_nanquantile(std::vector<T> line, double q, bool median) {
  line.erase(std::remove_if(line.begin(), line.end(), [](T v) { return std::isnan(v); }), line.end());
  std::sort(line.begin(), line.end());
  const std::size_t m = line.size();
  if (m == 0) return std::numeric_limits<T>::quiet_NaN();
  if (median) return m % 2 ? line[m / 2] : (line[m / 2 - 1] + line[m / 2]) / T(2);
  const double at = static_cast<double>(m - 1) * q;
  std::size_t lo = m - 1, hi = m - 1;
  double gamma = at + 1;
  if (at < static_cast<double>(m - 1)) lo = static_cast<std::size_t>(std::floor(at)), hi = lo + 1, gamma = at - std::floor(at);
  const T a = line[lo], b = line[hi], diff = b - a;
  volatile T product = gamma >= 0.5 ? diff * static_cast<T>(1 - gamma) : diff * static_cast<T>(gamma);
  return gamma >= 0.5 ? b - product : a + product;
}

template <class Space, class T>
void nan_quantiles_match_reference() {
  const shape3 shape{3, 41, 4};
  std::vector<T> v = uniform<T>(3 * 41 * 4, -20, 20);
  std::uniform_real_distribution<double> coin(0, 1);
  for (T& x : v)
    if (coin(rng()) < 0.3) x = std::numeric_limits<T>::quiet_NaN();
  for (xf::index_t j = 0; j < 41; ++j) v[at3(shape, 1, j, 2)] = std::numeric_limits<T>::quiet_NaN();  // an all-NaN line along axis 1
  const auto a = xf::asarray<T, Space>(v, shape);
  const std::vector<double> qs{0, 0.13, 0.5, 0.77, 1};
  for (int axis = 0; axis < 3; ++axis) {
    const auto got = xf::to_host(xf::nanquantile(a, qs, axis));
    const auto med = xf::to_host(xf::nanmedian(a + T(0), axis));
    std::size_t line = 0;
    const std::size_t lines = v.size() / static_cast<std::size_t>(shape[axis]);
    for (xf::index_t i = 0; i < (axis == 0 ? 1 : shape[0]); ++i)
      for (xf::index_t j = 0; j < (axis == 1 ? 1 : shape[1]); ++j)
        for (xf::index_t k = 0; k < (axis == 2 ? 1 : shape[2]); ++k, ++line) {
          std::vector<T> values;
          for (xf::index_t p = 0; p < shape[axis]; ++p) {
            xf::index_t c[3] = {i, j, k};
            c[axis] = p;
            values.push_back(v[at3(shape, c[0], c[1], c[2])]);
          }
          INFO("axis " << axis << ", line " << line);
          for (std::size_t qi = 0; qi < qs.size(); ++qi)
            CHECK(same(got[qi * lines + line], reference_nanquantile(values, qs[qi], false)));
          CHECK(same(med[line], reference_nanquantile(values, 0.5, true)));
        }
  }
  // Over all elements (one line of every value).
  CHECK(same(xf::nanquantile(a, 0.37).item(), reference_nanquantile(v, 0.37, false)));
  CHECK(same(xf::nanmedian(a).item(), reference_nanquantile(v, 0.5, true)));
}

}  // namespace xf_test::numpy_more
