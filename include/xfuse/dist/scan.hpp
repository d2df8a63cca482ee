// SPDX-License-Identifier: Apache-2.0
// Running sums and products along one axis of a distributed expression (NumPy's cumsum and
// cumprod with axis=), as a new distributed array. Two ways, chosen by the shape:
//  - whole lines, when the other axes have a line for every piece: one task whose pieces Legate
//    does not split along the axis (as softmax), each running xfuse's scan with the expression
//    fused in;
//  - along the split axis otherwise (a 1-D array, a few long lines): two tasks over tiles of the
//    axis. The first reduces each tile's lines into a store of piece totals; the second reads
//    every total, folds those of the tiles before its own (the exclusive prefix), and runs xfuse's
//    scan with that offset applied in the scan's kernel. The input is read twice and the result
//    written once; the totals are one value a line a piece.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../scan.hpp"
#include "lines.hpp"

namespace xf::dist {
namespace detail {

struct cumsum_kind {
  static constexpr const char* name = "xf::dist::cumsum";
  template <class E>
  static auto lines(const E& e, int axis) {
    return xf::lazy::cumsum(e, axis);
  }
  template <class E>
  static auto total(const E& e, int axis) {
    return xf::sum(e, axis, xf::keepdims);
  }
  template <class S, class O>
  static auto with_offset(const S& scan, const O& offset) {
    return scan + offset;
  }
};
struct cumprod_kind {
  static constexpr const char* name = "xf::dist::cumprod";
  template <class E>
  static auto lines(const E& e, int axis) {
    return xf::lazy::cumprod(e, axis);
  }
  template <class E>
  static auto total(const E& e, int axis) {
    return xf::prod(e, axis, xf::keepdims);
  }
  template <class S, class O>
  static auto with_offset(const S& scan, const O& offset) {
    return scan * offset;
  }
};

template <class Kind, class E>
using scanned_value_t = xf::value_t<decltype(Kind::lines(std::declval<typename local<xf::host, term_rank_v<E>, E>::type>(), 0))>;

// Where a tile of the split axis lies: piece p holds [p * tile, min((p + 1) * tile, n)) along it.
template <int R>
struct tile_of_axis {
  dims<R> shape;
  std::int32_t axis;
  index_t tile;

  legate::Scalar argument() const { return legate::Scalar(legate::binary_type(sizeof(*this)), this, true); }
  static tile_of_axis from(const legate::Scalar& s) {
    tile_of_axis t;
    std::memcpy(&t, s.ptr(), sizeof(t));
    return t;
  }

  legate::Rect<R> rect(index_t piece) const {
    legate::Rect<R> r;
    for (int d = 0; d < R; ++d) {
      r.lo[d] = 0;
      r.hi[d] = shape[static_cast<std::size_t>(d)] - 1;
    }
    r.lo[axis] = piece * tile;
    r.hi[axis] = std::min(shape[static_cast<std::size_t>(axis)], (piece + 1) * tile) - 1;
    return r;
  }
};

// Whole lines: each piece scans its lines.
template <class Kind>
struct scan_lines {
  template <class X, class O>
  static void apply(const X& e, int axis, O& out) {
    out.assign(Kind::lines(e, axis));
  }
};

// Along the split axis, first task: the tile's totals (extent 1 along the axis).
template <class Kind, class E, class V, int R>
struct scan_totals_task : xfuse_task<scan_totals_task<Kind, E, V, R>> {
  template <class Space>
  static void run(const legate::TaskContext& ctx) {
    const legate::Scalar bytes = ctx.scalar(0);
    const auto where = tile_of_axis<R>::from(ctx.scalar(1));
    const legate::Rect<R> rect = where.rect(ctx.get_task_index()[0]);
    auto totals = local_piece<V, R, Space>(ctx.output(0).data(), true);
    if (rect.empty() || totals.size() == 0) return;
    piece_reader<R> in{ctx, static_cast<const std::byte*>(bytes.ptr()), rect};
    totals.assign(Kind::total(rebuild<Space, R>(type_tag<E>{}, in), where.axis));
  }
};

// Second task: the tile's scan with the fold of the totals before it applied. Input 0 is every
// piece's totals; the expression's arrays follow.
template <class Kind, class E, class V, int R>
struct scan_offset_task : xfuse_task<scan_offset_task<Kind, E, V, R>> {
  template <class Space>
  static void run(const legate::TaskContext& ctx) {
    const legate::Scalar bytes = ctx.scalar(0);
    const auto where = tile_of_axis<R>::from(ctx.scalar(1));
    const index_t piece = ctx.get_task_index()[0];
    const legate::Rect<R> rect = where.rect(piece);
    auto out = local_piece<V, R, Space>(ctx.output(0).data(), rect, true);
    if (out.size() == 0) return;
    const auto totals = local_piece<V, R, Space>(ctx.input(0).data(), false);
    dims<R> before_shape = totals.shape();
    before_shape[static_cast<std::size_t>(where.axis)] = piece;
    const auto before = xf::array<V, R, Space>::wrap(totals.data(), before_shape, totals.strides());
    const auto offset = Kind::total(before, where.axis);  // sums of nothing are 0, products 1
    piece_reader<R> in{ctx, static_cast<const std::byte*>(bytes.ptr()), rect, nullptr, 1};
    out.assign(Kind::with_offset(Kind::lines(rebuild<Space, R>(type_tag<E>{}, in), where.axis), offset));
  }
};

// The launch-time view of a tiled task: piece p of a store tiled along `axis` is tile p there.
template <int R>
legate::SymbolicPoint tile_along(int axis) {
  std::vector<legate::SymbolicExpr> point(static_cast<std::size_t>(R), legate::constant(0));
  point[static_cast<std::size_t>(axis)] = legate::dimension(0);
  return legate::SymbolicPoint{std::move(point)};
}

template <int R>
std::vector<std::uint64_t> tile_shape(const dims<R>& shape, int axis, index_t along) {
  std::vector<std::uint64_t> t(shape.begin(), shape.end());
  for (auto& v : t) v = std::max<std::uint64_t>(v, 1);
  t[static_cast<std::size_t>(axis)] = static_cast<std::uint64_t>(along);
  return t;
}

template <class Kind, class E, class V, int R>
void scan_along_split_axis(const E& e, const array<V, R>& out, int axis, index_t pieces, const char* op) {
  const dims<R> shape = out.shape();
  const index_t n = shape[static_cast<std::size_t>(axis)];
  const index_t tile = (n + pieces - 1) / pieces;
  pieces = (n + tile - 1) / tile;
  const tile_of_axis<R> where{shape, axis, tile};
  dims<R> totals_shape = shape;
  totals_shape[static_cast<std::size_t>(axis)] = pieces;
  auto totals = empty<V>(totals_shape);
  launch_operands operands;
  collect(e, shape, operands);
  const auto piece_tiles = tile_shape<R>(shape, axis, tile);
  const auto total_tiles = tile_shape<R>(totals_shape, axis, 1);
  const legate::SymbolicPoint by_piece = tile_along<R>(axis);
  auto* rt = ordered_runtime(op);
  const std::vector<std::uint64_t> launch{static_cast<std::uint64_t>(pieces)};
  {
    auto task = rt->create_task(library(), task_id<scan_totals_task<Kind, E, V, R>>(), launch);
    task.add_output(totals.store().partition_by_tiling(total_tiles), by_piece);
    for (const auto& s : operands.stores) task.add_input(s.partition_by_tiling(piece_tiles), by_piece);
    task.add_scalar_arg(bytes_argument(operands.bytes));
    task.add_scalar_arg(where.argument());
    rt->submit(std::move(task));
  }
  auto task = rt->create_task(library(), task_id<scan_offset_task<Kind, E, V, R>>(), launch);
  task.add_input(totals.store());
  for (const auto& s : operands.stores) task.add_input(s.partition_by_tiling(piece_tiles), by_piece);
  task.add_output(out.store().partition_by_tiling(piece_tiles), by_piece);
  task.add_scalar_arg(bytes_argument(operands.bytes));
  task.add_scalar_arg(where.argument());
  rt->submit(std::move(task));
}

template <class Kind, term E>
auto launch_scan(const E& e, int axis, const char* op) {
  constexpr int R = term_rank_v<E>;
  static_assert(R >= 1, "xf::dist: running sums and products of a distributed expression of rank 1 or more");
  using V = scanned_value_t<Kind, E>;
  const auto shape = shape_of(e, op);
  axis = xf::detail::normalize_axis_of(axis, shape, op);
  (void)Kind::lines(probe<R>(e), axis);
  auto out = empty<V>(shape);
  if (out.size() == 0) return out;
  const index_t pieces = pieces_wanted();
  const index_t n = shape[static_cast<std::size_t>(axis)];
  if (n > 1 && out.size() / n < pieces) {  // fewer lines than pieces: split the axis
    scan_along_split_axis<Kind>(e, out, axis, std::min(pieces, n), op);
    return out;
  }
  launch_whole_lines<scan_lines<Kind>>(e, out, axis, op);
  return out;
}

}  // namespace detail

// numpy.cumsum(e, axis) of a distributed expression: a new distributed array with the running
// sums along the axis, of the type xfuse's scans give (int32 sums in int64). Floating-point results
// agree with one GPU's to rounding (the pieces' totals are added in another order).
template <term E>
auto cumsum(const E& e, int axis) {
  return detail::launch_scan<detail::cumsum_kind>(e, axis, "xf::dist::cumsum");
}
// numpy.cumprod(e, axis) of a distributed expression, as cumsum.
template <term E>
auto cumprod(const E& e, int axis) {
  return detail::launch_scan<detail::cumprod_kind>(e, axis, "xf::dist::cumprod");
}
// Of a 1-D expression, along its one axis.
template <term E>
  requires(detail::term_rank_v<E> == 1)
auto cumsum(const E& e) {
  return cumsum(e, 0);
}
template <term E>
  requires(detail::term_rank_v<E> == 1)
auto cumprod(const E& e) {
  return cumprod(e, 0);
}

}  // namespace xf::dist
