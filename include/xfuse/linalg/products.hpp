// SPDX-License-Identifier: Apache-2.0
// NumPy's other products: dot, vdot, inner, outer, trace, tensordot, kron and cross. Vector
// products are fused reductions (one pass over both operands, no temporary) in NumPy's result
// types; matrix products (tensordot too) go through xf::matmul; kron and cross are one fused kernel.
#pragma once

#include "../exec/assign_together.hpp"
#include "../manip/views.hpp"
#include "../reduce/reductions.hpp"
#include "matmul.hpp"

namespace xf {
namespace detail {

template <class V, int R, class Space>
void require_same_length(const char* op, const array<V, R, Space>& a, index_t na, const auto& b, index_t nb) {
  if (na != nb)
    throw shape_error(std::string(op) + ": shapes " + to_string(a.shape()) + " and " + to_string(b.shape()) +
                      " do not align (" + std::to_string(na) + " != " + std::to_string(nb) + ")");
}

template <std::size_t N, class It>
std::array<index_t, N> dims_from(It first) {
  std::array<index_t, N> d{};
  for (std::size_t i = 0; i < N; ++i) d[i] = *first++;
  return d;
}

// The sum of products of two vectors in NumPy's result type, the operands' promoted type (np.dot
// does not widen as np.sum does): integers wrap as NumPy's do (the reducer's wrapping sum); bool
// is "any a and b"; 16-bit floats multiply and add in float and round once at the end.
template <class A, class B>
auto vector_dot(const A& a, const B& b, const char* name) {
  using P = value_t<decltype(a * b)>;
  if constexpr (is_bool<P>) {
    return any(a * b);
  } else if constexpr (is_integer<P>) {
    return reduce_all<false>(a * b, sum_reducer<P, P, P, false>{}, name);
  } else if constexpr (is_low_precision<P>) {
    return reduce_all<false>(a.template astype<float>() * b.template astype<float>(), sum_reducer<float, float, P, false>{}, name);
  } else {
    return sum(a * b);
  }
}

// tensordot over N paired axes: a as (free, summed), b as (summed, free), one matrix product.
template <int N, class TA, int RA, class TB, int RB, class S>
auto tensordot_axes(const array<TA, RA, S>& a, const array<TB, RB, S>& b, const int* axes_a, const int* axes_b) {
  constexpr const char* op = "xf::tensordot";
  dims<RA> perm_a{};
  dims<RB> perm_b{};
  bool summed_a[RA > 0 ? RA : 1] = {}, summed_b[RB > 0 ? RB : 1] = {};
  index_t k = 1;
  for (int i = 0; i < N; ++i) {
    const int x = normalize_axis_of(axes_a[i], a.shape(), op), y = normalize_axis_of(axes_b[i], b.shape(), op);
    if (summed_a[x] || summed_b[y]) throw shape_error(std::string(op) + ": an axis is summed twice");
    summed_a[x] = summed_b[y] = true;
    require_same_length(op, a, a.shape(x), b, b.shape(y));
    perm_a[RA - N + i] = x;
    perm_b[i] = y;
    k *= a.shape(x);
  }
  std::array<index_t, RA - N + RB - N> shape{};
  for (int d = 0, j = 0; d < RA; ++d)
    if (!summed_a[d]) perm_a[j] = d, shape[static_cast<std::size_t>(j++)] = a.shape(d);
  for (int d = 0, j = N; d < RB; ++d)
    if (!summed_b[d]) perm_b[j] = d, shape[static_cast<std::size_t>(RA - N + j++ - N)] = b.shape(d);
  const auto a2 = a.transpose(perm_a).reshape(std::array<index_t, 2>{k == 0 ? 0 : product(a.shape()) / k, k});
  const auto b2 = b.transpose(perm_b).reshape(std::array<index_t, 2>{k, k == 0 ? 0 : product(b.shape()) / k});
  if (k == 0) {  // nothing summed: zeros of the result's shape (reshape cannot infer from 0)
    using T = value_t<decltype(a2 * b2)>;
    return array<T, RA - N + RB - N, S>(zeros<T>(shape));
  }
  return eval(matmul(a2, b2)).reshape(shape);
}

// A cross product operand: the vectors' axis swapped with the first (a view), 2 or 3 long.
template <class T, int R, class S>
array<T, R, S> cross_operand(const array<T, R, S>& a, int axis, const char* op) {
  const int d = normalize_axis_of(axis, a.shape(), op);
  const auto v = a.swapaxes(0, d);
  if (v.shape(0) != 2 && v.shape(0) != 3)
    throw shape_error(std::string(op) + ": vectors along axis " + std::to_string(axis) + " of shape " + to_string(a.shape()) +
                      " have " + std::to_string(v.shape(0)) + " components (2 or 3 needed)");
  return v;
}

// The vectors with 3 components (a 2-vector gets z = 0), in the product's type.
template <class T, class S, class V, int R>
array<T, R, S> three_vectors(const array<V, R, S>& v) {
  if constexpr (std::is_same_v<T, V>)
    if (v.shape(0) == 3) return v;
  dims<R> shape = v.shape();
  shape[0] = 3;
  array<T, R, S> out(shape);
  out(slice(0, v.shape(0))).assign(v.template astype<T>());
  if (v.shape(0) == 2) out(2).assign(T(0));
  return out;
}

}  // namespace detail

// np.dot: the sum of products for two vectors; matmul when b has one or two dimensions; otherwise
// the sum over a's last axis and b's second-to-last (result a.shape[:-1] + b.shape[:-2] + b.shape[-1:]).
template <expression A, expression B>
auto dot(const A& a_in, const B& b_in) {
  constexpr int RA = rank_v<A>, RB = rank_v<B>;
  static_assert(RA >= 1 && RB >= 1, "xf::dot: operands must have at least one dimension (use * for scalars)");
  using S = detail::operands_space_t<A, B>;
  const auto a = detail::as_array<S>(a_in);
  const auto b = detail::as_array<S>(b_in);
  if constexpr (RA == 1 && RB == 1) {
    detail::require_same_length("xf::dot", a, a.size(), b, b.size());
    return detail::vector_dot(a, b, "xf::dot");
  } else if constexpr (RB <= 2) {
    return eval(matmul(a, b));
  } else {
    const index_t k = a.shape(RA - 1);
    detail::require_same_length("xf::dot", a, k, b, b.shape(RB - 2));
    // b's contracted axis first, copied once: (k, everything else), then one matrix product.
    std::array<index_t, RB> perm{};
    perm[0] = RB - 2;
    for (int i = 0; i < RB - 2; ++i) perm[static_cast<std::size_t>(i) + 1] = i;
    perm[RB - 1] = RB - 1;
    const auto b2 = b.transpose(perm).copy().reshape(std::array<index_t, 2>{k, -1});
    const auto c = eval(matmul(a.reshape(std::array<index_t, 2>{-1, k}), b2));
    std::array<index_t, RA - 1 + RB - 1> shape{};
    for (int i = 0; i < RA - 1; ++i) shape[static_cast<std::size_t>(i)] = a.shape(i);
    for (int i = 0; i < RB - 2; ++i) shape[static_cast<std::size_t>(RA - 1 + i)] = b.shape(i);
    shape[RA + RB - 3] = b.shape(RB - 1);
    return c.reshape(shape);
  }
}

// np.vdot: the flattened operands' sum of conj(a) * b, in the type of np.dot.
template <expression A, expression B>
auto vdot(const A& a_in, const B& b_in) {
  using S = detail::operands_space_t<A, B>;
  const auto a = detail::as_array<S>(a_in).ravel();
  const auto b = detail::as_array<S>(b_in).ravel();
  detail::require_same_length("xf::vdot", a, a.size(), b, b.size());
  if constexpr (is_complex<value_t<A>>) return sum(conj(a) * b);
  else return detail::vector_dot(a, b, "xf::vdot");
}

// np.inner: the sum over both operands' last axes (result a.shape[:-1] + b.shape[:-1]).
template <expression A, expression B>
auto inner(const A& a_in, const B& b_in) {
  constexpr int RA = rank_v<A>, RB = rank_v<B>;
  static_assert(RA >= 1 && RB >= 1, "xf::inner: operands must have at least one dimension (use * for scalars)");
  if constexpr (RA == 1 && RB == 1) {
    return dot(a_in, b_in);
  } else {
    using S = detail::operands_space_t<A, B>;
    const auto a = detail::as_array<S>(a_in);
    const auto b = detail::as_array<S>(b_in);
    const index_t k = a.shape(RA - 1);
    detail::require_same_length("xf::inner", a, k, b, b.shape(RB - 1));
    const auto c = eval(matmul(a.reshape(std::array<index_t, 2>{-1, k}), b.reshape(std::array<index_t, 2>{-1, k}).T()));
    std::array<index_t, RA - 1 + RB - 1> shape{};
    for (int i = 0; i < RA - 1; ++i) shape[static_cast<std::size_t>(i)] = a.shape(i);
    for (int i = 0; i < RB - 1; ++i) shape[static_cast<std::size_t>(RA - 1 + i)] = b.shape(i);
    return c.reshape(shape);
  }
}

// np.outer: a lazy expression a.ravel()[:, None] * b.ravel()[None, :]. Assigning it runs one kernel;
// used inside a larger expression it fuses there.
template <expression A, expression B>
auto outer(const A& a, const B& b) {
  using S = detail::operands_space_t<A, B>;
  return detail::as_array<S>(a).ravel().reshape(std::array<index_t, 2>{-1, 1}) *
         detail::as_array<S>(b).ravel().reshape(std::array<index_t, 2>{1, -1});
}

// np.trace: the sum of the diagonal of axes 0 and 1 (with an offset), a 0-d array for a matrix.
template <expression A>
auto trace(const A& a_in, index_t offset = 0) {
  constexpr int R = rank_v<A>;
  static_assert(R >= 2, "xf::trace: needs at least two dimensions");
  const auto d = detail::as_array(a_in).diagonal(offset);
  if constexpr (R == 2) return sum(d);
  else return sum(d, R - 2);
}

// np.tensordot(a, b, axes=N): the sum over a's last N axes and b's first N (result a.shape[:-N] +
// b.shape[N:]); N = 0 is the outer product. The operands are laid out as matrices (a copy when
// the strides do not allow a view) and multiplied once.
template <int N = 2, expression A, expression B>
auto tensordot(const A& a_in, const B& b_in) {
  constexpr int RA = rank_v<A>, RB = rank_v<B>;
  static_assert(N >= 0 && N <= RA && N <= RB, "xf::tensordot: N is more than an operand's rank");
  int axes_a[N > 0 ? N : 1], axes_b[N > 0 ? N : 1];
  for (int i = 0; i < N; ++i) axes_a[i] = RA - N + i, axes_b[i] = i;
  using S = detail::operands_space_t<A, B>;
  return detail::tensordot_axes<N>(detail::as_array<S>(a_in), detail::as_array<S>(b_in), axes_a, axes_b);
}
// np.tensordot(a, b, axes=(axes_a, axes_b)): the sum over axes_a of a paired with axes_b of b
// (result: a's other axes, then b's, in order).
template <std::size_t N, expression A, expression B>
auto tensordot(const A& a_in, const B& b_in, const int (&axes_a)[N], const int (&axes_b)[N]) {
  static_assert(static_cast<int>(N) <= rank_v<A> && static_cast<int>(N) <= rank_v<B>, "xf::tensordot: more summed axes than an operand has");
  using S = detail::operands_space_t<A, B>;
  return detail::tensordot_axes<static_cast<int>(N)>(detail::as_array<S>(a_in), detail::as_array<S>(b_in), axes_a, axes_b);
}

// np.kron(a, b): the Kronecker product (the operands padded with leading axes of extent 1 to one
// rank; result extents a.shape[d] * b.shape[d]). One fused kernel: a viewed with an axis of
// extent 1 after each of its axes, b with one before each, multiplied into the result viewed with
// both.
template <expression A, expression B>
auto kron(const A& a_in, const B& b_in) {
  constexpr int RA = rank_v<A>, RB = rank_v<B>, R = RA > RB ? RA : RB;
  using S = detail::operands_space_t<A, B>;
  const auto a = detail::as_array<S>(a_in);
  const auto b = detail::as_array<S>(b_in);
  using T = value_t<decltype(a * b)>;
  dims<2 * R> a_spread{}, b_spread{}, both{};
  dims<R> shape{};
  for (int d = 0; d < R; ++d) {
    const index_t x = d < R - RA ? 1 : a.shape(d - (R - RA)), y = d < R - RB ? 1 : b.shape(d - (R - RB));
    a_spread[2 * d] = x, a_spread[2 * d + 1] = 1;
    b_spread[2 * d] = 1, b_spread[2 * d + 1] = y;
    both[2 * d] = x, both[2 * d + 1] = y;
    shape[d] = detail::extent_product(x, y, "xf::kron");
  }
  const array<T, 2 * R, S> out(both);
  out.assign(a.reshape(a_spread) * b.reshape(b_spread));
  return out.reshape(shape);
}

// np.cross(a, b, axis=-1): cross products of 3-vectors along `axis` (a 2-vector is one with z = 0,
// as NumPy's), the other axes broadcast; the result has 3-vectors along `axis`. One kernel writes
// the three components. Two 2-vectors (NumPy 2: deprecated, a scalar per pair) are an
// xf::shape_error: write a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0].
template <expression A, expression B>
auto cross(const A& a_in, const B& b_in, int axis = -1) {
  constexpr int R = rank_v<A>;
  static_assert(R >= 1 && rank_v<B> == R, "xf::cross: the operands have one rank, at least 1 (reshape the other first)");
  constexpr const char* op = "xf::cross";
  using S = detail::operands_space_t<A, B>;
  const auto a = detail::cross_operand(detail::as_array<S>(a_in), axis, op);
  const auto b = detail::cross_operand(detail::as_array<S>(b_in), axis, op);
  if (a.shape(0) == 2 && b.shape(0) == 2)
    throw shape_error(std::string(op) + ": both operands hold 2-vectors (NumPy 2 deprecates their scalar cross product); "
                      "write a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]");
  using T = value_t<decltype(a * b)>;
  const auto pa = detail::three_vectors<T, S>(a), pb = detail::three_vectors<T, S>(b);
  dims<R> shape{};
  shape[0] = 3;
  for (int d = 1; d < R; ++d) {
    const index_t x = pa.shape(d), y = pb.shape(d);
    if (x != y && x != 1 && y != 1)
      throw shape_error(std::string(op) + ": shapes " + to_string(a_in.shape()) + " and " + to_string(b_in.shape()) + " do not broadcast");
    shape[d] = x == 1 ? y : x;
  }
  const array<T, R, S> out(shape);
  const auto ax = pa(0), ay = pa(1), az = pa(2), bx = pb(0), by = pb(1), bz = pb(2);
  assign(into(out(0)) = ay * bz - az * by, into(out(1)) = az * bx - ax * bz, into(out(2)) = ax * by - ay * bx);
  return out.swapaxes(0, detail::normalize_axis_of(axis, out.shape(), op)).copy();
}

}  // namespace xf
