// SPDX-License-Identifier: Apache-2.0
// Integer and bool matrix products, which no BLAS has (cuBLAS multiplies only int8 into int32):
// C = A B for stacks of C-contiguous matrices, NumPy's wrapping arithmetic. Products accumulate
// in an unsigned type (uint32, or uint64 for 64-bit elements and bool), where overflow is defined
// and, the operands being sign-extended, equal to the wrapped sum modulo 2^bits; the result is cast
// to the element type (bool: any product nonzero). Device: one tiled kernel, a 64 x 64 or 128 x 128
// tile of C per block of 256 threads (4 x 4 or 8 x 8 results a thread), k taken through shared
// memory 16 or 8 at a time.
// Host: a loop in i-k-j order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "../core.hpp"

namespace xf::detail {

template <class T>
using integer_accumulator_t = std::conditional_t<sizeof(T) == 8 || std::is_same_v<T, bool>, std::uint64_t, std::uint32_t>;

template <class T, class U>
XF_HD XF_FORCEINLINE T integer_result(U total) {
  if constexpr (std::is_same_v<T, bool>) return total != 0;
  else return static_cast<T>(total);  // modulo 2^bits (C++20)
}

// Where matrix z of the batch starts in each operand: the batch index decomposed over the batch
// extents (C order), each operand's stride 0 where it is broadcast, so no operand is copied.
template <int NB>
struct integer_gemm_batches {
  index_t extent[NB > 0 ? NB : 1]{};
  index_t a_stride[NB > 0 ? NB : 1]{}, b_stride[NB > 0 ? NB : 1]{};
  XF_HD XF_FORCEINLINE void offsets(index_t z, index_t& a_offset, index_t& b_offset) const {
    a_offset = 0, b_offset = 0;
    for (int d = NB - 1; d >= 0; --d) {
      const index_t i = z % extent[d];
      z /= extent[d];
      a_offset += i * a_stride[d];
      b_offset += i * b_stride[d];
    }
  }
};

// The tile of C a block computes, the results a thread keeps in registers along each axis, and
// the k taken per shared-memory stage; 256 threads either way. The large tile does 4 multiply-adds
// per shared-memory read where the small one does 2, but has a quarter as many blocks: it serves
// products with enough tiles to fill the GPU several times over.
template <int Tile, int PerThread, int Step>
struct integer_gemm_shape {
  static constexpr int tile = Tile, per_thread = PerThread, step = Step;
  static constexpr int side = Tile / PerThread;  // threads along each axis of the tile
  static constexpr int threads = side * side;
};
using integer_gemm_small = integer_gemm_shape<64, 4, 16>;
using integer_gemm_large = integer_gemm_shape<128, 8, 8>;

#if XF_CUDA_TU
template <class Shape, class T, class U, int NB>
__global__ void __launch_bounds__(Shape::threads)
    integer_gemm_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c, index_t m, index_t n, index_t k, index_t count,
                        integer_gemm_batches<NB> batches) {
  constexpr int tile = Shape::tile, step = Shape::step, per = Shape::per_thread, side = Shape::side;
  // a_stage[kk][r] = A(row0 + r, k0 + kk), rows padded by 4: the loads write `step` consecutive kk
  // of a row without 16-way bank conflicts, and the reads stay 16-byte aligned.
  __shared__ U a_stage[step][tile + 4];
  __shared__ U b_stage[step][tile];  // b_stage[kk][col] = B(k0 + kk, col0 + col)
  const int t = static_cast<int>(threadIdx.x), tx = t % side, ty = t / side;
  const index_t tiles_n = (n + tile - 1) / tile, tiles_m = (m + tile - 1) / tile;
  for (index_t z = blockIdx.z; z < count; z += gridDim.z) {
    index_t a_offset = 0, b_offset = 0;
    batches.offsets(z, a_offset, b_offset);
    const T* ab = a + a_offset;
    const T* bb = b + b_offset;
    T* cb = c + z * m * n;
    for (index_t tile_row = blockIdx.y; tile_row < tiles_m; tile_row += gridDim.y) {
      for (index_t tile_col = blockIdx.x; tile_col < tiles_n; tile_col += gridDim.x) {
        const index_t row0 = tile_row * tile, col0 = tile_col * tile;
        U acc[per][per] = {};
        for (index_t k0 = 0; k0 < k; k0 += step) {
          for (int e = t; e < tile * step; e += Shape::threads) {
            const int r = e / step, kk = e % step;  // A: `step` consecutive k of a row
            const index_t gr = row0 + r, gk = k0 + kk;
            a_stage[kk][r] = gr < m && gk < k ? static_cast<U>(ab[gr * k + gk]) : U(0);
            const int kb = e / tile, col = e % tile;  // B: `tile` consecutive columns of a k
            const index_t gkb = k0 + kb, gc = col0 + col;
            b_stage[kb][col] = gkb < k && gc < n ? static_cast<U>(bb[gkb * n + gc]) : U(0);
          }
          __syncthreads();
#pragma unroll
          for (int kk = 0; kk < step; ++kk) {
            U x[per], y[per];
#pragma unroll
            for (int i = 0; i < per; ++i) x[i] = a_stage[kk][ty * per + i];
#pragma unroll
            for (int j = 0; j < per; ++j) y[j] = b_stage[kk][tx * per + j];
#pragma unroll
            for (int i = 0; i < per; ++i)
#pragma unroll
              for (int j = 0; j < per; ++j) acc[i][j] += x[i] * y[j];
          }
          __syncthreads();
        }
#pragma unroll
        for (int i = 0; i < per; ++i) {
          const index_t r = row0 + ty * per + i;
          if (r >= m) continue;
#pragma unroll
          for (int j = 0; j < per; ++j) {
            const index_t col = col0 + tx * per + j;
            if (col < n) cb[r * n + col] = integer_result<T>(acc[i][j]);
          }
        }
      }
    }
  }
}

template <class Shape, class T, class U, int NB>
void launch_integer_gemm(const T* a, const T* b, T* c, index_t m, index_t n, index_t k, index_t count, const integer_gemm_batches<NB>& batches) {
  const auto capped = [](index_t v) { return static_cast<unsigned>(v < 65535 ? v : 65535); };
  const index_t tiles_n = (n + Shape::tile - 1) / Shape::tile, tiles_m = (m + Shape::tile - 1) / Shape::tile;
  const dim3 grid(static_cast<unsigned>(tiles_n < 0x7fffffff ? tiles_n : 0x7fffffff), capped(tiles_m), capped(count));
  integer_gemm_kernel<Shape, T, U, NB><<<grid, Shape::threads, 0, current_stream().handle()>>>(a, b, c, m, n, k, count, batches);
  XF_CUDA_CHECK(cudaGetLastError());
}
#endif

// c (count, m, n) = a @ b over the batch (count = the product of batches.extent; c C-contiguous,
// each operand's matrices C-contiguous at its batch offsets), on the current device and stream
// (device) or here (host).
template <class T, class Space, int NB>
void integer_gemm(const T* a, const T* b, T* c, index_t m, index_t n, index_t k, index_t count, const integer_gemm_batches<NB>& batches) {
  using U = integer_accumulator_t<T>;
  if (m == 0 || n == 0 || count == 0) return;
  if constexpr (std::is_same_v<Space, device>) {
    static_assert(cuda_tu || !std::is_same_v<T, T>, "xfuse: integer matmul of device arrays launches CUDA kernels; compile this file with nvcc");
#if XF_CUDA_TU
    // Large tiles where they still give every multiprocessor four blocks or more.
    const index_t large_tiles = ((m + integer_gemm_large::tile - 1) / integer_gemm_large::tile) *
                                ((n + integer_gemm_large::tile - 1) / integer_gemm_large::tile) * count;
    if (large_tiles >= 4 * static_cast<index_t>(device(device::current_id()).multiprocessor_count()))
      launch_integer_gemm<integer_gemm_large, T, U>(a, b, c, m, n, k, count, batches);
    else
      launch_integer_gemm<integer_gemm_small, T, U>(a, b, c, m, n, k, count, batches);
#endif
  } else {
    std::vector<U> row(static_cast<std::size_t>(n));
    for (index_t z = 0; z < count; ++z) {
      index_t a_offset = 0, b_offset = 0;
      batches.offsets(z, a_offset, b_offset);
      for (index_t i = 0; i < m; ++i) {
        std::fill(row.begin(), row.end(), U(0));
        for (index_t p = 0; p < k; ++p) {
          const U x = static_cast<U>(a[a_offset + i * k + p]);
          const T* bp = b + b_offset + p * n;
          for (index_t j = 0; j < n; ++j) row[static_cast<std::size_t>(j)] += x * static_cast<U>(bp[j]);
        }
        for (index_t j = 0; j < n; ++j) c[(z * m + i) * n + j] = integer_result<T>(row[static_cast<std::size_t>(j)]);
      }
    }
  }
}

}  // namespace xf::detail
