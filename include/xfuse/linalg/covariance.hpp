// SPDX-License-Identifier: Apache-2.0
// NumPy's cov and corrcoef. As NumPy computes them: the observations centred on their means (one
// fused kernel: the means are a described reduction used as an operand), then one GEMM,
// X X^H * (1 / (n - ddof)), with the scale as GEMM's alpha. The product is the work (k^2 n
// multiply-adds against k n reads), so it goes to cuBLAS (OpenBLAS for host arrays), not to a fused
// reduction, which could not reuse each row from on chip. corrcoef divides by the standard
// deviations and clips to [-1, 1] in one more fused kernel.
//
// Result type: NumPy's result_type(m, float64) (float32 gives float64, complex64 complex128).
#pragma once

#include <limits>
#include <optional>
#include <string>

#include "../exec/as_array.hpp"
#include "../reduce/reductions.hpp"
#include "../reduce/row_statistics.hpp"
#include "../reduce/together.hpp"
#include "../user/map.hpp"
#include "matmul.hpp"

namespace xf {
namespace detail {

template <class T>
using covariance_t = promote_t<T, double>;

// NaN of a real or complex type (complex: NaN in both parts, NumPy's 0 * inf of a complex product).
template <class T>
T not_a_number() {
  using Real = real_t<T>;
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  if constexpr (is_complex<T>) return T(nan, nan);
  else return nan;
}

// NumPy's clip of the real and imaginary parts to [-1, 1] (NaN stays NaN).
struct clip_parts_to_unit {
  template <class V>
  XF_HD XF_FORCEINLINE static V one(V v) {
    return v < V(-1) ? V(-1) : (v > V(1) ? V(1) : v);
  }
  template <class Z>
  XF_HD XF_FORCEINLINE Z operator()(const Z& z) const {
    if constexpr (is_complex<Z>) return Z(one(z.real()), one(z.imag()));
    else return one(z);
  }
};

// The (k, k) covariance of the rows of `rows` (k variables, n observations).
template <class Out, class T, class S>
array<Out, 2, S> covariance_of_rows(const array<T, 2, S>& rows, int ddof) {
  const index_t k = rows.shape()[0], n = rows.shape()[1];
  array<Out, 2, S> c(dims<2>{k, k});
  if (k == 0) return c;
  if (n == 0) {  // NumPy: NaN means, 0 / 0 degrees of freedom
    c.assign(not_a_number<Out>());
    return c;
  }
  const auto x = rows.template astype<Out>();
  const array<Out, 2, S> centered = x - lazy::mean(x, 1, keepdims);
  const double fact = static_cast<double>(n) - ddof;  // NumPy warns and scales by 1 / 0 when <= 0
  const double scale = fact > 0 ? 1.0 / fact : 1.0;
  if constexpr (is_complex<Out>) c = scale * matmul(centered, conj(centered.T()));
  else c = scale * matmul(centered, centered.T());
  if (fact <= 0) c *= std::numeric_limits<double>::infinity();
  return c;
}

}  // namespace detail

// NumPy's cov(m, rowvar, bias, ddof): the covariance matrix of the variables of m (its rows, or its
// columns when rowvar is false; a 1-D m is one variable), normalised by n - 1 (n with bias, or
// n - ddof). A 2-D m gives a (k, k) array (also for k = 1, where NumPy squeezes to 0-d), a 1-D m a
// 0-d array. With n <= ddof NumPy divides by 0 (inf or NaN), as here.
template <expression M>
auto cov(const M& m, bool rowvar = true, bool bias = false, std::optional<int> ddof = std::nullopt) {
  constexpr int R = rank_v<M>;
  static_assert(R == 1 || R == 2, "xf::cov: m must be 1-D or 2-D (NumPy raises for more dimensions)");
  using T = value_t<M>;
  using Out = detail::covariance_t<T>;
  const auto a = detail::as_array(m);
  const int dd = ddof.value_or(bias ? 0 : 1);
  if constexpr (R == 1) {
    return detail::covariance_of_rows<Out>(a.reshape(dims<2>{1, a.size()}), dd).reshape(dims<0>{});
  } else {
    return detail::covariance_of_rows<Out>(rowvar ? a : a.T(), dd);
  }
}

// NumPy's corrcoef(m, rowvar): the correlation coefficients cov / (std_i std_j), each division as
// NumPy does it, real and imaginary parts clipped to [-1, 1]. A 1-D m gives NumPy's c / c (1, or
// NaN for a constant m).
template <expression M>
auto corrcoef(const M& m, bool rowvar = true) {
  const auto c = cov(m, rowvar);
  if constexpr (rank_v<M> == 1) {
    return eval(c / c);
  } else {
    const auto d = c.diagonal();
    const auto by_rows = sqrt(real(d.expand_dims(1))), by_columns = sqrt(real(d.expand_dims(0)));
    return eval(map(detail::clip_parts_to_unit{}, c / by_rows / by_columns));
  }
}

}  // namespace xf
