// SPDX-License-Identifier: Apache-2.0
// Which one-axis transforms run in xfuse's own kernel (fft/line_kernel.cuh, on cuFFTDx) and with
// which kernel shape. No cuFFTDx here: the host side decides with this table alone.
// Covered: lines of 256 to 4096 points (powers of two) in float32 (float32 and half inputs) and
// float64 along the last axis of the result, on sm_90 devices, when xfuse was built with cuFFTDx
// (XFUSE_WITH_MATHDX). Each covered length is one kernel per statement, so the table is kept short
// (build time); the rest stays on cuFFT. 8192 float32 points: the complex-to-real kernel differs
// from cuFFT by about 0.5% of the line's magnitude on an H100 (the forward and round-trip kernels
// agree), not yet explained.
#pragma once

#include "../base/shape.hpp"

namespace xf::detail {

inline constexpr int line_min_length = 256;
template <class Real>
inline constexpr int line_max_length = 4096;

// The kernel's shape for a length: elements a thread holds (cuFFTDx's ElementsPerThread: of the
// real transform for real ones, which run folded) and lines a block transforms (0: cuFFTDx's own
// suggestion), and the threads a multiprocessor must hold at once (0: as many as the compiler's
// register use allows), which caps registers through the kernel's launch bounds: the round trip
// kept 64 registers a thread uncapped (half occupancy) where the bare transforms need 40.
// Chosen by bench/fft_line_sweep.cu on an H100 (docs/performance.md): the fastest round trip
// irfft(rfft(x) * H), the transform's result checked against cuFFT in the same run.
struct line_shape {
  int elements_per_thread = 0;
  int lines_per_block = 0;
  int threads_per_sm = 0;
};
template <class Real, int Length, bool RealTransform>
constexpr line_shape line_shape_for() {
  if constexpr (!RealTransform) {
    // Uncapped: at 40 registers the complex kernels spill 64-220 bytes a thread (ptxas), and
    // fft(x * w) ran 1% slower capped.
    if constexpr (sizeof(Real) == 4 && Length == 4096) return {16, 1};
    else return {};
  } else if constexpr (sizeof(Real) == 4) {
    // Capped at 1536 threads: the round trip 1-7% faster than uncapped (rfft within 1%, but 3.5%
    // slower at 256 points); 2048 threads (32 registers) is slower than uncapped.
    if constexpr (Length == 256) return {8, 4, 1536};
    else if constexpr (Length == 512) return {16, 2, 1536};
    else return {16, 1, 1536};  // 1024 to 4096
  } else {
    return {};  // float64: cuFFTDx's suggestion, uncapped, was within 1% of the fastest shape swept
  }
}

// Whether `n` points of precision Real are a covered length.
template <class Real>
constexpr bool line_length_covered(index_t n) {
  return n >= line_min_length && n <= line_max_length<Real> && (n & (n - 1)) == 0;
}

// Calls f(std::integral_constant<int, n>{}) for a covered n; false, calling nothing, otherwise.
template <class Real, class F>
bool with_line_length(index_t n, F&& f) {
  if (!line_length_covered<Real>(n)) return false;
  bool called = false;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          constexpr int length = line_min_length << K;
          if constexpr (length <= line_max_length<Real>) {
            if (length == n) {
              f(std::integral_constant<int, length>{});
              called = true;
            }
          }
        }(),
        ...);
  }(std::make_integer_sequence<int, 5>{});
  return called;
}

}  // namespace xf::detail
