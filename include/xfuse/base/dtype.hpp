// SPDX-License-Identifier: Apache-2.0
// Element types: the one place that lists them, with their NumPy names and traits.
#pragma once

#include <type_traits>

#include <cuda/std/__fwd/complex.h>  // names cuda::std::complex without its 2 s of parsing

#include "config.hpp"

// Named here, defined by cuda_fp16.h and cuda_bf16.h through <xfuse/half.hpp>: those headers cost
// about 0.6 s of every build, so programs without 16-bit floats do not parse them.
struct __half;
struct __nv_bfloat16;

namespace xf {

using half = __half;
using bfloat16 = __nv_bfloat16;
template <class T>
using complex = cuda::std::complex<T>;
using complex64 = complex<float>;
using complex128 = complex<double>;

// NumPy's dtype kinds, ordered so that a larger kind can hold a smaller one ("b" < "u" < "i"
// is handled in promotion; here the order is the weak-scalar category order of NEP 50).
enum class kind { boolean, unsigned_integer, signed_integer, floating, complex };

// A run-time tag for each element type (printing, .npy headers, error messages).
enum class dtype {
  bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
  float16, bfloat16, float32, float64, complex64, complex128
};

namespace detail {
template <class T>
struct dtype_info {
  static constexpr bool known = false;
};
#define XF_DTYPE(T, NAME, KIND, TAG)                 \
  template <>                                         \
  struct dtype_info<T> {                              \
    static constexpr bool known = true;               \
    static constexpr const char* name = NAME;         \
    static constexpr ::xf::kind kind = ::xf::kind::KIND; \
    static constexpr ::xf::dtype tag = ::xf::dtype::TAG; \
  };
XF_DTYPE(bool, "bool", boolean, bool_)
XF_DTYPE(std::int8_t, "int8", signed_integer, int8)
XF_DTYPE(std::int16_t, "int16", signed_integer, int16)
XF_DTYPE(std::int32_t, "int32", signed_integer, int32)
XF_DTYPE(std::int64_t, "int64", signed_integer, int64)
XF_DTYPE(std::uint8_t, "uint8", unsigned_integer, uint8)
XF_DTYPE(std::uint16_t, "uint16", unsigned_integer, uint16)
XF_DTYPE(std::uint32_t, "uint32", unsigned_integer, uint32)
XF_DTYPE(std::uint64_t, "uint64", unsigned_integer, uint64)
XF_DTYPE(half, "float16", floating, float16)
XF_DTYPE(bfloat16, "bfloat16", floating, bfloat16)
XF_DTYPE(float, "float32", floating, float32)
XF_DTYPE(double, "float64", floating, float64)
XF_DTYPE(complex64, "complex64", complex, complex64)
XF_DTYPE(complex128, "complex128", complex, complex128)
#undef XF_DTYPE
}  // namespace detail

// An element type xfuse arrays can hold.
template <class T>
concept element = detail::dtype_info<T>::known;

template <element T>
inline constexpr const char* dtype_name = detail::dtype_info<T>::name;
template <element T>
inline constexpr kind kind_of = detail::dtype_info<T>::kind;
template <element T>
inline constexpr dtype dtype_of = detail::dtype_info<T>::tag;

namespace detail {
template <class T>
constexpr bool has_kind(kind k) {
  if constexpr (element<T>) {
    return dtype_info<T>::kind == k;
  } else {
    return false;
  }
}
}  // namespace detail

template <class T>
inline constexpr bool is_bool = std::is_same_v<T, bool>;
template <class T>
inline constexpr bool is_complex = detail::has_kind<T>(kind::complex);
template <class T>
inline constexpr bool is_floating = detail::has_kind<T>(kind::floating);
template <class T>
inline constexpr bool is_signed_integer = detail::has_kind<T>(kind::signed_integer);
template <class T>
inline constexpr bool is_unsigned_integer = detail::has_kind<T>(kind::unsigned_integer);
template <class T>
inline constexpr bool is_integer = is_signed_integer<T> || is_unsigned_integer<T>;
// 16-bit floats are stored as such and computed in float (like NumPy, which rounds each op).
template <class T>
inline constexpr bool is_low_precision = std::is_same_v<T, half> || std::is_same_v<T, bfloat16>;

// The type arithmetic runs in: float for the 16-bit floats, the type itself otherwise.
template <class T>
using compute_t = std::conditional_t<is_low_precision<T>, float, T>;

namespace detail {
// Conversions into the 16-bit floats; <xfuse/half.hpp> defines them.
template <class T>
struct low_precision_ops {
  static constexpr bool available = false;
};
}  // namespace detail

// The real type underneath a complex one (float for complex64), the type itself otherwise.
template <class T>
struct real_of {
  using type = T;
};
template <class T>
struct real_of<cuda::std::complex<T>> {
  using type = T;
};
template <class T>
using real_t = typename real_of<T>::type;

inline const char* name_of(dtype t) {
  switch (t) {
    case dtype::bool_: return "bool";
    case dtype::int8: return "int8";
    case dtype::int16: return "int16";
    case dtype::int32: return "int32";
    case dtype::int64: return "int64";
    case dtype::uint8: return "uint8";
    case dtype::uint16: return "uint16";
    case dtype::uint32: return "uint32";
    case dtype::uint64: return "uint64";
    case dtype::float16: return "float16";
    case dtype::bfloat16: return "bfloat16";
    case dtype::float32: return "float32";
    case dtype::float64: return "float64";
    case dtype::complex64: return "complex64";
    case dtype::complex128: return "complex128";
  }
  return "?";
}

}  // namespace xf
