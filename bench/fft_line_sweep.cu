// The sweep behind fft/line_table.hpp: xfuse's own transform kernel (fft/line_kernel.cuh) at each
// kernel shape (elements a thread holds, lines a block takes) for rows of float32 and float64,
// 2^24 points in all (2^23 in float64), as rfft and as the round trip irfft(rfft(x) * H); first
// (marked *) the shape the kernel uses: line_table.hpp's, else cuFFTDx's suggestion. Real
// transforms run folded (an n/2-point complex FFT a line), so `ept` is cuFFTDx's ElementsPerThread
// of the real transform (a thread holds ept/2 complex values). CUDA-event medians; vs_copy is the
// copy of the bytes each statement moves (read x, write the result), measured in the same run;
// err is the largest difference from the same statement on cuFFT over the largest magnitude.
// XF_SWEEP_PART (0-3) builds a quarter of the cases (to compile them side by side).
#include <cstdio>
#include <string>

#include <xfuse/fft.hpp>
#include <xfuse/reduce.hpp>

#include "timing.cuh"

#if defined(XFUSE_WITH_MATHDX)
using namespace xf_bench;

namespace {

template <int Ept, int Lines, int ThreadsPerSM = 0>
struct shape {
  static constexpr int ept = Ept, lines = Lines, threads_per_sm = ThreadsPerSM;
};

double copy_ms(std::size_t bytes) {
  const xf::array<unsigned char, 1> a = xf::full<unsigned char>({static_cast<xf::index_t>(bytes)}, 1), b({static_cast<xf::index_t>(bytes)});
  const cudaStream_t s = xf::current_stream().handle();
  return median_ms([&] { check(cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice, s), "copy"); }, 21);
}

template <class Real, int L, class Shape>
void one(const char* tag, const xf::array<Real, 2>& x, const xf::array<xf::complex<Real>, 1>& h, double copy_r, double copy_rt) {
  using namespace xf::detail;
  using cufftdx::fft_direction;
  using cufftdx::fft_type;
  const xf::index_t rows = x.shape()[0];
  xf::array<xf::complex<Real>, 2> spectrum({rows, L / 2 + 1});
  xf::array<Real, 2> y({rows, L});
  const int cur = xf::device::current_id();
  const cudaStream_t s = xf::current_stream().handle();
  using Fwd = line_fft<Real, L, fft_type::r2c, fft_direction::forward, Shape>;
  using Inv = line_fft<Real, L, fft_type::c2r, fft_direction::inverse, Shape>;
  const auto pr = make_row_plan(x, 1, row_values<Real, Real, xf::complex<Real>>{}, spectrum.data(), spectrum.strides());
  const double r_ms = median_ms([&] { launch_line_fft<Fwd, void, Shape::threads_per_sm>(pr, no_middle{}, no_epilogue{}, 1.0, 1.0, false, cur, s); }, 21);
  // The spectrum described and never computed: the middle reads it on chip.
  const produced_fft<fft_kind::real_to_complex, xf::array<Real, 2>> spec{{}, x, 1, L, false, 1.0, "sweep"};
  const auto product = spec * h;
  const in_kernel_mark mark(*spec.state, cur);
  const auto mid = make_row_epilogue(product, product.shape(), 1, y.strides(), cur, "sweep");
  const auto pt = make_row_plan(x, 1, row_values<Real, Real, Real>{}, y.data(), y.strides());
  const double t_ms = median_ms([&] { launch_line_fft<Fwd, Inv, Shape::threads_per_sm>(pt, mid, no_epilogue{}, 1.0 / L, 1.0, false, cur, s); }, 21);
  // Both results against the same statements on cuFFT.
  xf::set_fft_line_kernels(false);
  const xf::array<xf::complex<Real>, 2> spectrum_ref = xf::rfft(x);
  const xf::array<Real, 2> y_ref = xf::irfft(xf::rfft(x) * h, L);
  xf::set_fft_line_kernels(true);
  const double r_err = xf::max(xf::abs(spectrum - spectrum_ref)).item() / xf::max(xf::abs(spectrum_ref)).item();
  const double t_err = xf::max(xf::abs(y - y_ref)).item() / xf::max(xf::abs(y_ref)).item();
  std::printf("%-7s L=%-6d ept=%-3d lines=%-2d threads=%-4d sm_threads=%-4d smem=%-6d rfft %.4f ms (%.3f of copy, err %.1e)  round trip %.4f ms (%.3f of copy, err %.1e)\n",
              tag, L, Fwd::elements_per_thread, Fwd::ffts_per_block, Fwd::block_dim.x * Fwd::block_dim.y, Shape::threads_per_sm,
              static_cast<int>(Fwd::shared_memory_size), r_ms, copy_r / r_ms, r_err, t_ms, copy_rt / t_ms, t_err);
}

template <class Real, int L, class... Shapes>
void sweep(const char* tag, xf::index_t points) {
  const xf::index_t rows = points / L;
  const xf::array<Real, 1> flat = (xf::sin(xf::arange<double>(points) * 0.7318) * 43758.5453).template astype<Real>();
  const xf::array<Real, 2> x = flat.reshape({rows, L});
  const xf::array<xf::complex<Real>, 1> h = xf::cos(xf::arange<double>(L / 2 + 1) * 0.01).template astype<xf::complex<Real>>();
  const double copy_r = copy_ms(static_cast<std::size_t>(rows * (L * sizeof(Real) + (L / 2 + 1) * 2 * sizeof(Real))) / 2);
  const double copy_rt = copy_ms(static_cast<std::size_t>(rows * L * sizeof(Real)));
  one<Real, L, xf::detail::line_suggestion<Real, L, cufftdx::fft_type::r2c>>((std::string(tag) + "*").c_str(), x, h, copy_r, copy_rt);
  (one<Real, L, Shapes>(tag, x, h, copy_r, copy_rt), ...);
}
}  // namespace

#ifndef XF_SWEEP_PART
#define XF_SWEEP_ALL 1
#define XF_SWEEP_PART -1
#endif
constexpr bool part(int k) {
#if XF_SWEEP_ALL
  return k >= 0;
#else
  return k == XF_SWEEP_PART;
#endif
}

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each line out as soon as it is measured
  // copy_ms moves its bytes once each way: a copy of b bytes reads b and writes b.
  // Beside each length's shapes, the table's shape uncapped (0) and at other threads a
  // multiprocessor must hold (the launch bounds' register cap).
  if constexpr (part(0)) {
    sweep<float, 256, shape<8, 4>, shape<8, 4, 2048>, shape<8, 8, 1536>, shape<16, 4, 1536>>("f32", 1 << 24);
    sweep<float, 512, shape<16, 2>, shape<16, 2, 2048>, shape<8, 4, 1536>, shape<16, 4, 1536>, shape<32, 2, 1024>>("f32", 1 << 24);
  }
  if constexpr (part(1)) {
    sweep<float, 1024, shape<16, 1>, shape<16, 1, 2048>, shape<8, 2, 1536>, shape<16, 2, 1536>, shape<32, 1, 1024>>("f32", 1 << 24);
    sweep<float, 2048, shape<16, 1>, shape<16, 1, 2048>, shape<16, 2, 1536>, shape<32, 1, 1024>>("f32", 1 << 24);
  }
  if constexpr (part(2)) {
    sweep<float, 4096, shape<16, 1>, shape<16, 1, 1280>, shape<16, 1, 2048>, shape<16, 2, 1536>, shape<32, 1>, shape<32, 1, 1024>>("f32",
                                                                                                                          1 << 24);
    sweep<float, 8192, shape<32, 1>>("f32", 1 << 24);
  }
  if constexpr (part(3)) {
    sweep<double, 256, shape<8, 4>, shape<8, 4, 1536>, shape<16, 4, 1024>>("f64", 1 << 23);
    sweep<double, 1024, shape<8, 2, 1024>, shape<16, 1>, shape<16, 1, 1024>, shape<16, 2>>("f64", 1 << 23);
    sweep<double, 4096, shape<8, 1, 1024>, shape<16, 1>, shape<16, 1, 768>, shape<32, 1>>("f64", 1 << 23);
  }
  return 0;
}
#else
int main() {
  std::printf("built without cuFFTDx (XFUSE_WITH_MATHDX): nothing to sweep\n");
  return 0;
}
#endif
