// SPDX-License-Identifier: Apache-2.0
// An element-wise expression that uses a described scan of an expression of its own shape, along
// one axis, written into a device array in one kernel:
//
//   y = x - xf::lazy::cumsum(x) / n;                  // x 1-D
//   y = xf::exp(xf::lazy::cumsum(xf::log(p), 0));    // running products of positive p
//   auto c = xf::lazy::cumsum(x, 1);  y = c * c;      // one scan used twice
//
// The expression and the scan's input are zipped into one scan plan (make_scan_plan: one layout,
// so a line is the same elements for both) whose operation folds the scan's input
// (scan_then_consumer) and whose store is the expression's value with the running total in place
// of the scan (feed.cuh): a block per line or per 32 lines where the lines fill the GPU
// (lines.cuh), CUB's scan for the one line of a 1-D scan. The running totals never reach memory,
// so the described scan is not kept: a later use runs it again.
//
// A described scan alone is written straight into a C-ordered destination by the scan itself
// (scan_straight_into: CUB's scan for one line, the line walks for several), into other
// destinations as the consumer of itself.
//
// Anything else takes the general path (the scan runs when first needed, into an array, then the
// element-wise kernel reads it): host arrays; a scan already run; a flattened scan of more than one
// dimension; lines too few to give every multiprocessor a block; a scan whose input holds a described scan or reduction; an expression that also holds
// a described reduction, or two different scans; a destination that other elements read.
#pragma once

#include <tuple>
#include <type_traits>

#include "../expr/pending_operand.hpp"
#include "../expr/zip.hpp"
#include "feed.cuh"
#include "pending.hpp"
#include "../base/nvtx_emit.hpp"

namespace xf::detail {

// The described scans that are operands of `e`, left to right, as a std::tuple of pointers.
template <class E>
auto pending_scans(const E& e) {
  if constexpr (is_pending_scan<E>) {
    return std::tuple<const E*>{&e};
  } else if constexpr (holds_pending_scan<E>) {
    return [&]<int... I>(std::integer_sequence<int, I...>) {
      return std::tuple_cat(pending_scans(get<I>(e.children()))...);
    }(std::make_integer_sequence<int, std::remove_cvref_t<decltype(e.children())>::size>{});
  } else {
    return std::tuple<>{};
  }
}

// Whether the kinds allow one kernel into a rank-R destination: every use is one described scan
// type, along an axis of an input of rank R (or flattened rank 1), whose input holds no described
// operand; the expression holds no described reduction.
template <int R, class E, class P, class... Same>
inline constexpr bool scan_fusable_kinds =
    (std::is_same_v<P, Same> && ...) && !holds_pending_reduction<E> && rank_v<typename P::expression_type> == R &&
    (!P::flat || R == 1) && !holds_pending_scan<typename P::expression_type> &&
    !holds_pending_reduction<typename P::expression_type>;

#if XF_CUDA_TU
// The launch, with the scan's leaf marked: false when the destination overlaps what other
// elements read, or the line's layout is not a single stride.
template <class T, int R, class E, class P>
bool launch_scan_to_consumer(const array<T, R, device>& dst, const E& e, const P& scan, const char* op) {
  const zipped<void, E, typename P::expression_type> all(e, scan.expr);
  if (reads_written_memory(dst.data(), dst.shape(), dst.strides(), all)) return false;
  const int axis = P::flat ? 0 : scan.axis;
  const scan_then_consumer<T, typename P::op_type> feed{scan.op};
  const auto p = make_scan_plan(all, axis, feed, dst.data(), dst.strides());
  if (p.reduced.rank != 1) return false;  // a line of one element: the general path copies it
  const int cur = device::current_id();
  require_access(dst.device_id(), cur, op);
  require_leaf_access(p, all, cur, op);
  const nvtx_range range(op);
  const cudaStream_t stream = current_slot(cur).handle;
  const index_t step = dst.strides()[axis];
  // One line: CUB's scan. Several: the line walks, or the general path when they are too few (a
  // keyed CUB scan feeding the expression would cost every file one more CUB instantiation).
  if constexpr (P::flat || rank_v<typename P::expression_type> == 1) {
    scan_line_to_consumer(p, step, stream);
    return true;
  } else {
    return scan_lines_device(p, step, cur, stream);
  }
}
#endif

// The described scan written into dst of its own shape and type, straight from its kernel: dst
// C-ordered and reading none of the scan's input (a flattened scan's input in any layout). False,
// having run nothing, otherwise.
template <class T, int R, class Space, class P>
bool scan_straight_into(const array<T, R, Space>& dst, const P& scan) {
  if constexpr (!std::is_same_v<T, typename P::value_type> || !std::is_same_v<Space, typename P::space> || R != P::rank) {
    return false;
  } else {
    if (scan.state->value || dst.shape() != scan.shape() || dst.strides() != c_strides(dst.shape())) return false;
    if (dst.size() > 0 && reads_any_of(range_of<R>(dst.data(), sizeof(T), dst.shape(), dst.strides().data(), 0), scan.expr))
      return false;
    array<T, R, Space> out = dst;
    scan_into<P::flat>(scan.expr, P::flat ? -1 : scan.axis, scan.op, out, scan.name);
    scan.state->consumed = true;
    return true;
  }
}

template <class T, int R, class Space, class E>
bool scan_with_consumer(const array<T, R, Space>& dst, const E& e, const char* op) {
  if constexpr (is_pending_scan<E>) {
    if (scan_straight_into(dst, e)) return true;
  }
  const auto scans = pending_scans(e);
  constexpr bool fusable_kinds = std::is_same_v<Space, device> && rank_v<E> == R && cuda_tu &&
                                 []<class P, class... Same>(std::type_identity<std::tuple<const P*, const Same*...>>) {
                                   return scan_fusable_kinds<R, E, P, Same...>;
                                 }(std::type_identity<std::remove_cvref_t<decltype(scans)>>{});
  if constexpr (!fusable_kinds) {
    return false;
  } else {
#if XF_CUDA_TU
    const auto& scan = *std::get<0>(scans);
    const bool one_scan = std::apply([&](const auto*... q) { return ((q->state == scan.state) && ...); }, scans);
    if (!one_scan || scan.state->value || dst.size() == 0 || e.shape() != dst.shape() || scan.shape() != dst.shape()) return false;
    bool done;
    {
      const in_kernel_mark mark(*scan.state, dst.device_id());
      done = launch_scan_to_consumer(dst, e, scan, op);
    }
    if (done) scan.state->consumed = true;
    return done;
#else
    return false;
#endif
  }
}

}  // namespace xf::detail
