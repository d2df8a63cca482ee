// SPDX-License-Identifier: Apache-2.0
// Products of a distributed matrix with a replicated right operand: A (m, k) is split into row
// blocks, one task each; every task reads all of B (k, n) or the vector b (k,) and writes its rows
// of the result with cuBLAS (GPU variant) or with xfuse's host loop (CPU variant: a fused
// multiply and sum, no BLAS). Both operands partitioned (SUMMA, cuBLASMp) is not built yet.
#pragma once

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

// a @ b for a distributed matrix a and a distributed b (matrix or vector) that every task reads
// whole: the product of a tall or large matrix with a smaller one, or a matrix-vector product.
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
  auto* rt = detail::runtime(op);
  const auto procs = static_cast<index_t>(std::max<std::uint32_t>(1, legate::get_machine().count()));
  const index_t rows = (m + std::min(procs, m) - 1) / std::min(procs, m);
  const index_t pieces = (m + rows - 1) / rows;
  auto task = rt->create_task(detail::library(), detail::task_id<detail::matmul_task<T, RB>>(),
                              {static_cast<std::uint64_t>(pieces)});
  const legate::SymbolicPoint by_row{legate::dimension(0), legate::constant(0)};
  const std::uint64_t a_tile[2] = {static_cast<std::uint64_t>(rows), static_cast<std::uint64_t>(k)};
  task.add_input(a.store().partition_by_tiling(a_tile), by_row);
  task.add_input(b.store());
  if constexpr (RB == 2) {
    const std::uint64_t c_tile[2] = {static_cast<std::uint64_t>(rows), static_cast<std::uint64_t>(sb[1])};
    task.add_output(c.store().partition_by_tiling(c_tile), by_row);
  } else {
    const std::uint64_t c_tile[1] = {static_cast<std::uint64_t>(rows)};
    task.add_output(c.store().partition_by_tiling(c_tile), legate::SymbolicPoint{legate::dimension(0)});
  }
  rt->submit(std::move(task));
  return c;
}

}  // namespace xf::dist
