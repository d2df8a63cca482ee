// SPDX-License-Identifier: Apache-2.0
// Transforms along one axis in xfuse's own kernel, on cuFFTDx (NVIDIA's device-side FFT, from the
// MathDx headers; an optional dependency, XFUSE_WITH_MATHDX). A block transforms whole lines held in
// registers and shared memory, so what surrounds the transform runs in the same kernel:
// - the input is any expression, read where the transform loads (a row plan, reduce/row_plan.hpp:
//   its `kept` layout walks the lines, its `reduced` one the points of a line), zero-padded or
//   truncated to the transform's length;
// - a round trip (a forward real transform, the spectrum through `middle`, an inverse real one)
//   keeps the line on chip between the two transforms: irfft(rfft(x) * H) is one kernel;
// - each output goes through `store` (exec/epilogue.hpp: nothing, or the consumer's expression)
//   on its way to memory.
// Covered lengths and kernel shapes: line_table.hpp. The host side: line_transform.hpp.
#pragma once

#include "line_table.hpp"

#if XF_CUDA_TU && defined(XFUSE_WITH_MATHDX)
#ifndef CUFFTDX_DISABLE_CUTLASS_DEPENDENCY
#define CUFFTDX_DISABLE_CUTLASS_DEPENDENCY
#endif
#include <cufftdx.hpp>

#include "../complex.hpp"
#include "../reduce/kernel.cuh"

namespace xf::detail {

inline constexpr bool have_line_kernels = true;

// Real transforms run in cuFFTDx's folded mode: the n real points of a line are n/2 complex ones
// (points 2k and 2k + 1 as one value), transformed by an n/2-point complex FFT and unfolded, half
// the work of real_mode::normal's full n-point complex transform (whose round trip took 1.2-1.4x
// the time on an H100, docs/performance.md).
template <cufftdx::fft_type Type, class Base>
constexpr auto line_real_mode(Base b) {
  if constexpr (Type == cufftdx::fft_type::c2c) return b;
  else return b + cufftdx::RealFFTOptions<cufftdx::complex_layout::natural, cufftdx::real_mode::folded>();
}

// cuFFTDx's description of one transform of `Length` points, in the shape line_table.hpp gives
// (elements a thread holds and lines a block takes, else cuFFTDx's suggestion for the kind).
template <class Real, int Length, cufftdx::fft_type Type>
struct line_suggestion {
  using probe = decltype(line_real_mode<Type>(cufftdx::Size<Length>() + cufftdx::Precision<Real>() + cufftdx::Type<Type>() +
                                              cufftdx::Direction<Type == cufftdx::fft_type::c2r ? cufftdx::fft_direction::inverse
                                                                                                : cufftdx::fft_direction::forward>() +
                                              cufftdx::SM<900>() + cufftdx::Block()));
  static constexpr line_shape table = line_shape_for<Real, Length, Type != cufftdx::fft_type::c2c>();
  static constexpr int ept = table.elements_per_thread ? table.elements_per_thread : probe::elements_per_thread;
  static constexpr int lines = table.lines_per_block ? table.lines_per_block : probe::suggested_ffts_per_block;
  static constexpr int threads_per_sm = table.threads_per_sm;
};
// The kernels of a real round trip share the forward one's shape, so the spectrum a thread holds
// after the first is the one the second reads.
template <class Real, int Length, cufftdx::fft_type Type, cufftdx::fft_direction Dir,
          class Shape = line_suggestion<Real, Length, Type == cufftdx::fft_type::c2r ? cufftdx::fft_type::r2c : Type>>
using line_fft = decltype(line_real_mode<Type>(cufftdx::Size<Length>() + cufftdx::Precision<Real>() + cufftdx::Type<Type>() +
                                               cufftdx::Direction<Dir>() + cufftdx::ElementsPerThread<Shape::ept>() +
                                               cufftdx::FFTsPerBlock<Shape::lines>() + cufftdx::SM<900>() + cufftdx::Block()));

// No spectrum step between transforms: one transform.
struct no_middle {};

template <class FFT>
inline constexpr bool line_real_in = cufftdx::type_of<FFT>::value == cufftdx::fft_type::r2c;
template <class FFT>
inline constexpr bool line_real_out = cufftdx::type_of<FFT>::value == cufftdx::fft_type::c2r;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
template <class Cx>
__device__ XF_FORCEINLINE auto to_xf(const Cx& v) {
  return complex<decltype(v.x)>(v.x, v.y);
}

// Loads a thread's points of line `kept_pos` (m points in memory; past them, zeros); a real
// input in pairs (folded: complex value i holds points 2r and 2r + 1). A complex input to a real
// inverse transform loses the imaginary parts of its first and (even lengths) middle points, as
// NumPy's irfft ignores them.
template <class FFT, class Plan>
__device__ XF_FORCEINLINE void load_line(const Plan& p, const index_t (&kept_pos)[Plan::slots], bool live, index_t m, bool conjugate,
                                         typename FFT::value_type* d) {
  using Cx = typename FFT::value_type;
  using Real = decltype(Cx{}.x);
  const unsigned t = threadIdx.x;
#pragma unroll
  for (unsigned i = 0; i < FFT::input_ept; ++i) {
    const unsigned r = t + i * FFT::stride;
    if (r >= FFT::input_length) continue;
    if constexpr (line_real_in<FFT>) {
      const index_t k = 2 * static_cast<index_t>(r);
      d[i] = Cx{live && k < m ? convert<Real>(mapped_linear(p, kept_pos, k)) : Real(0),
                live && k + 1 < m ? convert<Real>(mapped_linear(p, kept_pos, k + 1)) : Real(0)};
    } else {
      const complex<Real> v = live && r < m ? convert<complex<Real>>(mapped_linear(p, kept_pos, r)) : complex<Real>(0);
      const bool drop_imag = line_real_out<FFT> && (r == 0 || r * 2 == cufftdx::size_of<FFT>::value);
      d[i] = Cx{v.real(), drop_imag ? Real(0) : conjugate ? -v.imag() : v.imag()};
    }
  }
}

// The spectrum a thread holds through `mid` (a row epilogue over the spectrum's lines).
template <class FFT, class Middle>
__device__ XF_FORCEINLINE void through_middle(const Middle& mid, index_t o, decltype(typename FFT::value_type{}.x) scale,
                                              typename FFT::value_type* d) {
  using Cx = typename FFT::value_type;
  using Real = decltype(Cx{}.x);
  const auto at = mid.row(o);
  const unsigned t = threadIdx.x;
#pragma unroll
  for (unsigned i = 0; i < FFT::output_ept; ++i) {
    const unsigned r = t + i * FFT::stride;
    if (r >= FFT::output_length) continue;
    const complex<Real> v = mid.template apply<complex<Real>>(at, to_xf(d[i]) * scale, r);
    d[i] = Cx{v.real(), v.imag()};
  }
}

// Stores a thread's outputs, each scaled (and conjugated) and through the store's epilogue; a
// real output in pairs (folded).
template <class FFT, class Plan, class Store>
__device__ XF_FORCEINLINE void store_line(const Plan& p, const Store& store, index_t o, index_t out_pos,
                                          decltype(typename FFT::value_type{}.x) scale, bool conjugate, const typename FFT::value_type* d) {
  using Cx = typename FFT::value_type;
  using Real = decltype(Cx{}.x);
  using Out = typename Plan::out_type;
  const auto at = store.row(o);
  const index_t step = p.reduced.out_stride[0];
  const unsigned t = threadIdx.x;
#pragma unroll
  for (unsigned i = 0; i < FFT::output_ept; ++i) {
    const unsigned r = t + i * FFT::stride;
    if (r >= FFT::output_length) continue;
    if constexpr (line_real_out<FFT>) {
      const index_t k = 2 * static_cast<index_t>(r);
      p.out[out_pos + k * step] = store.template apply<Out>(at, d[i].x * scale, k);
      p.out[out_pos + (k + 1) * step] = store.template apply<Out>(at, d[i].y * scale, k + 1);
    } else p.out[out_pos + r * step] = store.template apply<Out>(at, to_xf(Cx{d[i].x, conjugate ? -d[i].y : d[i].y}) * scale, r);
  }
}
#endif

// Blocks of Fwd's kernel a multiprocessor must hold to keep `threads` threads; 0 (no demand: the
// launch bounds name only the block's size) for 0.
template <class Fwd>
constexpr int line_blocks_per_sm(int threads) {
  const int per_block = static_cast<int>(Fwd::max_threads_per_block);
  return threads <= 0 ? 0 : threads / per_block > 1 ? threads / per_block : 1;
}

// Lines of the plan, FFT::ffts_per_block a block (threadIdx.y the line in the block): load, Fwd,
// then (a round trip) the spectrum scaled by `spectrum_scale` through `mid` and Inv, then the
// stores, scaled by `scale`. `conjugate` (complex transforms): the inverse as the conjugate of the
// forward transform of the conjugate, so one kernel serves both directions. Every thread of the
// block runs the transforms (they synchronise the block), live line or not. ThreadsPerSM: the
// threads a multiprocessor must hold (line_shape::threads_per_sm), which caps the registers.
template <class Fwd, class Inv, int ThreadsPerSM, class Plan, class Middle, class Store>
__global__ void __launch_bounds__(Fwd::max_threads_per_block, line_blocks_per_sm<Fwd>(ThreadsPerSM))
    line_fft_kernel(const __grid_constant__ Plan p, const __grid_constant__ Middle mid, const __grid_constant__ Store store,
                    decltype(typename Fwd::value_type{}.x) scale, decltype(typename Fwd::value_type{}.x) spectrum_scale,
                    bool conjugate) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ __align__(16) unsigned char line_shared[];
  const index_t o = static_cast<index_t>(blockIdx.x) * Fwd::ffts_per_block + threadIdx.y;
  const bool live = o < p.kept.size;
  index_t kept_pos[Plan::slots] = {};
  index_t out_pos = 0;
  if (live) layout_positions(p.kept, p.kept_narrow, o, kept_pos, out_pos);
  typename Fwd::value_type d[Fwd::storage_size];
  load_line<Fwd>(p, kept_pos, live, p.reduced.size, conjugate, d);
  Fwd().execute(d, line_shared);
  if constexpr (std::is_same_v<Inv, void>) {
    if (live) store_line<Fwd>(p, store, o, out_pos, scale, conjugate, d);
  } else {
    static_assert(Inv::storage_size <= Fwd::storage_size, "the inverse reads the forward transform's registers");
    if (live) through_middle<Fwd>(mid, o, spectrum_scale, d);
    if (live) {  // NumPy's irfft ignores the imaginary parts of the first and middle points
      const unsigned t = threadIdx.x;
#pragma unroll
      for (unsigned i = 0; i < Fwd::output_ept; ++i) {
        const unsigned r = t + i * Fwd::stride;
        if (r == 0 || r * 2 == cufftdx::size_of<Fwd>::value) d[i].y = 0;
      }
    }
    __syncthreads();  // the forward transform's shared memory is free again
    Inv().execute(d, line_shared);
    if (live) store_line<Inv>(p, store, o, out_pos, scale, false, d);
  }
#endif
}

// Launches the kernel over every line of p on `stream`, ThreadsPerSM threads held by a
// multiprocessor (line_shape::threads_per_sm).
template <class Fwd, class Inv, int ThreadsPerSM, class Plan, class Middle, class Store>
void launch_line_fft(const Plan& p, const Middle& mid, const Store& store, double scale, double spectrum_scale, bool conjugate,
                     int device, cudaStream_t stream) {
  using Real = decltype(typename Fwd::value_type{}.x);
  constexpr auto kernel = line_fft_kernel<Fwd, Inv, ThreadsPerSM, Plan, Middle, Store>;
  constexpr std::size_t inv_bytes = [] {
    if constexpr (std::is_same_v<Inv, void>) return std::size_t{0};
    else return static_cast<std::size_t>(Inv::shared_memory_size);
  }();
  constexpr std::size_t bytes = Fwd::shared_memory_size > inv_bytes ? Fwd::shared_memory_size : inv_bytes;
  const index_t blocks = (p.kept.size + Fwd::ffts_per_block - 1) / Fwd::ffts_per_block;
  if (blocks > INT_MAX) throw error("xf: too many lines for one transform launch (" + std::to_string(p.kept.size) + ")");
  if constexpr (bytes > default_dynamic_smem) {
    static atomic<int> allowed[max_devices];
    if (allowed[device].load(order::relaxed) == 0) {
      XF_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
      allowed[device].store(1, order::relaxed);
    }
  }
  kernel<<<static_cast<unsigned>(blocks), Fwd::block_dim, bytes, stream>>>(p, mid, store, static_cast<Real>(scale), static_cast<Real>(spectrum_scale), conjugate);
  XF_CUDA_CHECK(cudaGetLastError());
}

}  // namespace xf::detail
#else
namespace xf::detail {
inline constexpr bool have_line_kernels = false;
}
#endif
