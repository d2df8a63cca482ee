// Fourier transforms on the device against raw cuFFT on the same buffers (a plan made once with
// cufftPlanMany, as an application would), against the operand materialised first, against
// cuFFT's LTO callbacks (xf::set_fft_callbacks(true)), against the same statement with xfuse's own
// transform kernel switched off (cufft_path: xf::set_fft_line_kernels(false)), and against CuPy and
// PyTorch (bench/cupy_fft.py, same cases, same run). vs_X = X's time / xfuse's default time
// (above 1: xfuse is faster). GB/s counts each input and output once.
#include <cufft.h>

#include <xfuse/fft.hpp>

#include "bench_util.cuh"

using namespace xf_bench;

namespace {

void check_fft(cufftResult r, const char* what) {
  if (r != CUFFT_SUCCESS) {
    std::fprintf(stderr, "%s failed with cufftResult %d\n", what, static_cast<int>(r));
    std::abort();
  }
}

// A raw cuFFT plan of `rank` dimensions n (batch of them, C-contiguous), on the current stream.
struct raw_plan {
  cufftHandle handle{};
  raw_plan(cufftType type, std::vector<int> n, int batch) {
    check_fft(cufftPlanMany(&handle, static_cast<int>(n.size()), n.data(), nullptr, 1, 0, nullptr, 1, 0, type, batch), "cufftPlanMany");
    check_fft(cufftSetStream(handle, xf::current_stream().handle()), "cufftSetStream");
  }
  ~raw_plan() { cufftDestroy(handle); }
};

// Wall time (ms) of the first call of `f` with an empty plan cache: planning included.
template <class F>
double first_call_ms(F&& f) {
  xf::fft_plan_cache().clear();
  xf::synchronize();
  const auto t0 = std::chrono::steady_clock::now();
  f();
  xf::synchronize();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The median time of `f` with xfuse's own transform kernel switched off (on cuFFT), which is then
// switched on again.
template <class F>
double on_cufft_ms(F&& f) {
  xf::set_fft_line_kernels(false);
  const double ms = median_ms(f, 21);
  xf::set_fft_line_kernels(true);
  return ms;
}

// A transform statement as users write it: `statement()` (a fresh description each call) into
// `out` as a fresh result (returned, the benchmark's ms), into the preallocated `out`
// (`into_ms`), inside a further expression with `x` (`in_expression_ms`), and fresh on cuFFT
// (`cufft_path_ms`, `vs_cufft_path`).
template <class Out, class X, class Statement>
double statement_forms(benchmark::State& state, Out& out, const X& x, const Statement& statement) {
  const double ms = median_ms([&] { out = statement(); }, 21);
  state.counters["into_ms"] = median_ms([&] { out.assign(statement()); }, 21);
  state.counters["in_expression_ms"] = median_ms([&] { out.assign(statement() * 0.5f + x); }, 21);
  compare(state, "cufft_path", on_cufft_ms([&] { out = statement(); }), ms);
  return ms;
}

// The median time of `f` on cuFFT with the operands evaluated in its loads (LTO callbacks), which
// are then turned off again.
template <class F>
double with_callbacks_ms(F&& f) {
  const bool lines = xf::fft_line_kernels();
  xf::set_fft_line_kernels(false);
  xf::set_fft_callbacks(true);
  const double ms = median_ms(f, 21);
  xf::set_fft_callbacks(false);
  xf::set_fft_line_kernels(lines);
  return ms;
}

// rfft of 2^26 float32 (one transform).
void rfft_1d(benchmark::State& state) {
  const xf::index_t n = xf::index_t{1} << 26;
  const auto x = random_array<float>(n);
  xf::array<xf::complex64, 1> y({n / 2 + 1});
  raw_plan raw(CUFFT_R2C, {static_cast<int>(n)}, 1);
  const double raw_ms = median_ms([&] { check_fft(cufftExecR2C(raw.handle, x.data(), reinterpret_cast<cufftComplex*>(y.data())), "exec"); }, 21);
  const double ms = median_ms([&] { y = xf::rfft(x); }, 21);
  report(state, ms, n * 4.0 + (n / 2 + 1) * 8.0);
  compare(state, "raw", raw_ms, ms);
}

// rfft2 of 4096^2 float32.
void rfft_2d(benchmark::State& state) {
  const xf::index_t side = 4096;
  const xf::array<float, 2> x = random_array<float>(side * side).reshape({side, side});
  xf::array<xf::complex64, 2> y({side, side / 2 + 1});
  raw_plan raw(CUFFT_R2C, {static_cast<int>(side), static_cast<int>(side)}, 1);
  const double raw_ms = median_ms([&] { check_fft(cufftExecR2C(raw.handle, x.data(), reinterpret_cast<cufftComplex*>(y.data())), "exec"); }, 21);
  const double ms = median_ms([&] { y = xf::rfft2(x); }, 21);
  report(state, ms, side * side * 4.0 + side * (side / 2 + 1) * 8.0);
  compare(state, "raw", raw_ms, ms);
}

// rfft along the rows of 4096^2 float32 (4096 transforms of 4096 points), fresh and into a
// preallocated array.
void rfft_rows(benchmark::State& state) {
  const xf::index_t side = 4096, half = side / 2 + 1;
  const xf::array<float, 2> x = random_array<float>(side * side).reshape({side, side});
  xf::array<xf::complex64, 2> y({side, half});
  raw_plan raw(CUFFT_R2C, {static_cast<int>(side)}, static_cast<int>(side));
  const double raw_ms = median_ms([&] { check_fft(cufftExecR2C(raw.handle, x.data(), reinterpret_cast<cufftComplex*>(y.data())), "exec"); }, 21);
  const double ms = median_ms([&] { y = xf::rfft(x); }, 21);
  const double into_ms = median_ms([&] { y.assign(xf::rfft(x)); }, 21);
  const double cufft_ms = on_cufft_ms([&] { y = xf::rfft(x); });
  const double scaled_ms = median_ms([&] { y = xf::rfft(x * 2.0f - 1.0f); }, 21);
  const double scaled_cufft_ms = on_cufft_ms([&] { y = xf::rfft(x * 2.0f - 1.0f); });
  report(state, ms, side * side * 4.0 + side * half * 8.0);
  compare(state, "raw", raw_ms, ms);
  state.counters["into_ms"] = into_ms;
  compare(state, "cufft_path", cufft_ms, ms);
  state.counters["expr_ms"] = scaled_ms;
  state.counters["expr_vs_cufft_path"] = scaled_cufft_ms / scaled_ms;
}

// The power spectrum abs(fft(x))^2 of 2^26 complex64 in rows of 4096, the square in the
// transform's store, against cuFFT then a separate pass.
void power_rows(benchmark::State& state) {
  const xf::index_t rows = 16384, side = 4096;
  const xf::array<xf::complex64, 2> x = random_array<float>(rows * side).reshape({rows, side}).astype<xf::complex64>();
  xf::array<float, 2> p({rows, side});
  xf::array<xf::complex64, 2> spectrum({rows, side});
  raw_plan raw(CUFFT_C2C, {static_cast<int>(side)}, static_cast<int>(rows));
  const double raw_ms = median_ms([&] {
    check_fft(cufftExecC2C(raw.handle, const_cast<cufftComplex*>(reinterpret_cast<const cufftComplex*>(x.data())),
                           reinterpret_cast<cufftComplex*>(spectrum.data()), CUFFT_FORWARD), "exec");
    p.assign(xf::square(xf::abs(spectrum)));
  }, 21);
  const double ms = median_ms([&] { p.assign(xf::square(xf::abs(xf::fft(x)))); }, 21);
  const double cufft_ms = on_cufft_ms([&] { p.assign(xf::square(xf::abs(xf::fft(x)))); });
  report(state, ms, rows * side * 8.0 + rows * side * 4.0);
  compare(state, "raw_then_pass", raw_ms, ms);
  compare(state, "cufft_path", cufft_ms, ms);
}

// A filter along rows: irfft(rfft(x) * H) of 4096^2 float32, H one row (broadcast) or a full
// spectrum. Fused: H is applied in the inverse transform's loads. Raw: R2C then C2R in place, no
// filter at all (the floor). Unfused: callbacks off (the product evaluated first), and as a user
// would write it without fusion (the product materialised, then irfft of it).
void filter_rows(benchmark::State& state, bool full_h) {
  const xf::index_t side = 4096, half = side / 2 + 1;
  const xf::array<float, 2> x = random_array<float>(side * side).reshape({side, side});
  const xf::array<xf::complex64, 2> H = random_array<float>(full_h ? side * half : half)
                                            .reshape({full_h ? side : 1, half})
                                            .astype<xf::complex64>();
  xf::array<xf::complex64, 2> spectrum({side, half});
  xf::array<float, 2> out({side, side});
  raw_plan forward(CUFFT_R2C, {static_cast<int>(side)}, static_cast<int>(side));
  raw_plan inverse(CUFFT_C2R, {static_cast<int>(side)}, static_cast<int>(side));
  const double raw_ms = median_ms([&] {
    check_fft(cufftExecR2C(forward.handle, x.data(), reinterpret_cast<cufftComplex*>(spectrum.data())), "exec");
    check_fft(cufftExecC2R(inverse.handle, reinterpret_cast<cufftComplex*>(spectrum.data()), out.data()), "exec");
  }, 21);
  const double ms = statement_forms(state, out, x, [&] { return xf::irfft(xf::rfft(x) * H); });
  xf::set_fft_line_kernels(false);
  xf::set_fft_callbacks(true);
  const double plan_ms = first_call_ms([&] { out = xf::irfft(xf::rfft(x) * H); });
  xf::set_fft_callbacks(false);
  const double callbacks_ms = with_callbacks_ms([&] { out = xf::irfft(xf::rfft(x) * H); });
  xf::set_fft_line_kernels(true);
  const double written_ms = median_ms([&] {
    const xf::array<xf::complex64, 2> product = xf::rfft(x) * H;
    out = xf::irfft(product);
  }, 21);
  report(state, ms, 2 * side * side * 4.0 + (full_h ? side * half * 8.0 : 0));
  compare(state, "raw", raw_ms, ms);
  compare(state, "callbacks", callbacks_ms, ms);
  compare(state, "materialised", written_ms, ms);
  state.counters["callbacks_first_call_ms"] = plan_ms;
}

// A 2-D filter: irfft2(rfft2(x) * H) of 4096^2 float32, H a full 4096 x 2049 spectrum, fresh,
// into a preallocated array and inside an expression; against raw cuFFT (2-D R2C, the product
// as a separate pass, 2-D C2R) and the same statements on cuFFT.
void filter_2d(benchmark::State& state) {
  const xf::index_t side = 4096, half = side / 2 + 1;
  const xf::array<float, 2> x = random_array<float>(side * side).reshape({side, side});
  const xf::array<xf::complex64, 2> H = random_array<float>(side * half).reshape({side, half}).astype<xf::complex64>();
  xf::array<xf::complex64, 2> spectrum({side, half});
  xf::array<float, 2> out({side, side});
  raw_plan forward(CUFFT_R2C, {static_cast<int>(side), static_cast<int>(side)}, 1);
  raw_plan inverse(CUFFT_C2R, {static_cast<int>(side), static_cast<int>(side)}, 1);
  const double raw_ms = median_ms([&] {
    check_fft(cufftExecR2C(forward.handle, x.data(), reinterpret_cast<cufftComplex*>(spectrum.data())), "exec");
    spectrum.assign(spectrum * H);
    check_fft(cufftExecC2R(inverse.handle, reinterpret_cast<cufftComplex*>(spectrum.data()), out.data()), "exec");
  }, 21);
  const double ms = statement_forms(state, out, x, [&] { return xf::irfft2(xf::rfft2(x) * H); });
  report(state, ms, 2 * side * side * 4.0 + side * half * 8.0);
  compare(state, "raw", raw_ms, ms);
}

// Windowed transforms: fft(x * w) of 4096 rows of 4096 complex64, w one row.
void windowed_rows(benchmark::State& state) {
  const xf::index_t side = 4096;
  const xf::array<xf::complex64, 2> x = random_array<float>(side * side).reshape({side, side}).astype<xf::complex64>();
  const xf::array<float, 1> w = random_array<float>(side, 0, 1);
  xf::array<xf::complex64, 2> y({side, side});
  raw_plan raw(CUFFT_C2C, {static_cast<int>(side)}, static_cast<int>(side));
  const double raw_ms = median_ms([&] {
    check_fft(cufftExecC2C(raw.handle, reinterpret_cast<cufftComplex*>(x.data()), reinterpret_cast<cufftComplex*>(y.data()), CUFFT_FORWARD),
              "exec");
  }, 21);
  const double ms = median_ms([&] { y = xf::fft(x * w); }, 21);
  const double materialised_ms = median_ms([&] {
    const xf::array<xf::complex64, 2> product = x * w;
    y = xf::fft(product);
  }, 21);
  const double callbacks_ms = with_callbacks_ms([&] { y = xf::fft(x * w); });
  report(state, ms, 2 * side * side * 8.0);
  compare(state, "raw", raw_ms, ms);
  compare(state, "callbacks", callbacks_ms, ms);
  compare(state, "materialised", materialised_ms, ms);
}

// scipy.signal.fftconvolve of a 2048^2 image with a 255^2 kernel, float64, 'full'.
void fftconvolve_2d(benchmark::State& state) {
  const xf::index_t side = 2048, k = 255;
  const xf::array<double, 2> image = random_array<double>(side * side).reshape({side, side});
  const xf::array<double, 2> kernel = random_array<double>(k * k).reshape({k, k});
  xf::array<double, 2> out;
  const double ms = median_ms([&] { out = xf::fftconvolve(image, kernel); }, 21);
  const double callbacks_ms = with_callbacks_ms([&] { out = xf::fftconvolve(image, kernel); });
  report(state, ms, (side * side + k * k + (side + k - 1) * (side + k - 1)) * 8.0);
  compare(state, "callbacks", callbacks_ms, ms);
}

}  // namespace

BENCHMARK(rfft_1d)->Name("fft/rfft/2^26/f32")->UseManualTime()->Iterations(1);
BENCHMARK(rfft_2d)->Name("fft/rfft2/4096^2/f32")->UseManualTime()->Iterations(1);
BENCHMARK(filter_2d)->Name("fft/irfft2(rfft2(x)*H)/4096^2/f32")->UseManualTime()->Iterations(1);
BENCHMARK(rfft_rows)->Name("fft/rfft/4096^2-rows/f32")->UseManualTime()->Iterations(1);
BENCHMARK(power_rows)->Name("fft/abs(fft(x))^2/16384x4096/c64")->UseManualTime()->Iterations(1);
BENCHMARK_CAPTURE(filter_rows, row, false)->Name("fft/irfft(rfft(x)*H)/4096^2/H-row/f32")->UseManualTime()->Iterations(1);
BENCHMARK_CAPTURE(filter_rows, full, true)->Name("fft/irfft(rfft(x)*H)/4096^2/H-full/f32")->UseManualTime()->Iterations(1);
BENCHMARK(windowed_rows)->Name("fft/fft(x*w)/4096^2/c64")->UseManualTime()->Iterations(1);
BENCHMARK(fftconvolve_2d)->Name("fft/fftconvolve/2048^2*255^2/f64")->UseManualTime()->Iterations(1);

XF_BENCH_MAIN()
