// SPDX-License-Identifier: Apache-2.0
// Device reductions, full or over some axes, run one kernel template: a block of 256 threads takes
// `o_lanes` results and `r_lanes` threads per result; consecutive threads walk consecutive reduced
// elements when a leaf is contiguous along them (row sums: a warp per short row, a block per long
// one), otherwise consecutive results (column sums: coalesced across results). Few results over
// many elements split the elements over blocks (`splits`, one wave of resident blocks), whose
// partial accumulators a second, small kernel folds. A full reduction is the one-result case
// (CUB's DeviceReduce shape, at a quarter of its build time and 0.98 of its speed: see
// docs/performance.md). CUB's split: the tuning in policy.hpp, the launch decisions on the host in
// config.hpp (unit-tested without a GPU), the kernels here, the launch in dispatch.cuh.
#pragma once

#include "../exec/leaf_loads.cuh"
#include "../exec/programmatic.cuh"
#include "config.hpp"
#include "plan.hpp"
#include "policy.hpp"
#include "reducers.hpp"

#if XF_CUDA_TU
namespace xf::detail {

// A trivially copyable value exchanged between lanes `offset` apart, 32 bits at a time.
template <class T>
__device__ XF_FORCEINLINE T shuffle_xor(const T& v, int offset) {
  constexpr int words = (static_cast<int>(sizeof(T)) + 3) / 4;
  unsigned w[words] = {};
  __builtin_memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < words; ++i) w[i] = __shfl_xor_sync(0xffffffffu, w[i], offset);
  T r;
  __builtin_memcpy(&r, w, sizeof(T));
  return r;
}

// How a lane reads a chunk of E reduced elements, decided once outside the loops.
enum class chunk_load {
  element,  // element by element, each finding its position
  vector,   // one 16-byte load per leaf contiguous along the elements, one element per broadcast leaf
  dense,    // one 16-byte load per leaf, every leaf contiguous: no per-chunk stride test
};

// The expression's value at element `at` of loaded leaf values (Merged: each leaf's values are
// those of its merged_source, the only ones loaded).
template <bool Merged = false, class Plan, class Vals, int... K>
__device__ XF_FORCEINLINE auto value_in(const Plan& p, const Vals& vals, int at, std::integer_sequence<int, K...> seq) {
  return point_value<typename Plan::leaves_type>(
      p.fn,
      [&](auto k) {
        constexpr int source = Merged ? merged_source<typename Plan::leaves_type, decltype(k)::value>() : decltype(k)::value;
        return get<source>(vals).v[at];
      },
      seq);
}

// mapped_element for a rank-1 reduced layout: one multiply-add per leaf and no branch, so the
// compiler can issue a round's loads together (through layout_positions it waited on each).
template <class Plan>
__device__ XF_FORCEINLINE typename Plan::acc_type mapped_linear(const Plan& p, const index_t (&kept_pos)[Plan::slots],
                                                               index_t r) {
  index_t pos[Plan::slots];
#pragma unroll
  for (int k = 0; k < Plan::L; ++k) pos[k] = kept_pos[k] + p.reduced.base[k] + r * p.reduced.stride[k][0];
  return p.op.map(value_at_positions(p.fn, p.leaves, pos, std::make_integer_sequence<int, Plan::L>{}), r);
}

template <class Plan>
using chunk_values = typename leaf_values<typename Plan::leaves_type, Plan::E>::type;

// Loads reduced elements r0 .. r0 + E - 1 of a result (leaf positions `kept_pos`) for every leaf,
// under p.vector: one 16-byte load where the leaf is contiguous along them, one element where it
// is broadcast, the elements one by one for generators; a leaf that reads what an earlier one
// read copies its registers.
template <bool Dense, bool Merged = false, class Plan>
__device__ XF_FORCEINLINE void load_chunk(const Plan& p, const index_t (&kept_pos)[Plan::slots], index_t r0,
                                          chunk_values<Plan>& vals) {
  constexpr int E = Plan::E;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          const auto& leaf = get<K>(p.leaves);
          using Leaf = std::remove_cvref_t<decltype(leaf)>;
          if constexpr (Merged && merged_source<typename Plan::leaves_type, K>() != K) {
            return;  // read through its source's values (value_in<true>)
          } else if constexpr (Leaf::in_memory) {
            if (copy_alias<K>(p, vals, 0, E)) return;  // a leaf read twice is loaded once
          }
          const index_t step = p.reduced.stride[K][0];
          const index_t pos = kept_pos[K] + r0 * step;
          if constexpr (Leaf::in_memory && Dense) {
            load_vector_readonly<typename Leaf::value_type, E>(leaf.ptr + pos, get<K>(vals).v);  // p.dense: stride 1
          } else if constexpr (Leaf::in_memory) {
            // p.vector: the leaf's stride along the reduced elements is 1, or 0 (broadcast).
            if (step == 1) {
              load_vector_readonly<typename Leaf::value_type, E>(leaf.ptr + pos, get<K>(vals).v);
            } else {
              const auto v = leaf.at(pos);
              for (int e = 0; e < E; ++e) get<K>(vals).v[e] = v;
            }
          } else {
            for (int e = 0; e < E; ++e) get<K>(vals).v[e] = leaf.at(pos + e * step);
          }
        }(),
        ...);
  }(std::make_integer_sequence<int, Plan::L>{});
}

// Maps and folds a loaded chunk (reduced elements r0 .. r0 + E - 1) into one accumulator.
template <bool Merged = false, class Plan>
__device__ XF_FORCEINLINE typename Plan::acc_type fold_chunk(const Plan& p, const chunk_values<Plan>& vals, index_t r0) {
  constexpr auto leaf_seq = std::make_integer_sequence<int, Plan::L>{};
  auto acc = p.op.map(value_in<Merged>(p, vals, 0, leaf_seq), r0);
  for (int e = 1; e < Plan::E; ++e) acc = append(p.op, acc, p.op.map(value_in<Merged>(p, vals, e, leaf_seq), r0 + e));
  return acc;
}

// Folds reduced elements r0 .. r0 + E - 1 of a result into one accumulator, read as Mode says.
template <chunk_load Mode, bool Merged, class Plan>
__device__ XF_FORCEINLINE typename Plan::acc_type mapped_chunk(const Plan& p, const index_t (&kept_pos)[Plan::slots],
                                                              index_t r0) {
  if constexpr (Plan::E > 1 && Mode != chunk_load::element) {
    chunk_values<Plan> vals;
    load_chunk<Mode == chunk_load::dense, Merged>(p, kept_pos, r0, vals);
    return fold_chunk<Merged>(p, vals, r0);
  } else {
    auto acc = mapped_element(p, kept_pos, r0);
    for (int e = 1; e < Plan::E; ++e) acc = append(p.op, acc, mapped_element(p, kept_pos, r0 + e));
    return acc;
  }
}

// Chunks a lane loads per round before folding them (reduce_policy), by the leaves it loads.
template <class Plan, bool Merged>
inline constexpr int chunks_per_round = (Merged ? merged_leaf_count<typename Plan::leaves_type> : Plan::L) == 1
                                            ? reduce_policy::chunks_per_round_one_leaf
                                            : reduce_policy::chunks_per_round;

// The reduced elements that split y (blockIdx.y) folds for each of its results: whole rounds of
// C chunks from rounds_begin, every rounds_step, below rounds_end; then single chunks up to
// whole_end; then elements one at a time up to r_end.
struct split_share {
  bool interleave;
  index_t r_begin, r_end, rounds_begin, rounds_step, rounds_end, whole_end;
};

template <class Plan, int C>
__device__ XF_FORCEINLINE split_share share_of_split(const reduce_config& c, index_t n_red, index_t y) {
  constexpr int E = Plan::E;
  const index_t round = static_cast<index_t>(C) * c.r_lanes * E;
  split_share s;
  // Splits interleave by rounds: split y takes rounds y, y + splits, ... and the last split also
  // what follows them, so the GPU sweeps memory front to back (as CUB's many small blocks do);
  // a contiguous share per split measured 3% slower. Element paths take contiguous shares.
  s.interleave = c.splits > 1 && c.chunked;
  if (s.interleave) {
    const index_t full = n_red / round * round;
    s.rounds_begin = y * round;
    s.rounds_step = c.splits * round;
    s.r_begin = y == c.splits - 1 ? full : n_red;
    s.r_end = n_red;
  } else {
    s.r_begin = y * c.chunk;
    s.r_end = s.r_begin + c.chunk < n_red ? s.r_begin + c.chunk : n_red;
    s.rounds_begin = s.r_begin;
    s.rounds_step = round;
  }
  s.whole_end = c.chunked ? s.r_begin + (s.r_end - s.r_begin) / E * E : s.r_begin;
  s.rounds_end = s.interleave ? n_red / round * round : s.whole_end;
  return s;
}

// Folds a lane's whole chunks of E elements into acc: C chunks per round, so that their loads are
// in flight together, then the chunks left before whole_end one at a time.
template <chunk_load Mode, bool Merged, class Plan>
__device__ XF_FORCEINLINE typename Plan::acc_type fold_chunks(const Plan& p, const reduce_config& c, const split_share& s,
                                                             const index_t (&kept_pos)[Plan::slots], int r_lane,
                                                             typename Plan::acc_type acc) {
  using Acc = typename Plan::acc_type;
  constexpr int E = Plan::E, C = chunks_per_round<Plan, Merged>;
  const index_t cstep = static_cast<index_t>(c.r_lanes) * E, round = C * cstep;
  // A lane's C chunks of a round lie cstep apart (next to each other, as CUB loads, measured no faster).
  const index_t lane_off = static_cast<index_t>(r_lane) * E;
  index_t base = s.rounds_begin;
#pragma unroll 1
  for (; base + round <= s.rounds_end; base += s.rounds_step) {
    const index_t rr = base + lane_off;
    if constexpr (Mode != chunk_load::element && E > 1) {
      // Every load of the round first, then the arithmetic: written as one loop of mapped_chunk,
      // the compiler waited for each chunk before issuing the next load.
      chunk_values<Plan> v[C];
#pragma unroll
      for (int u = 0; u < C; ++u) load_chunk<Mode == chunk_load::dense, Merged>(p, kept_pos, rr + u * cstep, v[u]);
      // The round's chunks follow one another: appended, then combined once with acc.
      auto in_round = fold_chunk<Merged>(p, v[0], rr);
#pragma unroll
      for (int u = 1; u < C; ++u) in_round = append(p.op, in_round, fold_chunk<Merged>(p, v[u], rr + u * cstep));
      acc = p.op.combine(acc, in_round);
    } else {
      Acc a[C];
#pragma unroll
      for (int u = 0; u < C; ++u) a[u] = mapped_chunk<Mode, Merged>(p, kept_pos, rr + u * cstep);
#pragma unroll
      for (int u = 1; u < C; ++u) a[0] = append(p.op, a[0], a[u]);
      acc = p.op.combine(acc, a[0]);
    }
  }
#pragma unroll 1
  for (index_t r = (s.interleave ? s.r_begin : base) + lane_off; r + E <= s.whole_end; r += cstep)
    acc = p.op.combine(acc, mapped_chunk<Mode, Merged>(p, kept_pos, r));
  return acc;
}

// Folds the elements after whole_end into acc, one at a time, elements_per_round in flight.
template <bool Linear, class Plan>
__device__ XF_FORCEINLINE typename Plan::acc_type fold_elements(const Plan& p, const reduce_config& c, const split_share& s,
                                                               const index_t (&kept_pos)[Plan::slots], int r_lane,
                                                               typename Plan::acc_type acc) {
  using Acc = typename Plan::acc_type;
  constexpr int W = reduce_policy::elements_per_round;
  const auto element = [&](index_t at) { return Linear ? mapped_linear(p, kept_pos, at) : mapped_element(p, kept_pos, at); };
  const index_t step = c.r_lanes;
  index_t r = s.whole_end + r_lane;
#pragma unroll 1
  for (; r + (W - 1) * step < s.r_end; r += W * step) {
    Acc a[W];
#pragma unroll
    for (int u = 0; u < W; ++u) a[u] = element(r + u * step);
#pragma unroll
    for (int u = 1; u < W; ++u) a[0] = append(p.op, a[0], a[u]);
    acc = p.op.combine(acc, a[0]);
  }
#pragma unroll 1
  for (; r < s.r_end; r += step) acc = p.op.combine(acc, element(r));
  return acc;
}

// A lane's accumulator of the elements of result o that its split takes.
template <class Plan>
__device__ XF_FORCEINLINE typename Plan::acc_type fold_lane(const Plan& p, const reduce_config& c,
                                                           const index_t (&kept_pos)[Plan::slots], int r_lane) {
  using load = chunk_load;
  using Leaves = typename Plan::leaves_type;
  const index_t split = static_cast<index_t>(blockIdx.y), n_red = p.reduced.size;
  split_share s;
  auto acc = p.op.identity();
  // Uniform branches, decided once on the host. Dense loads have no per-chunk stride test: the
  // compiler then keeps every load unpredicated. Merged chunks load each distinct leaf once.
  bool merged = false;
  if constexpr (mergeable<Leaves>) {
    if (p.merged && p.vector) {
      merged = true;
      s = share_of_split<Plan, chunks_per_round<Plan, true>>(c, n_red, split);
      if (merged_leaf_count<Leaves> == 1 && p.dense) acc = fold_chunks<load::dense, true>(p, c, s, kept_pos, r_lane, acc);
      else acc = fold_chunks<load::vector, true>(p, c, s, kept_pos, r_lane, acc);
    }
  }
  if (!merged) {
    s = share_of_split<Plan, chunks_per_round<Plan, false>>(c, n_red, split);
    if constexpr (Plan::L == 1) {
      if (p.dense) acc = fold_chunks<load::dense, false>(p, c, s, kept_pos, r_lane, acc);
      else if (p.vector) acc = fold_chunks<load::vector, false>(p, c, s, kept_pos, r_lane, acc);
      else acc = fold_chunks<load::element, false>(p, c, s, kept_pos, r_lane, acc);
    } else {
      if (p.vector) acc = fold_chunks<load::vector, false>(p, c, s, kept_pos, r_lane, acc);
      else acc = fold_chunks<load::element, false>(p, c, s, kept_pos, r_lane, acc);
    }
  }
  if (p.reduced.rank == 1) return fold_elements<true>(p, c, s, kept_pos, r_lane, acc);
  return fold_elements<false>(p, c, s, kept_pos, r_lane, acc);
}

// One block: o_lanes results, r_lanes threads each; the lanes' accumulators fold in shared memory,
// then each result is finished (one split) or left as a partial for reduce_splits_kernel.
template <class Plan>
__global__ void __launch_bounds__(reduce_threads) reduce_kernel(const __grid_constant__ Plan p, const reduce_config c,
                                                                typename Plan::acc_type* partial, const pass_guard guard) {
  using Acc = typename Plan::acc_type;
  __shared__ alignas(16) unsigned char raw[reduce_threads * sizeof(Acc)];
  Acc* s = reinterpret_cast<Acc*>(raw);
  if (!start_pass_kernel(guard)) return;  // a programmatic dependent (programmatic.cuh)
  const int t = static_cast<int>(threadIdx.x);
  const int o_lane = c.r_fast ? t / c.r_lanes : t % c.o_lanes;
  const int r_lane = c.r_fast ? t % c.r_lanes : t / c.o_lanes;
  const index_t o = static_cast<index_t>(blockIdx.x) * c.o_lanes + o_lane;
  const index_t n_out = p.kept.size;
  Acc acc = p.op.identity();
  index_t out_pos = 0;
  if (o < n_out) {
    index_t kept_pos[Plan::slots];
    layout_positions(p.kept, p.kept_narrow, o, kept_pos, out_pos);
    acc = fold_lane(p, c, kept_pos, r_lane);
  }
  s[t] = acc;
  __syncthreads();
  for (int width = c.r_lanes / 2; width > 0; width /= 2) {
    if (r_lane < width) s[t] = p.op.combine(s[t], s[c.r_fast ? t + width : t + width * c.o_lanes]);
    __syncthreads();
  }
  if (r_lane == 0 && o < n_out) {
    if (c.splits == 1) p.out[out_pos] = p.op.finish(s[t], p.reduced.size);
    else partial[static_cast<index_t>(blockIdx.y) * n_out + o] = s[t];
  }
}

// Folds the splits' partial accumulators of every result, then finishes it: `lanes` threads per
// result (a power of two dividing the block) take every lanes-th split, then fold in shared memory.
template <class Plan>
__global__ void __launch_bounds__(reduce_threads) reduce_splits_kernel(const __grid_constant__ Plan p, int splits, int lanes,
                                                                       const typename Plan::acc_type* partial, const pass_guard guard) {
  using Acc = typename Plan::acc_type;
  __shared__ alignas(16) unsigned char raw[reduce_threads * sizeof(Acc)];
  Acc* s = reinterpret_cast<Acc*>(raw);
  if (!start_pass_kernel(guard)) return;  // the partials are the previous kernel's writes
  const int t = static_cast<int>(threadIdx.x), lane = t % lanes;
  const index_t o = static_cast<index_t>(blockIdx.x) * (reduce_threads / lanes) + t / lanes;
  const index_t n_out = p.kept.size;
  Acc acc = p.op.identity();
  if (o < n_out) {
    // Four loads in flight per round: the partials were just written and sit in L2, whose
    // latency a one-at-a-time loop pays per split (4 us for 792 splits).
    int k = lane;
    for (; k + 3 * lanes < splits; k += 4 * lanes) {
      const Acc a0 = partial[static_cast<index_t>(k) * n_out + o], a1 = partial[static_cast<index_t>(k + lanes) * n_out + o];
      const Acc a2 = partial[static_cast<index_t>(k + 2 * lanes) * n_out + o];
      const Acc a3 = partial[static_cast<index_t>(k + 3 * lanes) * n_out + o];
      acc = p.op.combine(acc, p.op.combine(p.op.combine(a0, a1), p.op.combine(a2, a3)));
    }
    for (; k < splits; k += lanes) acc = p.op.combine(acc, partial[static_cast<index_t>(k) * n_out + o]);
  }
  s[t] = acc;
  __syncthreads();
  for (int width = lanes / 2; width > 0; width /= 2) {
    if (lane < width) s[t] = p.op.combine(s[t], s[t + width]);
    __syncthreads();
  }
  if (lane == 0 && o < n_out) {
    index_t kept_pos[Plan::slots], out_pos;
    layout_positions(p.kept, p.kept_narrow, o, kept_pos, out_pos);
    p.out[out_pos] = p.op.finish(s[t], p.reduced.size);
  }
}

}  // namespace xf::detail
#endif
