// Order and logic reductions on device arrays (min, max, argmin, argmax, nan forms, any, all,
// count_nonzero), views, expressions and empty inputs, against tests/common/reduce_cases.hpp's
// references. Apart from test_reduce_gpu.cu so that the two build in parallel.
#include "../common/reduce_cases.hpp"

using namespace xf_test;

TEST_CASE("order and logic reductions on device arrays", "[gpu][reduce]") {
  order_and_logic_cases<xf::device>({23, 45, 67});
}

TEST_CASE("order and logic reductions with few results over many elements", "[gpu][reduce]") {
  extremes<xf::device, float>({3, 300, 1031}, true);
  logicals<xf::device, std::uint8_t>({3, 300, 1031});
}

// argmax/argmin split over many blocks, whose rounds interleave: planted ties of the extreme
// (and then NaNs) in different splits; the first index must win, as in NumPy.
TEST_CASE("argmax and argmin over interleaved splits keep the first index", "[gpu][reduce]") {
  const std::size_t n = 3'000'017;
  auto v = uniform<float>(n, -100, 100);
  const std::size_t first = 1'234'567 + static_cast<std::size_t>(v[0] > 0 ? 1 : 0), later[] = {first + 8192 * 3, n - 2, 2'000'000};
  v[first] = 500;
  for (const std::size_t i : later) v[i] = 500;
  v[77] = -500;
  v[n - 1] = -500;
  auto x = xf::asarray<float, xf::device>(v, {static_cast<xf::index_t>(n)});
  REQUIRE(xf::argmax(x).item() == static_cast<std::int64_t>(first));
  REQUIRE(xf::argmin(x).item() == 77);
  REQUIRE(xf::argmax(x * 2.0f + 1.0f).item() == static_cast<std::int64_t>(first));
  v[2'500'000] = NAN;
  v[first + 1] = NAN;
  x = xf::asarray<float, xf::device>(v, {static_cast<xf::index_t>(n)});
  REQUIRE(xf::argmax(x).item() == static_cast<std::int64_t>(first + 1));
  REQUIRE(xf::argmin(x).item() == static_cast<std::int64_t>(first + 1));
  // Rows of the same data: two results, each split across blocks.
  const auto rows = x(xf::slice(0, 3'000'000)).reshape({2, 1'500'000});
  const auto am = xf::to_host(xf::argmax(rows, 1));
  REQUIRE(am[0] == static_cast<std::int64_t>(first + 1));
  REQUIRE(am[1] == static_cast<std::int64_t>(2'500'000 - 1'500'000));  // its NaN
}
