// SPDX-License-Identifier: Apache-2.0
// std::numeric_limits for code that also runs on the device: the same values, from __host__
// __device__ functions. nvcc refuses std's (constexpr __host__) functions in device code unless
// every user compiles with --expt-relaxed-constexpr; these need no flag and no header heavier
// than <type_traits> (cuda::std::numeric_limits would add a quarter second to <xfuse/core.hpp>).
#pragma once

#include <type_traits>

#include "config.hpp"

namespace xf::detail {

template <class T>
struct limits {
  static_assert(std::is_integral_v<T> || std::is_same_v<T, float> || std::is_same_v<T, double>,
                "xf::detail::limits: integers, bool, float and double");
  using U = typename std::conditional_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, std::make_unsigned<T>,
                                        std::type_identity<unsigned char>>::type;
  // Bits of the significand (floats, with the implicit one) or of the value (integers).
  static constexpr int digits = std::is_same_v<T, float>    ? 24
                                : std::is_same_v<T, double> ? 53
                                : std::is_same_v<T, bool>   ? 1
                                                            : int(sizeof(T) * 8) - int(std::is_signed_v<T>);

  XF_HD static constexpr T max() noexcept {
    if constexpr (std::is_same_v<T, bool>) return true;
    else if constexpr (std::is_integral_v<T>) return std::is_signed_v<T> ? T(U(~U(0)) >> 1) : T(~U(0));
    else if constexpr (std::is_same_v<T, float>) return 0x1.fffffep+127f;
    else return 0x1.fffffffffffffp+1023;
  }
  // The most negative finite value (std::numeric_limits::lowest).
  XF_HD static constexpr T lowest() noexcept {
    if constexpr (std::is_integral_v<T>) return min();
    else return -max();
  }
  // Integers: the most negative value; floats: the smallest positive normal value, as std's.
  XF_HD static constexpr T min() noexcept {
    if constexpr (std::is_same_v<T, bool>) return false;
    else if constexpr (std::is_integral_v<T>) return std::is_signed_v<T> ? T(-max() - 1) : T(0);
    else if constexpr (std::is_same_v<T, float>) return 0x1p-126f;
    else return 0x1p-1022;
  }
  XF_HD static constexpr T infinity() noexcept {
    static_assert(std::is_floating_point_v<T>, "xf::detail::limits: integers have no infinity");
    if constexpr (std::is_same_v<T, float>) return __builtin_huge_valf();
    else return __builtin_huge_val();
  }
  XF_HD static constexpr T quiet_NaN() noexcept {  // NOLINT: std's spelling
    static_assert(std::is_floating_point_v<T>, "xf::detail::limits: integers have no NaN");
    if constexpr (std::is_same_v<T, float>) return __builtin_nanf("");
    else return __builtin_nan("");
  }
  XF_HD static constexpr T epsilon() noexcept {
    if constexpr (std::is_integral_v<T>) return T(0);
    else if constexpr (std::is_same_v<T, float>) return 0x1p-23f;
    else return 0x1p-52;
  }
};

}  // namespace xf::detail
