// Several reductions in one pass on device arrays (tests/common/together_cases.hpp): the
// reduction kernel with tuples of accumulators, split across blocks, aliased leaves.
#include "../common/device_check.hpp"
#include "../common/together_cases.hpp"

TEST_CASE("sum, sum of squares and max in one pass", "[gpu][together]") {
  xf_test::together::sums_squares_max<xf::device, float>({6, 17, 33});
  xf_test::together::sums_squares_max<xf::device, double>({5, 1, 40});
  xf_test::together::sums_squares_max<xf::device, float>({3, 4096, 7});
}

TEST_CASE("mean, var and std in one pass", "[gpu][together]") {
  xf_test::together::mean_and_variance<xf::device, float>(37, 300);
  xf_test::together::mean_and_variance<xf::device, float>(4096, 513);
  xf_test::together::mean_and_variance<xf::device, double>(3, 100000);
}

TEST_CASE("reductions together over views, NaN and inf", "[gpu][together]") {
  xf_test::together::views_and_specials<xf::device, float>();
  xf_test::together::views_and_specials<xf::device, double>();
}

TEST_CASE("reductions together: long, fallback, empty", "[gpu][together]") {
  xf_test::together::long_reductions<xf::device>(300001);
  xf_test::together::long_reductions<xf::device>(20000003);
  xf_test::together::fallback_and_empty<xf::device>();
}

// Several assignments in one kernel (tests/common/assign_together_cases.hpp): every walk of the
// element-wise kernel with a set of destinations (rows, bulk copies past one tile, tiled).
#include "../common/assign_together_cases.hpp"

TEST_CASE("assignments together, three destinations", "[gpu][assign_together]") {
  for (const xf::index_t n : {1, 3, 4, 5, 1000, 4099, 1 << 20, (1 << 20) + 3}) xf_test::assign_together::three_outputs<xf::device, float>(n);
  xf_test::assign_together::three_outputs<xf::device, double>(777);
  xf_test::assign_together::three_outputs<xf::device, double>(3 << 20);
}

TEST_CASE("assignments together, broadcasts, scalars, views", "[gpu][assign_together]") {
  xf_test::assign_together::broadcast_and_views<xf::device>();
}

TEST_CASE("assignments together give the answers of assignments in order", "[gpu][assign_together]") {
  xf_test::assign_together::in_order_semantics<xf::device>();
  xf_test::assign_together::errors_write_nothing<xf::device>();
}
