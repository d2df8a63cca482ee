// SPDX-License-Identifier: Apache-2.0
// softmax and log_softmax along one axis of a distributed expression: one task over whole lines
// (dist/lines.hpp), each piece running xfuse's fused rows (one read and one write where a line
// stays on chip) with no communication.
#pragma once

#include <cstdint>
#include <string>

#include "../softmax.hpp"
#include "lines.hpp"

namespace xf::dist {
namespace detail {

// `What` along the axis of a piece's whole lines.
template <row_result What>
struct softmax_lines {
  template <class X, class O>
  static void apply(const X& e, int axis, O& out) {
    rows_into<What>(e, axis, out, What == row_result::softmax ? "xf::dist::softmax" : "xf::dist::log_softmax");
  }
};

template <row_result What, term E>
auto launch_rows(const E& e, int axis, const char* op) {
  constexpr int R = term_rank_v<E>;
  static_assert(R >= 1, "xf::dist: softmax of a distributed expression of rank 1 or more");
  using V = result_value_t<E>;
  static_assert(std::is_floating_point_v<V>, "xf::dist: softmax and log_softmax of floating-point expressions");
  const auto shape = shape_of(e, op);
  axis = xf::detail::normalize_axis_of(axis, shape, op);
  xf::detail::check_row_extent<What>(shape, axis, op);
  (void)probe<R>(e);
  auto out = empty<V>(shape);  // a new array: no operand can overlap it
  if (out.size() == 0) return out;
  launch_whole_lines<softmax_lines<What>>(e, out, axis, op);
  return out;
}

}  // namespace detail

// scipy.special.softmax(e, axis) of a distributed expression, as a new distributed array: one task.
template <term E>
auto softmax(const E& e, int axis) {
  return detail::launch_rows<xf::detail::row_result::softmax>(e, axis, "xf::dist::softmax");
}

// scipy.special.log_softmax(e, axis) of a distributed expression, as a new distributed array.
template <term E>
auto log_softmax(const E& e, int axis) {
  return detail::launch_rows<xf::detail::row_result::log_softmax>(e, axis, "xf::dist::log_softmax");
}

}  // namespace xf::dist
