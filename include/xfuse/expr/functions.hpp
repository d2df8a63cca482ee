// SPDX-License-Identifier: Apache-2.0
// The public element-wise vocabulary: operators and NumPy-named functions. Each returns a lazy
// expression; nothing runs until the expression is materialised (see exec/evaluate.hpp).
#pragma once

#include <optional>
#include <utility>

#include "ops.hpp"

namespace xf {

namespace detail {
template <class A, class B>
concept binary_operands = operand<A> && operand<B> && (expression<A> || expression<B>);

// A container (std::vector, std::array, a string) beside an expression: not an operand.
template <class C>
concept container_like = !operand<C> && requires(const C& c) {
  c.begin();
  c.end();
  c.size();
};
template <class A, class B>
concept container_beside_expression =
    (expression<A> && container_like<B>) || (expression<B> && container_like<A>);
}  // namespace detail

// ---------------------------------------------------------------- operators
// Nodes live in xf::detail; argument-dependent lookup finds the operators there too.
// A container operand gets one message instead of every candidate operator in scope.
#define XF_BINARY_OPERATOR(SYMBOL, OP)                                        \
  template <class A, class B>                                                 \
    requires detail::binary_operands<A, B>                                    \
  auto operator SYMBOL(const A& a, const B& b) {                              \
    return detail::make_node(detail::ops::OP{}, a, b);                        \
  }                                                                           \
  template <class A, class B>                                                 \
    requires detail::container_beside_expression<A, B>                        \
  auto operator SYMBOL(const A&, const B&) {                                  \
    static_assert(detail::always_false<A>,                                    \
                  "xfuse: a container is not an operand of an expression: "   \
                  "make it an array first with xf::asarray(v) (host arrays: " \
                  "xf::asarray<T, xf::host>(v))");                             \
  }                                                                           \
  namespace detail {                                                          \
  using ::xf::operator SYMBOL;                                                \
  }
XF_BINARY_OPERATOR(+, add)
XF_BINARY_OPERATOR(-, subtract)
XF_BINARY_OPERATOR(*, multiply)
XF_BINARY_OPERATOR(/, divide)
XF_BINARY_OPERATOR(%, remainder)
XF_BINARY_OPERATOR(==, equal)
XF_BINARY_OPERATOR(!=, not_equal)
XF_BINARY_OPERATOR(<, less)
XF_BINARY_OPERATOR(<=, less_equal)
XF_BINARY_OPERATOR(>, greater)
XF_BINARY_OPERATOR(>=, greater_equal)
XF_BINARY_OPERATOR(&&, logical_and)
XF_BINARY_OPERATOR(||, logical_or)
XF_BINARY_OPERATOR(&, bitwise_and)
XF_BINARY_OPERATOR(|, bitwise_or)
XF_BINARY_OPERATOR(^, bitwise_xor)
XF_BINARY_OPERATOR(<<, left_shift)
XF_BINARY_OPERATOR(>>, right_shift)
#undef XF_BINARY_OPERATOR

template <expression E>
auto operator-(const E& e) {
  return detail::make_node(detail::ops::negative{}, e);
}
template <expression E>
auto operator+(const E& e) {
  return e;
}
template <expression E>
auto operator!(const E& e) {
  return detail::make_node(detail::ops::logical_not{}, e);
}
template <expression E>
auto operator~(const E& e) {
  return detail::make_node(detail::ops::invert{}, e);
}
namespace detail {
using ::xf::operator-;
using ::xf::operator+;
using ::xf::operator!;
using ::xf::operator~;
}  // namespace detail

// ---------------------------------------------------------------- named binary functions
#define XF_BINARY_FUNCTION(NAME, OP)                                          \
  template <class A, class B>                                                 \
    requires detail::binary_operands<A, B>                                    \
  auto NAME(const A& a, const B& b) {                                         \
    return detail::make_node(detail::ops::OP{}, a, b);                        \
  }                                                                           \
  namespace detail {                                                          \
  using ::xf::NAME;                                                           \
  }
XF_BINARY_FUNCTION(add, add)
XF_BINARY_FUNCTION(subtract, subtract)
XF_BINARY_FUNCTION(multiply, multiply)
XF_BINARY_FUNCTION(divide, divide)
XF_BINARY_FUNCTION(true_divide, divide)
XF_BINARY_FUNCTION(floor_divide, floor_divide)
XF_BINARY_FUNCTION(remainder, remainder)
XF_BINARY_FUNCTION(mod, remainder)
XF_BINARY_FUNCTION(fmod, fmod)
XF_BINARY_FUNCTION(power, power)
XF_BINARY_FUNCTION(maximum, maximum)
XF_BINARY_FUNCTION(minimum, minimum)
XF_BINARY_FUNCTION(hypot, hypot)
XF_BINARY_FUNCTION(arctan2, arctan2)
XF_BINARY_FUNCTION(fmax, fmax)
XF_BINARY_FUNCTION(fmin, fmin)
XF_BINARY_FUNCTION(copysign, copysign)
XF_BINARY_FUNCTION(heaviside, heaviside)
XF_BINARY_FUNCTION(logaddexp, logaddexp)
XF_BINARY_FUNCTION(logaddexp2, logaddexp2)
XF_BINARY_FUNCTION(nextafter, nextafter)
XF_BINARY_FUNCTION(ldexp, ldexp)
XF_BINARY_FUNCTION(float_power, float_power)
XF_BINARY_FUNCTION(gcd, gcd)
XF_BINARY_FUNCTION(lcm, lcm)
XF_BINARY_FUNCTION(equal, equal)
XF_BINARY_FUNCTION(not_equal, not_equal)
XF_BINARY_FUNCTION(less, less)
XF_BINARY_FUNCTION(less_equal, less_equal)
XF_BINARY_FUNCTION(greater, greater)
XF_BINARY_FUNCTION(greater_equal, greater_equal)
XF_BINARY_FUNCTION(logical_and, logical_and)
XF_BINARY_FUNCTION(logical_or, logical_or)
XF_BINARY_FUNCTION(logical_xor, logical_xor)
XF_BINARY_FUNCTION(bitwise_and, bitwise_and)
XF_BINARY_FUNCTION(bitwise_or, bitwise_or)
XF_BINARY_FUNCTION(bitwise_xor, bitwise_xor)
XF_BINARY_FUNCTION(left_shift, left_shift)
XF_BINARY_FUNCTION(right_shift, right_shift)
#undef XF_BINARY_FUNCTION

// ---------------------------------------------------------------- named unary functions
#define XF_UNARY_FUNCTION(NAME, OP)                                           \
  template <expression E>                                                     \
  auto NAME(const E& e) {                                                     \
    return detail::make_node(detail::ops::OP{}, e);                           \
  }                                                                           \
  namespace detail {                                                          \
  using ::xf::NAME;                                                           \
  }
XF_UNARY_FUNCTION(negative, negative)
XF_UNARY_FUNCTION(logical_not, logical_not)
XF_UNARY_FUNCTION(invert, invert)
XF_UNARY_FUNCTION(bitwise_not, invert)
XF_UNARY_FUNCTION(abs, absolute)
XF_UNARY_FUNCTION(absolute, absolute)
XF_UNARY_FUNCTION(sign, sign)
XF_UNARY_FUNCTION(square, square)
XF_UNARY_FUNCTION(reciprocal, reciprocal)
XF_UNARY_FUNCTION(sqrt, sqrt)
XF_UNARY_FUNCTION(cbrt, cbrt)
XF_UNARY_FUNCTION(exp, exp)
XF_UNARY_FUNCTION(exp2, exp2)
XF_UNARY_FUNCTION(expm1, expm1)
XF_UNARY_FUNCTION(log, log)
XF_UNARY_FUNCTION(log2, log2)
XF_UNARY_FUNCTION(log10, log10)
XF_UNARY_FUNCTION(log1p, log1p)
XF_UNARY_FUNCTION(sin, sin)
XF_UNARY_FUNCTION(cos, cos)
XF_UNARY_FUNCTION(tan, tan)
XF_UNARY_FUNCTION(arcsin, arcsin)
XF_UNARY_FUNCTION(arccos, arccos)
XF_UNARY_FUNCTION(arctan, arctan)
XF_UNARY_FUNCTION(sinh, sinh)
XF_UNARY_FUNCTION(cosh, cosh)
XF_UNARY_FUNCTION(tanh, tanh)
XF_UNARY_FUNCTION(arcsinh, arcsinh)
XF_UNARY_FUNCTION(arccosh, arccosh)
XF_UNARY_FUNCTION(arctanh, arctanh)
XF_UNARY_FUNCTION(erf, erf)
XF_UNARY_FUNCTION(erfc, erfc)
XF_UNARY_FUNCTION(relu, relu)
XF_UNARY_FUNCTION(gelu, gelu)
XF_UNARY_FUNCTION(gelu_tanh, gelu_tanh)
XF_UNARY_FUNCTION(floor, floor)
XF_UNARY_FUNCTION(ceil, ceil)
XF_UNARY_FUNCTION(trunc, trunc)
XF_UNARY_FUNCTION(rint, rint)
XF_UNARY_FUNCTION(deg2rad, deg2rad)
XF_UNARY_FUNCTION(radians, deg2rad)
XF_UNARY_FUNCTION(rad2deg, rad2deg)
XF_UNARY_FUNCTION(degrees, rad2deg)
XF_UNARY_FUNCTION(signbit, signbit)
XF_UNARY_FUNCTION(sinc, sinc)
XF_UNARY_FUNCTION(isnan, isnan)
XF_UNARY_FUNCTION(isinf, isinf)
XF_UNARY_FUNCTION(isfinite, isfinite)
XF_UNARY_FUNCTION(real, real_part)
XF_UNARY_FUNCTION(imag, imag_part)
XF_UNARY_FUNCTION(conj, conj)
XF_UNARY_FUNCTION(conjugate, conj)
XF_UNARY_FUNCTION(angle, angle)
#undef XF_UNARY_FUNCTION

// ---------------------------------------------------------------- ternary and casts
template <class C, class A, class B>
  requires operand<C> && operand<A> && operand<B> && (expression<C> || expression<A> || expression<B>)
auto where(const C& cond, const A& a, const B& b) {
  return detail::make_node(detail::ops::where{}, cond, a, b);
}
namespace detail {
using ::xf::where;
}  // namespace detail

template <expression E, class Lo, class Hi>
  requires operand<Lo> && operand<Hi>
auto clip(const E& x, const Lo& lo, const Hi& hi) {
  return detail::make_node(detail::ops::clip{}, x, lo, hi);
}
namespace detail {
using ::xf::clip;
}  // namespace detail

// ---------------------------------------------------------------- functions with several results or options
// NumPy's two-result functions as two lazy expressions (each fuses where it is used; xf::assign
// writes both in one kernel): auto [q, r] = xf::divmod(a, b).
template <class A, class B>
  requires detail::binary_operands<A, B>
auto divmod(const A& a, const B& b) {
  return std::pair{floor_divide(a, b), remainder(a, b)};
}
// (mantissa, int32 exponent) with x = mantissa * 2^exponent.
template <expression E>
auto frexp(const E& e) {
  return std::pair{detail::make_node(detail::ops::frexp_mantissa{}, e), detail::make_node(detail::ops::frexp_exponent{}, e)};
}
// (fractional part, integral part), both with x's sign.
template <expression E>
auto modf(const E& e) {
  return std::pair{detail::make_node(detail::ops::modf_fraction{}, e), detail::make_node(detail::ops::modf_integral{}, e)};
}

// np.round / np.around(x, decimals): half to even at the decimal place (negative: tens, hundreds).
template <expression E>
auto round(const E& e, int decimals = 0) {
  detail::ops::round_decimals op;
  // Past +-400 every result is already NaN (floats) or 0 (integers): clamping keeps -decimals defined.
  op.decimals = decimals > 400 ? 400 : (decimals < -400 ? -400 : decimals);
  return detail::make_node(op, e);
}
// np.around: the same as xf::round.
template <expression E>
auto around(const E& e, int decimals = 0) {
  return round(e, decimals);
}

// np.nan_to_num(x, nan, posinf, neginf): NaN to `nan`, infinities to the given values or to the
// type's largest finite values (std::nullopt: NumPy's None).
template <expression E>
auto nan_to_num(const E& e, double nan = 0.0, std::optional<double> posinf = std::nullopt,
                std::optional<double> neginf = std::nullopt) {
  detail::ops::nan_to_num op;
  op.nan_value = nan;
  op.posinf_given = posinf.has_value();
  op.posinf_value = posinf.value_or(0.0);
  op.neginf_given = neginf.has_value();
  op.neginf_value = neginf.value_or(0.0);
  return detail::make_node(op, e);
}

// np.isclose(a, b, rtol, atol, equal_nan): element-wise bool (np.allclose and np.array_equal,
// which read one value to the host, are in <xfuse/reduce.hpp>).
template <class A, class B>
  requires detail::binary_operands<A, B>
auto isclose(const A& a, const B& b, double rtol = 1e-5, double atol = 1e-8, bool equal_nan = false) {
  detail::ops::isclose op;
  op.rtol = rtol;
  op.atol = atol;
  op.equal_nan = equal_nan;
  return detail::make_node(op, a, b);
}

// astype as a free function: xf::astype<float>(e) == e.astype<float>().
template <element To, expression E>
auto astype(const E& e) {
  return detail::make_node(detail::ops::cast<To>{}, e);
}

template <class Op, class... Cs>
template <element To>
auto detail::node<Op, Cs...>::astype() const {
  return detail::make_node(detail::ops::cast<To>{}, *this);
}

}  // namespace xf
