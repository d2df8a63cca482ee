// SPDX-License-Identifier: Apache-2.0
// log, exp and sin/cos of 2 pi u that give the same bits on the host and on the device: only IEEE
// operations that every compiler rounds the same way (frexp, +, -, /, sqrt, and every multiply-add
// written as an explicit fma, which neither side may contract differently). The math libraries
// of the two sides differ in the last bit, and the draws must not. Accurate to a few ulp.
#pragma once

#include <cmath>

#include "../base/config.hpp"

namespace xf::detail {

template <class T>
XF_HD XF_FORCEINLINE T exact_fma(T a, T b, T c) {
#if XF_DEVICE_PASS
  return ::fma(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

// Coefficients of the series below, for float and double, as constexpr functions (device code may
// not read host arrays; unrolled loops fold these calls to constants).
template <class T>
struct exact_math_coefficients;
template <>
struct exact_math_coefficients<double> {
  // atanh(s) / s = sum s^(2k) / (2k + 1), |s| <= 0.1716: 12 terms reach 1e-17.
  static constexpr int atanh_terms = 12;
  XF_HD static constexpr double atanh(int k) { return 1.0 / (2 * k + 1); }
  // sin(pi x) / x and cos(pi x) in x^2, |x| <= 1/4: (-1)^k pi^(2k+1) / (2k+1)! and (-1)^k pi^(2k) / (2k)!.
  static constexpr int trig_terms = 10;
  XF_HD static constexpr double sin_pi(int k) {
    constexpr double c[10] = {3.14159265358979311600e+00,  -5.16771278004997025590e+00, 2.55016403987734552317e+00,
                              -5.99264529320792105338e-01, 8.21458866111282326461e-02,  -7.37043094571435044443e-03,
                              4.66302805767612553716e-04,  -2.19153534478302172922e-05, 7.95205400147551261113e-07,
                              -2.29484289972698730364e-08};
    return c[k];
  }
  XF_HD static constexpr double cos_pi(int k) {
    constexpr double c[10] = {1.0,
                              -4.93480220054467899615e+00,
                              4.05871212641676848421e+00,
                              -1.33526276885458949906e+00,
                              2.35330630358893205800e-01,
                              -2.58068913900140611828e-02,
                              1.92957430940392314460e-03,
                              -1.04638104924845704697e-04,
                              4.30306958703294729370e-06,
                              -1.38789524622137713665e-07};
    return c[k];
  }
  static constexpr double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  static constexpr double sqrt_half = 0.70710678118654752440;
};
template <>
struct exact_math_coefficients<float> {
  static constexpr int atanh_terms = 6;
  XF_HD static constexpr float atanh(int k) { return 1.0f / static_cast<float>(2 * k + 1); }
  static constexpr int trig_terms = 6;
  XF_HD static constexpr float sin_pi(int k) {
    constexpr float c[6] = {3.141592654e+00f, -5.167712780e+00f, 2.550164040e+00f, -5.992645293e-01f, 8.214588661e-02f, -7.370430946e-03f};
    return c[k];
  }
  XF_HD static constexpr float cos_pi(int k) {
    constexpr float c[6] = {1.0f, -4.934802201e+00f, 4.058712126e+00f, -1.335262769e+00f, 2.353306304e-01f, -2.580689139e-02f};
    return c[k];
  }
  static constexpr float ln2_hi = 6.9313812256e-01f, ln2_lo = 9.0580006145e-06f;
  static constexpr float sqrt_half = 0.70710678f;
};

// log(u) for u > 0: u = m 2^e with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh((m - 1) / (m + 1)).
template <class T>
XF_HD XF_FORCEINLINE T exact_log(T u) {
  using K = exact_math_coefficients<T>;
  int e = 0;
#if XF_DEVICE_PASS
  T m = ::frexp(u, &e);
#else
  T m = std::frexp(u, &e);
#endif
  if (m < K::sqrt_half) {
    m = m + m;
    e -= 1;
  }
  const T s = (m - T(1)) / (m + T(1));
  const T s2 = s * s;
  T p = K::atanh(K::atanh_terms - 1);
#pragma unroll
  for (int k = K::atanh_terms - 2; k >= 0; --k) p = exact_fma(p, s2, K::atanh(k));
  const T fe = static_cast<T>(e);
  const T twice_s = s + s;
  return exact_fma(fe, K::ln2_hi, exact_fma(twice_s, p, fe * K::ln2_lo));
}

// cos(2 pi u) and sin(2 pi u) for u in [0, 1): 4u = q + r with r in [-1/2, 1/2], then the series in
// x = r / 2 for the quadrant's pair.
template <class T>
XF_HD XF_FORCEINLINE void exact_cos_sin_2pi(T u, T& c, T& s) {
  using K = exact_math_coefficients<T>;
  const T t = u * T(4);
#if XF_DEVICE_PASS
  const T q = ::floor(t + T(0.5));
#else
  const T q = std::floor(t + T(0.5));
#endif
  const T x = (t - q) * T(0.5);
  const T x2 = x * x;
  T sp = K::sin_pi(K::trig_terms - 1), cp = K::cos_pi(K::trig_terms - 1);
#pragma unroll
  for (int k = K::trig_terms - 2; k >= 0; --k) {
    sp = exact_fma(sp, x2, K::sin_pi(k));
    cp = exact_fma(cp, x2, K::cos_pi(k));
  }
  const T sn = sp * x, cs = cp;
  switch (static_cast<int>(q) & 3) {
    case 0: c = cs, s = sn; break;
    case 1: c = -sn, s = cs; break;
    case 2: c = -cs, s = -sn; break;
    default: c = sn, s = -cs; break;
  }
}

// 1 / k!, exactly rounded for the k below (k! is exact in a double up to 22!).
XF_HD constexpr double inverse_factorial(int k) {
  double f = 1;
  for (int i = 2; i <= k; ++i) f *= i;
  return 1.0 / f;
}

// exp(x) for a double: x = k ln2 + r with |r| <= ln2 / 2 (ln2 in two parts, so that k ln2 is
// nearly exact), exp(r) by its Taylor series to r^13 (truncation below 1e-17), then 2^k by ldexp
// (exact, one rounding for subnormal results on both sides).
XF_HD XF_FORCEINLINE double exact_exp(double x) {
  if (!(x == x)) return x;
  if (x > 709.782712893384) return HUGE_VAL;
  if (x < -745.1332191019412) return 0.0;
  constexpr double inv_ln2 = 1.4426950408889634, ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
#if XF_DEVICE_PASS
  const double k = ::floor(exact_fma(x, inv_ln2, 0.5));
#else
  const double k = std::floor(exact_fma(x, inv_ln2, 0.5));
#endif
  const double r = exact_fma(-k, ln2_lo, exact_fma(-k, ln2_hi, x));
  double p = inverse_factorial(13);
#pragma unroll
  for (int i = 12; i >= 0; --i) p = exact_fma(p, r, inverse_factorial(i));
#if XF_DEVICE_PASS
  return ::ldexp(p, static_cast<int>(k));
#else
  return std::ldexp(p, static_cast<int>(k));
#endif
}

}  // namespace xf::detail
