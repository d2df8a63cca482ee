// Fourier transforms of host arrays (tests/common/fft_cases.hpp) against NumPy's values and the
// definitions in long double.
#include "../common/fft_cases.hpp"

using namespace xf_test;

TEST_CASE("fft, rfft, irfft, hfft, fftn, fftfreq, fftshift give NumPy's values on host arrays", "[host][fft]") {
  fft_known_values<xf::host>();
}

TEST_CASE("host transforms of random inputs equal the definitions: lengths, norms, n", "[host][fft]") {
  for (xf::index_t m : {1, 2, 3, 5, 7, 8, 12, 17, 30, 64, 97, 128, 210, 257}) {
    fft_one_axis<xf::host, double>(m, std::nullopt);
    fft_one_axis<xf::host, float>(m, std::nullopt);
  }
  fft_one_axis<xf::host, double>(8, 12);  // padded
  fft_one_axis<xf::host, double>(12, 5);  // truncated
  fft_one_axis<xf::host, float>(1000, 1331);
}

TEST_CASE("host transforms over axes, several axes, views and expressions", "[host][fft]") {
  fft_axes_and_views<xf::host, double>();
  fft_axes_and_views<xf::host, float>();
}

TEST_CASE("host transforms of NaN, inf, empty inputs, and bad arguments", "[host][fft]") {
  fft_special_inputs<xf::host>();
}

TEST_CASE("fftconvolve of host arrays equals the definition in every mode and method", "[host][fft]") {
  fftconvolve_cases<xf::host>();
}

TEST_CASE("the layout cuFFT reads a view with, or none", "[host][fft]") {
  using xf::detail::advanced_layout;
  // A C-contiguous batch of rows: stride 1, distance = row length.
  auto rows = advanced_layout<2>({8, 16}, {16, 1}, 1);
  REQUIRE(rows);
  CHECK((rows->n[0] == 16 && rows->stride == 1 && rows->dist == 16 && rows->batch == 8));
  // Columns of a matrix (axis 0 moved last): stride = row length, distance 1.
  auto cols = advanced_layout<2>({16, 8}, {1, 16}, 1);
  REQUIRE(cols);
  CHECK((cols->stride == 16 && cols->dist == 1 && cols->batch == 16));
  // Two nested transformed axes inside padded rows: embed = the row pitch.
  auto nested = advanced_layout<3>({4, 6, 10}, {120, 12, 1}, 2);
  REQUIRE(nested);
  CHECK((nested->embed[1] == 12 && nested->dist == 120 && nested->batch == 4));
  // Batch dimensions that do not fold into one stride, a negative stride, a broadcast: none.
  CHECK(!advanced_layout<3>({3, 4, 5}, {20, 1, 4}, 1));
  CHECK(!advanced_layout<2>({3, 5}, {5, -1}, 1));
  CHECK(!advanced_layout<2>({3, 5}, {0, 1}, 1));
  // Rows narrower than the pitch they claim to nest in: none.
  CHECK(!advanced_layout<2>({4, 10}, {8, 1}, 2));
  // Size-1 batch dimensions are skipped whatever their strides.
  auto single = advanced_layout<3>({1, 3, 7}, {999, 7, 1}, 1);
  REQUIRE(single);
  CHECK((single->batch == 3 && single->dist == 7));
}

TEST_CASE("doc example: Fourier transforms", "[host][fft][docs]") {
  // example-begin fft
  const auto x = xf::asarray<double, xf::host>({1, 2, 3, 4});
  const auto spectrum = xf::fft(x);                      // np.fft.fft(x): [10, -2+2j, -2, -2-2j]
  const auto half = xf::rfft(x);                         // the 3 non-negative frequencies
  const auto back = xf::irfft(half, 4);                  // x again (1/n on the inverse: norm "backward")
  const auto ortho = xf::fft(x, 8, -1, xf::fft_norm::ortho);  // zero-padded to 8 points, 1/sqrt(8)
  const xf::array<double, 1, xf::host> f = xf::fftfreq(4, 0.5);  // [0, 0.5, -1, -0.5]
  const auto image = xf::asarray<double, xf::host>(std::vector<double>(64, 1.0), {8, 8});
  const auto filtered = xf::irfft2(xf::rfft2(image) * 0.5, {8, 8});  // a filter in the frequency domain
  const auto smooth = xf::fftconvolve(image, xf::asarray<double, xf::host>(std::vector<double>(9, 1.0 / 9), {3, 3}),
                                      xf::conv_mode::same);  // scipy.signal.fftconvolve
  // example-end
  CHECK(spectrum.at(1) == xf::complex128(-2, 2));
  CHECK(half.shape(0) == 3);
  CHECK(std::abs(back.at(3) - 4.0) < 1e-14);
  CHECK(ortho.shape(0) == 8);
  CHECK(f.at(2) == -1.0);
  CHECK(std::abs(filtered.at(3, 3) - 0.5) < 1e-14);
  CHECK(std::abs(smooth.at(4, 4) - 1.0) < 1e-14);
}
