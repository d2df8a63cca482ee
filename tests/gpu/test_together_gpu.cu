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

TEST_CASE("a described reduction written into an array", "[gpu][together]") {
  xf_test::together::reduction_into_destination<xf::device>();
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

// Expressions using reductions of their own rows (tests/common/row_statistics_cases.hpp): one
// kernel per expression (rows of 1 to 16384 elements held in registers, 1 to 1024 threads each,
// several rows a block; on sm_90 rows of 2048 to 10240 floats staged in shared memory), and the
// general path (strided rows, longer rows, two axes, ...).
#include "../common/row_statistics_cases.hpp"

TEST_CASE("expressions using reductions of their rows", "[gpu][row_statistics]") {
  using namespace xf_test::row_statistics;
  formulas_along_axes<xf::device, float, 2>({300, 777});
  formulas_along_axes<xf::device, float, 2>({5000, 9});
  formulas_along_axes<xf::device, double, 3>({140, 3, 2049});
  formulas_along_axes<xf::device, float, 3>({150, 151, 1});
  formulas_along_axes<xf::device, float, 2>({140, 16384});
  formulas_along_axes<xf::device, double, 2>({140, 4096});
  staged_rows<xf::device>();
  special_values<xf::device, float>();
  special_values<xf::device, double>();
  views_and_destinations<xf::device>();
  general_path<xf::device>();
  orders_and_kinds<xf::device>();
}

TEST_CASE("which expressions using reductions of their rows run as one kernel", "[gpu][row_statistics]") {
  const auto x = xf::asarray<float>(xf_test::uniform<float>(300 * 5000, 0.5, 8), {300, 5000});
  const xf::array<float, 2> y(x.shape());
  const auto one_kernel = [&](const auto& e) { return xf::detail::rows_with_statistics(y, e, "test"); };
  CHECK(one_kernel(x / xf::lazy::sum(x, 1, xf::keepdims)));
  CHECK(one_kernel(xf::exp(x - xf::lazy::max(x, -1, xf::keepdims)) * xf::lazy::var(x, 1, xf::keepdims)));
  CHECK_FALSE(one_kernel(x / xf::lazy::sum(x, 0, xf::keepdims)));  // rows strided in memory
  // x and w, two arrays of one type: one register set per type holds neither; staged on sm_90
  // (rows of 5000 floats: both fit the 40 KiB a block stages).
  const bool staged = xf::device(0).properties().major >= 9;
  const auto w = xf::asarray<float>(xf_test::uniform<float>(5000, 0.5, 2), {1, 5000});
  CHECK(one_kernel((x - xf::lazy::mean(x, 1, xf::keepdims)) * w / xf::lazy::max(x * w, 1, xf::keepdims)) == staged);
  const auto wd = xf::asarray<double>(xf_test::uniform<double>(5000, 0.5, 2), {1, 5000});
  CHECK(one_kernel((x - xf::lazy::mean(x, 1, xf::keepdims)) * wd));  // x and a weight of another type
  CHECK_FALSE(one_kernel(x - xf::lazy::mean(x, 1, xf::keepdims) - xf::lazy::mean(x, 0, xf::keepdims)));  // two axes
  CHECK_FALSE(one_kernel(x - xf::lazy::mean(x)));                                                  // every axis
  CHECK(one_kernel(y - xf::lazy::mean(y, 1, xf::keepdims)));         // reads the destination where it writes
  CHECK(one_kernel(y - xf::lazy::mean(x, 1, xf::keepdims)) == staged);  // x and y: two arrays of one type
  // Shorter rows of x and w staged too where they are 16-byte multiples (1024), not otherwise (1030).
  for (const xf::index_t n : {xf::index_t{1024}, xf::index_t{1030}}) {
    const auto xs = xf::asarray<float>(xf_test::uniform<float>(static_cast<std::size_t>(300 * n), 0.5, 8), {300, n});
    const auto ws = xf::asarray<float>(xf_test::uniform<float>(static_cast<std::size_t>(n), 0.5, 2), {1, n});
    const xf::array<float, 2> ys(xs.shape());
    CHECK(xf::detail::rows_with_statistics(ys, (xs - xf::lazy::mean(xs, 1, xf::keepdims)) * ws, "test") == (staged && n == 1024));
  }
  const auto few = xf::asarray<float>(xf_test::uniform<float>(64 * 5000, 0.5, 8), {64, 5000});
  const xf::array<float, 2> f(few.shape());
  CHECK_FALSE(xf::detail::rows_with_statistics(f, few / xf::lazy::sum(few, 1, xf::keepdims), "test"));  // 64 rows: too few
  const auto twice = xf::lazy::mean(x, 1, xf::keepdims);
  CHECK(one_kernel((x - twice) / twice));  // one reduction used twice
  CHECK_FALSE(xf::detail::rows_with_statistics(y(xf::all, xf::slice(xf::_, xf::_, -1)),
                                               x - xf::lazy::mean(x, 1, xf::keepdims), "test"));  // destination reversed
  const auto done = xf::lazy::mean(x, 1, xf::keepdims);
  const xf::array<float, 2> first = x - done;
  CHECK_FALSE(one_kernel(x - done));  // already computed: read
  const auto long_rows = xf::asarray<float>(xf_test::uniform<float>(200 * 70000, 0.5, 8), {200, 70000});
  const xf::array<float, 2> z(long_rows.shape());
  CHECK_FALSE(xf::detail::rows_with_statistics(z, long_rows / xf::lazy::sum(long_rows, 1, xf::keepdims), "test"));
  // What did not run as one kernel reserved nothing: it still gives the right values.
  const xf::array<float, 2> shares = long_rows / xf::lazy::sum(long_rows, 1, xf::keepdims);
  CHECK(std::abs(xf::sum(shares, 1).get().at(7) - 1.0f) < 1e-4f);
}
