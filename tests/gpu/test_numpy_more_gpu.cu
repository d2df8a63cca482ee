// diff, gradient, trapezoid, isin, digitize, interp, lexsort, cov, corrcoef and the NaN-skipping
// quantiles on device arrays (tests/common/numpy_more_cases.hpp), and the device's results equal
// to the host evaluator's on fresh random inputs (bit for bit where NumPy's order of operations
// is kept: differences, gradients, interpolation, order statistics).
#include "../common/device_check.hpp"
#include "../common/numpy_more_cases.hpp"

using namespace xf_test::numpy_more;

TEST_CASE("diff on device arrays", "[gpu][manip][numpy]") {
  diff_matches_numpy<xf::device>();
  diff_joins_prepend_and_append<xf::device>();
  diff_matches_reference_along_every_axis<xf::device>();
}

TEST_CASE("gradient on device arrays", "[gpu][manip][numpy]") {
  gradient_matches_numpy<xf::device>();
  gradient_matches_reference<xf::device>();
}

TEST_CASE("trapezoid on device arrays", "[gpu][manip][numpy]") {
  trapezoid_matches_numpy<xf::device>();
}

TEST_CASE("isin, digitize and interp on device arrays", "[gpu][manip][numpy]") {
  isin_matches_numpy<xf::device>();
  digitize_matches_numpy<xf::device>();
  digitize_matches_binary_search<xf::device>();
  interp_matches_numpy<xf::device>();
  interp_matches_reference<xf::device>();
}

TEST_CASE("lexsort on device arrays", "[gpu][sort][numpy]") {
  lexsort_matches_numpy<xf::device>();
  lexsort_matches_stable_sort<xf::device>();
}

TEST_CASE("cov and corrcoef on device arrays", "[gpu][linalg][numpy]") {
  covariance_matches_numpy<xf::device>();
  correlation_matches_numpy<xf::device>();
}

TEST_CASE("nanmedian, nanquantile and nanpercentile on device arrays", "[gpu][quantile][numpy]") {
  nan_quantiles_match_numpy<xf::device>();
  nan_quantiles_match_reference<xf::device, float>();
  nan_quantiles_match_reference<xf::device, double>();
}

TEST_CASE("diff, gradient, interp and nanquantile of large inputs equal the host evaluator's", "[gpu][manip][quantile]") {
  std::vector<float> x = xf_test::uniform<float>(300 * 1001, -5, 5);
  for (std::size_t i = 0; i < x.size(); i += 17) x[i] = std::numeric_limits<float>::quiet_NaN();
  const std::vector<double> xp = [] {
    std::vector<double> v = xf_test::uniform<double>(5000, -6, 6);
    std::sort(v.begin(), v.end());
    return v;
  }();
  const std::vector<double> fp = xf_test::uniform<double>(xp.size(), -1, 1);
  auto shaped = [](const auto& a) { return a.reshape(xf::dims<2>{300, 1001}); };
  xf_test::device_matches_host("diff(x, 2, 0)", [&](const auto& a) { return xf::diff(shaped(a), 2, 0); }, 0, 0, x);
  xf_test::device_matches_host("gradient(x, 0.1, 1, edge order 2)",
                               [&](const auto& a) { return xf::gradient(shaped(a), 0.1, 1, xf::edge_order(2)); }, 0, 0, x);
  xf_test::device_matches_host("nanquantile(x, 0.3, 0)", [&](const auto& a) { return xf::nanquantile(shaped(a), 0.3, 0); }, 0, 0, x);
  xf_test::device_matches_host("nanmedian(x)", [&](const auto& a) { return xf::nanmedian(a); }, 0, 0, x);
  // Summed in float64: the device and the host add the 1000 terms in different orders.
  xf_test::device_matches_host("trapezoid(x, 0.5, 1)",
                               [&](const auto& a) { return xf::trapezoid(xf::nan_to_num(shaped(a)).template astype<double>(), 0.5, 1); },
                               1e-12, 1e-12, x);
  xf_test::device_matches_host("interp(x * 1.2, xp, fp)",
                               [&](const auto& a, const auto& p, const auto& f) { return xf::interp(a * 1.2f, p, f); }, 0, 0, x, xp, fp);
  xf_test::device_matches_host("digitize(x, xp)", [&](const auto& a, const auto& p) { return xf::digitize(a, p); }, 0, 0, x, xp);
  xf_test::device_matches_host("isin(round(x), round(xp))",
                               [&](const auto& a, const auto& p) { return xf::isin(xf::round(a), xf::round(p * 2.0)); }, 0, 0, x, xp);
}
