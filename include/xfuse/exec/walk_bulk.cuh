// SPDX-License-Identifier: Apache-2.0
// The bulk walk of the fused element-wise kernel (sm_90+, contiguous inputs and output).
#pragma once

#include "bulk_copy.cuh"
#include "leaf_loads.cuh"

#if XF_CUDA_TU
namespace xf::detail {

// A block's tile of every contiguous input arrives in shared memory by one bulk copy each (the
// TMA engine: no registers or instructions per byte), completing on an mbarrier. Then each thread
// reads its chunks from shared memory, computes and stores 16 bytes at a time.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Thread 0 issues one bulk copy per staged leaf (an alias shares its source's) and the arrival.
template <class Plan>
__device__ XF_FORCEINLINE void issue_bulk_copies(const Plan& p, unsigned char* smem, index_t start, unsigned barrier) {
  bulk::barrier_init(barrier);
  unsigned bytes = 0;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          using Leaf = tuple_element_t<K, typename Plan::leaves_type>;
          if constexpr (Leaf::in_memory) {
            if (p.staged[K] && p.alias[K] == K) {
              constexpr unsigned size = static_cast<unsigned>(Plan::bulk_tile * sizeof(typename Leaf::value_type));
              bulk::copy_to_shared(bulk::shared_address(smem + p.smem_offset[K]), get<K>(p.leaves).ptr + p.lay.base[K] + start,
                                   size, barrier);
              bytes += size;
            }
          }
        }(),
        ...);
  }(std::make_integer_sequence<int, Plan::L>{});
  bulk::arrive_expect_bytes(barrier, bytes);
}

// Chunk c of the tile (elements start + c * E ...): staged leaves from shared memory, the others
// (broadcast scalars, generators) where they are.
template <class Plan, class Vals>
__device__ XF_FORCEINLINE void load_tile_chunk(const Plan& p, const unsigned char* smem, int c, index_t q0, Vals& vals) {
  constexpr int E = Plan::E;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          using Leaf = tuple_element_t<K, typename Plan::leaves_type>;
          using V = typename Leaf::value_type;
          auto* dst = get<K>(vals).v;
          if constexpr (Leaf::in_memory) {
            if (p.staged[K]) {
              load_vector<V, E>(reinterpret_cast<const V*>(smem + p.smem_offset[K]) + c * E, dst);
              return;
            }
          }
          const index_t pos = p.lay.base[K] + q0 * p.lay.stride[K][0];
          if constexpr (row_leaf<Leaf, E>) {
            get<K>(p.leaves).template at_row<E>(pos, p.lay.stride[K][0], dst);
          } else {
            for (int e = 0; e < E; ++e) dst[e] = get<K>(p.leaves).at(pos + e * p.lay.stride[K][0]);
          }
        }(),
        ...);
  }(std::make_integer_sequence<int, Plan::L>{});
}

template <class Plan>
__device__ void bulk_path(const Plan& p, unsigned char* smem) {
  constexpr int E = Plan::E, U = Plan::UB, B = Plan::block_threads;
  constexpr auto leaf_seq = std::make_integer_sequence<int, Plan::L>{};
  __shared__ alignas(8) unsigned long long barrier;
  const index_t start = static_cast<index_t>(blockIdx.x) * Plan::bulk_tile;
  const unsigned bar = bulk::shared_address(&barrier);
  if (threadIdx.x == 0) issue_bulk_copies(p, smem, start, bar);
  __syncthreads();
  bulk::wait_phase_zero(bar);

  using Out = typename Plan::out_type;
#pragma unroll 1
  for (int u = 0; u < U; ++u) {
    const int c = u * B + static_cast<int>(threadIdx.x);
    const index_t q0 = start + static_cast<index_t>(c) * E;
    typename leaf_values<typename Plan::leaves_type, E>::type vals;
    load_tile_chunk(p, smem, c, q0, vals);
    Out r[E];
#pragma unroll
    for (int e = 0; e < E; ++e) r[e] = compute(p, vals, e, leaf_seq);
    store_vector<Out, E>(p.out + q0, r);
  }
}
#endif

// The bulk walk of a block: whole tiles by bulk copies; the last, partial tile (or code built for
// a GPU without bulk copies) element by element.
template <class Plan>
__device__ XF_FORCEINLINE void bulk_walk(const Plan& p, unsigned char* smem) {
  constexpr int E = Plan::E, B = Plan::block_threads;
  const index_t size = p.lay.size;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if ((static_cast<index_t>(blockIdx.x) + 1) * Plan::bulk_tile <= size) {
    bulk_path(p, smem);
    return;
  }
#else
  (void)smem;
#endif
  const index_t start = static_cast<index_t>(blockIdx.x) * Plan::bulk_tile;
  const index_t end = start + Plan::bulk_tile < size ? start + Plan::bulk_tile : size;
#pragma unroll 1
  for (index_t q0 = start + static_cast<index_t>(threadIdx.x) * E; q0 < end; q0 += static_cast<index_t>(B) * E)
    element_path(p, q0);
}

}  // namespace xf::detail
#endif
