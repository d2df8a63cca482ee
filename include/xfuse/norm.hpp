// SPDX-License-Identifier: Apache-2.0
// Layer norm and RMS norm along an axis of any expression, with an optional weight and bias along
// that axis, in one fused kernel where a row fits on chip (rows/rows.hpp). PyTorch's formulas
// (torch.nn.functional.layer_norm and rms_norm over the last dimension, here over any one axis):
// the variance is the mean squared deviation (no Bessel correction), eps is added before the
// square root. Floating element types only; half and bfloat16 compute in float.
#pragma once

#include <limits>
#include <type_traits>

#include "rows/produced_rows.hpp"

namespace xf {
namespace detail {
// The spacing of T's values at 1 (torch.finfo(dtype).eps).
template <class T>
constexpr double machine_epsilon() {
  if constexpr (std::is_same_v<T, half>) return 0x1p-10;
  else if constexpr (std::is_same_v<T, bfloat16>) return 0x1p-7;
  else return static_cast<double>(std::numeric_limits<T>::epsilon());
}
}  // namespace detail

// (x - mean) / sqrt(var + eps) along the axis, with var = mean((x - mean)^2).
template <expression E>
auto layer_norm(const E& x, int axis, double eps = 1e-5, const detail::statement_end& end = {}) {
  return detail::describe_rows<detail::row_result::layer_norm>(end, x, axis, "xf::layer_norm", eps);
}
// ... * weight, weight a 1-D array as long as the axis.
template <expression E, class T, class S>
auto layer_norm(const E& x, int axis, double eps, const array<T, 1, S>& weight, const detail::statement_end& end = {}) {
  return detail::describe_rows<detail::row_result::layer_norm>(end, x, axis, "xf::layer_norm", eps, weight);
}
// ... * weight + bias.
template <expression E, class T, class S>
auto layer_norm(const E& x, int axis, double eps, const array<T, 1, S>& weight, const array<T, 1, S>& bias,
                const detail::statement_end& end = {}) {
  return detail::describe_rows<detail::row_result::layer_norm>(end, x, axis, "xf::layer_norm", eps, weight, bias);
}

// x / sqrt(mean(x^2) + eps) along the axis; eps defaults to the element type's machine epsilon, as
// PyTorch's does.
template <expression E>
auto rms_norm(const E& x, int axis, double eps = detail::machine_epsilon<value_t<E>>(), const detail::statement_end& end = {}) {
  return detail::describe_rows<detail::row_result::rms_norm>(end, x, axis, "xf::rms_norm", eps);
}
// ... * weight, weight a 1-D array as long as the axis.
template <expression E, class T, class S>
auto rms_norm(const E& x, int axis, double eps, const array<T, 1, S>& weight, const detail::statement_end& end = {}) {
  return detail::describe_rows<detail::row_result::rms_norm>(end, x, axis, "xf::rms_norm", eps, weight);
}

}  // namespace xf
