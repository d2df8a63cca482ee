// SPDX-License-Identifier: Apache-2.0
// A reduction of an expression over some of its axes: the expression's evaluator and leaves (as for
// the fused element-wise kernel), the reducer, and two collapsed layouts. `kept` walks the result's
// elements (its "output" is the result array); `reduced` walks the elements that fold into one
// result, in C order, so its flat index is NumPy's index over the reduced axes (argmin's answer).
// A leaf's position is the sum of its positions in both layouts.
#pragma once

#include <array>
#include <string>

#include "../exec/evaluate.hpp"
#include "../exec/point.hpp"
#include "../exec/positions.hpp"
#include "reducers.hpp"

namespace xf::detail {

// Where results go: a pointer to out_type, or the reducer's own `out_pointer` (several results per
// element, together.hpp). Either way `out[i] = op.finish(...)` stores result i.
template <class Op>
struct result_pointer {
  using type = typename Op::out_type*;
};
template <class Op>
  requires requires { typename Op::out_pointer; }
struct result_pointer<Op> {
  using type = typename Op::out_pointer;
};
template <class Op>
using result_pointer_t = typename result_pointer<Op>::type;

template <class Fn, class Leaves, class Op, int RK, int RR>
struct reduce_plan {
  using leaves_type = Leaves;
  using op_type = Op;
  using acc_type = typename Op::acc_type;
  using out_type = typename Op::out_type;
  static constexpr int L = Leaves::size;
  static constexpr int slots = L > 0 ? L : 1;
  // Reduced elements per chunk: one 16-byte load of the widest leaf in memory.
  static constexpr int E = [] {
    std::size_t widest = 1;
    [&]<int... K>(std::integer_sequence<int, K...>) {
      ((widest = tuple_element_t<K, Leaves>::in_memory && sizeof(typename tuple_element_t<K, Leaves>::value_type) > widest
                     ? sizeof(typename tuple_element_t<K, Leaves>::value_type)
                     : widest),
       ...);
    }(std::make_integer_sequence<int, L>{});
    return widest >= 16 ? 1 : static_cast<int>(16 / widest);
  }();

  Fn fn;
  Leaves leaves;
  Op op;
  result_pointer_t<Op> out;
  layout<RK, L> kept;
  layout<RR, L> reduced;
  bool kept_narrow, reduced_narrow;
  // Every result's elements are E-aligned runs of contiguous (or broadcast) memory: chunks of E
  // elements load with one 16-byte access per leaf (device only; set by the launch).
  bool vector;
  // And every leaf in memory is contiguous along them (none broadcast): no per-chunk stride test.
  bool dense;
  signed char alias[slots];  // leaf k reads what leaf alias[k] reads (== k: itself): loaded once
  // Every leaf reads what the first leaf of its type reads (merged_source): the kernel's chunks
  // then load each of those once, with as many loads in flight as a plan of that many leaves.
  bool merged;
};

// The leaf that leaf K reads through when same-typed leaves in memory are merged: the first leaf of
// K's type, or K (reduce_alias's candidates: xf::eval(lazy::sum(x), lazy::max(x)), sum(x * x)).
template <class Leaves, int K, int J = 0>
XF_HD constexpr int merged_source() {
  if constexpr (J >= K) return K;
  else if constexpr (tuple_element_t<K, Leaves>::in_memory && std::is_same_v<tuple_element_t<J, Leaves>, tuple_element_t<K, Leaves>>) return J;
  else return merged_source<Leaves, K, J + 1>();
}
// How many leaves a merged plan reads (generators count: they are computed per element).
template <class Leaves>
inline constexpr int merged_leaf_count = []<int... K>(std::integer_sequence<int, K...>) {
  return ((merged_source<Leaves, K>() == K ? 1 : 0) + ... + 0);
}(std::make_integer_sequence<int, Leaves::size>{});
template <class Leaves>
inline constexpr bool mergeable = merged_leaf_count<Leaves> < Leaves::size;

// Reduced element r of result o (whose leaf positions are `kept_pos`), mapped to an accumulator.
template <class Plan>
XF_HD XF_FORCEINLINE typename Plan::acc_type mapped_element(const Plan& p, const index_t (&kept_pos)[Plan::slots], index_t r) {
  index_t pos[Plan::slots], unused;
  layout_positions(p.reduced, p.reduced_narrow, r, pos, unused);
#pragma unroll
  for (int k = 0; k < Plan::L; ++k) pos[k] += kept_pos[k];
  return p.op.map(value_at_positions(p.fn, p.leaves, pos, std::make_integer_sequence<int, Plan::L>{}), r);
}

// The earliest leaf J < K in memory of the same type that reads exactly what leaf K reads, or K
// (sum(x * x), or xf::eval(lazy::sum(x), lazy::max(x)): x loaded once).
template <int K, int J = 0, class Plan>
signed char reduce_alias(const Plan& p) {
  using Leaves = typename Plan::leaves_type;
  if constexpr (J >= K) {
    return static_cast<signed char>(K);
  } else {
    if constexpr (std::is_same_v<tuple_element_t<J, Leaves>, tuple_element_t<K, Leaves>> && tuple_element_t<K, Leaves>::in_memory) {
      bool same = get<J>(p.leaves).ptr == get<K>(p.leaves).ptr && p.kept.base[J] == p.kept.base[K];
      for (int d = 0; d < p.kept.rank && same; ++d) same = p.kept.stride[J][d] == p.kept.stride[K][d];
      for (int d = 0; d < p.reduced.rank && same; ++d) same = p.reduced.stride[J][d] == p.reduced.stride[K][d];
      if (same) return static_cast<signed char>(J);
    }
    return reduce_alias<K, J + 1>(p);
  }
}

// Sets p.alias and p.merged once p's layouts are made (every builder of a reduce_plan calls it).
template <class Plan>
void set_aliases(Plan& p) {
  using Leaves = typename Plan::leaves_type;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    ((p.alias[K] = reduce_alias<K>(p)), ...);
    p.merged = mergeable<Leaves> && ((p.alias[K] == merged_source<Leaves, K>()) && ...);
  }(std::make_integer_sequence<int, Plan::L>{});
}

// Builds the plan of reducing `e` over `axes` (valid, distinct, ascending) into `out`, a fresh
// C-ordered array of the kept extents.
template <std::size_t NA, class Op, class E>
auto make_reduce_plan(const E& e, const std::array<int, NA>& axes, const Op& op, result_pointer_t<Op> out) {
  constexpr int R = rank_v<E>, RR = static_cast<int>(NA), RK = R - RR;
  const auto records = e.leaves();
  using Records = std::remove_cvref_t<decltype(records)>;
  constexpr int L = Records::size;
  using Fn = decltype(e.template evaluator<0>());
  using Plan = reduce_plan<Fn, typename descs_of<Records>::type, Op, RK, RR>;
  const auto shape = e.shape();

  bool reduced_axis[R > 0 ? R : 1] = {};
  for (const int a : axes) reduced_axis[a] = true;
  dims<RK> kept_shape{};
  dims<RR> reduced_shape{};
  int map_kept[R > 0 ? R : 1], map_reduced[R > 0 ? R : 1];
  for (int d = 0, i = 0, j = 0; d < R; ++d) {
    if (reduced_axis[d]) {
      map_reduced[j] = d;
      reduced_shape[j++] = shape[d];
    } else {
      map_kept[i] = d;
      kept_shape[i++] = shape[d];
    }
  }

  // A leaf's position is its base plus its positions in both layouts: the base goes to `kept`.
  const auto ops = gather_operands<R>(records, shape);
  index_t kept_strides[layout<RK, L>::leaves][layout<RK, L>::max_rank] = {};
  index_t reduced_strides[layout<RR, L>::leaves][layout<RR, L>::max_rank] = {};
  const index_t reduced_base[layout<RR, L>::leaves] = {};
  select_strides<RK, L>(ops.strides, map_kept, kept_strides);
  select_strides<RR, L>(ops.strides, map_reduced, reduced_strides);
  Plan p{e.template evaluator<0>(), ops.descs, op, out, {}, {}, false, false, false, false, {}};
  p.kept = make_layout<RK, L>(kept_shape, c_strides(kept_shape), kept_strides, ops.base);
  p.reduced = make_layout<RR, L>(reduced_shape, c_strides(reduced_shape), reduced_strides, reduced_base);
  p.kept_narrow = fits_32_bits(p.kept);
  p.reduced_narrow = fits_32_bits(p.reduced);
  set_aliases(p);
  return p;
}

// Every leaf of `e` held in memory must be readable from device `cur` (the plan's leaves are e's).
template <class Plan, class E>
void require_leaf_access(const Plan&, const E& e, int cur, const char* name) {
  const auto records = e.leaves();
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          if constexpr (tuple_element_t<K, typename Plan::leaves_type>::in_memory) require_access(get<K>(records).device, cur, name);
        }(),
        ...);
  }(std::make_integer_sequence<int, Plan::L>{});
}

// Host reduction: each result folds its elements in blocks of 1024, then the blocks, so float
// rounding error grows with the number of blocks rather than the number of elements.
template <class Plan>
void run_reduce_host(const Plan& p) {
  const index_t n_out = p.kept.size, n_red = p.reduced.size;
  constexpr index_t block = 1024;
  for (index_t o = 0; o < n_out; ++o) {
    index_t kept_pos[Plan::slots], out_pos;
    layout_positions(p.kept, false, o, kept_pos, out_pos);
    auto acc = p.op.identity();
    for (index_t r0 = 0; r0 < n_red; r0 += block) {
      auto part = p.op.identity();
      const index_t r1 = r0 + block < n_red ? r0 + block : n_red;
      for (index_t r = r0; r < r1; ++r) part = p.op.combine(part, mapped_element(p, kept_pos, r));
      acc = p.op.combine(acc, part);
    }
    p.out[out_pos] = p.op.finish(acc, n_red);
  }
}

}  // namespace xf::detail
