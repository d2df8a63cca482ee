// SPDX-License-Identifier: Apache-2.0
// The element-wise operations: each is a small functor with NumPy's typing (its `signature`) and
// its scalar arithmetic (`apply`, run in the compute type). Integer arithmetic wraps; integer
// division and remainder by zero give 0 (NumPy warns and gives 0); shifts past the bit width give
// 0 (or -1 for negative values shifted right), as NumPy does.
#pragma once

#include <cstring>
#include <limits>
#include <type_traits>

#include "../base/wrapping.hpp"
#include "node.hpp"
#include "scalar_math.hpp"

namespace xf::detail::ops {

// Converts each operand to the compute type of In, applies, converts the result to Out.
template <class Derived>
struct elementwise {
  template <class In, class Out, class... A>
  XF_HD XF_FORCEINLINE static Out eval(const Derived& self, const A&... a) {
    using C = compute_t<In>;
    return convert<Out>(self.apply(convert<C>(a)...));
  }
};

template <class... W>
struct same_sig {
  using in = promoted_t<W...>;
  using out = in;
};
template <class... W>
struct bool_sig {
  using in = promoted_t<W...>;
  using out = bool;
};

// The input type of a comparison between integers (or bool): no conversion, the values compare
// exactly whatever their types (see the comparisons below).
struct exact_integers {};
template <class... W>
struct compare_sig {
  using in = std::conditional_t<(std::is_integral_v<typename W::type> && ...), exact_integers, promoted_t<W...>>;
  using out = bool;
};

// Float functions compute integers and bool in the smallest float that holds every operand's
// values, as NumPy's loop selection does: sqrt(int8) is float16, hypot(int8, uint8) float16 (not
// the float32 of their promoted int16), hypot(bool_array, 2) float64 (bool with an integer is int64).
template <class P, class... W>
constexpr auto float_input() {
  if constexpr (!is_integer<P> && !is_bool<P>) {
    return std::type_identity<P>{};
  } else {
    using F = promoted_t<wtype<detail::float_for_int<std::conditional_t<W::weak, P, typename W::type>>, false>...>;
    return std::type_identity<F>{};
  }
}
template <class... W>
struct float_sig {
  using in = typename decltype(float_input<promoted_t<W...>, W...>())::type;
  using out = in;
};
template <class... W>
struct logical_sig {
  using in = bool;
  using out = bool;
};

#define XF_OP_NAME(NAME) static constexpr const char* name = "xf::" #NAME

#define XF_NO_COMPLEX(NAME, T) static_assert(!is_complex<T>, "xf::" #NAME " does not take complex values")
#define XF_NO_BOOL(NAME, T) static_assert(!is_bool<T>, "xf::" #NAME " does not take bool values")
#define XF_INTEGER_ONLY(NAME, T) \
  static_assert(is_integer<T> || is_bool<T>, "xf::" #NAME " takes integer or bool values only")

// ---------------------------------------------------------------- arithmetic
struct add : elementwise<add> {
  XF_OP_NAME(add);
  template <class... W>
  using signature = same_sig<W...>;
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    if constexpr (is_bool<T>) return a || b;
    else return wrapping_add(a, b);
  }
};

struct subtract : elementwise<subtract> {
  XF_OP_NAME(subtract);
  template <class... W>
  struct signature : same_sig<W...> {
    static_assert(!is_bool<promoted_t<W...>>, "xf::subtract: bool - bool is not defined (NumPy refuses it too); use xf::logical_xor or ^");
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    if constexpr (is_integer<T>) return T(wide_unsigned<T>(a) - wide_unsigned<T>(b));
    else return a - b;
  }
};

struct multiply : elementwise<multiply> {
  XF_OP_NAME(multiply);
  template <class... W>
  using signature = same_sig<W...>;
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    if constexpr (is_bool<T>) return a && b;
    else return wrapping_multiply(a, b);
  }
};

// NumPy's true division: integers and bool divide as float64.
struct divide : elementwise<divide> {
  XF_OP_NAME(divide);
  template <class... W>
  struct signature {
    using p = promoted_t<W...>;
    using in = std::conditional_t<is_integer<p> || is_bool<p>, double, p>;
    using out = in;
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    return a / b;
  }
};

// Python's divmod on floats (NumPy's npy_divmod): the quotient rounded toward minus infinity.
template <class T>
XF_HD XF_FORCEINLINE T float_floor_divide(T a, T b) {
  if (b == T(0)) return a / b;
  T mod = math::r_fmod(a, b);
  T div = (a - mod) / b;
  if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) div -= T(1);
  T floordiv;
  if (div != T(0)) {
    floordiv = math::r_floor(div);
    if (div - floordiv > T(0.5)) floordiv += T(1);
  } else {
    floordiv = math::r_copysign(T(0), a / b);
  }
  return floordiv;
}
template <class T>
XF_HD XF_FORCEINLINE T float_remainder(T a, T b) {
  T mod = math::r_fmod(a, b);
  if (b == T(0)) return mod;
  if (mod != T(0)) {
    if ((b < T(0)) != (mod < T(0))) mod += b;
  } else {
    mod = math::r_copysign(T(0), b);
  }
  return mod;
}

struct floor_divide : elementwise<floor_divide> {
  XF_OP_NAME(floor_divide);
  template <class... W>
  struct signature {
    using p = promoted_t<W...>;
    XF_NO_COMPLEX(floor_divide, p);
    using in = std::conditional_t<is_bool<p>, std::int8_t, p>;
    using out = in;
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    if constexpr (is_integer<T>) {
      if (b == T(0)) return T(0);
      if constexpr (std::is_signed_v<T>) {
        if (b == T(-1)) return T(wide_unsigned<T>(0) - wide_unsigned<T>(a));  // MIN // -1 wraps to MIN
        T q = a / b;
        if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
        return q;
      } else {
        return a / b;
      }
    } else {
      return float_floor_divide(a, b);
    }
  }
};

struct remainder : elementwise<remainder> {
  XF_OP_NAME(remainder);
  template <class... W>
  struct signature {
    using p = promoted_t<W...>;
    XF_NO_COMPLEX(remainder, p);
    using in = std::conditional_t<is_bool<p>, std::int8_t, p>;
    using out = in;
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    if constexpr (is_integer<T>) {
      if (b == T(0)) return T(0);
      if constexpr (std::is_signed_v<T>) {
        if (b == T(-1)) return T(0);
        T r = a % b;
        if (r != 0 && ((r < 0) != (b < 0))) r += b;
        return r;
      } else {
        return a % b;
      }
    } else {
      return float_remainder(a, b);
    }
  }
};

// C's fmod: the remainder takes the sign of the dividend.
struct fmod : elementwise<fmod> {
  XF_OP_NAME(fmod);
  template <class... W>
  struct signature {
    using p = promoted_t<W...>;
    XF_NO_COMPLEX(fmod, p);
    using in = std::conditional_t<is_bool<p>, std::int8_t, p>;
    using out = in;
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    if constexpr (is_integer<T>) {
      if (b == T(0)) return T(0);
      if constexpr (std::is_signed_v<T>) {
        if (b == T(-1)) return T(0);
      }
      return a % b;
    } else {
      return math::r_fmod(a, b);
    }
  }
};

// Integer powers by squaring (negative exponents give 0, or +-1 for a base of +-1); floats and
// complex through pow.
struct power : elementwise<power> {
  XF_OP_NAME(power);
  template <class... W>
  struct signature {
    using p = promoted_t<W...>;
    using in = std::conditional_t<is_bool<p>, std::int8_t, p>;
    using out = in;
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    if constexpr (is_integer<T>) {
      if constexpr (std::is_signed_v<T>) {
        if (b < 0) {
          if (a == T(1)) return T(1);
          if (a == T(-1)) return (b & 1) ? T(-1) : T(1);
          return T(0);
        }
      }
      wide_unsigned<T> result = 1, base = wide_unsigned<T>(a);
      auto e = static_cast<std::make_unsigned_t<T>>(b);
      while (e) {
        if (e & 1) result *= base;
        base *= base;
        e >>= 1;
      }
      return T(result);
    } else if constexpr (is_complex<T>) {
      return math::c_pow(a, b);
    } else {
      return math::r_pow(a, b);
    }
  }
};

// maximum and minimum propagate NaN, like NumPy's.
struct maximum : elementwise<maximum> {
  XF_OP_NAME(maximum);
  template <class... W>
  struct signature : same_sig<W...> {
    XF_NO_COMPLEX(maximum, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (a != a) return a;
      if (b != b) return b;
    }
    return a >= b ? a : b;
  }
};

struct minimum : elementwise<minimum> {
  XF_OP_NAME(minimum);
  template <class... W>
  struct signature : same_sig<W...> {
    XF_NO_COMPLEX(minimum, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (a != a) return a;
      if (b != b) return b;
    }
    return a <= b ? a : b;
  }
};

struct hypot : elementwise<hypot> {
  XF_OP_NAME(hypot);
  template <class... W>
  struct signature : float_sig<W...> {
    XF_NO_COMPLEX(hypot, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    return math::r_hypot(a, b);
  }
};

struct arctan2 : elementwise<arctan2> {
  XF_OP_NAME(arctan2);
  template <class... W>
  struct signature : float_sig<W...> {
    XF_NO_COMPLEX(arctan2, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    return math::r_atan2(a, b);
  }
};

// fmax and fmin ignore NaN, as NumPy's do: the other operand, NaN only when both are; on a tie
// (0.0 and -0.0) the second operand, as NumPy gives on x86.
struct fmax : elementwise<fmax> {
  XF_OP_NAME(fmax);
  template <class... W>
  struct signature : same_sig<W...> {
    XF_NO_COMPLEX(fmax, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (a != a) return b;
      if (b != b) return a;
    }
    return a > b ? a : b;
  }
};

struct fmin : elementwise<fmin> {
  XF_OP_NAME(fmin);
  template <class... W>
  struct signature : same_sig<W...> {
    XF_NO_COMPLEX(fmin, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (a != a) return b;
      if (b != b) return a;
    }
    return a < b ? a : b;
  }
};

// The magnitude of a with the sign bit of b.
struct copysign : elementwise<copysign> {
  XF_OP_NAME(copysign);
  template <class... W>
  struct signature : float_sig<W...> {
    XF_NO_COMPLEX(copysign, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    return math::r_copysign(a, b);
  }
};

// The step function: 0 below zero, 1 above, h0 at zero (either sign), NaN for NaN.
struct heaviside : elementwise<heaviside> {
  XF_OP_NAME(heaviside);
  template <class... W>
  struct signature : float_sig<W...> {
    XF_NO_COMPLEX(heaviside, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T x, T h0) const {
    if (x < T(0)) return T(0);
    if (x > T(0)) return T(1);
    return x == T(0) ? h0 : x;
  }
};

// log(exp(x) + exp(y)) and log2(2^x + 2^y) without overflow, as NumPy computes them: equal
// operands (infinities of one sign included) add log(2) or 1; otherwise the larger plus the
// log1p of the smaller's share; NaN for NaN.
struct logaddexp : elementwise<logaddexp> {
  XF_OP_NAME(logaddexp);
  template <class... W>
  struct signature : float_sig<W...> {
    XF_NO_COMPLEX(logaddexp, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T x, T y) const {
    if (x == y) return x + T(0.693147180559945309417232121458176568);
    const T d = x - y;
    if (d > T(0)) return x + math::r_log1p(math::r_exp(-d));
    if (d <= T(0)) return y + math::r_log1p(math::r_exp(d));
    return d;
  }
};

struct logaddexp2 : elementwise<logaddexp2> {
  XF_OP_NAME(logaddexp2);
  template <class... W>
  struct signature : float_sig<W...> {
    XF_NO_COMPLEX(logaddexp2, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T x, T y) const {
    constexpr T log2_e = T(1.442695040888963407359924681001892137);
    if (x == y) return x + T(1);
    const T d = x - y;
    if (d > T(0)) return x + log2_e * math::r_log1p(math::r_exp2(-d));
    if (d <= T(0)) return y + log2_e * math::r_log1p(math::r_exp2(d));
    return d;
  }
};

// Degrees to radians and back: one multiplication by pi / 180 or 180 / pi in the computing type.
struct deg2rad : elementwise<deg2rad> {
  XF_OP_NAME(deg2rad);
  template <class... W>
  struct signature : float_sig<W...> {
    XF_NO_COMPLEX(deg2rad, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a) const {
    return a * (T(3.141592653589793238462643383279502884) / T(180));
  }
};

struct rad2deg : elementwise<rad2deg> {
  XF_OP_NAME(rad2deg);
  template <class... W>
  struct signature : float_sig<W...> {
    XF_NO_COMPLEX(rad2deg, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a) const {
    return a * (T(180) / T(3.141592653589793238462643383279502884));
  }
};

// Whether the sign bit is set: -0.0 and negative NaN included; integers below zero.
struct signbit : elementwise<signbit> {
  XF_OP_NAME(signbit);
  template <class... W>
  struct signature : bool_sig<W...> {
    XF_NO_COMPLEX(signbit, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE bool apply(T a) const {
    if constexpr (std::is_floating_point_v<T>) return math::r_copysign(T(1), a) < T(0);
    else if constexpr (is_bool<T> || std::is_unsigned_v<T>) return false;
    else return a < T(0);
  }
};

// ---------------------------------------------------------------- rounding, steps and parts
// The unsigned integer of a floating type's width: its IEEE encoding.
template <class T>
using encoding_t = std::conditional_t<sizeof(T) == 2, std::uint16_t, std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>;

// The next representable value after a toward b, stepped in the result type itself (float16
// steps in float16), as C's nextafter: b when they are equal, the smallest subnormal of b's sign
// after zero, NaN for NaN.
struct nextafter {
  XF_OP_NAME(nextafter);
  template <class... W>
  struct signature : float_sig<W...> {
    XF_NO_COMPLEX(nextafter, promoted_t<W...>);
  };
  template <class In, class Out, class A, class B>
  XF_HD XF_FORCEINLINE static Out eval(const nextafter&, const A& a, const B& b) {
    return convert<Out>(step(convert<In>(a), convert<In>(b)));
  }
  template <class T>
  XF_HD XF_FORCEINLINE static T step(T x, T y) {
    using U = encoding_t<T>;
    const double dx = convert<double>(x), dy = convert<double>(y);
    if (dx != dx || dy != dy) return convert<T>(dx + dy);
    if (dx == dy) return y;
    U bits;
    if (dx == 0.0) {
      bits = static_cast<U>((dy < 0.0 ? U(1) << (8 * sizeof(T) - 1) : U(0)) | U(1));
    } else {
      memcpy(&bits, &x, sizeof(T));
      bits = (dx < dy) == (dx > 0.0) ? static_cast<U>(bits + 1) : static_cast<U>(bits - 1);
    }
    T out;
    memcpy(&out, &bits, sizeof(T));
    return out;
  }
};

// x * 2^n: the float type of x (ldexp(float16, int64) is float16), n an integer of any type.
struct ldexp {
  XF_OP_NAME(ldexp);
  template <class WX, class WN>
  struct signature {
    static_assert(std::is_integral_v<typename WN::type>, "xf::ldexp: the exponent is an integer");
    XF_NO_COMPLEX(ldexp, typename WX::type);
    using in = typename float_sig<WX>::in;
    using out = in;
  };
  template <class In, class Out, class A, class B>
  XF_HD XF_FORCEINLINE static Out eval(const ldexp&, const A& x, const B& n) {
    // Past +-100000 every finite value has overflowed or underflowed: clamp before narrowing to
    // int. The bounds are compared in 64 bits (written in B, they would wrap for 8- and 16-bit B).
    long long e = 0;
    if constexpr (std::is_signed_v<B>) {
      const long long v = static_cast<long long>(n);
      e = v < -100000 ? -100000 : (v > 100000 ? 100000 : v);
    } else {
      const unsigned long long v = static_cast<unsigned long long>(n);
      e = v > 100000u ? 100000 : static_cast<long long>(v);
    }
    return convert<Out>(math::r_ldexp(convert<compute_t<In>>(x), static_cast<int>(e)));
  }
};

// frexp's two parts: the mantissa in [0.5, 1) with x's sign (x itself for 0, inf and NaN), and
// the exponent as int32 (0 for 0, inf and NaN).
struct frexp_mantissa : elementwise<frexp_mantissa> {
  XF_OP_NAME(frexp);
  template <class... W>
  struct signature : float_sig<W...> {
    XF_NO_COMPLEX(frexp, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T x) const {
    if (!(x - x == T(0))) return x;  // inf and NaN
    int e = 0;
    return math::r_frexp(x, &e);
  }
};
struct frexp_exponent {
  XF_OP_NAME(frexp);
  template <class... W>
  struct signature {
    XF_NO_COMPLEX(frexp, promoted_t<W...>);
    using in = typename float_sig<W...>::in;
    using out = std::int32_t;
  };
  template <class In, class Out, class A>
  XF_HD XF_FORCEINLINE static Out eval(const frexp_exponent&, const A& a) {
    const auto x = convert<compute_t<In>>(a);
    if (!(x - x == decltype(x)(0))) return Out(0);
    int e = 0;
    (void)math::r_frexp(x, &e);
    return Out(e);
  }
};

// modf's two parts: the fraction with x's sign (signed zero for integers and infinities) and the
// integral part, both in the float type.
struct modf_fraction : elementwise<modf_fraction> {
  XF_OP_NAME(modf);
  template <class... W>
  struct signature : float_sig<W...> {
    XF_NO_COMPLEX(modf, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T x) const {
    if (x != x) return x;
    if (x - x != T(0)) return math::r_copysign(T(0), x);  // infinities
    return math::r_copysign(x - math::r_trunc(x), x);
  }
};
struct modf_integral : elementwise<modf_integral> {
  XF_OP_NAME(modf);
  template <class... W>
  struct signature : float_sig<W...> {
    XF_NO_COMPLEX(modf, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T x) const {
    return math::r_trunc(x);
  }
};

// sin(pi x) / (pi x), as NumPy 2 computes it: y = pi * x, a zero y replaced by the type's epsilon
// (so sinc(0) is 1). np.sinc is no ufunc: pi * x makes every integer and bool input float64.
struct sinc : elementwise<sinc> {
  XF_OP_NAME(sinc);
  template <class... W>
  struct signature {
    XF_NO_COMPLEX(sinc, promoted_t<W...>);
    using in = std::conditional_t<is_integer<promoted_t<W...>> || is_bool<promoted_t<W...>>, double, typename float_sig<W...>::in>;
    using out = in;
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T x) const {
    T y = T(3.141592653589793238462643383279502884) * x;
    if (y == T(0)) y = limits<T>::epsilon();
    return math::r_sin(y) / y;
  }
};

// Power in float64 whatever the operands (NumPy's float_power).
struct float_power {
  XF_OP_NAME(float_power);
  template <class... W>
  struct signature {
    XF_NO_COMPLEX(float_power, promoted_t<W...>);
    using in = double;
    using out = double;
  };
  template <class In, class Out, class A, class B>
  XF_HD XF_FORCEINLINE static Out eval(const float_power&, const A& a, const B& b) {
    return math::r_pow(convert<double>(a), convert<double>(b));
  }
};

// Greatest common divisor and least common multiple of integers, nonnegative, on the magnitudes
// in unsigned arithmetic (so int8 -128 stays -128 after wrapping, as NumPy gives).
template <class T>
XF_HD XF_FORCEINLINE std::make_unsigned_t<T> magnitude(T a) {
  using U = std::make_unsigned_t<T>;
  if constexpr (std::is_signed_v<T>) return a < T(0) ? static_cast<U>(U(0) - static_cast<U>(a)) : static_cast<U>(a);
  else return a;
}
template <class U>
XF_HD XF_FORCEINLINE U euclid(U a, U b) {
  while (b != U(0)) {
    const U r = static_cast<U>(a % b);
    a = b;
    b = r;
  }
  return a;
}
struct gcd : elementwise<gcd> {
  XF_OP_NAME(gcd);
  template <class... W>
  struct signature : same_sig<W...> {
    static_assert(is_integer<promoted_t<W...>>, "xf::gcd takes integers");
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    return static_cast<T>(euclid(magnitude(a), magnitude(b)));
  }
};
struct lcm : elementwise<lcm> {
  XF_OP_NAME(lcm);
  template <class... W>
  struct signature : same_sig<W...> {
    static_assert(is_integer<promoted_t<W...>>, "xf::lcm takes integers");
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    const auto ua = magnitude(a), ub = magnitude(b);
    const auto g = euclid(ua, ub);
    using U = decltype(g);
    return g == U(0) ? T(0) : static_cast<T>(static_cast<U>(static_cast<U>(ua / g) * ub));
  }
};

// The largest finite value of a floating type (float16 and bfloat16 included).
template <class T>
XF_HD XF_FORCEINLINE double largest_finite() {
  if constexpr (std::is_same_v<T, half>) return 65504.0;
  else if constexpr (std::is_same_v<T, bfloat16>) return 3.3895313892515355e38;
  else return static_cast<double>(limits<T>::max());
}

// NaN and infinities replaced (np.nan_to_num): by `nan_value`, and by the given values or the
// type's largest finite values; integers unchanged.
struct nan_to_num {
  XF_OP_NAME(nan_to_num);
  double nan_value = 0.0, posinf_value = 0.0, neginf_value = 0.0;
  bool posinf_given = false, neginf_given = false;
  template <class... W>
  struct signature : same_sig<W...> {
    XF_NO_COMPLEX(nan_to_num, promoted_t<W...>);
  };
  template <class In, class Out, class A>
  XF_HD XF_FORCEINLINE static Out eval(const nan_to_num& op, const A& a) {
    if constexpr (is_floating<In>) {
      const auto x = convert<compute_t<In>>(a);
      if (x != x) return convert<Out>(op.nan_value);
      if (x - x != x - x) {  // an infinity
        if (x > decltype(x)(0)) return convert<Out>(op.posinf_given ? op.posinf_value : largest_finite<In>());
        return convert<Out>(op.neginf_given ? op.neginf_value : -largest_finite<In>());
      }
      return convert<Out>(x);
    } else {
      return convert<Out>(a);
    }
  }
};

// np.isclose: |a - b| <= atol + rtol |b| where b is finite, or a == b (infinities of one sign);
// NaN equals NaN only with equal_nan. Integers compare in float64, floats in their own type.
struct isclose {
  XF_OP_NAME(isclose);
  double rtol = 1e-5, atol = 1e-8;
  bool equal_nan = false;
  template <class... W>
  struct signature {
    using p = promoted_t<W...>;
    XF_NO_COMPLEX(isclose, p);
    using in = std::conditional_t<is_floating<p>, p, double>;
    using out = bool;
  };
  template <class In, class Out, class A, class B>
  XF_HD XF_FORCEINLINE static Out eval(const isclose& op, const A& a, const B& b) {
    using C = compute_t<In>;
    const C x = convert<C>(convert<In>(a)), y = convert<C>(convert<In>(b));
    const C d = x > y ? x - y : y - x;
    const C ay = y < C(0) ? -y : y;
    const bool finite_y = y - y == C(0);
    bool close = (d <= C(op.atol) + C(op.rtol) * ay && finite_y) || x == y;
    if (op.equal_nan && x != x && y != y) close = true;
    return close;
  }
};

// np.round(x, decimals): half to even at the given decimal place, computed in the array's type
// as NumPy does (x * 10^d rounded, then divided); integers change only for negative decimals.
struct round_decimals {
  XF_OP_NAME(round);
  int decimals = 0;
  template <class... W>
  struct signature : same_sig<W...> {
    XF_NO_COMPLEX(round, promoted_t<W...>);
  };
  // 10^n, infinity past 1e308 (then floats give NaN, as NumPy's 10**decimals does); n <= 400.
  XF_HD XF_FORCEINLINE static double power_of_ten(int n) {
    double f = 1.0;
    for (int i = 0; i < n && f <= 1e308; ++i) f *= 10.0;
    return f;
  }
  template <class In, class Out, class A>
  XF_HD XF_FORCEINLINE static Out eval(const round_decimals& op, const A& a) {
    return convert<Out>(op.apply<In>(convert<compute_t<In>>(a)));
  }
  // x in the compute type C of the array's type In. float16 and bfloat16 compute in float, so each
  // step is rounded back to In, as NumPy's float16 loops do (round(float16 65504, 1) is inf).
  template <class In, class C>
  XF_HD XF_FORCEINLINE C apply(C x) const {
    if constexpr (is_integer<C> || is_bool<C>) {
      if (decimals >= 0 || is_bool<C>) return x;
      const double f = power_of_ten(-decimals);
      if (f > 1e308) return C(0);  // rounded to a multiple of more than any integer holds
      return static_cast<C>(math::r_rint(static_cast<double>(x) / f) * f);
    } else {
      const auto in_type = [](C v) {
        if constexpr (is_low_precision<In>) return convert<C>(convert<In>(v));
        else return v;
      };
      if (decimals == 0) return math::r_rint(x);
      if (decimals > 0) {
        const C f = in_type(C(power_of_ten(decimals)));
        return in_type(math::r_rint(in_type(x * f)) / f);
      }
      const C f = in_type(C(power_of_ten(-decimals)));
      return in_type(math::r_rint(in_type(x / f)) * f);
    }
  }
};

// ---------------------------------------------------------------- comparisons
// Integers (and bool) compare exactly, as in NumPy 2: int64 with uint64 without going through
// float64 (arithmetic still promotes them to float64), and an integer array with a C++ integer
// that its type cannot hold (uint8_array > -1 is all true, int8_array == 300 all false; arithmetic
// with such a scalar throws). Everything else compares in the promoted type.
template <class A, class B>
XF_HD XF_FORCEINLINE bool exact_less(A a, B b) {
  if constexpr (std::is_signed_v<A> == std::is_signed_v<B>) return a < b;
  else if constexpr (std::is_signed_v<A>) return a < 0 || static_cast<std::uint64_t>(a) < static_cast<std::uint64_t>(b);
  else return b >= 0 && static_cast<std::uint64_t>(a) < static_cast<std::uint64_t>(b);
}
template <class A, class B>
XF_HD XF_FORCEINLINE bool exact_equal(A a, B b) {
  if constexpr (std::is_signed_v<A> == std::is_signed_v<B>) return a == b;
  else if constexpr (std::is_signed_v<A>) return a >= 0 && static_cast<std::uint64_t>(a) == static_cast<std::uint64_t>(b);
  else return b >= 0 && static_cast<std::uint64_t>(a) == static_cast<std::uint64_t>(b);
}

#define XF_COMPARISON(NAME, OP, ORDERED, EXACT)                                                       \
  struct NAME {                                                                                      \
    XF_OP_NAME(NAME);                                                                                \
    template <class... W>                                                                            \
    struct signature : compare_sig<W...> {                                                           \
      static_assert(!(ORDERED) || !is_complex<promoted_t<W...>>,                                     \
                    "xf::" #NAME ": complex values have no order; compare xf::real or xf::abs");     \
    };                                                                                               \
    template <class T>                                                                               \
    XF_HD XF_FORCEINLINE bool apply(T a, T b) const {                                                \
      return a OP b;                                                                                 \
    }                                                                                                \
    template <class In, class Out, class A, class B>                                                 \
    XF_HD XF_FORCEINLINE static Out eval(const NAME& self, const A& a, const B& b) {                 \
      if constexpr (std::is_same_v<In, exact_integers>) {                                            \
        return EXACT;                                                                                \
      } else {                                                                                       \
        using C = compute_t<In>;                                                                     \
        return self.apply(convert<C>(a), convert<C>(b));                                             \
      }                                                                                              \
    }                                                                                                \
  };
XF_COMPARISON(equal, ==, false, exact_equal(a, b))
XF_COMPARISON(not_equal, !=, false, !exact_equal(a, b))
XF_COMPARISON(less, <, true, exact_less(a, b))
XF_COMPARISON(less_equal, <=, true, !exact_less(b, a))
XF_COMPARISON(greater, >, true, exact_less(b, a))
XF_COMPARISON(greater_equal, >=, true, !exact_less(a, b))
#undef XF_COMPARISON

// ---------------------------------------------------------------- logical and bitwise
struct logical_and : elementwise<logical_and> {
  XF_OP_NAME(logical_and);
  template <class... W>
  using signature = logical_sig<W...>;
  XF_HD XF_FORCEINLINE bool apply(bool a, bool b) const { return a && b; }
};
struct logical_or : elementwise<logical_or> {
  XF_OP_NAME(logical_or);
  template <class... W>
  using signature = logical_sig<W...>;
  XF_HD XF_FORCEINLINE bool apply(bool a, bool b) const { return a || b; }
};
struct logical_xor : elementwise<logical_xor> {
  XF_OP_NAME(logical_xor);
  template <class... W>
  using signature = logical_sig<W...>;
  XF_HD XF_FORCEINLINE bool apply(bool a, bool b) const { return a != b; }
};
struct logical_not : elementwise<logical_not> {
  XF_OP_NAME(logical_not);
  template <class... W>
  using signature = logical_sig<W...>;
  XF_HD XF_FORCEINLINE bool apply(bool a) const { return !a; }
};

#define XF_BITWISE(NAME, OP)                                          \
  struct NAME : elementwise<NAME> {                                  \
    XF_OP_NAME(NAME);                                                \
    template <class... W>                                            \
    struct signature : same_sig<W...> {                              \
      XF_INTEGER_ONLY(NAME, promoted_t<W...>);                       \
    };                                                               \
    template <class T>                                               \
    XF_HD XF_FORCEINLINE T apply(T a, T b) const {                   \
      if constexpr (is_bool<T>) return bool(a OP b);                 \
      else return T(a OP b);                                         \
    }                                                                \
  };
XF_BITWISE(bitwise_and, &)
XF_BITWISE(bitwise_or, |)
XF_BITWISE(bitwise_xor, ^)
#undef XF_BITWISE

struct invert : elementwise<invert> {
  XF_OP_NAME(invert);
  template <class... W>
  struct signature : same_sig<W...> {
    XF_INTEGER_ONLY(invert, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a) const {
    if constexpr (is_bool<T>) return !a;
    else return T(~a);
  }
};

// Shifts of bool values shift int8 values (NumPy: left_shift(bool, bool) is int8).
template <class... W>
struct shift_sig {
  using p = promoted_t<W...>;
  static_assert(is_integer<p> || is_bool<p>, "xf::left_shift and xf::right_shift take integer values only");
  using in = std::conditional_t<is_bool<p>, std::int8_t, p>;
  using out = in;
};

struct left_shift : elementwise<left_shift> {
  XF_OP_NAME(left_shift);
  template <class... W>
  using signature = shift_sig<W...>;
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    // A count past the width (negative counts included, read as unsigned) shifts everything out.
    if (static_cast<std::uint64_t>(b) >= sizeof(T) * 8) return T(0);
    return T(wide_unsigned<T>(a) << b);
  }
};

struct right_shift : elementwise<right_shift> {
  XF_OP_NAME(right_shift);
  template <class... W>
  using signature = shift_sig<W...>;
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a, T b) const {
    if (static_cast<std::uint64_t>(b) >= sizeof(T) * 8) {
      if constexpr (std::is_signed_v<T>) return a < 0 ? T(-1) : T(0);
      else return T(0);
    }
    return T(a >> b);
  }
};

// ---------------------------------------------------------------- unary arithmetic
struct negative : elementwise<negative> {
  XF_OP_NAME(negative);
  template <class... W>
  struct signature : same_sig<W...> {
    static_assert(!is_bool<promoted_t<W...>>, "xf::negative: -bool is not defined (NumPy refuses it too); use xf::logical_not or ~");
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a) const {
    if constexpr (is_integer<T>) return T(wide_unsigned<T>(0) - wide_unsigned<T>(a));
    else return -a;
  }
};

// abs of a complex value is its magnitude (a real type); abs(INT_MIN) wraps to INT_MIN.
struct absolute : elementwise<absolute> {
  XF_OP_NAME(abs);
  template <class... W>
  struct signature {
    using in = promoted_t<W...>;
    using out = real_t<in>;
  };
  template <class T>
  XF_HD XF_FORCEINLINE auto apply(T a) const {
    if constexpr (is_complex<T>) return math::c_abs(a);
    else if constexpr (is_bool<T>) return a;
    else if constexpr (std::is_unsigned_v<T>) return a;
    else if constexpr (is_integer<T>) return a < 0 ? T(wide_unsigned<T>(0) - wide_unsigned<T>(a)) : a;
    else return math::r_fabs(a);
  }
};

// sign: -1, 0 or 1 (NaN stays NaN); for complex values NumPy 2's z / |z|.
struct sign : elementwise<sign> {
  XF_OP_NAME(sign);
  template <class... W>
  struct signature : same_sig<W...> {
    XF_NO_BOOL(sign, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a) const {
    if constexpr (is_complex<T>) {
      const auto m = math::c_abs(a);
      return m == 0 ? T(0) : a / m;
    } else if constexpr (std::is_unsigned_v<T>) {
      return T(a > 0);
    } else {
      if constexpr (std::is_floating_point_v<T>) {
        if (a != a) return a;
      }
      return T((T(0) < a) - (a < T(0)));
    }
  }
};

// square, reciprocal and conj of bool values give int8 values, as NumPy's do (no bool loop).
template <class... W>
struct bool_as_int8_sig {
  using p = promoted_t<W...>;
  using in = std::conditional_t<is_bool<p>, std::int8_t, p>;
  using out = in;
};

struct square : elementwise<square> {
  XF_OP_NAME(square);
  template <class... W>
  using signature = bool_as_int8_sig<W...>;
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a) const {
    return multiply{}.apply(a, a);
  }
};

// 1 / x in the input's type (bool: int8, as NumPy's); integer 1 / 0 gives 0.
struct reciprocal : elementwise<reciprocal> {
  XF_OP_NAME(reciprocal);
  template <class... W>
  using signature = bool_as_int8_sig<W...>;
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a) const {
    if constexpr (is_integer<T>) return a == T(0) ? T(0) : T(T(1) / a);
    else return T(1) / a;
  }
};

// ---------------------------------------------------------------- float functions
// Integers and bool are computed as the smallest float that holds them (NumPy: sqrt(int8) is float16).
#define XF_FLOAT_FN(NAME, REAL, CPLX, TAKES_COMPLEX)                                         \
  struct NAME : elementwise<NAME> {                                                          \
    XF_OP_NAME(NAME);                                                                        \
    template <class... W>                                                                    \
    struct signature : float_sig<W...> {                                                     \
      static_assert((TAKES_COMPLEX) || !is_complex<promoted_t<W...>>,                        \
                    "xf::" #NAME " does not take complex values");                           \
    };                                                                                       \
    template <class T>                                                                       \
    XF_HD XF_FORCEINLINE T apply(T a) const {                                                \
      if constexpr (is_complex<T>) return math::CPLX(a);                                     \
      else return math::REAL(a);                                                             \
    }                                                                                        \
  };
XF_FLOAT_FN(sqrt, r_sqrt, c_sqrt, true)
XF_FLOAT_FN(cbrt, r_cbrt, c_sqrt, false)
XF_FLOAT_FN(exp, r_exp, c_exp, true)
XF_FLOAT_FN(exp2, r_exp2, c_exp, false)
XF_FLOAT_FN(expm1, r_expm1, c_exp, false)
XF_FLOAT_FN(log, r_log, c_log, true)
XF_FLOAT_FN(log2, r_log2, c_log, false)
XF_FLOAT_FN(log10, r_log10, c_log10, true)
XF_FLOAT_FN(log1p, r_log1p, c_log, false)
XF_FLOAT_FN(sin, r_sin, c_sin, true)
XF_FLOAT_FN(cos, r_cos, c_cos, true)
XF_FLOAT_FN(tan, r_tan, c_tan, true)
XF_FLOAT_FN(arcsin, r_asin, c_asin, true)
XF_FLOAT_FN(arccos, r_acos, c_acos, true)
XF_FLOAT_FN(arctan, r_atan, c_atan, true)
XF_FLOAT_FN(sinh, r_sinh, c_sinh, true)
XF_FLOAT_FN(cosh, r_cosh, c_cosh, true)
XF_FLOAT_FN(tanh, r_tanh, c_tanh, true)
XF_FLOAT_FN(arcsinh, r_asinh, c_asinh, true)
XF_FLOAT_FN(arccosh, r_acosh, c_acosh, true)
XF_FLOAT_FN(arctanh, r_atanh, c_atanh, true)
XF_FLOAT_FN(erf, r_erf, c_exp, false)
XF_FLOAT_FN(erfc, r_erfc, c_exp, false)
#undef XF_FLOAT_FN

// ---------------------------------------------------------------- activations (PyTorch's)
// relu(x) = max(x, 0), NaN kept (torch.relu); integers keep their type.
struct relu : elementwise<relu> {
  XF_OP_NAME(relu);
  template <class... W>
  struct signature : same_sig<W...> {
    XF_NO_COMPLEX(relu, promoted_t<W...>);
    XF_NO_BOOL(relu, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a) const {
    if constexpr (std::is_unsigned_v<T>) return a;
    else return a < T(0) ? T(0) : a;  // NaN compares false: kept
  }
};

// gelu(x) = x/2 (1 + erf(x / sqrt 2)): torch.nn.functional.gelu's default.
struct gelu : elementwise<gelu> {
  XF_OP_NAME(gelu);
  template <class... W>
  struct signature : float_sig<W...> {
    XF_NO_COMPLEX(gelu, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T x) const {
    return T(0.5) * x * (T(1) + math::r_erf(x * T(0.7071067811865475244008443621048490)));
  }
};

// The tanh approximation, gelu(x, approximate="tanh") in PyTorch, as cuBLASLt's GELU epilogue
// computes it: x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
struct gelu_tanh : elementwise<gelu_tanh> {
  XF_OP_NAME(gelu_tanh);
  template <class... W>
  struct signature : float_sig<W...> {
    XF_NO_COMPLEX(gelu_tanh, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T x) const {
    const T inner = T(0.7978845608028653558798921198687637) * (x + T(0.044715) * x * x * x);
    return T(0.5) * x * (T(1) + math::r_tanh(inner));
  }
};

// floor, ceil, trunc: integers and bool pass through unchanged (same type), as in NumPy 2.
#define XF_ROUNDING_FN(NAME, REAL)                                      \
  struct NAME : elementwise<NAME> {                                     \
    XF_OP_NAME(NAME);                                                   \
    template <class... W>                                               \
    struct signature : same_sig<W...> {                                 \
      XF_NO_COMPLEX(NAME, promoted_t<W...>);                            \
    };                                                                  \
    template <class T>                                                  \
    XF_HD XF_FORCEINLINE T apply(T a) const {                           \
      if constexpr (std::is_floating_point_v<T>) return math::REAL(a);  \
      else return a;                                                    \
    }                                                                   \
  };
XF_ROUNDING_FN(floor, r_floor)
XF_ROUNDING_FN(ceil, r_ceil)
XF_ROUNDING_FN(trunc, r_trunc)
#undef XF_ROUNDING_FN

// rint is a float function in NumPy 2: rint(int8) is float16, rint(int32) float64.
struct rint : elementwise<rint> {
  XF_OP_NAME(rint);
  template <class... W>
  struct signature : float_sig<W...> {
    XF_NO_COMPLEX(rint, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a) const {
    return math::r_rint(a);
  }
};

#define XF_CLASSIFY(NAME, REAL, INTEGER_ANSWER)                                   \
  struct NAME : elementwise<NAME> {                                               \
    XF_OP_NAME(NAME);                                                             \
    template <class... W>                                                         \
    using signature = bool_sig<W...>;                                             \
    template <class T>                                                            \
    XF_HD XF_FORCEINLINE bool apply(T a) const {                                  \
      if constexpr (is_complex<T>) return REAL(a.real()) || REAL(a.imag());       \
      else if constexpr (std::is_floating_point_v<T>) return REAL(a);             \
      else return INTEGER_ANSWER;                                                 \
    }                                                                             \
  };
XF_HD XF_FORCEINLINE bool is_nan_value(float x) { return math::r_isnan(x); }
XF_HD XF_FORCEINLINE bool is_nan_value(double x) { return math::r_isnan(x); }
XF_HD XF_FORCEINLINE bool is_inf_value(float x) { return math::r_isinf(x); }
XF_HD XF_FORCEINLINE bool is_inf_value(double x) { return math::r_isinf(x); }
XF_CLASSIFY(isnan, is_nan_value, false)
XF_CLASSIFY(isinf, is_inf_value, false)
#undef XF_CLASSIFY
struct isfinite : elementwise<isfinite> {
  XF_OP_NAME(isfinite);
  template <class... W>
  using signature = bool_sig<W...>;
  template <class T>
  XF_HD XF_FORCEINLINE bool apply(T a) const {
    if constexpr (is_complex<T>) return apply(a.real()) && apply(a.imag());
    else if constexpr (std::is_floating_point_v<T>) return !math::r_isnan(a) && !math::r_isinf(a);
    else return true;
  }
};

// ---------------------------------------------------------------- complex parts
struct real_part : elementwise<real_part> {
  XF_OP_NAME(real);
  template <class... W>
  struct signature {
    using in = promoted_t<W...>;
    using out = real_t<in>;
  };
  template <class T>
  XF_HD XF_FORCEINLINE auto apply(T a) const {
    if constexpr (is_complex<T>) return a.real();
    else return a;
  }
};
struct imag_part : elementwise<imag_part> {
  XF_OP_NAME(imag);
  template <class... W>
  struct signature {
    using in = promoted_t<W...>;
    using out = real_t<in>;
  };
  template <class T>
  XF_HD XF_FORCEINLINE auto apply(T a) const {
    if constexpr (is_complex<T>) return a.imag();
    else return T(0);
  }
};
struct conj : elementwise<conj> {
  XF_OP_NAME(conj);
  template <class... W>
  using signature = bool_as_int8_sig<W...>;
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T a) const {
    if constexpr (is_complex<T>) return math::c_conj(a);
    else return a;
  }
};
// angle in radians: arg(z) for complex values, 0 or pi for real ones. NumPy computes arctan2(0, x),
// where bool meets the integer 0 as int64: angle(bool) is float64, angle(int8) float16.
struct angle : elementwise<angle> {
  XF_OP_NAME(angle);
  template <class... W>
  struct signature {
    using p = promoted_t<W...>;
    using in = std::conditional_t<is_complex<p>, p, std::conditional_t<is_bool<p>, double, float_result_t<p>>>;
    using out = real_t<in>;
  };
  template <class T>
  XF_HD XF_FORCEINLINE auto apply(T a) const {
    if constexpr (is_complex<T>) return math::c_arg(a);
    else return math::r_atan2(T(0), a);
  }
};

// ---------------------------------------------------------------- ternary
// where(cond, a, b): cond read as bool, a and b promoted together.
struct where {
  XF_OP_NAME(where);
  template <class C, class A, class B>
  struct signature {
    using in = promoted_t<A, B>;
    using out = in;
  };
  template <class In, class Out, class C, class A, class B>
  XF_HD XF_FORCEINLINE static Out eval(const where&, const C& c, const A& a, const B& b) {
    return convert<bool>(c) ? convert<Out>(a) : convert<Out>(b);
  }
};

// clip(x, lo, hi) = minimum(maximum(x, lo), hi), NaN propagating.
struct clip : elementwise<clip> {
  XF_OP_NAME(clip);
  template <class... W>
  struct signature : same_sig<W...> {
    XF_NO_COMPLEX(clip, promoted_t<W...>);
  };
  template <class T>
  XF_HD XF_FORCEINLINE T apply(T x, T lo, T hi) const {
    return minimum{}.apply(maximum{}.apply(x, lo), hi);
  }
};

// ---------------------------------------------------------------- casts and user functions
template <class To>
struct cast {
  XF_OP_NAME(astype);
  template <class W>
  struct signature {
    using in = typename W::type;
    using out = To;
  };
  template <class In, class Out, class A>
  XF_HD XF_FORCEINLINE static Out eval(const cast&, const A& a) {
    return convert<Out>(a);
  }
};

// A user function of the operands' values (xf::map): arguments are passed as they are.
template <class F>
struct user_fn {
  static constexpr const char* name = "xf::map";
  F f;
  template <class... W>
  struct signature {
    using in = void;
    using out = std::remove_cvref_t<decltype(std::declval<const F&>()(std::declval<typename W::type>()...))>;
    static_assert(element<out>, "xf::map: the function must return an xfuse element type");
  };
  template <class In, class Out, class... A>
  XF_HD XF_FORCEINLINE static Out eval(const user_fn& self, const A&... a) {
    return static_cast<Out>(self.f(a...));
  }
};

#undef XF_OP_NAME
#undef XF_NO_COMPLEX
#undef XF_NO_BOOL
#undef XF_INTEGER_ONLY

}  // namespace xf::detail::ops
