// SPDX-License-Identifier: Apache-2.0
// A scan described but not yet run (xf::lazy::cumsum(x), xf::lazy::cumprod(x, 1)): its expression,
// running operation and axis. It is an expression, an operand of element-wise work
// (`x - xf::lazy::cumsum(x) / n`), where it is one leaf: its running totals. Written into a device
// array of the scan's own shape, the expression runs in the scan's kernel, each running total used
// where it is made (scan/consumer.hpp); anywhere else the scan runs the first time it is needed,
// into an array that later uses read (as a described reduction's result: reduce/pending.hpp).
// Run alone, it gives exactly what the eager function of the same name gives. The eager functions
// (xf::cumsum(x)) return the same description, computed by the end of their statement unless a
// destination or a consumer took it there (exec/producer.hpp): written into an array, the scan
// writes straight into it.
#pragma once

#include <memory>

#include "../exec/evaluate.hpp"
#include "../exec/produced.hpp"
#include "../expr/traits.hpp"

namespace xf::detail {

template <bool Flat, class Op, class E, class Result>
void scan_into(const E& e, int axis, const Op& op, Result& result, const char* name);
// Writes e, the described scan or an expression that uses it, into dst in the scan's kernel when
// it can (scan/consumer.hpp); false, having run nothing, otherwise.
template <class T, int R, class Space, class E>
bool scan_with_consumer(const array<T, R, Space>& dst, const E& e, const char* op);

template <class E, class Op, bool Flat>
struct pending_scan : result_members<pending_scan<E, Op, Flat>> {
  using expression_type = E;
  using op_type = Op;
  static constexpr bool flat = Flat;

  // The expression protocol (expr/traits.hpp): the running totals' type, rank and space, one leaf.
  using xf_expression_tag = void;
  static constexpr bool xf_pending_scan = true;
  static constexpr bool xf_producer = true;
  using value_type = typename Op::out_type;
  using space = resolved_space_t<space_t<E>>;
  static constexpr int rank = Flat ? 1 : rank_v<E>;
  static constexpr int leaf_count = 1;
  using result_type = array<value_type, rank, space>;

  E expr;    // arrays are shared handles: the description keeps its inputs alive
  Op op;
  int axis;  // valid; 0 for a flattened scan
  const char* name;
  // Shared by copies of the description (exec/producer.hpp).
  std::shared_ptr<produced_state<result_type>> state = std::make_shared<produced_state<result_type>>();

  dims<rank> shape() const {
    if constexpr (Flat) return dims<1>{product(expr.shape())};
    else return expr.shape();
  }
  index_t size() const { return product(shape()); }

  // The running totals: computed the first time (asynchronously on the current stream for device
  // arrays), then kept.
  const result_type& eval() const {
    if (!state->value) {
      result_type totals(shape());
      scan_into<Flat>(expr, Flat ? -1 : axis, op, totals, name);
      state->value.emplace(std::move(totals));
    }
    return *state->value;
  }
  // The end of the statement that described it (exec/producer.hpp): computed unless taken.
  void xf_settle() const {
    if (!state->consumed) eval();
  }
  auto leaves() const {
    using record = leaf_record<produced_leaf<value_type>, rank>;
    if (state->in_kernel_on >= 0 && !state->value)
      return detail::make_tuple(record{{nullptr}, shape(), c_strides(shape()), 0, state->in_kernel_on});
    const result_type& r = eval();
    return detail::make_tuple(record{{r.data()}, r.shape(), r.strides(), 0, r.device_id()});
  }
  template <int First>
  slot<First, value_type> evaluator() const {
    return {};
  }
  result_type xf_materialize() const { return eval(); }
  template <int RD>
  void xf_assign_into(const array<value_type, RD, space>& dst) const {
    check_assignable(dst, *this, "xf::array::assign");
    if (xf_feed(dst, *this, "xf::array::assign")) return;
    assign_into(dst, eval(), "xf::array::assign");
  }
  // The producer protocol (exec/producer.hpp).
  template <class T, int R, class S, class C>
  bool xf_feed(const array<T, R, S>& dst, const C& e, const char* op) const {
    return scan_with_consumer(dst, e, op);
  }
};

}  // namespace xf::detail
