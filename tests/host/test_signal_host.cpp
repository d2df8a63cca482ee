// Convolution and correlation on host arrays (tests/common/signal_cases.hpp).
#include "../common/signal_cases.hpp"

using namespace xf_test;

TEST_CASE("convolve, correlate, convolve2d, correlate2d give NumPy's and SciPy's values on host arrays", "[host][signal]") {
  signal_known_values<xf::host>();
}

TEST_CASE("convolution of random operands on host arrays, every mode and type", "[host][signal]") {
  signal_random<xf::host, float>(37, 29, 5, 7, false);
  signal_random<xf::host, double>(20, 33, 15, 15, true);
  signal_random<xf::host, xf::complex64>(9, 12, 4, 3, false);
  signal_random<xf::host, xf::complex128>(6, 5, 8, 9, true);  // the filter larger than the input
  signal_errors<xf::host>();
}

TEST_CASE("doc example: convolution", "[host][signal][docs]") {
  // example-begin signal
  const auto x = xf::asarray<double, xf::host>({1, 2, 3, 4, 5});
  const auto taps = xf::asarray<double, xf::host>({0.25, 0.5, 0.25});
  const auto smooth = xf::convolve(x, taps, xf::conv_mode::same);  // np.convolve(x, taps, 'same')
  const auto image = xf::asarray<double, xf::host>(std::vector<double>(64, 1.0), {8, 8});
  const auto box = xf::asarray<double, xf::host>(std::vector<double>(9, 1.0 / 9), {3, 3});
  const auto blurred = xf::convolve2d(image, box, xf::conv_mode::same);  // scipy.signal.convolve2d, zero fill
  // example-end
  CHECK(smooth.at(2) == 3.0);
  CHECK(std::abs(blurred.at(4, 4) - 1.0) < 1e-15);
  CHECK(std::abs(blurred.at(0, 0) - 4.0 / 9) < 1e-15);
}
