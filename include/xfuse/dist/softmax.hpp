// SPDX-License-Identifier: Apache-2.0
// softmax and log_softmax along one axis of a distributed expression: one task, whose pieces
// Legate is told not to split along the axis, so every piece holds whole lines and runs xfuse's
// fused rows (one read and one write where a line stays on chip) with no communication. The
// other dimensions are split as for any statement.
#pragma once

#include <cstdint>
#include <string>

#include "../softmax.hpp"
#include "statement.hpp"

namespace xf::dist {
namespace detail {

// The task of `What` along an axis of expressions E, into arrays of type T and rank R.
template <row_result What, class E, class T, int R>
struct rows_task : xfuse_task<rows_task<What, E, T, R>> {
  template <class Space>
  static void run(const legate::TaskContext& ctx) {
    const legate::Rect<R> rect = common_rect<R>(ctx);
    auto out = local_piece<T, R, Space>(ctx.output(0).data(), rect, true);
    if (out.size() == 0) return;
    const legate::Scalar bytes = ctx.scalar(0);
    const auto axis = ctx.scalar(1).value<std::int32_t>();
    piece_reader<R> in{ctx, static_cast<const std::byte*>(bytes.ptr()), rect};
    constexpr const char* name = What == row_result::softmax ? "xf::dist::softmax" : "xf::dist::log_softmax";
    rows_into<What>(rebuild<Space, R>(type_tag<E>{}, in), axis, out, name);
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
  launch_operands operands;
  collect(e, shape, operands);
  auto* rt = ordered_runtime(op);
  auto task = rt->create_task(library(), task_id<rows_task<What, E, V, R>>());
  const legate::Variable out_var = task.add_output(out.store());
  const std::uint32_t whole_lines[1] = {static_cast<std::uint32_t>(axis)};
  task.add_constraint(legate::broadcast(out_var, legate::Span<const std::uint32_t>{whole_lines, 1}));
  for (const auto& s : operands.stores) task.add_constraint(legate::align(out_var, task.add_input(s)));
  task.add_scalar_arg(bytes_argument(operands.bytes));
  task.add_scalar_arg(legate::Scalar{static_cast<std::int32_t>(axis)});
  rt->submit(std::move(task));
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
