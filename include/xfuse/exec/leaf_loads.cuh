// SPDX-License-Identifier: Apache-2.0
// What every walk of the fused element-wise kernel shares: where element q sits, loading a chunk
// of E elements of every leaf into registers (vector loads, a leaf used twice loaded once, random
// draws by rows), computing the expression at one loaded element, and the element-by-element path
// for partial chunks and tiles.
#pragma once

#include "plan.hpp"
#include "point.hpp"
#include "positions.hpp"
#include "vector_io.cuh"

#if XF_CUDA_TU
namespace xf::detail {

// Positions of element q for every leaf and for the output.
template <class Plan>
__device__ XF_FORCEINLINE void positions(const Plan& p, index_t q, index_t (&pos)[Plan::L > 0 ? Plan::L : 1],
                                         index_t& out_pos) {
  layout_positions(p.lay, p.narrow, q, pos, out_pos);
}

// The values of every leaf, for all chunks of a thread.
template <class Leaves, int N, class Seq = std::make_integer_sequence<int, Leaves::size>>
struct leaf_values;
template <class Leaves, int N, int... K>
struct leaf_values<Leaves, N, std::integer_sequence<int, K...>> {
  using type = tuple<values<typename tuple_element_t<K, Leaves>::value_type, N>...>;
};

// Leaf K reads memory an earlier leaf of the same type already loaded: copy those registers.
template <int K, int J = 0, class Plan, class Vals>
__device__ XF_FORCEINLINE bool copy_alias(const Plan& p, Vals& vals, int first, int count) {
  if constexpr (J >= K) {
    return false;
  } else {
    using TK = typename tuple_element_t<K, typename Plan::leaves_type>::value_type;
    using TJ = typename tuple_element_t<J, typename Plan::leaves_type>::value_type;
    if constexpr (std::is_same_v<TK, TJ> && tuple_element_t<J, typename Plan::leaves_type>::in_memory) {
      if (p.alias[K] == J) {
#pragma unroll
        for (int e = 0; e < count; ++e) get<K>(vals).v[first + e] = get<J>(vals).v[first + e];
        return true;
      }
    }
    return copy_alias<K, J + 1>(p, vals, first, count);
  }
}

// A leaf that computes a row of E elements together (random draws: at_row, random/draws.hpp).
template <class Leaf, int E>
concept row_leaf = requires(const Leaf& l, index_t pos, typename Leaf::value_type* dst) { l.template at_row<E>(pos, pos, dst); };

// Loads E elements of leaf K along dimension 0, starting at position `pos`.
template <int K, class Plan, class Vals>
__device__ XF_FORCEINLINE void load_row(const Plan& p, Vals& vals, int first, index_t pos) {
  constexpr int E = Plan::E;
  const auto& leaf = get<K>(p.leaves);
  using Leaf = std::remove_cvref_t<decltype(leaf)>;
  auto* dst = get<K>(vals).v + first;
  if constexpr (Leaf::in_memory) {
    if (copy_alias<K>(p, vals, first, E)) return;
    if (p.vec[K]) {
      load_vector<typename Leaf::value_type, E>(leaf.ptr + pos, dst);
      return;
    }
  }
  const index_t step = p.lay.stride[K][0];
  if constexpr (row_leaf<Leaf, E>) {  // a random draw: one Philox block serves several elements
    leaf.template at_row<E>(pos, step, dst);
  } else {
    if (step == 0) {  // broadcast along dimension 0: one load serves the chunk
      const auto v = leaf.at(pos);
#pragma unroll
      for (int e = 0; e < E; ++e) dst[e] = v;
      return;
    }
#pragma unroll
    for (int e = 0; e < E; ++e) dst[e] = leaf.at(pos + e * step);
  }
}

template <int K, class Plan, class Vals>
__device__ XF_FORCEINLINE void load_one(const Plan& p, Vals& vals, int at, index_t pos) {
  const auto& leaf = get<K>(p.leaves);
  using Leaf = std::remove_cvref_t<decltype(leaf)>;
  if constexpr (Leaf::in_memory) {
    if (copy_alias<K>(p, vals, at, 1)) return;
  }
  get<K>(vals).v[at] = leaf.at(pos);
}

// The expression's value at element `at` of the loaded values.
template <class Plan, class Vals, int... K>
__device__ XF_FORCEINLINE typename Plan::out_type compute(const Plan& p, const Vals& vals, int at,
                                                          std::integer_sequence<int, K...> seq) {
  return point_value<typename Plan::leaves_type>(p.fn, [&](auto k) { return get<decltype(k)::value>(vals).v[at]; }, seq);
}

// Elements of a chunk one at a time (the last partial tile, or rows whose extent is not a multiple
// of E): each element finds its own position. Not unrolled across chunks, to keep the kernel small.
template <class Plan>
__device__ XF_FORCEINLINE void element_path(const Plan& p, index_t q0) {
  constexpr int E = Plan::E, L = Plan::L;
  constexpr auto leaf_seq = std::make_integer_sequence<int, L>{};
  typename leaf_values<typename Plan::leaves_type, E>::type vals;
  index_t out_pos[E];
#pragma unroll
  for (int e = 0; e < E; ++e) {
    if (q0 + e < p.lay.size) {
      index_t pos[L > 0 ? L : 1];
      positions(p, q0 + e, pos, out_pos[e]);
      [&]<int... K>(std::integer_sequence<int, K...>) { (load_one<K>(p, vals, e, pos[K]), ...); }(leaf_seq);
    }
  }
#pragma unroll
  for (int e = 0; e < E; ++e)
    if (q0 + e < p.lay.size) p.out[out_pos[e]] = compute(p, vals, e, leaf_seq);
}

}  // namespace xf::detail
#endif
