// SPDX-License-Identifier: Apache-2.0
// Solving A X = B for stacks of small matrices (n <= 64) in one kernel launch: a block per matrix
// loads A and B from their strided views into shared memory, factors A with partial pivoting
// (LAPACK's getf2 order, pivoting on the largest |re| + |im|), applies each row operation to B as
// it goes, back-substitutes, and writes X in C order. The cuBLAS sequence it replaces took about
// ten launches and allocations (a transposing copy, pointer arrays, getrfBatched, getrsBatched):
// 44 us of host time for one 64 x 64 solve against the 10 us target (docs/performance.md).
#pragma once

#include <array>
#include <string>

#include "../core.hpp"

namespace xf::detail {

inline constexpr int small_lu_max_n = 64;

// The shared memory a block needs: A with a padded row (n + 1) and B (n x k).
template <class T>
constexpr std::size_t small_lu_smem(int n, int k) {
  return sizeof(T) * (static_cast<std::size_t>(n) * static_cast<std::size_t>(n + 1) + static_cast<std::size_t>(n) * static_cast<std::size_t>(k));
}

// Strides in elements of a stack of matrices: (batch, row, column).
struct stack_strides {
  index_t batch, row, col;
};

#if XF_CUDA_TU
// The order of one value for pivoting: LAPACK's |re| + |im| for complex (i?amax).
template <class T>
__device__ XF_FORCEINLINE auto pivot_size(const T& v) {
  if constexpr (is_complex<T>) return ::fabs(v.real()) + ::fabs(v.imag());
  else return ::fabs(v);
}

// b == nullptr: B is the identity (inv).
template <class T>
__global__ void small_lu_solve_kernel(const T* __restrict__ a, stack_strides as, const T* __restrict__ b, stack_strides bs,
                                      T* __restrict__ x, int n, int k, int* __restrict__ info) {
  extern __shared__ unsigned char small_lu_shared[];
  T* A = reinterpret_cast<T*>(small_lu_shared);  // A[i * lda + j]
  const int lda = n + 1;
  T* B = A + n * lda;  // B[i * k + c]
  __shared__ int pivot_row;
  __shared__ int first_zero;
  const index_t m = blockIdx.x;
  const int tid = static_cast<int>(threadIdx.x), threads = static_cast<int>(blockDim.x);
  const T* am = a + m * as.batch;
  for (int e = tid; e < n * n; e += threads) {
    const int i = e / n, j = e - i * n;
    A[i * lda + j] = am[i * as.row + j * as.col];
  }
  if (b) {
    const T* bm = b + m * bs.batch;
    for (int e = tid; e < n * k; e += threads) {
      const int i = e / k, c = e - i * k;
      B[e] = bm[i * bs.row + c * bs.col];
    }
  } else {
    for (int e = tid; e < n * k; e += threads) B[e] = T(e / k == e % k ? 1 : 0);
  }
  if (tid == 0) first_zero = 0;
  __syncthreads();

  for (int j = 0; j < n; ++j) {
    // The pivot: the first row of the largest value in column j, rows j..n-1 (one warp).
    if (tid < 32) {
      using R = decltype(pivot_size(T{}));
      R best = R(-1);
      int row = j;
      for (int i = j + tid; i < n; i += 32) {
        const R v = pivot_size(A[i * lda + j]);
        if (v > best) best = v, row = i;
      }
      for (int off = 16; off > 0; off >>= 1) {
        const R ob = __shfl_down_sync(0xffffffffu, best, off);
        const int orow = __shfl_down_sync(0xffffffffu, row, off);
        if (ob > best || (ob == best && orow < row)) best = ob, row = orow;
      }
      if (tid == 0) pivot_row = row;
    }
    __syncthreads();
    const int p = pivot_row;
    if (p != j) {
      for (int c = tid; c < n; c += threads) {
        const T t = A[j * lda + c];
        A[j * lda + c] = A[p * lda + c];
        A[p * lda + c] = t;
      }
      for (int c = tid; c < k; c += threads) {
        const T t = B[j * k + c];
        B[j * k + c] = B[p * k + c];
        B[p * k + c] = t;
      }
    }
    __syncthreads();
    const T pivot = A[j * lda + j];
    if (pivot == T(0)) {
      if (tid == 0 && first_zero == 0) first_zero = j + 1;  // singular: LAPACK's info, the rest is moot
      continue;
    }
    // Multipliers, then the rank-1 update of the trailing matrix and of B.
    for (int i = j + 1 + tid; i < n; i += threads) A[i * lda + j] = A[i * lda + j] / pivot;
    __syncthreads();
    const int rows = n - j - 1, cols = n - j - 1 + k;
    for (int e = tid; e < rows * cols; e += threads) {
      const int i = j + 1 + e / cols, c = e % cols;
      const T l = A[i * lda + j];
      if (c < n - j - 1) A[i * lda + j + 1 + c] -= l * A[j * lda + j + 1 + c];
      else B[i * k + (c - (n - j - 1))] -= l * B[j * k + (c - (n - j - 1))];
    }
    __syncthreads();
  }
  __syncthreads();  // first_zero may have been set in the last step
  // Back substitution with U: B's rows from the last up.
  if (first_zero == 0) {
    for (int j = n - 1; j >= 0; --j) {
      const T u = A[j * lda + j];
      for (int c = tid; c < k; c += threads) B[j * k + c] = B[j * k + c] / u;
      __syncthreads();
      for (int e = tid; e < j * k; e += threads) {
        const int i = e / k, c = e - i * k;
        B[i * k + c] -= A[i * lda + j] * B[j * k + c];
      }
      __syncthreads();
    }
  }
  T* xm = x + m * static_cast<index_t>(n) * k;
  for (int e = tid; e < n * k; e += threads) xm[e] = B[e];
  if (tid == 0) info[m] = first_zero;
}
#endif

// Whether the one-launch solver takes an n x n system with k right-hand sides (shared memory up
// to 96 KiB a block: complex128 inverses of order 64 need 130 KiB and go to cuBLAS).
template <class T>
constexpr bool small_lu_fits(index_t n, index_t k, index_t count) {
  return n <= small_lu_max_n && k <= 4096 && count <= 2147483647 &&
         small_lu_smem<T>(static_cast<int>(n), static_cast<int>(k)) <= (std::size_t{96} << 10);
}

// x (count, n, k), C order; info[count]; both device memory on the current device.
template <class T>
void small_lu_solve(const T* a, stack_strides as, const T* b, stack_strides bs, T* x, index_t count, int n, int k, int* info,
                    cudaStream_t stream) {
  static_assert(cuda_tu || !std::is_same_v<T, T>, "xfuse: linear algebra on device arrays launches CUDA kernels; compile this file with nvcc");
#if XF_CUDA_TU
  if (count == 0) return;
  const std::size_t smem = small_lu_smem<T>(n, k);
  if (smem > (std::size_t{48} << 10)) {
    static thread_local int raised_for = -1;  // the attribute is per device; set once
    const int dev = device::current_id();
    if (raised_for != dev) {
      XF_CUDA_CHECK(cudaFuncSetAttribute(small_lu_solve_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, 96 << 10));
      raised_for = dev;
    }
  }
  const int threads = n * (n + k) > 2048 ? 256 : n * (n + k) > 512 ? 128 : 64;
  small_lu_solve_kernel<T><<<static_cast<unsigned>(count), threads, smem, stream>>>(a, as, b, bs, x, n, k, info);
  XF_CUDA_CHECK(cudaGetLastError());
#else
  (void)a, (void)as, (void)b, (void)bs, (void)x, (void)count, (void)n, (void)k, (void)info, (void)stream;
#endif
}

}  // namespace xf::detail
