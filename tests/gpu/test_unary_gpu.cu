// Every unary function on every element type it takes: device kernel against the host evaluator.
#include "../common/device_check.hpp"

using namespace xf_test;

namespace {
constexpr std::size_t n = 100003;  // odd: exercises the vector body and the scalar tail

#define UNARY(NAME) [](const auto& a) { return xf::NAME(a); }

template <class T>
void real_functions() {
  const double rt = math_rtol<T>(), at = math_rtol<T>();
  device_matches_host("sqrt", UNARY(sqrt), rt, 0, uniform<T>(n, 0, 100));
  device_matches_host("cbrt", UNARY(cbrt), rt, 0, uniform<T>(n, -100, 100));
  device_matches_host("exp", UNARY(exp), rt, 0, uniform<T>(n, -10, 10));
  device_matches_host("exp2", UNARY(exp2), rt, 0, uniform<T>(n, -10, 10));
  device_matches_host("expm1", UNARY(expm1), rt, at, uniform<T>(n, -2, 2));
  device_matches_host("log", UNARY(log), rt, at, uniform<T>(n, 0.01, 100));
  device_matches_host("log2", UNARY(log2), rt, at, uniform<T>(n, 0.01, 100));
  device_matches_host("log10", UNARY(log10), rt, at, uniform<T>(n, 0.01, 100));
  device_matches_host("log1p", UNARY(log1p), rt, at, uniform<T>(n, -0.9, 10));
  device_matches_host("sin", UNARY(sin), rt, at, uniform<T>(n, -10, 10));
  device_matches_host("cos", UNARY(cos), rt, at, uniform<T>(n, -10, 10));
  device_matches_host("tan", UNARY(tan), rt, at, uniform<T>(n, -1.4, 1.4));
  device_matches_host("arcsin", UNARY(arcsin), rt, at, uniform<T>(n, -1, 1));
  device_matches_host("arccos", UNARY(arccos), rt, at, uniform<T>(n, -1, 1));
  device_matches_host("arctan", UNARY(arctan), rt, at, uniform<T>(n, -10, 10));
  device_matches_host("sinh", UNARY(sinh), rt, at, uniform<T>(n, -5, 5));
  device_matches_host("cosh", UNARY(cosh), rt, 0, uniform<T>(n, -5, 5));
  device_matches_host("tanh", UNARY(tanh), rt, at, uniform<T>(n, -5, 5));
  device_matches_host("arcsinh", UNARY(arcsinh), rt, at, uniform<T>(n, -10, 10));
  device_matches_host("arccosh", UNARY(arccosh), rt, at, uniform<T>(n, 1, 10));
  device_matches_host("arctanh", UNARY(arctanh), rt, at, uniform<T>(n, -0.95, 0.95));
  device_matches_host("erf", UNARY(erf), rt, at, uniform<T>(n, -3, 3));
  device_matches_host("erfc", UNARY(erfc), rt, at, uniform<T>(n, -3, 3));
  device_matches_host("floor", UNARY(floor), 0, 0, uniform<T>(n, -10, 10));
  device_matches_host("ceil", UNARY(ceil), 0, 0, uniform<T>(n, -10, 10));
  device_matches_host("trunc", UNARY(trunc), 0, 0, uniform<T>(n, -10, 10));
  device_matches_host("rint", UNARY(rint), 0, 0, uniform<T>(n, -10, 10));
  device_matches_host("abs", UNARY(abs), 0, 0, uniform<T>(n, -10, 10));
  device_matches_host("negative", [](const auto& a) { return -a; }, 0, 0, uniform<T>(n, -10, 10));
  device_matches_host("square", UNARY(square), 0, 0, uniform<T>(n, -10, 10));
  device_matches_host("reciprocal", UNARY(reciprocal), 0, 0, uniform<T>(n, 0.5, 10));
  device_matches_host("sign", UNARY(sign), 0, 0, uniform<T>(n, -10, 10));
  device_matches_host("angle", UNARY(angle), rt, 0, uniform<T>(n, -10, 10));
  device_matches_host("real", UNARY(real), 0, 0, uniform<T>(n, -10, 10));
  device_matches_host("imag", UNARY(imag), 0, 0, uniform<T>(n, -10, 10));
  device_matches_host("conj", UNARY(conj), 0, 0, uniform<T>(n, -10, 10));
  // Specials: NaN, infinities and signed zeros through the classifiers and NaN-propagating max.
  auto specials = uniform<T>(n, -10, 10);
  const double sv[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0};
  for (std::size_t i = 0; i < n; i += 7) specials[i] = xf::detail::convert<T>(sv[(i / 7) % 5]);
  device_matches_host("isnan", UNARY(isnan), 0, 0, specials);
  device_matches_host("isinf", UNARY(isinf), 0, 0, specials);
  device_matches_host("isfinite", UNARY(isfinite), 0, 0, specials);
  device_matches_host("logical_not", [](const auto& a) { return !a; }, 0, 0, specials);
}

template <class T>
void complex_functions() {
  const double rt = 16 * eps<T>(), at = 16 * eps<T>();
  const auto z = uniform<T>(n, -2, 2), unit = uniform<T>(n, -1, 1);
  device_matches_host("sqrt", UNARY(sqrt), rt, at, z);
  device_matches_host("exp", UNARY(exp), rt, at, z);
  device_matches_host("log", UNARY(log), rt, at, z);
  device_matches_host("log10", UNARY(log10), rt, at, z);
  device_matches_host("sin", UNARY(sin), rt, at, z);
  device_matches_host("cos", UNARY(cos), rt, at, z);
  device_matches_host("tan", UNARY(tan), rt, at, unit);
  device_matches_host("arcsin", UNARY(arcsin), rt, at, z);
  device_matches_host("arccos", UNARY(arccos), rt, at, z);
  device_matches_host("arctan", UNARY(arctan), rt, at, z);
  device_matches_host("sinh", UNARY(sinh), rt, at, z);
  device_matches_host("cosh", UNARY(cosh), rt, at, z);
  device_matches_host("tanh", UNARY(tanh), rt, at, unit);
  device_matches_host("arcsinh", UNARY(arcsinh), rt, at, z);
  device_matches_host("arccosh", UNARY(arccosh), rt, at, z);
  device_matches_host("arctanh", UNARY(arctanh), rt, at, z);
  device_matches_host("abs", UNARY(abs), rt, at, z);
  device_matches_host("angle", UNARY(angle), rt, at, z);
  device_matches_host("sign", UNARY(sign), rt, at, z);
  device_matches_host("conj", UNARY(conj), 0, 0, z);
  device_matches_host("real", UNARY(real), 0, 0, z);
  device_matches_host("imag", UNARY(imag), 0, 0, z);
  device_matches_host("square", UNARY(square), rt, at, z);
  device_matches_host("reciprocal", UNARY(reciprocal), rt, at, z);
  device_matches_host("negative", [](const auto& a) { return -a; }, 0, 0, z);
  device_matches_host("isfinite", UNARY(isfinite), 0, 0, z);
}

template <class T>
void integer_functions() {
  const auto x = full_range<T>(n);
  device_matches_host("negative", [](const auto& a) { return -a; }, 0, 0, x);
  device_matches_host("invert", [](const auto& a) { return ~a; }, 0, 0, x);
  device_matches_host("abs", UNARY(abs), 0, 0, x);
  device_matches_host("sign", UNARY(sign), 0, 0, x);
  device_matches_host("square", UNARY(square), 0, 0, x);
  device_matches_host("reciprocal", UNARY(reciprocal), 0, 0, uniform<T>(n, std::is_signed_v<T> ? -3 : 0, 3));
  device_matches_host("floor", UNARY(floor), 0, 0, x);
  device_matches_host("isnan", UNARY(isnan), 0, 0, x);
  device_matches_host("logical_not", [](const auto& a) { return !a; }, 0, 0, x);
  device_matches_host("sqrt", UNARY(sqrt), math_rtol<xf::float_result_t<T>>(), 0, uniform<T>(n, 0, 100));
  device_matches_host("sin", UNARY(sin), math_rtol<xf::float_result_t<T>>(), math_rtol<xf::float_result_t<T>>(),
                      uniform<T>(n, 0, 100));
}
}  // namespace

TEMPLATE_TEST_CASE("unary float functions: device matches host", "[gpu][elementwise]", xf::half, xf::bfloat16, float,
                   double) {
  real_functions<TestType>();
}

TEMPLATE_TEST_CASE("unary complex functions: device matches host", "[gpu][elementwise][complex]", xf::complex64,
                   xf::complex128) {
  complex_functions<TestType>();
}

TEMPLATE_TEST_CASE("unary integer functions: device matches host", "[gpu][elementwise]", std::int8_t, std::int16_t,
                   std::int32_t, std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t) {
  integer_functions<TestType>();
}

TEST_CASE("unary bool functions: device matches host", "[gpu][elementwise]") {
  const auto b = uniform<bool>(n, 0, 1);
  device_matches_host("invert", [](const auto& a) { return ~a; }, 0, 0, b);
  device_matches_host("logical_not", [](const auto& a) { return !a; }, 0, 0, b);
  device_matches_host("abs", UNARY(abs), 0, 0, b);
  device_matches_host("square", UNARY(square), 0, 0, b);
  device_matches_host("sqrt", UNARY(sqrt), 0, 0, b);
  device_matches_host("isfinite", UNARY(isfinite), 0, 0, b);
}
