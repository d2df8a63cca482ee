// Rearranging, splitting and creating on device arrays (tests/common/reshaping_cases.hpp).
#include "../common/reshaping_cases.hpp"

using namespace xf_test::reshaping;

TEST_CASE("rot90, moveaxis, split, array_split, hsplit, vsplit, column_stack, dstack and append give NumPy's answers on device arrays", "[manip][gpu][numpy]") {
  views_and_splits_match_numpy<xf::device>();
}

TEST_CASE("tril, triu, diag, diagflat, logspace and geomspace give NumPy's answers on device arrays", "[manip][gpu][numpy]") {
  triangles_and_diagonals_match_numpy<xf::device>();
}

TEST_CASE("take_along_axis, select and compress give NumPy's answers on device arrays", "[manip][gpu][numpy]") {
  gathers_and_selections_match_numpy<xf::device>();
}

TEST_CASE("pad modes wrap, reflect and symmetric, and constants per side, give NumPy's answers on device arrays", "[manip][gpu][numpy]") {
  pad_modes_match_numpy<xf::device>();
}

TEST_CASE("pad modes linear_ramp, maximum, minimum, mean and median give NumPy's answers on device arrays", "[manip][gpu][numpy]") {
  pad_ramp_and_statistics_match_numpy<xf::device>();
}

TEST_CASE("convolve2d and correlate2d boundaries symm, wrap and fill values give SciPy's answers on device arrays", "[signal][gpu]") {
  convolution_boundaries_match_scipy<xf::device>();
}
