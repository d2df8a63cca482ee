// SPDX-License-Identifier: Apache-2.0
// The tiled walk of the fused element-wise kernel: transposed leaves through shared memory.
//
// Dimension 0 is contiguous in the output; some leaves are contiguous along dimension 1 instead
// (a transpose). A block takes a square tile: those leaves are read along dimension 1 (coalesced)
// into shared memory, then every thread computes along dimension 0 (coalesced stores). The walk
// is bound by instruction issue, not memory, unless its per-element work is a few instructions:
// every position is set up once per block and advanced by one add per element. (The loops over r
// have constant trip counts and unroll without a pragma, which EDG rejects inside these lambdas.)
#pragma once

#include "leaf_loads.cuh"

#if XF_CUDA_TU
namespace xf::detail {

// A thread's place in its block's tile: the tile's corner in every leaf and in the output, the
// thread's column tx and first row ty, and the tile's extent (less than T at the edges).
template <class Plan>
struct tile_place {
  index_t corner[Plan::L > 0 ? Plan::L : 1];
  index_t out_corner;
  int tx, ty, m0, m1;
};

// Block -> (tile along 0, tile along 1, outer index), dividing by the tile counts of the plan;
// the corner's positions: the outer dimensions (2 and up), then (i0, j0).
template <class Plan>
__device__ XF_FORCEINLINE tile_place<Plan> place_of_block(const Plan& p) {
  constexpr int T = Plan::tile_side, L = Plan::L, MR = layout<Plan::rank, Plan::L>::max_rank;
  const auto& lay = p.lay;
  tile_place<Plan> t;
  const auto b = static_cast<index_t>(blockIdx.x);
  const index_t q = p.tile_count[0].div(b);
  const index_t i0 = (b - q * static_cast<index_t>(p.tile_count[0].divisor)) * T;
  index_t outer = p.tile_count[1].div(q);
  const index_t j0 = (q - outer * static_cast<index_t>(p.tile_count[1].divisor)) * T;
#pragma unroll
  for (int k = 0; k < L; ++k) t.corner[k] = lay.base[k] + i0 * lay.stride[k][0] + j0 * lay.stride[k][1];
  t.out_corner = lay.out_base + i0 * lay.out_stride[0] + j0 * lay.out_stride[1];
#pragma unroll
  for (int d = 2; d < MR; ++d) {
    if (d < lay.rank) {
      index_t r = outer;
      if (d + 1 < lay.rank) {
        const index_t qd = lay.div[d].div(outer);
        r = outer - qd * lay.extent[d];
        outer = qd;
      }
#pragma unroll
      for (int k = 0; k < L; ++k) t.corner[k] += r * lay.stride[k][d];
      t.out_corner += r * lay.out_stride[d];
    }
  }
  t.tx = static_cast<int>(threadIdx.x) % T;
  t.ty = static_cast<int>(threadIdx.x) / T;
  t.m0 = lay.extent[0] - i0 < T ? static_cast<int>(lay.extent[0] - i0) : T;
  t.m1 = lay.extent[1] - j0 < T ? static_cast<int>(lay.extent[1] - j0) : T;
  return t;
}

// Leaves read in place (not staged, in memory): thread (tx, ty) loads elements (i = tx,
// j = ty + r * rows). They go first, so their loads are in flight while the staged ones arrive.
template <class Plan, class Vals>
__device__ XF_FORCEINLINE void load_in_place(const Plan& p, const tile_place<Plan>& t, Vals& vals) {
  constexpr int T = Plan::tile_side, rows = Plan::block_threads / T, per = T / rows;
  const auto& lay = p.lay;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          using Leaf = tuple_element_t<K, typename Plan::leaves_type>;
          if constexpr (!Leaf::in_memory) {
            return;
          } else {
            if (p.staged[K]) return;
          }
          const auto& leaf = get<K>(p.leaves);
          index_t at = t.corner[K] + t.tx * lay.stride[K][0] + t.ty * lay.stride[K][1];
          const index_t step = rows * lay.stride[K][1];
          for (int r = 0; r < per; ++r, at += step)
            if (t.tx < t.m0 && t.ty + r * rows < t.m1) get<K>(vals).v[r] = leaf.at(at);
        }(),
        ...);
  }(std::make_integer_sequence<int, Plan::L>{});
}

// Staged leaves: row i = ty + r * rows, column tx of the tile, read along the leaf's contiguous
// dimension into shared memory (rows padded by one element against bank conflicts).
template <class Plan>
__device__ XF_FORCEINLINE void stage_tile(const Plan& p, const tile_place<Plan>& t, unsigned char* smem) {
  constexpr int T = Plan::tile_side, rows = Plan::block_threads / T, per = T / rows;
  const auto& lay = p.lay;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          using Leaf = tuple_element_t<K, typename Plan::leaves_type>;
          if constexpr (Leaf::in_memory) {
            if (p.staged[K] && p.alias[K] == K) {
              using V = typename Leaf::value_type;
              V* s = reinterpret_cast<V*>(smem + p.smem_offset[K]) + t.ty * (T + 1) + t.tx;
              const auto& leaf = get<K>(p.leaves);
              index_t at = t.corner[K] + t.ty * lay.stride[K][0] + t.tx * lay.stride[K][1];
              const index_t step = rows * lay.stride[K][0];
              for (int r = 0; r < per; ++r, at += step)
                if (t.ty + r * rows < t.m0 && t.tx < t.m1) s[r * rows * (T + 1)] = leaf.at(at);
            }
          }
        }(),
        ...);
  }(std::make_integer_sequence<int, Plan::L>{});
}

// Element (i = tx, j = ty + r * rows) of the staged leaves, read across the tile.
template <class Plan, class Vals>
__device__ XF_FORCEINLINE void read_staged(const Plan& p, const tile_place<Plan>& t, const unsigned char* smem, Vals& vals) {
  constexpr int T = Plan::tile_side, rows = Plan::block_threads / T, per = T / rows;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          using Leaf = tuple_element_t<K, typename Plan::leaves_type>;
          if constexpr (Leaf::in_memory) {
            if (p.staged[K]) {
              const auto* s = reinterpret_cast<const typename Leaf::value_type*>(smem + p.smem_offset[K]) + t.tx * (T + 1) + t.ty;
              for (int r = 0; r < per; ++r) get<K>(vals).v[r] = s[r * rows];
            }
          }
        }(),
        ...);
  }(std::make_integer_sequence<int, Plan::L>{});
}

// Computes and stores the thread's elements along dimension 0 (coalesced). Generators (no memory)
// are evaluated just before each element: they have no latency to hide, and holding per values of
// each from the start spilled registers (where(tri(n).T(), a.T(), 0): 188 bytes).
template <class Plan, class Vals>
__device__ XF_FORCEINLINE void compute_tile(const Plan& p, const tile_place<Plan>& t, Vals& vals) {
  constexpr int T = Plan::tile_side, rows = Plan::block_threads / T, per = T / rows;
  constexpr auto leaf_seq = std::make_integer_sequence<int, Plan::L>{};
  const auto& lay = p.lay;
  auto out = p.out + t.out_corner + t.tx * lay.out_stride[0] + t.ty * lay.out_stride[1];
  const index_t out_step = rows * lay.out_stride[1];
#pragma unroll
  for (int r = 0; r < per; ++r, out += out_step) {
    [&]<int... K>(std::integer_sequence<int, K...>) {
      (
          [&] {
            using Leaf = tuple_element_t<K, typename Plan::leaves_type>;
            if constexpr (!Leaf::in_memory)
              get<K>(vals).v[r] = get<K>(p.leaves).at(t.corner[K] + t.tx * lay.stride[K][0] + (t.ty + r * rows) * lay.stride[K][1]);
          }(),
          ...);
    }(leaf_seq);
    if (t.tx < t.m0 && t.ty + r * rows < t.m1) *out = compute(p, vals, r, leaf_seq);
  }
}

template <class Plan>
__device__ void tiled_path(const Plan& p, unsigned char* smem) {
  constexpr int T = Plan::tile_side, per = T / (Plan::block_threads / T);
  const tile_place<Plan> t = place_of_block(p);
  typename leaf_values<typename Plan::leaves_type, per>::type vals;
  load_in_place(p, t, vals);
  stage_tile(p, t, smem);
  __syncthreads();
  read_staged(p, t, smem, vals);
  compute_tile(p, t, vals);
}

}  // namespace xf::detail
#endif
