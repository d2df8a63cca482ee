// SPDX-License-Identifier: Apache-2.0
// Type promotion, decided at compile time: NumPy 2 (NEP 50) result_type for strong types (arrays),
// and weak C++ scalars that adopt the array's type unless their kind is higher.
//
//   int8 + uint8 -> int16      int32 + float32 -> float64     int64 + uint64 -> float64
//   float32_array * 2.0 -> float32 (weak)   int32_array * 2.5 -> float64   int8_array + 1 -> int8
//   float16 + bfloat16 -> float32 (bfloat16 otherwise ranks like float16)
#pragma once

#include <type_traits>

#include "../base/dtype.hpp"

namespace xf {
namespace detail {

// The signed integer of a size in bytes (1, 2, 4 or 8).
template <std::size_t Bytes>
struct signed_of_size {
  static_assert(Bytes == 1 || Bytes == 2 || Bytes == 4 || Bytes == 8, "xf: no signed integer of this size");
  using type = std::conditional_t<Bytes == 1, std::int8_t,
                                  std::conditional_t<Bytes == 2, std::int16_t, std::conditional_t<Bytes == 4, std::int32_t, std::int64_t>>>;
};

// The smallest float that holds every value of an integer (or bool) type: NumPy's safe cast.
template <class I>
using float_for_int = std::conditional_t<(sizeof(I) == 1), half, std::conditional_t<(sizeof(I) == 2), float, double>>;

template <class A, class B>
constexpr auto promote_float_pair() {
  if constexpr (std::is_same_v<A, B>) {
    return std::type_identity<A>{};
  } else if constexpr (is_low_precision<A> && is_low_precision<B>) {
    return std::type_identity<float>{};  // float16 with bfloat16
  } else if constexpr (sizeof(A) >= sizeof(B)) {
    return std::type_identity<A>{};
  } else {
    return std::type_identity<B>{};
  }
}

template <class F>
using complex_for_real = std::conditional_t<(sizeof(F) <= 4), complex64, complex128>;

// A real type to stand for B when combining with a float or complex.
template <class B>
using as_float = std::conditional_t<is_floating<B>, B, float_for_int<B>>;

template <class A, class B>
constexpr auto promote_strong() {
  if constexpr (std::is_same_v<A, B>) {
    return std::type_identity<A>{};
  } else if constexpr (is_bool<A>) {
    return std::type_identity<B>{};
  } else if constexpr (is_bool<B>) {
    return std::type_identity<A>{};
  } else if constexpr (is_complex<A> || is_complex<B>) {
    using RA = std::conditional_t<is_complex<A>, real_t<A>, as_float<A>>;
    using RB = std::conditional_t<is_complex<B>, real_t<B>, as_float<B>>;
    return std::type_identity<complex_for_real<typename decltype(promote_float_pair<RA, RB>())::type>>{};
  } else if constexpr (is_floating<A> || is_floating<B>) {
    return promote_float_pair<as_float<A>, as_float<B>>();
  } else if constexpr (is_signed_integer<A> == is_signed_integer<B>) {
    if constexpr (sizeof(A) >= sizeof(B)) return std::type_identity<A>{};
    else return std::type_identity<B>{};
  } else {
    using S = std::conditional_t<is_signed_integer<A>, A, B>;
    using U = std::conditional_t<is_signed_integer<A>, B, A>;
    if constexpr (sizeof(U) < sizeof(S)) return std::type_identity<S>{};
    else if constexpr (sizeof(U) == 8) return std::type_identity<double>{};
    else return std::type_identity<typename signed_of_size<2 * sizeof(U)>::type>{};
  }
}

// The kind order NEP 50 uses for weak scalars: bool < integer < float < complex. C++ types that are
// not element types (long long, char, long double) rank by their kind too.
template <class T>
constexpr int weak_rank() {
  if constexpr (is_bool<T>) return 0;
  else if constexpr (is_integer<T> || std::is_integral_v<T>) return 1;
  else if constexpr (is_floating<T> || std::is_floating_point_v<T>) return 2;
  else return 3;
}

// An array of type Strong meets a C++ scalar of type Weak.
template <class Strong, class Weak>
constexpr auto promote_weak() {
  if constexpr (weak_rank<Strong>() >= weak_rank<Weak>()) {
    return std::type_identity<Strong>{};
  } else if constexpr (is_complex<Weak>) {
    if constexpr (is_floating<Strong>) return std::type_identity<complex_for_real<Strong>>{};
    else return std::type_identity<complex128>{};
  } else if constexpr (weak_rank<Weak>() == 2) {
    return std::type_identity<double>{};  // bool or integer arrays meet a float scalar: the default float
  } else {
    return std::type_identity<std::int64_t>{};  // a bool array meets an integer scalar: the default integer
  }
}

}  // namespace detail

// NumPy's result_type for two array element types.
template <class A, class B>
using promote_t = typename decltype(detail::promote_strong<A, B>())::type;

// Result type where an array of type Strong meets a weak C++ scalar of type Weak.
template <class Strong, class Weak>
using promote_weak_t = typename decltype(detail::promote_weak<Strong, Weak>())::type;

// Result of the float functions (sqrt, sin, ...) and true division on a type: integers and bool
// become the smallest float that holds them, as NumPy's loop selection does.
template <class T>
using float_result_t = std::conditional_t<is_floating<T> || is_complex<T>, T, detail::float_for_int<T>>;

}  // namespace xf
