// SPDX-License-Identifier: Apache-2.0
// An element-wise expression evaluated as cuFFT loads a transform's input: `xf::fft(x * w)`,
// `xf::irfft(xf::rfft(x) * H)`, or an array that cuFFT cannot read as it is (a cast, zero padding,
// the norm's scale, another axis order, a complex-to-real input). The expression's type and the call's geometry decide, at compile
// time and when the call is planned, a CUDA function `xf_load(dataIn, offset, info, shared)` (cuFFT's
// LTO load callback): it turns the offset into coordinates of the transform's input block, reads
// each leaf at its own strides (broadcasting, views, the transformed axes moved last), pads with
// zeros past the input's extent, computes the expression in its promoted type and applies the
// norm's scale. Extents, strides and constants are literals of the source; only the leaves'
// pointers are read from `info`, a block of device memory that each run rewrites in stream order.
// NVRTC compiles the source to LTO-IR once per process (fft/lto_compile.hpp); cuFFT links it into
// its kernels when it plans, and the plan cache keeps the result.
//
// Fused: arrays (device memory) of float, double, complex64, complex128, int32, int64 and bool, C++
// scalars, and + - * (/ for real types), negative, conj, real, imag, abs, square, sqrt, exp and
// astype. Any other expression runs unfused: evaluated into a contiguous block first.
#pragma once

#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "../exec/layout.hpp"
#include "../expr/node.hpp"
#include "../expr/ops.hpp"
#include "geometry.hpp"

namespace xf::detail {

// ---------------------------------------------------------------- which expressions fuse
template <class T>
inline constexpr bool fft_source_type = std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, complex64> ||
                                        std::is_same_v<T, complex128> || std::is_same_v<T, std::int32_t> ||
                                        std::is_same_v<T, std::int64_t> || std::is_same_v<T, bool>;

template <class Op>
inline constexpr bool fft_source_op = false;
template <> inline constexpr bool fft_source_op<ops::add> = true;
template <> inline constexpr bool fft_source_op<ops::subtract> = true;
template <> inline constexpr bool fft_source_op<ops::multiply> = true;
template <> inline constexpr bool fft_source_op<ops::divide> = true;
template <> inline constexpr bool fft_source_op<ops::negative> = true;
template <> inline constexpr bool fft_source_op<ops::conj> = true;
template <> inline constexpr bool fft_source_op<ops::real_part> = true;
template <> inline constexpr bool fft_source_op<ops::imag_part> = true;
template <> inline constexpr bool fft_source_op<ops::absolute> = true;
template <> inline constexpr bool fft_source_op<ops::square> = true;
template <> inline constexpr bool fft_source_op<ops::sqrt> = true;
template <> inline constexpr bool fft_source_op<ops::exp> = true;
template <class To> inline constexpr bool fft_source_op<ops::cast<To>> = fft_source_type<To>;

template <class Op>
inline constexpr bool is_cast_op = false;
template <class To>
inline constexpr bool is_cast_op<ops::cast<To>> = true;

template <class E>
inline constexpr bool fft_source_expr = false;
template <class T, int R>
inline constexpr bool fft_source_expr<array<T, R, device>> = fft_source_type<T>;
// C++ scalars: the fused types, and integers that a long long holds (not long double, not
// unsigned 64-bit values).
template <class S>
inline constexpr bool fft_source_expr<scalar_node<S>> = fft_source_type<S> || (std::is_integral_v<S> && (std::is_signed_v<S> || sizeof(S) < 8));
template <class Op, class... Cs>
inline constexpr bool fft_source_expr<node<Op, Cs...>> =
    fft_source_op<Op> && fft_source_type<typename node<Op, Cs...>::input_type> &&
    fft_source_type<typename node<Op, Cs...>::value_type> && (fft_source_expr<Cs> && ...) &&
    // complex division and the float functions of complex values stay in xfuse's own kernels
    !((std::is_same_v<Op, ops::divide> || std::is_same_v<Op, ops::sqrt> || std::is_same_v<Op, ops::exp>) &&
      is_complex<typename node<Op, Cs...>::input_type>) &&
    !(is_cast_op<Op> && is_complex<typename node<Op, Cs...>::input_type> && !is_complex<typename node<Op, Cs...>::value_type>);

// ---------------------------------------------------------------- the source
template <class T>
const char* fft_source_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, complex64>) return "float2";
  else if constexpr (std::is_same_v<T, complex128>) return "double2";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "int";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "long long";
  else return "bool";
}

inline std::string fft_literal(double v, bool single) {
  if (v != v) return single ? "__int_as_float(0x7fc00000)" : "__longlong_as_double(0x7ff8000000000000ll)";
  if (v == 1.0 / 0.0) return single ? "__int_as_float(0x7f800000)" : "__longlong_as_double(0x7ff0000000000000ll)";
  if (v == -1.0 / 0.0) return single ? "__int_as_float(0xff800000)" : "__longlong_as_double(0xfff0000000000000ll)";
  char text[64];
  std::snprintf(text, sizeof text, single ? "%af" : "%a", single ? static_cast<double>(static_cast<float>(v)) : v);
  return std::string("(") + text + ")";
}

// A value of type From, as source text, converted to To.
template <class From, class To>
std::string fft_convert(const std::string& v) {
  if constexpr (std::is_same_v<From, To>) {
    return v;
  } else if constexpr (is_complex<To>) {
    const char* make = std::is_same_v<To, complex64> ? "make_float2" : "make_double2";
    const char* part = std::is_same_v<To, complex64> ? "float" : "double";
    if constexpr (is_complex<From>) return std::string(make) + "((" + part + ")" + v + ".x, (" + part + ")" + v + ".y)";
    else return std::string(make) + "((" + part + ")(" + v + "), 0)";
  } else {
    static_assert(!is_complex<From>, "xf::fft: a complex value is not converted to a real one here");
    return std::string("((") + fft_source_name<To>() + ")(" + v + "))";
  }
}

// The body of the callback as it is generated: one local per node, the leaves' reads.
struct fft_source_builder {
  std::string body;
  std::vector<const void*> pointers;  // one per leaf, in order
  int next = 0;
  std::string local(const char* type, const std::string& value) {
    const std::string name = "v" + std::to_string(next++);
    body += std::string("  const ") + type + " " + name + " = " + value + ";\n";
    return name;
  }
};

template <class T>
std::string fft_binary(const char* op, const std::string& a, const std::string& b) {
  const std::string o(op);
  if constexpr (is_complex<T>) {
    const char* make = std::is_same_v<T, complex64> ? "make_float2" : "make_double2";
    if (o == "*")
      return std::string(make) + "(" + a + ".x * " + b + ".x - " + a + ".y * " + b + ".y, " + a + ".x * " + b + ".y + " + a + ".y * " +
             b + ".x)";
    return std::string(make) + "(" + a + ".x " + o + " " + b + ".x, " + a + ".y " + o + " " + b + ".y)";
  } else {
    return "(" + a + " " + o + " " + b + ")";
  }
}

template <class T>
std::string fft_unary(const char* op_name, const std::string& a) {
  const std::string o(op_name);
  constexpr bool single = std::is_same_v<real_t<T>, float>;
  if constexpr (is_complex<T>) {
    const char* make = single ? "make_float2" : "make_double2";
    if (o == "negative") return std::string(make) + "(-" + a + ".x, -" + a + ".y)";
    if (o == "conj") return std::string(make) + "(" + a + ".x, -" + a + ".y)";
    if (o == "real") return a + ".x";
    if (o == "imag") return a + ".y";
    if (o == "abs") return std::string(single ? "hypotf(" : "hypot(") + a + ".x, " + a + ".y)";
    return std::string(make) + "(" + a + ".x * " + a + ".x - " + a + ".y * " + a + ".y, 2 * " + a + ".x * " + a + ".y)";  // square
  } else {
    if (o == "negative") return "(-" + a + ")";
    if (o == "conj" || o == "real") return a;
    if (o == "imag") return std::string("((") + fft_source_name<T>() + ")0)";
    if (o == "abs") return std::string(single ? "fabsf(" : "fabs(") + a + ")";
    if (o == "square") return "(" + a + " * " + a + ")";
    if (o == "sqrt") return std::string(single ? "sqrtf(" : "sqrt(") + a + ")";
    return std::string(single ? "expf(" : "exp(") + a + ")";  // exp
  }
}

template <class Op>
const char* fft_op_word() {
  if constexpr (std::is_same_v<Op, ops::add>) return "+";
  else if constexpr (std::is_same_v<Op, ops::subtract>) return "-";
  else if constexpr (std::is_same_v<Op, ops::multiply>) return "*";
  else if constexpr (std::is_same_v<Op, ops::divide>) return "/";
  else if constexpr (std::is_same_v<Op, ops::negative>) return "negative";
  else if constexpr (std::is_same_v<Op, ops::conj>) return "conj";
  else if constexpr (std::is_same_v<Op, ops::real_part>) return "real";
  else if constexpr (std::is_same_v<Op, ops::imag_part>) return "imag";
  else if constexpr (std::is_same_v<Op, ops::absolute>) return "abs";
  else if constexpr (std::is_same_v<Op, ops::square>) return "square";
  else if constexpr (std::is_same_v<Op, ops::sqrt>) return "sqrt";
  else return "exp";
}

// Emits `e` over the call's shape: `position(strides)` is the source text of the element position
// of a leaf with those (broadcast) strides. Each returns the name of the local holding e's value.
template <int R, class T, int RA, class Position>
std::string fft_emit(const array<T, RA, device>& a, const dims<R>& shape, fft_source_builder& b, const Position& position) {
  index_t strides[layout<R, 1>::max_rank] = {};
  broadcast_strides<R>(a.shape(), a.strides(), shape, strides);
  const std::size_t k = b.pointers.size();
  b.pointers.push_back(a.data());
  return b.local(fft_source_name<T>(),
                 std::string("((const ") + fft_source_name<T>() + "*)leaves[" + std::to_string(k) + "])[" + position(strides) + "]");
}

template <int R, class S, class Position>
std::string fft_emit(const scalar_node<S>& e, const dims<R>&, fft_source_builder& b, const Position&) {
  const S v = e.value();
  if constexpr (is_complex<S>) {
    const bool single = std::is_same_v<S, complex64>;
    return b.local(fft_source_name<S>(), std::string(single ? "make_float2(" : "make_double2(") +
                                             fft_literal(static_cast<double>(v.real()), single) + ", " +
                                             fft_literal(static_cast<double>(v.imag()), single) + ")");
  } else if constexpr (std::is_floating_point_v<S>) {
    return b.local(fft_source_name<S>(), fft_literal(static_cast<double>(v), std::is_same_v<S, float>));
  } else {
    const auto wide = static_cast<long long>(v);
    // -2^63 has no literal of its own: written as -(2^63 - 1) - 1.
    const std::string text = wide == std::numeric_limits<long long>::min() ? "(-9223372036854775807ll - 1)" : std::to_string(wide) + "ll";
    return b.local("long long", text);
  }
}

// The type a scalar's local has in the source (integers of any width as long long).
template <class C>
using fft_local_t = std::conditional_t<is_weak<C>::value && !is_complex<value_t<C>> && !std::is_floating_point_v<value_t<C>>,
                                       std::int64_t, value_t<C>>;

template <int R, class Op, class... Cs, class Position>
std::string fft_emit(const node<Op, Cs...>& e, const dims<R>& shape, fft_source_builder& b, const Position& position) {
  using N = node<Op, Cs...>;
  using In = typename N::input_type;
  using V = typename N::value_type;
  std::vector<std::string> args;
  [&]<int... I>(std::integer_sequence<int, I...>) {
    ((args.push_back(fft_convert<fft_local_t<Cs>, In>(fft_emit<R>(get<I>(e.children()), shape, b, position)))), ...);
  }(std::make_integer_sequence<int, sizeof...(Cs)>{});
  std::string value;
  if constexpr (is_cast_op<Op>) value = args[0];
  else if constexpr (sizeof...(Cs) == 2) value = fft_binary<In>(fft_op_word<Op>(), args[0], args[1]);
  else value = fft_unary<In>(fft_op_word<Op>(), args[0]);
  using Result = std::conditional_t<is_complex<In> && !is_complex<V>, real_t<In>, In>;
  return b.local(fft_source_name<V>(), fft_convert<Result, V>(value));
}

}  // namespace xf::detail
