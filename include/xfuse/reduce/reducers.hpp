// SPDX-License-Identifier: Apache-2.0
// Reductions as four functions: identity, map (an element and its flat index over the reduced
// dimensions -> accumulator), combine (associative and commutative) and finish (accumulator and
// the count of reduced elements -> result). Every reduction, built-in or the user's, runs through
// these on the host and on the device, so both give the same answers.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "../base/convert.hpp"
#include "../base/wrapping.hpp"
#include "../expr/scalar_math.hpp"

namespace xf {
namespace detail {

template <class T>
XF_HD XF_FORCEINLINE bool nan_of(const T& x) {
  if constexpr (is_complex<T>) return x.real() != x.real() || x.imag() != x.imag();
  else if constexpr (std::is_floating_point_v<T>) return x != x;
  else return false;
}

template <class T>
XF_HD XF_FORCEINLINE real_t<T> squared_magnitude(const T& x) {
  if constexpr (is_complex<T>) return x.real() * x.real() + x.imag() * x.imag();
  else return x * x;
}

// NumPy's result types (integer sums and products wrap, as NumPy's do). sum and prod: bool and integers narrower than 64 bits widen to int64 (uint64
// for unsigned); mean, var and std of integers are float64; 16-bit floats accumulate in float.
template <class T>
using sum_result_t = std::conditional_t<
    is_bool<T> || (is_signed_integer<T> && sizeof(T) < 8), std::int64_t,
    std::conditional_t<is_unsigned_integer<T> && sizeof(T) < 8, std::uint64_t, T>>;
template <class T>
using mean_result_t = std::conditional_t<is_bool<T> || is_integer<T>, double, T>;
// The type a result of type T accumulates in.
template <class T>
using accumulate_t = compute_t<T>;

// sum and prod: the fold's identity (0 or 1) and operation, wrapping for integers; with SkipNan a
// NaN counts as the identity (nansum, nanprod).
template <class In, class Acc, class Out, bool SkipNan, bool Product>
struct arithmetic_reducer {
  using acc_type = Acc;
  using out_type = Out;
  XF_HD static Acc identity() { return Acc(Product ? 1 : 0); }
  XF_HD XF_FORCEINLINE Acc map(const In& v, index_t) const {
    if constexpr (SkipNan) {
      if (nan_of(v)) return identity();
    }
    return convert<Acc>(v);
  }
  XF_HD XF_FORCEINLINE Acc combine(const Acc& a, const Acc& b) const {
    if constexpr (Product) return wrapping_multiply(a, b);
    else return wrapping_add(a, b);
  }
  XF_HD Out finish(const Acc& a, index_t) const { return convert<Out>(a); }
};
template <class In, class Acc, class Out, bool SkipNan>
using sum_reducer = arithmetic_reducer<In, Acc, Out, SkipNan, false>;
template <class In, class Acc, class Out, bool SkipNan>
using prod_reducer = arithmetic_reducer<In, Acc, Out, SkipNan, true>;

// min and max propagate NaN (the first one wins); nanmin and nanmax skip it (all-NaN gives NaN).
template <class In, bool Max, bool SkipNan>
struct extreme_reducer {
  using acc_type = compute_t<In>;
  using out_type = In;
  using Acc = acc_type;
  static constexpr bool needs_elements = true;  // no identity in NumPy: an empty reduction is an error
  XF_HD static Acc identity() {
    if constexpr (std::is_floating_point_v<Acc>) {
      if constexpr (SkipNan) return limits<Acc>::quiet_NaN();
      else return Max ? -limits<Acc>::infinity() : limits<Acc>::infinity();
    } else if constexpr (is_bool<Acc>) {
      return !Max;
    } else {
      return Max ? limits<Acc>::lowest() : limits<Acc>::max();
    }
  }
  XF_HD XF_FORCEINLINE Acc map(const In& v, index_t) const { return convert<Acc>(v); }
  XF_HD XF_FORCEINLINE Acc combine(const Acc& a, const Acc& b) const {
    if constexpr (std::is_floating_point_v<Acc>) {
      if (a != a) return SkipNan ? b : a;
      if (b != b) return SkipNan ? a : b;
    }
    return (Max ? b > a : b < a) ? b : a;
  }
  XF_HD In finish(const Acc& a, index_t) const { return convert<In>(a); }
};

// argmin and argmax: the first index of the extreme value; a NaN is the extreme (NumPy's rule).
template <class V>
struct value_index {
  V value;
  index_t index;  // -1: no element yet
};
template <class In, bool Max>
struct arg_reducer {
  using V = compute_t<In>;
  using acc_type = value_index<V>;
  using out_type = std::int64_t;
  static constexpr bool needs_elements = true;
  XF_HD static acc_type identity() { return {V(0), -1}; }
  XF_HD XF_FORCEINLINE acc_type map(const In& v, index_t i) const { return {convert<V>(v), i}; }
  XF_HD XF_FORCEINLINE acc_type combine(const acc_type& a, const acc_type& b) const {
    if (a.index < 0) return b;
    if (b.index < 0) return a;
    const bool a_nan = nan_of(a.value), b_nan = nan_of(b.value);
    if (a_nan || b_nan) return a_nan && (!b_nan || a.index < b.index) ? a : b;
    if (Max ? b.value > a.value : b.value < a.value) return b;
    if (Max ? a.value > b.value : a.value < b.value) return a;
    return b.index < a.index ? b : a;
  }
  // combine(a, b) when both hold elements and every index in b follows every index in a (a
  // thread's own walk): a tie or a later NaN keeps a, with no index compares (argmax(x) 0.67 of
  // copy bandwidth with combine alone).
  XF_HD XF_FORCEINLINE acc_type append(const acc_type& a, const acc_type& b) const {
    if (nan_of(a.value)) return a;
    return (Max ? b.value > a.value : b.value < a.value) || nan_of(b.value) ? b : a;
  }
  XF_HD out_type finish(const acc_type& a, index_t) const { return a.index; }
};

// nanargmin and nanargmax: argmin/argmax with every NaN read as the value that never wins (+inf,
// -inf), as NumPy does before its argmin/argmax; `seen` records a number, so an all-NaN line gives
// -1 (CuPy's answer; NumPy raises, which would need the result on the host).
template <class V>
struct value_index_seen {
  value_index<V> best;
  bool seen;
};
template <class In, bool Max>
struct nanarg_reducer {
  using V = compute_t<In>;
  using Arg = arg_reducer<In, Max>;
  using acc_type = value_index_seen<V>;
  using out_type = std::int64_t;
  static constexpr bool needs_elements = true;
  XF_HD static acc_type identity() { return {Arg::identity(), false}; }
  XF_HD XF_FORCEINLINE acc_type map(const In& v, index_t i) const {
    const V x = convert<V>(v);
    if (nan_of(x)) return {{Max ? -limits<V>::infinity() : limits<V>::infinity(), i}, false};
    return {{x, i}, true};
  }
  XF_HD XF_FORCEINLINE acc_type combine(const acc_type& a, const acc_type& b) const {
    return {Arg{}.combine(a.best, b.best), a.seen || b.seen};
  }
  XF_HD XF_FORCEINLINE acc_type append(const acc_type& a, const acc_type& b) const {
    return {Arg{}.append(a.best, b.best), a.seen || b.seen};
  }
  XF_HD out_type finish(const acc_type& a, index_t) const { return a.seen ? a.best.index : -1; }
};

// ptp (peak to peak): max - min in one pass, NaN propagating as in min and max; integers wrap to
// the input type as NumPy's subtraction does.
template <class V>
struct low_high {
  V low, high;
};
template <class In>
struct ptp_reducer {
  using Low = extreme_reducer<In, false, false>;
  using High = extreme_reducer<In, true, false>;
  using acc_type = low_high<compute_t<In>>;
  using out_type = In;
  static constexpr bool needs_elements = true;
  XF_HD static acc_type identity() { return {Low::identity(), High::identity()}; }
  XF_HD XF_FORCEINLINE acc_type map(const In& v, index_t) const {
    const compute_t<In> x = convert<compute_t<In>>(v);
    return {x, x};
  }
  XF_HD XF_FORCEINLINE acc_type combine(const acc_type& a, const acc_type& b) const {
    return {Low{}.combine(a.low, b.low), High{}.combine(a.high, b.high)};
  }
  XF_HD out_type finish(const acc_type& a, index_t) const {
    if constexpr (is_integer<In>) return static_cast<In>(wrapping_subtract(convert<In>(a.high), convert<In>(a.low)));
    else return convert<In>(a.high - a.low);
  }
};

// mean: the sum, divided by the count at the end (0 / 0 is NaN for an empty reduction).
template <class In, class Acc, class Out>
struct mean_reducer {
  using acc_type = Acc;
  using out_type = Out;
  XF_HD static Acc identity() { return Acc(0); }
  XF_HD XF_FORCEINLINE Acc map(const In& v, index_t) const { return convert<Acc>(v); }
  XF_HD XF_FORCEINLINE Acc combine(const Acc& a, const Acc& b) const { return wrapping_add(a, b); }
  XF_HD Out finish(const Acc& a, index_t n) const { return convert<Out>(a / static_cast<real_t<Acc>>(n)); }
};

// nanmean: the sum and count of the elements that are not NaN.
template <class Acc>
struct sum_count {
  Acc sum;
  index_t count;
};
template <class In, class Acc, class Out>
struct nanmean_reducer {
  using acc_type = sum_count<Acc>;
  using out_type = Out;
  XF_HD static acc_type identity() { return {Acc(0), 0}; }
  XF_HD XF_FORCEINLINE acc_type map(const In& v, index_t) const {
    if (nan_of(v)) return {Acc(0), 0};
    return {convert<Acc>(v), 1};
  }
  XF_HD XF_FORCEINLINE acc_type combine(const acc_type& a, const acc_type& b) const {
    return {a.sum + b.sum, a.count + b.count};
  }
  XF_HD Out finish(const acc_type& a, index_t) const {
    return convert<Out>(a.sum / static_cast<real_t<Acc>>(a.count));
  }
};

// var and std: count, mean and sum of squared deviations, merged with Chan et al.'s pairwise
// update (no cancellation of a one-pass sum of squares). Complex values give a real variance.
template <class Acc>
struct moments {
  index_t count;
  Acc mean;
  real_t<Acc> m2;
};
// nanvar and nanstd (SkipNan): a NaN counts as no element.
template <class In, class Acc, bool Sqrt, bool SkipNan = false>
struct var_reducer {
  using Real = real_t<Acc>;
  using acc_type = moments<Acc>;
  using out_type = real_t<mean_result_t<In>>;
  Real ddof = 0;
  XF_HD static acc_type identity() { return {0, Acc(0), Real(0)}; }
  XF_HD XF_FORCEINLINE acc_type map(const In& v, index_t) const {
    if constexpr (SkipNan) {
      if (nan_of(v)) return identity();
    }
    // m2 starts NaN for an infinity: NumPy's deviations from an infinite mean are NaN (inf - inf),
    // which Chan's merge alone would turn into an infinite variance.
    const Acc x = convert<Acc>(v);
    return {1, x, squared_magnitude(x - x)};
  }
  XF_HD XF_FORCEINLINE acc_type combine(const acc_type& a, const acc_type& b) const {
    if (a.count == 0) return b;
    if (b.count == 0) return a;
    const index_t n = a.count + b.count;
    const Real b_share = static_cast<Real>(b.count) / static_cast<Real>(n);
    const Acc delta = b.mean - a.mean;
    return {n, a.mean + delta * b_share, a.m2 + b.m2 + squared_magnitude(delta) * static_cast<Real>(a.count) * b_share};
  }
  XF_HD out_type finish(const acc_type& a, index_t) const {
    const Real dof = static_cast<Real>(a.count) - ddof;
    // var divides by max(dof, 0) (inf past the end, as NumPy's); nanvar gives NaN there, as NumPy's.
    const Real v = SkipNan && !(dof > Real(0)) ? limits<Real>::quiet_NaN() : a.m2 / (dof > Real(0) ? dof : Real(0));
    if constexpr (Sqrt) return convert<out_type>(math::r_sqrt(v));
    else return convert<out_type>(v);
  }
};

// any, all: logical or / and of "!= 0".
template <class In, bool All>
struct logical_reducer {
  using acc_type = bool;
  using out_type = bool;
  XF_HD static bool identity() { return All; }
  XF_HD XF_FORCEINLINE bool map(const In& v, index_t) const { return convert<bool>(v); }
  XF_HD XF_FORCEINLINE bool combine(bool a, bool b) const { return All ? a && b : a || b; }
  XF_HD bool finish(bool a, index_t) const { return a; }
};

template <class In>
struct count_nonzero_reducer {
  using acc_type = std::int64_t;
  using out_type = std::int64_t;
  XF_HD static std::int64_t identity() { return 0; }
  XF_HD XF_FORCEINLINE std::int64_t map(const In& v, index_t) const { return convert<bool>(v) ? 1 : 0; }
  XF_HD XF_FORCEINLINE std::int64_t combine(std::int64_t a, std::int64_t b) const { return a + b; }
  XF_HD std::int64_t finish(std::int64_t a, index_t) const { return a; }
};

// combine(a, b) where b's reduced elements all follow a's, both non-empty: the reducer's cheaper
// `append` where it has one (argmin/argmax), else combine.
template <class Op, class Acc>
XF_HD XF_FORCEINLINE Acc append(const Op& op, const Acc& a, const Acc& b) {
  if constexpr (requires { op.append(a, b); }) return op.append(a, b);
  else return op.combine(a, b);
}

// Optional facts about a reducer.
template <class Op>
inline constexpr bool needs_elements_v = [] {
  if constexpr (requires { Op::needs_elements; }) return Op::needs_elements;
  else return false;
}();

}  // namespace detail

// A user reduction (CuPy's ReductionKernel): `map(element)` gives an accumulator, `combine` merges
// two (associatively and commutatively: the order is not fixed), `finish(accumulator, count)` gives
// the result. The functions must be callable on the device: extended __host__ __device__ lambdas.
template <class Acc, class Map, class Combine, class Finish>
struct reducer {
  Acc identity_value;
  Map map_fn;
  Combine combine_fn;
  Finish finish_fn;
};
template <class Acc, class Map, class Combine, class Finish>
reducer(Acc, Map, Combine, Finish) -> reducer<Acc, Map, Combine, Finish>;

namespace detail {
template <class In, class R>
struct user_reducer {
  using acc_type = std::remove_cvref_t<decltype(std::declval<R>().identity_value)>;
  using out_type = std::remove_cvref_t<decltype(std::declval<const R&>().finish_fn(std::declval<acc_type>(), index_t{}))>;
  R r;
  XF_HD acc_type identity() const { return r.identity_value; }
  XF_HD XF_FORCEINLINE acc_type map(const In& v, index_t) const { return r.map_fn(v); }
  XF_HD XF_FORCEINLINE acc_type combine(const acc_type& a, const acc_type& b) const { return r.combine_fn(a, b); }
  XF_HD out_type finish(const acc_type& a, index_t n) const { return r.finish_fn(a, n); }
};
}  // namespace detail

}  // namespace xf
