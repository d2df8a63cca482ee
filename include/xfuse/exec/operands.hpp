// SPDX-License-Identifier: Apache-2.0
// The operands of one evaluation, seen from the shape it walks: each leaf's device-side
// descriptor, its strides over that shape's dimensions (0 where it broadcasts) and its base
// position. Element-wise plans, reductions and scans all start from here and differ only in how
// they split the dimensions into collapsed layouts (layout.hpp).
#pragma once

#include "../expr/traits.hpp"
#include "layout.hpp"

namespace xf::detail {

template <class Records, int K>
using leaf_desc_t = typename tuple_element_t<K, Records>::desc_type;

// The device-side descriptors of a tuple of leaf records.
template <class Records, class Seq = std::make_integer_sequence<int, Records::size>>
struct descs_of;
template <class Records, int... K>
struct descs_of<Records, std::integer_sequence<int, K...>> {
  using type = tuple<leaf_desc_t<Records, K>...>;
};

template <class Records, int R>
struct operands {
  static constexpr int L = Records::size;
  using layout_type = layout<R, L>;
  typename descs_of<Records>::type descs{};
  index_t strides[layout_type::leaves][layout_type::max_rank] = {};
  index_t base[layout_type::leaves] = {};
};

// The operands of leaf records `records` (an expression's leaves()) over `shape`.
template <int R, class Records>
operands<Records, R> gather_operands(const Records& records, const dims<R>& shape) {
  operands<Records, R> ops;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    ((get<K>(ops.descs) = get<K>(records).desc, broadcast_strides<R>(get<K>(records).shape, get<K>(records).strides, shape, ops.strides[K]),
      ops.base[K] = get<K>(records).base),
     ...);
  }(std::make_integer_sequence<int, Records::size>{});
  return ops;
}

// Every leaf's strides over some of the dimensions: to[k][i] = from[k][which[i]] for i < N.
template <int N, int L, class From>
void select_strides(const From& from, const int* which, index_t (&to)[layout<N, L>::leaves][layout<N, L>::max_rank]) {
  for (int k = 0; k < L; ++k)
    for (int i = 0; i < N; ++i) to[k][i] = from[k][which[i]];
}

}  // namespace xf::detail
