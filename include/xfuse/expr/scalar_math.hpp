// SPDX-License-Identifier: Apache-2.0
// Scalar math used by the element-wise operations, identical on host and device: float and double
// go to the C math library (glibc on the host, CUDA's libdevice on the GPU); complex values go to
// cuda::std::complex's functions, found by argument-dependent lookup once <cuda/std/complex> is in.
#pragma once

#include <math.h>

#include <type_traits>

#include "../core/dtype.hpp"

namespace xf::detail::math {

#define XF_REAL_FN(NAME, CF, CD)                                        \
  template <class T>                                                    \
  XF_HD XF_FORCEINLINE T NAME(T x) {                                    \
    if constexpr (std::is_same_v<T, float>) return ::CF(x);             \
    else return ::CD(x);                                                \
  }
XF_REAL_FN(r_sqrt, sqrtf, sqrt)
XF_REAL_FN(r_cbrt, cbrtf, cbrt)
XF_REAL_FN(r_exp, expf, exp)
XF_REAL_FN(r_exp2, exp2f, exp2)
XF_REAL_FN(r_expm1, expm1f, expm1)
XF_REAL_FN(r_log, logf, log)
XF_REAL_FN(r_log2, log2f, log2)
XF_REAL_FN(r_log10, log10f, log10)
XF_REAL_FN(r_log1p, log1pf, log1p)
XF_REAL_FN(r_sin, sinf, sin)
XF_REAL_FN(r_cos, cosf, cos)
XF_REAL_FN(r_tan, tanf, tan)
XF_REAL_FN(r_asin, asinf, asin)
XF_REAL_FN(r_acos, acosf, acos)
XF_REAL_FN(r_atan, atanf, atan)
XF_REAL_FN(r_sinh, sinhf, sinh)
XF_REAL_FN(r_cosh, coshf, cosh)
XF_REAL_FN(r_tanh, tanhf, tanh)
XF_REAL_FN(r_asinh, asinhf, asinh)
XF_REAL_FN(r_acosh, acoshf, acosh)
XF_REAL_FN(r_atanh, atanhf, atanh)
XF_REAL_FN(r_erf, erff, erf)
XF_REAL_FN(r_erfc, erfcf, erfc)
XF_REAL_FN(r_floor, floorf, floor)
XF_REAL_FN(r_ceil, ceilf, ceil)
XF_REAL_FN(r_trunc, truncf, trunc)
XF_REAL_FN(r_rint, rintf, rint)
XF_REAL_FN(r_fabs, fabsf, fabs)
#undef XF_REAL_FN

#define XF_REAL_FN2(NAME, CF, CD)                                       \
  template <class T>                                                    \
  XF_HD XF_FORCEINLINE T NAME(T x, T y) {                               \
    if constexpr (std::is_same_v<T, float>) return ::CF(x, y);          \
    else return ::CD(x, y);                                             \
  }
XF_REAL_FN2(r_pow, powf, pow)
XF_REAL_FN2(r_fmod, fmodf, fmod)
XF_REAL_FN2(r_hypot, hypotf, hypot)
XF_REAL_FN2(r_atan2, atan2f, atan2)
XF_REAL_FN2(r_copysign, copysignf, copysign)
#undef XF_REAL_FN2

template <class T>
XF_HD XF_FORCEINLINE bool r_isnan(T x) {
  return x != x;
}
template <class T>
XF_HD XF_FORCEINLINE bool r_isinf(T x) {
  return x == T(INFINITY) || x == T(-INFINITY);
}

// Complex functions: unqualified calls, resolved by argument-dependent lookup in cuda::std.
#define XF_COMPLEX_FN(NAME, FN)                 \
  template <class Z>                            \
  XF_HD XF_FORCEINLINE Z NAME(const Z& z) {     \
    return FN(z);                               \
  }
XF_COMPLEX_FN(c_sqrt, sqrt)
XF_COMPLEX_FN(c_exp, exp)
XF_COMPLEX_FN(c_log, log)
XF_COMPLEX_FN(c_log10, log10)
XF_COMPLEX_FN(c_sin, sin)
XF_COMPLEX_FN(c_cos, cos)
XF_COMPLEX_FN(c_tan, tan)
XF_COMPLEX_FN(c_asin, asin)
XF_COMPLEX_FN(c_acos, acos)
XF_COMPLEX_FN(c_atan, atan)
XF_COMPLEX_FN(c_sinh, sinh)
XF_COMPLEX_FN(c_cosh, cosh)
XF_COMPLEX_FN(c_tanh, tanh)
XF_COMPLEX_FN(c_asinh, asinh)
XF_COMPLEX_FN(c_acosh, acosh)
XF_COMPLEX_FN(c_atanh, atanh)
XF_COMPLEX_FN(c_conj, conj)
#undef XF_COMPLEX_FN
template <class Z>
XF_HD XF_FORCEINLINE auto c_abs(const Z& z) {
  return abs(z);
}
template <class Z>
XF_HD XF_FORCEINLINE auto c_arg(const Z& z) {
  return arg(z);
}
template <class Z>
XF_HD XF_FORCEINLINE Z c_pow(const Z& a, const Z& b) {
  return pow(a, b);
}

}  // namespace xf::detail::math
