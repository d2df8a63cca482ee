// Array manipulation on device arrays against plain loops (tests/common/manip_cases.hpp), the
// same cases as the host suite, and larger inputs where the kernels use many blocks.
#include "../common/manip_cases.hpp"

using namespace xf_test::manip;

TEST_CASE("concatenate, stack, vstack and hstack on device arrays", "[gpu][manip]") {
  joining<xf::device, std::int32_t>();
  joining<xf::device, float>();
  joining<xf::device, xf::complex64>();
  joining<xf::device, std::uint8_t>();
  joining_errors<xf::device>();
}

TEST_CASE("tile and repeat on device arrays", "[gpu][manip]") {
  tiling<xf::device, std::int64_t>();
  tiling<xf::device, double>();
  tiling<xf::device, xf::complex128>();
}

TEST_CASE("meshgrid on device arrays: broadcast views", "[gpu][manip]") { meshgrids<xf::device>(); }

TEST_CASE("pad and roll on device arrays", "[gpu][manip]") {
  padding<xf::device, std::int16_t>();
  padding<xf::device, float>();
  padding<xf::device, xf::complex64>();
  padding_errors<xf::device>();
}

TEST_CASE("take and put on device arrays: every mode and index type", "[gpu][manip]") {
  taking<xf::device, float, std::int64_t>();
  taking<xf::device, std::int32_t, std::int32_t>();
  taking<xf::device, xf::complex128, std::uint8_t>();
  taking<xf::device, double, std::int8_t>();
  putting<xf::device, float, std::int64_t>();
  putting<xf::device, std::int32_t, std::uint16_t>();
  putting<xf::device, xf::complex64, std::int32_t>();
  take_put_errors<xf::device>();
}

TEST_CASE("nonzero, argwhere and unique on device arrays", "[gpu][manip]") {
  nonzeros<xf::device, std::int32_t>(7);
  nonzeros<xf::device, float>(9);
  nonzeros<xf::device, xf::complex64>(4);
  nonzeros<xf::device, bool>(6);
  nonzero_of_expressions<xf::device>(40);
  uniques<xf::device, std::int32_t>(50);
  uniques<xf::device, std::uint8_t>(70);
  uniques<xf::device, float>(40);
  uniques<xf::device, double>(33);
  uniques<xf::device, xf::half>(20);
  uniques<xf::device, bool>(10);
  unique_of_expressions<xf::device>(25);
}

TEST_CASE("nonzero, argwhere and unique of large device arrays", "[gpu][manip]") {
  nonzeros<xf::device, float>(20011);     // 300165 elements: many blocks in the scan and the search
  nonzero_of_expressions<xf::device>(100003);
  uniques<xf::device, std::int32_t>(100003);
  uniques<xf::device, double>(70001);
}

TEST_CASE("take and put of large device arrays", "[gpu][manip]") {
  // A gather of 2^20 + 3 rows and a scatter of as many values: many blocks, every index checked.
  const index_t n = (index_t{1} << 20) + 3;
  const auto src = xf_test::uniform<float>(static_cast<std::size_t>(2 * n), -1, 1);
  const auto a = xf::asarray<float>(src, {n, 2});
  std::vector<std::int64_t> perm(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), std::int64_t{0});
  std::shuffle(perm.begin(), perm.end(), xf_test::rng());
  const auto idx = xf::asarray<std::int64_t>(perm);
  const auto got = xf::to_host(xf::take(a, idx, 0));
  std::vector<float> want(got.size());
  for (std::size_t k = 0; k < perm.size(); ++k)
    for (std::size_t j = 0; j < 2; ++j) want[2 * k + j] = src[static_cast<std::size_t>(2 * perm[k]) + j];
  expect_same(got, want, "take of 2^20 + 3 rows");
  const xf::array<float, 1> dst = xf::zeros<float>({n});
  xf::put(dst, idx, a(xf::all, 1));
  std::vector<float> want_put(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < perm.size(); ++k) want_put[static_cast<std::size_t>(perm[k])] = src[2 * k + 1];
  expect_same(xf::to_host(dst), want_put, "put of 2^20 + 3 values");
}

TEST_CASE("concatenate, pad and roll of large device arrays", "[gpu][manip]") {
  const index_t n = 3001;
  const auto v = xf_test::uniform<float>(static_cast<std::size_t>(n * 1000), -1, 1);
  const auto a = xf::asarray<float>(v, {n, 1000});
  const auto c = xf::to_host(xf::concatenate({a.T(), a(xf::slice(xf::_, 7)).T()}, 1));
  const auto r = xf::to_host(xf::roll(a, 12345));
  const auto p = xf::to_host(xf::pad(a, {{2, 1}, {3, 0}}, "edge"));
  std::size_t bad = 0;
  for (index_t i = 0; i < 1000; ++i)
    for (index_t j = 0; j < n + 7; ++j) bad += c[static_cast<std::size_t>(i * (n + 7) + j)] != v[static_cast<std::size_t>((j < n ? j : j - n) * 1000 + i)];
  const index_t size = n * 1000;
  for (index_t k = 0; k < size; ++k) bad += r[static_cast<std::size_t>(k)] != v[static_cast<std::size_t>(((k - 12345) % size + size) % size)];
  for (index_t i = 0; i < n + 3; ++i)
    for (index_t j = 0; j < 1003; ++j)
      bad += p[static_cast<std::size_t>(i * 1003 + j)] != v[static_cast<std::size_t>(std::clamp<index_t>(i - 2, 0, n - 1) * 1000 + std::max<index_t>(j - 3, 0))];
  CHECK(bad == 0);
}

TEST_CASE("ascontiguousarray, atleast_1d and atleast_2d on device arrays", "[gpu][manip]") { contiguous<xf::device>(); }
