// SPDX-License-Identifier: Apache-2.0
// Differences along an axis, NumPy's rules and result types: diff (n-th differences, with
// prepend/append), gradient (central differences inside, one-sided differences of first or second
// order at the edges) and trapezoid (the trapezoidal rule). Each reads views of its input shifted
// along the axis: one fused kernel per order of diff, one kernel per axis of gradient (edges and
// interior in the same launch), one fused reduction for trapezoid; no temporary beyond an
// expression argument evaluated once.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "../exec/as_array.hpp"
#include "../reduce/reductions.hpp"
#include "../user/map.hpp"
#include "views.hpp"

namespace xf {

// NumPy's gradient(..., edge_order=): one-sided differences of first (1) or second (2) order at
// the ends of each axis.
struct edge_order {
  int value = 1;
  constexpr edge_order() = default;
  constexpr explicit edge_order(int v) : value(v) {}
};

namespace detail {

// ---------------------------------------------------------------- diff
// The element type that prepend or append brings (a C++ scalar: its own type, as NumPy's 0-d
// array of it; nothing: void).
template <class P>
struct end_type {
  using type = void;
};
template <class P>
  requires std::is_arithmetic_v<P>
struct end_type<P> {
  using type = P;
};
template <expression P>
struct end_type<P> {
  using type = value_t<P>;
};
template <class T, class E>
struct join_type {
  using type = promote_t<T, E>;
};
template <class T>
struct join_type<T, void> {
  using type = T;
};
template <class T, class P>
using diff_joined_t = typename join_type<T, typename end_type<P>::type>::type;

// Extent that prepend/append adds along `axis`, after checking that it fits a's other extents.
template <class P, std::size_t N>
index_t end_extent(const P& end, const std::array<index_t, N>& shape, int axis, const char* which) {
  constexpr int R = static_cast<int>(N);
  if constexpr (std::is_same_v<P, std::nullopt_t>) {
    return 0;
  } else if constexpr (std::is_arithmetic_v<P>) {
    return 1;  // NumPy broadcasts a scalar to a's shape with extent 1 along the axis
  } else {
    static_assert(rank_v<P> == R, "xf::diff: prepend/append must be a scalar or have a's number of dimensions");
    for (int d = 0; d < R; ++d)
      if (d != axis && end.shape()[d] != shape[d])
        throw shape_error(std::string("xf::diff: ") + which + " of shape " + to_string(end.shape()) + " does not fit a of shape " +
                          to_string(shape) + " off axis " + std::to_string(axis));
    return end.shape()[axis];
  }
}

// NumPy's concatenate((prepend, a, append), axis): one allocation, one assignment per piece.
template <class Out, class T, int R, class S, class P, class Q>
array<Out, R, S> join_ends(const array<T, R, S>& a, int axis, const P& prepend, const Q& append) {
  constexpr const char* op = "xf::diff";
  const index_t before = end_extent(prepend, a.shape(), axis, "prepend"), after = end_extent(append, a.shape(), axis, "append");
  dims<R> shape = a.shape();
  const index_t n = shape[axis];
  shape[axis] = extent_sum(extent_sum(before, n, op), after, op);
  checked_size(shape, sizeof(Out), op);
  array<Out, R, S> out(shape);
  auto put = [&](const auto& piece, index_t start, index_t stop) {
    if constexpr (!std::is_same_v<std::remove_cvref_t<decltype(piece)>, std::nullopt_t>)
      if (stop > start) axis_slice(out, axis, start, stop).assign(piece);
  };
  put(prepend, 0, before);
  put(a, before, before + n);
  put(append, before + n, shape[axis]);
  return out;
}

// One order of differences along `axis`: a[1:] - a[:-1] (not_equal for bool, as NumPy), one kernel.
template <class T, int R, class S>
array<T, R, S> difference_once(const array<T, R, S>& a, int axis) {
  const index_t n = a.shape()[axis];
  const auto hi = axis_slice(a, axis, n > 0 ? 1 : 0, n), lo = axis_slice(a, axis, 0, n > 0 ? n - 1 : 0);
  if constexpr (is_bool<T>) return eval(hi != lo);
  else return eval(hi - lo);
}

// ---------------------------------------------------------------- gradient
// One element of NumPy's gradient along `axis` with uniform spacing, reading the source through its
// pointer: (f[i+1] - f[i-1]) / (2 dx) inside; at the ends (f[1] - f[0]) / dx and
// (f[n-1] - f[n-2]) / dx (edge order 1), or a f[0] + b f[1] + c f[2] and its mirror (edge order 2),
// with NumPy's coefficients rounded to the result type as NumPy's weak Python floats are.
template <class Out, class Src, int R>
struct gradient_along {
  using C = compute_t<Out>;
  const Src* data;
  index_t stride[R];
  int axis;
  index_t n;
  int order;
  C two_dx, dx;
  C first[3], last[3];  // edge order 2: the coefficients of f[0], f[1], f[2] and of f[n-3], f[n-2], f[n-1]

  XF_HD XF_FORCEINLINE C three_terms(const C (&k)[3], C f0, C f1, C f2) const {
    return math::rounded_product(k[0], f0) + math::rounded_product(k[1], f1) + math::rounded_product(k[2], f2);
  }
  template <class... I>
  XF_HD XF_FORCEINLINE Out operator()(const I&... c) const {
    const index_t at[R] = {static_cast<index_t>(c)...};
    index_t off = 0;
    for (int d = 0; d < R; ++d) off += at[d] * stride[d];
    const index_t i = at[axis], s = stride[axis];
    const Src* line = data + (off - i * s);
    auto f = [&](index_t k) { return convert<C>(line[k * s]); };
    C v;
    if (i > 0 && i < n - 1) v = (f(i + 1) - f(i - 1)) / two_dx;
    else if (order == 1) v = i == 0 ? (f(1) - f(0)) / dx : (f(n - 1) - f(n - 2)) / dx;
    else if (i == 0) v = three_terms(first, f(0), f(1), f(2));
    else v = three_terms(last, f(n - 3), f(n - 2), f(n - 1));
    return convert<Out>(v);
  }
};

// NumPy's gradient keeps floating and complex types and computes integers in float64.
template <class T>
using gradient_t = std::conditional_t<is_floating<T> || is_complex<T>, T, double>;

template <class T, int R, class S>
array<gradient_t<T>, R, S> gradient_of(const array<T, R, S>& f, double spacing, int axis, int order) {
  static_assert(!is_bool<T>, "xf::gradient: booleans have no subtraction (NumPy raises TypeError)");
  using Out = gradient_t<T>;
  using C = compute_t<Out>;
  constexpr const char* op = "xf::gradient";
  if (order != 1 && order != 2)
    throw error(std::string(op) + ": edge_order must be 1 or 2 (got " + std::to_string(order) + ")");
  const index_t n = f.shape()[axis];
  if (n < order + 1)
    throw shape_error(std::string(op) + ": axis " + std::to_string(axis) + " of shape " + to_string(f.shape()) +
                      " is too small for a numerical gradient: at least edge_order + 1 = " + std::to_string(order + 1) +
                      " elements are required");
  array<Out, R, S> out(f.shape());
  if (out.size() == 0) return out;
  require_access(f.device_id(), op);  // the source is read through its pointer, not as a leaf
  const auto c = [](double v) { return convert<C>(v); };
  gradient_along<Out, T, R> g{f.data(), {}, axis, n, order, c(2. * spacing), c(spacing),
                              {c(-1.5 / spacing), c(2. / spacing), c(-0.5 / spacing)},
                              {c(0.5 / spacing), c(-2. / spacing), c(1.5 / spacing)}};
  for (int d = 0; d < R; ++d) g.stride[d] = f.strides()[d];
  [&]<int... D>(std::integer_sequence<int, D...>) {
    evaluate_into(out, map(g, coordinate<R>(out.shape(), D)...), op);
  }(std::make_integer_sequence<int, R>{});
  return out;
}

template <class T, int R, class S>
auto gradient_all(const array<T, R, S>& f, const std::type_identity_t<std::array<double, R>>& spacing, int order) {
  if constexpr (R == 1) {
    return gradient_of(f, spacing[0], 0, order);
  } else {
    std::array<array<gradient_t<T>, R, S>, R> out;
    for (int d = 0; d < R; ++d) out[d] = gradient_of(f, spacing[d], d, order);
    return out;
  }
}

// ---------------------------------------------------------------- trapezoid
// The differences of sample points x along `axis` of y, shaped to broadcast against y's pieces.
template <class X, std::size_t N>
auto sample_spacing(const X& x, const std::array<index_t, N>& y_shape, int axis) {
  constexpr int RY = static_cast<int>(N);
  constexpr const char* op = "xf::trapezoid";
  const index_t n = y_shape[axis];
  if constexpr (X::rank == 1) {
    if (x.size() != n)
      throw shape_error(std::string(op) + ": 1-D x of shape " + to_string(x.shape()) + " does not match axis " +
                        std::to_string(axis) + " of y's shape " + to_string(y_shape));
    dims<RY> along{};
    along.fill(1);
    along[axis] = n > 0 ? n - 1 : 0;
    return x(slice(n > 0 ? 1 : 0, _)).reshape(along) - x(slice(0, n > 0 ? n - 1 : 0)).reshape(along);
  } else {
    static_assert(X::rank == RY, "xf::trapezoid: x must be 1-D or have y's number of dimensions");
    const index_t m = x.shape()[axis];
    for (int d = 0; d < RY; ++d) {
      const index_t xe = d == axis ? (m > 0 ? m - 1 : 0) : x.shape()[d], ye = d == axis ? (n > 0 ? n - 1 : 0) : y_shape[d];
      if (xe != ye && xe != 1 && ye != 1)
        throw shape_error(std::string(op) + ": x of shape " + to_string(x.shape()) + " does not broadcast against y of shape " +
                          to_string(y_shape) + " (axis " + std::to_string(axis) + ")");
    }
    return axis_slice(x, axis, m > 0 ? 1 : 0, m) - axis_slice(x, axis, 0, m > 0 ? m - 1 : 0);
  }
}

// NumPy's (d * (y[1:] + y[:-1]) / 2.0).sum(axis), in one reduction.
template <class T, int R, class S, class D>
auto trapezoid_sum(const array<T, R, S>& y, const D& d, int axis) {
  const index_t n = y.shape()[axis];
  const auto hi = axis_slice(y, axis, n > 0 ? 1 : 0, n), lo = axis_slice(y, axis, 0, n > 0 ? n - 1 : 0);
  return sum(d * (hi + lo) / 2.0, axis);
}

}  // namespace detail

// NumPy's diff(a, n, axis): the n-th differences a[1:] - a[:-1] along `axis` (not_equal for bool),
// repeated n times; the axis shrinks by n (to 0 when n exceeds it). n = 1 is one fused kernel over
// views of `a` (an expression is evaluated once first); each further order is one more kernel.
template <expression A>
auto diff(const A& a, int n = 1, int axis = -1) {
  static_assert(rank_v<A> >= 1, "xf::diff: diff requires input that is at least one dimensional");
  if (n < 0) throw error("xf::diff: order must be non-negative but got " + std::to_string(n));
  auto cur = detail::as_array(a);
  const int ax = detail::normalize_axis_of(axis, cur.shape(), "xf::diff");
  for (int k = 0; k < n && cur.shape()[ax] > 0; ++k) cur = detail::difference_once(cur, ax);  // an empty axis stays empty
  return cur;
}

// diff(a, n, axis, prepend, append): prepend and append (a scalar, an array with a's number of
// dimensions, or std::nullopt for none) are joined to `a` along the axis first, as NumPy's
// concatenate: the result has NumPy's promoted type of the three, and n = 0 returns `a` unjoined.
template <expression A, class P, class Q = std::nullopt_t>
  requires(std::is_arithmetic_v<P> || expression<P> || std::is_same_v<P, std::nullopt_t>) &&
          (std::is_arithmetic_v<Q> || expression<Q> || std::is_same_v<Q, std::nullopt_t>)
auto diff(const A& a, int n, int axis, const P& prepend, const Q& append = std::nullopt) {
  constexpr int R = rank_v<A>;
  static_assert(R >= 1, "xf::diff: diff requires input that is at least one dimensional");
  using Out = detail::diff_joined_t<detail::diff_joined_t<value_t<A>, P>, Q>;
  using S = detail::operands_space_t<A>;
  if (n < 0) throw error("xf::diff: order must be non-negative but got " + std::to_string(n));
  const auto x = detail::as_array<S>(a);
  const int ax = detail::normalize_axis_of(axis, x.shape(), "xf::diff");
  if (n == 0) return detail::as_array_of<Out, S>(x);
  const auto as_operand = [](const auto& end) -> decltype(auto) {
    using E = std::remove_cvref_t<decltype(end)>;
    if constexpr (expression<E>) return detail::as_array<S>(end);
    else return end;
  };
  array<Out, R, S> cur = detail::join_ends<Out>(x, ax, as_operand(prepend), as_operand(append));
  for (int k = 0; k < n && cur.shape()[ax] > 0; ++k) cur = detail::difference_once(cur, ax);
  return cur;
}

// NumPy's gradient(f, spacing, edge_order): the derivative along every axis, with central
// differences inside and one-sided ones at the ends; a 1-D f gives one array, others a std::array
// with one array per axis. One kernel per axis. Floating and complex types are kept, integers give
// float64; each axis needs at least edge_order + 1 elements (xf::shape_error).
template <expression F>
auto gradient(const F& f, double spacing = 1.0, edge_order order = edge_order()) {
  constexpr int R = rank_v<F>;
  static_assert(R >= 1, "xf::gradient: a 0-d array has no axis to differentiate along");
  std::array<double, R> each{};
  each.fill(spacing);
  return detail::gradient_all(detail::as_array(f), each, order.value);
}
template <expression F>
auto gradient(const F& f, edge_order order) {
  return gradient(f, 1.0, order);
}
// One spacing per axis: gradient(f, {dy, dx}).
template <expression F>
  requires(rank_v<F> > 1)
auto gradient(const F& f, const std::array<double, rank_v<F>>& spacing, edge_order order = edge_order()) {
  return detail::gradient_all(detail::as_array(f), spacing, order.value);
}
// Along one axis: gradient(f, dx, axis) is NumPy's gradient(f, dx, axis=axis), one array.
template <expression F>
auto gradient(const F& f, double spacing, int axis, edge_order order = edge_order()) {
  constexpr int R = rank_v<F>;
  static_assert(R >= 1, "xf::gradient: a 0-d array has no axis to differentiate along");
  const auto a = detail::as_array(f);
  return detail::gradient_of(a, spacing, detail::normalize_axis_of(axis, a.shape(), "xf::gradient"), order.value);
}

// NumPy's trapezoid(y, dx=dx, axis=axis): sum((y[1:] + y[:-1]) * dx / 2) along the axis, computed
// as NumPy writes it, (dx * (y[1:] + y[:-1]) / 2.0).sum(axis), so the types are NumPy's (float32
// stays float32, integers give float64). One fused reduction: a 0-d array for 1-D y.
template <expression Y>
auto trapezoid(const Y& y, double dx = 1.0, int axis = -1) {
  static_assert(rank_v<Y> >= 1, "xf::trapezoid: a 0-d array has no axis to integrate along");
  const auto a = detail::as_array(y);
  return detail::trapezoid_sum(a, dx, detail::normalize_axis_of(axis, a.shape(), "xf::trapezoid"));
}
// trapezoid(y, x, axis): sample points x, 1-D along the axis or of y's number of dimensions
// (broadcasting against y); the spacings x[1:] - x[:-1] are fused into the same reduction.
template <expression Y, expression X>
auto trapezoid(const Y& y, const X& x, int axis = -1) {
  static_assert(rank_v<Y> >= 1, "xf::trapezoid: a 0-d array has no axis to integrate along");
  using S = detail::operands_space_t<Y, X>;
  const auto a = detail::as_array<S>(y);
  const int ax = detail::normalize_axis_of(axis, a.shape(), "xf::trapezoid");
  return detail::trapezoid_sum(a, detail::sample_spacing(detail::as_array<S>(x), a.shape(), ax), ax);
}

}  // namespace xf
