// SPDX-License-Identifier: Apache-2.0
// The fused element-wise kernel: one template, one instantiation per expression, dispatching to
// the walk the host chose (launch.hpp): rows (walk_rows.cuh), bulk (walk_bulk.cuh) or tiled
// (walk_tiled.cuh). What the walks share is in leaf_loads.cuh.
#pragma once

#include "group_fill.cuh"
#include "launch.hpp"
#include "programmatic.cuh"
#include "walk_bulk.cuh"
#include "walk_rows.cuh"
#include "walk_tiled.cuh"

#if XF_CUDA_TU
#include <climits>

namespace xf::detail {

template <class Plan>
__global__ void __launch_bounds__(Plan::block_threads, resident_blocks(Plan::min_blocks, Plan::block_threads))
    fused_kernel(const __grid_constant__ Plan p) {
  extern __shared__ __align__(128) unsigned char smem[];
  if (!start_pass_kernel(p.guard)) return;  // a programmatic dependent (programmatic.cuh)
  if constexpr (Plan::rank >= 2) {  // a rank-1 plan is never tiled: no code for it
    if (p.mode == walk::tiled) {
      tiled_path(p, smem);
      return;
    }
  }
  if (p.mode == walk::bulk) {
    bulk_walk(p, smem);
    return;
  }
  rows_path(p);
}

// Allows a kernel more than 48 KiB of dynamic shared memory on a device, once.
template <class Plan>
void opt_in_shared_memory(int device, std::size_t bytes) {
  static atomic<int> allowed[max_devices];
  if (allowed[device].load(order::relaxed) >= static_cast<int>(bytes)) return;
  cudaFuncAttributes attr{};
  XF_CUDA_CHECK(cudaFuncGetAttributes(&attr, fused_kernel<Plan>));
  const int most = static_cast<int>(xf::device(device).properties().sharedMemPerBlockOptin - attr.sharedSizeBytes);
  XF_CUDA_CHECK(cudaFuncSetAttribute(fused_kernel<Plan>, cudaFuncAttributeMaxDynamicSharedMemorySize, most));
  allowed[device].store(most, order::relaxed);
}

// Launches the plan as chosen (choose_launch, launch.hpp) on `stream`.
template <class Plan>
void launch_fused(const Plan& p, const launch_config& c, int device, cudaStream_t stream) {
  if (c.smem_bytes > default_dynamic_smem) opt_in_shared_memory<Plan>(device, c.smem_bytes);
  if (c.blocks > INT_MAX) throw error("xf: expression too large for one launch (" + std::to_string(p.lay.size) + " elements)");
  launch_programmatic(fused_kernel<Plan>, dim3(static_cast<unsigned>(c.blocks)), Plan::block_threads, c.smem_bytes, stream, device, p);
}

}  // namespace xf::detail
#endif
