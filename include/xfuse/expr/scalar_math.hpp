// SPDX-License-Identifier: Apache-2.0
// Scalar math used by the element-wise operations, identical on host and device: float and double
// go to the C math library (glibc on the host, CUDA's libdevice on the GPU); complex values go to
// cuda::std::complex's functions, found by argument-dependent lookup once <cuda/std/complex> is in,
// except sqrt and pow, written here to give NumPy's (C99's) answers: exact where those are exact.
#pragma once

#include <math.h>

#include <limits>
#include <type_traits>

#include "../base/dtype.hpp"
#include "../base/limits.hpp"

namespace xf::detail::math {

// x * y rounded on its own, never contracted with a following add into a fused multiply-add
// (nvcc contracts by default, and so do hosts with FMA under -ffp-contract=fast): NumPy rounds
// the product first, and host and device must agree to the last bit. Other types multiply plainly.
template <class C>
XF_HD XF_FORCEINLINE C rounded_product(C x, C y) {
  if constexpr (std::is_same_v<C, float> || std::is_same_v<C, double>) {
#if XF_DEVICE_PASS
    if constexpr (std::is_same_v<C, float>) return __fmul_rn(x, y);
    else return __dmul_rn(x, y);
#else
    volatile C product = x * y;  // stored: the compiler cannot fuse it with what follows
    return product;
#endif
  } else {
    return x * y;
  }
}

// NAME(x) or NAME(x, y) of float or double, from the C library's float or double function.
#define XF_REAL_FN(NAME, CF, CD)                                        \
  template <class T, class... U>                                        \
    requires(std::is_same_v<U, T> && ...)                               \
  XF_HD XF_FORCEINLINE T NAME(T x, U... y) {                            \
    if constexpr (std::is_same_v<T, float>) return ::CF(x, y...);       \
    else return ::CD(x, y...);                                          \
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
XF_REAL_FN(r_pow, powf, pow)
XF_REAL_FN(r_fmod, fmodf, fmod)
XF_REAL_FN(r_hypot, hypotf, hypot)
XF_REAL_FN(r_atan2, atan2f, atan2)
XF_REAL_FN(r_copysign, copysignf, copysign)
#undef XF_REAL_FN

template <class T>
XF_HD XF_FORCEINLINE T r_ldexp(T x, int n) {
  if constexpr (std::is_same_v<T, float>) return ::ldexpf(x, n);
  else return ::ldexp(x, n);
}
template <class T>
XF_HD XF_FORCEINLINE T r_frexp(T x, int* n) {
  if constexpr (std::is_same_v<T, float>) return ::frexpf(x, n);
  else return ::frexp(x, n);
}

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

// hypot for the complex square root: in float, the double-precision formula that glibc's hypotf
// uses (x * x is exact in double, so host and device round alike, fused multiply-add or not).
template <class T>
XF_HD XF_FORCEINLINE T sqrt_hypot(T a, T b) {
  if constexpr (std::is_same_v<T, float>) return static_cast<float>(::sqrt(static_cast<double>(a) * a + static_cast<double>(b) * b));
  else return r_hypot(a, b);
}

// The complex square root with C99's special values (Annex G) and its accuracy, as NumPy's (the C
// library's csqrt): t = sqrt((|x| + |z|) / 2) is the larger part of the root and y / (2 t) the
// smaller, so no cancellation; the real part is >= 0 and the imaginary part has y's sign.
// sqrt(-1 + 0i) is exactly i (the polar form cos(pi / 2) + i sin(pi / 2) is not). Inputs past
// max / 4 are scaled by 1/4, and inputs below 2 * min (whose half would lose bits) by 2^(2k).
template <class Z>
XF_HD Z c_sqrt(const Z& z) {
  using T = std::remove_cvref_t<decltype(z.real())>;
  using L = limits<T>;
  const T x = z.real(), y = z.imag();
  if (r_isinf(y)) return Z(L::infinity(), y);  // for every x, NaN included
  if (r_isinf(x)) {
    if (x > 0) return Z(x, r_isnan(y) ? y : r_copysign(T(0), y));
    return Z(r_isnan(y) ? y : T(0), r_copysign(L::infinity(), y));
  }
  if (r_isnan(x) || r_isnan(y)) return Z(L::quiet_NaN(), L::quiet_NaN());
  if (y == T(0)) {  // a real input: one correctly rounded sqrt; +0 real part, y's zero kept
    if (x < T(0)) return Z(T(0), r_copysign(r_sqrt(-x), y));
    return Z(r_sqrt(r_fabs(x)), y);
  }
  T a = r_fabs(x), b = r_fabs(y);
  constexpr int k = (L::digits + 1) / 2;
  T root_scale = 1, small_scale = 2;  // the larger part is t * root_scale, the smaller b / (t * small_scale)
  if (a > L::max() / 4 || b > L::max() / 4) {
    a *= T(0.25), b *= T(0.25);
    root_scale = 2, small_scale = 1;
  } else if (a < 2 * L::min() && b < 2 * L::min()) {
    constexpr T up = T(1ull << (2 * k));
    a *= up, b *= up;
    root_scale = T(1) / T(1ull << k), small_scale = T(1ull << (k + 1));
  }
  const T d = a == T(0) ? b : sqrt_hypot(a, b);
  const T t = r_sqrt((a + d) * T(0.5));
  const T large = t * root_scale;
  const T small = x == T(0) ? large : b / (t * small_scale);
  if (x > T(0)) return Z(large, r_copysign(small, y));
  return Z(small, r_copysign(large, y));
}

// NumPy's complex product and its Smith division of 1 by z (npy_math_complex: cmul, cdiv).
template <class Z>
XF_HD XF_FORCEINLINE Z c_mul(const Z& a, const Z& b) {
  return Z(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}
template <class Z>
XF_HD XF_FORCEINLINE Z c_reciprocal_smith(const Z& b) {
  using T = std::remove_cvref_t<decltype(b.real())>;
  const T ar = 1, ai = 0, br = b.real(), bi = b.imag();
  if (r_fabs(br) >= r_fabs(bi)) {
    if (br == T(0) && bi == T(0)) return Z(ar / r_fabs(br), ai / r_fabs(bi));
    const T rat = bi / br, scl = T(1) / (br + bi * rat);
    return Z((ar + ai * rat) * scl, (ai - ar * rat) * scl);
  }
  const T rat = br / bi, scl = T(1) / (bi + br * rat);
  return Z((ar * rat + ai) * scl, (ai * rat - ar) * scl);
}

// NumPy's complex power: z^0 = 1 (0^0 included), 0^b = 0 for Re b > 0 and NaN otherwise, and
// integer exponents below 100 in magnitude by repeated multiplication, so (1 + 1j)^2 is exactly
// 2j; other exponents through exp(b log a).
template <class Z>
XF_HD Z c_pow(const Z& a, const Z& b) {
  using T = std::remove_cvref_t<decltype(a.real())>;
  const T br = b.real(), bi = b.imag();
  if (br == T(0) && bi == T(0)) return Z(T(1), T(0));
  if (a.real() == T(0) && a.imag() == T(0)) {
    if (br > T(0)) return Z(T(0), T(0));
    return Z(limits<T>::quiet_NaN(), limits<T>::quiet_NaN());
  }
  if (bi == T(0) && br > T(-100) && br < T(100) && T(static_cast<int>(br)) == br) {
    const int n = static_cast<int>(br);
    if (n == 1) return a;
    if (n == 2) return c_mul(a, a);
    if (n == 3) return c_mul(a, c_mul(a, a));
    unsigned m = static_cast<unsigned>(n < 0 ? -n : n);
    Z acc(T(1), T(0)), p = a;
    for (;;) {
      if (m & 1u) acc = c_mul(acc, p);
      m >>= 1;
      if (m == 0) break;
      p = c_mul(p, p);
    }
    return n < 0 ? c_reciprocal_smith(acc) : acc;
  }
  return pow(a, b);
}

}  // namespace xf::detail::math
