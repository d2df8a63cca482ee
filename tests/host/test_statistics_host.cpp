// Statistics and ordering on host arrays (tests/common/statistics_cases.hpp).
#include "../common/statistics_cases.hpp"

using namespace xf_test::statistics;

TEST_CASE("nanprod, nanvar, nanstd, nanargmin, nanargmax and ptp skip or propagate NaN as NumPy does", "[reduce][host][numpy]") {
  nan_reductions_match_reference<xf::host>();
}

TEST_CASE("nancumsum and nancumprod read NaN as 0 and 1", "[scan][host][numpy]") {
  nan_scans_match_reference<xf::host>();
}

TEMPLATE_TEST_CASE("sort and argsort along every axis match a stable sort", "[sort][host]", float, double, int, std::uint8_t) {
  sort_along_every_axis<xf::host, TestType>();
}

TEMPLATE_TEST_CASE("quantile, percentile and median along an axis match NumPy's linear method", "[quantile][host]", float, double,
                   int, std::int64_t) {
  quantiles_along_axes<xf::host, TestType>();
}

TEMPLATE_TEST_CASE("quantile and median over all elements match the sorted values", "[quantile][host]", float, double, int) {
  for (std::size_t n : {1, 2, 3, 10, 1001}) quantiles_of_all_elements<xf::host, TestType>(n, 0);
  quantiles_of_all_elements<xf::host, TestType>(500, 0.002);
}

TEST_CASE("quantile, percentile and median give NumPy's answers at the edges", "[quantile][host][numpy]") {
  quantiles_match_numpy<xf::host>();
}

TEST_CASE("average with weights of a's shape or along an axis", "[reduce][host][numpy]") {
  average_matches_reference<xf::host>();
}

TEST_CASE("searchsorted, flatnonzero, partition, bincount and histogram give NumPy's answers", "[manip][host][numpy]") {
  searching_and_counting_match_numpy<xf::host>();
}

TEMPLATE_TEST_CASE("quantiles over all elements of values spread over every key digit", "[quantile][host]", float, double, std::int8_t,
                   std::uint16_t, int, std::int64_t) {
  quantiles_of_wide_values<xf::host, TestType>(10007);
  quantiles_of_wide_values<xf::host, TestType>(1 << 20);
}
