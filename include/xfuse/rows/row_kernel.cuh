// SPDX-License-Identifier: Apache-2.0
// Device rows of softmax, log-softmax, logsumexp, layer norm and RMS norm (row_plan.hpp) in one
// pass over memory: each thread holds V of a row's values in registers (64 bytes: 16 floats, 8
// doubles), the row's statistics fold across the row's threads, then each thread computes and
// stores its outputs. Two walks here; on sm_90 long rows are staged in shared memory
// (staged_row_kernel.cuh) and long strided rows held by a cluster (cluster_column_kernel.cuh),
// both with this file's arithmetic (compute_row); row_launch.cuh chooses.
// - contiguous rows (every leaf steps by 0 or +-1 along the row): 1 to 1024 threads per row,
//   loading chunks of E consecutive elements (16-byte loads where aligned), folding by warp
//   shuffles and, across a row's warps, shared memory. A block of fewer threads' rows holds several.
// - strided rows whose neighbours are adjacent in memory (softmax(a, 0) of a C-ordered matrix):
//   a block's 32 lanes take 32 neighbouring rows, so each warp load reads 128 consecutive bytes;
//   its warps split the rows' elements and fold through shared memory (rows of up to 512 floats).
// softmax folds the maximum, then the sum of exponentials; the norms fold the sum, then the squared
// deviations from the mean (exact two-pass arithmetic on the values held). Other rows take two
// passes (rows.hpp).
#pragma once

#include "../reduce/kernel.cuh"
#include "../reduce/row_plan.hpp"

#if XF_CUDA_TU
namespace xf::detail {

struct row_policy : held_row_policy {
  // Strided rows: neighbouring rows per block, one per lane.
  static constexpr int lanes = 32;
};

// Values of a row per thread for compute type C.
template <class C>
inline constexpr int row_values_per_thread = row_policy::bytes_per_thread / static_cast<int>(sizeof(C));

template <bool Max, class C>
__device__ XF_FORCEINLINE C fold_two(C a, C b) {
  return Max ? nan_max(a, b) : a + b;
}

// A thread's V values of a row, in registers (the walks here; cluster_column_kernel.cuh holds them
// in shared memory).
template <class C, int V>
struct held_values {
  C v[V];
  __device__ XF_FORCEINLINE C& operator[](int i) { return v[i]; }
  __device__ XF_FORCEINLINE const C& operator[](int i) const { return v[i]; }
};

// ---------------------------------------------------------------- contiguous rows

// A row of `row_threads` threads (a power of two; 32 or more span whole, consecutive warps;
// fewer share a warp, aligned), this thread being the t-th; its values are chunks of E
// consecutive elements, chunk k * row_threads + t in value slots k * E .. k * E + E - 1.
template <class Plan>
struct contiguous_row {
  using C = typename Plan::acc_type;
  using out_type = typename Plan::out_type;
  static constexpr int V = row_values_per_thread<C>, E = Plan::E;
  const Plan& p;
  index_t kept_pos[Plan::slots] = {};
  index_t out_pos = 0;
  bool live;
  int t, row_threads;
  C* scratch;  // row_policy::max_row_threads / 32 values

  __device__ XF_FORCEINLINE int n() const { return static_cast<int>(p.reduced.size); }
  XF_HD static constexpr int held_count() { return V; }
  static constexpr int held_group = V;
  __device__ XF_FORCEINLINE held_values<C, V> held() const { return {}; }
  __device__ XF_FORCEINLINE int position(int i) const { return ((i / E) * row_threads + t) * E + i % E; }
  __device__ XF_FORCEINLINE bool first() const { return live && t == 0; }

  // Every thread of the block calls it (it synchronises the block when a row spans several warps).
  template <bool Max>
  __device__ XF_FORCEINLINE C fold(C x) const {
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
      if (offset >= row_threads) continue;  // xor within an aligned group of row_threads lanes
      x = fold_two<Max>(x, __shfl_xor_sync(0xffffffffu, x, offset));
    }
    if (row_threads <= 32) return x;
    const int warp = static_cast<int>(threadIdx.x) / 32, warps = row_threads / 32;
    __syncthreads();  // the scratch of an earlier fold has been read
    if (threadIdx.x % 32 == 0) scratch[warp] = x;
    __syncthreads();
    const int first_warp = warp / warps * warps;
    C r = scratch[first_warp];
    for (int w = 1; w < warps; ++w) r = fold_two<Max>(r, scratch[first_warp + w]);
    return r;
  }

  // The thread's values, `absent` past the row's end (-inf for a maximum, 0 for a sum).
  __device__ XF_FORCEINLINE void load(C absent, held_values<C, V>& v) const {
    constexpr auto leaf_seq = std::make_integer_sequence<int, Plan::L>{};
    const int count = n();
#pragma unroll
    for (int k = 0; k < V / E; ++k) {
      const int r0 = (k * row_threads + t) * E;
      if (live && r0 + E <= count) {
        if (p.vector) {  // E elements with one 16-byte load per leaf
          chunk_values<Plan> vals;
          load_chunk<false>(p, kept_pos, r0, vals);
#pragma unroll
          for (int e = 0; e < E; ++e) v[k * E + e] = p.op.map(value_in(p, vals, e, leaf_seq), r0 + e);
        } else {
#pragma unroll
          for (int e = 0; e < E; ++e) v[k * E + e] = mapped_linear(p, kept_pos, r0 + e);
        }
      } else {
#pragma unroll
        for (int e = 0; e < E; ++e) v[k * E + e] = live && r0 + e < count ? mapped_linear(p, kept_pos, r0 + e) : absent;
      }
    }
  }

  // Stores output(v[i], position), of the output type, for each of the thread's values.
  template <class Output>
  __device__ XF_FORCEINLINE void store(const held_values<C, V>& v, const Output& output) const {
    using Out = typename Plan::out_type;
    constexpr int width = E * static_cast<int>(sizeof(Out)) < 16 ? E * static_cast<int>(sizeof(Out)) : 16;
    if (!live) return;
    const int count = n();
    const index_t step = p.reduced.out_stride[0];
    Out* const row_out = p.out + out_pos;
    // Chunks start at multiples of E elements, so one test covers every chunk's alignment.
    const bool vector = step == 1 && reinterpret_cast<std::uintptr_t>(row_out) % width == 0;
#pragma unroll
    for (int k = 0; k < V / E; ++k) {
      const int r0 = (k * row_threads + t) * E;
      if (r0 >= count) break;
      if (vector && r0 + E <= count) {
        Out r[E];
#pragma unroll
        for (int e = 0; e < E; ++e) r[e] = output(v[k * E + e], r0 + e);
        store_vector<Out, E>(row_out + r0, r);
      } else {  // the output of a position past the row's end is not even computed (it may read a weight)
#pragma unroll
        for (int e = 0; e < E; ++e)
          if (r0 + e < count) row_out[(r0 + e) * step] = output(v[k * E + e], r0 + e);
      }
    }
  }
};

// ---------------------------------------------------------------- strided rows

// One of 32 neighbouring rows (this thread's lane) split over `row_threads` threads, the block's
// warps, this thread being the t-th; value i is element i * row_threads + t.
template <class Plan>
struct strided_row {
  using C = typename Plan::acc_type;
  using out_type = typename Plan::out_type;
  static constexpr int V = row_values_per_thread<C>;
  const Plan& p;
  index_t kept_pos[Plan::slots] = {};
  index_t out_pos = 0;
  bool live;
  int t, row_threads;
  C (*scratch)[row_policy::lanes];  // one row of lanes per warp

  __device__ XF_FORCEINLINE int n() const { return static_cast<int>(p.reduced.size); }
  XF_HD static constexpr int held_count() { return V; }
  static constexpr int held_group = V;
  __device__ XF_FORCEINLINE held_values<C, V> held() const { return {}; }
  __device__ XF_FORCEINLINE int position(int i) const { return i * row_threads + t; }
  __device__ XF_FORCEINLINE bool first() const { return live && t == 0; }

  // Every thread of the block calls it: folds across the block's warps, lane by lane.
  template <bool Max>
  __device__ XF_FORCEINLINE C fold(C x) const {
    const int lane = static_cast<int>(threadIdx.x) % row_policy::lanes, warp = static_cast<int>(threadIdx.x) / row_policy::lanes;
    __syncthreads();  // the scratch of an earlier fold has been read
    scratch[warp][lane] = x;
    __syncthreads();
    C r = scratch[0][lane];
    for (int w = 1; w < row_threads; ++w) r = fold_two<Max>(r, scratch[w][lane]);
    return r;
  }

  __device__ XF_FORCEINLINE void load(C absent, held_values<C, V>& v) const {
    const int count = n();
#pragma unroll
    for (int i = 0; i < V; ++i) {
      const int r = position(i);
      v[i] = live && r < count ? mapped_linear(p, kept_pos, r) : absent;
    }
  }

  template <class Output>
  __device__ XF_FORCEINLINE void store(const held_values<C, V>& v, const Output& output) const {
    using Out = typename Plan::out_type;
    if (!live) return;
    const int count = n();
    const index_t step = p.reduced.out_stride[0];
#pragma unroll
    for (int i = 0; i < V; ++i) {
      const int r = position(i);
      if (r >= count) break;
      p.out[out_pos + r * step] = output(v[i], r);
    }
  }
};

// ---------------------------------------------------------------- what a row computes

// Calls f(i) for each value i that the thread holds: in groups of Row::held_group unrolled (every
// value at once in registers; a few at a time from shared memory, their loads issued together).
template <class Row, class F>
__device__ XF_FORCEINLINE void for_each_held(const Row& row, const F& f) {
  const int held = row.held_count();
  for (int g = 0; g < held; g += Row::held_group) {
#pragma unroll
    for (int u = 0; u < Row::held_group; ++u)
      if (g + u < held) f(g + u);
  }
}

// softmax, log_softmax, logsumexp of a row held in v (absent elements -inf), each output stored
// through `finish` (its epilogue's `row` for this row).
template <row_result What, class Row, class Held, class Finish, class EpilogueRow>
__device__ XF_FORCEINLINE void softmax_row(const Row& row, Held& v, const Finish& finish, const EpilogueRow& at) {
  using C = typename Row::C;
  using Out = typename Row::out_type;
  C max = -limits<C>::infinity();
  for_each_held(row, [&](int i) { max = nan_max(max, v[i]); });
  max = row.template fold<true>(max);
  const C shift = row_shift<What>(max);
  // Absent elements' exponential is 0 unless the shift is -inf too, so they are skipped by position.
  const int n = row.n();
  C sum = 0;
  for_each_held(row, [&](int i) {
    const C shifted = v[i] - shift;
    const C e = row.position(i) < n ? math::r_exp(shifted) : C(0);
    sum += e;
    v[i] = What == row_result::softmax ? e : shifted;
  });
  sum = row.template fold<false>(sum);
  if constexpr (What == row_result::logsumexp) {
    if (row.first()) row.p.out[row.out_pos] = finish.template store<Out>(at, math::r_log(sum) + shift, 0);
  } else if constexpr (What == row_result::softmax) {
    const C inverse_sum = C(1) / sum;  // one division per row; the outputs multiply
    row.store(v, [&](C e, int r) { return finish.template store<Out>(at, e * inverse_sum, r); });
  } else {
    const C log_sum = math::r_log(sum);
    row.store(v, [&](C shifted, int r) { return finish.template store<Out>(at, shifted - log_sum, r); });
  }
}

// layer_norm, rms_norm of a row held in v (absent elements 0).
template <row_result What, class Row, class Held, class Finish, class EpilogueRow>
__device__ XF_FORCEINLINE void norm_row(const Row& row, const Held& v, const Finish& finish, const EpilogueRow& at) {
  using C = typename Row::C;
  using Out = typename Row::out_type;
  const int n = row.n();
  C mean = 0, squares = 0;
  if constexpr (What == row_result::layer_norm) {
    for_each_held(row, [&](int i) { mean += v[i]; });
    mean = row.template fold<false>(mean) / static_cast<C>(n);
    for_each_held(row, [&](int i) {
      const C d = row.position(i) < n ? v[i] - mean : C(0);
      squares += d * d;
    });
  } else {
    for_each_held(row, [&](int i) { squares += v[i] * v[i]; });
  }
  squares = row.template fold<false>(squares);
  const C inverse_std = C(1) / math::r_sqrt(squares / static_cast<C>(n) + finish.eps);
  row.store(v, [&](C x, int r) { return finish.template store<Out>(at, finish.apply((x - mean) * inverse_std, r), r); });
}

// Row o of the plan (live or not: every thread of the block takes part in the folds).
template <row_result What, class Row, class Finish>
__device__ XF_FORCEINLINE void compute_row(const Row& row, const Finish& finish, index_t o) {
  using C = typename Row::C;
  auto v = row.held();
  row.load(is_softmax_kind<What> ? -limits<C>::infinity() : C(0), v);
  const auto at = row.live ? finish.epilogue.row(o) : decltype(finish.epilogue.row(o)){};
  if constexpr (is_softmax_kind<What>) softmax_row<What>(row, v, finish, at);
  else norm_row<What>(row, v, finish, at);
}

// ---------------------------------------------------------------- kernels

template <row_result What, class Plan, class Finish>
__global__ void __launch_bounds__(row_policy::max_row_threads)
    row_kernel(const __grid_constant__ Plan p, int row_threads, const __grid_constant__ Finish finish) {
  using C = typename Plan::acc_type;
  static_assert(row_values_per_thread<C> % Plan::E == 0, "xf: a row chunk must divide the values a thread holds");
  __shared__ C scratch[row_policy::max_row_threads / 32];
  const index_t o = static_cast<index_t>(blockIdx.x) * (blockDim.x / row_threads) + threadIdx.x / row_threads;
  // The block's last rows may not exist; their threads still fold.
  contiguous_row<Plan> row{p, {}, 0, o < p.kept.size, static_cast<int>(threadIdx.x) % row_threads, row_threads, scratch};
  if (row.live) layout_positions(p.kept, p.kept_narrow, o, row.kept_pos, row.out_pos);
  compute_row<What>(row, finish, o);
}

// Blocks of row_policy::lanes * warps threads, each taking 32 neighbouring rows.
template <row_result What, class Plan, class Finish>
__global__ void __launch_bounds__(row_policy::max_row_threads)
    strided_row_kernel(const __grid_constant__ Plan p, const __grid_constant__ Finish finish) {
  using C = typename Plan::acc_type;
  __shared__ C scratch[row_policy::max_row_threads / row_policy::lanes][row_policy::lanes];
  const int lane = static_cast<int>(threadIdx.x) % row_policy::lanes, warp = static_cast<int>(threadIdx.x) / row_policy::lanes;
  const index_t o = static_cast<index_t>(blockIdx.x) * row_policy::lanes + lane;
  strided_row<Plan> row{p, {}, 0, o < p.kept.size, warp, static_cast<int>(blockDim.x) / row_policy::lanes, scratch};
  if (row.live) layout_positions(p.kept, p.kept_narrow, o, row.kept_pos, row.out_pos);
  compute_row<What>(row, finish, o);
}

}  // namespace xf::detail
#endif
