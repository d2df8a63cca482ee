// SPDX-License-Identifier: Apache-2.0
// What xf::softmax, log_softmax, logsumexp, layer_norm and rms_norm return: the row function
// described, a producer (exec/producer.hpp), computed by the end of the statement that calls it
// unless that statement takes it first:
//
//   out.assign(xf::softmax(x, 1));                    // straight into out's memory: one kernel
//   y = xf::eval(2.0f * xf::softmax(x, 1) + b);       // the expression in the rows' store: one kernel
//   out += xf::layer_norm(x, 1, 1e-5, w, b);          // likewise, reading out where it writes
//   auto s = xf::softmax(x, 1);                       // computed at the `;`, then read as an array
//
// A destination is written straight when it has the result's shape and type, strides that do not
// walk backwards along the axis, and reads nothing the rows read (or exactly the elements it
// writes: rows are read whole before they are written). An expression of the result's shape that
// uses one row function (once or more) and no other described result runs in the row kernel's
// store when the rows stay on chip (row_kernel.cuh, staged_row_kernel.cuh); with rows in two passes,
// on host arrays, for logsumexp, or any other use, the rows are computed into an array first.
#pragma once

#include <memory>
#include <string>
#include <type_traits>

#include "../exec/epilogue.hpp"
#include "../exec/produced.hpp"
#include "../expr/zip.hpp"
#include "rows.hpp"

namespace xf::detail {

template <row_result What, class E, class W, class B>
struct produced_rows : produced_result<produced_rows<What, E, W, B>> {
  // The expression protocol (expr/traits.hpp): the result's type, rank and space.
  using value_type = value_t<E>;
  using space = resolved_space_t<space_t<E>>;
  static constexpr int rank = rank_v<E>;
  using result_type = array<value_type, rank, space>;

  E expr;    // arrays are shared handles: the description keeps its inputs alive
  int axis;  // checked
  double eps;
  W weight;
  B bias;
  const char* name;
  std::shared_ptr<produced_state<result_type>> state = std::make_shared<produced_state<result_type>>();

  dims<rank> shape() const {
    auto s = expr.shape();
    if constexpr (What == row_result::logsumexp) s[axis] = 1;
    return s;
  }
  // The rows into a fresh array (produced_result::eval).
  void compute(result_type& r) const {
    if (r.size() > 0) run_rows<What>(expr, axis, r, name, eps, weight, bias);
  }

  // The producer protocol (exec/producer.hpp): e is this description or an expression using it.
  template <class T, int R, class S, class Consumer>
  bool xf_feed(const array<T, R, S>& dst, const Consumer& e, const char* op) const {
    if (state->value || dst.size() == 0 || dst.shape() != shape()) return false;
    if constexpr (std::is_same_v<S, device>)
      if (dst.device_id() != device::current_id()) return false;
    if (shape()[axis] > 1 && dst.strides()[axis] < 0) return false;
    bool done = false;
    if constexpr (std::is_same_v<Consumer, produced_rows>) done = e.state == state && straight_into(dst);
    else done = into_consumer(dst, e, op);
    if (done) state->consumed = true;
    return done;
  }

 private:
  // Whether dst shares memory with the weight or bias.
  template <class T, int R, class S>
  bool overlaps_operands(const array<T, R, S>& dst) const {
    const byte_range written = range_of<R>(dst.data(), sizeof(T), dst.shape(), dst.strides().data(), 0);
    bool any = false;
    if constexpr (!std::is_same_v<W, no_operand>) any = any || reads_any_of(written, weight);
    if constexpr (!std::is_same_v<B, no_operand>) any = any || reads_any_of(written, bias);
    return any;
  }

  template <class T, int R, class S>
  bool straight_into(const array<T, R, S>& dst) const {
    if constexpr (!std::is_same_v<T, value_type> || !std::is_same_v<S, space> || R != rank) {
      return false;
    } else {
      if (overlaps_operands(dst)) return false;
      if constexpr (What == row_result::logsumexp) {
        if (reads_any_of(range_of<R>(dst.data(), sizeof(T), dst.shape(), dst.strides().data(), 0), expr)) return false;
      } else {
        if (reads_written_memory(dst.data(), dst.shape(), dst.strides(), expr)) return false;
      }
      return run_rows<What>(expr, axis, dst, name, eps, weight, bias);
    }
  }

  // e (an expression of the result's shape that uses this description) in the rows' store.
  template <class T, int R, class S, class Consumer>
  bool into_consumer(const array<T, R, S>& dst, const Consumer& e, const char* op) const {
    if constexpr (!std::is_same_v<S, device> || !cuda_tu || R != rank || rank_v<Consumer> != rank ||
                  What == row_result::logsumexp || holds_pending_reduction<Consumer> || holds_pending_scan<Consumer>) {
      return false;
    } else {
#if XF_CUDA_TU
      if (e.shape() != dst.shape() || !one_producer(e) || overlaps_operands(dst)) return false;
      const in_kernel_mark mark(*state, dst.device_id());
      const zipped<void, Consumer, E> all(e, expr);
      if (reads_written_memory(dst.data(), dst.shape(), dst.strides(), all)) return false;
      return run_rows<What>(expr, axis, dst, op, eps, weight, bias, make_row_epilogue(e, dst.shape(), axis, dst.strides(), dst.device_id(), name));
#else
      return false;
#endif
    }
  }

};

// The description of What along `axis` of e, checked now, computed at the end of the caller's
// statement unless taken first.
template <row_result What, class E, class W = no_operand, class B = no_operand>
auto describe_rows(const statement_end& end, const E& e, int axis_in, const char* name, double eps = 0, const W& weight = {},
                   const B& bias = {}) {
  const int axis = check_rows_call<What>(e, axis_in, name, weight, bias);
  return end.bind(produced_rows<What, E, W, B>{{}, e, axis, eps, weight, bias, name});
}

}  // namespace xf::detail
