// SPDX-License-Identifier: Apache-2.0
// A reduction described but not yet run (xf::lazy::sum(x, 1), ...): its expression, reducer and
// axes. xf::eval runs several of them over the same elements in one pass (together.hpp); run alone,
// one gives exactly what the eager function of the same name gives.
#pragma once

#include <array>
#include <cstddef>

#include "../expr/traits.hpp"

namespace xf::detail {

template <bool Keep, std::size_t N, class Op, class E>
auto reduce_over(const E& e, const std::array<int, N>& axes, const Op& op, const char* name);

template <class E, class Op, std::size_t N, bool Keep>
struct pending_reduction {
  using expression_type = E;
  using op_type = Op;
  static constexpr std::size_t axis_count = N;
  static constexpr bool keep = Keep;
  E expr;  // arrays are shared handles: the description keeps its inputs alive
  Op op;
  std::array<int, N> axes;  // valid, distinct, ascending
  const char* name;

  auto run() const { return reduce_over<Keep>(expr, axes, op, name); }
};

template <class T>
inline constexpr bool is_pending_reduction = false;
template <class E, class Op, std::size_t N, bool Keep>
inline constexpr bool is_pending_reduction<pending_reduction<E, Op, N, Keep>> = true;

template <bool Keep, std::size_t N, class Op, class E>
auto defer_over(const E& e, const std::array<int, N>& axes, const Op& op, const char* name) {
  return pending_reduction<E, Op, N, Keep>{e, op, axes, name};
}

// Every axis of a rank-R array, in order: a full reduction's axes.
template <int R>
constexpr std::array<int, static_cast<std::size_t>(R)> every_axis() {
  std::array<int, static_cast<std::size_t>(R)> axes{};
  for (int d = 0; d < R; ++d) axes[d] = d;
  return axes;
}

template <bool Keep, class Op, class E>
auto defer_all(const E& e, const Op& op, const char* name) {
  return defer_over<Keep>(e, every_axis<rank_v<E>>(), op, name);
}

}  // namespace xf::detail
