// SPDX-License-Identifier: Apache-2.0
// Contiguous rows of softmax's kinds too long for one block's shared memory (64 rows of 2^20
// floats), on sm_90: a row split into pieces, each piece staged in one block's shared memory by the
// bulk-copy engine (reduce/staged_row.cuh) and read once. Each block folds its piece's maximum and
// sum of exponentials, publishes them in global memory and waits until every piece of its row has
// arrived; then every block combines the row's parts in the same order (online_row_reducer's
// combine, as the two-pass form) and writes its piece's outputs from shared memory. The grid takes
// rows_per_round rows at a time, each block the same piece of each. The waits need every block
// running at once: the grid is at most what the GPU holds at once and is launched cooperative (the
// driver guarantees it). Rows that do not fit the whole GPU's share, and the norms' long rows
// (slower this way with a weight and bias: row_launch.cuh), take two passes (rows.hpp). Measured
// in docs/performance.md, "Long rows split over blocks".
#pragma once

#include <algorithm>
#include <cstddef>

#include "../base/atomic.hpp"
#include "../base/memory.hpp"
#include "../reduce/kernel.cuh"
#include "staged_row_kernel.cuh"

namespace xf::detail {

// Blocks of staged_row_policy::block_threads threads, as the staged rows'.
struct split_row_policy {
  // A block's piece: at most 32 KiB of staged rows (six blocks an SM on sm_90). Two buffers of 16
  // KiB a block (the next row's piece copied in while the block works on this one) measured 0.57
  // ms for 64 x 2^20 floats against 0.29: a row's time is set by the wait for its slowest piece,
  // and smaller pieces mean more rounds of waits (docs/performance.md).
  static constexpr index_t max_piece_bytes = 32 * 1024;
  // Pieces of fewer elements are not worth a block's wait for its row, but for the last piece.
  static constexpr index_t min_piece = 2048;
  // A piece is a multiple of 16 elements, so that every piece of every leaf starts 16-byte aligned.
  static constexpr index_t piece_step = 16;
};

// How rows of n elements (element_bytes of staged leaves each) split over a grid of at most
// `resident` blocks: `pieces` pieces of `length` elements a row (the last one shorter), the grid
// taking rows_per_round rows at a time (block b piece b % pieces of rows b / pieces,
// b / pieces + rows_per_round, ...). pieces == 0: a row does not fit the GPU.
struct split_rows {
  index_t pieces = 0;
  index_t length = 0;
  index_t rows_per_round = 0;
  std::size_t bytes = 0;  // a block's shared memory: one piece
};

// As many pieces as the shared memory asks, and more (down to min_piece elements) when the rows
// are too few to fill the grid.
inline split_rows size_split_rows(index_t n, index_t element_bytes, index_t rows, index_t resident) {
  using policy = split_row_policy;
  split_rows s;
  if (n <= 0 || rows <= 0 || element_bytes <= 0 || resident <= 0) return s;
  // The longest piece the shared memory takes, a multiple of piece_step (so rounding a piece up to
  // one never passes it).
  const index_t longest = policy::max_piece_bytes / element_bytes / policy::piece_step * policy::piece_step;
  if (longest == 0) return s;
  const index_t fitting = (n + longest - 1) / longest;
  const index_t spread = std::min((resident + rows - 1) / rows, std::max<index_t>(n / policy::min_piece, 1));
  const index_t pieces = std::max(fitting, spread);
  if (pieces > resident) return s;
  const index_t per_piece = (n + pieces - 1) / pieces;
  s.length = (per_piece + policy::piece_step - 1) / policy::piece_step * policy::piece_step;
  s.pieces = (n + s.length - 1) / s.length;
  s.rows_per_round = std::min(resident / s.pieces, rows);
  s.bytes = static_cast<std::size_t>(s.length * element_bytes);
  return s;
}

}  // namespace xf::detail

#if XF_CUDA_TU
namespace xf::detail {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Reads a value written by another block, from L2 (past this SM's L1, which may hold an older line).
template <class T>
__device__ XF_FORCEINLINE T load_from_l2(const T* p) {
  unsigned words[sizeof(T) / sizeof(unsigned)];
#pragma unroll
  for (int w = 0; w < static_cast<int>(sizeof(T) / sizeof(unsigned)); ++w) words[w] = __ldcg(reinterpret_cast<const unsigned*>(p) + w);
  T out;
  __builtin_memcpy(&out, words, sizeof(T));
  return out;
}

__device__ XF_FORCEINLINE void add_release(unsigned* p, unsigned v) {
  asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__device__ XF_FORCEINLINE unsigned load_acquire(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

// Publishes this block's part of its row's statistics (part `piece` of `pieces`), waits until
// every part has arrived, and returns them combined (every thread; every warp combines the parts
// in the same order, so every block of the row gets the same statistics).
template <class Reducer>
__device__ XF_FORCEINLINE typename Reducer::acc_type exchange_parts(const Reducer& reducer, const typename Reducer::acc_type& part,
                                                                    typename Reducer::acc_type* parts, unsigned* arrived, int piece,
                                                                    int pieces) {
  if (threadIdx.x == 0) {
    parts[piece] = part;
    add_release(arrived, 1u);  // the part is visible before the count that announces it
    while (load_acquire(arrived) < static_cast<unsigned>(pieces)) __nanosleep(20);
  }
  __syncthreads();
  // Each lane combines its parts (j, j + 32, ...) in order, eight loads in flight at a time: the
  // parts sit in L2, whose latency a one-at-a-time loop pays per part.
  constexpr int batch = 8;
  auto total = Reducer::identity();
  for (int j = static_cast<int>(threadIdx.x % 32); j < pieces; j += 32 * batch) {
    typename Reducer::acc_type loaded[batch];
#pragma unroll
    for (int i = 0; i < batch; ++i) loaded[i] = j + 32 * i < pieces ? load_from_l2(parts + j + 32 * i) : Reducer::identity();
#pragma unroll
    for (int i = 0; i < batch; ++i) total = reducer.combine(total, loaded[i]);
  }
#pragma unroll
  for (int mask = 1; mask < 32; mask *= 2) {
    const auto other = shuffle_xor(total, mask);
    // The lower lane's parts first: the same order in every lane.
    total = (threadIdx.x & mask) ? reducer.combine(other, total) : reducer.combine(total, other);
  }
  return total;
}

// The softmax kinds' part of a staged piece: its maximum and its sum of exp(x - maximum) (0 where
// the maximum is not finite: a piece of -inf adds nothing; an infinite or NaN maximum decides the
// row in the reducer's finish).
template <row_result What, class Plan>
__device__ XF_FORCEINLINE auto softmax_part(const staged_row<Plan>& piece, typename Plan::acc_type* scratch) {
  using C = typename Plan::acc_type;
  C max = -limits<C>::infinity();
  sweep(piece, [&](C x, int) { max = nan_max(max, x); });
  max = fold_block<true>(max, scratch);
  C sum = 0;
  if (max - max == C(0)) sweep(piece, [&](C x, int) { sum += math::r_exp(x - max); });
  return typename online_row_reducer<What, C, C>::acc_type{max, fold_block<false>(sum, scratch)};
}

// Points `piece` (starting at position `first`) at row `row`; returns the row's output position.
template <class Plan>
__device__ XF_FORCEINLINE index_t locate_piece(staged_row<Plan>& piece, index_t first, index_t row) {
  const Plan& p = piece.p;
  index_t out_pos;
  layout_positions(p.kept, p.kept_narrow, row, piece.kept_pos, out_pos);
#pragma unroll
  for (int k = 0; k < Plan::L; ++k) piece.kept_pos[k] += first * p.reduced.stride[k][0];
  return out_pos;
}
#endif

// Block b takes piece b % pieces of rows b / pieces, b / pieces + rows_per_round, ... `parts`
// holds `pieces` parts a row, `arrived` a count a row (zero at the start).
template <row_result What, class Plan, class Finish>
__global__ void __launch_bounds__(staged_row_policy::block_threads)
    split_row_kernel(const __grid_constant__ Plan p, const __grid_constant__ Finish finish, const split_rows s,
                     typename online_row_reducer<What, typename Plan::acc_type, typename Plan::acc_type>::acc_type* parts,
                     unsigned* arrived) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using C = typename Plan::acc_type;
  extern __shared__ __align__(16) unsigned char staged[];
  __shared__ __align__(8) unsigned long long barrier_word;
  __shared__ C scratch[staged_row_policy::block_threads / 32];
  const unsigned barrier = bulk::shared_address(&barrier_word);
  const int piece_index = static_cast<int>(blockIdx.x % s.pieces);
  const index_t first = piece_index * s.length;
  staged_row<Plan> piece{p, staged, {}, {}, static_cast<int>(s.length), true};
  place_staged_rows(piece);  // room for a whole piece, the last one shorter
  piece.n = static_cast<int>(s.length < p.reduced.size - first ? s.length : p.reduced.size - first);
  if (threadIdx.x == 0) bulk::barrier_init(barrier);
  __syncthreads();
  const online_row_reducer<What, C, C> reducer{};
  unsigned parity = 0;
  for (index_t row = blockIdx.x / s.pieces; row < p.kept.size; row += s.rows_per_round, parity ^= 1) {
    const index_t out_pos = locate_piece(piece, first, row);
    if (threadIdx.x == 0) start_staging(piece, staged, barrier);
    bulk::wait_phase(barrier, parity);
    const auto total = exchange_parts(reducer, softmax_part<What>(piece, scratch), parts + row * s.pieces, arrived + row,
                                      piece_index, static_cast<int>(s.pieces));
    store_softmax_outputs<What>(piece, first, p.out + out_pos, p.reduced.out_stride[0], reducer.finish(total, p.reduced.size), finish,
                      finish.epilogue.row(row));
    __syncthreads();  // every thread is done with the piece before the next one is copied over it
  }
#endif
}

// The split of p's rows on `device`, or none (pieces == 0) when they are not aligned for staging or
// do not fit the GPU. What the GPU holds at once is asked once per kernel and device.
template <row_result What, class Plan, class Finish>
split_rows choose_split_rows(const Plan& p, int device) {
  if (!rows_aligned_for_staging(p)) return {};
  static atomic<int> resident_blocks[max_devices];  // 0: not asked yet
  atomic<int>& known = resident_blocks[device];
  if (known.load(order::relaxed) == 0) {
    constexpr auto kernel = split_row_kernel<What, Plan, Finish>;
    set_staged_carveout<kernel>(device, 0, 0);  // all of the SM's shared memory
    int per_sm = 0;
    XF_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, staged_row_policy::block_threads,
                                                                static_cast<std::size_t>(split_row_policy::max_piece_bytes)));
    known.store(per_sm > 0 ? per_sm * xf::device(device).properties().multiProcessorCount : -1, order::relaxed);
  }
  const int resident = known.load(order::relaxed);
  if (resident <= 0) return {};
  return size_split_rows(p.reduced.size, staged_row_bytes(p, 1), p.kept.size, resident);
}

template <row_result What, class Plan, class Finish>
void split_rows_device(const Plan& p, const split_rows& s, const Finish& finish, cudaStream_t stream) {
  using acc = typename online_row_reducer<What, typename Plan::acc_type, typename Plan::acc_type>::acc_type;
  const auto rows = static_cast<std::size_t>(p.kept.size);
  const std::size_t parts_bytes = (rows * static_cast<std::size_t>(s.pieces) * sizeof(acc) + 15) / 16 * 16;
  buffer scratch = allocate_device(parts_bytes + rows * sizeof(unsigned));
  auto* const parts = static_cast<acc*>(scratch.get());
  auto* const arrived = reinterpret_cast<unsigned*>(static_cast<unsigned char*>(scratch.get()) + parts_bytes);
  XF_CUDA_CHECK(cudaMemsetAsync(arrived, 0, rows * sizeof(unsigned), stream));
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(s.pieces * s.rows_per_round));
  config.blockDim = dim3(staged_row_policy::block_threads);
  config.dynamicSmemBytes = s.bytes;
  config.stream = stream;
  cudaLaunchAttribute together{};
  together.id = cudaLaunchAttributeCooperative;  // every block resident at once: the waits need it
  together.val.cooperative = 1;
  config.attrs = &together;
  config.numAttrs = 1;
  XF_CUDA_CHECK(cudaLaunchKernelEx(&config, split_row_kernel<What, Plan, Finish>, p, finish, s, parts, arrived));
}

}  // namespace xf::detail
#endif
