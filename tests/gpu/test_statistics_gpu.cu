// Statistics and ordering on device arrays (tests/common/statistics_cases.hpp). Quantiles over all
// elements run on radix selection here: they must equal the host's sorted answer bit for bit,
// across key widths (8 to 64 bits), repeated values, NaN, and sizes past one block's tile.
#include "../common/statistics_cases.hpp"

using namespace xf_test::statistics;

TEST_CASE("nanprod, nanvar, nanstd, nanargmin, nanargmax and ptp on device arrays", "[gpu][reduce][numpy]") {
  nan_reductions_match_reference<xf::device>();
}

TEST_CASE("nancumsum and nancumprod on device arrays", "[gpu][scan][numpy]") {
  nan_scans_match_reference<xf::device>();
}

TEMPLATE_TEST_CASE("sort and argsort along every axis on device arrays", "[gpu][sort]", float, double, int, std::uint8_t) {
  sort_along_every_axis<xf::device, TestType>();
}

TEMPLATE_TEST_CASE("quantile, percentile and median along an axis on device arrays", "[gpu][quantile]", float, double, int,
                   std::int64_t) {
  quantiles_along_axes<xf::device, TestType>();
}

TEMPLATE_TEST_CASE("quantile and median over all device elements (radix selection) equal the sorted answer", "[gpu][quantile]",
                   float, double, int, std::int8_t, std::uint16_t, std::int64_t) {
  for (std::size_t n : {1, 2, 3, 10, 1001, 4096, 65537}) quantiles_of_all_elements<xf::device, TestType>(n, 0);
  quantiles_of_all_elements<xf::device, TestType>((std::size_t{1} << 21) + 7, 0);
  quantiles_of_all_elements<xf::device, TestType>(300001, 0.001);
  quantiles_of_all_elements<xf::device, TestType>(999, 0.3);
}

TEST_CASE("radix selection of repeated values: constant arrays, two values, signed zeros", "[gpu][quantile]") {
  const std::size_t n = 1 << 20;
  const auto same = xf::asarray<float>(std::vector<float>(n, 3.5f));
  CHECK(xf::median(same).item() == 3.5f);
  CHECK(xf::quantile(same, 0.123).item() == 3.5f);
  std::vector<double> two(n, -1.0);
  for (std::size_t i = n / 2; i < n; ++i) two[i] = 2.0;  // the median straddles the two values
  const auto halves = xf::asarray<double>(two);
  CHECK(xf::median(halves).item() == 0.5);
  CHECK(xf::quantile(halves, 0.5 - 1e-9).item() == xf::quantile(xf::asarray<double, xf::host>(two), 0.5 - 1e-9).item());
  const auto zeros = xf::asarray<double>({-0.0, 0.0, -0.0, 0.0});
  CHECK(xf::median(zeros).item() == 0.0);
  CHECK(xf::quantile(xf::asarray<bool>({true, false, true}), 0.4).item() == xf::quantile(xf::asarray<bool, xf::host>({true, false, true}), 0.4).item());
  // The device result stays in stream order: a quantile of a fresh expression, read later.
  const auto x = xf::asarray<float>(xf_test::uniform<float>(100000, -1, 1));
  const auto q = xf::quantile(x * 2 + 1, std::vector<double>{0.1, 0.9});
  const auto host = xf::to_host(xf::quantile(xf::asarray<float, xf::host>(xf::to_host(x)) * 2 + 1, std::vector<double>{0.1, 0.9}));
  CHECK(xf::to_host(q) == host);
}

TEST_CASE("quantile, percentile and median give NumPy's answers at the edges on device arrays", "[gpu][quantile][numpy]") {
  quantiles_match_numpy<xf::device>();
}

TEST_CASE("average with weights on device arrays", "[gpu][reduce][numpy]") {
  average_matches_reference<xf::device>();
}

TEST_CASE("searchsorted, flatnonzero, partition, bincount and histogram on device arrays", "[gpu][manip][numpy]") {
  searching_and_counting_match_numpy<xf::device>();
}

TEMPLATE_TEST_CASE("quantiles over all elements of values spread over every key digit", "[gpu][quantile]", float, double, std::int8_t,
                   std::uint16_t, int, std::int64_t) {
  quantiles_of_wide_values<xf::device, TestType>(10007);
  quantiles_of_wide_values<xf::device, TestType>(1 << 20);
}

TEST_CASE("quantiles over all of 2^31 + 11 device elements (64-bit positions and counts)", "[gpu][large]") {
  // -100 .. 100 repeating: value k - 100 occurs n / 201 times, once more for k < n % 201.
  const xf::index_t n = (xf::index_t{1} << 31) + 11;
  const xf::array<std::int8_t, 1> x = (xf::arange<std::int64_t>(n) % 201 - 100).astype<std::int8_t>();
  auto value_at_rank = [&](xf::index_t rank) {
    xf::index_t below = 0;
    for (xf::index_t k = 0; k < 201; ++k) {
      below += n / 201 + (k < n % 201 ? 1 : 0);
      if (rank < below) return static_cast<double>(k - 100);
    }
    return 100.0;
  };
  const double at = static_cast<double>(n - 1) * 0.9;
  const auto lo = static_cast<xf::index_t>(at);
  const double a = value_at_rank(lo), b = value_at_rank(lo + 1), gamma = at - static_cast<double>(lo);
  CHECK(xf::quantile(x, 0.9).item() == (gamma >= 0.5 ? b - (b - a) * (1 - gamma) : a + (b - a) * gamma));
  CHECK(xf::median(x).item() == (value_at_rank((n - 1) / 2) + value_at_rank(n / 2)) / 2);
  CHECK(xf::quantile(x, 0.0).item() == -100.0);
  CHECK(xf::quantile(x, 1.0).item() == 100.0);
}
