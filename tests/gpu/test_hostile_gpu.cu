// Hostile and degenerate arguments on device arrays (tests/common/hostile_cases.hpp).
#include "../common/hostile_cases.hpp"

using namespace xf_test::hostile;

TEST_CASE("softmax and log_softmax refuse an empty axis; logsumexp of nothing is -inf: device arrays", "[gpu][errors][softmax]") {
  rows_along_empty_axes<xf::device>();
}

TEST_CASE("NaN and infinite bounds, zero spacings and unknown norms: NumPy's answer or an error: device arrays", "[gpu][errors]") {
  bounds_and_spacings<xf::device>();
}

TEST_CASE("an empty list of quantiles gives an empty result: device arrays", "[gpu][quantile]") {
  empty_quantile_lists<xf::device>();
}

TEST_CASE("lengths whose arithmetic passes 2^63 are refused, never overflowed: device arrays", "[gpu][errors]") {
  overflowing_lengths<xf::device>();
}

TEST_CASE("split counts whose bookkeeping cannot fit are refused at once: device arrays", "[gpu][errors][manip]") {
  section_counts<xf::device>();
}
