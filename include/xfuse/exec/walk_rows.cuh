// SPDX-License-Identifier: Apache-2.0
// The rows walk of the fused element-wise kernel, for any layout: each thread handles p.chunks
// (at most U) chunks of E consecutive elements along dimension 0 (chunks interleaved across the
// block, so a warp's accesses are contiguous). It first loads every leaf for all its chunks
// (16-byte vector loads where the layout allows), then computes and stores. A block covers one
// tile of block_threads * p.chunks * E elements: no grid-stride loop. Fewer chunks a thread spread
// an array smaller than a wave of full tiles over more blocks (launch.hpp), in the same kernel.
#pragma once

#include "leaf_loads.cuh"

#if XF_CUDA_TU
namespace xf::detail {

template <class Plan>
__device__ XF_FORCEINLINE void rows_path(const Plan& p) {
  constexpr int E = Plan::E, U = Plan::U, B = Plan::block_threads, L = Plan::L;
  constexpr auto leaf_seq = std::make_integer_sequence<int, L>{};
  using Out = typename Plan::out_type;
  const index_t size = p.lay.size;
  const int chunks = p.chunks;
  const index_t first_chunk = static_cast<index_t>(blockIdx.x) * (B * chunks) + threadIdx.x;
  const index_t last_q0 = (first_chunk + (chunks - 1) * B) * E;
  if (!p.row_chunks || last_q0 + E > size) {
#pragma unroll 1
    for (int u = 0; u < chunks; ++u) {
      const index_t q0 = (first_chunk + u * B) * E;
      if (q0 < size) element_path(p, q0);
    }
    return;
  }

  // Whole chunks within rows: load every leaf of every chunk first, then compute and store.
  typename leaf_values<typename Plan::leaves_type, U * E>::type vals;
  index_t out_pos[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    if (u >= chunks) break;
    index_t pos[L > 0 ? L : 1];
    positions(p, (first_chunk + u * B) * E, pos, out_pos[u]);
    [&]<int... K>(std::integer_sequence<int, K...>) { (load_row<K>(p, vals, u * E, pos[K]), ...); }(leaf_seq);
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    if (u >= chunks) break;
    Out r[E];
#pragma unroll
    for (int e = 0; e < E; ++e) r[e] = compute(p, vals, u * E + e, leaf_seq);
    if (p.out_vec) {
      store_vector<Out, E>(p.out + out_pos[u], r);
    } else {
      const index_t step = p.lay.out_stride[0];
#pragma unroll
      for (int e = 0; e < E; ++e) p.out[out_pos[u] + e * step] = r[e];
    }
  }
}

}  // namespace xf::detail
#endif
