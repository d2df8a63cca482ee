// SPDX-License-Identifier: Apache-2.0
// Products of distributed matrices: A (m, k) split into row panels and B (k, n) into column
// panels, one task a tile of the result, which reads its row panel of A and column panel of B and
// writes its tile with cuBLAS (GPU variant) or xfuse's host loop (CPU variant: a fused multiply and
// sum, no BLAS). A narrow B (or a vector) is read whole by every task. The k dimension is not
// split: a task holds panels of k columns of A and k rows of B (SUMMA's k steps are not built).
#pragma once

#include <algorithm>
#include <cmath>

#include "../linalg.hpp"
#include "statement.hpp"

namespace xf::dist {
namespace detail {

template <class T, int RB>
struct matmul_task : xfuse_task<matmul_task<T, RB>> {
  template <class Space>
  static void run(const legate::TaskContext& ctx) {
    const auto a = local_piece<T, 2, Space>(ctx.input(0).data(), false);
    const auto b = local_piece<T, RB, Space>(ctx.input(1).data(), false);
    auto c = local_piece<T, RB, Space>(ctx.output(0).data(), true);
    if (c.size() == 0) return;
    if constexpr (std::is_same_v<Space, xf::host>) {  // no BLAS here: a fused multiply and sum
      if constexpr (RB == 1) {
        c.assign(xf::sum(a * b, 1));
      } else {
        c.assign(xf::sum(a(xf::all, xf::all, xf::newaxis) * b(xf::newaxis, xf::all, xf::all), 1));
      }
    } else if (c.strides() == c_strides(c.shape())) {
      matmul_into(a, b, plan_matmul(a, b), matmul_options{}, false, false, T(1), T(0), c);
    } else {
      c.assign(xf::matmul(a, b));
    }
  }
};

}  // namespace detail

// a @ b for a distributed matrix a and a distributed matrix or vector b: one task a tile of the
// result (the top of this file).
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
  if (k == 0) return full<T>(out_shape, T(0));  // sums of nothing
  auto c = empty<T>(out_shape);
  if (c.size() == 0) return c;
  auto* rt = detail::ordered_runtime(op);
  // A grid of pr x pc tasks: task (i, j) reads row panel i of a and column panel j of b and writes
  // tile (i, j) of c. Panels of b are as wide as a square tile of c would have them (pc = 1 for a
  // narrow b: every task reads b whole).
  const index_t procs = detail::pieces_wanted();
  const index_t n = RB == 2 ? sb[RB - 1] : 1;
  index_t pc = RB == 2 ? static_cast<index_t>(std::lround(std::sqrt(double(procs) * double(n) / double(m)))) : 1;
  pc = std::clamp<index_t>(pc, 1, std::min(procs, n));
  index_t pr = std::clamp<index_t>(procs / pc, 1, m);
  const index_t rows = (m + pr - 1) / pr, cols = (n + pc - 1) / pc;
  pr = (m + rows - 1) / rows;
  pc = (n + cols - 1) / cols;
  const legate::SymbolicPoint row_panel{legate::dimension(0), legate::constant(0)};
  const std::uint64_t a_tile[2] = {static_cast<std::uint64_t>(rows), static_cast<std::uint64_t>(k)};
  if constexpr (RB == 2) {
    auto task = rt->create_task(detail::library(), detail::task_id<detail::matmul_task<T, RB>>(),
                                {static_cast<std::uint64_t>(pr), static_cast<std::uint64_t>(pc)});
    const std::uint64_t b_tile[2] = {static_cast<std::uint64_t>(k), static_cast<std::uint64_t>(cols)};
    const std::uint64_t c_tile[2] = {static_cast<std::uint64_t>(rows), static_cast<std::uint64_t>(cols)};
    task.add_input(a.store().partition_by_tiling(a_tile), row_panel);
    task.add_input(b.store().partition_by_tiling(b_tile), legate::SymbolicPoint{legate::constant(0), legate::dimension(1)});
    task.add_output(c.store().partition_by_tiling(c_tile), legate::SymbolicPoint{legate::dimension(0), legate::dimension(1)});
    detail::submit(rt, std::move(task));
  } else {
    auto task = rt->create_task(detail::library(), detail::task_id<detail::matmul_task<T, RB>>(), {static_cast<std::uint64_t>(pr)});
    const std::uint64_t c_tile[1] = {static_cast<std::uint64_t>(rows)};
    task.add_input(a.store().partition_by_tiling(a_tile), row_panel);
    task.add_input(b.store());
    task.add_output(c.store().partition_by_tiling(c_tile), legate::SymbolicPoint{legate::dimension(0)});
    detail::submit(rt, std::move(task));
  }
  return c;
}

}  // namespace xf::dist
