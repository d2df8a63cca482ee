// SPDX-License-Identifier: Apache-2.0
// The scan functions and their described forms (xf::lazy), public through <xfuse/scan.hpp>,
// whose comment says what they compute.
#pragma once

#include <string>

#include "../base/nvtx_emit.hpp"
#include "../reduce.hpp"
#include "device.cuh"
#include "pending.hpp"

namespace xf {
namespace detail {

// Host scan: each line runs in order, in the accumulator type.
template <class Plan>
void scan_host(const Plan& p, index_t step) {
  for (index_t o = 0; o < p.kept.size; ++o) {
    index_t kept_pos[Plan::slots], out_pos;
    layout_positions(p.kept, false, o, kept_pos, out_pos);
    auto acc = p.op.identity();
    for (index_t r = 0; r < p.reduced.size; ++r) {
      acc = p.op.combine(acc, mapped_element(p, kept_pos, r));
      p.out[out_pos + r * step] = convert<typename Plan::out_type>(acc);
    }
  }
}

// The plan of scanning `e` along `axis`, or over its flattening when axis < 0, into `out`, an
// array of e's shape with `result_strides` (a fresh C-ordered array, or a consumer's destination),
// or for a flattened scan a fresh 1-D array (strides C-ordered over e's shape). Both layouts keep
// every axis (extent 1 where they do not walk), so the flattened and the per-axis scan share one
// plan type.
template <class Op, class E>
auto make_scan_plan(const E& e, int axis, const Op& op, typename Op::out_type* out, const dims<rank_v<E>>& result_strides) {
  constexpr int R = rank_v<E>;
  const auto records = e.leaves();
  using Records = std::remove_cvref_t<decltype(records)>;
  constexpr int L = Records::size;
  using Fn = decltype(e.template evaluator<0>());
  using Plan = reduce_plan<Fn, typename descs_of<Records>::type, Op, R, R>;
  const auto shape = e.shape();
  dims<R> kept_shape{}, line_shape{};
  for (int d = 0; d < R; ++d) {
    const bool along = axis < 0 || d == axis;
    kept_shape[d] = along ? 1 : shape[d];
    line_shape[d] = along ? shape[d] : 1;
  }
  // As a reduction's plan: the base goes to `kept`, the lines start at 0.
  const auto ops = gather_operands<R>(records, shape);
  const index_t line_base[layout<R, L>::leaves] = {};
  Plan p{e.template evaluator<0>(), ops.descs, op, out, {}, {}, false, false, false, false, {}};
  p.kept = make_layout<R, L>(kept_shape, result_strides, ops.strides, ops.base);
  p.reduced = make_layout<R, L>(line_shape, c_strides(line_shape), ops.strides, line_base);
  p.kept_narrow = fits_32_bits(p.kept);
  p.reduced_narrow = fits_32_bits(p.reduced);
  set_aliases(p);
  return p;
}

// Scans `e` along `axis` (Flat: over its flattening, axis -1) into `result`, a fresh C-ordered array.
template <bool Flat, class Op, class E, class Result>
void scan_into(const E& e, int axis, const Op& op, Result& result, const char* name) {
  if (result.size() == 0) return;
  const nvtx_range range(name);
  const auto p = make_scan_plan(e, axis, op, result.data(), c_strides(e.shape()));
  // Running total r of a line goes r * step past the line's start in the result.
  const index_t step = axis < 0 ? 1 : c_strides(e.shape())[axis];
  if constexpr (std::is_same_v<resolved_space_t<space_t<E>>, device>) {
    static_assert(cuda_tu || always_false<E>,
                  "xfuse: a scan of device arrays launches CUDA kernels; compile this file with nvcc");
#if XF_CUDA_TU
    const int cur = device::current_id();
    require_leaf_access(p, e, cur, name);
    if constexpr (Flat) scan_flat_device(p, current_slot(cur).handle);
    else scan_device(p, step, cur, current_slot(cur).handle);
#endif
  } else {
    refuse_in_capture(name, "scans of host arrays run on the host now, not in the graph");
    scan_host(p, step);
  }
}

template <class Maker, class Dtype, class E>
auto defer_scan_flat(const E& e, const char* name) {
  const auto op = Maker::template make<Dtype, value_t<E>>();
  return pending_scan<E, std::remove_cvref_t<decltype(op)>, true>{{}, e, op, 0, name};
}

template <class Maker, class Dtype, class E>
auto defer_scan_axis(const E& e, int axis, const char* name) {
  static_assert(rank_v<E> >= 1, "xf::cumsum/cumprod: a 0-d array has no axis; call it without one");
  const auto op = Maker::template make<Dtype, value_t<E>>();
  const int axes[1] = {axis};
  return pending_scan<E, std::remove_cvref_t<decltype(op)>, false>{{}, e, op, normalize_axes(axes, e.shape(), name)[0], name};
}

}  // namespace detail

// Running sums: xf::cumsum(x) over the flattened x, xf::cumsum(x, axis) along one axis. Each
// eager scan returns the described scan (scan/pending.hpp), computed by the end of the statement
// that calls it unless that statement writes it into an array (straight from the scan's kernel) or
// uses it in an expression written into an array (in the scan's kernel): `auto c = xf::cumsum(x);`
// holds x's running sums as of that statement, and reads as an array.
template <class Dtype = void, expression E>
auto cumsum(const E& e, const detail::statement_end& end = {}) {
  return end.bind(detail::defer_scan_flat<detail::sum_maker, Dtype>(e, "xf::cumsum"));
}
template <class Dtype = void, expression E>
auto cumsum(const E& e, int axis, const detail::statement_end& end = {}) {
  return end.bind(detail::defer_scan_axis<detail::sum_maker, Dtype>(e, axis, "xf::cumsum"));
}

// Running products, as cumsum.
template <class Dtype = void, expression E>
auto cumprod(const E& e, const detail::statement_end& end = {}) {
  return end.bind(detail::defer_scan_flat<detail::prod_maker, Dtype>(e, "xf::cumprod"));
}
template <class Dtype = void, expression E>
auto cumprod(const E& e, int axis, const detail::statement_end& end = {}) {
  return end.bind(detail::defer_scan_axis<detail::prod_maker, Dtype>(e, axis, "xf::cumprod"));
}

// Running sums and products with every NaN read as 0 (nancumsum) or 1 (nancumprod), as NumPy's.
template <class Dtype = void, expression E>
auto nancumsum(const E& e, const detail::statement_end& end = {}) {
  return end.bind(detail::defer_scan_flat<detail::nansum_maker, Dtype>(e, "xf::nancumsum"));
}
template <class Dtype = void, expression E>
auto nancumsum(const E& e, int axis, const detail::statement_end& end = {}) {
  return end.bind(detail::defer_scan_axis<detail::nansum_maker, Dtype>(e, axis, "xf::nancumsum"));
}
template <class Dtype = void, expression E>
auto nancumprod(const E& e, const detail::statement_end& end = {}) {
  return end.bind(detail::defer_scan_flat<detail::nanprod_maker, Dtype>(e, "xf::nancumprod"));
}
template <class Dtype = void, expression E>
auto nancumprod(const E& e, int axis, const detail::statement_end& end = {}) {
  return end.bind(detail::defer_scan_axis<detail::nanprod_maker, Dtype>(e, axis, "xf::nancumprod"));
}

// Described scans: operands of element-wise expressions (`x - xf::lazy::cumsum(x) / n`), run in
// the kernel of the expression that uses them where it can (scan/consumer.hpp), else first.
namespace lazy {
// A described running sum, over the flattened e or along one axis: an operand, not an array.
template <class Dtype = void, expression E>
auto cumsum(const E& e) {
  return detail::defer_scan_flat<detail::sum_maker, Dtype>(e, "xf::lazy::cumsum");
}
template <class Dtype = void, expression E>
auto cumsum(const E& e, int axis) {
  return detail::defer_scan_axis<detail::sum_maker, Dtype>(e, axis, "xf::lazy::cumsum");
}
// A described running product, as lazy::cumsum.
template <class Dtype = void, expression E>
auto cumprod(const E& e) {
  return detail::defer_scan_flat<detail::prod_maker, Dtype>(e, "xf::lazy::cumprod");
}
template <class Dtype = void, expression E>
auto cumprod(const E& e, int axis) {
  return detail::defer_scan_axis<detail::prod_maker, Dtype>(e, axis, "xf::lazy::cumprod");
}
}  // namespace lazy

}  // namespace xf
