// SPDX-License-Identifier: Apache-2.0
// f(i) for i = 0, 1, 2, ...: a random-access iterator computed from its position, for handing
// expressions, segment keys and segment offsets to CUB algorithms without a buffer.
#pragma once

#include <iterator>
#include <type_traits>

#include "../base/config.hpp"
#include "../base/shape.hpp"

namespace xf::detail {

template <class F>
struct index_iterator {
  using iterator_category = std::random_access_iterator_tag;
  using value_type = std::remove_cvref_t<decltype(std::declval<const F&>()(index_t{}))>;
  using difference_type = index_t;
  using pointer = const value_type*;
  using reference = value_type;
  F f;
  index_t i = 0;
  XF_HD XF_FORCEINLINE value_type operator*() const { return f(i); }
  XF_HD XF_FORCEINLINE value_type operator[](index_t d) const { return f(i + d); }
  XF_HD index_iterator operator+(index_t d) const { return {f, i + d}; }
  XF_HD index_iterator operator-(index_t d) const { return {f, i - d}; }
  XF_HD index_t operator-(const index_iterator& o) const { return i - o.i; }
  XF_HD index_iterator& operator+=(index_t d) { i += d; return *this; }
  XF_HD index_iterator& operator-=(index_t d) { i -= d; return *this; }
  XF_HD index_iterator& operator++() { ++i; return *this; }
  XF_HD index_iterator operator++(int) { auto t = *this; ++i; return t; }
  XF_HD bool operator==(const index_iterator& o) const { return i == o.i; }
  XF_HD bool operator!=(const index_iterator& o) const { return i != o.i; }
};

template <class F>
XF_HD index_iterator<F> make_index_iterator(F f, index_t start = 0) {
  return {f, start};
}

}  // namespace xf::detail
