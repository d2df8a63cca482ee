// Reductions on device arrays against long double references (tests/common/reduce_cases.hpp), at
// shapes that take every path: a warp or a block per result, split reductions, full reductions on
// CUB, and more than 2^31 elements.
#include "../common/device_check.hpp"
#include "../common/reduce_cases.hpp"

using namespace xf_test;

TEST_CASE("sums, means, variances and products on device arrays", "[gpu][reduce]") {
  sum_mean_var_cases<xf::device>({23, 45, 67});
}

TEST_CASE("a user reducer on device arrays", "[gpu][reduce]") {
  user_reducer_case<xf::device>([] __host__ __device__(float v) { return static_cast<double>(v) * v; },
                                [] __host__ __device__(double a, double b) { return a + b; },
                                [] __host__ __device__(double a, xf::index_t n) { return sqrt(a / static_cast<double>(n)); });
}

TEST_CASE("reductions with few results over many elements (split across blocks)", "[gpu][reduce]") {
  // (3, 300, 1031): axis 0 has few elements per result, {1, 2} few results with 309300 each.
  sums_and_means<xf::device, float>({3, 300, 1031});
  sums_and_means<xf::device, std::int32_t>({3, 300, 1031});
  variances<xf::device, double>({3, 300, 1031});
  // A long column reduction: 4 results, each 2^20 rows apart in memory.
  const shape_t s = {1 << 18, 4, 1};
  const auto v = uniform<float>(std::size_t{1} << 20, -1, 1);
  const auto x = xf::asarray<float>(v, {s[0], s[1]});
  require_sums(xf::to_host(xf::sum(x, 0)), ref_sum(v, s, {0}), 1, 2e-5, "column sums of (2^18, 4)");
}

TEST_CASE("reductions match on device and host arrays", "[gpu][reduce]") {
  const auto v = uniform<float>(64 * 999, -4, 4);
  const auto d = xf::asarray<float>(v, {64, 999});
  const auto h = xf::asarray<float, xf::host>(v, {64, 999});
  require_all_close<float>(xf::to_host(xf::std(d * d - 1, 1)), xf::to_host(xf::std(h * h - 1, 1)), 1e-4, 1e-6, "std");
  require_equal<std::int64_t>(xf::to_host(xf::argmin(d, 0)), xf::to_host(xf::argmin(h, 0)), "argmin");
}

TEST_CASE("reductions over more than 2^31 int8 elements", "[gpu][large]") {
  const xf::index_t n = (xf::index_t{1} << 31) + 4099;
  const xf::array<std::int8_t, 1> x = xf::arange<std::int8_t>(n);  // int8(i): wraps every 256
  auto int8_sum = [](xf::index_t count) {  // sum of int8(i) for i < count: whole cycles add -128
    std::int64_t s = (count / 256) * -128;
    for (xf::index_t j = 0; j < count % 256; ++j) s += static_cast<std::int8_t>(j);
    return s;
  };
  CHECK(xf::sum(x).item() == int8_sum(n));
  CHECK(xf::count_nonzero(x).item() == n - (n + 255) / 256);
  CHECK(xf::argmax(xf::arange<std::int64_t>(n) >= (xf::index_t{1} << 31) + 5).item() == (xf::index_t{1} << 31) + 5);
  CHECK(xf::max(x).item() == 127);
  // Axis reductions whose positions pass 2^31: int8(r * 2048 + c) == int8(c).
  const xf::index_t rows = (xf::index_t{1} << 20) + 2;
  const auto m = x(xf::slice(0, rows * 2048)).reshape({rows, 2048});
  const auto cols = xf::to_host(xf::sum(m, 0));
  const auto row_sums = xf::to_host(xf::sum(m, 1));
  REQUIRE(cols.size() == 2048);
  for (std::size_t c = 0; c < cols.size(); ++c) REQUIRE(cols[c] == rows * static_cast<std::int8_t>(c));
  REQUIRE(static_cast<xf::index_t>(row_sums.size()) == rows);
  std::size_t bad = 0;
  for (const auto r : row_sums) bad += r != int8_sum(2048);
  CHECK(bad == 0);
}
