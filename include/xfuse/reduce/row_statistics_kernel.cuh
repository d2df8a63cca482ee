// SPDX-License-Identifier: Apache-2.0
// One kernel for an expression and the reductions along one axis that it uses
// (row_statistics.hpp): each row (the elements along the axis) is read by `row_threads` threads of
// a block, which fold its statistics (every described reduction at once, reducers_together), store
// them into the reductions' result arrays and, after a barrier, compute the row's outputs from the
// expression, whose reductions are leaves reading those arrays. The second read of the row comes
// from the cache the first read filled (a row of 16384 floats is 64 KiB), so memory sees about one
// read and one write.
#pragma once

#include <utility>

#include "kernel.cuh"
#include "row_plan.hpp"

#if XF_CUDA_TU
namespace xf::detail {

struct row_statistics_policy {
  static constexpr int block_threads = 256;
  // Elements of a row per thread below which a row takes fewer threads (and a block several rows).
  static constexpr int min_elements_per_thread = 8;
  // Longer rows take two passes (a reduction, then the element-wise kernel): the reread would
  // leave the cache, and one block per row would leave most of the GPU idle.
  static constexpr index_t max_row = 65536;
};

// Where the statistics of a row go: result array I of the reductions, at the position that the
// expression's leaf `slot[I]` (reading that array) has for the row.
template <class... Out>
struct statistics_destinations {
  tuple<Out*...> to;
  int slot[sizeof...(Out)];
};

// Reduced element r of the row whose leaf positions are `kept_pos`: the zipped expression's value
// there (the expression's value first, then the reductions' inputs).
template <class Plan>
__device__ XF_FORCEINLINE auto zipped_value_at(const Plan& p, const index_t (&kept_pos)[Plan::slots], index_t r) {
  index_t pos[Plan::slots];
#pragma unroll
  for (int k = 0; k < Plan::L; ++k) pos[k] = kept_pos[k] + p.reduced.base[k] + r * p.reduced.stride[k][0];
  return value_at_positions(p.fn, p.leaves, pos, std::make_integer_sequence<int, Plan::L>{});
}

template <class Plan, class Destinations>
__global__ void __launch_bounds__(row_statistics_policy::block_threads)
    row_statistics_kernel(const __grid_constant__ Plan p, const __grid_constant__ Destinations stats, int row_threads) {
  using Acc = typename Plan::acc_type;
  constexpr int threads = row_statistics_policy::block_threads;
  __shared__ alignas(16) unsigned char raw[threads * sizeof(Acc)];
  Acc* folded = reinterpret_cast<Acc*>(raw);
  const int t = static_cast<int>(threadIdx.x), lane = t % row_threads;
  const index_t o = static_cast<index_t>(blockIdx.x) * (threads / row_threads) + t / row_threads;
  const index_t n = p.reduced.size;
  const bool live = o < p.kept.size;  // the block's last rows may not exist; their threads still fold
  index_t kept_pos[Plan::slots] = {}, out_pos = 0;
  if (live) layout_positions(p.kept, p.kept_narrow, o, kept_pos, out_pos);

  // The statistics: each thread folds every row_threads-th element, then the row's threads fold.
  Acc acc = p.op.identity();
  if (live) {
#pragma unroll 4
    for (index_t r = lane; r < n; r += row_threads) acc = p.op.combine(acc, mapped_linear(p, kept_pos, r));
  }
  folded[t] = acc;
  __syncthreads();
  for (int width = row_threads / 2; width > 0; width /= 2) {
    if (lane < width) folded[t] = p.op.combine(folded[t], folded[t + width]);
    __syncthreads();
  }
  if (live && lane == 0) {
    const auto results = p.op.finish(folded[t], n);
    [&]<int... I>(std::integer_sequence<int, I...>) {
      ((get<I>(stats.to)[kept_pos[stats.slot[I]]] = get<I>(results)), ...);
    }(std::make_integer_sequence<int, std::remove_cvref_t<decltype(results)>::size>{});
  }
  __syncthreads();  // the statistics are stored and visible to the block

  // The outputs: the expression reads the row again and its statistics.
  if (!live) return;
  const index_t step = p.reduced.out_stride[0];
#pragma unroll 4
  for (index_t r = lane; r < n; r += row_threads) p.out[out_pos + r * step] = get<0>(zipped_value_at(p, kept_pos, r));
}

// Threads per row: a power of two, about min_elements_per_thread elements each, at most a block.
inline int row_statistics_threads(index_t n) {
  int threads = 1;
  while (threads < row_statistics_policy::block_threads &&
         static_cast<index_t>(threads) * row_statistics_policy::min_elements_per_thread < n)
    threads *= 2;
  return threads;
}

}  // namespace xf::detail
#endif
