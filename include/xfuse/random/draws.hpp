// SPDX-License-Identifier: Apache-2.0
// Random draws as positional leaves: element p of a draw is computed from (seed, draw number, p)
// alone, so a draw is a lazy expression node like arange, identical on the host and the device
// and independent of how a kernel walks it. One Philox block (four 32-bit words) serves a group of
// W consecutive elements (four floats, two doubles); a kernel that loads a row of elements
// (at_row) computes each block once.
#pragma once

#include <type_traits>

#include "../base/convert.hpp"
#include "../base/dtype.hpp"
#include "exact_math.hpp"
#include "philox.hpp"

namespace xf::detail {

// [0, 1) from 24 or 53 random bits, exactly (NumPy's conversions); `open_low`: (0, 1] instead.
XF_HD XF_FORCEINLINE float unit_float(unsigned w, bool open_low = false) {
  return static_cast<float>((w >> 8) + (open_low ? 1u : 0u)) * 5.9604644775390625e-08f;  // 2^-24
}
XF_HD XF_FORCEINLINE double unit_double(unsigned hi, unsigned lo, bool open_low = false) {
  const std::uint64_t bits = (static_cast<std::uint64_t>(hi >> 5) << 26) | (lo >> 6);
  return static_cast<double>(bits + (open_low ? 1u : 0u)) * 1.1102230246251565404e-16;  // 2^-53
}

template <class C, int W>
XF_HD XF_FORCEINLINE C pick(const C (&v)[W], int i) {
  C r = v[0];
#pragma unroll
  for (int j = 1; j < W; ++j)
    if (i == j) r = v[j];
  return r;
}

// Shared by the draws: element p is value p % W of group p / W. D::group(c, out) fills a group.
template <class D, class T, class C, int W>
struct grouped_draw {
  using value_type = T;
  using group_type = C;
  static constexpr bool in_memory = false;
  static constexpr int group_size = W;

  XF_HD XF_FORCEINLINE T at(index_t p) const {
    C v[W];
    static_cast<const D&>(*this).group(static_cast<std::uint64_t>(p) / W, v);
    return convert<T>(pick(v, static_cast<int>(static_cast<std::uint64_t>(p) % W)));
  }
  // E elements at pos, pos + step, ...: along a row whose chunk starts on a group boundary (the
  // fused kernel's chunks of an aligned output), straight-line code computes each group once, so a
  // thread's chunks compute their Philox blocks side by side. Any other walk: element by element.
  template <int E>
  XF_HD XF_FORCEINLINE void at_row(index_t pos, index_t step, T* dst) const {
    if constexpr (E % W == 0) {
      if (step == 1 && static_cast<std::uint64_t>(pos) % W == 0) {
        const std::uint64_t c0 = static_cast<std::uint64_t>(pos) / W;
#pragma unroll
        for (int g = 0; g < E / W; ++g) {
          C v[W];
          static_cast<const D&>(*this).group(c0 + g, v);
#pragma unroll
          for (int j = 0; j < W; ++j) dst[g * W + j] = convert<T>(v[j]);
        }
        return;
      }
    }
#pragma unroll
    for (int e = 0; e < E; ++e) dst[e] = at(pos + e * step);
  }
};

// The type a draw of T computes in: float for 16-bit floats.
template <class T>
using draw_compute_t = std::conditional_t<std::is_same_v<T, double>, double, float>;

// Uniform on [low, high): low + (high - low) u, one fused multiply-add.
template <class T>
struct uniform_draw : grouped_draw<uniform_draw<T>, T, draw_compute_t<T>, sizeof(draw_compute_t<T>) == 8 ? 2 : 4> {
  using C = draw_compute_t<T>;
  philox_key key;
  C low, span;
  XF_HD XF_FORCEINLINE void group(std::uint64_t c, C* out) const {
    const uint4 w = philox_block(key, c);
    if constexpr (sizeof(C) == 8) {
      out[0] = exact_fma(span, unit_double(w.x, w.y), low);
      out[1] = exact_fma(span, unit_double(w.z, w.w), low);
    } else {
      out[0] = exact_fma(span, unit_float(w.x), low);
      out[1] = exact_fma(span, unit_float(w.y), low);
      out[2] = exact_fma(span, unit_float(w.z), low);
      out[3] = exact_fma(span, unit_float(w.w), low);
    }
  }
};

// Normal: Box-Muller on pairs of uniforms (u1 in (0, 1], u2 in [0, 1)), mean + stddev z.
template <class T>
struct normal_draw : grouped_draw<normal_draw<T>, T, draw_compute_t<T>, sizeof(draw_compute_t<T>) == 8 ? 2 : 4> {
  using C = draw_compute_t<T>;
  philox_key key;
  C mean, stddev;
  XF_HD XF_FORCEINLINE void pair(C u1, C u2, C* out) const {
    const C r = sqrt_of(C(-2) * exact_log(u1));
    C cs, sn;
    exact_cos_sin_2pi(u2, cs, sn);
    out[0] = exact_fma(stddev, r * cs, mean);
    out[1] = exact_fma(stddev, r * sn, mean);
  }
  XF_HD XF_FORCEINLINE void group(std::uint64_t c, C* out) const {
    const uint4 w = philox_block(key, c);
    if constexpr (sizeof(C) == 8) {
      pair(unit_double(w.x, w.y, true), unit_double(w.z, w.w), out);
    } else {
      pair(unit_float(w.x, true), unit_float(w.y), out);
      pair(unit_float(w.z, true), unit_float(w.w), out + 2);
    }
  }
  static XF_HD XF_FORCEINLINE C sqrt_of(C x) {
#if XF_DEVICE_PASS
    return ::sqrt(x);  // correctly rounded, as on the host
#else
    return std::sqrt(x);
#endif
  }
};

// Exponential: 0 - scale * log(u), u in (0, 1] (inversion; the 0 - keeps u = 1 at +0; NumPy's Generator uses a ziggurat, so the
// values differ from NumPy's, the distribution does not).
template <class T>
struct exponential_draw : grouped_draw<exponential_draw<T>, T, draw_compute_t<T>, sizeof(draw_compute_t<T>) == 8 ? 2 : 4> {
  using C = draw_compute_t<T>;
  philox_key key;
  C scale;
  XF_HD XF_FORCEINLINE void group(std::uint64_t c, C* out) const {
    const uint4 w = philox_block(key, c);
    if constexpr (sizeof(C) == 8) {
      out[0] = C(0) - scale * exact_log(unit_double(w.x, w.y, true));
      out[1] = C(0) - scale * exact_log(unit_double(w.z, w.w, true));
    } else {
      out[0] = C(0) - scale * exact_log(unit_float(w.x, true));
      out[1] = C(0) - scale * exact_log(unit_float(w.y, true));
      out[2] = C(0) - scale * exact_log(unit_float(w.z, true));
      out[3] = C(0) - scale * exact_log(unit_float(w.w, true));
    }
  }
};

// Integers on [low, high): low + floor(x range / 2^64) for 64 random bits x (Lemire's
// multiply-shift without rejection: bias below range / 2^64).
template <class T>
struct integers_draw : grouped_draw<integers_draw<T>, T, std::uint64_t, 2> {
  philox_key key;
  std::uint64_t low, range;  // low as the bits of T's value, range = high - low
  static XF_HD XF_FORCEINLINE std::uint64_t mul_hi(std::uint64_t a, std::uint64_t b) {
#if XF_DEVICE_PASS
    return __umul64hi(a, b);
#else
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
  }
  XF_HD XF_FORCEINLINE void group(std::uint64_t c, std::uint64_t* out) const {
    const uint4 w = philox_block(key, c);
    out[0] = low + mul_hi((static_cast<std::uint64_t>(w.y) << 32) | w.x, range);
    out[1] = low + mul_hi((static_cast<std::uint64_t>(w.w) << 32) | w.z, range);
  }
};

}  // namespace xf::detail
