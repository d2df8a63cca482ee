// Array manipulation on host arrays against plain loops (tests/common/manip_cases.hpp).
#include "../common/manip_cases.hpp"

using namespace xf_test::manip;

TEST_CASE("concatenate, stack, vstack and hstack on host arrays", "[host][manip]") {
  joining<xf::host, std::int32_t>();
  joining<xf::host, float>();
  joining<xf::host, xf::complex64>();
  joining<xf::host, std::uint8_t>();
  joining_errors<xf::host>();
}

TEST_CASE("tile and repeat on host arrays", "[host][manip]") {
  tiling<xf::host, std::int64_t>();
  tiling<xf::host, double>();
  tiling<xf::host, xf::complex128>();
}

TEST_CASE("meshgrid on host arrays: broadcast views", "[host][manip]") { meshgrids<xf::host>(); }

TEST_CASE("pad and roll on host arrays", "[host][manip]") {
  padding<xf::host, std::int16_t>();
  padding<xf::host, float>();
  padding<xf::host, xf::complex64>();
  padding_errors<xf::host>();
}

TEST_CASE("take and put on host arrays: every mode and index type", "[host][manip]") {
  taking<xf::host, float, std::int64_t>();
  taking<xf::host, std::int32_t, std::int32_t>();
  taking<xf::host, xf::complex128, std::uint8_t>();
  taking<xf::host, double, std::int8_t>();
  putting<xf::host, float, std::int64_t>();
  putting<xf::host, std::int32_t, std::uint16_t>();
  putting<xf::host, xf::complex64, std::int32_t>();
  take_put_errors<xf::host>();
}

TEST_CASE("nonzero, argwhere and unique on host arrays", "[host][manip]") {
  nonzeros<xf::host, std::int32_t>(7);
  nonzeros<xf::host, float>(9);
  nonzeros<xf::host, xf::complex64>(4);
  nonzeros<xf::host, bool>(6);
  nonzero_of_expressions<xf::host>(40);
  uniques<xf::host, std::int32_t>(50);
  uniques<xf::host, std::uint8_t>(70);
  uniques<xf::host, float>(40);
  uniques<xf::host, double>(33);
  uniques<xf::host, xf::half>(20);
  uniques<xf::host, bool>(10);
  unique_of_expressions<xf::host>(25);
}

TEST_CASE("ascontiguousarray, atleast_1d and atleast_2d on host arrays", "[host][manip]") { contiguous<xf::host>(); }

TEST_CASE("doc example: array manipulation", "[host][manip][docs]") {
  // example-begin manip
  const auto a = xf::asarray<int, xf::host>({1, 2, 3, 4, 5, 6}, {2, 3});
  const auto b = xf::concatenate({a, a.flip(0)}, 1);     // (2, 6): one kernel per input, no temporary
  const auto s = xf::stack(a(0), a(1), a(0));            // (3, 3): a new first axis
  const auto t = xf::tile(a, {2, 1});                    // (4, 3)
  const auto r = xf::repeat(a, 2, 1);                    // (2, 6): [[1, 1, 2, 2, 3, 3], ...]
  const auto [X, Y] = xf::meshgrid(a(0), a(1));          // (3, 3) broadcast views of a: no copies
  const auto p = xf::pad(a, {{1, 0}, {0, 2}}, "edge");   // (3, 5)
  const auto q = xf::roll(a, 1);                         // flattened: [[6, 1, 2], [3, 4, 5]]
  const auto i = xf::asarray<std::int64_t, xf::host>({2, 0, -1});
  const auto c = xf::take(a, i, 1);                      // a[:, [2, 0, -1]] = [[3, 1, 3], [6, 4, 6]]
  xf::put(r, i, 0);                                      // r.flat[[2, 0, -1]] = 0, in place
  const auto [rows, cols] = xf::nonzero(a > 3);          // [1, 1, 1], [0, 1, 2]
  const auto u = xf::unique(xf::concatenate(a, a));      // [1, 2, 3, 4, 5, 6]: one host read (the count)
  // example-end
  CHECK(xf::to_host(b) == std::vector<int>{1, 2, 3, 4, 5, 6, 4, 5, 6, 1, 2, 3});
  CHECK(xf::to_host(s) == std::vector<int>{1, 2, 3, 4, 5, 6, 1, 2, 3});
  CHECK(xf::to_host(t) == std::vector<int>{1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6});
  CHECK(xf::to_host(r) == std::vector<int>{0, 1, 0, 2, 3, 3, 4, 4, 5, 5, 6, 0});
  CHECK(xf::to_host(X) == std::vector<int>{1, 2, 3, 1, 2, 3, 1, 2, 3});
  CHECK(xf::to_host(Y) == std::vector<int>{4, 4, 4, 5, 5, 5, 6, 6, 6});
  CHECK(X.data() == a.data());
  CHECK(xf::to_host(p) == std::vector<int>{1, 2, 3, 3, 3, 1, 2, 3, 3, 3, 4, 5, 6, 6, 6});
  CHECK(xf::to_host(q) == std::vector<int>{6, 1, 2, 3, 4, 5});
  CHECK(xf::to_host(c) == std::vector<int>{3, 1, 3, 6, 4, 6});
  CHECK(xf::to_host(rows) == std::vector<std::int64_t>{1, 1, 1});
  CHECK(xf::to_host(cols) == std::vector<std::int64_t>{0, 1, 2});
  CHECK(xf::to_host(u) == std::vector<int>{1, 2, 3, 4, 5, 6});
}
