// SPDX-License-Identifier: Apache-2.0
// Softmax along axis 0 (down the columns) of an R x C float32 matrix, and along the rows of a few
// very long rows, in one read from DRAM: three ways of keeping a line on chip while its statistics
// are folded, timed against a copy of the same bytes (docs/performance.md, "Columns and long rows").
// Standalone CUDA (no xfuse headers), so that each walk can be changed and timed on its own.
//
// - group: a persistent grid of G groups of B blocks. A group owns W columns at a time; each member
//   folds (max, sum of exponentials) over its share of the rows, the group meets at a counter in
//   global memory, then each member reads its rows again, newest first (the likeliest to be still
//   in L2), and writes. No grid-wide barrier. The same walk for long rows: a group owns a row.
// - cluster: a thread-block cluster of CL blocks owns W columns; each block keeps R / CL rows of
//   them in shared memory, the statistics are exchanged through distributed shared memory, and
//   the outputs are written from shared memory. One read, one write.
// - registers: as the row functions' strided walk keeps its rows (each lane a column, V values a
//   thread in registers), split over a cluster; the maximum and the sum each folded over it.
// - tma: as cluster, the lines moved in and out by 2-D tensor copies (boxes of W x Box).
// - pipe: as cluster, but persistent: each cluster walks strips of W columns with two shared-memory
//   buffers, copying the next strip in (cp.async) while the current one is written.
//
//   nvcc -O3 -std=c++20 -arch=sm_90 bench/column_softmax_probe.cu -o column_softmax_probe
//   ./column_softmax_probe [R C [all|cluster|rows]]   (C a multiple of 128; R of 16)
// "rows" times the long-row walk (softmax along the rows), the others the columns.
#include <cooperative_groups.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

namespace cg = cooperative_groups;

#define PROBE_CHECK(x)                                                                           \
  do {                                                                                           \
    const cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                                     \
      std::printf("%s failed at line %d: %s\n", #x, __LINE__, cudaGetErrorString(e_));            \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

constexpr int threads = 256;

// Online softmax statistics: the running maximum m and the sum s of exp(x - m).
__device__ __forceinline__ void fold(float& m, float& s, float v) {
  if (v > m) {
    s = s * __expf(m - v) + 1.0f;
    m = v;
  } else {
    s += __expf(v - m);
  }
}
__device__ __forceinline__ void merge(float& m, float& s, float m2, float s2) {
  const float top = fmaxf(m, m2);
  s = (m == -INFINITY ? 0.0f : s * __expf(m - top)) + (m2 == -INFINITY ? 0.0f : s2 * __expf(m2 - top));
  m = top;
}
__device__ __forceinline__ void fold4(float* m, float* s, float4 v) {
  fold(m[0], s[0], v.x);
  fold(m[1], s[1], v.y);
  fold(m[2], s[2], v.z);
  fold(m[3], s[3], v.w);
}
__device__ __forceinline__ float4 softmax4(float4 v, const float* top, const float* inverse) {
  return make_float4(__expf(v.x - top[0]) * inverse[0], __expf(v.y - top[1]) * inverse[1], __expf(v.z - top[2]) * inverse[2],
                     __expf(v.w - top[3]) * inverse[3]);
}

// The statistics of `count` partial ones, partial(q) giving one (max, sum).
template <class Partial>
__device__ __forceinline__ float2 merged(int count, Partial partial) {
  float m = -INFINITY, s = 0.0f;
  for (int q = 0; q < count; ++q) {
    const float2 p = partial(q);
    merge(m, s, p.x, p.y);
  }
  return make_float2(m, s);
}

// Column c's statistics over the block's threads (one row of `red` per row in flight).
template <int W, int RP>
__device__ __forceinline__ float2 block_column_statistics(float2 (&red)[RP][W], int c) {
  return merged(RP, [&](int q) { return red[q][c]; });
}

// The maximum and the inverse sum of the statistics of `count` partial ones.
template <class Partial>
__device__ __forceinline__ float2 finals(int count, Partial partial) {
  const float2 t = merged(count, partial);
  return make_float2(t.x, 1.0f / t.y);
}

// This thread's four columns' maximum and inverse sum, from the block's finals.
template <int W>
__device__ __forceinline__ void column_finals(const float2 (&fin)[W], int tc, float* top, float* inverse) {
  for (int k = 0; k < 4; ++k) {
    top[k] = fin[tc * 4 + k].x;
    inverse[k] = fin[tc * 4 + k].y;
  }
}

// Waits until `count` reaches `want` (every member of the group has arrived).
__device__ __forceinline__ void group_barrier(unsigned* count, unsigned want) {
  __threadfence();
  atomicAdd(count, 1u);
  while (atomicAdd(count, 0u) < want) __nanosleep(64);
  __threadfence();
}

// ---------------------------------------------------------------- group (L2), columns

template <int W>
__global__ void __launch_bounds__(threads)
    group_columns(const float* __restrict__ x, float* __restrict__ y, int R, int C, int B, float2* partials, unsigned* counters) {
  constexpr int TPW = W / 4, RP = threads / TPW;  // threads across a row of the strip, rows in flight
  __shared__ float2 red[RP][W];
  __shared__ float2 fin[W];
  const int G = static_cast<int>(gridDim.x) / B, g = static_cast<int>(blockIdx.x) / B, b = static_cast<int>(blockIdx.x) % B;
  const int tc = static_cast<int>(threadIdx.x) % TPW, tr = static_cast<int>(threadIdx.x) / TPW;
  const int r0 = static_cast<int>(static_cast<long>(R) * b / B), r1 = static_cast<int>(static_cast<long>(R) * (b + 1) / B);
  unsigned round = 0;
  for (int strip = g; strip < C / W; strip += G, ++round) {
    const int col = strip * W + tc * 4;
    float m[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY}, s[4] = {};
    int r = r0 + tr;
    for (; r + 3 * RP < r1; r += 4 * RP) {  // four independent loads in flight
      float4 v[4];
#pragma unroll
      for (int u = 0; u < 4; ++u) v[u] = *reinterpret_cast<const float4*>(x + static_cast<size_t>(r + u * RP) * C + col);
#pragma unroll
      for (int u = 0; u < 4; ++u) fold4(m, s, v[u]);
    }
    for (; r < r1; r += RP) fold4(m, s, *reinterpret_cast<const float4*>(x + static_cast<size_t>(r) * C + col));
    for (int k = 0; k < 4; ++k) red[tr][tc * 4 + k] = make_float2(m[k], s[k]);
    __syncthreads();
    float2* slot = partials + (static_cast<size_t>(g) * 2 + (round & 1)) * B * W;  // two rounds' slots
    if (threadIdx.x < W) __stcg(slot + b * W + threadIdx.x, block_column_statistics(red, static_cast<int>(threadIdx.x)));
    __syncthreads();
    if (threadIdx.x == 0) group_barrier(counters + g, static_cast<unsigned>(B) * (round + 1));
    __syncthreads();
    if (threadIdx.x < W) fin[threadIdx.x] = finals(B, [&](int q) { return __ldcg(slot + q * W + threadIdx.x); });
    __syncthreads();
    float top[4], inverse[4];
    column_finals(fin, tc, top, inverse);
    for (int rr = r1 - 1 - (r1 - 1 - r0 - tr) % RP; rr >= r0 + tr && r1 > r0 + tr; rr -= RP) {  // newest rows first
      const size_t at = static_cast<size_t>(rr) * C + col;
      __stcs(reinterpret_cast<float4*>(y + at), softmax4(__ldcs(reinterpret_cast<const float4*>(x + at)), top, inverse));
    }
    __syncthreads();  // red and fin are reused
  }
}

// ---------------------------------------------------------------- group (L2), long rows

__global__ void __launch_bounds__(threads)
    group_rows(const float* __restrict__ x, float* __restrict__ y, int R, int C, int B, float2* partials, unsigned* counters) {
  __shared__ float2 red[threads / 32];
  __shared__ float2 fin;
  const int G = static_cast<int>(gridDim.x) / B, g = static_cast<int>(blockIdx.x) / B, b = static_cast<int>(blockIdx.x) % B;
  const int quads = C / 4, t = static_cast<int>(threadIdx.x);
  const int c0 = static_cast<int>(static_cast<long>(quads) * b / B), c1 = static_cast<int>(static_cast<long>(quads) * (b + 1) / B);
  unsigned round = 0;
  for (int row = g; row < R; row += G, ++round) {
    const float4* in = reinterpret_cast<const float4*>(x + static_cast<size_t>(row) * C);
    float4* out = reinterpret_cast<float4*>(y + static_cast<size_t>(row) * C);
    float m = -INFINITY, s = 0.0f;
    int c = c0 + t;
    for (; c + 3 * threads < c1; c += 4 * threads) {
      float4 v[4];
#pragma unroll
      for (int u = 0; u < 4; ++u) v[u] = in[c + u * threads];
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        fold(m, s, v[u].x);
        fold(m, s, v[u].y);
        fold(m, s, v[u].z);
        fold(m, s, v[u].w);
      }
    }
    for (; c < c1; c += threads) {
      const float4 v = in[c];
      fold(m, s, v.x);
      fold(m, s, v.y);
      fold(m, s, v.z);
      fold(m, s, v.w);
    }
    for (int o = 16; o > 0; o /= 2) merge(m, s, __shfl_xor_sync(~0u, m, o), __shfl_xor_sync(~0u, s, o));
    if (t % 32 == 0) red[t / 32] = make_float2(m, s);
    __syncthreads();
    float2* slot = partials + (static_cast<size_t>(g) * 2 + (round & 1)) * B;
    if (t == 0) {
      __stcg(slot + b, merged(threads / 32, [&](int q) { return red[q]; }));
      group_barrier(counters + g, static_cast<unsigned>(B) * (round + 1));
      fin = finals(B, [&](int q) { return __ldcg(slot + q); });
    }
    __syncthreads();
    const float top[4] = {fin.x, fin.x, fin.x, fin.x}, inverse[4] = {fin.y, fin.y, fin.y, fin.y};
    for (int cc = c1 - 1 - (c1 - 1 - c0 - t) % threads; cc >= c0 + t && c1 > c0 + t; cc -= threads)  // newest first
      __stcs(out + cc, softmax4(__ldcs(in + cc), top, inverse));
    __syncthreads();
  }
}

// ---------------------------------------------------------------- cluster (shared memory), columns

template <int W, int CL, int Unroll>
__global__ void __launch_bounds__(threads) cluster_columns(const float* __restrict__ x, float* __restrict__ y, int R, int C) {
  constexpr int TPW = W / 4, RP = threads / TPW;
  extern __shared__ float4 tile[];  // R / CL rows of W columns
  __shared__ float2 red[RP][W];
  __shared__ float2 mine[W];
  __shared__ float2 fin[W];
  cg::cluster_group cluster = cg::this_cluster();
  const int rank = static_cast<int>(cluster.block_rank()), strip = static_cast<int>(blockIdx.x) / CL;
  const int tc = static_cast<int>(threadIdx.x) % TPW, tr = static_cast<int>(threadIdx.x) / TPW;
  const int rows = R / CL, r0 = rank * rows, col = strip * W + tc * 4;
  float m[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY}, s[4] = {};
  int r = tr;
  for (; r + (Unroll - 1) * RP < rows; r += Unroll * RP) {
    float4 v[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) v[u] = __ldcs(reinterpret_cast<const float4*>(x + static_cast<size_t>(r0 + r + u * RP) * C + col));
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      tile[(r + u * RP) * TPW + tc] = v[u];
      fold4(m, s, v[u]);
    }
  }
  for (; r < rows; r += RP) {
    const float4 v = __ldcs(reinterpret_cast<const float4*>(x + static_cast<size_t>(r0 + r) * C + col));
    tile[r * TPW + tc] = v;
    fold4(m, s, v);
  }
  for (int k = 0; k < 4; ++k) red[tr][tc * 4 + k] = make_float2(m[k], s[k]);
  __syncthreads();
  if (threadIdx.x < W) mine[threadIdx.x] = block_column_statistics(red, static_cast<int>(threadIdx.x));
  cluster.sync();
  if (threadIdx.x < W) fin[threadIdx.x] = finals(CL, [&](int q) { return cluster.map_shared_rank(mine, q)[threadIdx.x]; });
  cluster.sync();  // every block's `mine` has been read before any block leaves
  float top[4], inverse[4];
  column_finals(fin, tc, top, inverse);
  for (int rr = tr; rr < rows; rr += RP)
    __stcs(reinterpret_cast<float4*>(y + static_cast<size_t>(r0 + rr) * C + col), softmax4(tile[rr * TPW + tc], top, inverse));
}

// ---------------------------------------------------------------- registers (cluster), columns

// As the row functions' strided walk holds its rows: lane l of every warp takes column l of the
// cluster's 32, warp w of the block's 8 takes rows w, w + 8, ..., V of them in registers (scalar
// loads, 128 bytes a warp); the maximum, then the sum, each folded across the warps through shared
// memory and across the cluster through distributed shared memory.
template <int V, int CL>
__global__ void __launch_bounds__(threads) register_columns(const float* __restrict__ x, float* __restrict__ y, int R, int C) {
  constexpr int warps = threads / 32;
  __shared__ float scratch[warps][32];
  __shared__ float part[2][32];
  cg::cluster_group cluster = cg::this_cluster();
  const int rank = static_cast<int>(cluster.block_rank()), strip = static_cast<int>(blockIdx.x) / CL;
  const int lane = static_cast<int>(threadIdx.x) % 32, warp = static_cast<int>(threadIdx.x) / 32;
  const int rows = R / CL, r0 = rank * rows, col = strip * 32 + lane;
  float v[V];
#pragma unroll
  for (int i = 0; i < V; ++i) {
    const int r = i * warps + warp;
    v[i] = r < rows ? __ldcs(x + static_cast<size_t>(r0 + r) * C + col) : -INFINITY;
  }
  // One fold of the block's values of each column, then of the cluster's blocks.
  const auto fold_cluster = [&](float t, bool max, int which) {
    scratch[warp][lane] = t;
    __syncthreads();
    if (warp == 0) {
      for (int w = 1; w < warps; ++w) t = max ? fmaxf(t, scratch[w][lane]) : t + scratch[w][lane];
      part[which][lane] = t;
    }
    cluster.sync();
    float all = max ? -INFINITY : 0.0f;
    for (int q = 0; q < CL; ++q) {
      const float u = cluster.map_shared_rank(&part[which][0], q)[lane];
      all = max ? fmaxf(all, u) : all + u;
    }
    __syncthreads();  // scratch is written again by the next fold
    return all;
  };
  float top = v[0];
#pragma unroll
  for (int i = 1; i < V; ++i) top = fmaxf(top, v[i]);
  top = fold_cluster(top, true, 0);
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < V; ++i) {
    v[i] = __expf(v[i] - top);
    sum += v[i];
  }
  const float inverse = 1.0f / fold_cluster(sum, false, 1);
  cluster.sync();  // every block's `part` has been read before any block leaves
#pragma unroll
  for (int i = 0; i < V; ++i) {
    const int r = i * warps + warp;
    if (r < rows) __stcs(y + static_cast<size_t>(r0 + r) * C + col, v[i] * inverse);
  }
}

// ---------------------------------------------------------------- tma (cluster, tensor copies), columns

// As cluster, but each block's lines arrive by 2-D tensor copies (boxes of W columns x Box rows,
// issued by one thread, completing on an mbarrier) and leave the same way: the outputs are written
// over the staged inputs in shared memory, then stored by tensor copies.
__device__ __forceinline__ unsigned smem_address(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

template <int W, int CL, int Box>
__global__ void __launch_bounds__(threads)
    tma_columns(const __grid_constant__ CUtensorMap in, const __grid_constant__ CUtensorMap out, int R) {
  constexpr int TPW = W / 4, RP = threads / TPW;
  extern __shared__ __align__(128) float4 tile[];  // R / CL rows of W columns
  __shared__ float2 red[RP][W];
  __shared__ float2 mine[W];
  __shared__ float2 fin[W];
  __shared__ __align__(8) unsigned long long arrived;
  cg::cluster_group cluster = cg::this_cluster();
  const int rank = static_cast<int>(cluster.block_rank()), strip = static_cast<int>(blockIdx.x) / CL;
  const int tc = static_cast<int>(threadIdx.x) % TPW, tr = static_cast<int>(threadIdx.x) / TPW;
  const int rows = R / CL, r0 = rank * rows, col0 = strip * W;
  const unsigned barrier = smem_address(&arrived);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(barrier) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" ::"r"(barrier), "r"(rows * W * 4) : "memory");
    for (int b = 0; b < rows / Box; ++b)
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
              smem_address(tile + b * Box * TPW)),
          "l"(&in), "r"(col0), "r"(r0 + b * Box), "r"(barrier)
          : "memory");
  }
  __syncthreads();  // the barrier is initialised before anyone waits on it
  unsigned done = 0;
  do {
    asm volatile("{ .reg .pred ready; mbarrier.try_wait.parity.shared::cta.b64 ready, [%1], 0; selp.b32 %0, 1, 0, ready; }"
                 : "=r"(done)
                 : "r"(barrier)
                 : "memory");
  } while (!done);
  float m[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY}, s[4] = {};
  for (int r = tr; r < rows; r += RP) fold4(m, s, tile[r * TPW + tc]);
  for (int k = 0; k < 4; ++k) red[tr][tc * 4 + k] = make_float2(m[k], s[k]);
  __syncthreads();
  if (threadIdx.x < W) mine[threadIdx.x] = block_column_statistics(red, static_cast<int>(threadIdx.x));
  cluster.sync();
  if (threadIdx.x < W) fin[threadIdx.x] = finals(CL, [&](int q) { return cluster.map_shared_rank(mine, q)[threadIdx.x]; });
  __syncthreads();
  float top[4], inverse[4];
  column_finals(fin, tc, top, inverse);
  for (int r = tr; r < rows; r += RP) tile[r * TPW + tc] = softmax4(tile[r * TPW + tc], top, inverse);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // the outputs, visible to the copy engine
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int b = 0; b < rows / Box; ++b)
      asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(&out), "r"(col0),
                   "r"(r0 + b * Box), "r"(smem_address(tile + b * Box * TPW))
                   : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");  // shared memory read before the block leaves
  }
  cluster.sync();  // every block's `mine` has been read before any block leaves
}

// ---------------------------------------------------------------- pipe (persistent cluster), columns

__device__ __forceinline__ void async_copy16(void* smem, const void* gmem) {
  const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(to), "l"(gmem));
}

template <int W, int CL>
__global__ void __launch_bounds__(threads) pipe_columns(const float* __restrict__ x, float* __restrict__ y, int R, int C) {
  constexpr int TPW = W / 4, RP = threads / TPW;
  extern __shared__ float4 tiles[];  // two buffers of R / CL rows of W columns
  __shared__ float2 red[RP][W];
  __shared__ float2 mine[2][W];  // by the strip's parity: one cluster barrier a strip
  __shared__ float2 fin[W];
  cg::cluster_group cluster = cg::this_cluster();
  const int rank = static_cast<int>(cluster.block_rank());
  const int clusters = static_cast<int>(gridDim.x) / CL, me = static_cast<int>(blockIdx.x) / CL, strips = C / W;
  const int tc = static_cast<int>(threadIdx.x) % TPW, tr = static_cast<int>(threadIdx.x) / TPW;
  const int rows = R / CL, r0 = rank * rows;
  const auto copy_in = [&](int strip, float4* buffer) {
    const int col = strip * W + tc * 4;
    for (int r = tr; r < rows; r += RP) async_copy16(buffer + r * TPW + tc, x + static_cast<size_t>(r0 + r) * C + col);
    asm volatile("cp.async.commit_group;\n" ::);
  };
  if (me < strips) copy_in(me, tiles);
  int step = 0;
  for (int strip = me; strip < strips; strip += clusters, ++step) {
    float4* buffer = tiles + (step & 1) * rows * TPW;
    asm volatile("cp.async.wait_group 0;\n" ::);
    __syncthreads();
    float m[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY}, s[4] = {};
    for (int r = tr; r < rows; r += RP) fold4(m, s, buffer[r * TPW + tc]);
    for (int k = 0; k < 4; ++k) red[tr][tc * 4 + k] = make_float2(m[k], s[k]);
    __syncthreads();
    if (threadIdx.x < W) mine[step & 1][threadIdx.x] = block_column_statistics(red, static_cast<int>(threadIdx.x));
    cluster.sync();
    if (threadIdx.x < W) fin[threadIdx.x] = finals(CL, [&](int q) { return cluster.map_shared_rank(&mine[step & 1][0], q)[threadIdx.x]; });
    __syncthreads();
    if (strip + clusters < strips) copy_in(strip + clusters, tiles + ((step + 1) & 1) * rows * TPW);
    float top[4], inverse[4];
    column_finals(fin, tc, top, inverse);
    const int col = strip * W + tc * 4;
    for (int r = tr; r < rows; r += RP)
      __stcs(reinterpret_cast<float4*>(y + static_cast<size_t>(r0 + r) * C + col), softmax4(buffer[r * TPW + tc], top, inverse));
    __syncthreads();  // this buffer is copied into again two strips on
  }
  cluster.sync();  // no block leaves while another may read its `mine`
}

// ---------------------------------------------------------------- baselines and the driver

__global__ void copy_kernel(const float4* __restrict__ a, float4* __restrict__ b, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) b[i] = a[i];
}

template <class F>
float median_ms(F&& f, int reps = 15) {
  cudaEvent_t a, b;
  PROBE_CHECK(cudaEventCreate(&a));
  PROBE_CHECK(cudaEventCreate(&b));
  f();
  f();
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    PROBE_CHECK(cudaEventRecord(a));
    f();
    PROBE_CHECK(cudaEventRecord(b));
    PROBE_CHECK(cudaEventSynchronize(b));
    float ms = 0;
    PROBE_CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  PROBE_CHECK(cudaGetLastError());
  PROBE_CHECK(cudaEventDestroy(a));
  PROBE_CHECK(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct probe {
  int R, C, sms;
  std::size_t smem_limit;
  std::vector<float> host;
  float *x, *y;
  float2* partials;
  unsigned* counters;
  float copy_ms;
  bool columns;  // softmax down the columns, else along the rows

  // The worst relative error of y against softmax in long double, at 64 sampled columns or 4 rows.
  double worst_error() const {
    std::vector<float> got(host.size());
    PROBE_CHECK(cudaMemcpy(got.data(), y, got.size() * 4, cudaMemcpyDeviceToHost));
    PROBE_CHECK(cudaMemset(y, 0, got.size() * 4));
    const int lines = columns ? C : R, length = columns ? R : C;
    double worst = 0;
    for (int l = 0; l < lines; l += std::max(1, lines / (columns ? 64 : 4))) {
      const auto at = [&](int i) { return columns ? static_cast<size_t>(i) * C + l : static_cast<size_t>(l) * C + i; };
      long double top = -INFINITY, sum = 0;
      for (int i = 0; i < length; ++i) top = std::max<long double>(top, host[at(i)]);
      for (int i = 0; i < length; ++i) sum += std::exp(static_cast<long double>(host[at(i)]) - top);
      for (int i = 0; i < length; i += 7) {
        const long double want = std::exp(static_cast<long double>(host[at(i)]) - top) / sum;
        worst = std::max(worst, static_cast<double>(std::fabs(got[at(i)] - want) / want));
      }
    }
    return worst;
  }
  void report(const char* what, float ms) const {
    std::printf("%-58s %.4f ms  %.3f of copy  max rel err %.1e\n", what, ms, copy_ms / ms, worst_error());
  }

  void group(int W, int B, int per_sm) {
    int fit = 0;
    const void* k = columns ? (W == 64 ? reinterpret_cast<const void*>(group_columns<64>) : reinterpret_cast<const void*>(group_columns<128>))
                            : reinterpret_cast<const void*>(group_rows);
    PROBE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, k, threads, 0));
    if (per_sm > fit) return;  // every block must be resident: the groups wait for their members
    const int total = sms * per_sm / B * B, G = total / B;
    const float ms = median_ms([&] {
      PROBE_CHECK(cudaMemsetAsync(counters, 0, G * sizeof(unsigned)));
      if (!columns) group_rows<<<total, threads>>>(x, y, R, C, B, partials, counters);
      else if (W == 64) group_columns<64><<<total, threads>>>(x, y, R, C, B, partials, counters);
      else group_columns<128><<<total, threads>>>(x, y, R, C, B, partials, counters);
    });
    char what[160];
    const double set = double(G) * (columns ? double(R) * W : double(C)) * 4 / 1e6;
    std::snprintf(what, sizeof what, "group W=%d B=%d G=%d (%d/SM, in flight %.0f MB)", columns ? W : C, B, G, per_sm, set);
    report(what, ms);
  }

  template <class Kernel>
  bool cluster_config(Kernel k, int CL, std::size_t smem, unsigned grid, cudaLaunchConfig_t& cfg, cudaLaunchAttribute& at, int& live) const {
    if (smem > smem_limit) return false;
    PROBE_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    if (CL > 8) PROBE_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cfg = {};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(threads);
    cfg.dynamicSmemBytes = smem;
    at.id = cudaLaunchAttributeClusterDimension;
    at.val.clusterDim.x = static_cast<unsigned>(CL);
    at.val.clusterDim.y = 1;
    at.val.clusterDim.z = 1;
    cfg.attrs = &at;
    cfg.numAttrs = 1;
    live = 0;
    if (cudaOccupancyMaxActiveClusters(&live, k, &cfg) != cudaSuccess || live == 0) {
      (void)cudaGetLastError();
      return false;
    }
    return true;
  }

  template <int W, int CL, int Unroll>
  void cluster() {
    const auto k = cluster_columns<W, CL, Unroll>;
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute at;
    int live = 0;
    const std::size_t smem = static_cast<std::size_t>(R / CL) * W * 4;
    if (!cluster_config(k, CL, smem, static_cast<unsigned>(C / W * CL), cfg, at, live)) return;
    const float ms = median_ms([&] { PROBE_CHECK(cudaLaunchKernelEx(&cfg, k, static_cast<const float*>(x), y, R, C)); });
    char what[160];
    std::snprintf(what, sizeof what, "cluster W=%d CL=%d unroll %d (%zu KB, %d clusters live)", W, CL, Unroll, smem / 1024, live);
    report(what, ms);
  }

  template <int V, int CL>
  void registers() {
    if (R / CL > V * (threads / 32)) return;  // the block's rows must fit its registers
    const auto k = register_columns<V, CL>;
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute at;
    int live = 0;
    if (!cluster_config(k, CL, 0, static_cast<unsigned>(C / 32 * CL), cfg, at, live)) return;
    const float ms = median_ms([&] { PROBE_CHECK(cudaLaunchKernelEx(&cfg, k, static_cast<const float*>(x), y, R, C)); });
    char what[160];
    std::snprintf(what, sizeof what, "registers V=%d CL=%d (%d clusters live)", V, CL, live);
    report(what, ms);
  }

  // A 2-D tensor map of an R x C float matrix, boxes of W columns x Box rows.
  static CUtensorMap tensor_map(float* base, int R, int C, int W, int Box) {
    static PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
      void* fn = nullptr;
      cudaDriverEntryPointQueryResult found;
      PROBE_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found));
      return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
    }();
    CUtensorMap map;
    const cuuint64_t dims[2] = {static_cast<cuuint64_t>(C), static_cast<cuuint64_t>(R)};
    const cuuint64_t strides[1] = {static_cast<cuuint64_t>(C) * 4};
    const cuuint32_t box[2] = {static_cast<cuuint32_t>(W), static_cast<cuuint32_t>(Box)}, steps[2] = {1, 1};
    const CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, dims, strides, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE,
                              CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
      std::printf("cuTensorMapEncodeTiled failed (%d)\n", static_cast<int>(r));
      std::exit(1);
    }
    return map;
  }

  template <int W, int CL, int Box>
  void tma() {
    const int rows = R / CL;
    if (rows % Box != 0) return;
    const auto k = tma_columns<W, CL, Box>;
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute at;
    int live = 0;
    const std::size_t smem = static_cast<std::size_t>(rows) * W * 4;
    if (!cluster_config(k, CL, smem, static_cast<unsigned>(C / W * CL), cfg, at, live)) return;
    const CUtensorMap in = tensor_map(x, R, C, W, Box), out = tensor_map(y, R, C, W, Box);
    const float ms = median_ms([&] { PROBE_CHECK(cudaLaunchKernelEx(&cfg, k, in, out, R)); });
    char what[160];
    std::snprintf(what, sizeof what, "tma W=%d CL=%d box %d rows (%zu KB, %d clusters live)", W, CL, Box, smem / 1024, live);
    report(what, ms);
  }

  template <int W, int CL>
  void pipe() {
    const auto k = pipe_columns<W, CL>;
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute at;
    int live = 0;
    const std::size_t smem = 2 * static_cast<std::size_t>(R / CL) * W * 4;
    if (!cluster_config(k, CL, smem, static_cast<unsigned>(C / W * CL), cfg, at, live)) return;
    cfg.gridDim = dim3(static_cast<unsigned>(std::min(live, C / W) * CL));
    const float ms = median_ms([&] { PROBE_CHECK(cudaLaunchKernelEx(&cfg, k, static_cast<const float*>(x), y, R, C)); });
    char what[160];
    std::snprintf(what, sizeof what, "pipe W=%d CL=%d (%zu KB, %d clusters, persistent)", W, CL, smem / 1024, live);
    report(what, ms);
  }
};

int main(int argc, char** argv) {
  const int R = argc > 1 ? std::atoi(argv[1]) : 8192, C = argc > 2 ? std::atoi(argv[2]) : 8192;
  const std::string which = argc > 3 ? argv[3] : "all";
  if (R <= 0 || C <= 0 || C % 128 != 0 || R % 16 != 0) {
    std::printf("usage: %s [R C [all|cluster|rows]]: C a multiple of 128, R of 16\n", argv[0]);
    return 2;
  }
  cudaDeviceProp prop;
  PROBE_CHECK(cudaGetDeviceProperties(&prop, 0));
  probe p{R, C, prop.multiProcessorCount, prop.sharedMemPerBlockOptin, {}, nullptr, nullptr, nullptr, nullptr, 0, which != "rows"};
  const size_t n = static_cast<size_t>(R) * C;
  p.host.resize(n);
  unsigned long long state = 12345;
  for (auto& v : p.host) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    v = static_cast<float>((state >> 40) & 0xFFFFFF) / 16777216.0f * 8.0f - 4.0f;  // uniform in [-4, 4)
  }
  PROBE_CHECK(cudaMalloc(&p.x, n * 4));
  PROBE_CHECK(cudaMalloc(&p.y, n * 4));
  PROBE_CHECK(cudaMalloc(&p.partials, size_t(2) * 4 * p.sms * 128 * sizeof(float2)));  // 2 rounds x blocks x W
  PROBE_CHECK(cudaMalloc(&p.counters, 4 * p.sms * sizeof(unsigned)));
  PROBE_CHECK(cudaMemcpy(p.x, p.host.data(), n * 4, cudaMemcpyHostToDevice));
  p.copy_ms = median_ms([&] { PROBE_CHECK(cudaMemcpyAsync(p.y, p.x, n * 4, cudaMemcpyDeviceToDevice)); });
  const float kernel_ms =
      median_ms([&] { copy_kernel<<<p.sms * 8, threads>>>(reinterpret_cast<const float4*>(p.x), reinterpret_cast<float4*>(p.y), n / 4); });
  std::printf("%s, %d SMs, L2 %d MB; softmax along %s of %d x %d f32; copy (cudaMemcpy) %.4f ms, %.0f GB/s (a copy kernel %.4f ms)\n",
              prop.name, p.sms, prop.l2CacheSize >> 20, p.columns ? "the columns" : "the rows", R, C, p.copy_ms, 2.0 * n * 4 / p.copy_ms / 1e6,
              kernel_ms);
  if (which != "cluster")
    for (int per_sm : {2, 4})
      for (int B : {8, 16, 33, 66}) {
        if (p.columns) {
          p.group(64, B, per_sm);
          p.group(128, B, per_sm);
        } else {
          p.group(0, B, per_sm);
        }
      }
  if (p.columns) {
    p.cluster<32, 16, 4>();
    p.cluster<32, 16, 8>();
    p.cluster<16, 16, 4>();
    p.cluster<32, 8, 4>();
    p.cluster<16, 8, 4>();
    p.cluster<16, 8, 8>();
    p.tma<32, 16, 256>();
    p.tma<32, 16, 128>();
    p.tma<32, 8, 256>();
    p.tma<16, 16, 256>();
    p.tma<16, 8, 256>();
    p.registers<64, 16>();
    p.registers<32, 16>();
    p.registers<64, 8>();
    p.registers<32, 8>();
    p.pipe<32, 16>();
    p.pipe<16, 16>();
    p.pipe<16, 8>();
  }
  return 0;
}
