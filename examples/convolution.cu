// convolution: the CuPy tutorial's convolution demo: a 2048 x 2048 grid of deltas blurred by a
// 15 x 15 Gaussian (cupyx.scipy.signal.convolve2d(image, kernel, mode='same'); here
// xf::convolve2d), and the 1-D version (cp.convolve(x, taps, 'same') of 4M samples and 15 taps;
// here xf::convolve). CPU (host arrays, like NumPy/SciPy) against GPU, timed with xf::benchmark.
//
// Without a GPU only the CPU side runs.
#include <cstdio>

#include <xfuse/benchmark.hpp>
#include <xfuse/random.hpp>
#include <xfuse/reduce.hpp>
#include <xfuse/signal.hpp>

namespace {

using image_t = xf::array<float, 2, xf::host>;
using signal_t = xf::array<float, 1, xf::host>;

template <class A, class B>
double max_abs_diff(const A& a, const B& b) {
  return static_cast<double>(xf::max(xf::abs(a - b)).item());
}

double mean_us(const xf::benchmark_result& r) { return r.gpu_us.empty() ? r.cpu().mean : r.gpu().mean; }

}  // namespace

int main() {
  const bool gpu = xf::device::count() > 0;
  if (!gpu) std::printf("convolution: no GPU here, so only the CPU (host arrays) side runs.\n");
  xf::random::generator g(42);

  // Deltas of random height at rows and columns 32, 96, 160, ... (64 apart: the blurs do not meet).
  const signal_t on_grid = (xf::arange<int>(2048) % 64 == 32).astype<float>();
  const image_t image = on_grid(xf::all, xf::newaxis) * on_grid(xf::newaxis, xf::all) * xf::random::uniform<float>({2048, 2048}, g, 0.5, 1.5);
  // Gaussian taps (sigma 2.5), normalised; the 2-D kernel is their outer product.
  const signal_t t = xf::exp(-xf::square(xf::arange<float>(15) - 7) / (2 * 2.5f * 2.5f));
  const signal_t taps = t / xf::sum(t);
  const image_t gauss = taps(xf::all, xf::newaxis) * taps(xf::newaxis, xf::all);
  const signal_t x = xf::random::normal<float>({1 << 22}, g);

  const xf::benchmark_options cpu_opt{.n_repeat = 10, .n_warmup = 1, .max_duration = 2.0, .gpu = false};
  image_t blurred;
  signal_t smoothed;
  const auto cpu2 = xf::benchmark("convolve2d cpu", [&] { blurred = xf::convolve2d(image, gauss, xf::conv_mode::same); }, cpu_opt);
  const auto cpu1 = xf::benchmark("convolve cpu", [&] { smoothed = xf::convolve(x, taps, xf::conv_mode::same); }, cpu_opt);

  // Checks: each delta becomes its height times the Gaussian; one 1-D output by hand
  // (mode 'same' with 15 taps: y[i] = sum_k x[i + 7 - k] taps[k]).
  const double blob = max_abs_diff(blurred(xf::slice(25, 40), xf::slice(25, 40)), image(32, 32).item() * gauss);
  double by_hand = 0;
  for (int k = 0; k < 15; ++k) by_hand += double(x.at(1000 + 7 - k)) * taps.at(k);
  std::printf("2-D: 2048 x 2048 float32 * 15 x 15 Gaussian, mode same; 1-D: %d samples * 15 taps, mode same\n", 1 << 22);
  std::printf("check: max |blur of the delta at (32, 32) - height * gaussian| = %.3g; y[1000] = %.7g, by hand %.7g\n", blob,
              smoothed.at(1000), by_hand);
  if (!gpu) {
    std::printf("%s\n%s\n", cpu2.to_string().c_str(), cpu1.to_string().c_str());
    return 0;
  }

  const xf::array<float, 2> d_image = xf::asarray(image), d_gauss = xf::asarray(gauss);
  const xf::array<float, 1> d_x = xf::asarray(x), d_taps = xf::asarray(taps);
  xf::array<float, 2> d_blurred;
  xf::array<float, 1> d_smoothed;
  const xf::benchmark_options gpu_opt{.n_repeat = 100, .n_warmup = 10};
  const auto gpu2 = xf::benchmark("convolve2d gpu", [&] { d_blurred = xf::convolve2d(d_image, d_gauss, xf::conv_mode::same); }, gpu_opt);
  const auto gpu1 = xf::benchmark("convolve gpu", [&] { d_smoothed = xf::convolve(d_x, d_taps, xf::conv_mode::same); }, gpu_opt);
  std::printf("%s\n%s\n  2-D: GPU %.0fx faster; max |gpu - cpu| = %.3g\n", cpu2.to_string().c_str(), gpu2.to_string().c_str(),
              mean_us(cpu2) / mean_us(gpu2), max_abs_diff(d_blurred.get(), blurred));
  std::printf("%s\n%s\n  1-D: GPU %.0fx faster; max |gpu - cpu| = %.3g\n", cpu1.to_string().c_str(), gpu1.to_string().c_str(),
              mean_us(cpu1) / mean_us(gpu1), max_abs_diff(d_smoothed.get(), smoothed));
  return 0;
}
