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
struct pending_scan : produced_result<pending_scan<E, Op, Flat>> {
  using expression_type = E;
  using op_type = Op;
  static constexpr bool flat = Flat;

  // The expression protocol (expr/traits.hpp): the running totals' type, rank and space.
  static constexpr bool xf_pending_scan = true;
  using value_type = typename Op::out_type;
  using space = resolved_space_t<space_t<E>>;
  static constexpr int rank = Flat ? 1 : rank_v<E>;
  using result_type = array<value_type, rank, space>;

  E expr;    // arrays are shared handles: the description keeps its inputs alive
  Op op;
  int axis;  // valid; 0 for a flattened scan
  const char* name;
  // Shared by copies of the description (exec/produced.hpp).
  std::shared_ptr<produced_state<result_type>> state = std::make_shared<produced_state<result_type>>();

  dims<rank> shape() const {
    if constexpr (Flat) return dims<1>{product(expr.shape())};
    else return expr.shape();
  }
  // The running totals into a fresh array (produced_result::eval).
  void compute(result_type& totals) const { scan_into<Flat>(expr, Flat ? -1 : axis, op, totals, name); }
  // The producer protocol (exec/producer.hpp).
  template <class T, int R, class S, class C>
  bool xf_feed(const array<T, R, S>& dst, const C& e, const char* op_name) const {
    return scan_with_consumer(dst, e, op_name);
  }
};

}  // namespace xf::detail
