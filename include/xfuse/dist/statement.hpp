// SPDX-License-Identifier: Apache-2.0
// A statement over distributed arrays is a step of a Legate task (dist/sequence.hpp: one task of
// its own, or one of a sequence's): `z.assign(e)` makes z the output and every array of e
// (broadcast to z's shape) an input aligned with it, so Legate gives each task matching pieces
// (and copies the halos that shifted views need); the scalars and generator descriptors travel as
// bytes. Each piece then runs the ordinary xfuse statement: the fused kernel on the task's stream
// (GPU variant) or the host loop (CPU variant).
#pragma once

#include <string>

#include "expr.hpp"

namespace xf::dist {
namespace detail {

// The step `out = E` with out of type T and rank R: the ordinary xfuse statement on the pieces.
template <class E, class T, int R>
struct statement_step {
  template <class Space>
  static void run(const legate::TaskContext& ctx, const legate::Rect<R>& rect, const step_args& a) {
    auto out = local_piece<T, R, Space>(ctx.output(a.target).data(), rect, true);
    piece_reader<R> in{ctx, a.bytes, rect, a.inputs};
    out.assign(rebuild<Space, R>(type_tag<E>{}, in));
  }
};

// A step's request: its operands (each seen with the statement's shape) and target.
template <class Step, int R>
step_request request_of(launch_operands&& operands, const dims<R>& shape, legate::LogicalStore target, std::string target_view) {
  step_request r{step_id<Step, R>(), R, std::vector<index_t>(shape.begin(), shape.end()), std::move(operands.stores),
                 std::move(operands.views), std::move(target), std::move(target_view)};
  r.bytes = std::move(operands.bytes);
  r.submit = &submit_group<R>;
  return r;
}

// NumPy's assignment rule: the right side broadcasts to the left side's shape.
template <std::size_t RE, std::size_t R>
void check_assignable(const std::array<index_t, RE>& rhs, const std::array<index_t, R>& lhs, const char* op) {
  bool fits = RE <= R;
  for (std::size_t i = 0; fits && i < RE; ++i) {
    const index_t e = rhs[RE - 1 - i];
    fits = e == 1 || e == lhs[R - 1 - i];
  }
  if (!fits) throw shape_error(std::string(op) + ": cannot broadcast " + to_string(rhs) + " to " + to_string(lhs));
}

template <class T, int R, class E>
void launch_statement(const array<T, R>& out, const E& e, const char* op) {
  check_assignable(shape_of(e, op), out.shape(), op);
  (void)probe<R>(e);
  launch_operands operands;
  collect(e, out.shape(), operands);
  // Pieces of a view that overlaps the output differently (a shifted slice of the same store)
  // would be read after other tasks wrote them: evaluate into a new array first, as NumPy reads
  // every right-side value before writing.
  for (std::size_t i = 0; i < operands.stores.size(); ++i) {
    if (operands.views[i] != out.view() && operands.stores[i].overlaps(out.store())) {
      auto fresh = empty<T>(out.shape());
      launch_statement(fresh, e, op);
      launch_statement(out, fresh, op);
      return;
    }
  }
  if (out.size() == 0) return;
  (void)runtime(op);
  recorder().add(request_of<statement_step<E, T, R>, R>(std::move(operands), out.shape(), out.store(), out.view()));
}

}  // namespace detail

template <class V, int R>
template <class E>
void array<V, R>::assign(const E& e) {
  if constexpr (term<E>) {
    detail::launch_statement(*this, e, "xf::dist::array::assign");
  } else {
    static_assert(std::is_arithmetic_v<E> || is_complex<E>, "xf::dist::array::assign: a distributed expression or a scalar");
    detail::ordered_runtime("xf::dist::array::assign")->issue_fill(legate::LogicalArray{*store_}, legate::Scalar{static_cast<V>(e)});
  }
}
template <class V, int R>
template <class E>
array<V, R>& array<V, R>::operator+=(const E& e) {
  assign(*this + e);
  return *this;
}
template <class V, int R>
template <class E>
array<V, R>& array<V, R>::operator-=(const E& e) {
  assign(*this - e);
  return *this;
}
template <class V, int R>
template <class E>
array<V, R>& array<V, R>::operator*=(const E& e) {
  assign(*this * e);
  return *this;
}
template <class V, int R>
template <class E>
array<V, R>& array<V, R>::operator/=(const E& e) {
  assign(*this / e);
  return *this;
}

// A new array holding the expression's values (z = e in NumPy): one task.
template <term E>
auto eval(const E& e) {
  using V = detail::result_value_t<E>;
  auto out = empty<V>(detail::shape_of(e, "xf::dist::eval"));
  out.assign(e);
  return out;
}

// np.arange(n) as a distributed array.
template <class T = std::int64_t>
array<T, 1> arange(index_t n) {
  return eval(generated(xf::arange<T>(n)));
}

}  // namespace xf::dist
