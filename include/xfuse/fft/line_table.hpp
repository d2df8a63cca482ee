// SPDX-License-Identifier: Apache-2.0
// Which one-axis transforms run in xfuse's own kernel (fft/line_kernel.cuh, on cuFFTDx) and with
// which kernel shape. No cuFFTDx here: the host side decides with this table alone.
// Covered: float32 lines (float32 and half inputs) of 256, 512, 1024, 2048 and 4096 points along
// the last axis of the result, on sm_90 devices, when xfuse was built with cuFFTDx
// (XFUSE_WITH_MATHDX). Each covered length is one kernel per statement, so the table is kept short
// (build time). The rest stays on cuFFT: float64 lines have not been run at every length on a GPU
// yet; the complex-to-real kernel of 8192 float32 points (cuFFTDx's suggested shape) missed
// cuFFT's result by 0.5% of the line's magnitude on an H100, not yet explained; 16384 points ran
// at 0.46 of a copy (docs/performance.md).
#pragma once

#include "../base/shape.hpp"

namespace xf::detail {

inline constexpr int line_min_length = 256;
template <class Real>
inline constexpr int line_max_length = sizeof(Real) == 4 ? 4096 : 0;

// The kernel's shape for a length: elements a thread holds, lines a block transforms (0: cuFFTDx's
// own suggestion). Chosen by bench/fft_line_sweep.cu on an H100 (docs/performance.md).
struct line_shape {
  int elements_per_thread = 0;
  int lines_per_block = 0;
};
template <class Real, int Length>
constexpr line_shape line_shape_for() {
  if constexpr (sizeof(Real) == 4 && Length == 4096) return {16, 1};
  else return {};
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
