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

// Integer and bool matrix products (BLAS has none): each operand's matrices C-contiguous (a copy
// only where they are not), read at batch offsets with stride 0 along broadcast batch dimensions,
// by integer_gemm (integer_gemm.cuh).
template <class T, int RA, int RB, class S>
auto integer_matmul(const array<T, RA, S>& a, const array<T, RB, S>& b) {
  const auto p = plan_matmul(a, b);  // shapes, batch broadcasting, devices: checked as for floats
  constexpr int NB = std::remove_cvref_t<decltype(p)>::batch_rank;
  std::optional<device_guard> on_device;
  if constexpr (std::is_same_v<S, device>) on_device.emplace(a.device_id());
  const auto x = ascontiguousarray(a);
  const auto y = ascontiguousarray(b);
  integer_gemm_batches<NB> batches;
  index_t count = 1, a_stride = p.m * p.k, b_stride = p.k * p.n;
  for (int d = NB - 1; d >= 0; --d) {
    const int da = d - (NB - (RA - 2)), db = d - (NB - (RB - 2));  // the operands' own batch axes
    const index_t ea = RA > 2 && da >= 0 ? x.shape(da) : 1, eb = RB > 2 && db >= 0 ? y.shape(db) : 1;
    batches.extent[d] = p.batch[static_cast<std::size_t>(d)];
    batches.a_stride[d] = ea == 1 ? 0 : a_stride;
    batches.b_stride[d] = eb == 1 ? 0 : b_stride;
    a_stride *= ea, b_stride *= eb, count *= batches.extent[d];
  }
  array<T, matmul_rank(RA, RB), S> c(p.out);
  integer_gemm<T, S>(x.data(), y.data(), c.data(), p.m, p.n, p.k, count, batches);
  return c;
}

// Float, double, complex and 16-bit floats: BLAS, as a lazy product.
template <class T, class S, expression A, expression B>
auto blas_matmul(const A& a, const B& b, const matmul_options& opt) {
  static_assert(is_floating<T> || is_complex<T>, "xf::matmul: float, double, complex, half, bfloat16, integer or bool operands");
  constexpr int RA = rank_v<A>, RB = rank_v<B>;
  const auto cast = [](const auto& e) {
    using V = value_t<decltype(e)>;
    return as_array_of<T, S>(e);
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
  using S = detail::operands_space_t<A, B>;
  if constexpr (std::is_integral_v<T>) {
    (void)opt;  // TF32 is for float products
    return detail::integer_matmul(detail::as_array_of<T, S>(a), detail::as_array_of<T, S>(b));
  } else {
    return detail::blas_matmul<T, S>(a, b, opt);
  }
}

}  // namespace xf
