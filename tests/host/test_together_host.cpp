// Several reductions in one pass on host arrays (tests/common/together_cases.hpp).
#include "../common/together_cases.hpp"

TEST_CASE("sum, sum of squares and max in one pass: host arrays", "[host][together]") {
  xf_test::together::sums_squares_max<xf::host, float>({6, 17, 33});
  xf_test::together::sums_squares_max<xf::host, double>({5, 1, 40});
}

TEST_CASE("mean, var and std in one pass: host arrays", "[host][together]") {
  xf_test::together::mean_and_variance<xf::host, float>(37, 300);
  xf_test::together::mean_and_variance<xf::host, double>(3, 1000);
}

TEST_CASE("reductions together over views, NaN and inf: host arrays", "[host][together]") {
  xf_test::together::views_and_specials<xf::host, float>();
  xf_test::together::views_and_specials<xf::host, double>();
}

TEST_CASE("reductions together: long, fallback, empty: host arrays", "[host][together]") {
  xf_test::together::long_reductions<xf::host>(300001);
  xf_test::together::fallback_and_empty<xf::host>();
}

TEST_CASE("a described reduction written into an array: host arrays", "[host][together]") {
  xf_test::together::reduction_into_destination<xf::host>();
}

// Several assignments in one kernel on host arrays (tests/common/assign_together_cases.hpp).
#include "../common/assign_together_cases.hpp"

TEST_CASE("assignments together, three destinations: host arrays", "[host][assign_together]") {
  for (const xf::index_t n : {1, 3, 4, 5, 1000, 4099}) xf_test::assign_together::three_outputs<xf::host, float>(n);
  xf_test::assign_together::three_outputs<xf::host, double>(777);
}

TEST_CASE("assignments together, broadcasts, scalars, views: host arrays", "[host][assign_together]") {
  xf_test::assign_together::broadcast_and_views<xf::host>();
}

TEST_CASE("assignments together give the answers of assignments in order: host arrays", "[host][assign_together]") {
  xf_test::assign_together::in_order_semantics<xf::host>();
  xf_test::assign_together::errors_write_nothing<xf::host>();
}

// Expressions using reductions of their own rows (tests/common/row_statistics_cases.hpp).
#include "../common/row_statistics_cases.hpp"

TEST_CASE("expressions using reductions of their rows: host arrays", "[host][row_statistics]") {
  xf_test::row_statistics::formulas_along_axes<xf::host, float, 2>({37, 300});
  xf_test::row_statistics::formulas_along_axes<xf::host, double, 3>({6, 5, 41});
  xf_test::row_statistics::special_values<xf::host, float>();
  xf_test::row_statistics::views_and_destinations<xf::host>();
  xf_test::row_statistics::staged_rows<xf::host>();
  xf_test::row_statistics::general_path<xf::host>();
  xf_test::row_statistics::orders_and_kinds<xf::host>();
  // Host arrays never take the device kernel.
  const auto x = xf::asarray<float, xf::host>(std::vector<float>(600, 1.0f), {200, 3});
  const xf::array<float, 2, xf::host> y(x.shape());
  REQUIRE_FALSE(xf::detail::rows_with_statistics(y, x - xf::lazy::mean(x, 1, xf::keepdims), "test"));
}
