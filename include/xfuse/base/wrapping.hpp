// SPDX-License-Identifier: Apache-2.0
// Integer arithmetic that wraps modulo 2^bits, as NumPy's does, without the undefined behaviour
// of signed overflow in C++: computed in an unsigned type at least as wide as int (so that
// uint16 * uint16 is not promoted to a signed int that overflows), converted back (modular since
// C++20). Other types use their own operators.
#pragma once

#include <type_traits>

#include "dtype.hpp"

namespace xf::detail {

template <class T>
using wide_unsigned = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <class T>
XF_HD XF_FORCEINLINE T wrapping_add(const T& a, const T& b) {
  if constexpr (is_integer<T>) return T(wide_unsigned<T>(a) + wide_unsigned<T>(b));
  else return a + b;
}

template <class T>
XF_HD XF_FORCEINLINE T wrapping_subtract(const T& a, const T& b) {
  if constexpr (is_integer<T>) return T(wide_unsigned<T>(a) - wide_unsigned<T>(b));
  else return a - b;
}

template <class T>
XF_HD XF_FORCEINLINE T wrapping_multiply(const T& a, const T& b) {
  if constexpr (is_integer<T>) return T(wide_unsigned<T>(a) * wide_unsigned<T>(b));
  else return a * b;
}

}  // namespace xf::detail
