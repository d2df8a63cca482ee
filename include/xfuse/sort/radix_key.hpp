// SPDX-License-Identifier: Apache-2.0
// Order-preserving unsigned keys: sorting the keys as unsigned integers sorts the values as NumPy
// does (NaN last), so one radix sort per key width serves every element type (fewer CUB kernels
// to build). Signed integers flip the sign bit; floats flip the sign bit when positive and every
// bit when negative; every NaN becomes the largest key.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../base/config.hpp"
#include "../base/dtype.hpp"
#include "../expr/promotion.hpp"

namespace xf::detail {

template <class T>
using radix_key_t = std::make_unsigned_t<typename signed_of_size<sizeof(T)>::type>;

// The bit pattern of infinity: a float's magnitude bits above it are NaN.
template <class T>
XF_HD constexpr radix_key_t<T> infinity_bits() {
  if constexpr (sizeof(T) == 8) return 0x7FF0000000000000ull;
  else if constexpr (sizeof(T) == 4) return 0x7F800000u;
  else if constexpr (std::is_same_v<T, half>) return 0x7C00u;
  else return 0x7F80u;  // bfloat16
}

// EqualZeros: -0.0 and +0.0 get one key (argsort keeps their input order, as NumPy does); sort
// keeps -0.0 ahead of +0.0 so that the key converts back to the exact value.
template <class T, bool EqualZeros>
struct to_radix_key {
  using K = radix_key_t<T>;
  XF_HD XF_FORCEINLINE K operator()(const T& v) const {
    static_assert(!is_complex<T>, "xf::sort/argsort: complex values have no order here (NumPy sorts them "
                                  "lexicographically); sort their real or imaginary parts");
    if constexpr (is_bool<T>) {
      return v ? 1 : 0;
    } else {
      K b;
      __builtin_memcpy(&b, &v, sizeof(K));
      constexpr K sign = K(K(1) << (8 * sizeof(K) - 1));
      if constexpr (is_unsigned_integer<T>) {
        return b;
      } else if constexpr (is_signed_integer<T>) {
        return K(b ^ sign);
      } else {
        const K magnitude = K(b & K(~sign));
        if (magnitude > infinity_bits<T>()) return K(~K(0));
        if (EqualZeros && magnitude == 0) return sign;
        return (b & sign) ? K(~b) : K(b | sign);
      }
    }
  }
};

// The value of a key made by to_radix_key<T, false> (a NaN comes back as a positive NaN).
template <class T>
struct from_radix_key {
  using K = radix_key_t<T>;
  XF_HD XF_FORCEINLINE T operator()(const K& k) const {
    if constexpr (is_bool<T>) {
      return k != 0;
    } else {
      constexpr K sign = K(K(1) << (8 * sizeof(K) - 1));
      K b = k;
      if constexpr (is_signed_integer<T>) b = K(k ^ sign);
      else if constexpr (!is_unsigned_integer<T>) b = (k & sign) ? K(k ^ sign) : K(~k);
      T v;
      __builtin_memcpy(&v, &b, sizeof(K));
      return v;
    }
  }
};

}  // namespace xf::detail
