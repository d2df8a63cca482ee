// SPDX-License-Identifier: Apache-2.0
// Long strided rows on sm_90 (softmax(a, 0) of a C-ordered matrix: each row a column in memory,
// its neighbouring rows adjacent), held in the shared memory of a thread-block cluster and read
// once: a cluster of CL blocks takes 32 neighbouring rows, one per lane (each warp load reads 128
// consecutive bytes); block q of the cluster holds its share of every row's elements (the q-th
// CL-th) in shared memory, its warps taking every 8th element. Each statistic folds across the
// block's warps, then across the cluster through distributed shared memory; the outputs are
// written from shared memory. The row functions' arithmetic is row_kernel.cuh's (compute_row).
// The cluster is the smallest that keeps a block's share within 32 KiB (six blocks an SM), up to
// sm_90's 16 blocks: rows of up to 4096 floats (2048 doubles); longer rows take two passes
// (rows.hpp). softmax, log_softmax and logsumexp take it; the norms keep two passes until it
// measures faster for them (row_launch.cuh). Measured in docs/performance.md, "Columns held by a
// thread-block cluster".
#pragma once

#include <bit>

#include "../base/atomic.hpp"
#include "row_kernel.cuh"

#if XF_CUDA_TU
namespace xf::detail {

struct cluster_column_policy {
  static constexpr int lanes = 32;  // neighbouring rows a cluster takes, one per lane
  static constexpr int warps = 8;   // a block's warps, each taking every 8th element of its share
  static constexpr int block_threads = lanes * warps;
  static constexpr int load_batch = 16;   // loads a thread has in flight before it stores them
  static constexpr int held_group = 8;    // values a thread reads from shared memory at a time
  static constexpr int max_cluster = 16;  // sm_90's largest cluster (non-portable past 8)
  // A block's share of its rows' elements: at most 32 KiB, six blocks an SM (softmax of 4096 x
  // 16384 floats along the columns on an H100: 0.299 ms, two passes 0.390). Shares of 64 KiB
  // (three an SM) measured no faster than two passes (8192 x 8192: 0.400 against 0.390 ms), so
  // longer rows take two passes.
  static constexpr index_t max_share_bytes = 32 * 1024;
};

// A thread's elements of its row in the block's shared memory: element i at line i (lines of one
// value per lane, a warp's lines interleaved with the other warps').
template <class C>
struct shared_held {
  C* first;
  __device__ XF_FORCEINLINE C& operator[](int i) const {
    return first[i * cluster_column_policy::warps * cluster_column_policy::lanes];
  }
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Every thread of the cluster arrives (its shared-memory writes released) and waits for the rest.
// The runtime's own cluster functions, not <cooperative_groups.h> (2.6 s of every build).
__device__ XF_FORCEINLINE void cluster_sync() {
  __cluster_barrier_arrive();
  __cluster_barrier_wait();
}

// One of 32 neighbouring rows (this thread's lane) split over a cluster; the block holds elements
// first_row .. first_row + count - 1 (count may be 0 or less: a block past the row's end), and
// this thread (the warp-th of the block) every 8th of them from first_row + warp.
template <class Plan>
struct cluster_column {
  using C = typename Plan::acc_type;
  using out_type = typename Plan::out_type;
  using policy = cluster_column_policy;
  const Plan& p;
  index_t kept_pos[Plan::slots] = {};
  index_t out_pos = 0;
  bool live;
  int warp, first_row, count;
  C* line;                             // this thread's first element in the block's shared memory
  C (*scratch)[policy::lanes];         // a line per warp: the fold across the block's warps
  C (*partial)[policy::lanes];         // two lines: the block's folds, read by the whole cluster
  mutable int folds = 0;

  __device__ XF_FORCEINLINE int n() const { return static_cast<int>(p.reduced.size); }
  __device__ XF_FORCEINLINE int held_count() const {
    return live && count > warp ? (count - warp + policy::warps - 1) / policy::warps : 0;
  }
  static constexpr int held_group = policy::held_group;
  __device__ XF_FORCEINLINE shared_held<C> held() const { return {line}; }
  __device__ XF_FORCEINLINE int position(int i) const { return first_row + warp + i * policy::warps; }
  __device__ XF_FORCEINLINE bool first() const { return live && first_row == 0 && warp == 0; }

  // Every thread of the cluster calls it: folds across the block's warps lane by lane, then across
  // the cluster's blocks. The two partial lines alternate, so one cluster barrier a fold suffices:
  // a block rewrites a line two folds later, after every block has passed the barrier between.
  template <bool Max>
  __device__ XF_FORCEINLINE C fold(C x) const {
    const int lane = static_cast<int>(threadIdx.x) % policy::lanes;
    C* const mine = partial[folds++ & 1];
    __syncthreads();  // the scratch of an earlier fold has been read
    scratch[warp][lane] = x;
    __syncthreads();
    if (warp == 0) {
      C r = scratch[0][lane];
      for (int w = 1; w < policy::warps; ++w) r = fold_two<Max>(r, scratch[w][lane]);
      mine[lane] = r;
    }
    cluster_sync();
    const int blocks = static_cast<int>(__clusterSizeInBlocks());
    C r = static_cast<const C*>(__cluster_map_shared_rank(mine, 0))[lane];
    for (int q = 1; q < blocks; ++q) r = fold_two<Max>(r, static_cast<const C*>(__cluster_map_shared_rank(mine, q))[lane]);
    return r;
  }

  // The thread's elements into shared memory, load_batch loads in flight at a time.
  __device__ XF_FORCEINLINE void load(C, const shared_held<C>& v) const {
    constexpr int batch = policy::load_batch;
    const int held = held_count();
    int i = 0;
    for (; i + batch <= held; i += batch) {
      C x[batch];
#pragma unroll
      for (int u = 0; u < batch; ++u) x[u] = mapped_linear(p, kept_pos, position(i + u));
#pragma unroll
      for (int u = 0; u < batch; ++u) v[i + u] = x[u];
    }
    for (; i < held; ++i) v[i] = mapped_linear(p, kept_pos, position(i));
  }

  template <class Output>
  __device__ XF_FORCEINLINE void store(const shared_held<C>& v, const Output& output) const {
    const index_t step = p.reduced.out_stride[0];
    for_each_held(*this, [&](int i) {
      const int r = position(i);
      p.out[out_pos + r * step] = output(v[i], r);
    });
  }
};
#endif

// A cluster for every 32 neighbouring rows (clusters in order of blockIdx.x); `share` elements of
// each row a block.
template <row_result What, class Plan, class Finish>
__global__ void __launch_bounds__(cluster_column_policy::block_threads)
    cluster_column_kernel(const __grid_constant__ Plan p, int share, const __grid_constant__ Finish finish) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using C = typename Plan::acc_type;
  using policy = cluster_column_policy;
  extern __shared__ __align__(16) unsigned char shared_lines[];
  __shared__ C scratch[policy::warps][policy::lanes];
  __shared__ C partial[2][policy::lanes];
  const int rank = static_cast<int>(__clusterRelativeBlockRank()), blocks = static_cast<int>(__clusterSizeInBlocks());
  const int lane = static_cast<int>(threadIdx.x) % policy::lanes, warp = static_cast<int>(threadIdx.x) / policy::lanes;
  const index_t o = static_cast<index_t>(blockIdx.x / blocks) * policy::lanes + lane;
  const int first_row = rank * share, past_end = static_cast<int>(p.reduced.size) - first_row;
  C* const line = reinterpret_cast<C*>(shared_lines) + warp * policy::lanes + lane;
  cluster_column<Plan> row{p, {}, 0, o < p.kept.size, warp, first_row, past_end < share ? past_end : share, line, scratch, partial};
  if (row.live) layout_positions(p.kept, p.kept_narrow, o, row.kept_pos, row.out_pos);
  compute_row<What>(row, finish, o);
  cluster_sync();  // no block leaves while another may still read its partial lines
#endif
}

// ---------------------------------------------------------------- the launch

struct cluster_columns {
  int blocks = 0;  // a cluster's; 0: the rows do not fit
  int share = 0;   // elements of each row a block holds
  std::size_t bytes = 0;
};

// The cluster for rows of n elements of compute type C: the smallest whose blocks' shares fit
// max_share_bytes, else none.
template <class C>
cluster_columns size_cluster_columns(index_t n) {
  using policy = cluster_column_policy;
  const auto line_bytes = static_cast<index_t>(policy::lanes * sizeof(C));
  for (int blocks = 1; blocks <= policy::max_cluster; blocks *= 2) {
    const index_t share = ((n + blocks - 1) / blocks + policy::warps - 1) / policy::warps * policy::warps;
    if (share * line_bytes <= policy::max_share_bytes) return {blocks, static_cast<int>(share), static_cast<std::size_t>(share * line_bytes)};
  }
  return {};
}

// A launch of `grid` blocks in clusters of c.blocks, each with c.bytes of shared memory (`shape`
// holds the cluster attribute the configuration points to).
inline cudaLaunchConfig_t cluster_launch(const cluster_columns& c, unsigned grid, cudaStream_t stream, cudaLaunchAttribute& shape) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(cluster_column_policy::block_threads);
  config.dynamicSmemBytes = c.bytes;
  config.stream = stream;
  shape = {};
  shape.id = cudaLaunchAttributeClusterDimension;
  shape.val.clusterDim.x = static_cast<unsigned>(c.blocks);
  shape.val.clusterDim.y = shape.val.clusterDim.z = 1;
  config.attrs = &shape;
  config.numAttrs = 1;
  return config;
}

// The launch's cluster for these rows on `device`, or none when they do not fit or no cluster of
// its size can be resident there (a GPU with fewer free SMs to a cluster). Residency is asked once
// per device and cluster size, for the largest share (a cluster that fits it fits any smaller):
// no driver call per statement.
template <row_result What, class Plan, class Finish>
cluster_columns choose_cluster_columns(const Plan& p, int device) {
  const cluster_columns c = size_cluster_columns<typename Plan::acc_type>(p.reduced.size);
  if (c.blocks == 0) return c;
  static atomic<int> resident[max_devices][5];  // by log2 of the cluster size: 0 not asked, 1 yes, 2 no
  atomic<int>& known = resident[device][std::countr_zero(static_cast<unsigned>(c.blocks))];
  if (known.load(order::relaxed) == 0) {
    const auto kernel = cluster_column_kernel<What, Plan, Finish>;
    XF_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchAttribute shape;
    const cluster_columns largest{c.blocks, 0, static_cast<std::size_t>(cluster_column_policy::max_share_bytes)};
    const cudaLaunchConfig_t config = cluster_launch(largest, static_cast<unsigned>(c.blocks), nullptr, shape);
    int clusters = 0;
    XF_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
    known.store(clusters > 0 ? 1 : 2, order::relaxed);
  }
  return known.load(order::relaxed) == 1 ? c : cluster_columns{};
}

template <row_result What, class Plan, class Finish>
void cluster_columns_device(const Plan& p, const cluster_columns& c, const Finish& finish, cudaStream_t stream) {
  const index_t groups = (p.kept.size + cluster_column_policy::lanes - 1) / cluster_column_policy::lanes;
  if (groups > INT_MAX / c.blocks) throw error("xf: too many rows for one launch (" + std::to_string(p.kept.size) + ")");
  cudaLaunchAttribute shape;
  const cudaLaunchConfig_t config = cluster_launch(c, static_cast<unsigned>(groups * c.blocks), stream, shape);
  XF_CUDA_CHECK(cudaLaunchKernelEx(&config, cluster_column_kernel<What, Plan, Finish>, p, c.share, finish));
}

}  // namespace xf::detail
#endif
