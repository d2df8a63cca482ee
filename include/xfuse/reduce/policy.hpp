// SPDX-License-Identifier: Apache-2.0
// Tuning of the reduction kernels, as plain constexpr values (the CUB way), next to the
// element-wise kernel's (exec/policy.hpp). The values come from sweeps on an H200 (sm_90): see
// docs/performance.md and bench/results/H200/evidence/reduce_*.
#pragma once

#include "../base/config.hpp"

namespace xf::detail {

struct reduce_policy {
  static constexpr int block_threads = 256;
  // Chunks of E elements a lane loads in one round before it folds them, so that their loads are
  // in flight together: 128 bytes a thread for one leaf, as many for two or more.
  static constexpr int chunks_per_round_one_leaf = 8;
  static constexpr int chunks_per_round = 4;
  // Results whose elements are contiguous take a whole block each while every thread still gets
  // this many elements (many small blocks even out the last wave), otherwise a warp each.
  static constexpr int elements_per_thread_for_a_block = 8;
  static constexpr int warp_lanes = 32;
  // Results walked across threads (column sums): lanes splitting each result's elements.
  static constexpr int column_lanes = 8;
  // Few results over many elements split each result over blocks to fill one wave, keeping at
  // least this many elements per thread (two, four or eight waves measured no faster). 8, not 64:
  // a sum of 514^2 doubles then runs on 129 blocks instead of 16 (sum(x * y) replayed in a graph
  // on an H100: 7.2 us instead of 15.9 us; bench/results/H100/evidence/reduce_split_sweep.txt).
  static constexpr int min_elements_per_split_thread = 8;
  static constexpr int max_splits = 65535;  // gridDim.y
  // Elements left over after whole chunks: this many per lane in flight.
  static constexpr int elements_per_round = 8;
};

inline constexpr int reduce_threads = reduce_policy::block_threads;

// Kernels that hold whole rows in registers (the row functions, rows/row_kernel.cuh, and the row
// statistics, row_statistics_kernel.cuh).
struct held_row_policy {
  // Bytes of a row each thread holds per array (16 floats, 8 doubles). 128 bytes measured no
  // faster for rows of 8192 floats and slower for short rows (2^20 rows of 64 floats: 0.28 against
  // 0.20 ms on an H100), and spilled registers at the 64 that 1024-thread blocks allow.
  static constexpr int bytes_per_thread = 64;
  // Threads of a block when a row takes fewer: several rows share the block.
  static constexpr int block_threads = 256;
  static constexpr int max_row_threads = 1024;
};

// The launch of one reduction, chosen on the host (choose_reduce_config).
struct reduce_config {
  int o_lanes = 1, r_lanes = 256;  // o_lanes * r_lanes == reduce_threads
  bool r_fast = true;              // consecutive threads take consecutive reduced elements
  int splits = 1;                  // blocks sharing one result's elements
  index_t chunk = 0;               // reduced elements per split (a multiple of E when chunked)
  bool chunked = false;            // lanes take chunks of E consecutive elements (r_fast, rank-1 reduced layout)
};

}  // namespace xf::detail
