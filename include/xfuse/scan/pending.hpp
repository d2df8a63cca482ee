// SPDX-License-Identifier: Apache-2.0
// A scan described but not yet run (xf::lazy::cumsum(x), xf::lazy::cumprod(x, 1)): its expression,
// running operation and axis. It is an expression, an operand of element-wise work
// (`x - xf::lazy::cumsum(x) / n`), where it is one leaf: its running totals. Written into a device
// array of the scan's own shape, the expression runs in the scan's kernel, each running total used
// where it is made (scan/consumer.hpp); anywhere else the scan runs the first time it is needed,
// into an array that later uses read (as a described reduction's result: reduce/pending.hpp).
// Run alone, it gives exactly what the eager function of the same name gives.
#pragma once

#include <memory>
#include <optional>

#include "../exec/evaluate.hpp"
#include "../expr/traits.hpp"

namespace xf::detail {

template <bool Flat, class Op, class E, class Result>
void scan_into(const E& e, int axis, const Op& op, Result& result, const char* name);

template <class E, class Op, bool Flat>
struct pending_scan {
  using expression_type = E;
  using op_type = Op;
  static constexpr bool flat = Flat;

  // The expression protocol (expr/traits.hpp): the running totals' type, rank and space, one leaf.
  using xf_expression_tag = void;
  static constexpr bool xf_pending_scan = true;
  using value_type = typename Op::out_type;
  using space = resolved_space_t<space_t<E>>;
  static constexpr int rank = Flat ? 1 : rank_v<E>;
  static constexpr int leaf_count = 1;
  using result_type = array<value_type, rank, space>;
  // Shared by copies of the description. `in_kernel_on` is the device whose consumer kernel makes
  // the totals while it is being planned (the leaf then reads nothing), -1 otherwise.
  struct result_state {
    std::optional<result_type> value;
    int in_kernel_on = -1;
  };

  E expr;    // arrays are shared handles: the description keeps its inputs alive
  Op op;
  int axis;  // valid; 0 for a flattened scan
  const char* name;
  std::shared_ptr<result_state> result = std::make_shared<result_state>();

  dims<rank> shape() const {
    if constexpr (Flat) return dims<1>{product(expr.shape())};
    else return expr.shape();
  }
  index_t size() const { return product(shape()); }

  // The running totals: computed the first time (asynchronously on the current stream for device
  // arrays), then kept.
  const result_type& eval() const {
    if (!result->value) {
      result_type totals(shape());
      scan_into<Flat>(expr, Flat ? -1 : axis, op, totals, name);
      result->value.emplace(std::move(totals));
    }
    return *result->value;
  }
  auto leaves() const {
    using record = leaf_record<scanned_leaf<value_type>, rank>;
    if (result->in_kernel_on >= 0 && !result->value)
      return detail::make_tuple(record{{nullptr}, shape(), c_strides(shape()), 0, result->in_kernel_on});
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
    assign_into(dst, eval(), "xf::array::assign");
  }
};

}  // namespace xf::detail
