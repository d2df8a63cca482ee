// SPDX-License-Identifier: Apache-2.0
// np.linalg.matrix_rank and np.linalg.cond from the singular values (svd.hpp), for a matrix or a
// stack; cond with an order other than 2 or -2 multiplies the norms of a and inv(a) (norm.hpp).
// Both are asynchronous: the counts and ratios are small fused reductions and expressions.
#pragma once

#include <algorithm>
#include <limits>

#include "norm.hpp"
#include "solve.hpp"
#include "svd.hpp"

namespace xf::linalg {

// np.linalg.matrix_rank(a, tol): how many singular values exceed tol (by default NumPy's
// S.max() * max(m, n) * eps), an int64 array of the batch's shape (0-d for one matrix).
template <expression A>
auto matrix_rank(const A& a, double tol) {
  constexpr int R = rank_v<A>;
  static_assert(R >= 2, "xf::linalg::matrix_rank: needs a matrix or a stack of matrices");
  const auto s = svdvals(a);
  return count_nonzero(s > tol, R - 2);
}
template <expression A>
auto matrix_rank(const A& a) {
  constexpr int R = rank_v<A>;
  static_assert(R >= 2, "xf::linalg::matrix_rank: needs a matrix or a stack of matrices");
  using Re = real_t<std::conditional_t<std::is_integral_v<value_t<A>>, double, value_t<A>>>;
  const auto s = svdvals(a);
  const auto shape = a.shape();
  const double scale = static_cast<double>(std::max(shape[R - 2], shape[R - 1])) * std::numeric_limits<Re>::epsilon();
  return count_nonzero(s > max(s, R - 2, keepdims) * static_cast<Re>(scale), R - 2);
}

// np.linalg.cond(a, p): the condition number; p = 2 (NumPy's default) is S.max / S.min, -2 its
// inverse; 1, -1, inf, -inf, "fro" and "nuc" are norm(a, p) * norm(inv(a), p) over the last two
// axes. As NumPy's: a singular matrix gives inf, and so does a NaN from a matrix without NaN (0 / 0
// of a zero matrix); a matrix with NaN gives NaN. Asynchronous on the device.
template <expression A>
auto cond(const A& a_in, const norm_order& p = 2.0) {
  constexpr int R = rank_v<A>;
  static_assert(R >= 2, "xf::linalg::cond: needs a matrix or a stack of matrices");
  using F = std::conditional_t<std::is_integral_v<value_t<A>>, double, value_t<A>>;  // NumPy: integers as float64
  using Re = real_t<F>;
  using S = resolved_space_t<space_t<A>>;
  const auto a = ::xf::detail::as_array_of<F>(a_in);
  constexpr Re inf = std::numeric_limits<Re>::infinity(), nan = std::numeric_limits<Re>::quiet_NaN();
  const auto has_nan = any(isnan(a), {R - 2, R - 1});
  array<Re, R - 2, S> r;
  if (p.kind == norm_order::number && (p.p == 2 || p.p == -2)) {
    const auto values = svdvals(a);
    dims<R - 1> first{};  // the singular values' axis first, the batch axes after it in order
    first[0] = R - 2;
    for (int d = 1; d < R - 1; ++d) first[d] = d - 1;
    const auto s = values.transpose(first);
    const index_t k = s.shape(0);
    if (k == 0) throw shape_error("xf::linalg::cond: the matrices are empty (shape " + to_string(a.shape()) + ")");
    r = p.p == 2 ? array<Re, R - 2, S>(s(0) / s(k - 1)) : array<Re, R - 2, S>(s(k - 1) / s(0));
    r.assign(where(isnan(r) && !has_nan, inf, r));
  } else {
    detail::require_square(a, "xf::linalg::cond");
    const auto inverse = detail::invert(a);
    // The factorization's record, in the batch's shape: nonzero for a singular matrix, whose
    // inverse (inf or NaN) is read as zeros, so that "nuc" takes no SVD of NaN (NumPy's raises).
    dims<R - 2> batch{};
    for (int d = 0; d < R - 2; ++d) batch[d] = a.shape(d);
    dims<R> per_matrix{};
    for (int d = 0; d < R; ++d) per_matrix[d] = d < R - 2 ? a.shape(d) : 1;
    const auto info = array<int, 1, S>::wrap(static_cast<int*>(inverse.info.get()), dims<1>{inverse.count}, inverse.info);
    const auto singular = info.reshape(batch) > 0;
    const auto inverse_or_zero = where(info.reshape(per_matrix) > 0, F(0), inverse.x);
    r = norm(a, p, {R - 2, R - 1}) * norm(inverse_or_zero, p, {R - 2, R - 1});
    r.assign(where((isnan(r) || singular) && !has_nan, inf, where(singular, nan, r)));
  }
  return r;
}

}  // namespace xf::linalg
