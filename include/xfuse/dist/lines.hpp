// SPDX-License-Identifier: Apache-2.0
// Tasks over whole lines: one Legate task whose pieces Legate is told not to split along an axis,
// so every piece holds whole lines of the expression and runs a function of them with no
// communication (softmax along the axis, running sums along it). The other dimensions are split as
// for any statement.
#pragma once

#include <cstdint>

#include "statement.hpp"

namespace xf::dist {
namespace detail {

// Lines::apply(e, axis, out) on each piece, e the piece's expression E and out its piece of the
// result (type T, rank R).
template <class Lines, class E, class T, int R>
struct whole_lines_task : xfuse_task<whole_lines_task<Lines, E, T, R>> {
  template <class Space>
  static void run(const legate::TaskContext& ctx) {
    const legate::Rect<R> rect = common_rect<R>(ctx);
    auto out = local_piece<T, R, Space>(ctx.output(0).data(), rect, true);
    if (out.size() == 0) return;
    const legate::Scalar bytes = ctx.scalar(0);
    const auto axis = ctx.scalar(1).value<std::int32_t>();
    piece_reader<R> in{ctx, static_cast<const std::byte*>(bytes.ptr()), rect};
    Lines::apply(rebuild<Space, R>(type_tag<E>{}, in), axis, out);
  }
};

// Submits whole_lines_task for e (of out's shape) into out, a new array no operand overlaps.
template <class Lines, class E, class T, int R>
void launch_whole_lines(const E& e, const array<T, R>& out, int axis, const char* op) {
  launch_operands operands;
  collect(e, out.shape(), operands);
  auto* rt = ordered_runtime(op);
  auto task = rt->create_task(library(), task_id<whole_lines_task<Lines, E, T, R>>());
  const legate::Variable out_var = task.add_output(out.store());
  const std::uint32_t whole_lines[1] = {static_cast<std::uint32_t>(axis)};
  task.add_constraint(legate::broadcast(out_var, legate::Span<const std::uint32_t>{whole_lines, 1}));
  for (const auto& s : operands.stores) task.add_constraint(legate::align(out_var, task.add_input(s)));
  task.add_scalar_arg(bytes_argument(operands.bytes));
  task.add_scalar_arg(legate::Scalar{static_cast<std::int32_t>(axis)});
  rt->submit(std::move(task));
}

}  // namespace detail
}  // namespace xf::dist
