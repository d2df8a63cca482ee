// SPDX-License-Identifier: Apache-2.0
// Where a fused evaluation stores: one pointer (`Out*`), or one pointer per destination when
// several assignments share one kernel (exec/assign_together.hpp; Out is then a tuple of their
// element types) or several reductions share one pass (reduce/together.hpp). Every destination
// has the same layout, so one position serves them all: the set moves, indexes and stores as a
// pointer does, and the walks need not tell them apart.
#pragma once

#include <cstddef>

#include "../expr/traits.hpp"

namespace xf::detail {

template <class... Out>
struct output_set {
  tuple<Out*...> to;

  static constexpr auto each = std::make_integer_sequence<int, sizeof...(Out)>{};

  // Element `at` of every destination, assigned a tuple of values.
  struct element {
    const output_set& set;
    index_t at;
    XF_HD XF_FORCEINLINE void operator=(const tuple<Out...>& values) const {
      [&]<int... I>(std::integer_sequence<int, I...>) { ((get<I>(set.to)[at] = get<I>(values)), ...); }(each);
    }
  };
  XF_HD XF_FORCEINLINE element operator[](index_t at) const { return {*this, at}; }
  XF_HD XF_FORCEINLINE element operator*() const { return {*this, 0}; }
  XF_HD XF_FORCEINLINE output_set operator+(index_t by) const {
    output_set moved = *this;
    moved += by;
    return moved;
  }
  XF_HD XF_FORCEINLINE output_set& operator+=(index_t by) {
    [&]<int... I>(std::integer_sequence<int, I...>) { ((get<I>(to) += by), ...); }(each);
    return *this;
  }
};

template <class Out>
struct output_pointer {
  using type = Out*;
  static constexpr std::size_t smallest = sizeof(Out), largest = sizeof(Out);
};
template <class... Out>
struct output_pointer<tuple<Out...>> {
  using type = output_set<Out...>;
  static constexpr std::size_t smallest = [] {
    std::size_t s = ~std::size_t{0};
    ((s = sizeof(Out) < s ? sizeof(Out) : s), ...);
    return s;
  }();
  static constexpr std::size_t largest = [] {
    std::size_t s = 0;
    ((s = sizeof(Out) > s ? sizeof(Out) : s), ...);
    return s;
  }();
};
// The type of a fused plan's `out` for results of type Out.
template <class Out>
using output_pointer_t = typename output_pointer<Out>::type;

// The element type an output pointer stores (a tuple for a set).
template <class P>
struct stored;
template <class T>
struct stored<T*> {
  using type = T;
};
template <class... Out>
struct stored<output_set<Out...>> {
  using type = tuple<Out...>;
};
template <class P>
using stored_t = typename stored<P>::type;

}  // namespace xf::detail
