// SPDX-License-Identifier: Apache-2.0
// The launch of a device reduction: the configuration chosen on the host (config.hpp), the kernel
// and, for split results, the kernel that folds the splits (kernel.cuh).
#pragma once

#include <climits>
#include <string>

#include "../base/memory.hpp"
#include "config.hpp"
#include "kernel.cuh"

#if XF_CUDA_TU
namespace xf::detail {

template <class Plan>
void reduce_axes_device(Plan p, int device, cudaStream_t stream) {
  using Acc = typename Plan::acc_type;
  // Blocks of this kernel an SM holds (registers decide: 5 for a float sum, not 8).
  static const int per_sm = [] {
    int n = 0;
    XF_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, reduce_kernel<Plan>, reduce_threads, 0));
    return n > 0 ? n : 1;
  }();
  const reduce_config c =
      choose_reduce_config(p, static_cast<index_t>(xf::device(device).multiprocessor_count()) * per_sm);
  p.vector = c.chunked && vector_chunks(p);
  // One leaf only: for two (sum(x * y)) the mode took 56 registers instead of 48 and measured
  // slower (0.87 against 0.89 of CUB's bandwidth, bench/results/H200/evidence/reduce_dense_two_leaves.json).
  // Or one leaf after merging (sum(x * x)): the same loads, every other leaf reading through it.
  const bool one_leaf = Plan::L == 1 || (p.merged && merged_leaf_count<typename Plan::leaves_type> == 1);
  p.dense = one_leaf && p.vector && [&]<int... K>(std::integer_sequence<int, K...>) {
    return ((!tuple_element_t<K, typename Plan::leaves_type>::in_memory || p.reduced.stride[K][0] == 1) && ...);
  }(std::make_integer_sequence<int, Plan::L>{});
  const index_t blocks = (p.kept.size + c.o_lanes - 1) / c.o_lanes;
  if (blocks > INT_MAX) throw error("xf: reduction with too many results for one launch (" + std::to_string(p.kept.size) + ")");
  buffer partial;
  if (c.splits > 1) partial = allocate_device(sizeof(Acc) * static_cast<std::size_t>(c.splits) * static_cast<std::size_t>(p.kept.size));
  launch_programmatic(reduce_kernel<Plan>, dim3(static_cast<unsigned>(blocks), static_cast<unsigned>(c.splits)), reduce_threads, 0, stream,
                      device, p, c, static_cast<Acc*>(partial.get()), loop_pass_guard());
  if (c.splits > 1) {
    // Threads per result: about one per split, at most a block.
    int lanes = 1;
    while (lanes * 2 <= reduce_threads && lanes * 2 <= c.splits) lanes *= 2;
    const index_t per_block = reduce_threads / lanes;
    const index_t finish_blocks = (p.kept.size + per_block - 1) / per_block;
    launch_programmatic(reduce_splits_kernel<Plan>, dim3(static_cast<unsigned>(finish_blocks)), reduce_threads, 0, stream, device, p,
                        c.splits, lanes, static_cast<const Acc*>(partial.get()), loop_pass_guard());
  }
}

}  // namespace xf::detail
#endif
