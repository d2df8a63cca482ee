// SPDX-License-Identifier: Apache-2.0
// Lines along an axis, for the functions that sort them (sort, argsort, quantiles): the axis
// permutations that move an axis last and back.
#pragma once

#include <string>

#include "../base/shape.hpp"

namespace xf::detail {

// The permutation that moves `axis` of a rank-R array last, the others kept in order (NumPy's
// moveaxis(a, axis, -1)), and its inverse.
template <int R>
dims<R> axis_last_order(int axis) {
  dims<R> order{};
  int at = 0;
  for (int d = 0; d < R; ++d)
    if (d != axis) order[at++] = d;
  order[R - 1] = axis;
  return order;
}
template <int R>
dims<R> axis_last_inverse(int axis) {
  dims<R> order{}, inverse{};
  order = axis_last_order<R>(axis);
  for (int d = 0; d < R; ++d) inverse[order[d]] = d;
  return inverse;
}


}  // namespace xf::detail
