// SPDX-License-Identifier: Apache-2.0
// a(mask): NumPy's boolean-mask indexing. The mask is a bool array or expression whose shape is
// a's leading K extents (K = its rank); it picks elements (K = R) or sub-arrays (K < R) of `a`.
//
//   xf::array<float, 1> positive = x(x > 0);   // the selected elements, in C order
//   x(x < 0) = 0;                              // in place: one fused kernel
//   x(m) *= 2;                                 // x[m] *= 2
//   x(m) = y(m);                               // values in the order of the selected elements
//
// Read, it is an expression of shape (count,) + a.shape[K:] whose value is computed the first
// time it is needed (the count is data: on device arrays that reads one number on the host) and
// then kept, like a matrix product. Written, it changes the selected elements of `a` in place.
// The work is in manip/mask.hpp, which <xfuse/manip.hpp> and <xfuse/xfuse.hpp> include.
#pragma once

#include <string>
#include <utility>

#include "selection.hpp"

namespace xf::detail {

// Defined in manip/mask.hpp.
template <class T, int R, class S, class M>
array<T, R - rank_v<M> + 1, S> select_by_mask(const array<T, R, S>& a, const M& mask, const char* op);
// a[mask] = values: `values` broadcasts to the selection's shape (count,) + a.shape[K:].
template <class T, int R, class S, class M, class V>
void assign_by_mask(const array<T, R, S>& a, const M& mask, const V& values, const char* op);
// a[mask] = whole[mask]: `whole` broadcasts to a's shape (the compound assignments).
template <class T, int R, class S, class M, class V>
void assign_where_mask(const array<T, R, S>& a, const M& mask, const V& whole, const char* op);
template <class T, int R, class M>
void check_mask_shape(const dims<R>& shape, const M& mask, const char* op);

template <class T, int R, class S, class M>
class masked : public selection_result<masked<T, R, S, M>, T, R - rank_v<M> + 1, S> {
 public:
  using base = selection_result<masked<T, R, S, M>, T, R - rank_v<M> + 1, S>;
  using base::eval;
  using typename base::result_type;
  static constexpr int rank = base::rank;

  masked(array<T, R, S> a, M mask) : a_(std::move(a)), mask_(std::move(mask)) {
    check_mask_shape<T, R>(a_.shape(), mask_, "xf::array(mask)");
  }

  // The selected values (selection_result calls it once).
  result_type select() const { return select_by_mask(a_, mask_, "xf::array(mask)"); }
  const dims<rank>& shape() const { return eval().shape(); }
  index_t shape(int axis) const { return eval().shape(axis); }
  index_t size() const { return eval().size(); }

  // Writing: a[mask] = values, values broadcasting to the selection's shape (a scalar, a
  // sub-array of a.shape[K:], or one value per selected element in order).
  template <class V>
    requires operand<V>
  const masked& operator=(const V& values) && {
    assign_by_mask(a_, mask_, values, "xf::array(mask) =");
    return *this;
  }
  const masked& operator=(const masked& values) && {
    assign_by_mask(a_, mask_, values, "xf::array(mask) =");
    return *this;
  }
  masked(const masked&) = default;
  // `auto s = x(m); s = y(m);` would not write into x: assign through a fresh x(m) instead.
  masked& operator=(const masked&) & = delete;

  // a[mask] op= v: where v broadcasts against a without the count axis (a scalar, a sub-array),
  // one fused kernel over a; otherwise the selection, the operation, and an ordered write.
#define XF_MASKED_COMPOUND(SYMBOL, BINARY)                                                        \
  template <class V>                                                                              \
    requires operand<V>                                                                           \
  const masked& operator SYMBOL(const V& v) && {                                                  \
    if constexpr (broadcasts_over_selection<V>()) {                                               \
      assign_where_mask(a_, mask_, a_ BINARY v, "xf::array(mask) " #SYMBOL);                      \
    } else {                                                                                      \
      assign_by_mask(a_, mask_, result_type(eval() BINARY v), "xf::array(mask) " #SYMBOL);        \
    }                                                                                             \
    return *this;                                                                                 \
  }
  XF_MASKED_COMPOUND(+=, +)
  XF_MASKED_COMPOUND(-=, -)
  XF_MASKED_COMPOUND(*=, *)
  XF_MASKED_COMPOUND(/=, /)
#undef XF_MASKED_COMPOUND

 private:
  // A scalar, or an operand without the count axis: it broadcasts against `a` as it is.
  template <class V>
  static constexpr bool broadcasts_over_selection() {
    if constexpr (expression<V>) return rank_v<V> <= R - rank_v<M>;
    else return true;
  }

  array<T, R, S> a_;
  M mask_;
};

}  // namespace xf::detail
