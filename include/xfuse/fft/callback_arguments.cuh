// SPDX-License-Identifier: Apache-2.0
// The leaves' pointers that a fused callback reads: cuFFT fixes the callback's argument pointer
// when it plans, so the plan owns a small block of device memory and each run writes the current
// pointers into it with a one-thread kernel, in stream order (no host copy, nothing to wait for,
// and recorded like any launch inside xf::capture).
#pragma once

#include "../core.hpp"

namespace xf::detail {

inline constexpr int fft_max_leaves = 16;

struct fft_leaf_pointers {
  const void* pointer[fft_max_leaves];
  int count;
};

#if XF_CUDA_TU
template <class Unused>
__global__ void fft_write_leaf_pointers(const void** block, fft_leaf_pointers values) {
  for (int i = 0; i < values.count; ++i) block[i] = values.pointer[i];
}
#endif

// Writes `values` into `block` (device memory of the current device) on `stream`.
template <class Unused = void>
void write_leaf_pointers(void* block, const fft_leaf_pointers& values, cudaStream_t stream) {
  static_assert(cuda_tu || always_false<Unused>, "xfuse: transforms of device arrays with fused operands launch CUDA kernels; compile this file with nvcc");
#if XF_CUDA_TU
  fft_write_leaf_pointers<Unused><<<1, 1, 0, stream>>>(static_cast<const void**>(block), values);
  XF_CUDA_CHECK(cudaGetLastError());
#endif
}

}  // namespace xf::detail
