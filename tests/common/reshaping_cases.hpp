// Rearranging, splitting and creating (manip/shape.hpp), shared by the host suite and the GPU
// suite: NumPy 2.4.6's printed answers, and take_along_axis against sort/argsort on random data.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include <xfuse/manip.hpp>
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
  CHECK_THROWS_AS(xf::take_along_axis(a, xf::asarray<std::int64_t, Space>({0, 3}, {1, 2}), 1), xf::shape_error);
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
  CHECK_THROWS_AS(xf::compress(xf::asarray<int, Space>({1, 1, 1}), m, 0), xf::index_error);
}

}  // namespace xf_test::reshaping
