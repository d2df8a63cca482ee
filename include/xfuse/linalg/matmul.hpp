// SPDX-License-Identifier: Apache-2.0
// xf::matmul: NumPy's @ on device or host arrays, as a lazy product (product.hpp) that runs
// one BLAS call when it is first used.
#pragma once

#include <optional>

#include "../exec/as_array.hpp"
#include "../manip/views.hpp"
#include "integer_gemm.cuh"
#include "product.hpp"

namespace xf {
namespace detail {

// conj(x) of a complex array x of element type T.
template <class E, class T>
inline constexpr bool conj_of_array = false;
template <class V, int R, class Space, class T>
inline constexpr bool conj_of_array<node<ops::conj, array<V, R, Space>>, T> = is_complex<V> && std::is_same_v<V, T>;

// Integer and bool matrix products (BLAS has none): both operands as C-contiguous stacks over the
// broadcast batch (a copy only where they are not already), then integer_gemm (integer_gemm.cuh).
template <class T, int RA, int RB, class S>
auto integer_matmul(const array<T, RA, S>& a, const array<T, RB, S>& b) {
  const auto p = plan_matmul(a, b);  // shapes, batch broadcasting, devices: checked as for floats
  constexpr int NB = std::remove_cvref_t<decltype(p)>::batch_rank;
  std::optional<device_guard> on_device;
  if constexpr (std::is_same_v<S, device>) on_device.emplace(a.device_id());
  index_t count = 1;
  std::array<index_t, NB + 2> a_shape{}, b_shape{};
  for (int i = 0; i < NB; ++i) {
    a_shape[static_cast<std::size_t>(i)] = b_shape[static_cast<std::size_t>(i)] = p.batch[static_cast<std::size_t>(i)];
    count *= p.batch[static_cast<std::size_t>(i)];
  }
  a_shape[NB] = p.m, a_shape[NB + 1] = p.k;
  b_shape[NB] = p.k, b_shape[NB + 1] = p.n;
  // Matrices (1-D operands as a row or a column) broadcast to the full batch, in C order.
  const auto stacked = [](const auto& x, const std::array<index_t, NB + 2>& shape, bool is_a) {
    constexpr int RX = std::remove_cvref_t<decltype(x)>::rank;
    if constexpr (RX == 1) {
      const auto m = is_a ? x.reshape(std::array<index_t, 2>{1, x.shape(0)}) : x.reshape(std::array<index_t, 2>{x.shape(0), 1});
      return ascontiguousarray(m.broadcast_to(shape));
    } else {
      return ascontiguousarray(x.broadcast_to(shape));
    }
  };
  const auto x = stacked(a, a_shape, true);
  const auto y = stacked(b, b_shape, false);
  array<T, matmul_rank(RA, RB), S> c(p.out);
  integer_gemm<T, S>(x.data(), y.data(), c.data(), p.m, p.n, p.k, count);
  return c;
}

// Float, double, complex and 16-bit floats: BLAS, as a lazy product.
template <class T, class S, expression A, expression B>
auto blas_matmul(const A& a, const B& b, const matmul_options& opt) {
  static_assert(is_floating<T> || is_complex<T>, "xf::matmul: float, double, complex, half, bfloat16, integer or bool operands");
  constexpr int RA = rank_v<A>, RB = rank_v<B>;
  const auto cast = [](const auto& e) {
    using V = value_t<decltype(e)>;
    if constexpr (std::is_same_v<V, T>) return array<T, rank_v<decltype(e)>, S>(as_array(e));
    else return eval(e.template astype<T>());
  };
  if constexpr (std::is_same_v<S, host> && is_low_precision<T>) {
    // No 16-bit host BLAS: multiply in float, round once.
    return eval(matmul_arrays(eval(cast(a).template astype<float>()), eval(cast(b).template astype<float>()), opt).template astype<T>());
  } else {
    // conj(a view) of the result's type: BLAS conjugates (with a transpose) as it reads.
    constexpr bool ca = conj_of_array<A, T>, cb = conj_of_array<B, T>;
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

}  // namespace detail

// NumPy's matmul (the @ operator) on device or host arrays, or on expressions, which are evaluated
// once into a temporary first. Mixed element types meet in NumPy's result type. Float, double,
// complex64/128 and (device) half/bfloat16 with float accumulation: a lazy product (product.hpp),
// `alpha * matmul(a, b) + beta * c` is one GEMM. Integers and bool: a new array from one fused
// reduction (detail::integer_matmul), wrapping on overflow as NumPy's.
template <expression A, expression B>
auto matmul(const A& a, const B& b, const matmul_options& opt = {}) {
  using T = promote_t<value_t<A>, value_t<B>>;
  using S = resolved_space_t<space_t<A>>;
  static_assert(std::is_same_v<S, resolved_space_t<space_t<B>>>, "xf::matmul: one operand is on the host, the other on the device");
  if constexpr (std::is_integral_v<T>) {
    (void)opt;  // TF32 is for float products
    const auto as_t = [](const auto& e) {
      using V = value_t<decltype(e)>;
      if constexpr (std::is_same_v<V, T>) return array<T, rank_v<decltype(e)>, S>(detail::as_array(e));
      else return eval(e.template astype<T>());
    };
    return detail::integer_matmul(as_t(a), as_t(b));
  } else {
    return detail::blas_matmul<T, S>(a, b, opt);
  }
}

}  // namespace xf
