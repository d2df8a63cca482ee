// diff, gradient, trapezoid, isin, digitize, interp, lexsort, cov, corrcoef and the NaN-skipping
// quantiles on host arrays (tests/common/numpy_more_cases.hpp).
#include "../common/numpy_more_cases.hpp"

using namespace xf_test::numpy_more;

TEST_CASE("diff gives NumPy's n-th differences, types and empty results", "[manip][host][numpy]") {
  diff_matches_numpy<xf::host>();
}

TEST_CASE("diff joins prepend and append with NumPy's promoted type", "[manip][host][numpy]") {
  diff_joins_prepend_and_append<xf::host>();
}

TEST_CASE("diff along every axis equals the differences of neighbours", "[manip][host]") {
  diff_matches_reference_along_every_axis<xf::host>();
}

TEST_CASE("gradient gives NumPy's values, types and errors", "[manip][host][numpy]") {
  gradient_matches_numpy<xf::host>();
}

TEST_CASE("gradient with edge order 1 and 2 equals NumPy's formulas bit for bit", "[manip][host]") {
  gradient_matches_reference<xf::host>();
}

TEST_CASE("trapezoid gives NumPy's integrals with dx or sample points", "[manip][host][numpy]") {
  trapezoid_matches_numpy<xf::host>();
}

TEST_CASE("isin finds values as NumPy's ==, NaN never", "[manip][host][numpy]") {
  isin_matches_numpy<xf::host>();
}

TEST_CASE("digitize gives NumPy's bins for increasing and decreasing edges", "[manip][host][numpy]") {
  digitize_matches_numpy<xf::host>();
  digitize_matches_binary_search<xf::host>();
}

TEST_CASE("interp gives NumPy's values bit for bit, outside the range and at NaN", "[manip][host][numpy]") {
  interp_matches_numpy<xf::host>();
  interp_matches_reference<xf::host>();
}

TEST_CASE("lexsort sorts by the last key first, stably", "[sort][host][numpy]") {
  lexsort_matches_numpy<xf::host>();
  lexsort_matches_stable_sort<xf::host>();
}

TEST_CASE("cov gives NumPy's covariance, rowvar, bias and ddof", "[linalg][host][numpy]") {
  covariance_matches_numpy<xf::host>();
}

TEST_CASE("corrcoef gives NumPy's correlation coefficients, clipped", "[linalg][host][numpy]") {
  correlation_matches_numpy<xf::host>();
}

TEST_CASE("nanmedian, nanquantile and nanpercentile leave NaN out as NumPy's", "[quantile][host][numpy]") {
  nan_quantiles_match_numpy<xf::host>();
}

TEMPLATE_TEST_CASE("nanquantile and nanmedian along every axis equal the sorted numbers' statistics", "[quantile][host]", float,
                   double) {
  nan_quantiles_match_reference<xf::host, TestType>();
}

TEST_CASE("the NumPy functions users reach for next, as the guide shows them", "[manip][host][doc]") {
  // example-begin numpy_more
  const auto x = xf::asarray<double, xf::host>({1, 2, 4, 7, 11});
  const auto d = xf::diff(x);                                         // [1, 2, 3, 4]: one kernel
  const auto g = xf::gradient(x, 0.5);                                // [2, 3, 5, 7, 8]
  const double area = xf::trapezoid(x).item();                        // 19
  const auto in = xf::isin(x, xf::asarray<double, xf::host>({4, 11}));  // [F, F, T, F, T]
  const auto bin = xf::digitize(x, xf::asarray<double, xf::host>({0, 3, 10}));  // [1, 1, 2, 2, 3]
  const auto y = xf::interp(xf::asarray<double, xf::host>({1.5, 20}), x, x * x);  // [2.5, 121]
  const auto order = xf::lexsort(xf::asarray<int, xf::host>({3, 1, 2, 1}),   // the secondary key,
                                 xf::asarray<int, xf::host>({0, 1, 0, 1}));  // then the primary: [2, 0, 1, 3]
  const auto m = xf::asarray<double, xf::host>({1, 2, 4, 7, 3, 1, 2, 2}, {2, 4});
  const auto c = xf::cov(m);                                          // [[7, -1/3], [-1/3, 2/3]]: one GEMM
  const auto r = xf::corrcoef(m);                                     // [[1, -0.154...], [-0.154..., 1]]
  const auto mid = xf::nanmedian(xf::asarray<double, xf::host>({3, NAN, 1, 2}));  // 2: NaN left out
  // example-end
  CHECK(xf::to_host(d) == std::vector<double>{1, 2, 3, 4});
  CHECK(xf::to_host(g) == std::vector<double>{2, 3, 5, 7, 8});
  CHECK(area == 19.0);
  CHECK(xf::to_host(in) == std::vector<bool>{false, false, true, false, true});
  CHECK(xf::to_host(bin) == std::vector<std::int64_t>{1, 1, 2, 2, 3});
  CHECK(xf::to_host(y) == std::vector<double>{2.5, 121});
  CHECK(xf::to_host(order) == std::vector<std::int64_t>{2, 0, 1, 3});
  xf_test::require_all_close(xf::to_host(c), {7, -1 / 3.0, -1 / 3.0, 2 / 3.0}, 1e-15, 0, "cov");
  CHECK(std::fabs(xf::to_host(r)[1] - -0.15430335) < 1e-8);
  CHECK(mid.item() == 2.0);
}
