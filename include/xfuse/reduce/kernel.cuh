// SPDX-License-Identifier: Apache-2.0
// Device reductions, full or over some axes, run one kernel template: a block of 256 threads takes
// `o_lanes` results and `r_lanes` threads per result; consecutive threads walk consecutive reduced
// elements when a leaf is contiguous along them (row sums: a warp per short row, a block per long
// one), otherwise consecutive results (column sums: coalesced across results). Few results over
// many elements split the elements over blocks (`splits`, one wave of resident blocks), whose
// partial accumulators a second, small kernel folds. A full reduction is the one-result case
// (CUB's DeviceReduce shape, at a quarter of its build time and 0.98 of its speed: see
// docs/performance.md).
#pragma once

#include "plan.hpp"

#if XF_CUDA_TU
namespace xf::detail {

struct reduce_config {
  int o_lanes = 1, r_lanes = 256;  // o_lanes * r_lanes == reduce_threads
  bool r_fast = true;              // consecutive threads take consecutive reduced elements
  int splits = 1;                  // blocks sharing one result's elements
  index_t chunk = 0;               // reduced elements per split (a multiple of E when chunked)
  bool chunked = false;            // lanes take chunks of E consecutive elements (r_fast, rank-1 reduced layout)
};
inline constexpr int reduce_threads = 256;

// The 16-byte load of a reduction's input: read once, and by no thread of the kernel written, so
// it takes the non-coherent path and skips L1 (2-3% of sum(x)'s time against plain loads in the
// sweep of bench/results/H200-2026-11-22-sweep-reduce/).
template <class W>
__device__ XF_FORCEINLINE W load_word(const W* src) {
  if constexpr (std::is_same_v<W, uint4>) {
    W w;
    asm("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(w.x), "=r"(w.y), "=r"(w.z), "=r"(w.w) : "l"(src));
    return w;
  } else {
    return __ldg(src);
  }
}

// load_vector for inputs no thread of the kernel writes.
template <class T, int E>
__device__ XF_FORCEINLINE void load_vector_readonly(const T* src, T* dst) {
  constexpr int bytes = E * static_cast<int>(sizeof(T));
  constexpr int width = bytes < 16 ? bytes : 16;
  using W = typename vector_word<width>::type;
  W w[bytes / width];
#pragma unroll
  for (int i = 0; i < bytes / width; ++i) w[i] = load_word(reinterpret_cast<const W*>(src) + i);
  __builtin_memcpy(dst, w, bytes);
}

// The expression's value at element `at` of loaded leaf values.
template <class Plan, class Vals, int... K>
__device__ XF_FORCEINLINE auto value_in(const Plan& p, const Vals& vals, int at, std::integer_sequence<int, K...>) {
  using Leaves = typename Plan::leaves_type;
  using Point = tuple<typename tuple_element_t<K, Leaves>::value_type...>;
  return p.fn(Point{{tuple_leaf<K, typename tuple_element_t<K, Leaves>::value_type>{get<K>(vals).v[at]}...}});
}

// mapped_element for a rank-1 reduced layout: one multiply-add per leaf and no branch, so the
// compiler can issue a round's loads together (through layout_positions it waited on each).
template <class Plan>
__device__ XF_FORCEINLINE typename Plan::acc_type mapped_linear(const Plan& p, const index_t (&kept_pos)[Plan::slots],
                                                               index_t r) {
  index_t pos[Plan::slots];
#pragma unroll
  for (int k = 0; k < Plan::L; ++k) pos[k] = kept_pos[k] + p.reduced.base[k] + r * p.reduced.stride[k][0];
  return p.op.map(value_at(p, pos, std::make_integer_sequence<int, Plan::L>{}), r);
}

template <class Plan>
using chunk_values = typename leaf_values<typename Plan::leaves_type, Plan::E>::type;

// Loads reduced elements r0 .. r0 + E - 1 of a result (leaf positions `kept_pos`) for every leaf,
// under p.vector: one 16-byte load where the leaf is contiguous along them, one element where it
// is broadcast, the elements one by one for generators.
template <bool Dense, class Plan>
__device__ XF_FORCEINLINE void load_chunk(const Plan& p, const index_t (&kept_pos)[Plan::slots], index_t r0,
                                          chunk_values<Plan>& vals) {
  constexpr int E = Plan::E;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          const auto& leaf = get<K>(p.leaves);
          using Leaf = std::remove_cvref_t<decltype(leaf)>;
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

// combine(a, b) where b's reduced elements all follow a's, both non-empty: the reducer's cheaper
// `append` where it has one (argmin/argmax), else combine.
template <class Op, class Acc>
__device__ XF_FORCEINLINE Acc append(const Op& op, const Acc& a, const Acc& b) {
  if constexpr (requires { op.append(a, b); }) return op.append(a, b);
  else return op.combine(a, b);
}

// Maps and folds a loaded chunk (reduced elements r0 .. r0 + E - 1) into one accumulator.
template <class Plan>
__device__ XF_FORCEINLINE typename Plan::acc_type fold_chunk(const Plan& p, const chunk_values<Plan>& vals, index_t r0) {
  constexpr auto leaf_seq = std::make_integer_sequence<int, Plan::L>{};
  auto acc = p.op.map(value_in(p, vals, 0, leaf_seq), r0);
  for (int e = 1; e < Plan::E; ++e) acc = append(p.op, acc, p.op.map(value_in(p, vals, e, leaf_seq), r0 + e));
  return acc;
}

// Folds reduced elements r0 .. r0 + E - 1 of a result into one accumulator: a loaded chunk in
// Mode 1 (p.vector) and 2 (p.dense too), element by element in Mode 0; decided outside the loops.
template <int Mode, class Plan>
__device__ XF_FORCEINLINE typename Plan::acc_type mapped_chunk(const Plan& p, const index_t (&kept_pos)[Plan::slots],
                                                              index_t r0) {
  if constexpr (Plan::E > 1 && Mode > 0) {
    chunk_values<Plan> vals;
    load_chunk<Mode == 2>(p, kept_pos, r0, vals);
    return fold_chunk(p, vals, r0);
  } else {
    auto acc = mapped_element(p, kept_pos, r0);
    for (int e = 1; e < Plan::E; ++e) acc = append(p.op, acc, mapped_element(p, kept_pos, r0 + e));
    return acc;
  }
}

template <class Plan>
__global__ void __launch_bounds__(reduce_threads) reduce_kernel(const __grid_constant__ Plan p, const reduce_config c,
                                                                typename Plan::acc_type* partial) {
  using Acc = typename Plan::acc_type;
  __shared__ alignas(16) unsigned char raw[reduce_threads * sizeof(Acc)];
  Acc* s = reinterpret_cast<Acc*>(raw);
  const int t = static_cast<int>(threadIdx.x);
  const int o_lane = c.r_fast ? t / c.r_lanes : t % c.o_lanes;
  const int r_lane = c.r_fast ? t % c.r_lanes : t / c.o_lanes;
  const index_t o = static_cast<index_t>(blockIdx.x) * c.o_lanes + o_lane;
  const index_t n_out = p.kept.size, n_red = p.reduced.size;
  Acc acc = p.op.identity();
  index_t out_pos = 0;
  if (o < n_out) {
    index_t kept_pos[Plan::slots];
    layout_positions(p.kept, p.kept_narrow, o, kept_pos, out_pos);
    // Whole chunks of E elements per lane (16-byte loads when p.vector), C chunks per round so
    // that their loads are in flight together (128 bytes a thread for one leaf, as many for two);
    // then the elements left over, one at a time.
    constexpr int E = Plan::E;
    constexpr int C = Plan::L == 1 ? 8 : 4;
    const index_t cstep = static_cast<index_t>(c.r_lanes) * E, round = C * cstep;
    const index_t y = blockIdx.y;
    // Splits interleave by rounds: split y takes rounds y, y + splits, ... and the last split also
    // what follows them, so the GPU sweeps memory front to back (as CUB's many small blocks do);
    // a contiguous share per split measured 3% slower. Element paths take contiguous shares.
    const bool interleave = c.splits > 1 && c.chunked;
    index_t r_begin, r_end, rounds_begin, rounds_step;
    if (interleave) {
      const index_t full = n_red / round * round;
      rounds_begin = y * round;
      rounds_step = c.splits * round;
      r_begin = y == c.splits - 1 ? full : n_red;
      r_end = n_red;
    } else {
      r_begin = y * c.chunk;
      r_end = r_begin + c.chunk < n_red ? r_begin + c.chunk : n_red;
      rounds_begin = r_begin;
      rounds_step = round;
    }
    const index_t whole_end = c.chunked ? r_begin + (r_end - r_begin) / E * E : r_begin;
    const index_t rounds_end = interleave ? n_red / round * round : whole_end;
    index_t r = r_begin;
    const auto chunks = [&]<int Mode>(std::integral_constant<int, Mode>) {
      // A lane's C chunks of a round lie cstep apart (next to each other, as CUB loads, measured no faster).
      const index_t lane_off = static_cast<index_t>(r_lane) * E;
      index_t base = rounds_begin;
#pragma unroll 1
      for (; base + round <= rounds_end; base += rounds_step) {
        const index_t rr = base + lane_off;
        if constexpr (Mode > 0 && E > 1) {
          // Every load of the round first, then the arithmetic: written as one loop of
          // mapped_chunk, the compiler waited for each chunk before issuing the next load.
          chunk_values<Plan> v[C];
#pragma unroll
          for (int u = 0; u < C; ++u) load_chunk<Mode == 2>(p, kept_pos, rr + u * cstep, v[u]);
          // The round's chunks follow one another: appended, then combined once with acc.
          auto in_round = fold_chunk(p, v[0], rr);
#pragma unroll
          for (int u = 1; u < C; ++u) in_round = append(p.op, in_round, fold_chunk(p, v[u], rr + u * cstep));
          acc = p.op.combine(acc, in_round);
        } else {
          Acc a[C];
#pragma unroll
          for (int u = 0; u < C; ++u) a[u] = mapped_chunk<Mode>(p, kept_pos, rr + u * cstep);
#pragma unroll
          for (int u = 1; u < C; ++u) a[0] = append(p.op, a[0], a[u]);
          acc = p.op.combine(acc, a[0]);
        }
      }
      r = (interleave ? r_begin : base) + lane_off;
#pragma unroll 1
      for (; r + E <= whole_end; r += cstep) acc = p.op.combine(acc, mapped_chunk<Mode>(p, kept_pos, r));
    };
    // Mode 2 loads without a per-chunk stride test: the compiler then keeps every load unpredicated.
    if constexpr (Plan::L == 1) {
      if (p.dense) chunks(std::integral_constant<int, 2>{});
      else if (p.vector) chunks(std::integral_constant<int, 1>{});
      else chunks(std::integral_constant<int, 0>{});
    } else if (p.vector) {
      chunks(std::integral_constant<int, 1>{});
    } else {
      chunks(std::integral_constant<int, 0>{});
    }
    const index_t step = c.r_lanes;
    r = whole_end + r_lane;
    const auto elements = [&]<bool Linear>(std::bool_constant<Linear>) {
      const auto element = [&](index_t at) { return Linear ? mapped_linear(p, kept_pos, at) : mapped_element(p, kept_pos, at); };
#pragma unroll 1
      for (; r + 7 * step < r_end; r += 8 * step) {
        Acc a[8];
#pragma unroll
        for (int u = 0; u < 8; ++u) a[u] = element(r + u * step);
#pragma unroll
        for (int u = 1; u < 8; ++u) a[0] = append(p.op, a[0], a[u]);
        acc = p.op.combine(acc, a[0]);
      }
#pragma unroll 1
      for (; r < r_end; r += step) acc = p.op.combine(acc, element(r));
    };
    if (p.reduced.rank == 1) elements(std::true_type{});
    else elements(std::false_type{});
  }
  s[t] = acc;
  __syncthreads();
  for (int width = c.r_lanes / 2; width > 0; width /= 2) {
    if (r_lane < width) s[t] = p.op.combine(s[t], s[c.r_fast ? t + width : t + width * c.o_lanes]);
    __syncthreads();
  }
  if (r_lane == 0 && o < n_out) {
    if (c.splits == 1) p.out[out_pos] = p.op.finish(s[t], n_red);
    else partial[static_cast<index_t>(blockIdx.y) * n_out + o] = s[t];
  }
}

// Folds the splits' partial accumulators of every result, then finishes it: `lanes` threads per
// result (a power of two dividing the block) take every lanes-th split, then fold in shared memory.
template <class Plan>
__global__ void __launch_bounds__(reduce_threads) reduce_splits_kernel(const __grid_constant__ Plan p, int splits, int lanes,
                                                                       const typename Plan::acc_type* partial) {
  using Acc = typename Plan::acc_type;
  __shared__ alignas(16) unsigned char raw[reduce_threads * sizeof(Acc)];
  Acc* s = reinterpret_cast<Acc*>(raw);
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

// Whether every result's elements are E-aligned contiguous runs in every leaf held in memory
// (or broadcast along them): then chunks load with 16-byte accesses.
template <class Plan>
bool vector_chunks(const Plan& p) {
  if (Plan::E == 1 || p.reduced.rank != 1) return false;
  bool ok = true;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          using Leaf = tuple_element_t<K, typename Plan::leaves_type>;
          if constexpr (Leaf::in_memory) {
            const index_t s = p.reduced.stride[K][0];
            if (s == 0) return;
            constexpr index_t bytes = static_cast<index_t>(sizeof(typename Leaf::value_type)) * Plan::E;
            ok = ok && s == 1 && reinterpret_cast<std::uintptr_t>(get<K>(p.leaves).ptr + p.kept.base[K]) % bytes == 0;
            for (int d = 0; d < p.kept.rank && ok; ++d)
              ok = (p.kept.stride[K][d] * static_cast<index_t>(sizeof(typename Leaf::value_type))) % bytes == 0;
          }
        }(),
        ...);
  }(std::make_integer_sequence<int, Plan::L>{});
  return ok;
}

// How a reduction spreads over the GPU, which holds `slots` blocks of the kernel at once.
template <class Plan>
reduce_config choose_reduce_config(const Plan& p, index_t slots) {
  const index_t n_out = p.kept.size, n_red = p.reduced.size;
  reduce_config c;
  bool contiguous_along_reduced = false;
  for (int k = 0; k < Plan::L; ++k) {
    const index_t s = p.reduced.stride[k][0];
    contiguous_along_reduced = contiguous_along_reduced || s == 1 || s == -1;
  }
  c.r_fast = contiguous_along_reduced || n_out == 1;
  if (c.r_fast) {
    // A block per result while each thread still gets 8 elements: many small blocks even out the
    // last wave (a warp per row of 8192 floats left a wave half empty); a warp per short row.
    c.r_lanes = n_red >= 8 * reduce_threads ? reduce_threads : 32;
  } else {
    // 32 consecutive results per block, 8 threads splitting each result's elements.
    c.r_lanes = 8;
  }
  c.o_lanes = reduce_threads / c.r_lanes;
  const index_t blocks = (n_out + c.o_lanes - 1) / c.o_lanes;
  // Fewer blocks than the GPU holds: split each result's elements so that one full wave runs
  // (any count, not a power of two: every SM gets the same work), at least 64 elements a thread.
  // (Two, four and eight waves measured no faster: bench/results/H200-2026-11-22-waves/.)
  index_t splits = 1;
  if (blocks < slots) {
    splits = slots / blocks;
    const index_t most = n_red / (static_cast<index_t>(c.r_lanes) * 64);
    if (splits > most) splits = most > 0 ? most : 1;
    if (splits > 65535) splits = 65535;
  }
  c.splits = static_cast<int>(splits);
  c.chunk = (n_red + splits - 1) / splits;
  c.chunked = c.r_fast && p.reduced.rank == 1 && Plan::E > 1;
  if (c.chunked) c.chunk = (c.chunk + Plan::E - 1) / Plan::E * Plan::E;
  return c;
}

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
  // slower (0.87 against 0.89 of CUB's bandwidth, bench/results/H200-2026-11-22-3b72c8f-dense/).
  p.dense = Plan::L == 1 && p.vector && [&]<int... K>(std::integer_sequence<int, K...>) {
    return ((!tuple_element_t<K, typename Plan::leaves_type>::in_memory || p.reduced.stride[K][0] == 1) && ...);
  }(std::make_integer_sequence<int, Plan::L>{});
  const index_t blocks = (p.kept.size + c.o_lanes - 1) / c.o_lanes;
  if (blocks > INT_MAX) throw error("xf: reduction with too many results for one launch (" + std::to_string(p.kept.size) + ")");
  buffer partial;
  if (c.splits > 1) partial = allocate_device(sizeof(Acc) * static_cast<std::size_t>(c.splits) * static_cast<std::size_t>(p.kept.size));
  reduce_kernel<Plan><<<dim3(static_cast<unsigned>(blocks), static_cast<unsigned>(c.splits)), reduce_threads, 0, stream>>>(
      p, c, static_cast<Acc*>(partial.get()));
  XF_CUDA_CHECK(cudaGetLastError());
  if (c.splits > 1) {
    // Threads per result: about one per split, at most a block.
    int lanes = 1;
    while (lanes * 2 <= reduce_threads && lanes * 2 <= c.splits) lanes *= 2;
    const index_t per_block = reduce_threads / lanes;
    const index_t finish_blocks = (p.kept.size + per_block - 1) / per_block;
    reduce_splits_kernel<Plan><<<static_cast<unsigned>(finish_blocks), reduce_threads, 0, stream>>>(
        p, c.splits, lanes, static_cast<const Acc*>(partial.get()));
    XF_CUDA_CHECK(cudaGetLastError());
  }
}

}  // namespace xf::detail
#endif
