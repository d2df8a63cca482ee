// SPDX-License-Identifier: Apache-2.0
// Draws whose elements take a variable number of uniforms (rejection and inversion loops):
// Poisson, gamma, beta and binomial, NumPy's algorithms where they are exact (the values differ
// from NumPy's, whose bit stream is another; the distributions do not). Each element reads its own
// Philox stream (element_uniforms), so an element's value depends only on (seed, draw, position),
// as for the other draws. Every multiply-add is an explicit fma and log/exp are exact_log and
// exact_exp, so the host and the device give the same bits; constants that need the math library
// are computed once on the host.
#pragma once

#include <cstdint>

#include "draws.hpp"

namespace xf::detail {

// A private sequence of doubles in (0, 1] for element p of a draw whose values take a variable
// number of uniforms (rejection): Philox blocks p * 2^20, p * 2^20 + 1, ..., two doubles each.
struct element_uniforms {
  philox_key key;
  std::uint64_t base;  // p * 2^20
  std::uint64_t used = 0;
  uint4 w{};
  // Past 2^21 values (never in practice: the draws below expect a few to a few hundred) the
  // blocks run on into the next element's, rather than repeat, so no loop can stall.
  XF_HD XF_FORCEINLINE double next() {
    if (used % 2 == 0) w = philox_block(key, base + used / 2);
    const bool first = used++ % 2 == 0;
    return first ? unit_double(w.x, w.y, true) : unit_double(w.z, w.w, true);
  }
};

// Poisson (NumPy's algorithms): for lam < 10 the product of uniforms until it falls to exp(-lam)
// (Knuth); above, Hormann's transformed rejection (PTRS) with NumPy's log-gamma series. Every
// multiply-add is an explicit fma and the logs are exact_log, so host and device agree bit for
// bit; the constants that need exp and sqrt are computed once on the host.
template <class T>
struct poisson_draw : grouped_draw<poisson_draw<T>, T, std::int64_t, 1> {
  philox_key key;
  double lam = 0, exp_minus_lam = 1;                             // both methods
  double log_lam = 0, a = 0, b = 0, log_inv_alpha = 0, vr = 0;  // PTRS
  bool transformed_rejection = false;

  // log Gamma(x) for x >= 1: NumPy's random_loggam (Stirling's series from x + n >= 7).
  static XF_HD XF_FORCEINLINE double log_gamma(double x) {
    if (x == 1.0 || x == 2.0) return 0.0;
    const int n = x < 7.0 ? static_cast<int>(7 - x) : 0;
    double x0 = x + n;
    const double inv = 1.0 / x0, x2 = inv * inv;
    constexpr double c[10] = {8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04, -5.952380952380952e-04,
                              8.417508417508418e-04, -1.917526917526918e-03, 6.410256410256410e-03, -2.955065359477124e-02,
                              1.796443723688307e-01, -1.39243221690590e+00};
    double g = c[9];
#pragma unroll
    for (int k = 8; k >= 0; --k) g = exact_fma(g, x2, c[k]);
    constexpr double half_log_2pi = 0.5 * 1.8378770664093453e+00;
    double gl = exact_fma(x0 - 0.5, exact_log(x0), g / x0 + half_log_2pi) - x0;
    for (int k = 1; k <= n; ++k) {
      gl -= exact_log(x0 - 1.0);
      x0 -= 1.0;
    }
    return gl;
  }

  XF_HD XF_FORCEINLINE void group(std::uint64_t p, std::int64_t* out) const {
    element_uniforms u{key, p << 20};
    if (!transformed_rejection) {
      std::int64_t k = 0;
      double product = u.next();
      while (product > exp_minus_lam) {
        ++k;
        product *= u.next();
      }
      out[0] = k;
      return;
    }
    for (;;) {
      const double U = u.next() - 0.5, V = u.next();
      const double us = 0.5 - (U < 0 ? -U : U);
      const double k = ::floor(exact_fma(2 * a / us + b, U, lam) + 0.43);
      if (us >= 0.07 && V <= vr) {
        out[0] = static_cast<std::int64_t>(k);
        return;
      }
      if (k < 0 || (us < 0.013 && V > us)) continue;
      const double left = exact_log(V) + log_inv_alpha - exact_log(a / (us * us) + b);
      if (left <= exact_fma(k, log_lam, -lam) - log_gamma(k + 1)) {
        out[0] = static_cast<std::int64_t>(k);
        return;
      }
    }
  }
};


// Standard normal from two uniforms (Box-Muller's cosine half).
XF_HD XF_FORCEINLINE double standard_normal(element_uniforms& u) {
  const double r = ::xf::detail::normal_draw<double>::sqrt_of(-2.0 * exact_log(u.next()));
  double c, s;
  exact_cos_sin_2pi(u.next(), c, s);  // u = 1 is a whole turn: cos 1
  return r * c;
}

// Gamma(shape, 1) (Marsaglia and Tsang; for shape < 1, Gamma(shape + 1) U^(1 / shape)).
// `d` = shape' - 1/3 and `c` = 1 / sqrt(9 d) for shape' = max(shape, shape + 1 when below 1).
struct gamma_constants {
  double shape = 1, d = 2.0 / 3, c = 0;
  static gamma_constants of(double shape) {
    gamma_constants k;
    k.shape = shape;
    const double boosted = shape < 1 ? shape + 1 : shape;
    k.d = boosted - 1.0 / 3;
    k.c = 1.0 / std::sqrt(9 * k.d);
    return k;
  }
};
XF_HD XF_FORCEINLINE double standard_gamma(element_uniforms& u, const gamma_constants& k) {
  if (k.shape == 0) return 0;
  double g;
  for (;;) {
    const double x = standard_normal(u);
    double v = exact_fma(k.c, x, 1.0);
    if (v <= 0) continue;
    v = v * v * v;
    const double w = u.next(), x2 = x * x;
    if (w < exact_fma(-0.0331 * x2, x2, 1.0)) {
      g = k.d * v;
      break;
    }
    if (exact_log(w) < exact_fma(0.5, x2, k.d * (1.0 - v + exact_log(v)))) {
      g = k.d * v;
      break;
    }
  }
  if (k.shape < 1) g *= exact_exp(exact_log(u.next()) / k.shape);
  return g;
}

// Gamma with a shape and scale, like Generator.gamma(shape, scale, size).
template <class T>
struct gamma_draw : grouped_draw<gamma_draw<T>, T, double, 1> {
  philox_key key;
  gamma_constants k;
  double scale = 1;
  XF_HD XF_FORCEINLINE void group(std::uint64_t p, double* out) const {
    element_uniforms u{key, p << 20};
    out[0] = standard_gamma(u, k) * scale;
  }
};

// Beta(a, b): Johnk's algorithm in logs when both are at most 1 (NumPy's; X / (X + Y) of gammas
// would underflow), otherwise X / (X + Y) for X ~ Gamma(a), Y ~ Gamma(b).
XF_HD XF_FORCEINLINE double beta_value(element_uniforms& u, double a, double b, const gamma_constants& ka,
                                       const gamma_constants& kb) {
  if (a <= 1 && b <= 1) {
    for (;;) {
      const double lu = exact_log(u.next()), lv = exact_log(u.next());
      const double log_x = lu / a, log_y = lv / b;
      const double x = exact_exp(log_x), y = exact_exp(log_y);
      if (x + y > 1) continue;
      if (x + y > 0) return x / (x + y);
      const double m = log_x > log_y ? log_x : log_y;  // both tiny: scale by the larger
      const double lx = log_x - m, ly = log_y - m;
      return exact_exp(lx - exact_log(exact_exp(lx) + exact_exp(ly)));
    }
  }
  const double x = standard_gamma(u, ka), y = standard_gamma(u, kb);
  return x / (x + y);
}

template <class T>
struct beta_draw : grouped_draw<beta_draw<T>, T, double, 1> {
  philox_key key;
  double a = 1, b = 1;
  gamma_constants ka, kb;
  XF_HD XF_FORCEINLINE void group(std::uint64_t p, double* out) const {
    element_uniforms u{key, p << 20};
    out[0] = beta_value(u, a, b, ka, kb);
  }
};

// Binomial(n, p): NumPy's inversion while n min(p, 1 - p) <= 30; above, Knuth's beta splitting
// (TAOCP 3.4.1 F: the a-th smallest of n uniforms is Beta(a, n + 1 - a); the count below p is
// then a smaller binomial on one side), which takes about log2(n p / 30) beta draws, exactly.
XF_HD XF_FORCEINLINE std::int64_t binomial_inversion(element_uniforms& u, std::int64_t n, double p) {
  const bool flip = p > 0.5;
  const double q = flip ? p : 1 - p, pp = flip ? 1 - p : p;  // pp <= 1/2
  const double qn = exact_exp(static_cast<double>(n) * exact_log(q));
  const double np = static_cast<double>(n) * pp;
  double bound = exact_fma(10.0, ::xf::detail::normal_draw<double>::sqrt_of(exact_fma(np, q, 1.0)), np);
  if (bound > static_cast<double>(n)) bound = static_cast<double>(n);
  std::int64_t x = 0;
  double px = qn, w = u.next() - 0x1p-53;  // [0, 1)
  while (w > px) {
    ++x;
    if (static_cast<double>(x) > bound) {
      x = 0;
      px = qn;
      w = u.next() - 0x1p-53;
    } else {
      w -= px;
      px = (static_cast<double>(n - x + 1) * pp * px) / (static_cast<double>(x) * q);
    }
  }
  return flip ? n - x : x;
}

template <class T>
struct binomial_draw : grouped_draw<binomial_draw<T>, T, std::int64_t, 1> {
  philox_key key;
  std::int64_t n = 1;
  double p = 0.5;
  XF_HD XF_FORCEINLINE void group(std::uint64_t position, std::int64_t* out) const {
    element_uniforms u{key, position << 20};
    std::int64_t count = n, below = 0;
    double prob = p;
    while (count > 0 && static_cast<double>(count) * (prob < 0.5 ? prob : 1 - prob) > 30) {
      const std::int64_t a = 1 + count / 2, b = count + 1 - a;
      const double x = beta_value(u, static_cast<double>(a), static_cast<double>(b), gamma_constants_of(a), gamma_constants_of(b));
      if (x >= prob) {
        count = a - 1;
        prob = prob / x;
      } else {
        below += a;
        count = b - 1;
        prob = (prob - x) / (1 - x);
      }
    }
    out[0] = below + (count > 0 && prob > 0 ? binomial_inversion(u, count, prob < 1 ? prob : 1) : 0);
  }
  // The constants for an integer shape >= 1, on either side (sqrt is correctly rounded on both).
  static XF_HD XF_FORCEINLINE gamma_constants gamma_constants_of(std::int64_t shape) {
    gamma_constants k;
    k.shape = static_cast<double>(shape);
    k.d = k.shape - 1.0 / 3;
    k.c = 1.0 / ::xf::detail::normal_draw<double>::sqrt_of(9 * k.d);
    return k;
  }
};

}  // namespace xf::detail
