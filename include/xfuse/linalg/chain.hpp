// SPDX-License-Identifier: Apache-2.0
// Products of several matrices: np.linalg.matrix_power (repeated squaring: about 2 log2(n)
// products) and np.linalg.multi_dot (the cheapest order of the products, chosen on the host from
// the shapes by the classic matrix-chain dynamic programme, then one GEMM per product).
#pragma once

#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "matmul.hpp"
#include "solve.hpp"

namespace xf::linalg {
namespace detail {
using namespace ::xf::detail;

// The product of matrices[first..last] in the order `split` chose (split[i][j]: the last matrix
// of the left factor).
template <class T, class S>
array<T, 2, S> chain_product(const std::vector<array<T, 2, S>>& matrices, const std::vector<std::vector<std::size_t>>& split,
                             std::size_t first, std::size_t last) {
  if (first == last) return matrices[first];
  const std::size_t cut = split[first][last];
  return eval(matmul(chain_product(matrices, split, first, cut), chain_product(matrices, split, cut + 1, last)));
}

}  // namespace detail

// np.linalg.matrix_power(a, n): the n-th power of a square matrix or of each in a stack; n = 0
// gives identities, n < 0 the power of inv(a) (xf::linalg_error for a singular matrix, at the next
// host read). Float and complex types (cuBLAS and BLAS multiply no integers).
template <expression A>
auto matrix_power(const A& a_in, long long n) {
  constexpr int R = rank_v<A>;
  using T = value_t<A>;
  using S = resolved_space_t<space_t<A>>;
  static_assert(R >= 2, "xf::linalg::matrix_power: needs a matrix or a stack of matrices");
  static_assert(is_floating<T> || is_complex<T>, "xf::linalg::matrix_power: float or complex matrices (cuBLAS multiplies no integers); .astype<double>() first");
  const auto a = ::xf::detail::as_array(a_in);
  detail::require_square(a, "xf::linalg::matrix_power");
  if (n == 0) {
    array<T, R, S> identities(a.shape());
    identities.assign(eye<T>(a.shape(R - 1)));
    return identities;
  }
  array<T, R, S> base = n < 0 ? array<T, R, S>(inv(a)) : array<T, R, S>(a);
  unsigned long long left = n < 0 ? 0ULL - static_cast<unsigned long long>(n) : static_cast<unsigned long long>(n);
  array<T, R, S> result;
  bool have = false;
  while (left > 0) {  // binary powering: the set bits of n pick squares of a
    if (left & 1ULL) {
      result = have ? array<T, R, S>(eval(matmul(result, base))) : base;
      have = true;
    }
    left >>= 1;
    if (left > 0) base = eval(matmul(base, base));
  }
  return result;
}

// np.linalg.multi_dot([a, b, c, ...]): the product of two or more matrices (one element type), in
// the order with the fewest multiply-adds.
template <class T, class S>
array<T, 2, S> multi_dot(const std::vector<array<T, 2, S>>& matrices) {
  constexpr const char* op = "xf::linalg::multi_dot";
  const std::size_t count = matrices.size();
  if (count < 2) throw error(std::string(op) + ": needs at least two matrices, got " + std::to_string(count));
  std::vector<index_t> dims{matrices[0].shape(0)};  // matrix i is dims[i] x dims[i + 1]
  for (std::size_t i = 0; i < count; ++i) {
    if (matrices[i].shape(0) != dims.back())
      throw shape_error(std::string(op) + ": matrix " + std::to_string(i) + " of shape " + to_string(matrices[i].shape()) +
                        " does not follow one with " + std::to_string(dims.back()) + " columns");
    dims.push_back(matrices[i].shape(1));
  }
  // cost[i][j]: the fewest multiply-adds for matrices i..j (as doubles: no overflow to worry about).
  std::vector<std::vector<double>> cost(count, std::vector<double>(count, 0));
  std::vector<std::vector<std::size_t>> split(count, std::vector<std::size_t>(count, 0));
  for (std::size_t length = 2; length <= count; ++length)
    for (std::size_t i = 0; i + length <= count; ++i) {
      const std::size_t j = i + length - 1;
      cost[i][j] = std::numeric_limits<double>::infinity();
      for (std::size_t k = i; k < j; ++k) {
        const double c = cost[i][k] + cost[k + 1][j] +
                         static_cast<double>(dims[i]) * static_cast<double>(dims[k + 1]) * static_cast<double>(dims[j + 1]);
        if (c < cost[i][j]) cost[i][j] = c, split[i][j] = k;
      }
    }
  return detail::chain_product(matrices, split, 0, count - 1);
}
template <class T, class S>
array<T, 2, S> multi_dot(std::initializer_list<array<T, 2, S>> matrices) {
  return multi_dot(std::vector<array<T, 2, S>>(matrices));
}

}  // namespace xf::linalg
