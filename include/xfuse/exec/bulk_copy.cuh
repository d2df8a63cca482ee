// SPDX-License-Identifier: Apache-2.0
// Hopper's bulk copies (the TMA engine) from global to shared memory, completing on an mbarrier:
// the PTX the bulk walk needs, one named function per instruction (sm_90 and later).
#pragma once

#include "../base/config.hpp"

#if XF_CUDA_TU && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
namespace xf::detail::bulk {

__device__ XF_FORCEINLINE unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// An mbarrier expecting one arrival, made visible to the bulk-copy (async) proxy.
__device__ XF_FORCEINLINE void barrier_init(unsigned barrier) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(barrier) : "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// Copies `bytes` (a multiple of 16) from global `src` to shared `dst`; completion counts on `barrier`.
__device__ XF_FORCEINLINE void copy_to_shared(unsigned dst, const void* src, unsigned bytes, unsigned barrier) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
               "l"(__cvta_generic_to_global(src)), "r"(bytes), "r"(barrier)
               : "memory");
}

// The one arrival, announcing the bytes the copies will deliver.
__device__ XF_FORCEINLINE void arrive_expect_bytes(unsigned barrier, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" ::"r"(barrier), "r"(bytes) : "memory");
}

// Waits until the barrier's phase of this parity completes (every byte of that phase arrived):
// phase 0 is the first use, 1 the second, 0 again the third.
__device__ XF_FORCEINLINE void wait_phase(unsigned barrier, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile(
        "{ .reg .pred ready; mbarrier.try_wait.parity.shared::cta.b64 ready, [%1], %2; selp.b32 %0, 1, 0, ready; }"
        : "=r"(done)
        : "r"(barrier), "r"(parity)
        : "memory");
  } while (!done);
}

__device__ XF_FORCEINLINE void wait_phase_zero(unsigned barrier) { wait_phase(barrier, 0); }

}  // namespace xf::detail::bulk
#endif
