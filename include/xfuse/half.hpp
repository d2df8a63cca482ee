// SPDX-License-Identifier: Apache-2.0
// 16-bit floats: xf::half (float16) and xf::bfloat16, stored as such and computed in float. Kept
// out of core.hpp because cuda_fp16.h and cuda_bf16.h cost about 0.6 s of every build;
// xfuse.hpp includes this header.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "core.hpp"

namespace xf::detail {

template <>
struct low_precision_ops<half> {
  static constexpr bool available = true;
  static XF_HD XF_FORCEINLINE half from(float x) { return __float2half_rn(x); }
  static XF_HD XF_FORCEINLINE half from(double x) { return __double2half(x); }
};
template <>
struct low_precision_ops<bfloat16> {
  static constexpr bool available = true;
  static XF_HD XF_FORCEINLINE bfloat16 from(float x) { return __float2bfloat16_rn(x); }
  static XF_HD XF_FORCEINLINE bfloat16 from(double x) { return __double2bfloat16(x); }
};

}  // namespace xf::detail
