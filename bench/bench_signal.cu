// Convolution on the device against the copy ceiling and CuPy (bench/cupy_signal.py,
// same cases, same run). GB/s counts the input and output once each.
#include "bench_util.cuh"

using namespace xf_bench;

namespace {

// A 2048^2 grid of deltas convolved with a 15 x 15 Gaussian, 'same' (the CuPy tutorial's case).
template <class T>
void gaussian_2d(benchmark::State& state) {
  const xf::index_t side = 2048, k = 15;
  // Deltas every 64 pixels; values elsewhere small noise, so the kernel never sees only zeros.
  const xf::array<double, 1> deltas = xf::where(xf::fmod(xf::arange<double>(side * side), 64.0) == 0.0, 1.0, 0.0);
  const xf::array<T, 2> image = random_array<T>(side * side, 0, 1e-3).reshape({side, side}) + deltas.reshape({side, side}).template astype<T>();
  const xf::array<double, 1> t = xf::arange<double>(k) - (k - 1) / 2.0;
  const xf::array<double, 2> g2 = xf::exp(-(t.reshape({k, 1}) * t.reshape({k, 1}) + t.reshape({1, k}) * t.reshape({1, k})) / 8.0);
  const xf::array<T, 2> gauss = (g2 / xf::sum(g2).item()).template astype<T>();
  xf::array<T, 2> out;
  const double ms = median_ms([&] { out = xf::convolve2d(image, gauss, xf::conv_mode::same); }, 21);
  report(state, ms, 2.0 * side * side * sizeof(T));
  state.counters["GFLOPs"] = 2.0 * side * side * k * k / (ms * 1e6);
}

// 4M samples through a 15-tap filter, 'same'.
template <class T>
void fir_1d(benchmark::State& state) {
  const xf::index_t n = xf::index_t{1} << 22, taps = 15;
  const auto x = random_array<T>(n);
  const auto h = random_array<T>(taps, 0, 1);
  xf::array<T, 1> y;
  const double ms = median_ms([&] { y = xf::convolve(x, h, xf::conv_mode::same); }, 21);
  report(state, ms, 2.0 * n * sizeof(T));
}

}  // namespace

BENCHMARK(gaussian_2d<double>)->Name("signal/convolve2d/2048^2*15x15/f64")->UseManualTime()->Iterations(1);
BENCHMARK(gaussian_2d<float>)->Name("signal/convolve2d/2048^2*15x15/f32")->UseManualTime()->Iterations(1);
BENCHMARK(fir_1d<double>)->Name("signal/convolve/4M*15/f64")->UseManualTime()->Iterations(1);
BENCHMARK(fir_1d<float>)->Name("signal/convolve/4M*15/f32")->UseManualTime()->Iterations(1);

XF_BENCH_MAIN()
