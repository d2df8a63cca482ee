// Every binary operation on every element type it takes: device kernel against host evaluator.
#include "../common/device_check.hpp"

using namespace xf_test;

namespace {
constexpr std::size_t n = 100003;
#define BINARY(EXPR) [](const auto& a, const auto& b) { return EXPR; }

template <class T>
void integer_ops() {
  const auto x = full_range<T>(n), y = full_range<T>(n);
  const auto d = uniform<T>(n, std::is_signed_v<T> ? -7 : 0, 7);  // zero divisors included
  const auto s = uniform<T>(n, std::is_signed_v<T> ? -2 : 0, 8 * sizeof(T) + 2);
  const auto e = uniform<T>(n, std::is_signed_v<T> ? -7 : 0, 7);  // ties with d in about one place of 8 (or 15)
  device_matches_host("add", BINARY(a + b), 0, 0, x, y);
  device_matches_host("subtract", BINARY(a - b), 0, 0, x, y);
  device_matches_host("multiply", BINARY(a * b), 0, 0, x, y);
  device_matches_host("divide", BINARY(a / b), 0, 0, x, d);
  device_matches_host("floor_divide", BINARY(xf::floor_divide(a, b)), 0, 0, x, d);
  device_matches_host("remainder", BINARY(a % b), 0, 0, x, d);
  device_matches_host("fmod", BINARY(xf::fmod(a, b)), 0, 0, x, d);
  device_matches_host("power", BINARY(xf::power(a, b)), 0, 0, uniform<T>(n, std::is_signed_v<T> ? -5 : 0, 5),
                      uniform<T>(n, std::is_signed_v<T> ? -2 : 0, 9));
  device_matches_host("maximum", BINARY(xf::maximum(a, b)), 0, 0, x, y);
  device_matches_host("minimum", BINARY(xf::minimum(a, b)), 0, 0, x, y);
  device_matches_host("bitwise_and", BINARY(a & b), 0, 0, x, y);
  device_matches_host("bitwise_or", BINARY(a | b), 0, 0, x, y);
  device_matches_host("bitwise_xor", BINARY(a ^ b), 0, 0, x, y);
  device_matches_host("left_shift", BINARY(a << b), 0, 0, x, s);
  device_matches_host("right_shift", BINARY(a >> b), 0, 0, x, s);
  device_matches_host("less", BINARY(a < b), 0, 0, x, y);
  device_matches_host("less_equal", BINARY(a <= b), 0, 0, x, d);
  device_matches_host("greater", BINARY(a > b), 0, 0, x, y);
  device_matches_host("greater_equal", BINARY(a >= b), 0, 0, d, e);
  device_matches_host("equal", BINARY(a == b), 0, 0, d, e);
  device_matches_host("not_equal", BINARY(a != b), 0, 0, d, y);
  device_matches_host("logical_and", BINARY(a && b), 0, 0, d, y);
  device_matches_host("logical_or", BINARY(a || b), 0, 0, d, e);
  device_matches_host("logical_xor", BINARY(xf::logical_xor(a, b)), 0, 0, d, e);
}

template <class T>
void float_ops() {
  const auto x = uniform<T>(n, -100, 100), y = uniform<T>(n, -100, 100), nz = uniform<T>(n, 0.5, 9);
  const double rt = math_rtol<T>();
  device_matches_host("add", BINARY(a + b), 0, 0, x, y);
  device_matches_host("subtract", BINARY(a - b), 0, 0, x, y);
  device_matches_host("multiply", BINARY(a * b), 0, 0, x, y);
  device_matches_host("divide", BINARY(a / b), 0, 0, x, nz);
  device_matches_host("floor_divide", BINARY(xf::floor_divide(a, b)), 0, 0, x, nz);
  device_matches_host("remainder", BINARY(a % b), 0, 0, x, nz);
  device_matches_host("fmod", BINARY(xf::fmod(a, b)), 0, 0, x, nz);
  device_matches_host("power", BINARY(xf::power(a, b)), rt, 0, uniform<T>(n, 0.1, 4), uniform<T>(n, -3, 3));
  device_matches_host("hypot", BINARY(xf::hypot(a, b)), rt, 0, x, y);
  device_matches_host("arctan2", BINARY(xf::arctan2(a, b)), rt, rt, x, y);
  auto xs = x;
  const double sv[] = {NAN, INFINITY, -INFINITY};
  for (std::size_t i = 0; i < n; i += 5) xs[i] = xf::detail::convert<T>(sv[(i / 5) % 3]);
  device_matches_host("maximum", BINARY(xf::maximum(a, b)), 0, 0, xs, y);
  device_matches_host("minimum", BINARY(xf::minimum(a, b)), 0, 0, y, xs);
  device_matches_host("less", BINARY(a < b), 0, 0, xs, y);
  device_matches_host("less_equal", BINARY(a <= b), 0, 0, xs, y);
  device_matches_host("greater", BINARY(a > b), 0, 0, xs, y);
  device_matches_host("greater_equal", BINARY(a >= b), 0, 0, xs, y);
  auto ys = y;  // ties with xs at every third place, NaN and infinities on both sides included
  for (std::size_t i = 0; i < n; i += 3) ys[i] = xs[i];
  device_matches_host("equal", BINARY(a == b), 0, 0, xs, ys);
  device_matches_host("not_equal", BINARY(a != b), 0, 0, xs, ys);
  device_matches_host("less_equal with ties", BINARY(a <= b), 0, 0, xs, ys);
  device_matches_host("greater_equal with ties", BINARY(a >= b), 0, 0, ys, xs);
  device_matches_host("logical_and", BINARY(a && b), 0, 0, xs, y);
  device_matches_host("logical_or", BINARY(a || b), 0, 0, xs, y);
  device_matches_host("fmax", BINARY(xf::fmax(a, b)), 0, 0, xs, y);
  device_matches_host("fmin", BINARY(xf::fmin(a, b)), 0, 0, y, xs);
  device_matches_host("copysign", BINARY(xf::copysign(a, b)), 0, 0, y, xs);
  device_matches_host("heaviside", BINARY(xf::heaviside(a, b)), 0, 0, xs, y);
  device_matches_host("logaddexp", BINARY(xf::logaddexp(a, b)), rt, rt, xs, y);
  device_matches_host("logaddexp2", BINARY(xf::logaddexp2(a, b)), rt, rt, xs, y);
  device_matches_host("deg2rad", BINARY(xf::deg2rad(a) + 0 * b), 0, 0, xs, y);
  device_matches_host("rad2deg", BINARY(xf::rad2deg(a) + 0 * b), 0, 0, xs, y);
  device_matches_host("signbit", BINARY(xf::signbit(a) && b == b), 0, 0, xs, y);
}

template <class T>
void complex_ops() {
  const auto x = uniform<T>(n, -2, 2), y = uniform<T>(n, -2, 2);
  const double rt = 16 * eps<T>();
  device_matches_host("add", BINARY(a + b), 0, 0, x, y);
  device_matches_host("subtract", BINARY(a - b), 0, 0, x, y);
  device_matches_host("multiply", BINARY(a * b), rt, rt, x, y);
  device_matches_host("divide", BINARY(a / b), rt, rt, x, y);
  device_matches_host("power", BINARY(xf::power(a, b)), 64 * eps<T>(), 64 * eps<T>(), uniform<T>(n, 0.5, 2),
                      uniform<T>(n, -1, 1));
  // Ties of both parts at every third place, of one part at others; NaN in some parts.
  auto xs = x, ys = y;
  using P = xf::real_t<T>;
  for (std::size_t i = 0; i < n; i += 3) ys[i] = xs[i];
  for (std::size_t i = 1; i < n; i += 6) ys[i] = T(xs[i].real(), ys[i].imag());
  for (std::size_t i = 4; i < n; i += 6) ys[i] = T(ys[i].real(), xs[i].imag());
  for (std::size_t i = 0; i < n; i += 7) xs[i] = T(xs[i].real(), P(NAN));
  device_matches_host("equal", BINARY(a == b), 0, 0, xs, ys);
  device_matches_host("not_equal", BINARY(a != b), 0, 0, xs, ys);
}
}  // namespace

TEMPLATE_TEST_CASE("binary integer operations: device matches host", "[gpu][elementwise]", std::int8_t, std::int16_t,
                   std::int32_t, std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t) {
  integer_ops<TestType>();
}

TEMPLATE_TEST_CASE("binary float operations: device matches host", "[gpu][elementwise]", xf::half, xf::bfloat16, float,
                   double) {
  float_ops<TestType>();
}

TEMPLATE_TEST_CASE("binary complex operations: device matches host", "[gpu][elementwise][complex]", xf::complex64,
                   xf::complex128) {
  complex_ops<TestType>();
}

TEST_CASE("binary bool operations: device matches host", "[gpu][elementwise]") {
  const auto x = uniform<bool>(n, 0, 1), y = uniform<bool>(n, 0, 1);
  device_matches_host("add", BINARY(a + b), 0, 0, x, y);
  device_matches_host("multiply", BINARY(a * b), 0, 0, x, y);
  device_matches_host("divide", BINARY(a / b), 0, 0, x, y);
  device_matches_host("bitwise_and", BINARY(a & b), 0, 0, x, y);
  device_matches_host("bitwise_or", BINARY(a | b), 0, 0, x, y);
  device_matches_host("bitwise_xor", BINARY(a ^ b), 0, 0, x, y);
  device_matches_host("equal", BINARY(a == b), 0, 0, x, y);
  device_matches_host("less", BINARY(a < b), 0, 0, x, y);
  device_matches_host("logical_xor", BINARY(xf::logical_xor(a, b)), 0, 0, x, y);
  device_matches_host("maximum", BINARY(xf::maximum(a, b)), 0, 0, x, y);
}

TEST_CASE("mixed element types promote as NumPy does, on the device", "[gpu][elementwise][promotion]") {
  const auto i8 = full_range<std::int8_t>(n);
  const auto u8 = full_range<std::uint8_t>(n);
  const auto i32 = uniform<std::int32_t>(n, -1000000, 1000000);
  const auto u64 = full_range<std::uint64_t>(n);
  const auto i64 = full_range<std::int64_t>(n);
  const auto f16 = uniform<xf::half>(n, -10, 10);
  const auto bf16 = uniform<xf::bfloat16>(n, -10, 10);
  const auto f32 = uniform<float>(n, -10, 10);
  const auto f64 = uniform<double>(n, -10, 10);
  const auto c64 = uniform<xf::complex64>(n, -10, 10);
  device_matches_host("int8 + uint8 -> int16", BINARY(a + b), 0, 0, i8, u8);
  device_matches_host("int64 * uint64 -> float64", BINARY(a * b), 0, 0, i64, u64);
  device_matches_host("int32 / float32 -> float64", BINARY(a / b), 0, 0, i32, f32);
  device_matches_host("int8 - float16 -> float16", BINARY(a - b), 0, 0, i8, f16);
  device_matches_host("float16 + bfloat16 -> float32", BINARY(a + b), 0, 0, f16, bf16);
  device_matches_host("float32 * float64", BINARY(a * b), 0, 0, f32, f64);
  device_matches_host("complex64 * float64 -> complex128", BINARY(a * b), 16 * eps<double>(), 0, c64, f64);
  // The device may contract a * 2.5 + 1 into one fused multiply-add: one rounding instead of two.
  device_matches_host("weak scalars keep float32", [](const auto& a) { return a * 2.5 + 1; }, eps<float>(), eps<float>(), f32);
  device_matches_host("weak float with int array -> float64", [](const auto& a) { return a * 0.5; }, 0, 0, i32);
  device_matches_host("where mixes types", [](const auto& c, const auto& a) { return xf::where(c > 0, a, 1.5); }, 0, 0,
                      i8, f32);
}
