// SPDX-License-Identifier: Apache-2.0
// What a scan kernel reads and writes at step r of a line. A plain scan reads its expression's
// value and stores the running total converted to the result's type. A scan that feeds a consumer
// (scan/consumer.hpp) walks a zipped expression (the consumer's value first, the scan's input
// second) and stores the consumer's value, computed with the running total in place of every
// produced leaf: the totals never go to memory.
#pragma once

#include <type_traits>
#include <utility>

#include "../reduce/kernel.cuh"

namespace xf::detail {

// The operation of a plan whose walk yields (consumer value, scan input): the scan's, applied to
// the second component; Out is the destination's element type.
template <class Out, class Scan>
struct scan_then_consumer {
  using acc_type = typename Scan::acc_type;
  using out_type = Out;
  using scan_type = Scan;
  Scan scan;

  XF_HD acc_type identity() const { return scan.identity(); }
  template <class Zipped>
  XF_HD XF_FORCEINLINE acc_type map(const Zipped& v, index_t r) const {
    return scan.map(get<1>(v), r);
  }
  XF_HD XF_FORCEINLINE acc_type combine(const acc_type& a, const acc_type& b) const { return scan.combine(a, b); }
};

template <class Op>
inline constexpr bool feeds_consumer = false;
template <class Out, class Scan>
inline constexpr bool feeds_consumer<scan_then_consumer<Out, Scan>> = true;

#if XF_CUDA_TU

// The zipped value at step r of the line whose leaf positions are kept_pos (a rank-1 line): every
// produced leaf gives `total` (converted as the scan's result would store it), every other leaf
// reads its position.
template <class Plan>
__device__ XF_FORCEINLINE auto consumer_point(const Plan& p, const index_t (&kept_pos)[Plan::slots], index_t r,
                                         const typename Plan::acc_type& total) {
  using Leaves = typename Plan::leaves_type;
  return point_value<Leaves>(
      p.fn,
      [&](auto k) {
        constexpr int K = decltype(k)::value;
        using Leaf = tuple_element_t<K, Leaves>;
        if constexpr (is_produced_leaf<Leaf>) return convert<typename Leaf::value_type>(total);
        else return get<K>(p.leaves).at(kept_pos[K] + p.reduced.base[K] + r * p.reduced.stride[K][0]);
      },
      std::make_integer_sequence<int, Plan::L>{});
}

// The value folded at step r of a line laid out linearly (one stride per leaf).
template <class Plan>
__device__ XF_FORCEINLINE typename Plan::acc_type scan_input(const Plan& p, const index_t (&kept_pos)[Plan::slots], index_t r) {
  if constexpr (feeds_consumer<typename Plan::op_type>) {
    // The consumer's component is not used here: the compiler drops it and its loads.
    return p.op.map(consumer_point(p, kept_pos, r, p.op.identity()), r);
  } else {
    return mapped_linear(p, kept_pos, r);
  }
}

// What is stored at step r given its running total.
template <class Plan>
__device__ XF_FORCEINLINE typename Plan::out_type scanned_output(const Plan& p, const index_t (&kept_pos)[Plan::slots], index_t r,
                                                           const typename Plan::acc_type& total) {
  using Out = typename Plan::out_type;
  if constexpr (feeds_consumer<typename Plan::op_type>) return convert<Out>(get<0>(consumer_point(p, kept_pos, r, total)));
  else return convert<Out>(total);
}

#endif
}  // namespace xf::detail
