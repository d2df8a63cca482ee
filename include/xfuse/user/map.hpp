// SPDX-License-Identifier: Apache-2.0
// xf::map: a user element-wise function as one node of a fused expression (the counterpart of
// CuPy's ElementwiseKernel). The function must be a __host__ __device__ lambda or functor, so the
// same expression runs on host arrays too:
//
//   auto f = [] __host__ __device__ (float a, float b) { return a > b ? a - b : 0.f; };
//   xf::array<float, 1> z = xf::map(f, x, y) * 2;   // one kernel
#pragma once

#include "../expr/functions.hpp"

namespace xf {

template <class F, class... A>
  requires(sizeof...(A) > 0 && (operand<A> && ...) && (expression<A> || ...))
auto map(F f, const A&... args) {
#if XF_CUDA_TU && defined(__CUDACC_EXTENDED_LAMBDA__)
  static_assert(!__nv_is_extended_device_lambda_closure_type(F),
                "xf::map: write the lambda as [] __host__ __device__ (...) { ... }: a __device__-only lambda "
                "cannot run on host arrays, and its result type cannot be read on the host");
#endif
  return detail::make_node(detail::ops::user_fn<F>{f}, args...);
}

}  // namespace xf
