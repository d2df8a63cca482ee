// SPDX-License-Identifier: Apache-2.0
// A reduction described but not yet run (xf::lazy::sum(x, 1), ...): its expression, reducer and
// axes. xf::eval runs several of them over the same elements in one pass (together.hpp); run alone,
// one gives exactly what the eager function of the same name gives.
//
// It is also an expression: an operand of element-wise work (`x - xf::lazy::mean(x, 1,
// xf::keepdims)`), where it is one leaf, its result. Like xf::matmul's lazy product, the reduction
// runs the first time it is needed and every later use reads that result (an array made from it
// shares that result's memory); written into a device array with the reduction's rows
// (row_statistics.hpp), it runs in the same kernel as its consumer, its result then equal to the
// eager one up to the rounding of a different summation order. Copies of a description share the
// result: use them from one host thread, and read the result on the stream that computed it or
// after synchronising, as for any array.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <optional>

#include "../exec/evaluate.hpp"
#include "../exec/producer.hpp"
#include "../exec/produced.hpp"
#include "../expr/traits.hpp"

namespace xf::detail {

template <bool Keep, class Space = void, std::size_t N, class Op, class E>
auto reduce_over(const E& e, const std::array<int, N>& axes, const Op& op, const char* name);
// Writes the described reduction `e` straight into `dst` when dst can hold its results as the
// reduction writes them (reduce/reductions.hpp); false, having run nothing, otherwise.
template <class T, int R, class Space, class E>
bool reduce_into(const array<T, R, Space>& dst, const E& e, const char* op);
// Writes `e` into `dst` with its described reductions in the same kernel when they qualify
// (row_statistics.hpp, which every header that makes a described reduction includes); false,
// having run nothing, when they do not.
template <class T, int R, class Space, class E>
bool rows_with_statistics(const array<T, R, Space>& dst, const E& e, const char* op);

template <class E, class Op, std::size_t N, bool Keep>
struct pending_reduction {
  using expression_type = E;
  using op_type = Op;
  static constexpr std::size_t axis_count = N;
  static constexpr bool keep = Keep;

  // The expression protocol (expr/traits.hpp): the result's type, rank and space, one leaf.
  using xf_expression_tag = void;
  static constexpr bool xf_pending_reduction = true;
  using value_type = typename Op::out_type;
  using space = resolved_space_t<space_t<E>>;
  static constexpr int rank = Keep ? rank_v<E> : rank_v<E> - static_cast<int>(N);
  static constexpr int leaf_count = 1;
  using result_type = array<value_type, rank, space>;
  static constexpr bool xf_producer = true;

  E expr;  // arrays are shared handles: the description keeps its inputs alive
  Op op;
  std::array<int, N> axes;  // valid, distinct, ascending
  const char* name;
  // Shared by copies of the description (operands are stored by value): one result for all.
  std::shared_ptr<produced_state<result_type>> state = std::make_shared<produced_state<result_type>>();

  // Runs the reduction now, into a new array in Space (xf::eval's separate passes; void: the
  // expression's own space).
  template <class Space = void>
  auto run() const {
    return reduce_over<Keep, Space>(expr, axes, op, name);
  }

  // The result: computed the first time (asynchronously on the current stream for device arrays),
  // then kept.
  const result_type& eval() const {
    if (!state->value) state->value.emplace(run());
    return *state->value;
  }
  dims<rank> shape() const {
    const auto in = expr.shape();
    dims<rank> out{};
    for (int d = 0, o = 0; d < rank_v<E>; ++d) {
      bool reduced = false;
      for (const int a : axes) reduced = reduced || a == d;
      if (!reduced) out[o++] = in[d];
      else if constexpr (Keep) out[o++] = 1;
    }
    return out;
  }
  index_t size() const { return product(shape()); }
  auto leaves() const {
    const result_type& r = eval();
    return detail::make_tuple(leaf_record<statistic_leaf<value_type>, rank>{{r.data()}, r.shape(), r.strides(), 0, r.device_id()});
  }
  template <int First>
  slot<First, value_type> evaluator() const {
    return {};
  }
  // What xf::array does with it alone (array.hpp's `deferred`): take the result.
  result_type xf_materialize() const { return eval(); }
  // Written into an array: straight into it when it holds the results as the reduction writes
  // them (reduce/reductions.hpp's reduce_into), otherwise through the result.
  template <int RD>
  void xf_assign_into(const array<value_type, RD, space>& dst) const {
    check_assignable(dst, *this, "xf::array::assign");
    if (reduce_into(dst, *this, "xf::array::assign")) return;
    assign_into(dst, eval(), "xf::array::assign");
  }
  // The producer protocol (exec/producer.hpp): e is this description (written straight into dst,
  // reduce.hpp) or an expression using described reductions (the reductions and e in one kernel,
  // row_statistics.hpp).
  template <class T, int R, class S, class C>
  bool xf_feed(const array<T, R, S>& dst, const C& e, const char* op) const {
    if constexpr (std::is_same_v<C, pending_reduction>) return e.state == state && reduce_into(dst, e, op);
    else return rows_with_statistics(dst, e, op);
  }
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
