// SPDX-License-Identifier: Apache-2.0
// softmax, log_softmax and logsumexp along an axis, of any expression: a reduction whose result
// feeds element-wise work over the same axis, fused (rows/rows.hpp: one kernel, one read and one
// write where a row fits on chip; otherwise two passes and no full-size temporary). SciPy's
// formulas (scipy.special.softmax, log_softmax, logsumexp); floating element types only (float,
// double, half, bfloat16: half and bfloat16 compute in float).
#pragma once

#include "rows/produced_rows.hpp"

namespace xf {

// scipy.special.softmax(e, axis): exp(e - max) / sum(exp(e - max)) along the axis, e's shape and
// element type. A NaN in a row makes the row NaN; an empty axis is an xf::shape_error (SciPy raises).
template <expression E>
auto softmax(const E& e, int axis, const detail::statement_end& end = {}) {
  return detail::describe_rows<detail::row_result::softmax>(end, e, axis, "xf::softmax");
}

// scipy.special.log_softmax(e, axis): (e - m) - log(sum(exp(e - m))) with m the row's maximum, or
// 0 where that is not finite. An empty axis is an xf::shape_error, as for softmax.
template <expression E>
auto log_softmax(const E& e, int axis, const detail::statement_end& end = {}) {
  return detail::describe_rows<detail::row_result::log_softmax>(end, e, axis, "xf::log_softmax");
}

// scipy.special.logsumexp(e, axis): log(sum(exp(e))) along the axis without overflow; an empty
// axis gives -inf. The axis is removed, or kept with extent 1 (xf::keepdims).
template <expression E>
auto logsumexp(const E& e, int axis, keepdims_t, const detail::statement_end& end = {}) {
  return detail::describe_rows<detail::row_result::logsumexp>(end, e, axis, "xf::logsumexp");
}
// Without keepdims: an array (a view of the keepdims result without the axis).
template <expression E>
auto logsumexp(const E& e, int axis) {
  const int one_axis[1] = {axis};
  const int a = detail::normalize_axes(one_axis, e.shape(), "xf::logsumexp")[0];
  const array<value_t<E>, rank_v<E>, resolved_space_t<space_t<E>>> kept = logsumexp(e, a, keepdims);
  return kept.squeeze(a);
}

}  // namespace xf
