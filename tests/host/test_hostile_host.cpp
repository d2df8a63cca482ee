// Hostile and degenerate arguments on host arrays (tests/common/hostile_cases.hpp).
#include "../common/hostile_cases.hpp"

using namespace xf_test::hostile;

TEST_CASE("softmax and log_softmax refuse an empty axis; logsumexp of nothing is -inf: host arrays", "[host][errors][softmax]") {
  rows_along_empty_axes<xf::host>();
}

TEST_CASE("NaN and infinite bounds, zero spacings and unknown norms: NumPy's answer or an error: host arrays", "[host][errors]") {
  bounds_and_spacings<xf::host>();
}

TEST_CASE("an empty list of quantiles gives an empty result: host arrays", "[host][quantile]") {
  empty_quantile_lists<xf::host>();
}

TEST_CASE("lengths whose arithmetic passes 2^63 are refused, never overflowed: host arrays", "[host][errors]") {
  overflowing_lengths<xf::host>();
}

TEST_CASE("split counts whose bookkeeping cannot fit are refused at once: host arrays", "[host][errors][manip]") {
  section_counts<xf::host>();
}
