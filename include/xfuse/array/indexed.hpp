// SPDX-License-Identifier: Apache-2.0
// a(..., idx, ...): NumPy's integer-array indexing along one axis, with the other positions basic
// indices (integers, slices, xf::all, xf::newaxis). The result's axes are the basic view's with
// the indexed axis replaced by idx's, as in NumPy with one index array:
//
//   xf::array<float, 2> rows = x(idx);            // x[idx]: rows of x, shape idx.shape + (n,)
//   x(xf::all, idx) = 0;                          // x[:, idx] = 0: a scatter
//   x(idx) += 1;                                  // x[idx] += 1 (a repeated index adds once, as NumPy)
//
// Read, it is an expression whose value (one gather kernel, xf::take's) is computed the first
// time it is needed and then kept; its shape is known without it. Indices are checked as NumPy
// does (negative ones count from the end; an out-of-bounds one is an xf::index_error), which
// reads one number on the host. Written, the selected elements of `a` change in place; where an
// index repeats, one of its values is kept (on the device which one is unspecified; NumPy: the
// last). The work is in manip/index.hpp, which <xfuse/manip.hpp> and <xfuse/xfuse.hpp> include.
#pragma once

#include <string>
#include <utility>

#include "selection.hpp"

namespace xf::detail {

// Defined in manip/index.hpp.
template <class T, int R, class S, class I, int RI>
array<T, R - 1 + RI, S> gather_by_index(const array<T, R, S>& a, const array<I, RI, S>& idx, int axis, const char* op);
template <class T, int R, class S, class I, int RI, class V>
void scatter_by_index(const array<T, R, S>& a, const array<I, RI, S>& idx, int axis, const V& values, const char* op);

template <class T, int R, class S, class I, int RI>
class indexed : public selection_result<indexed<T, R, S, I, RI>, T, R - 1 + RI, S> {
 public:
  using base = selection_result<indexed<T, R, S, I, RI>, T, R - 1 + RI, S>;
  using base::eval;
  using typename base::result_type;
  static constexpr int rank = base::rank;

  indexed(array<T, R, S> a, array<I, RI, S> idx, int axis)
      : a_(std::move(a)), idx_(std::move(idx)), axis_(axis) {
    for (int d = 0; d < rank; ++d) {
      const bool taken = d >= axis_ && d < axis_ + RI;
      shape_[d] = taken ? idx_.shape()[d - axis_] : a_.shape()[d < axis_ ? d : d - RI + 1];
    }
  }

  // The gathered values (selection_result calls it once).
  result_type select() const { return gather_by_index(a_, idx_, axis_, "xf::array(index array)"); }
  const dims<rank>& shape() const noexcept { return shape_; }
  index_t shape(int axis) const {
    const int a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank)
      throw shape_error("xf::array(index array): axis " + std::to_string(axis) + " is out of bounds for rank " + std::to_string(rank));
    return shape_[static_cast<std::size_t>(a)];
  }
  index_t size() const noexcept { return product(shape_); }

  // Writing: the values broadcast to the selection's shape.
  template <class V>
    requires operand<V>
  const indexed& operator=(const V& values) && {
    scatter_by_index(a_, idx_, axis_, values, "xf::array(index array) =");
    return *this;
  }
  const indexed& operator=(const indexed& values) && {
    scatter_by_index(a_, idx_, axis_, values, "xf::array(index array) =");
    return *this;
  }
  indexed(const indexed&) = default;
  // `auto s = x(m); s = y(m);` would not write into x: assign through a fresh x(m) instead.
  indexed& operator=(const indexed&) & = delete;

  // a[idx] op= v: the gathered values, the operation, and a scatter (NumPy's buffered rule).
#define XF_INDEXED_COMPOUND(SYMBOL, BINARY)                                                      \
  template <class V>                                                                             \
    requires operand<V>                                                                          \
  const indexed& operator SYMBOL(const V& v) && {                                                \
    scatter_by_index(a_, idx_, axis_, result_type(eval() BINARY v), "xf::array(index array) " #SYMBOL); \
    return *this;                                                                                \
  }
  XF_INDEXED_COMPOUND(+=, +)
  XF_INDEXED_COMPOUND(-=, -)
  XF_INDEXED_COMPOUND(*=, *)
  XF_INDEXED_COMPOUND(/=, /)
#undef XF_INDEXED_COMPOUND

 private:

  array<T, R, S> a_;  // the basic view
  array<I, RI, S> idx_;
  int axis_;          // the view's axis that idx indexes
  dims<rank> shape_{};
};

}  // namespace xf::detail
