// SPDX-License-Identifier: Apache-2.0
// Products of distributed matrices: a grid of pr x pc x pk tasks. Task (i, j, l) reads block
// (i, l) of A (m, k) and block (l, j) of B (k, n) and, with cuBLAS (GPU variant) or xfuse's host
// loop (CPU variant: a fused multiply and sum, no BLAS), writes tile (i, j) of the result (pk = 1)
// or adds its product into it through Legate's sum reduction (pk > 1: k split, as SUMMA's steps,
// the partial products summed by Legate). The grid is the one whose tasks move the fewest elements:
// a narrow B (or a vector) is read whole by every task, and k is split where that halves what a
// task moves, as in A^T A of a tall A split by rows (m and n small, k long).
#pragma once

#include <algorithm>
#include <cmath>

#include "../linalg.hpp"
#include "reduce.hpp"
#include "statement.hpp"

namespace xf::dist {
namespace detail {

template <class T, int RB>
struct matmul_task : xfuse_task<matmul_task<T, RB>> {
  template <class Space>
  static void run(const legate::TaskContext& ctx) {
    const auto a = local_piece<T, 2, Space>(ctx.input(0).data(), false);
    const auto b = local_piece<T, RB, Space>(ctx.input(1).data(), false);
    if (ctx.num_reductions() == 1) {  // k split: this task's product is added into its tile
      const legate::PhysicalStore target = ctx.reduction(0).data();
      const legate::Rect<RB> rect = target.shape<RB>();
      if (rect.empty()) return;
      fold_into<sum_kind>(target, rect, 0, product<Space>(a, b));
      return;
    }
    auto c = local_piece<T, RB, Space>(ctx.output(0).data(), true);
    if (c.size() == 0) return;
    if constexpr (std::is_same_v<Space, xf::device>) {
      if (c.strides() == c_strides(c.shape())) {
        matmul_into(a, b, plan_matmul(a, b), matmul_options{}, false, false, T(1), T(0), c);
        return;
      }
    }
    c.assign(product<Space>(a, b));
  }

  // a @ b as a new C-ordered array (no BLAS on the host: a fused multiply and sum).
  template <class Space, class A, class B>
  static xf::array<T, RB, Space> product(const A& a, const B& b) {
    if constexpr (std::is_same_v<Space, xf::host>) {
      if constexpr (RB == 1) return xf::sum(a * b, 1);
      else return xf::sum(a(xf::all, xf::all, xf::newaxis) * b(xf::newaxis, xf::all, xf::all), 1);
    } else {
      return xf::matmul(a, b);
    }
  }
};

// The task grid of a product: the fewest elements a task reads and writes.
struct matmul_grid {
  index_t pr = 1, pc = 1, pk = 1;
  index_t rows = 0, cols = 0, depth = 0;  // extents of a task's tile and of its share of k

  // pr x pc tiles of c from `tasks` tasks: column panels of b as wide as a square tile of c would
  // have them (pc = 1 for a narrow b or a vector), k split pk ways.
  static matmul_grid make(index_t m, index_t n, index_t k, index_t tasks, index_t pk, bool vector) {
    matmul_grid g;
    index_t pc = vector ? 1 : static_cast<index_t>(std::lround(std::sqrt(double(tasks) * double(n) / double(m))));
    pc = std::clamp<index_t>(pc, 1, std::min(tasks, n));
    const index_t pr = std::clamp<index_t>(tasks / pc, 1, m);
    g.rows = (m + pr - 1) / pr, g.cols = (n + pc - 1) / pc, g.depth = (k + pk - 1) / pk;
    g.pr = (m + g.rows - 1) / g.rows, g.pc = (n + g.cols - 1) / g.cols, g.pk = (k + g.depth - 1) / g.depth;
    return g;
  }
  // Elements a task moves: its blocks of a and b, its tile (written, or its partial product
  // written and then added in).
  double moved() const {
    return double(rows) * double(depth) + double(depth) * double(cols) + double(rows) * double(cols) * (pk > 1 ? 2 : 1);
  }
  // The grid for `procs` tasks: k split only where that halves what a task moves.
  static matmul_grid choose(index_t m, index_t n, index_t k, index_t procs, bool vector) {
    matmul_grid best = make(m, n, k, procs, 1, vector);
    const double whole_k = best.moved();
    for (index_t pk = 2; pk <= std::min(procs, k); ++pk) {
      const matmul_grid g = make(m, n, k, procs / pk, pk, vector);
      if (g.moved() < best.moved() && g.moved() < 0.5 * whole_k) best = g;
    }
    return best;
  }
};

}  // namespace detail

// a @ b for a distributed matrix a and a distributed matrix or vector b: one task per block of
// the grid (the top of this file).
template <class T, int RB>
array<T, RB> matmul(const array<T, 2>& a, const array<T, RB>& b) {
  static_assert(RB == 1 || RB == 2, "xf::dist::matmul: b is a matrix or a vector");
  constexpr const char* op = "xf::dist::matmul";
  const auto sa = a.shape();
  const auto sb = b.shape();
  if (sa[1] != sb[0])
    throw shape_error(std::string(op) + ": " + std::string(dtype_name<T>) + " operands of shapes " + to_string(sa) + " and " +
                      to_string(sb) + " do not match (a's columns must equal b's rows)");
  const index_t m = sa[0], k = sa[1];
  dims<RB> out_shape{};
  out_shape[0] = m;
  if constexpr (RB == 2) out_shape[1] = sb[1];
  if (k == 0 || m == 0 || (RB == 2 && sb[RB - 1] == 0)) return full<T>(out_shape, T(0));  // sums of nothing
  auto* rt = detail::ordered_runtime(op);
  const index_t n = RB == 2 ? sb[RB - 1] : 1;
  const auto g = detail::matmul_grid::choose(m, n, k, detail::pieces_wanted(), RB == 1);
  auto c = g.pk > 1 ? full<T>(out_shape, T(0)) : empty<T>(out_shape);
  auto task = rt->create_task(detail::library(), detail::task_id<detail::matmul_task<T, RB>>(),
                              {static_cast<std::uint64_t>(g.pr), static_cast<std::uint64_t>(g.pc), static_cast<std::uint64_t>(g.pk)});
  const auto u = [](index_t v) { return static_cast<std::uint64_t>(v); };
  const std::uint64_t a_tile[2] = {u(g.rows), u(g.depth)};
  task.add_input(a.store().partition_by_tiling(a_tile), legate::SymbolicPoint{legate::dimension(0), legate::dimension(2)});
  const legate::SymbolicPoint c_point = RB == 2 ? legate::SymbolicPoint{legate::dimension(0), legate::dimension(1)}
                                                : legate::SymbolicPoint{legate::dimension(0)};
  if constexpr (RB == 2) {
    const std::uint64_t b_tile[2] = {u(g.depth), u(g.cols)}, c_tile[2] = {u(g.rows), u(g.cols)};
    task.add_input(b.store().partition_by_tiling(b_tile), legate::SymbolicPoint{legate::dimension(2), legate::dimension(1)});
    if (g.pk > 1) task.add_reduction(c.store().partition_by_tiling(c_tile), legate::ReductionOpKind::ADD, c_point);
    else task.add_output(c.store().partition_by_tiling(c_tile), c_point);
  } else {
    const std::uint64_t b_tile[1] = {u(g.depth)}, c_tile[1] = {u(g.rows)};
    task.add_input(b.store().partition_by_tiling(b_tile), legate::SymbolicPoint{legate::dimension(2)});
    if (g.pk > 1) task.add_reduction(c.store().partition_by_tiling(c_tile), legate::ReductionOpKind::ADD, c_point);
    else task.add_output(c.store().partition_by_tiling(c_tile), c_point);
  }
  rt->submit(std::move(task));
  return c;
}

}  // namespace xf::dist
