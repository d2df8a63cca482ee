// Element-wise operations on host arrays against independent scalar references (long double,
// std::complex<long double>, 128-bit integers), on fresh random data.
#include <cmath>
#include <complex>

#include "../common/elementwise.hpp"

using namespace xf_test;

namespace {

constexpr std::size_t n = default_n;

#define UNARY(NAME) [](const auto& a) { return xf::NAME(a); }
#define BINARY(EXPR) [](const auto& a, const auto& b) { return EXPR; }

template <class T>
void float_functions() {
  using R = T;
  const double rt = fn_rtol<R>(), at = fn_rtol<R>();
  auto real_ref = [](auto f) { return [f](const T& x) { return from_ld<R>(f(to_ld(x))); }; };
  host_unary<T>("sqrt", uniform<T>(n, 0, 100), UNARY(sqrt), real_ref([](ld x) { return sqrtl(x); }), rt, 0);
  host_unary<T>("cbrt", uniform<T>(n, -100, 100), UNARY(cbrt), real_ref([](ld x) { return cbrtl(x); }), rt, 0);
  host_unary<T>("exp", uniform<T>(n, -10, 10), UNARY(exp), real_ref([](ld x) { return expl(x); }), rt, 0);
  host_unary<T>("exp2", uniform<T>(n, -10, 10), UNARY(exp2), real_ref([](ld x) { return exp2l(x); }), rt, 0);
  host_unary<T>("expm1", uniform<T>(n, -2, 2), UNARY(expm1), real_ref([](ld x) { return expm1l(x); }), rt, 0);
  host_unary<T>("log", uniform<T>(n, 0.01, 100), UNARY(log), real_ref([](ld x) { return logl(x); }), rt, at);
  host_unary<T>("log2", uniform<T>(n, 0.01, 100), UNARY(log2), real_ref([](ld x) { return log2l(x); }), rt, at);
  host_unary<T>("log10", uniform<T>(n, 0.01, 100), UNARY(log10), real_ref([](ld x) { return log10l(x); }), rt, at);
  host_unary<T>("log1p", uniform<T>(n, -0.9, 10), UNARY(log1p), real_ref([](ld x) { return log1pl(x); }), rt, at);
  host_unary<T>("sin", uniform<T>(n, -10, 10), UNARY(sin), real_ref([](ld x) { return sinl(x); }), rt, at);
  host_unary<T>("cos", uniform<T>(n, -10, 10), UNARY(cos), real_ref([](ld x) { return cosl(x); }), rt, at);
  host_unary<T>("tan", uniform<T>(n, -1.4, 1.4), UNARY(tan), real_ref([](ld x) { return tanl(x); }), rt, at);
  host_unary<T>("arcsin", uniform<T>(n, -1, 1), UNARY(arcsin), real_ref([](ld x) { return asinl(x); }), rt, at);
  host_unary<T>("arccos", uniform<T>(n, -1, 1), UNARY(arccos), real_ref([](ld x) { return acosl(x); }), rt, at);
  host_unary<T>("arctan", uniform<T>(n, -10, 10), UNARY(arctan), real_ref([](ld x) { return atanl(x); }), rt, at);
  host_unary<T>("sinh", uniform<T>(n, -5, 5), UNARY(sinh), real_ref([](ld x) { return sinhl(x); }), rt, at);
  host_unary<T>("cosh", uniform<T>(n, -5, 5), UNARY(cosh), real_ref([](ld x) { return coshl(x); }), rt, 0);
  host_unary<T>("tanh", uniform<T>(n, -5, 5), UNARY(tanh), real_ref([](ld x) { return tanhl(x); }), rt, at);
  host_unary<T>("arcsinh", uniform<T>(n, -10, 10), UNARY(arcsinh), real_ref([](ld x) { return asinhl(x); }), rt, at);
  host_unary<T>("arccosh", uniform<T>(n, 1, 10), UNARY(arccosh), real_ref([](ld x) { return acoshl(x); }), rt, at);
  host_unary<T>("arctanh", uniform<T>(n, -0.95, 0.95), UNARY(arctanh), real_ref([](ld x) { return atanhl(x); }), rt, at);
  host_unary<T>("erf", uniform<T>(n, -3, 3), UNARY(erf), real_ref([](ld x) { return erfl(x); }), rt, at);
  host_unary<T>("erfc", uniform<T>(n, -3, 3), UNARY(erfc), real_ref([](ld x) { return erfcl(x); }), rt, at);
  host_unary<T>("relu", uniform<T>(n, -10, 10), UNARY(relu), real_ref([](ld x) { return x < 0 ? 0.0L : x; }), 0, 0);
  host_unary<T>("gelu", uniform<T>(n, -6, 6), UNARY(gelu), real_ref([](ld x) { return x / 2 * (1 + erfl(x / sqrtl(2.0L))); }), rt, at);
  host_unary<T>("gelu_tanh", uniform<T>(n, -6, 6), UNARY(gelu_tanh),
                real_ref([](ld x) { return x / 2 * (1 + tanhl(sqrtl(2 / acosl(-1.0L)) * (x + 0.044715L * x * x * x))); }), rt, at);
  host_unary<T>("floor", uniform<T>(n, -10, 10), UNARY(floor), real_ref([](ld x) { return floorl(x); }), 0, 0);
  host_unary<T>("ceil", uniform<T>(n, -10, 10), UNARY(ceil), real_ref([](ld x) { return ceill(x); }), 0, 0);
  host_unary<T>("trunc", uniform<T>(n, -10, 10), UNARY(trunc), real_ref([](ld x) { return truncl(x); }), 0, 0);
  host_unary<T>("rint", uniform<T>(n, -10, 10), UNARY(rint), real_ref([](ld x) { return rintl(x); }), 0, 0);
  host_unary<T>("abs", uniform<T>(n, -10, 10), UNARY(abs), real_ref([](ld x) { return fabsl(x); }), 0, 0);
  host_unary<T>("negative", uniform<T>(n, -10, 10), [](const auto& a) { return -a; }, real_ref([](ld x) { return -x; }), 0, 0);
  host_unary<T>("square", uniform<T>(n, -10, 10), UNARY(square), real_ref([](ld x) { return x * x; }), rt, 0);
  host_unary<T>("reciprocal", uniform<T>(n, 0.5, 10), UNARY(reciprocal), real_ref([](ld x) { return 1 / x; }), rt, 0);
  host_unary<T>("sign", uniform<T>(n, -10, 10), UNARY(sign),
                real_ref([](ld x) { return ld((x > 0) - (x < 0)); }), 0, 0);
  host_unary<T>("angle", uniform<T>(n, -10, 10), UNARY(angle), real_ref([](ld x) { return atan2l(0, x); }), rt, 0);
  host_unary<T>("real", uniform<T>(n, -10, 10), UNARY(real), real_ref([](ld x) { return x; }), 0, 0);
  host_unary<T>("imag", uniform<T>(n, -10, 10), UNARY(imag), real_ref([](ld) { return ld(0); }), 0, 0);
  host_unary<T>("conj", uniform<T>(n, -10, 10), UNARY(conj), real_ref([](ld x) { return x; }), 0, 0);
}

template <class T>
std::vector<T> with_specials(std::vector<T> v) {
  const double specials[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0};
  for (std::size_t i = 0; i < v.size(); i += 7) v[i] = xf::detail::convert<T>(specials[(i / 7) % 5]);
  return v;
}

// y with x's values at every third place: operands that tie there.
template <class T>
std::vector<T> with_ties(const std::vector<T>& x, std::vector<T> y) {
  for (std::size_t i = 0; i < y.size(); i += 3) y[i] = x[i];
  return y;
}

// NaN, infinities and signed zeros in the real part at every 7th place, in the imaginary part at
// every 7th place from the 3rd, in both at every 7th from the 5th.
template <class T>
std::vector<T> with_complex_specials(std::vector<T> v) {
  using P = xf::real_t<T>;
  const P specials[] = {P(NAN), P(INFINITY), P(-INFINITY), P(0.0), P(-0.0)};
  for (std::size_t i = 0; i < v.size(); ++i) {
    const P s = specials[(i / 7) % 5];
    if (i % 7 == 0) v[i] = T(s, v[i].imag());
    else if (i % 7 == 3) v[i] = T(v[i].real(), s);
    else if (i % 7 == 5) v[i] = T(s, s);
  }
  return v;
}

}  // namespace

TEMPLATE_TEST_CASE("float functions match long double references", "[elementwise][host]", xf::half, xf::bfloat16,
                   float, double) {
  float_functions<TestType>();
}

TEMPLATE_TEST_CASE("NaN and infinity classification", "[elementwise][host]", xf::half, xf::bfloat16, float, double) {
  using T = TestType;
  const auto in = with_specials(uniform<T>(n, -10, 10));
  host_unary<T>("isnan", in, UNARY(isnan), [](const T& x) { return std::isnan(to_ld(x)); }, 0, 0);
  host_unary<T>("isinf", in, UNARY(isinf), [](const T& x) { return std::isinf(to_ld(x)); }, 0, 0);
  host_unary<T>("isfinite", in, UNARY(isfinite), [](const T& x) { return std::isfinite(to_ld(x)); }, 0, 0);
  // maximum and minimum propagate NaN, like NumPy.
  const auto other = with_specials(uniform<T>(n, -10, 10));
  host_binary<T, T>("maximum", in, other, BINARY(xf::maximum(a, b)), [](const T& x, const T& y) {
    const ld a = to_ld(x), b = to_ld(y);
    return from_ld<T>(std::isnan(a) || std::isnan(b) ? NAN : (a >= b ? a : b));
  }, 0, 0);
  host_binary<T, T>("minimum", in, other, BINARY(xf::minimum(a, b)), [](const T& x, const T& y) {
    const ld a = to_ld(x), b = to_ld(y);
    return from_ld<T>(std::isnan(a) || std::isnan(b) ? NAN : (a <= b ? a : b));
  }, 0, 0);
  // relu keeps NaN (torch.relu) and maps -inf to 0; gelu is torch's formula, NaN at -inf as there.
  host_unary<T>("relu", in, UNARY(relu), [](const T& x) { const ld a = to_ld(x); return from_ld<T>(a < 0 ? 0.0L : a); }, 0, 0);
  const auto gelu_formula = [](const T& x) { const ld a = to_ld(x); return from_ld<T>(a / 2 * (1 + erfl(a / sqrtl(2.0L)))); };
  host_unary<T>("gelu", in, UNARY(gelu), gelu_formula, fn_rtol<T>(), fn_rtol<T>());
}

TEMPLATE_TEST_CASE("complex functions match std::complex<long double>", "[elementwise][host][complex]",
                   xf::complex64, xf::complex128) {
  using T = TestType;
  using P = xf::real_t<T>;
  const double rt = 16 * eps<T>(), at = 16 * eps<T>();
  auto cref = [](auto f) { return [f](const T& x) { return from_ld<T>(f(to_cld(x))); }; };
  const auto in = uniform<T>(n, -2, 2);
  host_unary<T>("sqrt", in, UNARY(sqrt), cref([](std::complex<ld> z) { return std::sqrt(z); }), rt, at);
  host_unary<T>("exp", in, UNARY(exp), cref([](std::complex<ld> z) { return std::exp(z); }), rt, at);
  host_unary<T>("log", in, UNARY(log), cref([](std::complex<ld> z) { return std::log(z); }), rt, at);
  host_unary<T>("log10", in, UNARY(log10), cref([](std::complex<ld> z) { return std::log10(z); }), rt, at);
  host_unary<T>("sin", in, UNARY(sin), cref([](std::complex<ld> z) { return std::sin(z); }), rt, at);
  host_unary<T>("cos", in, UNARY(cos), cref([](std::complex<ld> z) { return std::cos(z); }), rt, at);
  const auto unit = uniform<T>(n, -1, 1);  // tan and tanh are ill-conditioned near their poles
  host_unary<T>("tan", unit, UNARY(tan), cref([](std::complex<ld> z) { return std::tan(z); }), rt, at);
  host_unary<T>("arcsin", in, UNARY(arcsin), cref([](std::complex<ld> z) { return std::asin(z); }), rt, at);
  host_unary<T>("arccos", in, UNARY(arccos), cref([](std::complex<ld> z) { return std::acos(z); }), rt, at);
  host_unary<T>("arctan", in, UNARY(arctan), cref([](std::complex<ld> z) { return std::atan(z); }), rt, at);
  host_unary<T>("sinh", in, UNARY(sinh), cref([](std::complex<ld> z) { return std::sinh(z); }), rt, at);
  host_unary<T>("cosh", in, UNARY(cosh), cref([](std::complex<ld> z) { return std::cosh(z); }), rt, at);
  host_unary<T>("tanh", unit, UNARY(tanh), cref([](std::complex<ld> z) { return std::tanh(z); }), rt, at);
  host_unary<T>("arcsinh", in, UNARY(arcsinh), cref([](std::complex<ld> z) { return std::asinh(z); }), rt, at);
  host_unary<T>("arccosh", in, UNARY(arccosh), cref([](std::complex<ld> z) { return std::acosh(z); }), rt, at);
  host_unary<T>("arctanh", in, UNARY(arctanh), cref([](std::complex<ld> z) { return std::atanh(z); }), rt, at);
  host_unary<T>("conj", in, UNARY(conj), cref([](std::complex<ld> z) { return std::conj(z); }), 0, 0);
  host_unary<T>("square", in, UNARY(square), cref([](std::complex<ld> z) { return z * z; }), rt, at);
  host_unary<T>("reciprocal", in, UNARY(reciprocal), cref([](std::complex<ld> z) { return ld(1) / z; }), rt, at);
  host_unary<T>("negative", in, [](const auto& a) { return -a; }, cref([](std::complex<ld> z) { return -z; }), 0, 0);
  host_unary<T>("abs", in, UNARY(abs), [](const T& x) { return static_cast<P>(std::abs(to_cld(x))); }, rt, at);
  host_unary<T>("angle", in, UNARY(angle), [](const T& x) { return static_cast<P>(std::arg(to_cld(x))); }, rt, at);
  host_unary<T>("real", in, UNARY(real), [](const T& x) { return x.real(); }, 0, 0);
  host_unary<T>("imag", in, UNARY(imag), [](const T& x) { return x.imag(); }, 0, 0);
  host_unary<T>("sign", in, UNARY(sign), cref([](std::complex<ld> z) { return z / std::abs(z); }), rt, at);
  const auto other = uniform<T>(n, -2, 2);
  host_binary<T, T>("add", in, other, BINARY(a + b), [](const T& x, const T& y) { return from_ld<T>(to_cld(x) + to_cld(y)); }, rt, at);
  host_binary<T, T>("subtract", in, other, BINARY(a - b), [](const T& x, const T& y) { return from_ld<T>(to_cld(x) - to_cld(y)); }, rt, at);
  host_binary<T, T>("multiply", in, other, BINARY(a * b), [](const T& x, const T& y) { return from_ld<T>(to_cld(x) * to_cld(y)); }, rt, at);
  host_binary<T, T>("divide", in, other, BINARY(a / b), [](const T& x, const T& y) { return from_ld<T>(to_cld(x) / to_cld(y)); }, rt, at);
  host_binary<T, T>("power", uniform<T>(n, 0.5, 2), uniform<T>(n, -1, 1), BINARY(xf::power(a, b)),
                    [](const T& x, const T& y) { return from_ld<T>(std::pow(to_cld(x), to_cld(y))); }, 64 * eps<T>(), 64 * eps<T>());
  // Equality of complex numbers: both parts. Ties in a third of the places, and some where only
  // one part ties; NaN, infinities and zeros of both signs in either part.
  auto tied = with_ties(in, other);
  for (std::size_t i = 1; i < n; i += 6) tied[i] = T(in[i].real(), other[i].imag());
  for (std::size_t i = 4; i < n; i += 6) tied[i] = T(other[i].real(), in[i].imag());
  const auto cin = with_complex_specials(in), ctied = with_complex_specials(tied);
  host_binary<T, T>("equal", cin, ctied, BINARY(a == b), [](const T& x, const T& y) { return to_cld(x) == to_cld(y); }, 0, 0);
  host_binary<T, T>("not_equal", cin, ctied, BINARY(a != b), [](const T& x, const T& y) { return to_cld(x) != to_cld(y); }, 0, 0);
  // Finite only when both parts are.
  host_unary<T>("isfinite", cin, UNARY(isfinite), [](const T& x) { return std::isfinite(to_ld(x)) && std::isfinite(static_cast<ld>(as_imag(x))); }, 0, 0);
  host_unary<T>("isnan", cin, UNARY(isnan), [](const T& x) { return std::isnan(to_ld(x)) || std::isnan(static_cast<ld>(as_imag(x))); }, 0, 0);
  host_unary<T>("isinf", cin, UNARY(isinf), [](const T& x) { return std::isinf(to_ld(x)) || std::isinf(static_cast<ld>(as_imag(x))); }, 0, 0);
}

namespace {

// Python's integer semantics, computed in 128 bits, then wrapped to T.
template <class T>
T py_floor_div(T a, T b) {
  if (b == 0) return 0;
  const __int128 x = a, y = b;
  __int128 q = x / y;
  if ((x % y != 0) && ((x < 0) != (y < 0))) q -= 1;
  return static_cast<T>(q);
}
template <class T>
T py_mod(T a, T b) {
  if (b == 0) return 0;
  const __int128 x = a, y = b;
  return static_cast<T>(x - y * static_cast<__int128>(py_floor_div<__int128>(x, y)));
}
template <>
__int128 py_floor_div<__int128>(__int128 x, __int128 y) {
  __int128 q = x / y;
  if ((x % y != 0) && ((x < 0) != (y < 0))) q -= 1;
  return q;
}
template <class T>
T wrap_pow(T base, T e) {
  if constexpr (std::is_signed_v<T>) {
    if (e < 0) return base == 1 ? 1 : (base == -1 ? ((e % 2) ? -1 : 1) : 0);
  }
  unsigned __int128 r = 1;
  for (T i = 0; i < e; ++i) r = static_cast<unsigned __int128>(static_cast<std::make_unsigned_t<T>>(r * static_cast<unsigned __int128>(static_cast<std::make_unsigned_t<T>>(base))));
  return static_cast<T>(r);
}

template <class T>
void integer_arithmetic() {
  const auto x = full_range<T>(n), y = full_range<T>(n);
  host_binary<T, T>("add", x, y, BINARY(a + b), [](T a, T b) { return static_cast<T>(static_cast<__int128>(a) + b); }, 0, 0);
  host_binary<T, T>("subtract", x, y, BINARY(a - b), [](T a, T b) { return static_cast<T>(static_cast<__int128>(a) - b); }, 0, 0);
  host_binary<T, T>("multiply", x, y, BINARY(a * b), [](T a, T b) { return static_cast<T>(static_cast<unsigned __int128>(a) * static_cast<unsigned __int128>(b)); }, 0, 0);
  // Small divisors, zero included: x // 0 and x % 0 give 0, as in NumPy.
  const auto d = uniform<T>(n, std::is_signed_v<T> ? -7 : 0, 7);
  host_binary<T, T>("floor_divide", x, d, BINARY(xf::floor_divide(a, b)), [](T a, T b) { return py_floor_div(a, b); }, 0, 0);
  host_binary<T, T>("remainder", x, d, BINARY(a % b), [](T a, T b) { return py_mod(a, b); }, 0, 0);
  host_binary<T, T>("fmod", x, d, BINARY(xf::fmod(a, b)), [](T a, T b) {
    return b == 0 ? T(0) : static_cast<T>(static_cast<__int128>(a) % static_cast<__int128>(b));
  }, 0, 0);
  host_binary<T, T>("divide", x, d, BINARY(a / b), [](T a, T b) { return static_cast<double>(a) / static_cast<double>(b); }, 0, 0);
  host_binary<T, T>("power", uniform<T>(n, std::is_signed_v<T> ? -5 : 0, 5), uniform<T>(n, std::is_signed_v<T> ? -2 : 0, 9),
                    BINARY(xf::power(a, b)), [](T a, T b) { return wrap_pow(a, b); }, 0, 0);
  host_binary<T, T>("maximum", x, y, BINARY(xf::maximum(a, b)), [](T a, T b) { return a > b ? a : b; }, 0, 0);
  host_binary<T, T>("minimum", x, y, BINARY(xf::minimum(a, b)), [](T a, T b) { return a < b ? a : b; }, 0, 0);
  host_binary<T, T>("bitwise_and", x, y, BINARY(a & b), [](T a, T b) { return static_cast<T>(a & b); }, 0, 0);
  host_binary<T, T>("bitwise_or", x, y, BINARY(a | b), [](T a, T b) { return static_cast<T>(a | b); }, 0, 0);
  host_binary<T, T>("bitwise_xor", x, y, BINARY(a ^ b), [](T a, T b) { return static_cast<T>(a ^ b); }, 0, 0);
  // Shift counts past the width (and negative ones) shift everything out, as NumPy does.
  constexpr int bits = 8 * sizeof(T);
  const auto s = uniform<T>(n, std::is_signed_v<T> ? -2 : 0, bits + 2);
  host_binary<T, T>("left_shift", x, s, BINARY(a << b), [](T a, T b) {
    return (b < 0 || b >= bits) ? T(0) : static_cast<T>(static_cast<unsigned __int128>(static_cast<std::make_unsigned_t<T>>(a)) << b);
  }, 0, 0);
  host_binary<T, T>("right_shift", x, s, BINARY(a >> b), [](T a, T b) {
    if (b < 0 || b >= bits) return static_cast<T>(a < 0 ? -1 : 0);
    return static_cast<T>(static_cast<__int128>(a) >> b);
  }, 0, 0);
  host_unary<T>("negative", x, [](const auto& a) { return -a; }, [](T a) { return static_cast<T>(-static_cast<__int128>(a)); }, 0, 0);
  host_unary<T>("invert", x, [](const auto& a) { return ~a; }, [](T a) { return static_cast<T>(~a); }, 0, 0);
  host_unary<T>("abs", x, UNARY(abs), [](T a) { return static_cast<T>(a < 0 ? -static_cast<__int128>(a) : a); }, 0, 0);
  host_unary<T>("sign", x, UNARY(sign), [](T a) { return static_cast<T>((a > 0) - (a < 0)); }, 0, 0);
  host_unary<T>("square", x, UNARY(square), [](T a) { return static_cast<T>(static_cast<unsigned __int128>(a) * static_cast<unsigned __int128>(a)); }, 0, 0);
  host_unary<T>("reciprocal", d, UNARY(reciprocal), [](T a) { return a == 0 ? T(0) : static_cast<T>(1 / static_cast<__int128>(a)); }, 0, 0);
  host_unary<T>("floor", x, UNARY(floor), [](T a) { return a; }, 0, 0);
  host_unary<T>("isnan", x, UNARY(isnan), [](T) { return false; }, 0, 0);
  host_unary<T>("isfinite", x, UNARY(isfinite), [](T) { return true; }, 0, 0);
  // Float functions on integers compute in the smallest float that holds them (sqrt(int8) is float16).
  host_unary<T>("sqrt", uniform<T>(n, 0, 100), UNARY(sqrt), [](T a) {
    return from_ld<xf::float_result_t<T>>(sqrtl(static_cast<ld>(a)));
  }, fn_rtol<xf::float_result_t<T>>(), 0);
}

}  // namespace

TEMPLATE_TEST_CASE("integer arithmetic wraps and follows Python's division", "[elementwise][host]", std::int8_t,
                   std::int16_t, std::int32_t, std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t) {
  integer_arithmetic<TestType>();
}

TEST_CASE("integer edge cases give NumPy's answers", "[elementwise][host]") {
  const auto a = xf::asarray<std::int32_t, xf::host>({INT32_MIN, INT32_MIN, 7, -7, 7, -7, 5});
  const auto b = xf::asarray<std::int32_t, xf::host>({-1, 0, -2, 2, 0, -2, 3});
  CHECK(xf::to_host(xf::eval(xf::floor_divide(a, b))) == std::vector<std::int32_t>{INT32_MIN, 0, -4, -4, 0, 3, 1});
  CHECK(xf::to_host(xf::eval(a % b)) == std::vector<std::int32_t>{0, 0, -1, 1, 0, -1, 2});
  CHECK(xf::to_host(xf::eval(xf::abs(a))) == std::vector<std::int32_t>{INT32_MIN, INT32_MIN, 7, 7, 7, 7, 5});
  const auto e = xf::asarray<std::int32_t, xf::host>({2, 2, 1, -1, 2, 0, 3});
  CHECK(xf::to_host(xf::eval(xf::power(a.astype<std::int64_t>() * 0 + 2, e))) == std::vector<std::int64_t>{4, 4, 2, 0, 4, 1, 8});
}

TEMPLATE_TEST_CASE("float arithmetic matches correctly rounded references", "[elementwise][host]", xf::half,
                   xf::bfloat16, float, double) {
  using T = TestType;
  const auto x = uniform<T>(n, -100, 100), y = uniform<T>(n, -100, 100);
  const auto nz = uniform<T>(n, 0.5, 9);
  const double rt = eps<T>();
  auto ref = [](auto f) { return [f](const T& a, const T& b) { return from_ld<T>(f(to_ld(a), to_ld(b))); }; };
  host_binary<T, T>("add", x, y, BINARY(a + b), ref([](ld a, ld b) { return a + b; }), rt, 0);
  host_binary<T, T>("subtract", x, y, BINARY(a - b), ref([](ld a, ld b) { return a - b; }), rt, 0);
  host_binary<T, T>("multiply", x, y, BINARY(a * b), ref([](ld a, ld b) { return a * b; }), rt, 0);
  host_binary<T, T>("divide", x, nz, BINARY(a / b), ref([](ld a, ld b) { return a / b; }), rt, 0);
  host_binary<T, T>("fmod", x, nz, BINARY(xf::fmod(a, b)), ref([](ld a, ld b) { return fmodl(a, b); }), rt, 0);
  host_binary<T, T>("floor_divide", x, nz, BINARY(xf::floor_divide(a, b)), ref([](ld a, ld b) { return floorl(a / b); }), 0, 1e-300);
  host_binary<T, T>("remainder", x, nz, BINARY(a % b), ref([](ld a, ld b) { return a - b * floorl(a / b); }), 4 * rt, 4 * rt * 10);
  host_binary<T, T>("power", uniform<T>(n, 0.1, 4), uniform<T>(n, -3, 3), BINARY(xf::power(a, b)), ref([](ld a, ld b) { return powl(a, b); }), fn_rtol<T>(8), 0);
  host_binary<T, T>("hypot", x, y, BINARY(xf::hypot(a, b)), ref([](ld a, ld b) { return hypotl(a, b); }), fn_rtol<T>(), 0);
  host_binary<T, T>("arctan2", x, y, BINARY(xf::arctan2(a, b)), ref([](ld a, ld b) { return atan2l(a, b); }), fn_rtol<T>(), fn_rtol<T>());
  host_binary<T, T>("fmax", x, y, BINARY(xf::fmax(a, b)), ref([](ld a, ld b) { return fmaxl(a, b); }), 0, 0);
  host_binary<T, T>("fmin", x, y, BINARY(xf::fmin(a, b)), ref([](ld a, ld b) { return fminl(a, b); }), 0, 0);
  host_binary<T, T>("copysign", x, y, BINARY(xf::copysign(a, b)), ref([](ld a, ld b) { return copysignl(a, b); }), 0, 0);
  host_binary<T, T>("heaviside", x, y, BINARY(xf::heaviside(a, b)), ref([](ld a, ld b) { return a < 0 ? ld(0) : a > 0 ? ld(1) : b; }), 0, 0);
  // NumPy's formula: the larger operand plus a log1p term of at most log(2) (1 for logaddexp2),
  // rounded in the computing type: relative to the result, with an absolute floor of that term's
  // ulps where the two cancel near zero. Operands within a few units of each other make the term
  // matter (maximum(a, b) must fail), the wide ones check that nothing overflows.
  const auto near_x = uniform<T>(n, -6, 6), near_y = uniform<T>(n, -6, 6);
  for (const auto* operands : {&x, &near_x}) {
    const auto& other = operands == &x ? y : near_y;
    host_binary<T, T>("logaddexp", *operands, other, BINARY(xf::logaddexp(a, b)), ref([](ld a, ld b) { return logl(expl(a) + expl(b)); }),
                      fn_rtol<T>(), 2 * eps<T>());
    host_binary<T, T>("logaddexp2", *operands, other, BINARY(xf::logaddexp2(a, b)),
                      ref([](ld a, ld b) { return log2l(exp2l(a) + exp2l(b)); }), fn_rtol<T>(), 2 * eps<T>());
  }
  host_unary<T>("deg2rad", x, UNARY(deg2rad), [](const T& a) { return from_ld<T>(to_ld(a) * 3.14159265358979323846264338327950288L / 180); },
                fn_rtol<T>(), 0);
  host_unary<T>("rad2deg", x, UNARY(rad2deg), [](const T& a) { return from_ld<T>(to_ld(a) * 180 / 3.14159265358979323846264338327950288L); },
                fn_rtol<T>(), 0);
  // Comparisons: operands that tie in a third of the places, and NaN, infinities and both zeros at
  // the same places in both (so NaN == NaN, inf == inf and -0 == 0 all occur).
  const auto cx = with_specials(x), cy = with_specials(with_ties(x, y));
  host_binary<T, T>("less", cx, cy, BINARY(a < b), [](const T& a, const T& b) { return to_ld(a) < to_ld(b); }, 0, 0);
  host_binary<T, T>("less_equal", cx, cy, BINARY(a <= b), [](const T& a, const T& b) { return to_ld(a) <= to_ld(b); }, 0, 0);
  host_binary<T, T>("greater", cx, cy, BINARY(a > b), [](const T& a, const T& b) { return to_ld(a) > to_ld(b); }, 0, 0);
  host_binary<T, T>("greater_equal", cx, cy, BINARY(a >= b), [](const T& a, const T& b) { return to_ld(a) >= to_ld(b); }, 0, 0);
  host_binary<T, T>("equal", cx, cy, BINARY(a == b), [](const T& a, const T& b) { return to_ld(a) == to_ld(b); }, 0, 0);
  host_binary<T, T>("not_equal", cx, cy, BINARY(a != b), [](const T& a, const T& b) { return to_ld(a) != to_ld(b); }, 0, 0);
  host_binary<T, T>("logical_and", x, y, BINARY(a && b), [](const T& a, const T& b) { return to_ld(a) != 0 && to_ld(b) != 0; }, 0, 0);
  host_binary<T, T>("logical_or", x, y, BINARY(a || b), [](const T& a, const T& b) { return to_ld(a) != 0 || to_ld(b) != 0; }, 0, 0);
  host_binary<T, T>("logical_xor", x, y, BINARY(xf::logical_xor(a, b)), [](const T& a, const T& b) { return (to_ld(a) != 0) != (to_ld(b) != 0); }, 0, 0);
  host_unary<T>("logical_not", x, [](const auto& a) { return !a; }, [](const T& a) { return to_ld(a) == 0; }, 0, 0);
}

TEST_CASE("bool arithmetic is logical, as in NumPy", "[elementwise][host]") {
  const auto x = uniform<bool>(n, 0, 1), y = uniform<bool>(n, 0, 1);
  host_binary<bool, bool>("add", x, y, BINARY(a + b), [](bool a, bool b) { return a || b; }, 0, 0);
  host_binary<bool, bool>("multiply", x, y, BINARY(a * b), [](bool a, bool b) { return a && b; }, 0, 0);
  host_binary<bool, bool>("bitwise_xor", x, y, BINARY(a ^ b), [](bool a, bool b) { return a != b; }, 0, 0);
  host_binary<bool, bool>("bitwise_and", x, y, BINARY(a & b), [](bool a, bool b) { return a && b; }, 0, 0);
  host_binary<bool, bool>("divide", x, y, BINARY(a / b), [](bool a, bool b) { return double(a) / double(b); }, 0, 0);
  host_unary<bool>("invert", x, [](const auto& a) { return ~a; }, [](bool a) { return !a; }, 0, 0);
  host_unary<bool>("abs", x, UNARY(abs), [](bool a) { return a; }, 0, 0);
}

TEST_CASE("where and clip", "[elementwise][host]") {
  const auto c = uniform<bool>(n, 0, 1);
  const auto x = uniform<float>(n, -10, 10), y = uniform<float>(n, -10, 10);
  const auto cx = xf::asarray<bool, xf::host>(c);
  const auto ax = xf::asarray<float, xf::host>(x), ay = xf::asarray<float, xf::host>(y);
  std::vector<float> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = c[i] ? x[i] : y[i];
  require_equal(xf::to_host(xf::eval(xf::where(cx, ax, ay))), want, "where");
  for (std::size_t i = 0; i < n; ++i) want[i] = x[i] < -2.5f ? -2.5f : (x[i] > 3.f ? 3.f : x[i]);
  require_equal(xf::to_host(xf::eval(xf::clip(ax, -2.5f, 3.f))), want, "clip");
  // where with a scalar branch keeps the array's type (weak scalar).
  static_assert(std::is_same_v<xf::value_t<decltype(xf::where(cx, ax, 0))>, float>);
  for (std::size_t i = 0; i < n; ++i) want[i] = x[i] > 0 ? x[i] : 0.f;
  require_equal(xf::to_host(xf::eval(xf::where(ax > 0, ax, 0))), want, "relu via where");
}

TEST_CASE("float to integer casts saturate, NaN gives 0", "[elementwise][host][cast]") {
  const auto f = xf::asarray<double, xf::host>({NAN, INFINITY, -INFINITY, 3e9, -3e9, 2.9, -2.9, 127.5, -128.7, 300.0});
  CHECK(xf::to_host(xf::eval(f.astype<std::int32_t>())) ==
        std::vector<std::int32_t>{0, INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN, 2, -2, 127, -128, 300});
  CHECK(xf::to_host(xf::eval(f.astype<std::int8_t>())) ==
        std::vector<std::int8_t>{0, 127, -128, 127, -128, 2, -2, 127, -128, 127});
  CHECK(xf::to_host(xf::eval(f.astype<std::uint8_t>())) ==
        std::vector<std::uint8_t>{0, 255, 0, 255, 0, 2, 0, 127, 0, 255});
  CHECK(xf::to_host(xf::eval(f.astype<std::uint64_t>())) ==
        std::vector<std::uint64_t>{0, UINT64_MAX, 0, 3000000000ull, 0, 2, 0, 127, 0, 300});
  CHECK(xf::to_host(xf::eval(f.astype<bool>())) ==
        std::vector<bool>{true, true, true, true, true, true, true, true, true, true});
  // Integer to integer wraps; complex to real keeps the real part.
  const auto i = xf::asarray<std::int32_t, xf::host>({300, -129, 65535});
  CHECK(xf::to_host(xf::eval(i.astype<std::uint8_t>())) == std::vector<std::uint8_t>{44, 127, 255});
  const auto z = xf::asarray<xf::complex64, xf::host>({xf::complex64(1.5f, -2.f)});
  CHECK(xf::to_host(xf::eval(z.astype<float>())) == std::vector<float>{1.5f});
  const auto h = xf::asarray<xf::half, xf::host>({xf::half(65504.f), xf::half(-1.5f)});
  CHECK(xf::to_host(xf::eval(h.astype<std::int16_t>())) == std::vector<std::int16_t>{32767, -1});
}

TEST_CASE("fused chains evaluate like the step-by-step computation", "[elementwise][host]") {
  const auto x = uniform<float>(n, -3, 3), y = uniform<float>(n, 0.5, 3), z = uniform<float>(n, 0.5, 3);
  const auto ax = xf::asarray<float, xf::host>(x), ay = xf::asarray<float, xf::host>(y), az = xf::asarray<float, xf::host>(z);
  std::vector<float> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = static_cast<float>(std::sin(ld(x[i])) + std::cos(ld(y[i])) / std::sqrt(ld(z[i])));
  require_all_close(xf::to_host(xf::eval(xf::sin(ax) + xf::cos(ay) / xf::sqrt(az))), want, 8 * eps<float>(), 8 * eps<float>(), "sin+cos/sqrt");
  std::vector<double> soft(n);
  const auto xd = uniform<double>(n, -30, 30);
  const auto ad = xf::asarray<double, xf::host>(xd);
  for (std::size_t i = 0; i < n; ++i) soft[i] = static_cast<double>(std::max(ld(0), ld(xd[i])) + log1pl(expl(-fabsl(xd[i]))));
  require_all_close(xf::to_host(xf::eval(xf::maximum(0, ad) + xf::log1p(xf::exp(-xf::abs(ad))))), soft, 8 * eps<double>(), 0, "softplus");
}

TEST_CASE("the kernel's divisions by a run-time constant are exact", "[layout][host]") {
  std::mt19937_64 gen(xf_test::seed());  // the suite's seed (XFUSE_TEST_SEED)
  std::vector<xf::index_t> divisors = {1, 2, 3, 7, 8192, 8191, 1000003, (xf::index_t{1} << 30) + 1,
                                       (xf::index_t{1} << 31) - 1};
  for (int i = 0; i < 200; ++i) divisors.push_back(1 + static_cast<xf::index_t>(gen() % ((std::uint64_t{1} << 31) - 1)));
  for (const xf::index_t d : divisors) {
    const xf::detail::fast_divmod f(d);
    std::vector<std::uint32_t> dividends = {0, 1, static_cast<std::uint32_t>(d - 1), static_cast<std::uint32_t>(d),
                                            0x7fffffffu, 0x7ffffffeu};
    for (int j = 0; j < 500; ++j) dividends.push_back(static_cast<std::uint32_t>(gen() & 0x7fffffffu));
    for (const std::uint32_t n32 : dividends) {
      INFO("n = " << n32 << ", d = " << d);
      REQUIRE(f.div32(n32) == n32 / static_cast<std::uint64_t>(d));
      REQUIRE(f.div(n32) == static_cast<xf::index_t>(n32 / static_cast<std::uint64_t>(d)));
      const auto n64 = static_cast<xf::index_t>(gen() >> 1);
      REQUIRE(f.div(n64) == n64 / d);
    }
  }
}
