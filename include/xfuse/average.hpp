// SPDX-License-Identifier: Apache-2.0
// Weighted means (NumPy's average): sum(a * w) / sum(w) over all elements or one axis, both sums in
// one pass over a and w (reduce/together.hpp), the division fused into a second small kernel.
// Result type: NumPy's result_type(a, w), at least float64 for integer and bool a; the products
// and sums are computed in it, as NumPy's. Weights that
// sum to zero give inf or NaN (NumPy raises ZeroDivisionError, which would need the sums on the
// host).
#pragma once

#include <string>

#include "exec/as_array.hpp"
#include "reduce.hpp"

namespace xf {
namespace detail {

template <class A, class W>
using average_result_t = std::conditional_t<is_integer<A> || is_bool<A>, promote_t<promote_t<A, W>, double>, promote_t<A, W>>;

}  // namespace detail

// np.average: the mean without weights; with weights w (a's shape, or 1-D along the axis)
// sum(a * w) / sum(w).
template <expression A>
auto average(const A& a) {
  return mean(a);
}
template <expression A>
auto average(const A& a, int axis) {
  return mean(a, axis);
}

// np.average(a, weights=w): w of a's shape.
template <expression A, expression W>
auto average(const A& a, const W& w) {
  using Out = detail::average_result_t<value_t<A>, value_t<W>>;
  if constexpr (rank_v<A> != rank_v<W>) {
    static_assert(detail::always_false<A>, "xf::average: the weights must have the shape of a (or, with an axis, be 1-D)");
  } else {
    if (a.shape() != w.shape())
      throw shape_error("xf::average: weights of shape " + to_string(w.shape()) + " differ from a's shape " + to_string(a.shape()));
    auto [weighted, total] = eval(lazy::sum<Out>(a.template astype<Out>() * w.template astype<Out>()), lazy::sum<Out>(w));
    return eval(weighted / total);
  }
}

// np.average(a, axis, weights=w): w of a's shape, or 1-D with a's extent along axis.
template <expression A, expression W>
auto average(const A& a, int axis, const W& w) {
  using Out = detail::average_result_t<value_t<A>, value_t<W>>;
  constexpr int R = rank_v<A>;
  static_assert(R >= 1, "xf::average: a 0-d array has no axis; call it without one");
  const int axes[1] = {axis};
  const int at = detail::normalize_axes(axes, a.shape(), "xf::average")[0];
  if constexpr (rank_v<W> == R) {
    if (a.shape() != w.shape())
      throw shape_error("xf::average: weights of shape " + to_string(w.shape()) + " differ from a's shape " + to_string(a.shape()));
    auto [weighted, total] = eval(lazy::sum<Out>(a.template astype<Out>() * w.template astype<Out>(), at), lazy::sum<Out>(w, at));
    return eval(weighted / total);
  } else {
    static_assert(rank_v<W> == 1, "xf::average: the weights must have the shape of a, or be 1-D along the axis");
    if (w.shape()[0] != a.shape()[at])
      throw shape_error("xf::average: 1-D weights of length " + std::to_string(w.shape()[0]) + " do not match axis " +
                        std::to_string(at) + " of a's shape " + to_string(a.shape()));
    dims<R> along{};
    for (int d = 0; d < R; ++d) along[d] = d == at ? w.shape()[0] : 1;
    const auto weights = detail::as_array<detail::operands_space_t<A, W>>(w).reshape(along);  // broadcasts along the other axes
    return eval(sum<Out>(a.template astype<Out>() * weights.template astype<Out>(), at) / sum<Out>(weights));
  }
}

}  // namespace xf
