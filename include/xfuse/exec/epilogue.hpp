// SPDX-License-Identifier: Apache-2.0
// A producer's store (exec/producer.hpp): what a produced value becomes before it is written:
// nothing but the conversion (no_epilogue), or the consumer's expression run where the value is
// made (row_epilogue).
#pragma once

#include <utility>

#include "../expr/leaf.hpp"
#include "point.hpp"
#include "positions.hpp"

namespace xf::detail {

// A producer's store with nothing after it: the value converted to the destination's type.
struct no_epilogue {
  static constexpr int leaves_in_memory = 0;
  struct row_type {};
  XF_HD XF_FORCEINLINE row_type row(index_t) const { return {}; }
  template <class Out, class C>
  XF_HD XF_FORCEINLINE Out apply(const row_type&, C value, index_t) const {
    return convert<Out>(value);
  }
};

// The consumer's expression run in a producer's store, for producers that write lines along one
// axis (the row functions): Fn is the consumer's evaluator over Leaves, in which every produced
// leaf takes the producer's value (converted to the producer's element type, as its result would
// hold it) and every other leaf reads its position: the line's (`lines`, the same shape and
// destination strides as the producer's lines, so line o is the same line for both) plus r times
// its step along the line.
template <class Fn, class Leaves, int RK>
struct row_epilogue {
  using leaves_type = Leaves;
  static constexpr int L = Leaves::size;
  static constexpr int slots = L > 0 ? L : 1;
  // Leaves read from memory (the produced one aside): rows that each block reads again.
  static constexpr int leaves_in_memory = []<int... K>(std::integer_sequence<int, K...>) {
    return ((tuple_element_t<K, Leaves>::in_memory && !is_produced_leaf<tuple_element_t<K, Leaves>> ? 1 : 0) + ... + 0);
  }(std::make_integer_sequence<int, L>{});
  Fn fn;
  Leaves leaves;
  layout<RK, L> lines;
  bool narrow;
  index_t step[slots];

  struct row_type {
    index_t pos[slots];
  };
  XF_HD XF_FORCEINLINE row_type row(index_t o) const {
    row_type r;
    index_t unused;
    layout_positions(lines, narrow, o, r.pos, unused);
    return r;
  }
  template <class Out, class C>
  XF_HD XF_FORCEINLINE Out apply(const row_type& row, C value, index_t r) const {
    return convert<Out>(point_value<Leaves>(
        fn,
        [&](auto k) {
          constexpr int K = decltype(k)::value;
          using Leaf = tuple_element_t<K, Leaves>;
          if constexpr (is_produced_leaf<Leaf>) return convert<typename Leaf::value_type>(value);
          else return get<K>(leaves).at(row.pos[K] + r * step[K]);
        },
        std::make_integer_sequence<int, L>{}));
  }
};

}  // namespace xf::detail
