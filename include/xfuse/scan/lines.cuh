// SPDX-License-Identifier: Apache-2.0
// Scans along an axis, a block per set of lines: the block walks its lines from start to end in
// tiles, scanning each tile and carrying the running total to the next, so every element is read
// once and written once, with no temporary and no communication between blocks.
//
// - `scan_rows_kernel`: lines contiguous in every input and in the result (cumsum(A, 1) of a
//   C-ordered A): one line per block; a tile is block_threads * items elements loaded striped
//   (coalesced), exchanged to blocked, scanned by cub::BlockScan with the carry as its prefix.
// - `scan_lanes_kernel`: any other layout, and short lines (cumsum(A, 0): the lines are columns,
//   neighbours adjacent in memory): 32 lines per block, a warp across them (coalesced when they are
//   adjacent), 32 warps along them; each thread scans `items` steps of its line in registers,
//   then the warps' totals are combined in shared memory; the next tile's steps are loaded while
//   the current one is combined and stored.
//
// Too few lines to fill the GPU (64 rows of 2^20) leaves the keyed CUB scan (device.cuh).
#pragma once

#include "../reduce/kernel.cuh"
#include "feed.cuh"

#if XF_CUDA_TU
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_scan.cuh>

namespace xf::detail {

struct scan_lines_policy {
  static constexpr int row_threads = 256, row_items = 8;  // a tile of 2048 steps of one line
  static constexpr index_t min_row_length = 1024;         // shorter contiguous lines: 32 lines a block
  static constexpr int lanes = 32, lane_warps = 32;       // 32 lines x 32 warps
  static constexpr int lane_items = 8;                    // steps a thread scans in registers
  static constexpr int min_blocks_per_sm = 1;             // fewer blocks than this: the keyed scan
};

template <class Op>
struct scan_combine {
  Op op;
  __device__ XF_FORCEINLINE typename Op::acc_type operator()(const typename Op::acc_type& a,
                                                             const typename Op::acc_type& b) const {
    return op.combine(a, b);
  }
};

// CUB's block prefix callback: gives each tile the running total of the tiles before it.
template <class Op>
struct running_total {
  Op op;
  typename Op::acc_type total;
  __device__ XF_FORCEINLINE typename Op::acc_type operator()(const typename Op::acc_type& tile_total) {
    const auto before = total;
    total = op.combine(total, tile_total);
    return before;
  }
};

template <class Plan>
__global__ void __launch_bounds__(scan_lines_policy::row_threads)
    scan_rows_kernel(const __grid_constant__ Plan p) {
  using Acc = typename Plan::acc_type;
  constexpr int B = scan_lines_policy::row_threads, I = scan_lines_policy::row_items;
  using Exchange = cub::BlockExchange<Acc, B, I>;
  using Scan = cub::BlockScan<Acc, B>;
  __shared__ union {
    typename Exchange::TempStorage exchange;
    typename Scan::TempStorage scan;
  } temp;
  const index_t n = p.reduced.size;
  index_t kept_pos[Plan::slots], out_pos;
  layout_positions(p.kept, p.kept_narrow, static_cast<index_t>(blockIdx.x), kept_pos, out_pos);
  const int t = static_cast<int>(threadIdx.x);
  running_total<typename Plan::op_type> carry{p.op, p.op.identity()};
  const scan_combine<typename Plan::op_type> combine{p.op};
#pragma unroll 1
  for (index_t base = 0; base < n; base += B * I) {
    Acc v[I];
#pragma unroll
    for (int i = 0; i < I; ++i) {  // striped: consecutive threads, consecutive steps
      const index_t r = base + i * B + t;
      v[i] = r < n ? scan_input(p, kept_pos, r) : p.op.identity();
    }
    Exchange(temp.exchange).StripedToBlocked(v, v);
    __syncthreads();
    Scan(temp.scan).InclusiveScan(v, v, combine, carry);
    __syncthreads();
    Exchange(temp.exchange).BlockedToStriped(v, v);
    __syncthreads();
#pragma unroll
    for (int i = 0; i < I; ++i) {
      const index_t r = base + i * B + t;
      if (r < n) p.out[out_pos + r] = scanned_output(p, kept_pos, r, v[i]);
    }
  }
}

template <class Plan>
__global__ void __launch_bounds__(scan_lines_policy::lanes * scan_lines_policy::lane_warps)
    scan_lanes_kernel(const __grid_constant__ Plan p, index_t step) {
  using Acc = typename Plan::acc_type;
  constexpr int W = scan_lines_policy::lane_warps, I = scan_lines_policy::lane_items;
  constexpr int lanes = scan_lines_policy::lanes;
  __shared__ alignas(16) unsigned char raw[(W + 1) * lanes * sizeof(Acc)];  // raw: Acc may have a constructor
  Acc* warp_total = reinterpret_cast<Acc*>(raw);                             // [W][lanes]
  Acc* carry = warp_total + W * lanes;                                       // [lanes]
  const int lane = static_cast<int>(threadIdx.x) % lanes, warp = static_cast<int>(threadIdx.x) / lanes;
  const index_t line = static_cast<index_t>(blockIdx.x) * lanes + lane;
  const bool active = line < p.kept.size;
  const index_t n = p.reduced.size;
  index_t kept_pos[Plan::slots] = {}, out_pos = 0;
  if (active) layout_positions(p.kept, p.kept_narrow, line, kept_pos, out_pos);
  if (warp == 0) carry[lane] = p.op.identity();
  // A tile's steps of this thread: I consecutive ones from `first`.
  const auto load = [&](index_t first, Acc (&v)[I]) {
#pragma unroll
    for (int i = 0; i < I; ++i) v[i] = active && first + i < n ? scan_input(p, kept_pos, first + i) : p.op.identity();
  };
  Acc next[I];
  load(static_cast<index_t>(warp) * I, next);
#pragma unroll 1
  for (index_t base = 0; base < n; base += W * I) {
    const index_t first = base + static_cast<index_t>(warp) * I;
    Acc v[I];
#pragma unroll
    for (int i = 0; i < I; ++i) v[i] = next[i];
    // The next tile's loads are in flight while this one is scanned, combined and stored.
    if (base + W * I < n) load(first + W * I, next);
#pragma unroll
    for (int i = 1; i < I; ++i) v[i] = p.op.combine(v[i - 1], v[i]);
    warp_total[warp * lanes + lane] = v[I - 1];
    __syncthreads();
    // What comes before this thread's steps: the carry, then the warps before it.
    Acc before = carry[lane];
    for (int w = 0; w < warp; ++w) before = p.op.combine(before, warp_total[w * lanes + lane]);
#pragma unroll
    for (int i = 0; i < I; ++i)
      if (active && first + i < n) p.out[out_pos + (first + i) * step] = scanned_output(p, kept_pos, first + i, p.op.combine(before, v[i]));
    __syncthreads();  // every warp has read carry and the totals
    if (warp == W - 1) carry[lane] = p.op.combine(before, v[I - 1]);
  }
}

// Whether the lines are contiguous in every input in memory (or broadcast along them) and in the
// result: then scan_rows_kernel's striped loads and stores are coalesced.
template <class Plan>
bool lines_contiguous(const Plan& p, index_t step) {
  if (step != 1) return false;
  bool ok = true;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          if constexpr (tuple_element_t<K, typename Plan::leaves_type>::in_memory)
            ok = ok && (p.reduced.stride[K][0] == 1 || p.reduced.stride[K][0] == 0);
        }(),
        ...);
  }(std::make_integer_sequence<int, Plan::L>{});
  return ok;
}

// Scans every line with a block walking it (true), or leaves it to the keyed scan (false): the
// lines must lie along one axis and be enough to give every SM min_blocks_per_sm blocks (a block
// walks its lines from start to end, so fewer blocks leave SMs idle).
template <class Plan>
bool scan_lines_device(const Plan& p, index_t step, int device, cudaStream_t stream) {
  using policy = scan_lines_policy;
  if (p.reduced.rank != 1 || p.kept.size > INT_MAX) return false;
  const index_t enough = static_cast<index_t>(xf::device(device).multiprocessor_count()) * policy::min_blocks_per_sm;
  if (lines_contiguous(p, step) && p.reduced.size >= policy::min_row_length) {
    if (p.kept.size < enough) return false;
    scan_rows_kernel<Plan><<<static_cast<unsigned>(p.kept.size), policy::row_threads, 0, stream>>>(p);
  } else {
    const index_t blocks = (p.kept.size + policy::lanes - 1) / policy::lanes;
    if (blocks < enough) return false;
    scan_lanes_kernel<Plan><<<static_cast<unsigned>(blocks), policy::lanes * policy::lane_warps, 0, stream>>>(p, step);
  }
  XF_CUDA_CHECK(cudaGetLastError());
  return true;
}

}  // namespace xf::detail
#endif
