// SPDX-License-Identifier: Apache-2.0
// Tuning of the fused element-wise kernel, as plain constexpr values (the CUB way). The defaults
// come from the sweep in bench/bench_elementwise.cu (see docs/performance.md).
#pragma once

namespace xf::detail {

// Threads one SM holds on the architecture the device code is compiled for, which caps the blocks
// per SM a launch bound may ask for (asking for more makes ptxas ignore the hint, with a warning):
// 2048 on sm_70, 72, 80, 90 and 100, 1536 on sm_86, 87, 89 and 120, 1024 on sm_75. The tuning
// values below were measured on sm_90; only this cap differs per architecture so far. The host
// pass does not use launch bounds.
constexpr int resident_threads_per_sm() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
  return 1024;
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200)
  return 1536;
#else
  return 2048;
#endif
}

// A kernel's minimum blocks per SM for __launch_bounds__: what it wants, if the SM holds that many.
constexpr int resident_blocks(int wanted, int block_threads) {
  const int most = resident_threads_per_sm() / block_threads;
  return wanted < most ? wanted : most;
}

struct elementwise_policy {
  static constexpr int block_threads = 256;
  // Blocks per SM the kernel must fit (__launch_bounds__), which caps its registers: the walks
  // share one kernel, so the heaviest sets the count for all. 0: from the number of leaves: up to
  // 2 -> 5 blocks (48 registers), up to 4 -> 4 (64), more -> 3 (80); chosen so that no walk spills
  // in the benchmarked expressions (ptxas -v).
  static constexpr int min_blocks_per_sm = 0;
  // Bytes each thread loads before it computes (all leaves together): enough memory requests in
  // flight to cover DRAM latency at the occupancy these kernels reach.
  static constexpr int bytes_in_flight = 128;
  // At most this many chunks per thread, and at most this many bytes per chunk of the widest type.
  static constexpr int max_chunks = 4;
  static constexpr int max_chunk_bytes = 64;
  // Contiguous inputs arrive by bulk copies (TMA) on sm_90 and later, this many bytes of input
  // per block and tile.
  static constexpr bool bulk_copy = true;
  static constexpr int bulk_tile_bytes = 64 * 1024;
  // Transposed leaves go through shared memory in square tiles of this edge, or of half of it when
  // a thread's share of every leaf would exceed bytes_in_flight (fused_plan::tile_side).
  static constexpr int tile_side = 64;
};

}  // namespace xf::detail
