// Boolean-mask indexing (a(mask) read and written, extract, place, putmask) and integer-array
// indexing along one axis (a(idx), a(xf::all, idx), read and written), insert, delete_ and
// put_along_axis, shared by the host suite
// and the GPU suite: random data (NaN among it) against loops over the host values in C order,
// and NumPy 2.4.6's printed answers.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <xfuse/manip.hpp>
#include <xfuse/reduce.hpp>
#include <xfuse/sort.hpp>

#include "check.hpp"
#include "random.hpp"

namespace xf_test::indexing {

// Random floats in [-1, 1] with a NaN in about every 16th place.
inline std::vector<float> with_nans(std::size_t n) {
  auto v = uniform<float>(n, -1, 1);
  const auto flags = uniform<int>(n, 0, 15);
  for (std::size_t i = 0; i < n; ++i)
    if (flags[i] == 0) v[i] = std::numeric_limits<float>::quiet_NaN();
  return v;
}

inline void require_same(const std::vector<float>& got, const std::vector<float>& want, const std::string& what) {
  INFO(what);
  REQUIRE(got.size() == want.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const bool same = (std::isnan(got[i]) && std::isnan(want[i])) || got[i] == want[i];
    if (!same && bad++ < 5) FAIL_CHECK("element " << i << ": " << got[i] << " vs " << want[i]);
  }
  CHECK(bad == 0);
}

template <class Space>
void mask_selection_matches_loops() {
  // Element masks (K = R) of several lengths around CUB's tile edges, from an expression.
  for (const xf::index_t n : {xf::index_t{0}, xf::index_t{1}, xf::index_t{127}, xf::index_t{4096}, xf::index_t{65537},
                              xf::index_t{(1 << 20) + 3}}) {
    const auto host = with_nans(static_cast<std::size_t>(n));
    const auto x = xf::asarray<float, Space>(host);
    std::vector<float> want;
    for (const float v : host)
      if (v > 0.2f) want.push_back(v);
    const xf::array<float, 1, Space> got = x(x > 0.2f);
    require_same(xf::to_host(got), want, "x(x > 0.2), n = " + std::to_string(n));
  }
  // A stored mask on a transposed (strided) view; the selection inside a larger expression.
  const xf::index_t rows = 37, cols = 53;
  const auto hx = with_nans(rows * cols), hy = with_nans(rows * cols);
  const auto x = xf::asarray<float, Space>(hx, {rows, cols});
  const auto y = xf::asarray<float, Space>(hy, {cols, rows});
  const xf::array<bool, 2, Space> m(y < 0);
  std::vector<float> want;
  double want_sum = 0;
  for (xf::index_t j = 0; j < cols; ++j)
    for (xf::index_t i = 0; i < rows; ++i)
      if (hy[static_cast<std::size_t>(j * rows + i)] < 0) {
        want.push_back(hx[static_cast<std::size_t>(i * cols + j)]);
        if (!std::isnan(want.back())) want_sum += want.back();
      }
  const auto selected = x.T()(m);
  CHECK(selected.shape()[0] == static_cast<xf::index_t>(want.size()));
  require_same(xf::to_host(selected.eval()), want, "x.T(mask)");
  const xf::array<float, 1, Space> doubled = selected * 2.0f;
  const auto h2 = xf::to_host(doubled);
  for (std::size_t k = 0; k < want.size(); ++k)
    if (!std::isnan(want[k])) CHECK(h2[k] == want[k] * 2.0f);
  CHECK(xf::nansum(xf::astype<double>(x.T()(m))).item() == Approx(want_sum).epsilon(1e-12));
  // A mask of the leading axis picks whole rows: shape (count, 4, 3).
  const auto h3 = uniform<int>(5 * 4 * 3, -100, 100);
  const auto a3 = xf::asarray<int, Space>(h3, {5, 4, 3});
  const auto pick = xf::asarray<int, Space>({1, 0, 0, 1, 1}) != 0;
  const xf::array<int, 3, Space> rows_picked = a3(pick);
  CHECK(rows_picked.shape() == std::array<xf::index_t, 3>{3, 4, 3});
  std::vector<int> want_rows;
  for (const int r : {0, 3, 4})
    for (int k = 0; k < 12; ++k) want_rows.push_back(h3[static_cast<std::size_t>(r * 12 + k)]);
  CHECK(xf::to_host(rows_picked) == want_rows);
  // NumPy: a[np.zeros((5, 4), bool)].shape -> (0, 3); a[np.ones((5, 4, 3), bool)] -> all 60.
  CHECK(a3(xf::zeros<bool>({5, 4})).shape() == std::array<xf::index_t, 2>{0, 3});
  CHECK(xf::to_host(a3(xf::ones<bool>({5, 4, 3})).eval()) == h3);
  // Empty arrays, and a mask that does not match (NumPy's IndexError), the array unchanged.
  const xf::array<float, 2, Space> empty({0, 4});
  CHECK(empty(empty > 0).size() == 0);
  CHECK_THROWS_AS(a3(xf::ones<bool>({4})), xf::index_error);
  CHECK_THROWS_WITH(a3(xf::ones<bool>({5, 3})), XF_CONTAINS("mask of shape (5, 3)"));
  CHECK(xf::to_host(a3) == h3);
}

template <class Space>
void mask_assignment_matches_loops() {
  const std::size_t n = 100003;
  const auto hx = with_nans(n), hy = with_nans(n);
  // x[x < 0] = 0: one fused kernel; NaN is not below 0 and stays.
  {
    auto x = xf::asarray<float, Space>(hx);
    x(x < 0) = 0;
    auto want = hx;
    for (auto& v : want)
      if (v < 0) v = 0;
    require_same(xf::to_host(x), want, "x(x < 0) = 0");
  }
  // x[m] = y[m], x[m] = -x[m] (the values read the array written), x[m] *= 2, x[m] += y[m].
  {
    auto x = xf::asarray<float, Space>(hx);
    const auto y = xf::asarray<float, Space>(hy);
    const xf::array<bool, 1, Space> m(y > 0.5f);
    x(m) = y(m);
    auto want = hx;
    for (std::size_t i = 0; i < n; ++i)
      if (hy[i] > 0.5f) want[i] = hy[i];
    require_same(xf::to_host(x), want, "x(m) = y(m)");
    x(x > 0) = -x(x > 0);
    for (auto& v : want)
      if (v > 0) v = -v;
    require_same(xf::to_host(x), want, "x(x > 0) = -x(x > 0)");
    x(m) *= 2.0f;
    for (std::size_t i = 0; i < n; ++i)
      if (hy[i] > 0.5f) want[i] *= 2.0f;
    require_same(xf::to_host(x), want, "x(m) *= 2");
    x(m) += y(m);
    for (std::size_t i = 0; i < n; ++i)
      if (hy[i] > 0.5f) want[i] += hy[i];
    require_same(xf::to_host(x), want, "x(m) += y(m)");
    // One value per selected element, but the wrong number of them: NumPy's error, x unchanged.
    CHECK_THROWS_AS((x(m) = xf::zeros<float>({3})), xf::shape_error);
    require_same(xf::to_host(x), want, "after a refused assignment");
  }
  // Rows: a[rows] = values (count, 3), a row (3,) for every selected row, a column (count, 1).
  {
    const auto h = uniform<int>(6 * 3, -9, 9);
    auto a = xf::asarray<int, Space>(h, {6, 3});
    const auto rows = xf::asarray<int, Space>({0, 1, 1, 0, 1, 0}) > 0;  // rows 1, 2, 4
    a(rows) = xf::asarray<int, Space>({10, 11, 12, 20, 21, 22, 40, 41, 42}, {3, 3});
    auto want = h;
    const int picked[] = {1, 2, 4};
    for (int k = 0; k < 3; ++k)
      for (int j = 0; j < 3; ++j) want[static_cast<std::size_t>(picked[k] * 3 + j)] = (picked[k] * 10) + j;
    CHECK(xf::to_host(a) == want);
    a(rows) = xf::asarray<int, Space>({7, 8, 9});
    for (const int r : picked)
      for (int j = 0; j < 3; ++j) want[static_cast<std::size_t>(r * 3 + j)] = 7 + j;
    CHECK(xf::to_host(a) == want);
    a(rows) = xf::asarray<int, Space>({1, 2, 3}, {3, 1});
    for (int k = 0; k < 3; ++k)
      for (int j = 0; j < 3; ++j) want[static_cast<std::size_t>(picked[k] * 3 + j)] = k + 1;
    CHECK(xf::to_host(a) == want);
    a(rows) -= 1;
    for (const int r : picked)
      for (int j = 0; j < 3; ++j) want[static_cast<std::size_t>(r * 3 + j)] -= 1;
    CHECK(xf::to_host(a) == want);
    // A float scalar into ints converts as any assignment does (NumPy: a[m] = 1.5 stores 1).
    a(rows) = 1.5;
    for (const int r : picked)
      for (int j = 0; j < 3; ++j) want[static_cast<std::size_t>(r * 3 + j)] = 1;
    CHECK(xf::to_host(a) == want);
  }
  // A view as the destination: every other column.
  {
    auto a = xf::asarray<float, Space>(std::vector<float>(4 * 6, 1.0f), {4, 6});
    const auto view = a(xf::all, xf::slice(0, xf::_, 2));
    view(view.copy() > 0) = 5.0f;
    CHECK(xf::to_host(a) == std::vector<float>{5, 1, 5, 1, 5, 1, 5, 1, 5, 1, 5, 1, 5, 1, 5, 1, 5, 1, 5, 1, 5, 1, 5, 1});
  }
}

template <class Space>
void extract_place_putmask_match_numpy() {
  const auto a = xf::array<int, 1, Space>(xf::arange<int>(12));
  // np.extract(np.arange(12) % 3 == 0, np.arange(12)) -> [0, 3, 6, 9]
  CHECK(xf::to_host(xf::extract(a % 3 == 0, a)) == std::vector<int>{0, 3, 6, 9});
  // np.extract([True, False], np.arange(12)) -> [0]; a condition true past the end: IndexError
  CHECK(xf::to_host(xf::extract(xf::asarray<int, Space>({1, 0}) != 0, a)) == std::vector<int>{0});
  CHECK_THROWS_AS(xf::extract(xf::array<int, 1, Space>(xf::arange<int>(13)) == 12, a), xf::index_error);
  // arr = np.arange(6).reshape(2, 3); np.place(arr, arr > 2, [44, 55]) -> [[0, 1, 2], [44, 55, 44]]
  auto arr = xf::asarray<int, Space>({0, 1, 2, 3, 4, 5}, {2, 3});
  xf::place(arr, arr > 2, xf::asarray<int, Space>({44, 55}));
  CHECK(xf::to_host(arr) == std::vector<int>{0, 1, 2, 44, 55, 44});
  CHECK_THROWS_AS(xf::place(arr, arr > 2, xf::array<int, 1, Space>(xf::dims<1>{0})), xf::shape_error);
  xf::place(arr, arr > 100, xf::array<int, 1, Space>(xf::dims<1>{0}));  // nothing selected: no values needed
  // x = np.arange(6).reshape(2, 3); np.putmask(x, x > 2, x**2) -> [[0, 1, 2], [9, 16, 25]]
  auto x = xf::asarray<int, Space>({0, 1, 2, 3, 4, 5}, {2, 3});
  xf::putmask(x, x > 2, xf::array<int, 2, Space>(x * x));
  CHECK(xf::to_host(x) == std::vector<int>{0, 1, 2, 9, 16, 25});
  // x = np.arange(5); np.putmask(x, x > 1, [-33, -44]) -> [0, 1, -33, -44, -33]
  auto y = xf::array<int, 1, Space>(xf::arange<int>(5));
  xf::putmask(y, y > 1, xf::asarray<int, Space>({-33, -44}));
  CHECK(xf::to_host(y) == std::vector<int>{0, 1, -33, -44, -33});
  xf::putmask(y, y < 0, xf::array<int, 1, Space>(xf::dims<1>{0}));  // no values: nothing written (NumPy's)
  CHECK(xf::to_host(y) == std::vector<int>{0, 1, -33, -44, -33});
}

template <class Space>
void index_arrays_match_numpy() {
  using i64 = std::int64_t;
  const auto x = xf::asarray<int, Space>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 4});
  // x = np.arange(12).reshape(3, 4); x[[2, 0, -1]] -> rows 2, 0, 2
  const xf::array<int, 2, Space> rows = x(xf::asarray<i64, Space>({2, 0, -1}));
  CHECK(rows.shape() == std::array<xf::index_t, 2>{3, 4});
  CHECK(xf::to_host(rows) == std::vector<int>{8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11});
  // x[:, [3, 1]] -> [[3, 1], [7, 5], [11, 9]]; x[1, [0, 2]] -> [4, 6]; x[::2, [1]] -> [[1], [9]]
  const auto cols = xf::asarray<int, Space>({3, 1});
  CHECK(xf::to_host(xf::eval(x(xf::all, cols))) == std::vector<int>{3, 1, 7, 5, 11, 9});
  CHECK(xf::to_host(xf::eval(x(1, xf::asarray<std::uint8_t, Space>({0, 2})))) == std::vector<int>{4, 6});
  const auto every_other = x(xf::slice(0, xf::_, 2), xf::asarray<i64, Space>({1}));
  CHECK(every_other.shape() == std::array<xf::index_t, 2>{2, 1});
  CHECK(xf::to_host(every_other.eval()) == std::vector<int>{1, 9});
  // Integers apart from the index array put the indexed axes first (NumPy's rule):
  // t = np.arange(24).reshape(2, 3, 4); t[0, :, [0, 1]] -> [[0, 4, 8], [1, 5, 9]], shape (2, 3);
  // t[:, 1, [3, 0]] (adjacent) -> [[7, 4], [19, 16]]
  const auto t = xf::array<int, 1, Space>(xf::arange<int>(24)).reshape({2, 3, 4});
  const auto apart = t(0, xf::all, xf::asarray<i64, Space>({0, 1}));
  CHECK(apart.shape() == std::array<xf::index_t, 2>{2, 3});
  CHECK(xf::to_host(apart.eval()) == std::vector<int>{0, 4, 8, 1, 5, 9});
  CHECK(xf::to_host(xf::eval(t(xf::all, 1, xf::asarray<i64, Space>({3, 0})))) == std::vector<int>{7, 4, 19, 16});
  auto t2 = t.copy();
  t2(0, xf::all, xf::asarray<i64, Space>({0, 1})) = xf::asarray<int, Space>({-1, -2, -3, -4, -5, -6}, {2, 3});  // t2[0, :, [0, 1]] = ...
  CHECK(xf::to_host(xf::eval(t2(0, xf::all, xf::slice(0, 2)))) == std::vector<int>{-1, -4, -2, -5, -3, -6});
  // x[[[0, 1], [2, 0]]].shape -> (2, 2, 4); x[:, np.newaxis, [0]] -> shape (3, 1, 1)
  CHECK(x(xf::asarray<i64, Space>({0, 1, 2, 0}, {2, 2})).shape() == std::array<xf::index_t, 3>{2, 2, 4});
  CHECK(x(xf::all, xf::newaxis, xf::asarray<i64, Space>({0})).shape() == std::array<xf::index_t, 3>{3, 1, 1});
  // Inside an expression: np.sum(x[[2, 0, -1]] * 2) -> 164
  CHECK(xf::sum(x(xf::asarray<i64, Space>({2, 0, -1})) * 2).item() == 164);
  // x[[3]]: IndexError, nothing changed.
  CHECK_THROWS_AS(x(xf::asarray<i64, Space>({0, 3})).eval(), xf::index_error);
  CHECK_THROWS_AS((x(xf::asarray<i64, Space>({-4})) = 0), xf::index_error);
  CHECK(xf::to_host(x) == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});

  // Writes. y[[0, 2]] = 0; y[:, [3, 0]] = [-1, -2]; y[[1]] += 100; y[[0, 0]] += 1 adds once.
  auto y = x.copy();
  y(xf::asarray<i64, Space>({0, 2})) = 0;
  CHECK(xf::to_host(y) == std::vector<int>{0, 0, 0, 0, 4, 5, 6, 7, 0, 0, 0, 0});
  y(xf::all, xf::asarray<i64, Space>({3, 0})) = xf::asarray<int, Space>({-1, -2});
  CHECK(xf::to_host(y) == std::vector<int>{-2, 0, 0, -1, -2, 5, 6, -1, -2, 0, 0, -1});
  y(xf::asarray<i64, Space>({1})) += 100;
  CHECK(xf::to_host(y) == std::vector<int>{-2, 0, 0, -1, 98, 105, 106, 99, -2, 0, 0, -1});
  y(xf::asarray<i64, Space>({0, 0})) += 1;
  CHECK(xf::to_host(y) == std::vector<int>{-1, 1, 1, 0, 98, 105, 106, 99, -2, 0, 0, -1});
  // y[:, [0, 1]] = y[:, [1, 0]]: the values read what is written (swapped columns).
  y(xf::all, xf::asarray<i64, Space>({0, 1})) = y(xf::all, xf::asarray<i64, Space>({1, 0}));
  CHECK(xf::to_host(y) == std::vector<int>{1, -1, 1, 0, 105, 98, 106, 99, 0, -2, 0, -1});
  CHECK_THROWS_AS((y(xf::asarray<i64, Space>({0, 1})) = xf::zeros<int>({3, 4})), xf::shape_error);

  // Random: a gather of 3000 rows (negative indices among them) and a scatter through a permutation.
  const xf::index_t n = 1000, m = 37;
  const auto hv = with_nans(static_cast<std::size_t>(n * m));
  const auto v = xf::asarray<float, Space>(hv, {n, m});
  const auto hi = uniform<i64>(3000, -n, n - 1);
  const xf::array<float, 2, Space> gathered = v(xf::asarray<i64, Space>(hi));
  std::vector<float> want;
  for (const i64 i : hi)
    for (xf::index_t j = 0; j < m; ++j) want.push_back(hv[static_cast<std::size_t>((i < 0 ? i + n : i) * m + j)]);
  require_same(xf::to_host(gathered), want, "v(idx)");
  std::vector<i64> perm(static_cast<std::size_t>(m));
  for (std::size_t j = 0; j < perm.size(); ++j) perm[j] = static_cast<i64>(j);
  std::shuffle(perm.begin(), perm.end(), rng());
  auto w = xf::asarray<float, Space>(std::vector<float>(static_cast<std::size_t>(n * m), 0.0f), {n, m});
  w(xf::all, xf::asarray<i64, Space>(perm)) = v;  // w[:, perm] = v
  std::vector<float> scattered(static_cast<std::size_t>(n * m));
  for (xf::index_t i = 0; i < n; ++i)
    for (xf::index_t j = 0; j < m; ++j)
      scattered[static_cast<std::size_t>(i * m + perm[static_cast<std::size_t>(j)])] = hv[static_cast<std::size_t>(i * m + j)];
  require_same(xf::to_host(w), scattered, "w(:, perm) = v");
}

template <class Space>
void insert_delete_put_along_axis_match_numpy() {
  const auto a = xf::asarray<int, Space>({0, 1, 2, 3, 4, 5}, {2, 3});
  // a = np.arange(6).reshape(2, 3)
  // np.insert(a, 1, 5) -> [0, 5, 1, 2, 3, 4, 5]; np.insert(a, 1, 5, axis=1) -> [[0, 5, 1, 2], [3, 5, 4, 5]]
  CHECK(xf::to_host(xf::insert(a, 1, 5)) == std::vector<int>{0, 5, 1, 2, 3, 4, 5});
  const auto column = xf::insert(a, 1, 5, 1);
  CHECK(column.shape() == std::array<xf::index_t, 2>{2, 4});
  CHECK(xf::to_host(column) == std::vector<int>{0, 5, 1, 2, 3, 5, 4, 5});
  // np.insert(a, 1, [7, 8, 9], axis=0) -> [[0, 1, 2], [7, 8, 9], [3, 4, 5]]
  CHECK(xf::to_host(xf::insert(a, 1, xf::asarray<int, Space>({7, 8, 9}), 0)) == std::vector<int>{0, 1, 2, 7, 8, 9, 3, 4, 5});
  // np.insert(a, 1, [7, 8], axis=1) -> [[0, 7, 1, 2], [3, 8, 4, 5]] (a scalar index: one column);
  // np.insert(a, [1], [[7], [8]], axis=1) -> the same
  CHECK(xf::to_host(xf::insert(a, 1, xf::asarray<int, Space>({7, 8}), 1)) == std::vector<int>{0, 7, 1, 2, 3, 8, 4, 5});
  CHECK(xf::to_host(xf::insert(a, {1}, xf::asarray<int, Space>({7, 8}, {2, 1}), 1)) == std::vector<int>{0, 7, 1, 2, 3, 8, 4, 5});
  // np.insert(a, 1, [7, 8], axis=0): ValueError (could not broadcast (1, 2) into (1, 3))
  CHECK_THROWS_AS(xf::insert(a, 1, xf::asarray<int, Space>({7, 8}), 0), xf::shape_error);
  // np.insert(np.arange(5), [1, 1, 3], [10, 11, 12]) -> [0, 10, 11, 1, 2, 12, 3, 4]
  const auto line = xf::array<int, 1, Space>(xf::arange<int>(5));
  CHECK(xf::to_host(xf::insert(line, {1, 1, 3}, xf::asarray<int, Space>({10, 11, 12}))) == std::vector<int>{0, 10, 11, 1, 2, 12, 3, 4});
  // np.insert(np.arange(3), [2, 0], [20, 0.5]) -> [0, 0, 1, 20, 2] (values cast to the array's type)
  CHECK(xf::to_host(xf::insert(xf::array<int, 1, Space>(xf::arange<int>(3)), {2, 0}, xf::asarray<double, Space>({20, 0.5}))) ==
        std::vector<int>{0, 0, 1, 20, 2});
  // np.insert(np.arange(5), 5, 9) -> [0, 1, 2, 3, 4, 9]; a scalar index 6: IndexError. In a list,
  // NumPy does not check (np.insert(np.arange(5), [0, -6], 9) -> [0, 9, 1, 2, 3, 4, 9]); xfuse
  // refuses any index outside [-n, n]. An index array works as a list.
  CHECK(xf::to_host(xf::insert(line, 5, 9)) == std::vector<int>{0, 1, 2, 3, 4, 9});
  CHECK(xf::to_host(xf::insert(line, -5, 9)) == std::vector<int>{9, 0, 1, 2, 3, 4});
  CHECK_THROWS_AS(xf::insert(line, 6, 9), xf::index_error);
  CHECK_THROWS_AS(xf::insert(line, {0, -6}, 9), xf::index_error);
  CHECK(xf::to_host(xf::insert(line, xf::asarray<std::int64_t, Space>({4, 0}), 9, 0)) == std::vector<int>{9, 0, 1, 2, 3, 9, 4});

  // np.delete(a, 1, axis=1) -> [[0, 2], [3, 5]]; np.delete(np.arange(8), [1, 3, 3, -1]) -> [0, 2, 4, 5, 6]
  CHECK(xf::to_host(xf::delete_(a, 1, 1)) == std::vector<int>{0, 2, 3, 5});
  const auto eight = xf::array<int, 1, Space>(xf::arange<int>(8));
  CHECK(xf::to_host(xf::delete_(eight, {1, 3, 3, -1})) == std::vector<int>{0, 2, 4, 5, 6});
  // np.delete(np.arange(8), np.s_[::2]) -> [1, 3, 5, 7]; np.delete(a, [0, 1], axis=0).shape -> (0, 3)
  CHECK(xf::to_host(xf::delete_(eight, xf::slice(xf::_, xf::_, 2))) == std::vector<int>{1, 3, 5, 7});
  CHECK(xf::delete_(a, {0, 1}, 0).shape() == std::array<xf::index_t, 2>{0, 3});
  CHECK(xf::to_host(xf::delete_(a.T(), xf::asarray<int, Space>({0}), 0)) == std::vector<int>{1, 4, 2, 5});
  CHECK_THROWS_AS(xf::delete_(eight, 8), xf::index_error);
  CHECK(xf::to_host(a) == std::vector<int>{0, 1, 2, 3, 4, 5});

  // b = np.array([[10, 30, 20], [60, 40, 50]]); np.put_along_axis(b, [[1], [0]], 99, axis=1)
  // -> [[10, 99, 20], [99, 40, 50]]
  auto b = xf::asarray<int, Space>({10, 30, 20, 60, 40, 50}, {2, 3});
  xf::put_along_axis(b, xf::argmax(b, 1, xf::keepdims), 99, 1);
  CHECK(xf::to_host(b) == std::vector<int>{10, 99, 20, 99, 40, 50});
  // np.put_along_axis(b, [[0, 2], [1, 0]], [[1, 2], [3, 4]], 1) -> [[1, 99, 2], [4, 3, 50]]
  xf::put_along_axis(b, xf::asarray<std::int64_t, Space>({0, 2, 1, 0}, {2, 2}), xf::asarray<int, Space>({1, 2, 3, 4}, {2, 2}), 1);
  CHECK(xf::to_host(b) == std::vector<int>{1, 99, 2, 4, 3, 50});
  // np.put_along_axis(b, [[1, 0, -1]], 7, axis=0) -> [[1, 7, 2], [7, 3, 7]]
  xf::put_along_axis(b, xf::asarray<std::int64_t, Space>({1, 0, -1}, {1, 3}), 7, 0);
  CHECK(xf::to_host(b) == std::vector<int>{1, 7, 2, 7, 3, 7});
  CHECK_THROWS_AS(xf::put_along_axis(b, xf::asarray<std::int64_t, Space>({2, 0, 0}, {1, 3}), 7, 0), xf::index_error);
  // np.put_along_axis(np.zeros((2, 3)), np.zeros((3, 1), int), 5, 1): IndexError (shape mismatch)
  CHECK_THROWS_AS(xf::put_along_axis(b, xf::asarray<std::int64_t, Space>({0, 0, 0}, {3, 1}), 7, 1), xf::index_error);
  // c = np.zeros((1, 3)); np.put_along_axis(c, [[0], [1]], 5, 1) -> [[5, 5, 0]] (c's extent 1 broadcast)
  auto one_row = xf::asarray<double, Space>({0, 0, 0}, {1, 3});
  xf::put_along_axis(one_row, xf::asarray<std::int64_t, Space>({0, 1}, {2, 1}), 5.0, 1);
  CHECK(xf::to_host(one_row) == std::vector<double>{5, 5, 0});
  // Random: scattering the sorted rows through argsort rebuilds the rows.
  const xf::index_t rows = 200, cols = 77;
  const auto hx = uniform<float>(static_cast<std::size_t>(rows * cols), -1, 1);
  const auto x = xf::asarray<float, Space>(hx, {rows, cols});
  const auto order = xf::argsort(x, 1);
  const auto sorted = xf::take_along_axis(x, order, 1);
  auto rebuilt = xf::asarray<float, Space>(std::vector<float>(hx.size(), 0.0f), {rows, cols});
  xf::put_along_axis(rebuilt, order, sorted, 1);
  require_same(xf::to_host(rebuilt), hx, "put_along_axis(argsort, sorted)");
}

}  // namespace xf_test::indexing
