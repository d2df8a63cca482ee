// Convolution and correlation on device arrays: every kernel (1-D tiled, 2-D tiled, direct for
// large filters) against the definitions (tests/common/signal_cases.hpp).
#include "../common/signal_cases.hpp"

using namespace xf_test;

TEST_CASE("convolve, correlate, convolve2d, correlate2d give NumPy's and SciPy's values on device arrays", "[gpu][signal]") {
  signal_known_values<xf::device>();
}

TEST_CASE("convolution of random operands on device arrays, every kernel, mode and type", "[gpu][signal]") {
  signal_random<xf::device, float>(300, 257, 15, 15, false);      // 2-D tiled, several blocks each way
  signal_random<xf::device, double>(131, 70, 7, 4, true);         // a transposed view as input
  signal_random<xf::device, xf::complex64>(65, 40, 3, 5, false);
  signal_random<xf::device, xf::complex128>(33, 35, 9, 9, false);
  signal_random<xf::device, double>(70, 90, 60, 70, false);       // too large for shared memory: direct
  signal_random<xf::device, double>(1, 5000, 1, 31, false);       // one row: the 1-D kernel
  signal_random<xf::device, float>(1, 3, 1, 4000, false);         // 1-D with the filter the longer
  signal_errors<xf::device>();
}

TEST_CASE("1-D convolution of a long signal on the device matches the definition", "[gpu][signal]") {
  signal_random<xf::device, double>(1, 100003, 1, 15, false);
  signal_random<xf::device, xf::complex128>(1, 20011, 1, 64, true);
}
