// SPDX-License-Identifier: Apache-2.0
// The expression's value at one element, given each leaf's value there: the one place where a
// plan's evaluator meets its leaves, for the element-wise kernel and host loop, the reductions and
// the scans (each finds the leaves' values its own way: from memory, registers or shared memory).
#pragma once

#include <type_traits>
#include <utility>

#include "../expr/traits.hpp"

namespace xf::detail {

// `leaf_value(std::integral_constant<int, K>{})` is leaf K's value at the element.
template <class Leaves, class Fn, class LeafValue, int... K>
XF_HD XF_FORCEINLINE auto point_value(const Fn& fn, const LeafValue& leaf_value, std::integer_sequence<int, K...>) {
  using Point = tuple<typename tuple_element_t<K, Leaves>::value_type...>;
  return fn(Point{{tuple_leaf<K, typename tuple_element_t<K, Leaves>::value_type>{
      leaf_value(std::integral_constant<int, K>{})}...}});
}

// The value where every leaf K sits at position pos[K] (read through the leaf's `at`).
template <class Leaves, class Fn, int... K>
XF_HD XF_FORCEINLINE auto value_at_positions(const Fn& fn, const Leaves& leaves, const index_t* pos,
                                             std::integer_sequence<int, K...> seq) {
  return point_value<Leaves>(fn, [&](auto k) { return get<decltype(k)::value>(leaves).at(pos[decltype(k)::value]); }, seq);
}

}  // namespace xf::detail
