// NumPy 2's exact answers where they are easy to get wrong, shared by the host suite (host arrays)
// and the GPU suite (device arrays, whose results must also equal the host evaluator's):
// comparisons of integers of any two types and with C++ integers outside an array's range, the
// result types of square, reciprocal, rint, conj, angle, hypot and the shifts, the complex square
// root and power at special and exact inputs, and linspace's samples. Expected values are NumPy
// 2.4.6's printed results, pasted; the rest is checked against exact 128-bit integer arithmetic
// and long double on fresh random inputs.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include <xfuse/reduce.hpp>

#include "check.hpp"
#include "random.hpp"

namespace xf_test::numpy_answers {

// ---------------------------------------------------------------- comparing results
// A host array of T, for result types (unevaluated).
template <class T>
const xf::array<T, 1, xf::host>& array_of();

// The distance from `got` to `want` in units in the last place of F at want's magnitude (the
// subnormal spacing at the bottom): 0 for equal values (zeros of the same sign, NaN and NaN),
// infinite for a zero of the wrong sign, a wrong infinity or a NaN against a number.
template <class F, class W>
double ulp_distance(F got_in, W want_in) {
  using L = std::numeric_limits<F>;
  const long double got = static_cast<long double>(got_in), want = static_cast<long double>(want_in);
  constexpr double never = std::numeric_limits<double>::infinity();
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got) ? 0 : never;
  if (std::isinf(want) || std::isinf(got)) return want == got ? 0 : never;
  if (want == 0 && got == 0) return std::signbit(want) == std::signbit(got) ? 0 : never;
  int e = L::min_exponent;
  if (want != 0) std::frexp(want, &e);
  return static_cast<double>(std::fabs(got - want) / std::ldexp(1.0L, std::max(e, L::min_exponent) - L::digits));
}

// Equal values (bit for bit but for NaN payloads), or within `ulps` for float types.
template <class T>
bool same_value(const T& got, const T& want, double ulps = 0) {
  if constexpr (xf::is_complex<T>) return same_value(got.real(), want.real(), ulps) && same_value(got.imag(), want.imag(), ulps);
  else if constexpr (xf::is_low_precision<T>) return ulp_distance<float>(as_real(got), as_real(want)) <= ulps;
  else if constexpr (std::is_floating_point_v<T>) return ulp_distance(got, want) <= ulps;
  else return got == want;
}

// Evaluates make(arrays...) on arrays in Space and returns the values on the host. On the device
// the expression also runs on host arrays, and the two results must agree within `ulps`.
template <class Space, class Make, class... T>
auto evaluate(const std::string& what, double ulps, Make make, const std::vector<T>&... in) {
  using R = xf::value_t<decltype(make(array_of<T>()...))>;
  const auto got = xf::to_host(xf::eval(make(xf::asarray<T, Space>(in)...)));
  if constexpr (std::is_same_v<Space, xf::device>) {
    const auto host = xf::to_host(xf::eval(make(xf::asarray<T, xf::host>(in)...)));
    REQUIRE(got.size() == host.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      INFO(what << ": element " << i << " is " << show<R>(got[i]) << " on the device, " << show<R>(host[i]) << " on the host");
      REQUIRE(same_value<R>(got[i], host[i], ulps));
    }
  }
  return got;
}

template <class R, class Got>
void require_values(const Got& got, const std::vector<R>& want, const std::string& what, double ulps = 0) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO(what << ": element " << i << " is " << show<R>(got[i]) << ", NumPy gives " << show<R>(want[i]));
    CHECK(same_value<R>(got[i], want[i], ulps));
  }
}

// ---------------------------------------------------------------- integer comparisons
// All six comparisons of a and b as one value: bit k is ==, !=, <, <=, >, >= for k = 0..5.
inline constexpr auto comparison_bits = [](const auto& a, const auto& b) {
  using U = std::uint8_t;
  return (a == b).template astype<U>() | ((a != b).template astype<U>() << 1) | ((a < b).template astype<U>() << 2) |
         ((a <= b).template astype<U>() << 3) | ((a > b).template astype<U>() << 4) | ((a >= b).template astype<U>() << 5);
};
// == and < only, for the sweep over every pair of types (the other four are the same two tests
// with the operands swapped or negated; comparison_bits checks their wiring).
inline constexpr auto equal_less_bits = [](const auto& a, const auto& b) {
  using U = std::uint8_t;
  return (a == b).template astype<U>() | ((a < b).template astype<U>() << 2);
};
inline std::uint8_t exact_bits(__int128 a, __int128 b) {
  return static_cast<std::uint8_t>((a == b) | (a != b) << 1 | (a < b) << 2 | (a <= b) << 3 | (a > b) << 4 | (a >= b) << 5);
}
// NumPy's six answers (==, !=, <, <=, >, >=), one list per comparison, packed like comparison_bits.
inline std::vector<std::uint8_t> numpy_bits(const std::vector<std::vector<bool>>& per_op) {
  std::vector<std::uint8_t> bits(per_op[0].size(), 0);
  for (std::size_t k = 0; k < per_op.size(); ++k)
    for (std::size_t i = 0; i < bits.size(); ++i) bits[i] = static_cast<std::uint8_t>(bits[i] | (per_op[k][i] << k));
  return bits;
}

// The values where comparisons through a wider or a float type go wrong: the ends of the range,
// around zero, and for 64-bit types around 2^53 and 2^63.
template <class T>
std::vector<T> boundary_values() {
  if constexpr (xf::is_bool<T>) {
    return {false, true};
  } else {
    using L = std::numeric_limits<T>;
    std::vector<__int128> v = {L::min(), __int128(L::min()) + 1, -2, -1, 0, 1, 2, __int128(L::max()) - 1, L::max()};
    if constexpr (sizeof(T) == 8) {
      for (const __int128 p : {__int128(1) << 53, __int128(1) << 63}) v.insert(v.end(), {p - 1, p, p + 1, -p - 1, -p, -p + 1});
    }
    std::vector<T> out;
    for (const __int128 x : v)
      if (x >= L::min() && x <= L::max() && std::find(out.begin(), out.end(), static_cast<T>(x)) == out.end())
        out.push_back(static_cast<T>(x));
    return out;
  }
}

// Every pair of boundary values of A and B, and random ones, against 128-bit comparisons.
template <class Space, class A, class B, bool All = true>
void compare_pair() {
  const auto va = boundary_values<A>();
  const auto vb = boundary_values<B>();
  std::vector<A> x;
  std::vector<B> y;
  for (const A a : va)
    for (const B b : vb) x.push_back(a), y.push_back(b);
  const auto ra = full_range<A>(257);
  const auto rb = full_range<B>(257);
  x.insert(x.end(), ra.begin(), ra.end());
  y.insert(y.end(), rb.begin(), rb.end());
  const std::string what = std::string("comparisons of ") + xf::dtype_name<A> + " with " + xf::dtype_name<B>;
  const auto got = [&] {
    if constexpr (All) return evaluate<Space>(what, 0, comparison_bits, x, y);
    else return evaluate<Space>(what, 0, equal_less_bits, x, y);
  }();
  std::vector<std::uint8_t> want(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    want[i] = exact_bits(static_cast<__int128>(x[i]), static_cast<__int128>(y[i])) & (All ? 0x3f : 0x05);
  require_values(got, want, what);
}
template <class Space, class A, class... B>
void compare_with_each() {
  (compare_pair<Space, A, B, false>(), ...);
}
template <class Space, class... T>
void compare_each_pair() {
  (compare_with_each<Space, T, T...>(), ...);
}

// int64 against uint64, as arrays and as 0-d arrays, and every ordered pair of integer types (and
// bool) for == and <; the GPU suite runs all six on the pairs that mix signs and widths (each
// pair is one more kernel).
template <class Space>
void integer_comparisons_are_exact(bool every_pair) {
  // NumPy 2.4.6:
  //   a = np.array([2**63-1, -1, 0, -2**63, 5], np.int64); b = np.array([2**63, 2**64-1, 0, 0, 5], np.uint64)
  //   [getattr(np, op)(a, b).tolist() for op in ['equal', 'not_equal', 'less', 'less_equal', 'greater', 'greater_equal']]
  //   [[False, False, True, False, True], [True, True, False, True, False], [True, True, False, True, False],
  //    [True, True, True, True, True], [False, False, False, False, False], [False, False, True, False, True]]
  //   (a + b).dtype: float64, where 2**63 - 1 and 2**63 are the same number.
  const std::vector<std::int64_t> a = {INT64_MAX, -1, 0, INT64_MIN, 5};
  const std::vector<std::uint64_t> b = {std::uint64_t{1} << 63, UINT64_MAX, 0, 0, 5};
  const auto ab = numpy_bits({{false, false, true, false, true}, {true, true, false, true, false}, {true, true, false, true, false},
                              {true, true, true, true, true}, {false, false, false, false, false}, {false, false, true, false, true}});
  require_values(evaluate<Space>("int64 op uint64", 0, comparison_bits, a, b), ab, "int64 op uint64");
  //   [getattr(np, op)(b, a).tolist() for op in ...]: greater and less swap
  const auto ba = numpy_bits({{false, false, true, false, true}, {true, true, false, true, false}, {false, false, false, false, false},
                              {false, false, true, false, true}, {true, true, false, true, false}, {true, true, true, true, true}});
  require_values(evaluate<Space>("uint64 op int64", 0, comparison_bits, b, a), ba, "uint64 op int64");

  // Strong scalars (0-d arrays): np.int64(-1) < np.uint64(2**64-1) is True,
  // np.uint64(2**63) > np.int64(2**63-1) is True; [getattr(np, op)(a, np.array(2**63, np.uint64)) ...]
  // is [[False]*5, [True]*5, [True]*5, [True]*5, [False]*5, [False]*5], and
  // [getattr(np, op)(b, np.array(-1, np.int64)) ...] is [[False]*5, [True]*5, [False]*5, [False]*5, [True]*5, [True]*5].
  const auto below = numpy_bits({{false}, {true}, {true}, {true}, {false}, {false}})[0];
  const auto above = numpy_bits({{false}, {true}, {false}, {false}, {true}, {true}})[0];
  const auto with_scalar = [](auto value) {  // x op a 0-d array of x's space
    return [value](const auto& x) {
      const xf::array<decltype(value), 0, xf::space_t<decltype(x)>> s = xf::full(std::array<xf::index_t, 0>{}, value);
      return comparison_bits(x, s);
    };
  };
  require_values(evaluate<Space>("int64 array op uint64 0-d array", 0, with_scalar(std::uint64_t{1} << 63), a),
                 std::vector<std::uint8_t>(5, below), "int64 array op uint64 0-d array");
  require_values(evaluate<Space>("uint64 array op int64 0-d array", 0, with_scalar(std::int64_t{-1}), b),
                 std::vector<std::uint8_t>(5, above), "uint64 array op int64 0-d array");
  // Two 0-d values (np.int64(-1) against np.uint64(2**64-1)), the second a constant of the expression.
  const xf::array<std::int64_t, 0, Space> minus_one = xf::full(std::array<xf::index_t, 0>{}, std::int64_t{-1});
  const xf::array<std::uint8_t, 0, Space> s = comparison_bits(minus_one, xf::full(std::array<xf::index_t, 0>{}, UINT64_MAX));
  CHECK(s.item() == below);

  if (every_pair) {
    compare_each_pair<Space, bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t, std::uint16_t,
                      std::uint32_t, std::uint64_t>();
  } else {
    compare_pair<Space, std::int64_t, std::uint64_t>();
    compare_pair<Space, std::uint64_t, std::int64_t>();
    compare_pair<Space, std::int8_t, std::uint64_t>();
    compare_pair<Space, std::uint64_t, std::int32_t>();
    compare_pair<Space, std::uint32_t, std::int32_t>();
    compare_pair<Space, std::int16_t, std::uint8_t>();
    compare_pair<Space, bool, std::int64_t>();
    compare_pair<Space, std::uint64_t, bool>();
  }
}

// ---------------------------------------------------------------- C++ scalars in comparisons
template <class Space, class T, class S>
void require_scalar_bits(const std::vector<T>& x, S scalar, const std::vector<std::vector<bool>>& numpy_per_op,
                         const std::vector<bool>& numpy_scalar_less, const std::string& what) {
  require_values(evaluate<Space>(what, 0, [scalar](const auto& a) { return comparison_bits(a, scalar); }, x), numpy_bits(numpy_per_op), what);
  // The scalar on the left: scalar < a.
  require_values(evaluate<Space>(what + " (scalar first)", 0, [scalar](const auto& a) { return scalar < a; }, x), numpy_scalar_less,
                 what + " (scalar first)");
}

// A C++ integer compares exactly with an integer array whatever its value (NumPy 2: Python
// integers out of the array's range compare exactly); arithmetic with it still throws, as NumPy
// raises OverflowError. A C++ float meets an integer array as float64.
template <class Space>
void scalar_comparisons_follow_numpy() {
  using V = std::vector<bool>;
  const V none(5, false), all(5, true);
  // NumPy 2.4.6, each call holding [getattr(np, op)(x, v).tolist() for op in ['equal', 'not_equal',
  // 'less', 'less_equal', 'greater', 'greater_equal']] and then np.less(v, x).tolist():
  // i8 = np.array([-128, -1, 0, 1, 127], np.int8)
  const std::vector<std::int8_t> i8 = {-128, -1, 0, 1, 127};
  require_scalar_bits<Space>(i8, 300, {none, all, all, all, none, none}, none, "int8 op 300");
  require_scalar_bits<Space>(i8, -129, {none, all, none, none, all, all}, all, "int8 op -129");
  require_scalar_bits<Space>(i8, 128, {none, all, all, all, none, none}, none, "int8 op 128");
  require_scalar_bits<Space>(i8, -128,
                             {{true, false, false, false, false}, {false, true, true, true, true}, none,
                              {true, false, false, false, false}, {false, true, true, true, true}, all},
                             {false, true, true, true, true}, "int8 op -128");
  // u8 = np.array([0, 1, 127, 128, 255], np.uint8): u8 > -1 is all True, u8 == 256 all False
  const std::vector<std::uint8_t> u8 = {0, 1, 127, 128, 255};
  require_scalar_bits<Space>(u8, -1, {none, all, none, none, all, all}, all, "uint8 op -1");
  require_scalar_bits<Space>(u8, 256, {none, all, all, all, none, none}, none, "uint8 op 256");
  require_scalar_bits<Space>(u8, -300, {none, all, none, none, all, all}, all, "uint8 op -300");
  require_scalar_bits<Space>(u8, 255,
                             {{false, false, false, false, true}, {true, true, true, true, false}, {true, true, true, true, false},
                              all, none, {false, false, false, false, true}},
                             none, "uint8 op 255");
  // u64 = np.array([0, 1, 2**63, 2**64-1], np.uint64); i64 = np.array([-2**63, -1, 0, 2**63-1], np.int64)
  const std::vector<std::uint64_t> u64 = {0, 1, std::uint64_t{1} << 63, UINT64_MAX};
  const std::vector<std::int64_t> i64 = {INT64_MIN, -1, 0, INT64_MAX};
  const V none4(4, false), all4(4, true);
  require_scalar_bits<Space>(u64, -1, {none4, all4, none4, none4, all4, all4}, all4, "uint64 op -1");
  require_scalar_bits<Space>(u64, std::uint64_t{1} << 63,
                             {{false, false, true, false}, {true, true, false, true}, {true, true, false, false},
                              {true, true, true, false}, {false, false, false, true}, {false, false, true, true}},
                             {false, false, false, true}, "uint64 op 2**63");
  require_scalar_bits<Space>(u64, 18446744073709551615ull,
                             {{false, false, false, true}, {true, true, true, false}, {true, true, true, false}, all4, none4,
                              {false, false, false, true}},
                             none4, "uint64 op 2**64-1 (unsigned long long)");
  require_scalar_bits<Space>(i64, 9223372036854775808ull, {none4, all4, all4, all4, none4, none4}, none4, "int64 op 2**63");
  require_scalar_bits<Space>(i64, 18446744073709551615ull, {none4, all4, all4, all4, none4, none4}, none4, "int64 op 2**64-1");
  // b = np.array([True, False]): b < 2, b == 300, b > -1, b == 1.0, b < 0.5
  const std::vector<bool> b = {true, false};
  require_values(evaluate<Space>("bool < 2", 0, [](const auto& x) { return x < 2; }, b), std::vector<bool>{true, true}, "bool < 2");
  require_values(evaluate<Space>("bool == 300", 0, [](const auto& x) { return x == 300; }, b), std::vector<bool>{false, false}, "bool == 300");
  require_values(evaluate<Space>("bool > -1", 0, [](const auto& x) { return x > -1; }, b), std::vector<bool>{true, true}, "bool > -1");
  require_values(evaluate<Space>("bool == 1.0", 0, [](const auto& x) { return x == 1.0; }, b), std::vector<bool>{true, false}, "bool == 1.0");
  require_values(evaluate<Space>("bool < 0.5", 0, [](const auto& x) { return x < 0.5; }, b), std::vector<bool>{false, true}, "bool < 0.5");

  // Arithmetic with an integer the array's type cannot hold raises (NumPy: OverflowError: Python
  // integer 300 out of bounds for int8), on host and device arrays alike.
  const auto ai8 = xf::asarray<std::int8_t, Space>(i8);
  const auto au8 = xf::asarray<std::uint8_t, Space>(u8);
  CHECK_THROWS_WITH(ai8 + 300, XF_CONTAINS("the scalar 300 is out of bounds for int8"));
  CHECK_THROWS_WITH(au8 * -1, XF_CONTAINS("the scalar -1 is out of bounds for uint8"));
  CHECK_THROWS_AS(xf::maximum(au8, 256), xf::dtype_error);
  CHECK_NOTHROW(au8 + 255);

  // C++ integer types that are not element types keep the array's type as any integer does
  // (u8 + 1 is uint8 in NumPy); a float scalar with an integer array is float64.
  static_assert(std::is_same_v<xf::value_t<decltype(au8 + 1LL)>, std::uint8_t>);
  static_assert(std::is_same_v<xf::value_t<decltype(au8 + 1ull)>, std::uint8_t>);
  static_assert(std::is_same_v<xf::value_t<decltype(ai8 * 2.5)>, double>);
  static_assert(std::is_same_v<xf::value_t<decltype(xf::where(ai8 > 0, 1LL, 2LL))>, std::int64_t>);
  // i8 < 2.5, i8 <= -1.0, i8 == 1.0 (float64: exact for int8)
  require_values(evaluate<Space>("int8 < 2.5", 0, [](const auto& x) { return x < 2.5; }, i8),
                 std::vector<bool>{true, true, true, true, false}, "int8 < 2.5");
  require_values(evaluate<Space>("int8 <= -1.0", 0, [](const auto& x) { return x <= -1.0; }, i8),
                 std::vector<bool>{true, true, false, false, false}, "int8 <= -1.0");
  require_values(evaluate<Space>("uint8 > 127.5", 0, [](const auto& x) { return x > 127.5; }, u8),
                 std::vector<bool>{false, false, false, true, true}, "uint8 > 127.5");
  // big = np.array([2**53+1, 2**63-1], np.int64): big > 9007199254740992.0 is [False, True] and
  // big == 9223372036854775808.0 is [False, True]: NumPy compares in float64 here, so does xfuse.
  const std::vector<std::int64_t> big = {(std::int64_t{1} << 53) + 1, INT64_MAX};
  require_values(evaluate<Space>("int64 > 2.0**53", 0, [](const auto& x) { return x > 9007199254740992.0; }, big),
                 std::vector<bool>{false, true}, "int64 > 2.0**53");
  require_values(evaluate<Space>("int64 == 2.0**63", 0, [](const auto& x) { return x == 9223372036854775808.0; }, big),
                 std::vector<bool>{false, true}, "int64 == 2.0**63");
  // f32 = np.array([16777216], np.float32): f32 < 16777217 is [False], f32 == 16777217 is [True]
  // (the integer becomes float32).
  const std::vector<float> f32 = {16777216.0f};
  require_values(evaluate<Space>("float32 < 16777217", 0, [](const auto& x) { return x < 16777217; }, f32), std::vector<bool>{false},
                 "float32 < 16777217");
  require_values(evaluate<Space>("float32 == 16777217", 0, [](const auto& x) { return x == 16777217; }, f32), std::vector<bool>{true},
                 "float32 == 16777217");
}

// ---------------------------------------------------------------- result types
// NumPy 2.4.6: (np.array([1], np.int64) + np.array([1], np.uint64)).dtype is float64 (only
// comparisons of the two are exact); floor, ceil and trunc keep integer and bool types;
// np.hypot(np.array([True, False]), 2) is float64, with an int8 array and 4 float16, with 4.0
// float64; np.sqrt(np.array([3], np.int8)) is float16.
static_assert(std::is_same_v<xf::value_t<decltype(array_of<std::int64_t>() + array_of<std::uint64_t>())>, double>);
static_assert(std::is_same_v<xf::value_t<decltype(xf::floor(array_of<std::int32_t>()))>, std::int32_t>);
static_assert(std::is_same_v<xf::value_t<decltype(xf::trunc(array_of<bool>()))>, bool>);
static_assert(std::is_same_v<xf::value_t<decltype(xf::hypot(array_of<bool>(), 2))>, double>);
static_assert(std::is_same_v<xf::value_t<decltype(xf::hypot(array_of<std::int8_t>(), 4))>, xf::half>);
static_assert(std::is_same_v<xf::value_t<decltype(xf::hypot(array_of<std::int8_t>(), 4.0))>, double>);
static_assert(std::is_same_v<xf::value_t<decltype(xf::sqrt(array_of<std::int8_t>()))>, xf::half>);

template <class Space>
void result_types_follow_numpy() {
  // NumPy 2.4.6: np.square(np.array([True, False])) is array([1, 0], dtype=int8)
  const std::vector<bool> tf = {true, false};
  const auto sq = evaluate<Space>("square(bool)", 0, [](const auto& x) { return xf::square(x); }, tf);
  static_assert(std::is_same_v<typename decltype(sq)::value_type, std::int8_t>);
  require_values(sq, std::vector<std::int8_t>{1, 0}, "square(bool)");
  // np.reciprocal(np.array([True, False])) is array([1, 0], dtype=int8)
  const auto rc = evaluate<Space>("reciprocal(bool)", 0, [](const auto& x) { return xf::reciprocal(x); }, tf);
  static_assert(std::is_same_v<typename decltype(rc)::value_type, std::int8_t>);
  require_values(rc, std::vector<std::int8_t>{1, 0}, "reciprocal(bool)");
  // np.conj(np.array([True, False])) is array([1, 0], dtype=int8)
  const auto cj = evaluate<Space>("conj(bool)", 0, [](const auto& x) { return xf::conj(x); }, tf);
  static_assert(std::is_same_v<typename decltype(cj)::value_type, std::int8_t>);
  require_values(cj, std::vector<std::int8_t>{1, 0}, "conj(bool)");
  // np.angle(np.array([True, False])) is float64 [0., 0.]; np.angle(np.array([-1, 1], np.int8)) is float16 [3.14, 0.]
  const auto ab = evaluate<Space>("angle(bool)", 0, [](const auto& x) { return xf::angle(x); }, tf);
  static_assert(std::is_same_v<typename decltype(ab)::value_type, double>);
  require_values(ab, std::vector<double>{0.0, 0.0}, "angle(bool)");
  const auto a8 = evaluate<Space>("angle(int8)", 0, [](const auto& x) { return xf::angle(x); }, std::vector<std::int8_t>{-1, 1});
  static_assert(std::is_same_v<typename decltype(a8)::value_type, xf::half>);
  require_values(a8, std::vector<xf::half>{xf::half(3.140625f), xf::half(0.0f)}, "angle(int8)");

  // rint of integers is a float function: np.rint(np.array([-128, -1, 0, 127], np.int8)) is float16
  // [-128., -1., 0., 127.]; int16 gives float32, int32 and wider float64, bool float16.
  const auto r8 = evaluate<Space>("rint(int8)", 0, [](const auto& x) { return xf::rint(x); }, std::vector<std::int8_t>{-128, -1, 0, 127});
  static_assert(std::is_same_v<typename decltype(r8)::value_type, xf::half>);
  require_values(r8, std::vector<xf::half>{xf::half(-128.0f), xf::half(-1.0f), xf::half(0.0f), xf::half(127.0f)}, "rint(int8)");
  const auto r16 = evaluate<Space>("rint(int16)", 0, [](const auto& x) { return xf::rint(x); }, std::vector<std::int16_t>{-32768, 32767});
  static_assert(std::is_same_v<typename decltype(r16)::value_type, float>);
  require_values(r16, std::vector<float>{-32768.0f, 32767.0f}, "rint(int16)");
  // np.rint(np.array([9007199254740993, -2**63], np.int64)) is [9007199254740992.0, -9.223372036854776e+18]
  const auto r64 = evaluate<Space>("rint(int64)", 0, [](const auto& x) { return xf::rint(x); },
                                   std::vector<std::int64_t>{9007199254740993, INT64_MIN});
  static_assert(std::is_same_v<typename decltype(r64)::value_type, double>);
  require_values(r64, std::vector<double>{9007199254740992.0, -9.223372036854776e+18}, "rint(int64)");
  const auto ru32 = evaluate<Space>("rint(uint32)", 0, [](const auto& x) { return xf::rint(x); }, std::vector<std::uint32_t>{4294967295u});
  static_assert(std::is_same_v<typename decltype(ru32)::value_type, double>);
  require_values(ru32, std::vector<double>{4294967295.0}, "rint(uint32)");
  const auto rb = evaluate<Space>("rint(bool)", 0, [](const auto& x) { return xf::rint(x); }, tf);
  static_assert(std::is_same_v<typename decltype(rb)::value_type, xf::half>);
  require_values(rb, std::vector<xf::half>{xf::half(1.0f), xf::half(0.0f)}, "rint(bool)");

  // Float functions of two integers use the smallest float that holds both:
  // np.hypot(np.array([3, -5], np.int8), np.array([4, 12], np.uint8)) is float16 [5., 13.] (their
  // promoted int16 would be float32); int16 with uint16 is float32; np.hypot(bool_array, 2) float64.
  const std::vector<std::int8_t> h8 = {3, -5};
  const std::vector<std::uint8_t> hu8 = {4, 12};
  const auto hy = evaluate<Space>("hypot(int8, uint8)", 0, [](const auto& x, const auto& y) { return xf::hypot(x, y); }, h8, hu8);
  static_assert(std::is_same_v<typename decltype(hy)::value_type, xf::half>);
  require_values(hy, std::vector<xf::half>{xf::half(5.0f), xf::half(13.0f)}, "hypot(int8, uint8)");
  const auto hy16 = evaluate<Space>("hypot(int16, uint16)", 0, [](const auto& x, const auto& y) { return xf::hypot(x, y); },
                                    std::vector<std::int16_t>{3, -5}, std::vector<std::uint16_t>{4, 12});
  static_assert(std::is_same_v<typename decltype(hy16)::value_type, float>);
  require_values(hy16, std::vector<float>{5.0f, 13.0f}, "hypot(int16, uint16)");
  // np.arctan2(np.array([1], np.int8), np.array([1], np.uint8)) is float16 0.78515625
  const auto at = evaluate<Space>("arctan2(int8, uint8)", 0, [](const auto& x, const auto& y) { return xf::arctan2(x, y); },
                                  std::vector<std::int8_t>{1}, std::vector<std::uint8_t>{1});
  static_assert(std::is_same_v<typename decltype(at)::value_type, xf::half>);
  require_values(at, std::vector<xf::half>{xf::half(0.78515625f)}, "arctan2(int8, uint8)");

  // np.left_shift(np.array([True, True]), np.array([True, False])) is int8 [2, 1]; right_shift gives [0, 1]
  const std::vector<bool> tt = {true, true};
  const auto ls = evaluate<Space>("left_shift(bool, bool)", 0, [](const auto& x, const auto& y) { return x << y; }, tt, tf);
  static_assert(std::is_same_v<typename decltype(ls)::value_type, std::int8_t>);
  require_values(ls, std::vector<std::int8_t>{2, 1}, "left_shift(bool, bool)");
  const auto rs = evaluate<Space>("right_shift(bool, bool)", 0, [](const auto& x, const auto& y) { return x >> y; }, tt, tf);
  require_values(rs, std::vector<std::int8_t>{0, 1}, "right_shift(bool, bool)");
}

// ---------------------------------------------------------------- fmax, fmin, copysign, heaviside, logaddexp, ...
// NumPy 2.4.6's printed results at NaN, infinities and signed zeros, NumPy's result types for
// integer operands, and long double references on fresh random inputs.
template <class Space>
void float_helpers_match_numpy() {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  // a = np.array([1.5, nan, -2.0, nan, -inf, 0.0, 3.0], np.float32); b = [nan, 2.5, -3.0, nan, 1.0, -0.0, inf]
  const std::vector<float> a = {1.5f, nan, -2.0f, nan, -inf, 0.0f, 3.0f}, b = {nan, 2.5f, -3.0f, nan, 1.0f, -0.0f, inf};
  // np.fmax(a, b): [1.5, 2.5, -2.0, nan, 1.0, -0.0, inf]; np.fmin(a, b): [1.5, 2.5, -3.0, nan, -inf, -0.0, 3.0]
  require_values(evaluate<Space>("fmax", 0, [](const auto& x, const auto& y) { return xf::fmax(x, y); }, a, b),
                 std::vector<float>{1.5f, 2.5f, -2.0f, nan, 1.0f, -0.0f, inf}, "fmax");
  require_values(evaluate<Space>("fmin", 0, [](const auto& x, const auto& y) { return xf::fmin(x, y); }, a, b),
                 std::vector<float>{1.5f, 2.5f, -3.0f, nan, -inf, -0.0f, 3.0f}, "fmin");
  // np.copysign(a, b): [1.5, nan, -2.0, nan, inf, -0.0, 3.0]
  require_values(evaluate<Space>("copysign", 0, [](const auto& x, const auto& y) { return xf::copysign(x, y); }, a, b),
                 std::vector<float>{1.5f, nan, -2.0f, nan, inf, -0.0f, 3.0f}, "copysign");
  // x = np.array([-1.5, 0.0, -0.0, 2.0, nan, -inf, inf]); np.heaviside(x, 0.5): [0.0, 0.5, 0.5, 1.0, nan, 0.0, 1.0]
  const double dnan = std::numeric_limits<double>::quiet_NaN(), dinf = std::numeric_limits<double>::infinity();
  const std::vector<double> x = {-1.5, 0.0, -0.0, 2.0, dnan, -dinf, dinf};
  require_values(evaluate<Space>("heaviside", 0, [](const auto& v) { return xf::heaviside(v, 0.5); }, x),
                 std::vector<double>{0.0, 0.5, 0.5, 1.0, dnan, 0.0, 1.0}, "heaviside");
  // np.signbit(x): [True, False, True, False, False, True, False]; np.signbit(np.array([-nan], np.float32)): [True]
  require_values(evaluate<Space>("signbit", 0, [](const auto& v) { return xf::signbit(v); }, x),
                 std::vector<bool>{true, false, true, false, false, true, false}, "signbit");
  require_values(evaluate<Space>("signbit(-nan)", 0, [](const auto& v) { return xf::signbit(v); }, std::vector<float>{-nan}),
                 std::vector<bool>{true}, "signbit(-nan)");
  // p = [0.0, 1.0, -inf, inf, 1000.0, -1000.0, nan]; q = [0.0, 2.0, -inf, inf, 1.0, -999.0, 1.0]
  // np.logaddexp(p, q): [0.6931471805599453, 2.313261687518223, -inf, inf, 1000.0, -998.6867383124818, nan]
  // np.logaddexp2(p, q): [1.0, 2.584962500721156, -inf, inf, 1000.0, -998.4150374992788, nan]
  const std::vector<double> p = {0.0, 1.0, -dinf, dinf, 1000.0, -1000.0, dnan}, q = {0.0, 2.0, -dinf, dinf, 1.0, -999.0, 1.0};
  require_values(evaluate<Space>("logaddexp", 1, [](const auto& u, const auto& v) { return xf::logaddexp(u, v); }, p, q),
                 std::vector<double>{0.6931471805599453, 2.313261687518223, -dinf, dinf, 1000.0, -998.6867383124818, dnan}, "logaddexp", 1);
  require_values(evaluate<Space>("logaddexp2", 1, [](const auto& u, const auto& v) { return xf::logaddexp2(u, v); }, p, q),
                 std::vector<double>{1.0, 2.584962500721156, -dinf, dinf, 1000.0, -998.4150374992788, dnan}, "logaddexp2", 1);
  // np.deg2rad(np.array([180.0, 90.0, -45.0], np.float32)): [3.1415927410125732, 1.5707963705062866, -0.7853981852531433]
  // np.rad2deg(np.array([np.pi, 1.0])): [180.0, 57.29577951308232]
  require_values(evaluate<Space>("deg2rad", 0, [](const auto& v) { return xf::deg2rad(v); }, std::vector<float>{180.0f, 90.0f, -45.0f}),
                 std::vector<float>{3.1415927410125732f, 1.5707963705062866f, -0.7853981852531433f}, "deg2rad");
  require_values(evaluate<Space>("rad2deg", 0, [](const auto& v) { return xf::degrees(v); }, std::vector<double>{3.141592653589793, 1.0}),
                 std::vector<double>{180.0, 57.29577951308232}, "rad2deg");

  // Result types: np.fmax(int8, uint8) is int16 (np.fmax([-1], [200]) is [200]); copysign,
  // heaviside, logaddexp, logaddexp2 of int8 and uint8 float16, of int32 float64; deg2rad(int8)
  // float16, deg2rad(int32) float64; signbit(int64 -3) True, signbit(uint8 3) False.
  const auto fm = evaluate<Space>("fmax(int8, uint8)", 0, [](const auto& u, const auto& v) { return xf::fmax(u, v); },
                                  std::vector<std::int8_t>{-1}, std::vector<std::uint8_t>{200});
  static_assert(std::is_same_v<typename decltype(fm)::value_type, std::int16_t>);
  require_values(fm, std::vector<std::int16_t>{200}, "fmax(int8, uint8)");
  const auto cs = evaluate<Space>("copysign(int8, uint8)", 0, [](const auto& u, const auto& v) { return xf::copysign(u, v); },
                                  std::vector<std::int8_t>{-3}, std::vector<std::uint8_t>{1});
  static_assert(std::is_same_v<typename decltype(cs)::value_type, xf::half>);
  require_values(cs, std::vector<xf::half>{xf::half(3.0f)}, "copysign(int8, uint8)");
  const auto la = evaluate<Space>("logaddexp(int32, int32)", 0, [](const auto& u, const auto& v) { return xf::logaddexp(u, v); },
                                  std::vector<std::int32_t>{0}, std::vector<std::int32_t>{0});
  static_assert(std::is_same_v<typename decltype(la)::value_type, double>);
  require_values(la, std::vector<double>{0.6931471805599453}, "logaddexp(int32, int32)");
  static_assert(std::is_same_v<xf::value_t<decltype(xf::heaviside(array_of<std::int8_t>(), array_of<std::uint8_t>()))>, xf::half>);
  static_assert(std::is_same_v<xf::value_t<decltype(xf::logaddexp2(array_of<std::int8_t>(), array_of<std::int8_t>()))>, xf::half>);
  static_assert(std::is_same_v<xf::value_t<decltype(xf::deg2rad(array_of<std::int8_t>()))>, xf::half>);
  static_assert(std::is_same_v<xf::value_t<decltype(xf::rad2deg(array_of<std::int32_t>()))>, double>);
  static_assert(std::is_same_v<xf::value_t<decltype(xf::fmin(array_of<bool>(), array_of<bool>()))>, bool>);
  require_values(evaluate<Space>("signbit(int64)", 0, [](const auto& v) { return xf::signbit(v); }, std::vector<std::int64_t>{-3, 0, 3}),
                 std::vector<bool>{true, false, false}, "signbit(int64)");
  require_values(evaluate<Space>("signbit(uint8)", 0, [](const auto& v) { return xf::signbit(v); }, std::vector<std::uint8_t>{3, 0}),
                 std::vector<bool>{false, false}, "signbit(uint8)");

  // Random inputs against long double. NumPy's formula adds the larger operand to a log1p term:
  // where the two nearly cancel, the error is a few ulp of the operands, not of the result.
  const std::size_t n = 4099;
  const auto u = uniform<double>(n, -50, 50), v = uniform<double>(n, -50, 50);
  // (Each side against long double: device and host may differ by more than an ulp of a result
  // near zero, by the same few ulp of the operands.)
  const auto us = xf::asarray<double, Space>(u), vs = xf::asarray<double, Space>(v);
  const auto lae = xf::to_host(xf::eval(xf::logaddexp(us, vs)));
  const auto la2 = xf::to_host(xf::eval(xf::logaddexp2(us, vs)));
  const auto hv = evaluate<Space>("heaviside random", 0, [](const auto& s, const auto& t) { return xf::heaviside(s, t); }, u, v);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const long double s = u[i], t = v[i];
    const long double tolerance = 4 * std::numeric_limits<double>::epsilon() * (std::fabs(s) + std::fabs(t) + 1);
    bad += !(std::fabs(lae[i] - logl(expl(s) + expl(t))) <= tolerance);
    bad += !(std::fabs(la2[i] - log2l(exp2l(s) + exp2l(t))) <= tolerance);
    bad += hv[i] != (u[i] < 0 ? 0.0 : u[i] > 0 ? 1.0 : v[i]);
  }
  REQUIRE(bad == 0);
}

// ---------------------------------------------------------------- complex square root
template <class P>
struct sqrt_row {
  P x, y, re, im;
};

// Table rows: NumPy 2.4.6's np.sqrt on complex128 (complex64) arrays, printed with repr; inf and
// NaN as such, -0.0 kept (the table checks signs of zeros).
template <class P>
std::vector<sqrt_row<P>> numpy_sqrt_table() {
  constexpr P inf = std::numeric_limits<P>::infinity();
  const P nan = std::numeric_limits<P>::quiet_NaN();
  // C99 Annex G's special values, the same in both precisions.
  std::vector<sqrt_row<P>> rows = {
      {0.0, 0.0, 0.0, 0.0},       {-0.0, 0.0, 0.0, 0.0},     {0.0, -0.0, 0.0, -0.0},   {-0.0, -0.0, 0.0, -0.0},
      {1.0, inf, inf, inf},       {-1.0, inf, inf, inf},     {nan, inf, inf, inf},     {inf, inf, inf, inf},
      {-inf, inf, inf, inf},      {1.0, -inf, inf, -inf},    {nan, -inf, inf, -inf},   {-inf, -inf, inf, -inf},
      {-inf, 2.0, 0.0, inf},      {-inf, -2.0, 0.0, -inf},   {inf, 2.0, inf, 0.0},     {inf, -2.0, inf, -0.0},
      {-inf, nan, nan, inf},      {inf, nan, inf, nan},      {nan, 2.0, nan, nan},     {2.0, nan, nan, nan},
      {nan, nan, nan, nan},       {-inf, 0.0, 0.0, inf},     {-inf, -0.0, 0.0, -inf},  {inf, 0.0, inf, 0.0},
      {inf, -0.0, inf, -0.0},     {nan, 0.0, nan, nan},
      // Exact roots: sqrt(-1+0j) is exactly 1j (the polar form gives 6.123233995736766e-17+1j).
      {-1.0, 0.0, 0.0, 1.0},      {-1.0, -0.0, 0.0, -1.0},   {-4.0, 0.0, 0.0, 2.0},    {4.0, 0.0, 2.0, 0.0},
      {4.0, -0.0, 2.0, -0.0},     {0.0, 2.0, 1.0, 1.0},      {0.0, -2.0, 1.0, -1.0},   {3.0, 4.0, 2.0, 1.0},
      {-3.0, 4.0, 1.0, 2.0},      {-3.0, -4.0, 1.0, -2.0},   {3.0, -4.0, 2.0, -1.0}};
  if constexpr (std::is_same_v<P, double>) {
    rows.insert(rows.end(), {
        {-2.0, 0.0, 0.0, 1.4142135623730951},
        {2.0, 0.0, 1.4142135623730951, 0.0},
        {0.0, 1.0, 0.7071067811865476, 0.7071067811865476},
        {-0.0, 1.0, 0.7071067811865476, 0.7071067811865476},
        {1.0, 1.0, 1.09868411346781, 0.45508986056222733},
        {-1.0, 1.0, 0.45508986056222733, 1.09868411346781},
        {0.5, -0.25, 0.7276733451126774, -0.17178037486125622},
        {-0.1, 0.3, 0.3288067563302478, 0.4561950054619395},
        {123.456, -789.012, 21.47170371873435, -18.37329748806976},
        {10000000000.0, 1.0, 100000.0, 5e-06},
        {-10000000000.0, 1.0, 5e-06, 100000.0},
        {2.0, 1e-300, 1.4142135623730951, 3.5355339059327376e-301},
        {-2.0, -1e-310, 3.535533905933e-311, -1.4142135623730951},
        // Near the overflow threshold and in the subnormal range.
        {1.7976931348623157e+308, 1.7976931348623157e+308, 1.4730945569055655e+154, 6.101757441282702e+153},
        {-1.7976931348623157e+308, 1e+308, 3.601504098665319e+153, 1.3883088462548048e+154},
        {1e+308, 1e-308, 1e+154, 0.0},
        {-1e+308, -1e-300, 0.0, -1e+154},
        {1e-320, 1e+300, 7.071067811865476e+149, 7.071067811865475e+149},
        {0.0, 1.7976931348623157e+308, 9.480751908109176e+153, 9.480751908109176e+153},
        {1e-300, 1e-300, 1.09868411346781e-150, 4.5508986056222734e-151},
        {5e-324, 0.0, 2.2227587494850775e-162, 0.0},
        {5e-324, 5e-324, 2.4421097261308304e-162, 1.0115549693666347e-162},
        {-5e-324, 5e-324, 1.0115549693666347e-162, 2.4421097261308304e-162},
        {0.0, 5e-324, 1.5717277847026288e-162, 1.5717277847026288e-162},
        {0.0, -1e-310, 7.071067811865465e-156, -7.071067811865465e-156},
        {2.5e-310, -3.3e-312, 1.5811732654129799e-155, -1.0435289010333315e-157},
        {-1e-308, 2e-308, 7.861513777574233e-155, 1.2720196495140689e-154}});
  } else {
    rows.insert(rows.end(), {
        {-2.0f, 0.0f, 0.0f, 1.4142135f},
        {2.0f, 0.0f, 1.4142135f, 0.0f},
        {0.0f, 1.0f, 0.70710677f, 0.70710677f},
        {-0.0f, 1.0f, 0.70710677f, 0.70710677f},
        {1.0f, 1.0f, 1.0986842f, 0.45508984f},
        {-1.0f, 1.0f, 0.45508984f, 1.0986842f},
        {0.5f, -0.25f, 0.72767335f, -0.17178038f},
        {-0.1f, 0.3f, 0.3288068f, 0.456195f},
        {123.456f, -789.012f, 21.471704f, -18.373297f},
        {1e+10f, 1.0f, 100000.0f, 5e-06f},
        {-1e+10f, 1.0f, 5e-06f, 100000.0f},
        {3.4028235e+38f, 3.4028235e+38f, 2.0267144e+19f, 8.394926e+18f},
        {-3.4028235e+38f, 1e+38f, 2.682297e+18f, 1.8640738e+19f},
        {1e+38f, 1e-38f, 1e+19f, 0.0f},
        {-1e+38f, -1e-37f, 0.0f, -1e+19f},
        {1e-44f, 1e+37f, 2.236068e+18f, 2.236068e+18f},
        {0.0f, 3.4028235e+38f, 1.3043818e+19f, 1.3043818e+19f},
        {1e-37f, 1e-37f, 3.4743442e-19f, 1.4391206e-19f},
        {1e-45f, 0.0f, 3.743392e-23f, 0.0f},
        {1e-45f, 1e-45f, 4.1128055e-23f, 1.7035798e-23f},
        {-1e-45f, 1e-45f, 1.7035798e-23f, 4.1128055e-23f},
        {0.0f, 1e-45f, 2.646978e-23f, 2.646978e-23f},
        {0.0f, -1e-40f, 7.0710485e-21f, -7.0710485e-21f},
        {2.5e-40f, -3.3e-42f, 1.5811735e-20f, -1.04354705e-22f},
        {-1e-38f, 2e-38f, 7.861514e-20f, 1.2720196e-19f}});
  }
  return rows;
}

// Host arrays give NumPy's values bit for bit (the same algorithm as the C library's csqrt, which
// NumPy calls). Device arrays: bit for bit where the root is exact or special (a real or
// imaginary input, an infinity or NaN) and for complex64 (its hypot is computed in double, as
// glibc's hypotf does); complex128 within 3 ulp elsewhere (CUDA's hypot is not glibc's: up to 2 ulp).
template <class Space, class T>
void complex_sqrt_matches_numpy() {
  using P = xf::real_t<T>;
  const auto rows = numpy_sqrt_table<P>();
  std::vector<T> z;
  for (const auto& r : rows) z.push_back(T(r.x, r.y));
  const double device_ulps = std::is_same_v<Space, xf::device> && std::is_same_v<P, double> ? 3 : 0;
  const auto got = evaluate<Space>(std::string("sqrt on ") + xf::dtype_name<T>, device_ulps, [](const auto& a) { return xf::sqrt(a); }, z);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    const bool exact = r.x == 0 || r.y == 0 || !std::isfinite(r.x) || !std::isfinite(r.y);
    INFO("sqrt(" << show(z[i]) << ") is " << show(got[i]) << ", NumPy gives (" << r.re << "," << r.im << ")");
    CHECK(ulp_distance(got[i].real(), r.re) <= (exact ? 0 : device_ulps));
    CHECK(ulp_distance(got[i].imag(), r.im) <= (exact ? 0 : device_ulps));
  }
  // The C99 symmetry csqrt(conj(z)) == conj(csqrt(z)), on every row.
  std::vector<T> zc;
  for (const auto& v : z) zc.push_back(T(v.real(), -v.imag()));
  const auto gotc = evaluate<Space>(std::string("sqrt of conjugates on ") + xf::dtype_name<T>, device_ulps, [](const auto& a) { return xf::sqrt(a); }, zc);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    INFO("sqrt(" << show(zc[i]) << ") is " << show(gotc[i]) << ", sqrt(" << show(z[i]) << ") is " << show(got[i]));
    CHECK(same_value(gotc[i], T(got[i].real(), -got[i].imag())));
  }
}

// Fresh random inputs, magnitudes spread log-uniformly over 1e-300..1e300 (complex128) or
// 1e-38..1e38 (complex64), both signs, some zero parts, against the same formula in long double
// (64-bit significand, no overflow or underflow at these magnitudes). The larger part of the
// root is within 2 ulp; the smaller, y / (2 t), inherits t's error and is within 3 (observed on
// 4e7 inputs: 1.2 and 2.1 ulp, the C library's csqrt included). On the device CUDA's double
// hypot may add an ulp; complex64 gives the host's bits.
template <class Space, class T>
void complex_sqrt_is_accurate() {
  using P = xf::real_t<T>;
  const double lo = std::is_same_v<P, double> ? -300 : -38, hi = -lo;
  const std::size_t n = 20011;
  std::uniform_real_distribution<double> exponent(lo, hi), unit(0, 1);
  std::vector<T> z(n);
  for (std::size_t i = 0; i < n; ++i) {
    auto part = [&] {
      const double sign = unit(rng()) < 0.5 ? -1 : 1;
      return unit(rng()) < 0.03 ? P(0) : static_cast<P>(sign * std::pow(10.0, exponent(rng())));
    };
    z[i] = T(part(), part());
  }
  const double extra = std::is_same_v<Space, xf::device> && std::is_same_v<P, double> ? 1 : 0;
  const auto got = evaluate<Space>(std::string("sqrt of random ") + xf::dtype_name<T>, 3 * extra, [](const auto& a) { return xf::sqrt(a); }, z);
  double worst_large = 0, worst_small = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const long double x = z[i].real(), y = z[i].imag();
    const long double t = std::sqrt((std::fabs(x) + std::hypot(x, y)) / 2);
    const long double s = x == 0 ? t : std::fabs(y) / (2 * t);
    const long double re = x > 0 ? t : s, im = std::copysign(x > 0 ? s : t, y);
    const double e_re = ulp_distance(got[i].real(), re), e_im = ulp_distance(got[i].imag(), im);
    const double e_large = x > 0 ? e_re : e_im, e_small = x > 0 ? e_im : e_re;
    worst_large = std::max(worst_large, e_large);
    worst_small = std::max(worst_small, e_small);
    if (e_large > 2 + extra || e_small > 3 + extra) {
      INFO("sqrt(" << show(z[i]) << ") is " << show(got[i]) << ", long double gives (" << static_cast<double>(re) << ","
                   << static_cast<double>(im) << "): " << e_re << " and " << e_im << " ulp");
      CHECK(e_large <= 2 + extra);
      CHECK(e_small <= 3 + extra);
    }
  }
  INFO("worst errors: " << worst_large << " ulp (larger part), " << worst_small << " ulp (smaller part)");
  CHECK(worst_large <= 2 + extra);
}

// ---------------------------------------------------------------- complex power
template <class P>
struct pow_row {
  P ar, ai, br, bi, re, im;
  int kind;  // 0: exact arithmetic; 1: rounded products and Smith's division; 2: exp(b log a)
};

// NumPy 2.4.6's np.power on complex128 (complex64) arrays: b == 0 gives 1 (0^0 too), 0^b is 0
// for Re b > 0 and NaN otherwise, integer exponents below 100 in magnitude multiply (so
// (1+1j)^2 is exactly 2j, not 1.2246467991473532e-16+2j), others go through exp(b log a).
template <class P>
std::vector<pow_row<P>> numpy_power_table() {
  constexpr P inf = std::numeric_limits<P>::infinity();
  const P nan = std::numeric_limits<P>::quiet_NaN();
  std::vector<pow_row<P>> rows = {
      {0, 0, 1, 1, 0, 0, 0},       {0, 0, -1, 0, nan, nan, 0},   {0, 0, 2, 0, 0, 0, 0},        {0, 0, 0, 0, 1, 0, 0},
      {0, 0, 0.5, 0, 0, 0, 0},     {0, 0, 0, 1, nan, nan, 0},    {nan, 0, 0, 0, 1, 0, 0},      {nan, 1, 2, 0, nan, nan, 0},
      {inf, 0, 2, 0, inf, nan, 0}, {1, 1, 2, 0, 0, 2, 0},        {1, 1, 3, 0, -2, 2, 0},       {1, 1, -2, 0, 0, -0.5, 0},
      {1, 1, -3, 0, -0.25, -0.25, 0},                            {2, 0, 3, 0, 8, 0, 0},        {2, 0, -2, 0, 0.25, 0, 0},
      {1, 2, 1, 0, 1, 2, 0},       {-2, 0, 2, 0, 4, -0.0, 0},    {0, 1, 2, 0, -1, 0, 0},       {0, 1, 3, 0, -0.0, -1, 0},
      {0, 1, 4, 0, 1, 0, 0},       {0, 1, -1, 0, 0, -1, 0},      {1.5, 2.5, 3, 0, -24.75, 1.25, 0},
      {1.5, 2.5, 5, 0, 89.625, -190.625, 0},                     {3, 4, 0.5, 0, 2, 1, 2}};
  if constexpr (std::is_same_v<P, double>) {
    rows.insert(rows.end(), {{1, 1, 99, 0, -562949953421312.0, 562949953421312.0, 0},
                             {1, 1, 100, 0, -1125899906842625.0, -0.5529257073121939, 2},
                             {1, 2, -1, 0, 0.2, -0.4, 1},
                             {0.5, -1.5, -4, 0, 0.0448, -0.1536, 1},
                             {1, 1, 2.5, 0, -0.9101797211244546, 2.1973682269356196, 2}});
  } else {
    rows.insert(rows.end(), {{1, 1, 99, 0, -5.6294995e+14f, 5.6294995e+14f, 0},
                             {1, 1, 100, 0, -1.1259011e+15f, -1.655428e+09f, 2},
                             {1, 2, -1, 0, 0.2f, -0.4f, 1},
                             {0.5f, -1.5f, -4, 0, 0.044800002f, -0.1536f, 1},
                             {1, 1, 2.5f, 0, -0.9101799f, 2.1973681f, 2}});
  }
  return rows;
}

template <class Space, class T>
void complex_power_matches_numpy() {
  using P = xf::real_t<T>;
  const auto rows = numpy_power_table<P>();
  std::vector<T> a, b;
  for (const auto& r : rows) a.push_back(T(r.ar, r.ai)), b.push_back(T(r.br, r.bi));
  const bool device = std::is_same_v<Space, xf::device>;
  const auto got = evaluate<Space>(std::string("power on ") + xf::dtype_name<T>, 64, [](const auto& x, const auto& y) { return xf::power(x, y); }, a, b);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    INFO("power(" << show(a[i]) << ", " << show(b[i]) << ") is " << show(got[i]) << ", NumPy gives (" << r.re << "," << r.im << ")");
    if (r.kind == 0 || (r.kind == 1 && !device)) {
      CHECK(same_value(got[i], T(r.re, r.im)));
    } else if (r.kind == 1) {
      CHECK(same_value(got[i], T(r.re, r.im), 4));  // fused multiply-adds round differently
    } else {
      // exp(b log a): NumPy calls the C library's cpow, xfuse cuda::std::pow; norm-wise 64 eps.
      const double scale = std::hypot(static_cast<double>(r.re), static_cast<double>(r.im));
      CHECK(std::hypot(static_cast<double>(got[i].real()) - r.re, static_cast<double>(got[i].imag()) - r.im) <= 64 * eps<T>() * scale);
    }
  }
  // A C++ integer exponent takes the same path: z ** 2 squares (weak scalar, complex result).
  const auto sq = evaluate<Space>("power(z, 2)", 0, [](const auto& x) { return xf::power(x, 2); }, std::vector<T>{T(1, 1), T(0, 1)});
  require_values(sq, std::vector<T>{T(0, 2), T(-1, 0)}, "power(z, 2)");
}

// ---------------------------------------------------------------- linspace
template <class Space, class T>
std::vector<T> linspace_values(double start, double stop, xf::index_t num, bool endpoint, const std::string& what) {
  const xf::array<T, 1, Space> y = xf::linspace<T>(start, stop, num, endpoint);
  const auto got = xf::to_host(y);
  if constexpr (std::is_same_v<Space, xf::device>) {
    const xf::array<T, 1, xf::host> h = xf::linspace<T>(start, stop, num, endpoint);
    require_values(got, xf::to_host(h), what + ": device against host");
  }
  return got;
}

template <class Space>
void linspace_matches_numpy() {
  using D = std::vector<double>;
  constexpr double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // NumPy 2.4.6 (repr of each element):
  // np.linspace(0, 1, 1) -> [0.]; np.linspace(2, 3, 1, endpoint=False) -> [2.]; np.linspace(0, 1, 0) -> []
  require_values(linspace_values<Space, double>(0, 1, 1, true, "linspace(0, 1, 1)"), D{0.0}, "linspace(0, 1, 1)");
  require_values(linspace_values<Space, double>(2, 3, 1, false, "linspace(2, 3, 1, endpoint=False)"), D{2.0}, "linspace(2, 3, 1, endpoint=False)");
  require_values(linspace_values<Space, double>(0, 1, 0, true, "linspace(0, 1, 0)"), D{}, "linspace(0, 1, 0)");
  // np.linspace(0, 1, 2) -> [0., 1.]; np.linspace(0, 1, 5, endpoint=False)
  require_values(linspace_values<Space, double>(0, 1, 2, true, "linspace(0, 1, 2)"), D{0.0, 1.0}, "linspace(0, 1, 2)");
  require_values(linspace_values<Space, double>(0, 1, 5, false, "linspace(0, 1, 5, endpoint=False)"),
                 D{0.0, 0.2, 0.4, 0.6000000000000001, 0.8}, "linspace(0, 1, 5, endpoint=False)");
  // np.linspace(0.1, 0.7, 7) ends exactly at 0.7
  require_values(linspace_values<Space, double>(0.1, 0.7, 7, true, "linspace(0.1, 0.7, 7)"), D{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7},
                 "linspace(0.1, 0.7, 7)");
  // np.linspace(-3.3, 7.1, 23): the last sample is 7.1, where -3.3 + 22 * step is 7.099999999999999
  require_values(linspace_values<Space, double>(-3.3, 7.1, 23, true, "linspace(-3.3, 7.1, 23)"),
                 D{-3.3, -2.827272727272727, -2.3545454545454545, -1.8818181818181818, -1.4090909090909092, -0.9363636363636365,
                   -0.46363636363636385, 0.009090909090908816, 0.4818181818181815, 0.9545454545454541, 1.4272727272727268,
                   1.8999999999999995, 2.372727272727272, 2.845454545454545, 3.3181818181818175, 3.79090909090909,
                   4.263636363636363, 4.736363636363635, 5.209090909090908, 5.681818181818181, 6.154545454545453,
                   6.627272727272726, 7.1},
                 "linspace(-3.3, 7.1, 23)");
  require_values(linspace_values<Space, double>(-3.3, 7.1, 23, false, "linspace(-3.3, 7.1, 23, endpoint=False)"),
                 D{-3.3, -2.8478260869565215, -2.395652173913043, -1.9434782608695653, -1.491304347826087, -1.0391304347826087,
                   -0.5869565217391308, -0.1347826086956525, 0.3173913043478258, 0.7695652173913041, 1.2217391304347824,
                   1.6739130434782608, 2.126086956521738, 2.5782608695652165, 3.030434782608695, 3.482608695652173,
                   3.9347826086956514, 4.38695652173913, 4.839130434782608, 5.2913043478260855, 5.743478260869565,
                   6.195652173913042, 6.647826086956521},
                 "linspace(-3.3, 7.1, 23, endpoint=False)");
  // A step that underflows to zero: NumPy computes (i / div) * (stop - start) + start.
  // [int(v / 5e-324) for v in np.linspace(0, 1.5e-323, 8)] -> [0, 0, 1, 1, 2, 2, 3, 3];
  // with endpoint=False -> [0, 0, 1, 1, 2, 2, 2, 3]
  constexpr double d = std::numeric_limits<double>::denorm_min();
  require_values(linspace_values<Space, double>(0, 3 * d, 8, true, "linspace(0, 1.5e-323, 8)"), D{0, 0, d, d, 2 * d, 2 * d, 3 * d, 3 * d},
                 "linspace(0, 1.5e-323, 8)");
  require_values(linspace_values<Space, double>(0, 3 * d, 8, false, "linspace(0, 1.5e-323, 8, endpoint=False)"),
                 D{0, 0, d, d, 2 * d, 2 * d, 2 * d, 3 * d}, "linspace(0, 1.5e-323, 8, endpoint=False)");
  // np.linspace(1, np.inf, 1) -> [nan] (0 * inf + 1); np.linspace(1, np.inf, 3) -> [nan, inf, inf]
  require_values(linspace_values<Space, double>(1, inf, 1, true, "linspace(1, inf, 1)"), D{nan}, "linspace(1, inf, 1)");
  require_values(linspace_values<Space, double>(1, inf, 3, true, "linspace(1, inf, 3)"), D{nan, inf, inf}, "linspace(1, inf, 3)");
  // Integer types take the floor: np.linspace(-1, 1, 4, dtype=np.int64) -> [-1, -1, 0, 1];
  // np.linspace(-7.5, 2.5, 6, dtype=np.int32) -> [-8, -6, -4, -2, 0, 2];
  // np.linspace(-2.5, 2, 1, dtype=np.int32) -> [-3]; np.linspace(1, 0, 3, dtype=np.uint8) -> [1, 0, 0];
  // np.linspace(-1e3, 1e3, 7, dtype=np.int16) -> [-1000, -667, -334, 0, 333, 666, 1000]
  require_values(linspace_values<Space, std::int64_t>(-1, 1, 4, true, "linspace int64"), std::vector<std::int64_t>{-1, -1, 0, 1}, "linspace int64");
  require_values(linspace_values<Space, std::int32_t>(-7.5, 2.5, 6, true, "linspace int32"), std::vector<std::int32_t>{-8, -6, -4, -2, 0, 2},
                 "linspace int32");
  require_values(linspace_values<Space, std::int32_t>(-2.5, 2, 1, true, "linspace int32, num=1"), std::vector<std::int32_t>{-3},
                 "linspace int32, num=1");
  require_values(linspace_values<Space, std::uint8_t>(1, 0, 3, true, "linspace uint8"), std::vector<std::uint8_t>{1, 0, 0}, "linspace uint8");
  require_values(linspace_values<Space, std::int16_t>(-1e3, 1e3, 7, true, "linspace int16"),
                 std::vector<std::int16_t>{-1000, -667, -334, 0, 333, 666, 1000}, "linspace int16");
  // np.linspace(0.1, 0.9, 9, dtype=np.float32): computed in float64, rounded once
  require_values(linspace_values<Space, float>(0.1, 0.9, 9, true, "linspace float32"),
                 std::vector<float>{0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f, 0.9f}, "linspace float32");
  // The last sample is stop exactly whenever endpoint and num > 1.
  std::uniform_real_distribution<double> u(-1e6, 1e6);
  for (int i = 0; i < 50; ++i) {
    const double start = u(rng()), stop = u(rng());
    const auto num = static_cast<xf::index_t>(2 + i * 37);
    const auto y = linspace_values<Space, double>(start, stop, num, true, "random linspace");
    INFO("linspace(" << start << ", " << stop << ", " << num << ")");
    CHECK(y.front() == start);
    CHECK(y.back() == stop);
  }
}

// nextafter, ldexp, frexp, modf, divmod, sinc, float_power, gcd, lcm, nan_to_num, isclose,
// allclose, array_equal and round against NumPy 2.4.6's printed answers, their result types, and
// random inputs against exact references.
template <class Space>
void more_float_helpers_match_numpy() {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const double dnan = std::numeric_limits<double>::quiet_NaN(), dinf = std::numeric_limits<double>::infinity();
  // x = np.array([1, 0, -0., 1, inf, nan, -2.5, 3], np.float32); y = [2, 1, -1, 1, 0, 1, -inf, nan]
  // np.nextafter(x, y) (hex): [0x1.000002p+0, 0x1p-149, -0x1p-149, 1.0, 0x1.fffffep+127, nan, -0x1.400002p+1, nan]
  require_values(evaluate<Space>("nextafter", 0, [](const auto& a, const auto& b) { return xf::nextafter(a, b); },
                                 std::vector<float>{1.0f, 0.0f, -0.0f, 1.0f, inf, nan, -2.5f, 3.0f},
                                 std::vector<float>{2.0f, 1.0f, -1.0f, 1.0f, 0.0f, 1.0f, -inf, nan}),
                 std::vector<float>{0x1.000002p+0f, 0x1p-149f, -0x1p-149f, 1.0f, 0x1.fffffep+127f, nan, -0x1.400002p+1f, nan}, "nextafter");
  // np.nextafter([1., 0., -0., 1e308, -5e-324], [0., -1., 1., inf, 0.]): [0x1.fffffffffffffp-1, -0x0.0000000000001p-1022,
  // 0x0.0000000000001p-1022, 0x1.1ccf385ebc8a1p+1023, -0.0]
  require_values(evaluate<Space>("nextafter f64", 0, [](const auto& a, const auto& b) { return xf::nextafter(a, b); },
                                 std::vector<double>{1.0, 0.0, -0.0, 1e308, -5e-324}, std::vector<double>{0.0, -1.0, 1.0, dinf, 0.0}),
                 std::vector<double>{0x1.fffffffffffffp-1, -0x0.0000000000001p-1022, 0x0.0000000000001p-1022, 0x1.1ccf385ebc8a1p+1023, -0.0},
                 "nextafter f64");
  // float16 steps in float16: np.nextafter(f16 [1, 0, 65504], [2, -1, inf]): [1.0009765625, -5.960464477539063e-08, inf];
  // int8 operands give float16, int32 float64.
  const auto nh = evaluate<Space>("nextafter f16", 0, [](const auto& a, const auto& b) { return xf::nextafter(a, b); },
                                  std::vector<xf::half>{xf::half(1.0f), xf::half(0.0f), xf::half(65504.0f)},
                                  std::vector<xf::half>{xf::half(2.0f), xf::half(-1.0f), xf::half(inf)});
  require_values(nh, std::vector<xf::half>{xf::half(1.0009765625f), xf::half(-5.960464477539063e-08f), xf::half(inf)}, "nextafter f16");
  static_assert(std::is_same_v<xf::value_t<decltype(xf::nextafter(array_of<std::int8_t>(), array_of<std::int8_t>()))>, xf::half>);
  static_assert(std::is_same_v<xf::value_t<decltype(xf::nextafter(array_of<std::int32_t>(), array_of<std::int32_t>()))>, double>);

  // np.ldexp(f32 [1.5, -0.75, 3, 1, 0, inf, nan], int32 [3, -2, 200, -160, 5, 1, 1]): [12.0, -0.1875, inf, 0.0, 0.0, inf, nan]
  const auto ld = evaluate<Space>("ldexp", 0, [](const auto& a, const auto& b) { return xf::ldexp(a, b); },
                                  std::vector<float>{1.5f, -0.75f, 3.0f, 1.0f, 0.0f, inf, nan},
                                  std::vector<std::int32_t>{3, -2, 200, -160, 5, 1, 1});
  static_assert(std::is_same_v<typename decltype(ld)::value_type, float>);
  require_values(ld, std::vector<float>{12.0f, -0.1875f, inf, 0.0f, 0.0f, inf, nan}, "ldexp");
  static_assert(std::is_same_v<xf::value_t<decltype(xf::ldexp(array_of<xf::half>(), array_of<std::int64_t>()))>, xf::half>);
  static_assert(std::is_same_v<xf::value_t<decltype(xf::ldexp(array_of<float>(), 3))>, float>);
  // Exponents far past the range clamp instead of wrapping: ldexp(1.0, 2^40) is inf, ldexp(1.0, -2^40) 0.
  require_values(evaluate<Space>("ldexp huge", 0, [](const auto& a, const auto& b) { return xf::ldexp(a, b); },
                                 std::vector<double>{1.0, 1.0}, std::vector<std::int64_t>{std::int64_t{1} << 40, -(std::int64_t{1} << 40)}),
                 std::vector<double>{dinf, 0.0}, "ldexp huge");

  // 8- and 16-bit exponents: the clamp used to be written in the exponent's type, which wraps.
  // np.ldexp(1.0, int8 [1, -1, 5, -128, 127]): [2.0, 0.5, 32.0, 2.938735877055719e-39, 1.7014118346046923e+38]
  const auto ldexp_of = [](const auto& a, const auto& b) { return xf::ldexp(a, b); };
  require_values(evaluate<Space>("ldexp int8", 0, ldexp_of, std::vector<double>(5, 1.0), std::vector<std::int8_t>{1, -1, 5, -128, 127}),
                 std::vector<double>{2.0, 0.5, 32.0, 2.938735877055719e-39, 1.7014118346046923e+38}, "ldexp int8");
  // np.ldexp(1.0, int16 [3, -3, 300, -1074, 1023, 32767, -32768]): [8.0, 0.125, 2.037035976334486e+90, 5e-324, 8.98846567431158e+307, inf, 0.0]
  require_values(evaluate<Space>("ldexp int16", 0, ldexp_of, std::vector<double>(7, 1.0),
                                 std::vector<std::int16_t>{3, -3, 300, -1074, 1023, 32767, -32768}),
                 std::vector<double>{8.0, 0.125, 2.037035976334486e+90, 5e-324, 8.98846567431158e+307, dinf, 0.0}, "ldexp int16");
  // np.ldexp(1.0, uint8 [200, 0, 255, 1]): [1.6069380442589903e+60, 1.0, 5.78960446186581e+76, 2.0]
  require_values(evaluate<Space>("ldexp uint8", 0, ldexp_of, std::vector<double>(4, 1.0), std::vector<std::uint8_t>{200, 0, 255, 1}),
                 std::vector<double>{1.6069380442589903e+60, 1.0, 5.78960446186581e+76, 2.0}, "ldexp uint8");
  // np.ldexp(1.0, uint16 [1023, 1024, 0, 65535]): [8.98846567431158e+307, inf, 1.0, inf]
  require_values(evaluate<Space>("ldexp uint16", 0, ldexp_of, std::vector<double>(4, 1.0), std::vector<std::uint16_t>{1023, 1024, 0, 65535}),
                 std::vector<double>{8.98846567431158e+307, dinf, 1.0, dinf}, "ldexp uint16");
  // np.ldexp(f32 [1.5] * 4, int8 [1, -1, 127, -128]): [3.0, 0.75, 2.5521177519070385e+38, 4.408103815583578e-39]
  require_values(evaluate<Space>("ldexp f32 int8", 0, ldexp_of, std::vector<float>(4, 1.5f), std::vector<std::int8_t>{1, -1, 127, -128}),
                 std::vector<float>{3.0f, 0.75f, 2.5521177519070385e+38f, 4.408103815583578e-39f}, "ldexp f32 int8");
  // np.ldexp(f16 [1, 1, 1], int16 [3, -3, 16]): [8.0, 0.125, inf] (float16)
  require_values(evaluate<Space>("ldexp f16 int16", 0, ldexp_of, std::vector<xf::half>(3, xf::half(1.0f)), std::vector<std::int16_t>{3, -3, 16}),
                 std::vector<xf::half>{xf::half(8.0f), xf::half(0.125f), xf::half(inf)}, "ldexp f16 int16");

  // m, e = np.frexp([8.0, -3.0, 0.0, -0.0, 0.1, inf, nan, 5e-324]):
  // m [0.5, -0.75, 0.0, -0.0, 0.8, inf, nan, 0.5], e [4, 2, 0, 0, -3, 0, 0, -1073] (int32)
  const std::vector<double> fx = {8.0, -3.0, 0.0, -0.0, 0.1, dinf, dnan, 5e-324};
  require_values(evaluate<Space>("frexp mantissa", 0, [](const auto& a) { return xf::frexp(a).first; }, fx),
                 std::vector<double>{0.5, -0.75, 0.0, -0.0, 0.8, dinf, dnan, 0.5}, "frexp mantissa");
  const auto fe = evaluate<Space>("frexp exponent", 0, [](const auto& a) { return xf::frexp(a).second; }, fx);
  static_assert(std::is_same_v<typename decltype(fe)::value_type, std::int32_t>);
  require_values(fe, std::vector<std::int32_t>{4, 2, 0, 0, -3, 0, 0, -1073}, "frexp exponent");

  // f, i = np.modf([3.5, -2.25, -3.0, 0.0, -0.0, inf, -inf, nan]):
  // f [0.5, -0.25, -0.0, 0.0, -0.0, 0.0, -0.0, nan], i [3.0, -2.0, -3.0, 0.0, -0.0, inf, -inf, nan]
  const std::vector<double> mx = {3.5, -2.25, -3.0, 0.0, -0.0, dinf, -dinf, dnan};
  require_values(evaluate<Space>("modf fraction", 0, [](const auto& a) { return xf::modf(a).first; }, mx),
                 std::vector<double>{0.5, -0.25, -0.0, 0.0, -0.0, 0.0, -0.0, dnan}, "modf fraction");
  require_values(evaluate<Space>("modf integral", 0, [](const auto& a) { return xf::modf(a).second; }, mx),
                 std::vector<double>{3.0, -2.0, -3.0, 0.0, -0.0, dinf, -dinf, dnan}, "modf integral");

  // q, r = np.divmod(int32 [7, -7, 7, -7, 0], [2, 2, -2, -2, 3]): q [3, -4, -4, 3, 0], r [1, 1, -1, -1, 0]
  // np.divmod([7.5, -7.5, 1.0, inf], [2.0, 2.0, 0.0, 2.0]): q [3.0, -4.0, inf, nan], r [1.5, 0.5, nan, nan]
  const std::vector<std::int32_t> da = {7, -7, 7, -7, 0}, db = {2, 2, -2, -2, 3};
  require_values(evaluate<Space>("divmod q", 0, [](const auto& a, const auto& b) { return xf::divmod(a, b).first; }, da, db),
                 std::vector<std::int32_t>{3, -4, -4, 3, 0}, "divmod q");
  require_values(evaluate<Space>("divmod r", 0, [](const auto& a, const auto& b) { return xf::divmod(a, b).second; }, da, db),
                 std::vector<std::int32_t>{1, 1, -1, -1, 0}, "divmod r");
  const std::vector<double> dfa = {7.5, -7.5, 1.0, dinf}, dfb = {2.0, 2.0, 0.0, 2.0};
  require_values(evaluate<Space>("divmod qf", 0, [](const auto& a, const auto& b) { return xf::divmod(a, b).first; }, dfa, dfb),
                 std::vector<double>{3.0, -4.0, dinf, dnan}, "divmod qf");
  require_values(evaluate<Space>("divmod rf", 0, [](const auto& a, const auto& b) { return xf::divmod(a, b).second; }, dfa, dfb),
                 std::vector<double>{1.5, 0.5, dnan, dnan}, "divmod rf");

  // np.sinc([0.0, 0.5, 1.0, -1.5, 2.25, inf, nan]):
  // [1.0, 0.6366197723675814, 3.8981718325193755e-17, -0.2122065907891938, 0.10003514623967844, nan, nan]
  require_values(evaluate<Space>("sinc", 2, [](const auto& a) { return xf::sinc(a); }, std::vector<double>{0.0, 0.5, 1.0, -1.5, 2.25, dinf, dnan}),
                 std::vector<double>{1.0, 0.6366197723675814, 3.8981718325193755e-17, -0.2122065907891938, 0.10003514623967844, dnan, dnan},
                 "sinc", 2);
  // np.sinc(f32 [0.0, 0.5, 0.25]): [1.0, 0.6366197466850281, 0.9003162980079651]
  require_values(evaluate<Space>("sinc f32", 1, [](const auto& a) { return xf::sinc(a); }, std::vector<float>{0.0f, 0.5f, 0.25f}),
                 std::vector<float>{1.0f, 0.6366197466850281f, 0.9003162980079651f}, "sinc f32", 1);

  // np.sinc is no ufunc: pi * x makes every integer and bool input float64.
  // np.sinc(int8 / uint8 / int16 / uint16 [0, 1, 2, 3]): [1.0, 3.8981718325193755e-17, -3.8981718325193755e-17, 3.8981718325193755e-17]
  // np.sinc(bool [False, True]): [1.0, 3.8981718325193755e-17]
  const std::vector<double> sinc_ints = {1.0, 3.8981718325193755e-17, -3.8981718325193755e-17, 3.8981718325193755e-17};
  const auto sinc_of = [](const auto& a) { return xf::sinc(a); };
  static_assert(std::is_same_v<xf::value_t<decltype(xf::sinc(array_of<bool>()))>, double>);
  static_assert(std::is_same_v<xf::value_t<decltype(xf::sinc(array_of<std::int8_t>()))>, double>);
  static_assert(std::is_same_v<xf::value_t<decltype(xf::sinc(array_of<std::uint16_t>()))>, double>);
  static_assert(std::is_same_v<xf::value_t<decltype(xf::sinc(array_of<xf::half>()))>, xf::half>);
  require_values(evaluate<Space>("sinc int8", 2, sinc_of, std::vector<std::int8_t>{0, 1, 2, 3}), sinc_ints, "sinc int8", 2);
  require_values(evaluate<Space>("sinc uint8", 2, sinc_of, std::vector<std::uint8_t>{0, 1, 2, 3}), sinc_ints, "sinc uint8", 2);
  require_values(evaluate<Space>("sinc int16", 2, sinc_of, std::vector<std::int16_t>{0, 1, 2, 3}), sinc_ints, "sinc int16", 2);
  require_values(evaluate<Space>("sinc uint16", 2, sinc_of, std::vector<std::uint16_t>{0, 1, 2, 3}), sinc_ints, "sinc uint16", 2);
  require_values(evaluate<Space>("sinc bool", 2, sinc_of, std::vector<bool>{false, true}), std::vector<double>{1.0, 3.8981718325193755e-17},
                 "sinc bool", 2);

  // np.float_power(int32 [2, -8, 4, 0], [0.5, 1/3, -1, -1]): [1.4142135623730951, nan, 0.25, inf]; float32 operands give
  // float64. (The device's pow is within 2 ulp: 2 ** 0.5 is 1.4142135623730949 there.)
  const auto fp = evaluate<Space>("float_power", 2, [](const auto& a, const auto& b) { return xf::float_power(a, b); },
                                  std::vector<std::int32_t>{2, -8, 4, 0}, std::vector<double>{0.5, 1.0 / 3.0, -1.0, -1.0});
  require_values(fp, std::vector<double>{1.4142135623730951, dnan, 0.25, dinf}, "float_power", 2);
  static_assert(std::is_same_v<xf::value_t<decltype(xf::float_power(array_of<float>(), array_of<float>()))>, double>);

  // np.gcd(int8 [12, -4, 0, 0, 17, -128], [18, 6, 5, 0, 5, 0]): [6, 2, 5, 0, 1, -128]
  // np.lcm(int32 [4, -4, 0, 6, 21], [6, 6, 5, -4, 6]): [12, 12, 0, 12, 42]; np.gcd(uint8, int8) is int16
  require_values(evaluate<Space>("gcd", 0, [](const auto& a, const auto& b) { return xf::gcd(a, b); },
                                 std::vector<std::int8_t>{12, -4, 0, 0, 17, -128}, std::vector<std::int8_t>{18, 6, 5, 0, 5, 0}),
                 std::vector<std::int8_t>{6, 2, 5, 0, 1, -128}, "gcd");
  require_values(evaluate<Space>("lcm", 0, [](const auto& a, const auto& b) { return xf::lcm(a, b); },
                                 std::vector<std::int32_t>{4, -4, 0, 6, 21}, std::vector<std::int32_t>{6, 6, 5, -4, 6}),
                 std::vector<std::int32_t>{12, 12, 0, 12, 42}, "lcm");
  static_assert(std::is_same_v<xf::value_t<decltype(xf::gcd(array_of<std::uint8_t>(), array_of<std::int8_t>()))>, std::int16_t>);

  // np.nan_to_num(f32 [nan, inf, -inf, 1.5, -0.0]): [0.0, 3.4028234663852886e+38, -3.4028234663852886e+38, 1.5, -0.0]
  // np.nan_to_num([nan, inf, -inf, 1.5], nan=-1.0, posinf=9.0, neginf=-9.0): [-1.0, 9.0, -9.0, 1.5]; float16 infinities to 65504
  require_values(evaluate<Space>("nan_to_num", 0, [](const auto& a) { return xf::nan_to_num(a); }, std::vector<float>{nan, inf, -inf, 1.5f, -0.0f}),
                 std::vector<float>{0.0f, 3.4028234663852886e+38f, -3.4028234663852886e+38f, 1.5f, -0.0f}, "nan_to_num");
  require_values(evaluate<Space>("nan_to_num values", 0, [](const auto& a) { return xf::nan_to_num(a, -1.0, 9.0, -9.0); },
                                 std::vector<double>{dnan, dinf, -dinf, 1.5}),
                 std::vector<double>{-1.0, 9.0, -9.0, 1.5}, "nan_to_num values");
  require_values(evaluate<Space>("nan_to_num f16", 0, [](const auto& a) { return xf::nan_to_num(a); },
                                 std::vector<xf::half>{xf::half(inf), xf::half(-inf)}),
                 std::vector<xf::half>{xf::half(65504.0f), xf::half(-65504.0f)}, "nan_to_num f16");
  require_values(evaluate<Space>("nan_to_num int", 0, [](const auto& a) { return xf::nan_to_num(a); }, std::vector<std::int32_t>{3, -7}),
                 std::vector<std::int32_t>{3, -7}, "nan_to_num int");

  // a = [1, 1, inf, inf, nan, 1e10, 1e-8, 0]; b = [1 + 1e-6, 1.1, inf, -inf, nan, 1.00001e10, 0, 1e-9]
  // np.isclose(a, b): [T, F, T, F, F, T, T, T]; equal_nan=True: [T, F, T, F, T, T, T, T];
  // rtol=0.2, atol=0: [T, T, T, F, F, T, F, F]
  const std::vector<double> ia = {1.0, 1.0, dinf, dinf, dnan, 1e10, 1e-8, 0.0}, ib = {1.0 + 1e-6, 1.1, dinf, -dinf, dnan, 1.00001e10, 0.0, 1e-9};
  require_values(evaluate<Space>("isclose", 0, [](const auto& a, const auto& b) { return xf::isclose(a, b); }, ia, ib),
                 std::vector<bool>{true, false, true, false, false, true, true, true}, "isclose");
  require_values(evaluate<Space>("isclose equal_nan", 0, [](const auto& a, const auto& b) { return xf::isclose(a, b, 1e-5, 1e-8, true); }, ia, ib),
                 std::vector<bool>{true, false, true, false, true, true, true, true}, "isclose equal_nan");
  require_values(evaluate<Space>("isclose rtol", 0, [](const auto& a, const auto& b) { return xf::isclose(a, b, 0.2, 0.0); }, ia, ib),
                 std::vector<bool>{true, true, true, false, false, true, false, false}, "isclose rtol");
  // np.allclose(a[:3], b[:3]) False; np.allclose(a, b, equal_nan=True) False; np.array_equal(a, a) False (NaN),
  // with equal_nan=True True; np.array_equal([1, 2], [1, 2, 3]) False
  const auto sa = xf::asarray<double, Space>(ia), sb = xf::asarray<double, Space>(ib);
  CHECK_FALSE(xf::allclose(sa(xf::slice(0, 3)), sb(xf::slice(0, 3))));
  CHECK(xf::allclose(sa(xf::slice(0, 1)), sb(xf::slice(0, 1))));
  CHECK_FALSE(xf::allclose(sa, sb, 1e-5, 1e-8, true));
  CHECK_FALSE(xf::array_equal(sa, sa));
  CHECK(xf::array_equal(sa, sa, true));
  CHECK_FALSE(xf::array_equal(xf::asarray<int, Space>({1, 2}), xf::asarray<int, Space>({1, 2, 3})));
  CHECK(xf::array_equal(xf::asarray<int, Space>({1, 2}), xf::asarray<int, Space>({1, 2})));
  CHECK(xf::allclose(xf::asarray<double, Space>(std::vector<double>{}), 1.0));  // empty: true, as NumPy's

  // np.round([0.5, 1.5, 2.5, -0.5, 1.2345, -1.2355, 123.456, nan, inf], 2): [0.5, 1.5, 2.5, -0.5, 1.23, -1.24, 123.46, nan, inf]
  require_values(evaluate<Space>("round 2", 0, [](const auto& a) { return xf::round(a, 2); },
                                 std::vector<double>{0.5, 1.5, 2.5, -0.5, 1.2345, -1.2355, 123.456, dnan, dinf}),
                 std::vector<double>{0.5, 1.5, 2.5, -0.5, 1.23, -1.24, 123.46, dnan, dinf}, "round 2");
  // np.round(f32 [0.5, 1.5, 2.5, -0.5, -1.5]): [0.0, 2.0, 2.0, -0.0, -2.0]; np.round(f32 [1.005, 2.675, -0.125], 2): [1.0, 2.68, -0.12]
  require_values(evaluate<Space>("round 0", 0, [](const auto& a) { return xf::around(a); }, std::vector<float>{0.5f, 1.5f, 2.5f, -0.5f, -1.5f}),
                 std::vector<float>{0.0f, 2.0f, 2.0f, -0.0f, -2.0f}, "round 0");
  require_values(evaluate<Space>("round f32", 0, [](const auto& a) { return xf::round(a, 2); }, std::vector<float>{1.005f, 2.675f, -0.125f}),
                 std::vector<float>{1.0f, 2.680000066757202f, -0.11999999731779099f}, "round f32");
  // np.round([15.0, 25.0, 1234.5, -35.0], -1): [20.0, 20.0, 1230.0, -40.0]
  require_values(evaluate<Space>("round -1", 0, [](const auto& a) { return xf::round(a, -1); }, std::vector<double>{15.0, 25.0, 1234.5, -35.0}),
                 std::vector<double>{20.0, 20.0, 1230.0, -40.0}, "round -1");
  // np.round(int32 [1234, 1250, -1250, 1350, 7], -2): [1200, 1200, -1200, 1400, 0]; np.round(int32 [5], 1): [5]
  require_values(evaluate<Space>("round int", 0, [](const auto& a) { return xf::round(a, -2); },
                                 std::vector<std::int32_t>{1234, 1250, -1250, 1350, 7}),
                 std::vector<std::int32_t>{1200, 1200, -1200, 1400, 0}, "round int");
  require_values(evaluate<Space>("round int +", 0, [](const auto& a) { return xf::round(a, 1); }, std::vector<std::int32_t>{5}),
                 std::vector<std::int32_t>{5}, "round int +");
  // Decimals past the range: np.round([1.5, 1234.5, -2.25], 400) and np.round([1.5, 1234.5], -400) are NaN
  // (10**400 is inf); f32 with 60 decimals too. Integers round to 0 (NumPy's int32 result is undefined there).
  // INT_MIN and INT_MAX decimals are clamped, never negated.
  require_values(evaluate<Space>("round 400", 0, [](const auto& a) { return xf::round(a, 400); }, std::vector<double>{1.5, 1234.5, -2.25}),
                 std::vector<double>{dnan, dnan, dnan}, "round 400");
  require_values(evaluate<Space>("round -400", 0, [](const auto& a) { return xf::round(a, std::numeric_limits<int>::min()); },
                                 std::vector<double>{1.5, 1234.5}),
                 std::vector<double>{dnan, dnan}, "round -400");
  require_values(evaluate<Space>("round f32 60", 0, [](const auto& a) { return xf::round(a, std::numeric_limits<int>::max()); },
                                 std::vector<float>{1.5f}),
                 std::vector<float>{nan}, "round f32 60");
  require_values(evaluate<Space>("round int -400", 0, [](const auto& a) { return xf::round(a, -400); }, std::vector<std::int32_t>{1234, -7}),
                 std::vector<std::int32_t>{0, 0}, "round int -400");
  // float16 rounds each step in float16, as NumPy's loop: h = f16 [65504, 1, 1.2345, 0.1235, -2.5, 0.5, 1000]
  // np.round(h, 1): [inf, 1.0, 1.2001953125, 0.0999755859375, -2.5, 0.5, 1000.0]
  // np.round(h, 2): [inf, 1.0, 1.23046875, 0.1199951171875, -2.5, 0.5, inf]; np.round(h, 5): all nan (10**5 is inf in float16)
  // np.round(h, -1): [inf, 0.0, 0.0, 0.0, -0.0, 0.0, 1000.0]; np.round(h, -2): [65504.0, 0.0, 0.0, 0.0, -0.0, 0.0, 1000.0]
  std::vector<xf::half> h;
  for (const float v : {65504.0f, 1.0f, 1.2345f, 0.1235f, -2.5f, 0.5f, 1000.0f}) h.push_back(xf::half(v));
  const auto halves = [](std::initializer_list<float> v) {
    std::vector<xf::half> r;
    for (const float x : v) r.push_back(xf::half(x));
    return r;
  };
  const float hinf = std::numeric_limits<float>::infinity(), hnan = std::numeric_limits<float>::quiet_NaN();
  const std::pair<int, std::vector<xf::half>> half_cases[] = {
      {1, halves({hinf, 1.0f, 1.2001953125f, 0.0999755859375f, -2.5f, 0.5f, 1000.0f})},
      {2, halves({hinf, 1.0f, 1.23046875f, 0.1199951171875f, -2.5f, 0.5f, hinf})},
      {5, halves({hnan, hnan, hnan, hnan, hnan, hnan, hnan})},
      {-1, halves({hinf, 0.0f, 0.0f, 0.0f, -0.0f, 0.0f, 1000.0f})},
      {-2, halves({65504.0f, 0.0f, 0.0f, 0.0f, -0.0f, 0.0f, 1000.0f})}};
  for (const auto& [decimals, want] : half_cases) {
    const std::string what = "round f16 " + std::to_string(decimals);
    require_values(evaluate<Space>(what, 0, [d = decimals](const auto& a) { return xf::round(a, d); }, h), want, what);
  }

  // Random inputs: nextafter moves one encoding step (and never past y); ldexp is exact against
  // long double; gcd and lcm equal std::gcd and std::lcm; round(x, 3) equals rint(x * 1000) / 1000
  // computed in double; isclose equals its formula in long double.
  const std::size_t n = 4099;
  const auto u = uniform<double>(n, -1e6, 1e6), v = uniform<double>(n, -1e6, 1e6);
  const auto k = uniform<std::int32_t>(n, -1100, 1100);
  const auto ia32 = uniform<std::int32_t>(n, -100000, 100000), ib32 = uniform<std::int32_t>(n, -100000, 100000);
  const auto na = evaluate<Space>("nextafter random", 0, [](const auto& a, const auto& b) { return xf::nextafter(a, b); }, u, v);
  const auto lx = evaluate<Space>("ldexp random", 0, [](const auto& a, const auto& b) { return xf::ldexp(a, b); }, u, k);
  const auto g = evaluate<Space>("gcd random", 0, [](const auto& a, const auto& b) { return xf::gcd(a, b); }, ia32, ib32);
  const auto l = evaluate<Space>("lcm random", 0, [](const auto& a, const auto& b) { return xf::lcm(a, b); }, ia32, ib32);
  const auto r3 = evaluate<Space>("round random", 0, [](const auto& a) { return xf::round(a, 3); }, u);
  const auto cl = evaluate<Space>("isclose random", 0, [](const auto& a, const auto& b) { return xf::isclose(a, b * 1e-6 + a, 1e-7, 0.5); }, u, v);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    bad += !(na[i] == std::nextafter(u[i], v[i]));
    bad += !(static_cast<long double>(lx[i]) == std::ldexp(static_cast<long double>(u[i]), k[i]) ||
             (std::isinf(lx[i]) && std::fabs(std::ldexp(static_cast<long double>(u[i]), k[i])) > std::numeric_limits<double>::max()) ||
             std::fabs(std::ldexp(static_cast<long double>(u[i]), k[i])) < 0x1p-1022L);
    bad += g[i] != std::gcd(ia32[i], ib32[i]);
    bad += l[i] != static_cast<std::int32_t>(static_cast<std::uint32_t>(std::lcm(static_cast<std::int64_t>(ia32[i]), static_cast<std::int64_t>(ib32[i]))));
    bad += r3[i] != std::rint(u[i] * 1000.0) / 1000.0;
    const long double b2 = static_cast<long double>(v[i] * 1e-6 + u[i]);
    const long double d = std::fabs(static_cast<long double>(u[i]) - b2);
    const long double bound = 0.5L + 1e-7L * std::fabs(b2);
    if (std::fabs(d - bound) > 1e-9L * bound) bad += cl[i] != (d <= bound);  // away from the boundary
  }
  REQUIRE(bad == 0);
}

}  // namespace xf_test::numpy_answers
