// Rearranging, splitting and creating (manip/shape.hpp), shared by the host suite and the GPU
// suite: NumPy 2.4.6's printed answers, and take_along_axis against sort/argsort on random data.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <xfuse/manip.hpp>
#include <xfuse/signal.hpp>
#include <xfuse/sort.hpp>

#include "check.hpp"
#include "random.hpp"

namespace xf_test::reshaping {

template <class Space>
auto ints(std::vector<int> v, std::array<xf::index_t, 2> shape) {
  return xf::asarray<int, Space>(v, shape);
}

template <class Space>
void views_and_splits_match_numpy() {
  const auto m = ints<Space>({0, 1, 2, 3, 4, 5}, {2, 3});
  // np.rot90(np.arange(6).reshape(2, 3)) -> [[2, 5], [1, 4], [0, 3]]; k=3 -> [[3, 0], [4, 1], [5, 2]]; k=2 reversed.
  CHECK(xf::to_host(xf::rot90(m).copy()) == std::vector<int>{2, 5, 1, 4, 0, 3});
  CHECK(xf::to_host(xf::rot90(m, 3).copy()) == std::vector<int>{3, 0, 4, 1, 5, 2});
  CHECK(xf::to_host(xf::rot90(m, -1).copy()) == std::vector<int>{3, 0, 4, 1, 5, 2});
  CHECK(xf::to_host(xf::rot90(m, 2).copy()) == std::vector<int>{5, 4, 3, 2, 1, 0});
  CHECK(xf::rot90(m, 4).shape() == m.shape());
  // np.moveaxis(np.zeros((2, 3, 4)), 0, -1).shape -> (3, 4, 2); and back.
  const xf::array<float, 3, Space> z({2, 3, 4});
  CHECK(xf::moveaxis(z, 0, -1).shape() == std::array<xf::index_t, 3>{3, 4, 2});
  CHECK(xf::moveaxis(z, 2, 0).shape() == std::array<xf::index_t, 3>{4, 2, 3});
  CHECK_THROWS_AS(xf::moveaxis(z, 3, 0), xf::shape_error);
  // np.split(np.arange(6), [3, 1]) -> [[0, 1, 2], [], [1, 2, 3, 4, 5]]; array_split(arange(7), 3) -> 3, 2, 2.
  const auto line = xf::asarray<int, Space>({0, 1, 2, 3, 4, 5});
  const auto parts = xf::split(line, std::vector<xf::index_t>{3, 1});
  REQUIRE(parts.size() == 3);
  CHECK(xf::to_host(parts[0]) == std::vector<int>{0, 1, 2});
  CHECK(parts[1].size() == 0);
  CHECK(xf::to_host(parts[2]) == std::vector<int>{1, 2, 3, 4, 5});
  const auto thirds = xf::array_split(xf::asarray<int, Space>({0, 1, 2, 3, 4, 5, 6}), 3);
  CHECK((thirds.size() == 3 && thirds[0].size() == 3 && thirds[1].size() == 2 && thirds[2].size() == 2));
  CHECK(xf::to_host(thirds[2]) == std::vector<int>{5, 6});
  CHECK(xf::split(line, 3).size() == 3);
  CHECK_THROWS_AS(xf::split(line, 4), xf::shape_error);
  CHECK_THROWS_AS(xf::split(line, 0), xf::error);
  const auto columns = xf::hsplit(m, 3);
  CHECK((columns.size() == 3 && xf::to_host(columns[1].copy()) == std::vector<int>{1, 4}));
  CHECK(xf::to_host(xf::vsplit(m, 2)[1]) == std::vector<int>{3, 4, 5});
  // np.column_stack([[1, 2], [3, 4]]) -> [[1, 3], [2, 4]]; np.dstack of two 1-D -> shape (1, 2, 2);
  // np.append([[0, 1, 2], [3, 4, 5]], [9]) -> [0, 1, 2, 3, 4, 5, 9].
  const auto a = xf::asarray<int, Space>({1, 2}), b = xf::asarray<int, Space>({3, 4});
  CHECK(xf::to_host(xf::column_stack(std::vector{a, b})) == std::vector<int>{1, 3, 2, 4});
  const auto d = xf::dstack(std::vector{a, b});
  CHECK(d.shape() == std::array<xf::index_t, 3>{1, 2, 2});
  CHECK(xf::to_host(d) == std::vector<int>{1, 3, 2, 4});
  CHECK(xf::to_host(xf::append(m, xf::asarray<int, Space>({9}))) == std::vector<int>{0, 1, 2, 3, 4, 5, 9});
  CHECK(xf::append(m, m, 0).shape() == std::array<xf::index_t, 2>{4, 3});
}

template <class Space>
void triangles_and_diagonals_match_numpy() {
  const auto m = ints<Space>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
  // np.tril(m, -1) -> [0, 0, 0, 4, 0, 0, 7, 8, 0]; np.triu(m, 1) -> [0, 2, 3, 0, 0, 6, 0, 0, 0].
  CHECK(xf::to_host(xf::eval(xf::tril(m, -1))) == std::vector<int>{0, 0, 0, 4, 0, 0, 7, 8, 0});
  CHECK(xf::to_host(xf::eval(xf::triu(m, 1))) == std::vector<int>{0, 2, 3, 0, 0, 6, 0, 0, 0});
  CHECK(xf::to_host(xf::eval(xf::tril(m) + xf::triu(m, 1))) == xf::to_host(m));  // fused: one kernel
  // A stack of matrices: the last two axes.
  const auto stack = xf::asarray<float, Space>(std::vector<float>(2 * 2 * 3, 1.0f), {2, 2, 3});
  CHECK(xf::to_host(xf::eval(xf::triu(stack))) == std::vector<float>{1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1});
  // np.diag([1, 2], 1) -> [[0, 1, 0], [0, 0, 2], [0, 0, 0]]; np.diag(m, -1) -> [4, 8]; diagflat.
  CHECK(xf::to_host(xf::diag(xf::asarray<int, Space>({1, 2}), 1)) == std::vector<int>{0, 1, 0, 0, 0, 2, 0, 0, 0});
  CHECK(xf::to_host(xf::diag(m, -1).copy()) == std::vector<int>{4, 8});
  CHECK(xf::to_host(xf::diagflat(ints<Space>({1, 2, 3, 4}, {2, 2}))) ==
        std::vector<int>{1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4});
  // np.logspace(0, 3, 4) -> [1, 10, 100, 1000]; np.geomspace(-1, -8, 4) -> [-1, -2, -4, -8];
  // np.geomspace(2, 20, 5, endpoint=False) -> [2, 3.16978638, 5.02377286, 7.96214341, 12.61914689].
  const xf::array<double, 1, Space> l = xf::logspace(0, 3, 4);
  CHECK(xf::to_host(l) == std::vector<double>{1, 10, 100, 1000});
  const xf::array<double, 1, Space> g = xf::geomspace(-1, -8, 4);
  const auto gh = xf::to_host(g);
  CHECK((gh[0] == -1 && gh[3] == -8 && close_double(gh[1], -2, 1e-15, 0) && close_double(gh[2], -4, 1e-15, 0)));
  const xf::array<double, 1, Space> open = xf::geomspace(2, 20, 5, false);
  const std::vector<double> want{2, 3.1697863849222268, 5.0237728630191612, 7.9621434110699446, 12.619146889603865};
  require_all_close(xf::to_host(open), want, 1e-15, 0, "geomspace(2, 20, 5, endpoint=False)");
  CHECK_THROWS_AS(xf::geomspace(0, 1, 3), xf::error);
  CHECK_THROWS_AS(xf::geomspace(-1, 1, 3), xf::error);
}

template <class Space>
void gathers_and_selections_match_numpy() {
  // np.take_along_axis([[10, 30, 20], [60, 40, 50]], [[0, 2], [1, -1]], 1) -> [[10, 20], [40, 50]].
  const auto a = ints<Space>({10, 30, 20, 60, 40, 50}, {2, 3});
  const auto i = xf::asarray<std::int64_t, Space>({0, 2, 1, -1}, {2, 2});
  CHECK(xf::to_host(xf::take_along_axis(a, i, 1)) == std::vector<int>{10, 20, 40, 50});
  // Broadcast off the axis: np.take_along_axis(a, [[2, 0]], 1) -> [[20, 10], [50, 60]]; index 3 is out of bounds.
  CHECK(xf::to_host(xf::take_along_axis(a, xf::asarray<std::int64_t, Space>({2, 0}, {1, 2}), 1)) == std::vector<int>{20, 10, 50, 60});
  CHECK_THROWS_AS(xf::take_along_axis(a, xf::asarray<std::int64_t, Space>({0, 3}, {1, 2}), 1), xf::index_error);
  CHECK_THROWS_AS(xf::take_along_axis(a, xf::asarray<std::int64_t, Space>({0, 1, 0, 1, 0, 1}, {3, 2}), 1), xf::shape_error);
  CHECK_THROWS_AS(xf::take_along_axis(a, xf::asarray<std::int64_t, Space>({0, 3, 0, 0}, {2, 2}), 1), xf::index_error);
  // take_along_axis(x, argsort(x, axis), axis) is sort(x, axis), on every axis of a random 3-D array.
  const std::vector<float> v = uniform<float>(4 * 9 * 7, -5, 5);
  const auto x = xf::asarray<float, Space>(v, {4, 9, 7});
  for (int axis = 0; axis < 3; ++axis) {
    INFO("axis " << axis);
    CHECK(xf::to_host(xf::take_along_axis(x, xf::argsort(x, axis), axis)) == xf::to_host(xf::sort(x, axis)));
  }
  // np.select([x > 1, x > 2], [[10, 20, 30], [7, 8, 9]], 0) with x = [1, 2, 3] -> [0, 20, 30].
  const auto s = xf::asarray<int, Space>({1, 2, 3});
  const std::vector conditions{xf::array<bool, 1, Space>(s > 1), xf::array<bool, 1, Space>(s > 2)};
  const std::vector choices{xf::asarray<int, Space>({10, 20, 30}), xf::asarray<int, Space>({7, 8, 9})};
  CHECK(xf::to_host(xf::select(conditions, choices, 0)) == std::vector<int>{0, 20, 30});
  CHECK_THROWS_AS(xf::select(conditions, std::vector{choices[0]}, 0), xf::error);
  // np.compress([0, 1, 1], np.arange(6).reshape(2, 3), axis=1) -> [[1, 2], [4, 5]]; a shorter condition.
  const auto m = ints<Space>({0, 1, 2, 3, 4, 5}, {2, 3});
  CHECK(xf::to_host(xf::compress(xf::asarray<int, Space>({0, 1, 1}), m, 1)) == std::vector<int>{1, 2, 4, 5});
  CHECK(xf::to_host(xf::compress(xf::asarray<bool, Space>({false, true}), m, 0)) == std::vector<int>{3, 4, 5});
  // np.compress([0, 1, 0], arange(2)) -> [1]: a longer condition is fine where it is false.
  CHECK(xf::to_host(xf::compress(xf::asarray<int, Space>({0, 1, 0}), xf::asarray<int, Space>({0, 1}), 0)) == std::vector<int>{1});
  CHECK_THROWS_AS(xf::compress(xf::asarray<int, Space>({1, 1, 1}), m, 0), xf::index_error);
}

template <class Space>
void pad_modes_match_numpy() {
  const auto a = xf::asarray<int, Space>({0, 1, 2});
  // np.pad(np.arange(3), 8, mode): widths past the axis repeat periodically.
  CHECK(xf::to_host(xf::pad(a, 8, "reflect")) == std::vector<int>{0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2});
  CHECK(xf::to_host(xf::pad(a, 8, "symmetric")) == std::vector<int>{1, 0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1});
  CHECK(xf::to_host(xf::pad(a, 8, "wrap")) == std::vector<int>{1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1});
  // np.pad([5], 3, "reflect") -> [5] * 7; np.pad([5, 6], (1, 5), "reflect") -> [6, 5, 6, 5, 6, 5, 6, 5].
  CHECK(xf::to_host(xf::pad(xf::asarray<int, Space>({5}), 3, "reflect")) == std::vector<int>(7, 5));
  const xf::index_t uneven[1][2] = {{1, 5}};
  CHECK(xf::to_host(xf::pad(xf::asarray<int, Space>({5, 6}), uneven, "reflect")) == std::vector<int>{6, 5, 6, 5, 6, 5, 6, 5});
  // np.pad(np.arange(6).reshape(2, 3), ((1, 2), (2, 1)), "reflect").
  const auto m = ints<Space>({0, 1, 2, 3, 4, 5}, {2, 3});
  CHECK(xf::to_host(xf::pad(m, {{1, 2}, {2, 1}}, "reflect")) ==
        std::vector<int>{5, 4, 3, 4, 5, 4, 2, 1, 0, 1, 2, 1, 5, 4, 3, 4, 5, 4, 2, 1, 0, 1, 2, 1, 5, 4, 3, 4, 5, 4});
  // np.pad(np.zeros((1, 1), int), 1, constant_values=((1, 2), (3, 4))) -> [[3, 1, 4], [3, 0, 4], [3, 2, 4]].
  const auto zero = ints<Space>({0}, {1, 1});
  CHECK(xf::to_host(xf::pad(zero, {{1, 1}, {1, 1}}, {{1, 2}, {3, 4}})) == std::vector<int>{3, 1, 4, 3, 0, 4, 3, 2, 4});
  // Random: each mode against its index formula, on a random 2-D array with wide pads.
  const std::vector<float> v = uniform<float>(5 * 4, -1, 1);
  const auto x = xf::asarray<float, Space>(v, {5, 4});
  for (const char* mode : {"wrap", "reflect", "symmetric"}) {
    const auto got = xf::to_host(xf::pad(x, {{7, 3}, {2, 9}}, mode));
    auto source = [&](xf::index_t s, xf::index_t n) {
      if (std::string(mode) == "wrap") return ((s % n) + n) % n;
      const xf::index_t period = std::string(mode) == "reflect" ? 2 * n - 2 : 2 * n;
      const xf::index_t t = ((s % period) + period) % period;
      return t < n ? t : (std::string(mode) == "reflect" ? period - t : period - 1 - t);
    };
    for (xf::index_t i = 0; i < 15; ++i)
      for (xf::index_t j = 0; j < 15; ++j) {
        INFO(mode << " at " << i << ", " << j);
        CHECK(got[static_cast<std::size_t>(i * 15 + j)] == v[static_cast<std::size_t>(source(i - 7, 5) * 4 + source(j - 2, 4))]);
      }
  }
  CHECK_THROWS_AS(xf::pad(xf::array<int, 1, Space>(xf::dims<1>{0}), 1, "wrap"), xf::shape_error);
}

// np.pad's linear_ramp and statistic modes (NumPy 2.4.6's printed answers): corners as NumPy's
// axis-by-axis padding leaves them, integer floors and half-to-even rounding, stat_length, the
// float64 ramp of float32 arrays, and NumPy's whole-slab switch to (i / n) * delta when some step
// of the slab is zero.
template <class Space>
void pad_ramp_and_statistics_match_numpy() {
  std::vector<int> twelve(12);
  for (int i = 0; i < 12; ++i) twelve[static_cast<std::size_t>(i)] = i;
  const auto m = ints<Space>(twelve, {3, 4});
  // np.pad(m, ((2, 1), (1, 3)), "linear_ramp", end_values=((5, -3), (10, -7))).
  CHECK(xf::to_host(xf::pad(m, {{2, 1}, {1, 3}}, "linear_ramp", {{5, -3}, {10, -7}})) ==
        std::vector<int>{10, 5, 5, 5, 5, 1, -3, -7, 10, 2, 3, 3, 4, 0, -4, -7, 10, 0, 1, 2, 3, -1, -4, -7, 10, 4, 5, 6,
                         7, 2, -3, -7, 10, 8, 9, 10, 11, 5, -1, -7, 10, -3, -3, -3, -3, -5, -6, -7});
  // np.pad(m, 2, "linear_ramp").
  CHECK(xf::to_host(xf::pad(m, 2, "linear_ramp")) ==
        std::vector<int>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 2, 3, 1, 0, 0, 2, 4, 5, 6, 7, 3, 0,
                         0, 4, 8, 9, 10, 11, 5, 0, 0, 2, 4, 4, 5, 5, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  // np.pad(m, ((2, 1), (1, 2)), mode) and with stat_length=((1, 2), (2, 3)).
  const xf::index_t lengths[2][2] = {{1, 2}, {2, 3}};
  const std::vector<int> maximum{11, 8, 9, 10, 11, 11, 11, 11, 8, 9, 10, 11, 11, 11, 3, 0, 1, 2, 3, 3, 3,
                                 7, 4, 5, 6, 7, 7, 7, 11, 8, 9, 10, 11, 11, 11, 11, 8, 9, 10, 11, 11, 11};
  const std::vector<int> maximum_of_some{1, 0, 1, 2, 3, 3, 3, 1, 0, 1, 2, 3, 3, 3, 1, 0, 1, 2, 3, 3, 3,
                                         5, 4, 5, 6, 7, 7, 7, 9, 8, 9, 10, 11, 11, 11, 9, 8, 9, 10, 11, 11, 11};
  const std::vector<int> minimum{0, 0, 1, 2, 3, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0, 1, 2, 3, 0, 0,
                                 4, 4, 5, 6, 7, 4, 4, 8, 8, 9, 10, 11, 8, 8, 0, 0, 1, 2, 3, 0, 0};
  const std::vector<int> minimum_of_some{0, 0, 1, 2, 3, 1, 1, 0, 0, 1, 2, 3, 1, 1, 0, 0, 1, 2, 3, 1, 1,
                                         4, 4, 5, 6, 7, 5, 5, 8, 8, 9, 10, 11, 9, 9, 4, 4, 5, 6, 7, 5, 5};
  const std::vector<int> middle{6, 4, 5, 6, 7, 6, 6, 6, 4, 5, 6, 7, 6, 6, 2, 0, 1, 2, 3, 2, 2,
                                6, 4, 5, 6, 7, 6, 6, 10, 8, 9, 10, 11, 10, 10, 6, 4, 5, 6, 7, 6, 6};
  const std::vector<int> middle_of_some{0, 0, 1, 2, 3, 2, 2, 0, 0, 1, 2, 3, 2, 2, 0, 0, 1, 2, 3, 2, 2,
                                        4, 4, 5, 6, 7, 6, 6, 8, 8, 9, 10, 11, 10, 10, 6, 6, 7, 8, 9, 8, 8};
  CHECK(xf::to_host(xf::pad(m, {{2, 1}, {1, 2}}, "maximum")) == maximum);
  CHECK(xf::to_host(xf::pad(m, {{2, 1}, {1, 2}}, "maximum", xf::stat_length(lengths))) == maximum_of_some);
  CHECK(xf::to_host(xf::pad(m, {{2, 1}, {1, 2}}, "minimum")) == minimum);
  CHECK(xf::to_host(xf::pad(m, {{2, 1}, {1, 2}}, "minimum", xf::stat_length(lengths))) == minimum_of_some);
  for (const char* mode : {"mean", "median"}) {  // equal here: the rows and columns are ramps
    INFO(mode);
    CHECK(xf::to_host(xf::pad(m, {{2, 1}, {1, 2}}, mode)) == middle);
    CHECK(xf::to_host(xf::pad(m, {{2, 1}, {1, 2}}, mode, xf::stat_length(lengths))) == middle_of_some);
  }
  // np.pad([1, 2, 3, 4], 1, "mean", stat_length=2) -> [2, 1, 2, 3, 4, 4]: 1.5 and 3.5 to even.
  CHECK(xf::to_host(xf::pad(xf::asarray<int, Space>({1, 2, 3, 4}), 1, "mean", xf::stat_length(2))) == std::vector<int>{2, 1, 2, 3, 4, 4});
  // np.pad([-7, 3], 3, "linear_ramp", end_values=2) -> [2, -1, -4, -7, 3, 2, 2, 2]: floors.
  CHECK(xf::to_host(xf::pad(xf::asarray<int, Space>({-7, 3}), 3, "linear_ramp", 2)) == std::vector<int>{2, -1, -4, -7, 3, 2, 2, 2});

  // float32: np.pad(f, ((1, 2), (3, 1)), "linear_ramp", end_values=((1.5, -2.0), (0.0, 4.0))), in float64 then rounded.
  const auto f = xf::asarray<float, Space>({0.5f, -1.25f, 3.0f, 2.0f, 7.5f, -0.75f}, {2, 3});
  CHECK(xf::to_host(xf::pad(f, {{1, 2}, {3, 1}}, "linear_ramp", {{1.5f, -2.0f}, {0.0f, 4.0f}})) ==
        std::vector<float>{0.0f, 0.5f, 1.0f, 1.5f, 1.5f, 1.5f, 4.0f, 0.0f, 0.1666666716337204f, 0.3333333432674408f, 0.5f, -1.25f,
                           3.0f, 4.0f, 0.0f, 0.6666666865348816f, 1.3333333730697632f, 2.0f, 7.5f, -0.75f, 4.0f, 0.0f, 0.0f, 0.0f,
                           0.0f, 2.75f, -1.375f, 4.0f, 0.0f, -0.6666666865348816f, -1.3333333730697632f, -2.0f, -2.0f, -2.0f, 4.0f});
  const std::vector<float> means{1.8333333730697632f, 1.8333333730697632f, 1.8333333730697632f, 1.25f, 3.125f, 1.125f, 1.8333333730697632f,
                                 0.75f, 0.75f, 0.75f, 0.5f, -1.25f, 3.0f, 0.75f, 2.9166667461395264f, 2.9166667461395264f, 2.9166667461395264f,
                                 2.0f, 7.5f, -0.75f, 2.9166667461395264f, 1.8333333730697632f, 1.8333333730697632f, 1.8333333730697632f,
                                 1.25f, 3.125f, 1.125f, 1.8333333730697632f, 1.8333333730697632f, 1.8333333730697632f,
                                 1.8333333730697632f, 1.25f, 3.125f, 1.125f, 1.8333333730697632f};
  const auto got_means = xf::to_host(xf::pad(f, {{1, 2}, {3, 1}}, "mean"));
  REQUIRE(got_means.size() == means.size());
  for (std::size_t i = 0; i < means.size(); ++i) CHECK(std::abs(got_means[i] - means[i]) <= 2e-7f * std::abs(means[i]));
  // float64: np.pad(f.astype(float), ((1, 1), (2, 1)), "median", stat_length=2).
  const auto d = xf::asarray<double, Space>({0.5, -1.25, 3.0, 2.0, 7.5, -0.75}, {2, 3});
  CHECK(xf::to_host(xf::pad(d, {{1, 1}, {2, 1}}, "median", xf::stat_length(2))) ==
        std::vector<double>{2.1875, 2.1875, 1.25, 3.125, 1.125, 2.125, -0.375, -0.375, 0.5, -1.25, 3.0, 0.875,
                            4.75, 4.75, 2.0, 7.5, -0.75, 3.375, 2.1875, 2.1875, 1.25, 3.125, 1.125, 2.125});
  // One line's edge equals its end value (a zero step): NumPy computes every line of the slab as
  // (i / 7) * delta, which rounds the other line's sixth value down by one unit.
  const double e = 2.616121342493164;
  const auto ramp = xf::to_host(xf::pad(xf::asarray<double, Space>({0.0, 1.0, e, 1.0}, {2, 2}), {{0, 0}, {7, 0}}, "linear_ramp"));
  CHECK(std::vector<double>(ramp.begin() + 9, ramp.begin() + 16) ==
        std::vector<double>{0.0, 0.3737316203561663, 0.7474632407123326, 1.121194861068499, 1.4949264814246652, 1.8686581017808317,
                            2.242389722136998});
  // End values per axis and side of a float32 matrix: NumPy hands them to linspace as Python
  // floats, so the ramp runs in float32 (7 of these values differ from a float64 ramp).
  const auto g = xf::asarray<float, Space>({8.050029754638672f, 8.079407691955566f, 5.153255462646484f, 2.858013868331909f}, {2, 2});
  CHECK(xf::to_host(xf::pad(g, {{0, 0}, {7, 0}}, "linear_ramp", {{0.0f, 0.0f}, {0.3f, -1.7f}})) ==
        std::vector<float>{0.30000001192092896f, 1.4071471691131592f, 2.514294147491455f, 3.621441125869751f, 4.728588581085205f,
                           5.83573579788208f, 6.942882537841797f, 8.050029754638672f, 8.079407691955566f, 0.30000001192092896f,
                           0.9933221936225891f, 1.6866443157196045f, 2.3799664974212646f, 3.073288679122925f, 3.766610860824585f,
                           4.459933280944824f, 5.153255462646484f, 2.858013868331909f});
  // bool is not an integer to NumPy: neither floored nor rounded. np.pad([True], 2, "linear_ramp")
  // -> [F, T, T, T, F]; np.pad([True, False, False], 1, "mean") -> [T, T, F, F, T].
  CHECK(xf::to_host(xf::pad(xf::asarray<bool, Space>({true}), 2, "linear_ramp")) == std::vector<bool>{false, true, true, true, false});
  CHECK(xf::to_host(xf::pad(xf::asarray<bool, Space>({true, false, false}), 1, "mean")) == std::vector<bool>{true, true, false, false, true});
  // Refusals: no value from a zero stat_length for maximum/minimum (or integers), an empty axis to
  // extend, a mode NumPy lacks, complex elements.
  CHECK_THROWS_AS(xf::pad(m, 1, "maximum", xf::stat_length(0)), xf::shape_error);
  CHECK_THROWS_AS(xf::stat_length(-1), xf::shape_error);
  CHECK_THROWS_AS(xf::pad(m, 1, "mean", xf::stat_length(0)), xf::shape_error);
  CHECK_THROWS_AS(xf::pad(xf::array<float, 1, Space>(xf::dims<1>{0}), 1, "linear_ramp"), xf::shape_error);
  CHECK_THROWS_AS(xf::pad(m, 1, "average"), xf::error);
  CHECK_THROWS_AS(xf::pad(m, 1, "edge", xf::stat_length(2)), xf::error);
  CHECK_THROWS_AS(xf::pad(xf::asarray<xf::complex64, Space>({xf::complex64(1, 2)}), 1, "mean"), xf::error);
  CHECK(xf::to_host(xf::pad(xf::array<float, 1, Space>(xf::dims<1>{0}), 0, "median")).empty());
}

// SciPy 1.x's convolve2d / correlate2d boundaries, printed for a = arange(20).reshape(4, 5) and
// k = [[1, 2, 0], [0, -1, 3]].
template <class Space>
void convolution_boundaries_match_scipy() {
  std::vector<double> v(20);
  for (int i = 0; i < 20; ++i) v[static_cast<std::size_t>(i)] = i;
  const auto a = xf::asarray<double, Space>(v, {4, 5});
  const auto k = xf::asarray<double, Space>({1, 2, 0, 0, -1, 3}, {2, 3});
  using xf::conv_mode;
  CHECK(xf::to_host(xf::convolve2d(a, k, conv_mode::full, "symm")) ==
        std::vector<double>{3, 1, 3, 8, 13, 17, 19, 18, 16, 18, 23, 28, 32, 34, 43, 41, 43, 48,
                            53, 57, 59, 68, 66, 68, 73, 78, 82, 84, 78, 76, 78, 83, 88, 92, 94});
  CHECK(xf::to_host(xf::convolve2d(a, k, conv_mode::same, "symm")) ==
        std::vector<double>{1, 3, 8, 13, 17, 16, 18, 23, 28, 32, 41, 43, 48, 53, 57, 66, 68, 73, 78, 82});
  CHECK(xf::to_host(xf::convolve2d(a, k, conv_mode::valid, "symm")) == std::vector<double>{18, 23, 28, 43, 48, 53, 68, 73, 78});
  CHECK(xf::to_host(xf::convolve2d(a, k, conv_mode::full, "wrap")) ==
        std::vector<double>{43, 43, 33, 38, 43, 43, 43, 28, 28, 18, 23, 28, 28, 28, 53, 53, 43, 48,
                            53, 53, 53, 78, 78, 68, 73, 78, 78, 78, 43, 43, 33, 38, 43, 43, 43});
  CHECK(xf::to_host(xf::convolve2d(a, k, conv_mode::same, "wrap")) ==
        std::vector<double>{43, 33, 38, 43, 43, 28, 18, 23, 28, 28, 53, 43, 48, 53, 53, 78, 68, 73, 78, 78});
  CHECK(xf::to_host(xf::convolve2d(a, k, conv_mode::same, "fill", 7.0)) ==
        std::vector<double>{15, 18, 21, 24, 29, 37, 18, 23, 28, 30, 47, 43, 48, 53, 50, 57, 68, 73, 78, 70});
  CHECK(xf::to_host(xf::correlate2d(a, k, conv_mode::same, "symm")) ==
        std::vector<double>{13, 17, 22, 27, 29, 38, 42, 47, 52, 54, 63, 67, 72, 77, 79, 78, 82, 87, 92, 94});
  CHECK(xf::to_host(xf::correlate2d(a, k, conv_mode::full, "wrap")) ==
        std::vector<double>{52, 52, 52, 57, 62, 52, 52, 17, 17, 17, 22, 27, 17, 17, 42, 42, 42, 47,
                            52, 42, 42, 67, 67, 67, 72, 77, 67, 67, 52, 52, 52, 57, 62, 52, 52});
  CHECK_THROWS_AS(xf::convolve2d(a, k, conv_mode::same, "reflect"), xf::error);
}

}  // namespace xf_test::reshaping
