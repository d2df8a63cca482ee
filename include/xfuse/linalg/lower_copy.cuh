// SPDX-License-Identifier: Apache-2.0
// The copy that cholesky hands to potrf: for each matrix A of a stack (any strides), a column-major
// matrix M with M's lower triangle = A's lower triangle and zeros above (potrf leaves that part
// alone, so M is L once potrf is done). It reads only A's lower triangle: tiles wholly above the
// diagonal are written as zeros without a load, so the pass moves 3/4 of a copy's bytes. The fused
// `where(tri(n).T(), a.swapaxes(...), 0)` it replaced read every element (where evaluates both
// sides) and took twice a copy's time in f64 at 4096 (it spilled registers then; docs/performance.md).
// 64 x 64 tiles for floats were tried (bench/results/H200/evidence/cholesky_tile64.json): 5% faster at
// 4096, 50% slower at 512 (fewer blocks); 32 x 32 for every type.
#pragma once

#include "../core.hpp"
#include "small_lu.cuh"  // stack_strides

namespace xf::detail {

inline constexpr int lower_copy_tile = 32;  // a tile of A per block, moved through shared memory
inline constexpr int lower_copy_rows = 8;   // threads per block: tile x rows

#if XF_CUDA_TU
// Block (tile column, tile row, matrix): reads A's tile with threads along A's columns, writes M's
// tile with threads along A's rows (M's columns are A's rows: contiguous in M).
template <class T>
__global__ void __launch_bounds__(lower_copy_tile* lower_copy_rows)
    lower_copy_kernel(const T* __restrict__ a, stack_strides as, T* __restrict__ m, index_t n, index_t count) {
  constexpr int tile = lower_copy_tile, rows = lower_copy_rows;
  __shared__ T staged[tile][tile + 1];  // +1: the transposed read hits distinct banks
  const index_t r0 = static_cast<index_t>(blockIdx.y) * tile, c0 = static_cast<index_t>(blockIdx.x) * tile;
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const bool above_diagonal = r0 + tile - 1 < c0;  // every r < c: zeros only
  for (index_t b = blockIdx.z; b < count; b += gridDim.z) {
    const T* ab = a + b * as.batch;
    T* mb = m + b * n * n;
    if (!above_diagonal) {
      for (int i = ty; i < tile; i += rows) {
        const index_t r = r0 + i, c = c0 + tx;
        if (r < n && c < n && c <= r) staged[i][tx] = ab[r * as.row + c * as.col];
      }
      __syncthreads();
    }
    // M(r, c) sits at c * n + r: threads along r.
    for (int i = ty; i < tile; i += rows) {
      const index_t c = c0 + i, r = r0 + tx;
      if (r < n && c < n) mb[c * n + r] = !above_diagonal && c <= r ? staged[tx][i] : T(0);
    }
    __syncthreads();  // the next matrix reuses `staged`
  }
}
#endif

// m (count, n, n) contiguous, each matrix column-major; a (count, n, n) any strides; device memory
// of the current device.
template <class T>
void lower_copy(const T* a, stack_strides as, T* m, index_t n, index_t count, cudaStream_t stream) {
  static_assert(cuda_tu || !std::is_same_v<T, T>, "xfuse: linear algebra on device arrays launches CUDA kernels; compile this file with nvcc");
#if XF_CUDA_TU
  if (n == 0 || count == 0) return;
  const index_t tiles = (n + lower_copy_tile - 1) / lower_copy_tile;
  if (tiles > 65535) throw shape_error("xf::linalg::cholesky: matrices of order " + std::to_string(n) + " exceed the copy kernel's grid");
  const dim3 grid(static_cast<unsigned>(tiles), static_cast<unsigned>(tiles), static_cast<unsigned>(count < 65535 ? count : 65535));
  lower_copy_kernel<T><<<grid, dim3(lower_copy_tile, lower_copy_rows), 0, stream>>>(a, as, m, n, count);
  XF_CUDA_CHECK(cudaGetLastError());
#else
  (void)a, (void)as, (void)m, (void)n, (void)count, (void)stream;
#endif
}

}  // namespace xf::detail
