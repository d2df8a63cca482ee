// SPDX-License-Identifier: Apache-2.0
// How reducers fold a row held on chip (in registers or shared memory), whose elements can be
// read twice at no cost in memory: var and std (and nanvar, nanstd) sum the row first, then the
// squared deviations from its mean, NumPy's two-pass arithmetic at one add an element (Chan's
// pairwise merge, which a single pass over memory needs, costs a division an element); every other
// reducer folds once by its combine (not its append, which needs both sides to hold elements:
// argmax appended to its identity would keep the identity's 0 over a row of negative numbers).
//
//   first sweep:  acc = gather(acc, element)  in each thread, then merge(a, b) across threads
//   centre(acc)   once every thread holds the row's total
//   second sweep: acc = spread(acc, element), then merge_spread(a, b) across threads (two_sweeps only)
#pragma once

#include <utility>

#include "reducers.hpp"
#include "together.hpp"

namespace xf::detail {

template <class Op>
struct held_fold {
  using A = typename Op::acc_type;
  static constexpr bool two_sweeps = false;
  template <class V>
  XF_HD XF_FORCEINLINE static A gather(const Op& op, const A& a, const V& v, index_t r) {
    return op.combine(a, op.map(v, r));
  }
  XF_HD XF_FORCEINLINE static A merge(const Op& op, const A& a, const A& b) { return op.combine(a, b); }
  XF_HD XF_FORCEINLINE static A centre(const Op&, const A& a) { return a; }
  template <class V>
  XF_HD XF_FORCEINLINE static A spread(const Op&, const A& a, const V&, index_t) { return a; }
  XF_HD XF_FORCEINLINE static A merge_spread(const Op&, const A& a, const A&) { return a; }
};

// var and std: the first sweep keeps the count and the sum in `mean`; centre divides; the second
// sweep sums the squared deviations into m2. A NaN (or inf - inf) makes m2 NaN, as NumPy's.
template <class In, class Acc, bool Sqrt, bool SkipNan>
struct held_fold<var_reducer<In, Acc, Sqrt, SkipNan>> {
  using Op = var_reducer<In, Acc, Sqrt, SkipNan>;
  using A = typename Op::acc_type;
  using Real = real_t<Acc>;
  static constexpr bool two_sweeps = true;
  template <class V>
  XF_HD XF_FORCEINLINE static A gather(const Op&, const A& a, const V& v, index_t) {
    if constexpr (SkipNan) {
      if (nan_of(v)) return a;
    }
    return {a.count + 1, a.mean + convert<Acc>(v), a.m2};
  }
  XF_HD XF_FORCEINLINE static A merge(const Op&, const A& a, const A& b) { return {a.count + b.count, a.mean + b.mean, Real(0)}; }
  XF_HD XF_FORCEINLINE static A centre(const Op&, const A& a) {
    return {a.count, a.count > 0 ? a.mean * (Real(1) / static_cast<Real>(a.count)) : Acc(0), Real(0)};
  }
  template <class V>
  XF_HD XF_FORCEINLINE static A spread(const Op&, const A& a, const V& v, index_t) {
    if constexpr (SkipNan) {
      if (nan_of(v)) return a;
    }
    return {a.count, a.mean, a.m2 + squared_magnitude(convert<Acc>(v) - a.mean)};
  }
  XF_HD XF_FORCEINLINE static A merge_spread(const Op&, const A& a, const A& b) { return {a.count, a.mean, a.m2 + b.m2}; }
};

// Reducers side by side: each component by its own reducer's fold.
template <class... Ops>
struct held_fold<reducers_together<Ops...>> {
  using Op = reducers_together<Ops...>;
  using A = typename Op::acc_type;
  static constexpr bool two_sweeps = (held_fold<Ops>::two_sweeps || ...);

  template <class F>
  XF_HD XF_FORCEINLINE static A each(const F& f) {
    return Op::template build<A>([&](auto i) {
      constexpr int K = decltype(i)::value;
      return f(i, held_fold<tuple_element_t<K, tuple<Ops...>>>{});
    });
  }
  template <class V>
  XF_HD XF_FORCEINLINE static A gather(const Op& op, const A& a, const V& v, index_t r) {
    return each([&](auto i, auto fold) { return fold.gather(get<decltype(i)::value>(op.ops), get<decltype(i)::value>(a), get<decltype(i)::value>(v), r); });
  }
  XF_HD XF_FORCEINLINE static A merge(const Op& op, const A& a, const A& b) {
    return each([&](auto i, auto fold) { return fold.merge(get<decltype(i)::value>(op.ops), get<decltype(i)::value>(a), get<decltype(i)::value>(b)); });
  }
  XF_HD XF_FORCEINLINE static A centre(const Op& op, const A& a) {
    return each([&](auto i, auto fold) { return fold.centre(get<decltype(i)::value>(op.ops), get<decltype(i)::value>(a)); });
  }
  template <class V>
  XF_HD XF_FORCEINLINE static A spread(const Op& op, const A& a, const V& v, index_t r) {
    return each([&](auto i, auto fold) { return fold.spread(get<decltype(i)::value>(op.ops), get<decltype(i)::value>(a), get<decltype(i)::value>(v), r); });
  }
  XF_HD XF_FORCEINLINE static A merge_spread(const Op& op, const A& a, const A& b) {
    return each([&](auto i, auto fold) { return fold.merge_spread(get<decltype(i)::value>(op.ops), get<decltype(i)::value>(a), get<decltype(i)::value>(b)); });
  }
};

}  // namespace xf::detail
