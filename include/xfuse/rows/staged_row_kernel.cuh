// SPDX-License-Identifier: Apache-2.0
// Long contiguous rows of the row functions on sm_90 (row_plan.hpp's kinds), staged in shared
// memory (reduce/staged_row.cuh): the block sweeps the staged row three times (the statistics,
// then the outputs) and writes each output once.
#pragma once

#include "../reduce/staged_row.cuh"

#if XF_CUDA_TU
namespace xf::detail {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Folds x over the block by maximum or sum (every thread gets the result).
template <bool Max, class C>
__device__ XF_FORCEINLINE C fold_block(C x, C* scratch) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    const C y = __shfl_xor_sync(0xffffffffu, x, offset);
    x = Max ? nan_max(x, y) : x + y;
  }
  __syncthreads();  // the scratch of an earlier fold has been read
  if (threadIdx.x % 32 == 0) scratch[threadIdx.x / 32] = x;
  __syncthreads();
  C r = scratch[0];
  for (unsigned w = 1; w < blockDim.x / 32; ++w) r = Max ? nan_max(r, scratch[w]) : r + scratch[w];
  return r;
}

// Writes the outputs of softmax's kinds at positions first .. first + n - 1 of a row (all of it,
// or a piece: split_row_kernel.cuh) from the row's shift and sum of exponentials; row_out is the
// row's first output. logsumexp's one output is written with the row's first position.
template <row_result What, class Plan, class Finish, class EpilogueRow>
__device__ XF_FORCEINLINE void store_softmax_outputs(const staged_row<Plan>& value, index_t first, typename Plan::out_type* row_out,
                                                     index_t step, const row_stats<typename Plan::acc_type>& s, const Finish& finish,
                                                     const EpilogueRow& at) {
  using C = typename Plan::acc_type;
  using Out = typename Plan::out_type;
  if constexpr (What == row_result::logsumexp) {
    if (first == 0 && threadIdx.x == 0) *row_out = finish.template store<Out>(at, math::r_log(s.sum) + s.shift, 0);
  } else if constexpr (What == row_result::softmax) {
    const C inverse_sum = C(1) / s.sum;
    store_sweep(value, row_out + first * step, step,
                [&](C x, int r) { return finish.template store<Out>(at, math::r_exp(x - s.shift) * inverse_sum, first + r); });
  } else {
    const C log_sum = math::r_log(s.sum);
    store_sweep(value, row_out + first * step, step, [&](C x, int r) { return finish.template store<Out>(at, (x - s.shift) - log_sum, first + r); });
  }
}

// softmax, log_softmax, logsumexp of a staged row: a sweep for the maximum, one for the sum of
// exponentials, one for the outputs.
template <row_result What, class Plan, class Finish, class EpilogueRow>
__device__ XF_FORCEINLINE void staged_softmax(const staged_row<Plan>& value, typename Plan::out_type* row_out, index_t step,
                                              typename Plan::acc_type* scratch, const Finish& finish, const EpilogueRow& at) {
  using C = typename Plan::acc_type;
  C max = -limits<C>::infinity();
  sweep(value, [&](C x, int) { max = nan_max(max, x); });
  const C shift = row_shift<What>(fold_block<true>(max, scratch));
  C sum = 0;
  sweep(value, [&](C x, int) { sum += math::r_exp(x - shift); });
  sum = fold_block<false>(sum, scratch);
  store_softmax_outputs<What>(value, 0, row_out, step, row_stats<C>{shift, sum}, finish, at);
}

// layer_norm, rms_norm of a staged row: a sweep for the mean (layer norm), one for the squares,
// one for the outputs.
template <row_result What, class Plan, class Finish, class EpilogueRow>
__device__ XF_FORCEINLINE void staged_norm(const staged_row<Plan>& value, typename Plan::out_type* row_out, index_t step,
                                           typename Plan::acc_type* scratch, const Finish& finish, const EpilogueRow& at) {
  using C = typename Plan::acc_type;
  using Out = typename Plan::out_type;
  const int n = value.n;
  C mean = 0, squares = 0;
  if constexpr (What == row_result::layer_norm) {
    sweep(value, [&](C x, int) { mean += x; });
    mean = fold_block<false>(mean, scratch) / static_cast<C>(n);
  }
  sweep(value, [&](C x, int) { squares += (x - mean) * (x - mean); });
  const C inverse_std = C(1) / math::r_sqrt(fold_block<false>(squares, scratch) / static_cast<C>(n) + finish.eps);
  store_sweep(value, row_out, step, [&](C x, int r) { return finish.template store<Out>(at, finish.apply((x - mean) * inverse_std, r), r); });
}
#endif

// One block per row (blockIdx.x), its leaves' rows in dynamic shared memory.
template <row_result What, class Plan, class Finish>
__global__ void __launch_bounds__(staged_row_policy::block_threads)
    staged_row_kernel(const __grid_constant__ Plan p, const __grid_constant__ Finish finish) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using C = typename Plan::acc_type;
  extern __shared__ __align__(16) unsigned char staged[];
  __shared__ __align__(8) unsigned long long barrier_word;
  __shared__ C scratch[staged_row_policy::block_threads / 32];
  staged_row<Plan> row{p, staged, {}, {}, static_cast<int>(p.reduced.size), true};
  index_t out_pos;
  layout_positions(p.kept, p.kept_narrow, blockIdx.x, row.kept_pos, out_pos);
  stage_row(row, staged, bulk::shared_address(&barrier_word));
  const auto at = finish.epilogue.row(blockIdx.x);
  if constexpr (is_softmax_kind<What>) staged_softmax<What>(row, p.out + out_pos, p.reduced.out_stride[0], scratch, finish, at);
  else staged_norm<What>(row, p.out + out_pos, p.reduced.out_stride[0], scratch, finish, at);
#endif
}

template <row_result What, class Plan, class Finish>
void staged_rows_device(const Plan& p, const Finish& finish, int device, cudaStream_t stream) {
  if (p.kept.size > INT_MAX) throw error("xf: too many rows for one launch (" + std::to_string(p.kept.size) + ")");
  const auto bytes = static_cast<std::size_t>(staged_row_bytes(p, p.reduced.size));
  constexpr auto kernel = staged_row_kernel<What, Plan, Finish>;
  set_staged_carveout<kernel>(device, p.reduced.size * static_cast<index_t>(sizeof(typename Plan::out_type)),
                              (finish.weight != nullptr) + (finish.bias != nullptr) + decltype(finish.epilogue)::leaves_in_memory +
                                  rows_read_by_every_row(p));
  kernel<<<static_cast<unsigned>(p.kept.size), staged_row_policy::block_threads, bytes, stream>>>(p, finish);
  XF_CUDA_CHECK(cudaGetLastError());
}

}  // namespace xf::detail
#endif
