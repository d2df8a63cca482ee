// SPDX-License-Identifier: Apache-2.0
// xf::matmul: NumPy's @ on device or host arrays, as a lazy product (product.hpp) that runs
// one BLAS call when it is first used.
#pragma once

#include "../exec/as_array.hpp"
#include "product.hpp"

namespace xf {
namespace detail {

// conj(x) of a complex array x of element type T.
template <class E, class T>
inline constexpr bool conj_of_array = false;
template <class V, int R, class Space, class T>
inline constexpr bool conj_of_array<node<ops::conj, array<V, R, Space>>, T> = is_complex<V> && std::is_same_v<V, T>;

}  // namespace detail

// NumPy's matmul (the @ operator) on device or host arrays, or on expressions, which are evaluated
// once into a temporary first. Mixed element types meet in NumPy's result type. Float, double,
// complex64/128 and (device) half/bfloat16 with float accumulation; integers are refused.
// The result is a lazy product (product.hpp): `alpha * matmul(a, b) + beta * c` is one GEMM.
template <expression A, expression B>
auto matmul(const A& a, const B& b, const matmul_options& opt = {}) {
  using T = promote_t<value_t<A>, value_t<B>>;
  static_assert(is_floating<T> || is_complex<T>,
                "xf::matmul: BLAS multiplies float, double, complex, half and bfloat16 matrices; cast integer "
                "operands with .astype<double>() first");
  using S = resolved_space_t<space_t<A>>;
  static_assert(std::is_same_v<S, resolved_space_t<space_t<B>>>, "xf::matmul: one operand is on the host, the other on the device");
  constexpr int RA = rank_v<A>, RB = rank_v<B>;
  const auto cast = [](const auto& e) {
    using V = value_t<decltype(e)>;
    if constexpr (std::is_same_v<V, T>) return array<T, rank_v<decltype(e)>, S>(detail::as_array(e));
    else return eval(e.template astype<T>());
  };
  if constexpr (std::is_same_v<S, host> && is_low_precision<T>) {
    // No 16-bit host BLAS: multiply in float, round once.
    return eval(detail::matmul_arrays(eval(cast(a).template astype<float>()), eval(cast(b).template astype<float>()), opt).template astype<T>());
  } else {
    // conj(a view) of the result's type: BLAS conjugates (with a transpose) as it reads.
    constexpr bool ca = detail::conj_of_array<A, T>, cb = detail::conj_of_array<B, T>;
    const auto x = [&] {
      if constexpr (ca) return get<0>(a.children());
      else return cast(a);
    }();
    const auto y = [&] {
      if constexpr (cb) return get<0>(b.children());
      else return cast(b);
    }();
    return matmul_expr<T, RA, RB, S>(x, y, opt, ca, cb);
  }
}

}  // namespace xf
