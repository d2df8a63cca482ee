// SPDX-License-Identifier: Apache-2.0
// The host side of the transforms in xfuse's own kernel (line_kernel.cuh): whether a one-axis call
// runs there (line_table.hpp's lengths, the last axis of a C-ordered result, an sm_90 device, the
// switch below), and its launch: the operand read where the transform loads, the result written
// through a store (nothing, or the consumer's expression), a round trip's spectrum through a middle
// expression.
#pragma once

#include <atomic>

#include "../base/device.hpp"
#include "../base/env_switch.hpp"
#include "../base/stream.hpp"
#include "../exec/epilogue.hpp"
#include "../reduce/row_plan.hpp"
#include "geometry.hpp"
#include "line_kernel.cuh"
#include "line_table.hpp"

namespace xf {
namespace detail {
inline std::atomic<int>& fft_line_kernels_setting() {
  static std::atomic<int> setting{env_switch("XFUSE_FFT_LINE_KERNELS", true) ? 1 : 0};
  return setting;
}
}  // namespace detail

// Whether covered one-axis transforms of device arrays run in xfuse's own kernel (on when xfuse
// was built with cuFFTDx; XFUSE_FFT_LINE_KERNELS=0 or xf::set_fft_line_kernels(false): on cuFFT).
inline bool fft_line_kernels() { return detail::have_line_kernels && detail::fft_line_kernels_setting().load() != 0; }
inline void set_fft_line_kernels(bool on) { detail::fft_line_kernels_setting().store(on ? 1 : 0); }

namespace detail {

// Whether a one-axis call of any kind along `axis` of a rank-R operand, n points of precision Real
// into a C-ordered result, runs in the line kernel on the current device.
template <class Real, int R>
bool line_transform_applies(int axis, index_t n) {
  if (!fft_line_kernels() || axis != R - 1 || !line_length_covered<Real>(n)) return false;
  return xf::device(device::current_id()).properties().major == 9;
}

#if XF_CUDA_TU && defined(XFUSE_WITH_MATHDX)
// The kernels of real transforms of L points: both directions take the forward one's shape.
template <class Real, int L>
struct real_line_kernels {
  using forward = line_fft<Real, L, cufftdx::fft_type::r2c, cufftdx::fft_direction::forward>;
  using inverse = line_fft<Real, L, cufftdx::fft_type::c2r, cufftdx::fft_direction::inverse>;
  static constexpr int threads_per_sm = line_suggestion<Real, L, cufftdx::fft_type::r2c>::threads_per_sm;
};

// The transform of Kind along `axis` of src (an array or expression of real or complex values), n
// points (src's line zero-padded or truncated), each output times `scale` into dst (of the result's
// shape, unit stride along the axis) through `store`. A round trip (Middle given, Kind
// real_to_complex): the spectrum times `spectrum_scale` goes through `mid`, then the inverse real
// transform to n points. inverse: complex transforms only (the real ones have their direction).
template <fft_kind Kind, class Real, class Src, class Out, int R, class Middle = no_middle, class Store = no_epilogue>
void run_line_fft(const Src& src, int axis, index_t n, bool inverse, double scale, const array<Out, R, device>& dst, const char* op,
                  const Middle& mid = {}, double spectrum_scale = 1.0, const Store& store = {}) {
  using In = std::conditional_t<Kind == fft_kind::real_to_complex, Real, complex<Real>>;
  const auto p = make_row_plan(src, axis, row_values<value_t<Src>, In, Out>{}, dst.data(), dst.strides());
  const int cur = device::current_id();
  require_leaf_access(p, src, cur, op);
  const cudaStream_t stream = current_slot(cur).handle;
  using cufftdx::fft_direction;
  using cufftdx::fft_type;
  with_line_length<Real>(n, [&](auto length) {
    constexpr int L = decltype(length)::value;
    using Kernels = real_line_kernels<Real, L>;  // instantiated only by the real branches that name it
    if constexpr (Kind == fft_kind::real_to_complex && std::is_same_v<Middle, no_middle>) {
      launch_line_fft<typename Kernels::forward, void, Kernels::threads_per_sm>(p, mid, store, scale, 1.0, false, cur, stream);
    } else if constexpr (Kind == fft_kind::real_to_complex) {
      launch_line_fft<typename Kernels::forward, typename Kernels::inverse, Kernels::threads_per_sm>(p, mid, store, scale, spectrum_scale,
                                                                                             false, cur, stream);
    } else if constexpr (Kind == fft_kind::complex_to_real) {
      launch_line_fft<typename Kernels::inverse, void, Kernels::threads_per_sm>(p, mid, store, scale, 1.0, false, cur, stream);
    } else {
      launch_line_fft<line_fft<Real, L, fft_type::c2c, fft_direction::forward>, void,
                      line_suggestion<Real, L, fft_type::c2c>::threads_per_sm>(p, mid, store, scale, 1.0, inverse, cur, stream);
    }
  });
}
#endif

}  // namespace detail
}  // namespace xf
