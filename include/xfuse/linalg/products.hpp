// SPDX-License-Identifier: Apache-2.0
// NumPy's other products: dot, vdot, inner, outer and trace. Vector products are fused reductions
// (one pass over both operands, no temporary) in NumPy's result types; matrix products go through
// xf::matmul.
#pragma once

#include "../reduce.hpp"
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

}  // namespace detail

// np.dot: the sum of products for two vectors; matmul when b has one or two dimensions; otherwise
// the sum over a's last axis and b's second-to-last (result a.shape[:-1] + b.shape[:-2] + b.shape[-1:]).
template <expression A, expression B>
auto dot(const A& a_in, const B& b_in) {
  constexpr int RA = rank_v<A>, RB = rank_v<B>;
  static_assert(RA >= 1 && RB >= 1, "xf::dot: operands must have at least one dimension (use * for scalars)");
  const auto a = detail::as_array(a_in);
  const auto b = detail::as_array(b_in);
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
  const auto a = detail::as_array(a_in).ravel();
  const auto b = detail::as_array(b_in).ravel();
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
    const auto a = detail::as_array(a_in);
    const auto b = detail::as_array(b_in);
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
  return detail::as_array(a).ravel().reshape(std::array<index_t, 2>{-1, 1}) *
         detail::as_array(b).ravel().reshape(std::array<index_t, 2>{1, -1});
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

}  // namespace xf
