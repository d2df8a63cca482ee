// SPDX-License-Identifier: Apache-2.0
// Programmatic dependent launch (sm_90 and later) for xfuse's own kernels: a kernel launched with
// launch_programmatic may start launching while the kernel before it on the stream ends; it waits
// for that kernel's end and writes (start_after_previous_kernel) before reading anything, then lets
// the next kernel start launching in turn. The gap between dependent kernels shrinks (measured in
// docs/performance.md, "Recorded sequences"); XFUSE_PROGRAMMATIC_LAUNCH=0 turns it off (read
// once), to compare.
#pragma once

#include "../base/device.hpp"
#include "../base/env_switch.hpp"
#include "pass_guard.hpp"

namespace xf::detail {

// Whether kernels on `device` launch as programmatic dependents.
inline bool programmatic_launch(int device) {
  static const bool allowed = env_switch("XFUSE_PROGRAMMATIC_LAUNCH", true);
  return allowed && xf::device(device).properties().major >= 9;
}

#if XF_CUDA_TU
// First statement of a kernel launched with launch_programmatic: waits for the kernel before it
// (a no-op when launched otherwise), then lets the next one start launching; that one waits for
// this one's end the same way, so nothing reads early.
__device__ XF_FORCEINLINE void start_after_previous_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}

// start_after_previous_kernel for a kernel that can skip itself (pass_guard.hpp): whether its
// pass runs. The pass's first kernel reads the flag after the wait (the kernel before it wrote
// it); the others read it while they wait, hiding the load: every node of such a pass is one of
// these kernels, whose wait always runs, so the flag's writer ended before the kernel before them
// passed its wait and let them start. Read from L2 (__ldcg), never a line an earlier pass left in
// L1. Uniform across the grid: a kernel returns whole.
__device__ XF_FORCEINLINE bool start_pass_kernel(const pass_guard& g) {
  const auto flag = [&] { return __ldcg(reinterpret_cast<const unsigned char*>(g.runs)) != 0; };
  const bool early = g.runs == nullptr || g.after_wait || flag();
  start_after_previous_kernel();
  return g.runs == nullptr || !g.after_wait ? early : flag();
}

// kernel<<<grid, block, smem, stream>>>(args...), as a programmatic dependent where allowed.
template <class... Params, class... Args>
void launch_programmatic(void (*kernel)(Params...), dim3 grid, unsigned block, std::size_t smem, cudaStream_t stream, int device,
                         Args&&... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = dim3(block);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  cudaLaunchAttribute overlap{};
  overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  overlap.val.programmaticStreamSerializationAllowed = 1;
  if (programmatic_launch(device)) {
    config.attrs = &overlap;
    config.numAttrs = 1;
  }
  XF_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
}
#endif

}  // namespace xf::detail
