// SPDX-License-Identifier: Apache-2.0
// The choice of a row walk for the row functions on device arrays, and its launch: a long
// contiguous row staged in shared memory (sm_90, staged_row_kernel.cuh), a contiguous or short
// strided row in registers (row_kernel.cuh), a longer contiguous row of softmax's kinds split over
// blocks (sm_90, split_row_kernel.cuh), a long strided row of softmax's kinds held by a cluster (sm_90,
// cluster_column_kernel.cuh), else two passes (rows.hpp).
#pragma once

#include "cluster_column_kernel.cuh"
#include "row_kernel.cuh"
#include "split_row_kernel.cuh"
#include "staged_row_kernel.cuh"

#if XF_CUDA_TU
namespace xf::detail {

enum class row_walk {
  staged,       // staged_row_kernel
  contiguous,   // row_kernel
  strided,      // strided_row_kernel
  split,        // split_row_kernel
  cluster,      // cluster_column_kernel
  two_passes,   // rows.hpp: a reduction of the statistics, then an element-wise pass
};

struct row_launch {
  row_walk walk = row_walk::two_passes;
  int row_threads = 1;  // contiguous: threads per row
  int warps = 1;        // strided: warps per block
  cluster_columns cluster;
  split_rows split;
};

template <row_result What, class Plan, class Finish>
row_launch choose_row_launch(const Plan& p, int device) {
  // The attributes set here belong to the kernels that rows_device launches (deduced, unqualified).
  static_assert(!std::is_const_v<Plan> && !std::is_const_v<Finish>, "xf: choose_row_launch takes the unqualified plan and finish types");
  using C = typename Plan::acc_type;
  constexpr index_t V = row_values_per_thread<C>;
  const index_t n = p.reduced.size;
  row_launch l;
  if (xf::device(device).properties().major >= 9 && rows_stageable(p)) {
    l.walk = row_walk::staged;
    return l;
  }
  if (n <= row_policy::max_row_threads * V && leaves_adjacent<Plan>(p.reduced, 0)) {
    l.walk = row_walk::contiguous;
    while (l.row_threads * V < n) l.row_threads *= 2;
    return l;
  }
  // The norms' long rows stay in two passes: split with a weight and bias (read from L2 by every
  // piece) layer_norm of 64 x 2^20 floats measured 0.50 ms against 0.43 for two passes on an H100.
  if constexpr (is_softmax_kind<What>) {
    if (xf::device(device).properties().major >= 9) {
      l.split = choose_split_rows<What, Plan, Finish>(p, device);
      if (l.split.pieces > 0) {
        l.walk = row_walk::split;
        return l;
      }
    }
  }
  // Strided rows: the kept layout's innermost dimension walks neighbouring rows (and outputs).
  constexpr int max_warps = row_policy::max_row_threads / row_policy::lanes;
  if (!leaves_adjacent<Plan>(p.kept, 0) || p.kept.out_stride[0] != 1 || p.kept.extent[0] < row_policy::lanes / 2) return l;
  while (l.warps < max_warps && l.warps * V < n) l.warps *= 2;
  if (l.warps * V >= n) {
    l.walk = row_walk::strided;
    return l;
  }
  // The norms' columns stay in two passes: held by a cluster (shares of 64 KiB) layer_norm of
  // 8192 x 8192 floats measured 0.527 ms against 0.451 for two passes on an H100.
  if constexpr (is_softmax_kind<What>) {
    if (xf::device(device).properties().major >= 9) {
      l.cluster = choose_cluster_columns<What, Plan, Finish>(p, device);
      if (l.cluster.blocks > 0) l.walk = row_walk::cluster;
    }
  }
  return l;
}

template <row_result What, class Plan, class Finish>
void rows_device(Plan p, const row_launch& l, const Finish& finish, int device, cudaStream_t stream) {
  if (l.walk == row_walk::staged) {
    staged_rows_device<What>(p, finish, device, stream);
    return;
  }
  if constexpr (is_softmax_kind<What>) {
    if (l.walk == row_walk::split) {
      split_rows_device<What>(p, l.split, finish, stream);
      return;
    }
    if (l.walk == row_walk::cluster) {
      cluster_columns_device<What>(p, l.cluster, finish, stream);
      return;
    }
  }
  if (l.walk == row_walk::contiguous) {
    p.vector = vector_chunks(p);
    const int block = l.row_threads < row_policy::block_threads ? row_policy::block_threads : l.row_threads;
    const index_t rows_per_block = block / l.row_threads;
    const index_t blocks = (p.kept.size + rows_per_block - 1) / rows_per_block;
    if (blocks > INT_MAX) throw error("xf: too many rows for one launch (" + std::to_string(p.kept.size) + ")");
    row_kernel<What, Plan, Finish><<<static_cast<unsigned>(blocks), block, 0, stream>>>(p, l.row_threads, finish);
    XF_CUDA_CHECK(cudaGetLastError());
    return;
  }
  const index_t blocks = (p.kept.size + row_policy::lanes - 1) / row_policy::lanes;
  if (blocks > INT_MAX) throw error("xf: too many rows for one launch (" + std::to_string(p.kept.size) + ")");
  strided_row_kernel<What, Plan, Finish><<<static_cast<unsigned>(blocks), l.warps * row_policy::lanes, 0, stream>>>(p, finish);
  XF_CUDA_CHECK(cudaGetLastError());
}

}  // namespace xf::detail
#endif
