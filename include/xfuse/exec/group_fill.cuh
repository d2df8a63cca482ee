// SPDX-License-Identifier: Apache-2.0
// A lone random draw filling contiguous memory: a kernel of its own (see the comment below).
#pragma once

#include "../base/convert.hpp"
#include "vector_io.cuh"

#if XF_CUDA_TU
namespace xf::detail {

// A lone leaf that computes groups of W consecutive elements (a random draw) filling a contiguous
// output: a grid-stride kernel of its own, one group per thread and step, stored as one vector.
// The rows walk set up positions per chunk of one group, which doubled the instructions of a
// 1024^3 uniform fill (2.96 ms on an H200; this kernel's shape ran the same Philox in 2.05 ms).
template <class Leaf>
concept group_leaf = requires(const Leaf& l, std::uint64_t c, typename Leaf::group_type* v) {
  Leaf::group_size;
  l.group(c, v);
};

template <class Leaf, class Out>
__global__ void __launch_bounds__(256) group_fill_kernel(const __grid_constant__ Leaf leaf, Out* __restrict__ out, index_t first_group,
                                                         index_t n) {
  constexpr int W = Leaf::group_size;
  const index_t groups = (n + W - 1) / W;
  for (index_t g = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; g < groups; g += static_cast<index_t>(gridDim.x) * blockDim.x) {
    typename Leaf::group_type v[W];
    leaf.group(static_cast<std::uint64_t>(first_group + g), v);
    Out r[W];
#pragma unroll
    for (int j = 0; j < W; ++j) r[j] = convert<Out>(v[j]);
    if ((g + 1) * W <= n) {
      store_vector<Out, W>(out + g * W, r);
    } else {
      for (int j = 0; j < W && g * W + j < n; ++j) out[g * W + j] = r[j];
    }
  }
}

}  // namespace xf::detail
#endif
