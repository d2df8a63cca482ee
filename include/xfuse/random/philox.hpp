// SPDX-License-Identifier: Apache-2.0
// Philox4x32-10, cuRAND's counter-based generator, from cuRAND's own header: its functions are
// annotated through the QUALIFIERS macro, which this header sets to host and device (the header's
// 32-bit multiply already has a host branch), so the same code draws on both sides and a value
// depends only on (key, counter).
#pragma once

#include <cstdint>

#include <vector_types.h>

#if defined(CURAND_PHILOX4X32_X__H_) && !defined(XF_PHILOX_HOST_DEVICE)
#error "xfuse: include <xfuse/random.hpp> (or <xfuse/xfuse.hpp>) before <curand_kernel.h>: xfuse calls cuRAND's Philox on the host too"
#endif
#define XF_PHILOX_HOST_DEVICE 1
#pragma push_macro("QUALIFIERS")
#undef QUALIFIERS
#if defined(__CUDACC__)
#define QUALIFIERS static __forceinline__ __host__ __device__
#else
#define QUALIFIERS static inline
#endif
#include <curand_philox4x32_x.h>
#pragma pop_macro("QUALIFIERS")

#include "../base/config.hpp"

namespace xf::detail {

// The key of one draw: the generator's seed, and the draw's number in the counter's upper half.
// A draw recorded in a graph (xf::capture) adds the generator's count at launch, which each launch
// writes to `recorded_start` on the device; null otherwise.
struct philox_key {
  std::uint32_t seed_lo, seed_hi, draw_lo, draw_hi;
  const std::uint64_t* recorded_start = nullptr;
};

// Four 32-bit words for block c of a draw.
XF_HD XF_FORCEINLINE uint4 philox_block(const philox_key& k, std::uint64_t c) {
  std::uint64_t draw = (static_cast<std::uint64_t>(k.draw_hi) << 32) | k.draw_lo;
#if XF_DEVICE_PASS
  if (k.recorded_start) draw += *k.recorded_start;
#endif
  const uint4 counter{static_cast<unsigned>(c), static_cast<unsigned>(c >> 32), static_cast<unsigned>(draw),
                      static_cast<unsigned>(draw >> 32)};
  return curand_Philox4x32_10(counter, uint2{k.seed_lo, k.seed_hi});
}

}  // namespace xf::detail
