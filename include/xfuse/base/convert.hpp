// SPDX-License-Identifier: Apache-2.0
// Element conversion, the same on host and device (astype, promotion, materialising into arrays).
//
// Float to integer is saturating: NaN gives 0, values past the integer's range give its minimum or
// maximum, everything else truncates toward zero (what the GPU's cvt.rzi.sat does, and defined on
// the host too, where a plain C++ cast would be undefined). Integer to integer wraps modulo 2^n.
// Complex to real keeps the real part. Any to bool is "!= 0".
#pragma once

#include <limits>
#include <type_traits>

#include "dtype.hpp"
#include "limits.hpp"

namespace xf::detail {

template <class I, class F>
XF_HD XF_FORCEINLINE I float_to_int(F x) {
  constexpr F lo = static_cast<F>(limits<I>::min());
  constexpr F hi = static_cast<F>(limits<I>::max());  // rounds up to 2^n: the first value past
  if (x != x) return I(0);
  if (x <= lo) return limits<I>::min();
  if (x >= hi) return limits<I>::max();
  return static_cast<I>(x);
}

template <class To, class From>
XF_HD XF_FORCEINLINE To convert(const From& x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (is_complex<From>) {
    if constexpr (is_complex<To>) {
      return To(convert<real_t<To>>(x.real()), convert<real_t<To>>(x.imag()));
    } else if constexpr (is_bool<To>) {
      return x.real() != real_t<From>(0) || x.imag() != real_t<From>(0);
    } else {
      return convert<To>(x.real());
    }
  } else if constexpr (is_complex<To>) {
    return To(convert<real_t<To>>(x), real_t<To>(0));
  } else if constexpr (is_low_precision<From>) {
    return convert<To>(static_cast<float>(x));
  } else if constexpr (is_bool<To>) {
    return x != From(0);
  } else if constexpr (is_bool<From>) {
    return To(x ? 1.0f : 0.0f);
  } else if constexpr (is_low_precision<To>) {
    static_assert(low_precision_ops<To>::available, "xf::half and xf::bfloat16 need #include <xfuse/half.hpp>");
    if constexpr (std::is_same_v<From, double>) return low_precision_ops<To>::from(x);
    else return low_precision_ops<To>::from(static_cast<float>(x));
  } else if constexpr (is_integer<To> && std::is_floating_point_v<From>) {
    return float_to_int<To>(x);
  } else {
    return static_cast<To>(x);
  }
}

}  // namespace xf::detail
