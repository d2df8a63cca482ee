// SPDX-License-Identifier: Apache-2.0
// An expression and the reductions of its rows that it uses (row_statistics.hpp), for long
// contiguous rows on sm_90: the row staged in shared memory (staged_row.cuh), one block per row.
// The block folds the row's statistics (held_fold.hpp: var sweeps twice, around the mean), thread
// 0 stores them into the reductions' result arrays, and the block sweeps the staged row once more
// to write its outputs. Every array in memory is staged once, whatever its
// element type (x and a weight w of the same type both stay on chip), so the register walk's
// restriction of one array per element type does not apply.
#pragma once

#include "row_statistics_kernel.cuh"
#include "staged_row.cuh"

#if XF_CUDA_TU
namespace xf::detail {

template <class Plan, class Destinations>
__global__ void __launch_bounds__(staged_row_policy::block_threads)
    staged_row_statistics_kernel(const __grid_constant__ Plan p, const __grid_constant__ Destinations stats) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using Leaves = typename Plan::leaves_type;
  using Acc = typename Plan::acc_type;
  using Out = typename Plan::out_type;
  using Stats = decltype([]<int... K>(std::integer_sequence<int, K...>) {
    return tuple<typename tuple_element_t<K, Leaves>::value_type...>{};
  }(std::make_integer_sequence<int, Plan::L>{}));
  extern __shared__ __align__(16) unsigned char staged[];
  __shared__ __align__(8) unsigned long long barrier_word;
  // Raw bytes: an accumulator of complex values has a constructor, which __shared__ forbids.
  __shared__ alignas(16) unsigned char raw[staged_row_policy::block_threads / 32 * sizeof(Acc)];
  Acc* const scratch = reinterpret_cast<Acc*>(raw);
  staged_row<Plan> row{p, staged, {}, {}, static_cast<int>(p.reduced.size), true};
  index_t out_pos;
  layout_positions(p.kept, p.kept_narrow, blockIdx.x, row.kept_pos, out_pos);
  stage_row(row, staged, bulk::shared_address(&barrier_word));

  // The statistics (the reductions' inputs read no statistic: row_statistics.hpp).
  const Stats none{};
  const Acc acc = fold_held_row(p, [&](const auto& f) { sweep_points(row, none, [&](const auto& v, int r) { f(v, r); }); },
                                static_cast<int>(blockDim.x), scratch);
  // The outputs, from the staged row and the statistics.
  const Stats row_stats = finish_row_statistics<Stats>(p, stats, acc, row.n, row.kept_pos, threadIdx.x == 0);
  store_sweep_points(row, row_stats, p.out + out_pos, p.reduced.out_stride[0],
                     [&](const auto& v, int) -> Out { return get<0>(v); });
#endif
}

// Threads of a block for rows of n elements: staged_row_policy's below its shortest row about 16
// elements a thread (32 to 256: a row of 1024 floats takes 64, and an SM holds 32 such rows in
// flight instead of 8).
inline int staged_statistics_threads(index_t n) {
  if (n >= staged_row_policy::shortest_row) return staged_row_policy::block_threads;
  int threads = 32;
  while (threads < staged_row_policy::block_threads && threads * 16 < n) threads *= 2;
  return threads;
}

// One block per row, the staged rows in dynamic shared memory (within the 48 KiB a block takes
// without opting in: staged_row_policy).
template <class Plan, class Destinations>
void staged_row_statistics_device(const Plan& p, const Destinations& stats, int device, cudaStream_t stream) {
  if (p.kept.size > INT_MAX) throw error("xf: too many rows for one launch (" + std::to_string(p.kept.size) + ")");
  constexpr auto kernel = staged_row_statistics_kernel<Plan, Destinations>;
  set_staged_carveout<kernel>(device, p.reduced.size * static_cast<index_t>(sizeof(typename Plan::out_type)), rows_read_by_every_row(p));
  const auto bytes = static_cast<std::size_t>(staged_row_bytes(p, p.reduced.size));
  kernel<<<static_cast<unsigned>(p.kept.size), staged_statistics_threads(p.reduced.size), bytes, stream>>>(p, stats);
  XF_CUDA_CHECK(cudaGetLastError());
}

}  // namespace xf::detail
#endif
