// SPDX-License-Identifier: Apache-2.0
// Counting into bins on the device (bincount, histogram): out[bin[i]] += weight[i] (or 1), bins
// outside [0, length) skipped. With few bins each block counts in shared memory and adds its
// counts to the result once; with many, every element adds to the result directly.
#pragma once

#include <algorithm>

#include "../base/device.hpp"

#if XF_CUDA_TU
namespace xf::detail {

inline constexpr int count_threads = 256;
inline constexpr index_t shared_count_bins = 4096;  // 32 KiB of 8-byte counters a block

template <bool Shared, class Bin, class Weight, class Out>
__global__ void __launch_bounds__(count_threads) count_into_bins(const Bin* bins, const Weight* weights, index_t n, Out* out,
                                                                 index_t length) {
  extern __shared__ unsigned char count_memory[];
  Out* const local = reinterpret_cast<Out*>(count_memory);
  if constexpr (Shared) {
    for (index_t b = threadIdx.x; b < length; b += blockDim.x) local[b] = Out(0);
    __syncthreads();
  }
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const index_t b = static_cast<index_t>(bins[i]);
    if (b < 0 || b >= length) continue;
    const Out w = weights == nullptr ? Out(1) : static_cast<Out>(weights[i]);
    atomicAdd(Shared ? &local[b] : &out[b], w);
  }
  if constexpr (Shared) {
    __syncthreads();
    for (index_t b = threadIdx.x; b < length; b += blockDim.x)
      if (local[b] != Out(0)) atomicAdd(&out[b], local[b]);
  }
}

// out (length zeros, Out = unsigned long long counts or double sums) += the counts of bins[0, n).
template <class Bin, class Weight, class Out>
void count_bins(const Bin* bins, const Weight* weights, index_t n, Out* out, index_t length, cudaStream_t stream) {
  if (n == 0) return;
  const device dev(device::current_id());
  const index_t wanted = (n + count_threads - 1) / count_threads;
  const unsigned blocks = static_cast<unsigned>(std::min<index_t>(wanted, 8 * dev.multiprocessor_count()));
  if (length <= shared_count_bins) {
    const std::size_t bytes = static_cast<std::size_t>(length) * sizeof(Out);
    count_into_bins<true><<<blocks, count_threads, bytes, stream>>>(bins, weights, n, out, length);
  } else {
    count_into_bins<false><<<blocks, count_threads, 0, stream>>>(bins, weights, n, out, length);
  }
  XF_CUDA_CHECK(cudaGetLastError());
}

}  // namespace xf::detail
#endif
