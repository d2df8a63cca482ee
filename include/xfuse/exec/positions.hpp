// SPDX-License-Identifier: Apache-2.0
// Where flat element q of a collapsed layout sits: its position in every leaf and in the output.
// The same code on the host and the device (the fused kernel, the reductions, the host loops).
#pragma once

#include "layout.hpp"

namespace xf::detail {

// With `narrow` (fits_32_bits), the index math runs in 32 bits: a quarter of the instructions of
// 64-bit multiply-highs and multiply-adds.
template <int R, int L>
XF_HD XF_FORCEINLINE void layout_positions(const layout<R, L>& lay, bool narrow, index_t q,
                                           index_t (&pos)[layout<R, L>::leaves], index_t& out_pos) {
  constexpr int MR = layout<R, L>::max_rank;
  if constexpr (MR > 1) {
    if (narrow) {
      int pos32[layout<R, L>::leaves], out32 = static_cast<int>(lay.out_base);
      auto rest = static_cast<unsigned>(q);
#pragma unroll
      for (int k = 0; k < L; ++k) pos32[k] = static_cast<int>(lay.base[k]);
#pragma unroll
      for (int d = 0; d < MR; ++d) {
        if (d < lay.rank) {
          unsigned r = rest;
          if (d + 1 < lay.rank) {
            const unsigned quotient = lay.div[d].div32(rest);
            r = rest - quotient * static_cast<unsigned>(lay.extent[d]);
            rest = quotient;
          }
#pragma unroll
          for (int k = 0; k < L; ++k) pos32[k] += static_cast<int>(r) * static_cast<int>(lay.stride[k][d]);
          out32 += static_cast<int>(r) * static_cast<int>(lay.out_stride[d]);
        }
      }
#pragma unroll
      for (int k = 0; k < L; ++k) pos[k] = pos32[k];
      out_pos = out32;
      return;
    }
  }
#pragma unroll
  for (int k = 0; k < L; ++k) pos[k] = lay.base[k];
  out_pos = lay.out_base;
#pragma unroll
  for (int d = 0; d < MR; ++d) {
    if (d < lay.rank) {
      index_t r = q;
      if (d + 1 < lay.rank) {
        const index_t quotient = lay.div[d].div(q);
        r = q - quotient * lay.extent[d];
        q = quotient;
      }
#pragma unroll
      for (int k = 0; k < L; ++k) pos[k] += r * lay.stride[k][d];
      out_pos += r * lay.out_stride[d];
    }
  }
}

}  // namespace xf::detail
