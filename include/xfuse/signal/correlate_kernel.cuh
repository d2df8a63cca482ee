// SPDX-License-Identifier: Apache-2.0
// The one computation behind convolve, correlate, convolve2d and correlate2d:
//
//   out[i][j] = sum over p < P, q < Q of x[i + r0 + p][j + c0 + q] * f[p][q]
//
// with x zero outside its M x N extent (scipy's fill boundary). Convolution passes the filter
// reversed, correlation its conjugate; the modes differ only in the output's extent and the
// offsets (r0, c0) (signal.hpp). Device kernels, shared-memory tiled:
// - 2-D: a block of 32 x 8 threads computes a 32-wide, 64-tall tile of outputs, each thread 8
//   outputs of one column, from a tile of x with its halo and the filter in shared memory. Along a
//   filter column a thread slides a window of 8 registers down the rows: one shared-memory load
//   per step serves 8 multiply-adds, and a warp reads consecutive columns (no bank conflicts).
// - 1-D (one row): a block of 256 threads computes 2048 outputs from the row segment and the
//   filter in shared memory, each thread outputs tx, tx + 256, ... (no bank conflicts).
// - Filters too large for shared memory: one output per thread, reading x and f from memory.
#pragma once

#include "../core.hpp"

namespace xf::detail {

struct correlate_geometry {
  index_t rows, cols;          // x's extent (M, N)
  index_t row_stride, col_stride;
  index_t out_rows, out_cols;  // the output's extent, C order
  index_t r0, c0;              // the output's offset into x
  int p, q;                    // the filter's extent, C-contiguous
};

inline constexpr int corr2d_bx = 32, corr2d_by = 8, corr2d_ty = 8;  // 32 x 64 outputs a block
inline constexpr int corr1d_threads = 256, corr1d_per_thread = 8;     // 2048 outputs a block

template <class T>
constexpr std::size_t corr2d_smem(int p, int q) {
  return sizeof(T) * (static_cast<std::size_t>(corr2d_by * corr2d_ty + p - 1) * static_cast<std::size_t>(corr2d_bx + q - 1) +
                      static_cast<std::size_t>(p) * static_cast<std::size_t>(q));
}
template <class T>
constexpr std::size_t corr1d_smem(int q) {
  return sizeof(T) * (static_cast<std::size_t>(corr1d_threads * corr1d_per_thread + q - 1) + static_cast<std::size_t>(q));
}
inline constexpr std::size_t corr_smem_limit = std::size_t{96} << 10;

#if XF_CUDA_TU
template <class T>
__device__ XF_FORCEINLINE T corr_load(const T* x, const correlate_geometry& g, index_t i, index_t j) {
  return i >= 0 && i < g.rows && j >= 0 && j < g.cols ? x[i * g.row_stride + j * g.col_stride] : T(0);
}

template <class T>
__global__ void __launch_bounds__(corr2d_bx* corr2d_by) correlate2d_tiled(const T* __restrict__ x, const T* __restrict__ f, T* __restrict__ out,
                                                                         correlate_geometry g) {
  extern __shared__ unsigned char corr_shared[];
  constexpr int TY = corr2d_ty, BX = corr2d_bx, BY = corr2d_by;
  const int P = g.p, Q = g.q;
  const int tile_w = BX + Q - 1, tile_h = BY * TY + P - 1;
  T* tile = reinterpret_cast<T*>(corr_shared);
  T* filt = tile + tile_h * tile_w;
  const int tid = static_cast<int>(threadIdx.y) * BX + static_cast<int>(threadIdx.x);
  const index_t oi0 = static_cast<index_t>(blockIdx.y) * (BY * TY), oj0 = static_cast<index_t>(blockIdx.x) * BX;
  for (int e = tid; e < P * Q; e += BX * BY) filt[e] = f[e];
  for (int e = tid; e < tile_h * tile_w; e += BX * BY) {
    const int r = e / tile_w, c = e - r * tile_w;
    tile[e] = corr_load(x, g, oi0 + g.r0 + r, oj0 + g.c0 + c);
  }
  __syncthreads();
  const int tx = static_cast<int>(threadIdx.x), row0 = static_cast<int>(threadIdx.y) * TY;
  T acc[TY];
#pragma unroll
  for (int t = 0; t < TY; ++t) acc[t] = T(0);
  for (int q = 0; q < Q; ++q) {
    const T* col = tile + row0 * tile_w + tx + q;
    T win[TY];
#pragma unroll
    for (int t = 0; t < TY; ++t) win[t] = col[t * tile_w];
    for (int p = 0; p < P; ++p) {
      const T w = filt[p * Q + q];
#pragma unroll
      for (int t = 0; t < TY; ++t) acc[t] += win[t] * w;
#pragma unroll
      for (int t = 0; t + 1 < TY; ++t) win[t] = win[t + 1];
      if (p + 1 < P) win[TY - 1] = col[(TY + p) * tile_w];
    }
  }
  const index_t j = oj0 + tx;
  if (j < g.out_cols) {
#pragma unroll
    for (int t = 0; t < TY; ++t) {
      const index_t i = oi0 + row0 + t;
      if (i < g.out_rows) out[i * g.out_cols + j] = acc[t];
    }
  }
}

template <class T>
__global__ void __launch_bounds__(corr1d_threads) correlate1d_tiled(const T* __restrict__ x, const T* __restrict__ f, T* __restrict__ out,
                                                                    correlate_geometry g) {
  extern __shared__ unsigned char corr_shared[];
  constexpr int B = corr1d_threads, K = corr1d_per_thread;
  const int Q = g.q;
  const int span = B * K + Q - 1;
  T* seg = reinterpret_cast<T*>(corr_shared);
  T* filt = seg + span;
  const int tid = static_cast<int>(threadIdx.x);
  const index_t o0 = static_cast<index_t>(blockIdx.x) * (B * K);
  for (int e = tid; e < Q; e += B) filt[e] = f[e];
  for (int e = tid; e < span; e += B) seg[e] = corr_load(x, g, g.r0, o0 + g.c0 + e);
  __syncthreads();
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int local = k * B + tid;
    T acc = T(0);
    for (int q = 0; q < Q; ++q) acc += seg[local + q] * filt[q];
    if (o0 + local < g.out_cols) out[o0 + local] = acc;
  }
}

template <class T>
__global__ void correlate_direct(const T* __restrict__ x, const T* __restrict__ f, T* __restrict__ out, correlate_geometry g) {
  const index_t n = g.out_rows * g.out_cols;
  for (index_t e = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < n; e += static_cast<index_t>(gridDim.x) * blockDim.x) {
    const index_t i = e / g.out_cols, j = e - i * g.out_cols;
    T acc = T(0);
    for (int p = 0; p < g.p; ++p)
      for (int q = 0; q < g.q; ++q) acc += corr_load(x, g, i + g.r0 + p, j + g.c0 + q) * f[p * g.q + q];
    out[e] = acc;
  }
}
#endif

// Runs the correlation on the current device and stream: x anywhere in device memory (strided),
// f and out C-contiguous device memory.
template <class T>
void correlate_device(const T* x, const T* f, T* out, const correlate_geometry& g, cudaStream_t stream) {
  static_assert(cuda_tu || always_false<T>, "xfuse: convolution of device arrays launches CUDA kernels; compile this file with nvcc");
#if XF_CUDA_TU
  if (g.out_rows == 0 || g.out_cols == 0) return;
  const auto raise_smem = [](const void* kernel, std::size_t bytes) {
    if (bytes > (std::size_t{48} << 10))
      XF_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  };
  if (g.out_rows == 1 && corr1d_smem<T>(g.q) <= corr_smem_limit && g.p == 1) {
    const std::size_t smem = corr1d_smem<T>(g.q);
    raise_smem(reinterpret_cast<const void*>(correlate1d_tiled<T>), smem);
    const index_t blocks = (g.out_cols + corr1d_threads * corr1d_per_thread - 1) / (corr1d_threads * corr1d_per_thread);
    correlate1d_tiled<T><<<static_cast<unsigned>(blocks), corr1d_threads, smem, stream>>>(x, f, out, g);
  } else if (corr2d_smem<T>(g.p, g.q) <= corr_smem_limit) {
    const std::size_t smem = corr2d_smem<T>(g.p, g.q);
    raise_smem(reinterpret_cast<const void*>(correlate2d_tiled<T>), smem);
    const dim3 grid(static_cast<unsigned>((g.out_cols + corr2d_bx - 1) / corr2d_bx),
                    static_cast<unsigned>((g.out_rows + corr2d_by * corr2d_ty - 1) / (corr2d_by * corr2d_ty)));
    correlate2d_tiled<T><<<grid, dim3(corr2d_bx, corr2d_by), smem, stream>>>(x, f, out, g);
  } else {
    const index_t n = g.out_rows * g.out_cols;
    const index_t blocks = std::min<index_t>((n + 255) / 256, index_t{1} << 20);
    correlate_direct<T><<<static_cast<unsigned>(blocks), 256, 0, stream>>>(x, f, out, g);
  }
  XF_CUDA_CHECK(cudaGetLastError());
#else
  (void)x, (void)f, (void)out, (void)g, (void)stream;
#endif
}

// The same on the host: direct loops.
template <class T>
void correlate_host(const T* x, const T* f, T* out, const correlate_geometry& g) {
  for (index_t i = 0; i < g.out_rows; ++i)
    for (index_t j = 0; j < g.out_cols; ++j) {
      T acc = T(0);
      for (int p = 0; p < g.p; ++p) {
        const index_t xi = i + g.r0 + p;
        if (xi < 0 || xi >= g.rows) continue;
        for (int q = 0; q < g.q; ++q) {
          const index_t xj = j + g.c0 + q;
          if (xj >= 0 && xj < g.cols) acc += x[xi * g.row_stride + xj * g.col_stride] * f[p * g.q + q];
        }
      }
      out[i * g.out_cols + j] = acc;
    }
}

}  // namespace xf::detail
