// SPDX-License-Identifier: Apache-2.0
// xf::linalg::norm: NumPy's vector and matrix norms, over all elements, one axis (vector norms) or
// two (matrix norms). Vector norms and the 1, inf and Frobenius matrix norms are fused reductions
// of |x| (no temporary); the 2, -2 and nuclear matrix norms take the singular values (svd.hpp).
// Integer input is measured in double, as in NumPy. Results are real arrays, asynchronous.
#pragma once

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "../reduce/reductions.hpp"
#include "svd.hpp"

namespace xf::linalg {

// A norm's order: a number (2, 1, inf, -inf, 0, any p; NumPy's default is 2 for vectors and
// Frobenius for matrices) or "fro" / "nuc" for matrices.
struct norm_order {
  enum kind_t { number, frobenius, nuclear } kind = number;
  double p = 2;
  // Any number (a template, so that the literal 0 is a number, not a null `const char*`).
  template <class N>
    requires std::is_arithmetic_v<N>
  norm_order(N p_) : p(static_cast<double>(p_)) {}  // NOLINT: implicit, like NumPy's ord=2
  norm_order(const char* name) {    // NOLINT
    if (std::strcmp(name, "fro") == 0) kind = frobenius;
    else if (std::strcmp(name, "nuc") == 0) kind = nuclear;
    else throw error(std::string("xf::linalg::norm: the order \"") + name + "\" is not \"fro\", \"nuc\" or a number");
  }
  std::string name() const { return kind == frobenius ? "'fro'" : kind == nuclear ? "'nuc'" : std::to_string(p); }
};

inline constexpr double inf = std::numeric_limits<double>::infinity();

namespace detail {
using namespace ::xf::detail;

template <class T>
using norm_input_t = std::conditional_t<std::is_integral_v<T>, double, T>;

// |x| over `axes` (K of them) for the order p, keeping the reduced dimensions when Keep.
template <bool Keep, expression E, std::size_t K>
auto vector_norm(const E& x, double p, const int (&axes)[K]) {
  using T = norm_input_t<value_t<E>>;
  using Re = real_t<T>;
  const auto a = abs(x.template astype<T>());
  const auto reduce = [&](auto op) {
    if constexpr (Keep) return op(a, axes, keepdims);
    else return op(a, axes);
  };
  using Out = decltype(reduce([](const auto& e, const auto&... r) { return ::xf::sum(e, r...); }));
  if (p == inf) return Out(reduce([](const auto& e, const auto&... r) { return ::xf::max(e, r...); }));
  if (p == -inf) return Out(reduce([](const auto& e, const auto&... r) { return ::xf::min(e, r...); }));
  if (p == 1) return Out(reduce([](const auto& e, const auto&... r) { return ::xf::sum(e, r...); }));
  if (p == 0) {
    const auto nz = [&] {
      if constexpr (Keep) return count_nonzero(x, axes, keepdims);
      else return count_nonzero(x, axes);
    }();
    return Out(nz.template astype<Re>());
  }
  if (p == 2) {
    const auto s = [&] {
      if constexpr (Keep) return sum(square(a), axes, keepdims);
      else return sum(square(a), axes);
    }();
    return Out(sqrt(s));
  }
  const auto s = [&] {
    if constexpr (Keep) return sum(power(a, static_cast<Re>(p)), axes, keepdims);
    else return sum(power(a, static_cast<Re>(p)), axes);
  }();
  return Out(power(s, static_cast<Re>(1.0 / p)));
}

// A matrix norm over axes (r, c) of x (rank N), without keepdims (rank N - 2).
template <expression E>
auto matrix_norm(const E& x_in, const norm_order& ord, int r, int c) {
  using T = norm_input_t<value_t<E>>;
  using Re = real_t<T>;
  constexpr int N = rank_v<E>;
  using Space = resolved_space_t<space_t<E>>;
  using Out = array<Re, N - 2, Space>;
  if (ord.kind == norm_order::frobenius) {
    const int axes[2] = {r, c};
    return Out(vector_norm<false>(x_in, 2, axes));
  }
  const auto a = abs(x_in.template astype<T>());
  if (ord.kind == norm_order::number && std::abs(ord.p) == 1) {  // max/min column sum
    const auto s = sum(a, r);
    const int cc = c > r ? c - 1 : c;
    return ord.p > 0 ? Out(max(s, cc)) : Out(min(s, cc));
  }
  if (ord.kind == norm_order::number && std::isinf(ord.p)) {  // max/min row sum
    const auto s = sum(a, c);
    const int rr = r > c ? r - 1 : r;
    return ord.p > 0 ? Out(max(s, rr)) : Out(min(s, rr));
  }
  if (ord.kind == norm_order::nuclear || (ord.kind == norm_order::number && std::abs(ord.p) == 2)) {
    // Singular values of the matrices with (r, c) moved last.
    const array<T, N, Space> xa = ::xf::detail::as_array_of<T>(x_in);
    dims<N> perm{};
    int j = 0;
    for (int i = 0; i < N; ++i)
      if (i != r && i != c) perm[j++] = i;
    perm[N - 2] = r;
    perm[N - 1] = c;
    const auto s = svdvals(xa.transpose(perm));
    if (ord.kind == norm_order::nuclear) return Out(sum(s, N - 2));
    return ord.p > 0 ? Out(max(s, N - 2)) : Out(min(s, N - 2));
  }
  throw error("xf::linalg::norm: the order " + ord.name() + " is not a matrix norm (2, -2, 1, -1, inf, -inf, 'fro' or 'nuc')");
}

}  // namespace detail

// np.linalg.norm(x): the 2-norm of all elements (Frobenius for matrices), a 0-d array.
template <expression E>
auto norm(const E& x) {
  constexpr int N = rank_v<E>;
  static_assert(N >= 1, "xf::linalg::norm: needs rank >= 1");
  int axes[N];
  for (int i = 0; i < N; ++i) axes[i] = i;
  return detail::vector_norm<false>(x, 2, axes);
}

// np.linalg.norm(x, ord, axis): the vector norm along one axis.
template <expression E>
auto norm(const E& x, const norm_order& ord, int axis) {
  if (ord.kind != norm_order::number) throw error("xf::linalg::norm: the order " + ord.name() + " needs two axes (a matrix norm)");
  const int axes[1] = {detail::normalize_axis_of(axis, x.shape(), "xf::linalg::norm")};
  return detail::vector_norm<false>(x, ord.p, axes);
}
template <expression E>
auto norm(const E& x, const norm_order& ord, int axis, keepdims_t) {
  if (ord.kind != norm_order::number) throw error("xf::linalg::norm: the order " + ord.name() + " needs two axes (a matrix norm)");
  const int axes[1] = {detail::normalize_axis_of(axis, x.shape(), "xf::linalg::norm")};
  return detail::vector_norm<true>(x, ord.p, axes);
}

// np.linalg.norm(x, ord, axis=(r, c)): the matrix norm over two axes.
template <expression E>
auto norm(const E& x, const norm_order& ord, const int (&axes)[2]) {
  constexpr int N = rank_v<E>;
  static_assert(N >= 2, "xf::linalg::norm: a matrix norm needs rank >= 2");
  const int r = detail::normalize_axis_of(axes[0], x.shape(), "xf::linalg::norm"),
            c = detail::normalize_axis_of(axes[1], x.shape(), "xf::linalg::norm");
  if (r == c) throw shape_error("xf::linalg::norm: the two axes are the same (" + std::to_string(axes[0]) + ")");
  return detail::matrix_norm(x, ord, r, c);
}
template <expression E>
auto norm(const E& x, const norm_order& ord, const int (&axes)[2], keepdims_t) {
  constexpr int N = rank_v<E>;
  const auto v = norm(x, ord, axes);
  std::array<index_t, N> shape{};
  const int r = detail::normalize_axis_of(axes[0], x.shape(), "xf::linalg::norm"),
            c = detail::normalize_axis_of(axes[1], x.shape(), "xf::linalg::norm");
  for (int i = 0, j = 0; i < N; ++i) shape[i] = i == r || i == c ? 1 : v.shape(j++);
  return v.reshape(shape);
}

// np.linalg.norm(x, ord): a vector norm for 1-D x, a matrix norm for 2-D x.
template <expression E>
auto norm(const E& x, const norm_order& ord) {
  constexpr int N = rank_v<E>;
  static_assert(N == 1 || N == 2, "xf::linalg::norm: an order without axes needs a vector or a matrix; name the axes");
  if constexpr (N == 1) return norm(x, ord, 0);
  else return norm(x, ord, {0, 1});
}

}  // namespace xf::linalg
