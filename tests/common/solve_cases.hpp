// xf::linalg's solvers on host arrays (LAPACK) and device arrays (cuSOLVER), against identities
// computed on the host in complex<double> with plain loops (A x = b, A inv(A) = I, L L^H = A) and a
// long-double Gaussian elimination for det, on random well-conditioned matrices (a random matrix
// plus n on the diagonal; M M^H + n I for Cholesky), batched and as transposed views; singular and
// indefinite matrices, whose errors name the batch index, and bad shapes.
#pragma once

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "linalg_cases.hpp"

namespace xf_test {

template <class T>
T from_cd(const cd& z) {
  if constexpr (xf::is_complex<T>) return T(static_cast<xf::real_t<T>>(z.real()), static_cast<xf::real_t<T>>(z.imag()));
  else return static_cast<T>(z.real());
}

// `count` diagonally dominant n x n matrices, C-ordered.
template <class T>
std::vector<T> well_conditioned(std::size_t count, std::size_t n) {
  auto v = uniform<T>(count * n * n, -1, 1);
  for (std::size_t b = 0; b < count; ++b)
    for (std::size_t i = 0; i < n; ++i) v[b * n * n + i * n + i] = from_cd<T>(as_cd(v[b * n * n + i * n + i]) + cd(static_cast<double>(n)));
  return v;
}

template <class T>
double solve_tolerance(std::size_t n) {
  return (std::is_same_v<xf::real_t<T>, double> ? 1e-13 : 2e-5) * static_cast<double>(n);
}

// det by Gaussian elimination with partial pivoting in complex<long double>.
template <class T>
std::complex<long double> ref_det(const std::vector<T>& a, std::size_t off, std::size_t n) {
  using cl = std::complex<long double>;
  std::vector<cl> m(n * n);
  for (std::size_t i = 0; i < n * n; ++i) m[i] = cl(as_cd(a[off + i]).real(), as_cd(a[off + i]).imag());
  cl det = 1;
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t p = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (std::abs(m[r * n + c]) > std::abs(m[p * n + c])) p = r;
    if (m[p * n + c] == cl(0)) return 0;
    if (p != c) {
      for (std::size_t j = 0; j < n; ++j) std::swap(m[p * n + j], m[c * n + j]);
      det = -det;
    }
    det *= m[c * n + c];
    for (std::size_t r = c + 1; r < n; ++r) {
      const cl f = m[r * n + c] / m[c * n + c];
      for (std::size_t j = c; j < n; ++j) m[r * n + j] -= f * m[c * n + j];
    }
  }
  return det;
}

template <class Space, class T>
void solvers() {
  const std::size_t n = 24, count = 3, k = 5;
  const auto av = well_conditioned<T>(count, n);
  const auto bv = uniform<T>(count * n * k, -1, 1);
  const auto a = xf::asarray<T, Space>(av, {3, 24, 24});
  const auto b = xf::asarray<T, Space>(bv, {3, 24, 5});
  const double tol = solve_tolerance<T>(n);
  // solve: A x = b for each matrix of the batch, residual against |A| |x| + |b|.
  {
    const auto x = xf::to_host(xf::linalg::solve(a, b));
    REQUIRE(x.size() == count * n * k);
    for (std::size_t q = 0; q < count; ++q)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < k; ++j) {
          cd r = -as_cd(bv[(q * n + i) * k + j]);
          double s = std::abs(as_cd(bv[(q * n + i) * k + j]));
          for (std::size_t p = 0; p < n; ++p) {
            const cd t = as_cd(av[(q * n + i) * n + p]) * as_cd(x[(q * n + p) * k + j]);
            r += t;
            s += std::abs(t);
          }
          INFO(xf::dtype_name<T> << " solve, matrix " << q << " row " << i << " column " << j);
          REQUIRE(std::abs(r) <= tol * s);
        }
  }
  // solve with one vector, and a transposed view of one matrix (A^T x = b).
  {
    const auto b1 = xf::asarray<T, Space>(std::vector<T>(bv.begin(), bv.begin() + 24), {24});
    const auto a0 = a(0);
    const auto x = xf::to_host(xf::linalg::solve(a0.T(), b1));
    for (std::size_t i = 0; i < n; ++i) {
      cd r = -as_cd(bv[i]);
      double s = std::abs(as_cd(bv[i]));
      for (std::size_t p = 0; p < n; ++p) {
        const cd t = as_cd(av[p * n + i]) * as_cd(x[p]);
        r += t;
        s += std::abs(t);
      }
      REQUIRE(std::abs(r) <= tol * s);
    }
  }
  // inv: A inv(A) = I.
  {
    const auto ai = xf::to_host(xf::linalg::inv(a));
    for (std::size_t q = 0; q < count; ++q)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
          cd r = i == j ? cd(-1) : cd(0);
          double s = 1;
          for (std::size_t p = 0; p < n; ++p) {
            const cd t = as_cd(av[(q * n + i) * n + p]) * as_cd(ai[(q * n + p) * n + j]);
            r += t;
            s += std::abs(t);
          }
          INFO(xf::dtype_name<T> << " inv, matrix " << q << " (" << i << ", " << j << ")");
          REQUIRE(std::abs(r) <= tol * s);
        }
  }
  // det and slogdet against the long-double elimination.
  {
    const auto d = xf::to_host(xf::linalg::det(a));
    const auto sl = xf::linalg::slogdet(a);
    const auto sign = xf::to_host(sl.sign);
    const auto logabs = xf::to_host(sl.logabsdet);
    REQUIRE(d.size() == count);
    for (std::size_t q = 0; q < count; ++q) {
      const auto want = ref_det(av, q * n * n, n);
      const cd w(static_cast<double>(want.real()), static_cast<double>(want.imag()));
      INFO(xf::dtype_name<T> << " det, matrix " << q << ": got " << as_cd(d[q]) << ", want " << w);
      REQUIRE(std::abs(as_cd(d[q]) - w) <= tol * std::abs(w));
      REQUIRE(std::abs(std::log(std::abs(w)) - static_cast<double>(logabs[q])) <= tol * 10);
      REQUIRE(std::abs(as_cd(sign[q]) - w / std::abs(w)) <= tol * 10);
    }
    const auto d0 = xf::linalg::det(a(1));
    STATIC_REQUIRE(decltype(d0)::ndim() == 0);
    REQUIRE(std::abs(as_cd(d0.item()) - as_cd(d[1])) <= tol * std::abs(as_cd(d[1])));
  }
  // cholesky of M M^H + n I: lower triangular, L L^H = A.
  {
    const auto mv = uniform<T>(count * n * n, -1, 1);
    std::vector<T> hv(count * n * n);
    for (std::size_t q = 0; q < count; ++q)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
          cd s = i == j ? cd(static_cast<double>(n)) : cd(0);
          for (std::size_t p = 0; p < n; ++p) s += as_cd(mv[(q * n + i) * n + p]) * std::conj(as_cd(mv[(q * n + j) * n + p]));
          hv[(q * n + i) * n + j] = from_cd<T>(s);
        }
    const auto l = xf::to_host(xf::linalg::cholesky(xf::asarray<T, Space>(hv, {3, 24, 24})));
    for (std::size_t q = 0; q < count; ++q)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
          if (j > i) {
            REQUIRE(as_cd(l[(q * n + i) * n + j]) == cd(0));
            continue;
          }
          cd r = -as_cd(hv[(q * n + i) * n + j]);
          double s = std::abs(r);
          for (std::size_t p = 0; p <= j; ++p) {
            const cd t = as_cd(l[(q * n + i) * n + p]) * std::conj(as_cd(l[(q * n + j) * n + p]));
            r += t;
            s += std::abs(t);
          }
          INFO(xf::dtype_name<T> << " cholesky, matrix " << q << " (" << i << ", " << j << ")");
          REQUIRE(std::abs(r) <= tol * s);
        }
  }
}

// Matrices above the device's small-matrix limit (cuBLAS batched LU up to 64): cuSOLVER's Xgetrf
// per matrix, with solve, det and a singular matrix in the batch.
template <class Space, class T>
void solvers_large() {
  const std::size_t n = 80, count = 2;
  auto av = well_conditioned<T>(count, n);
  const auto bv = uniform<T>(count * n, -1, 1);
  const auto a = xf::asarray<T, Space>(av, {2, 80, 80});
  const auto x = xf::to_host(xf::linalg::solve(a, xf::asarray<T, Space>(bv, {2, 80, 1})));
  const double tol = solve_tolerance<T>(n);
  for (std::size_t q = 0; q < count; ++q)
    for (std::size_t i = 0; i < n; ++i) {
      cd r = -as_cd(bv[q * n + i]);
      double sc = std::abs(as_cd(bv[q * n + i]));
      for (std::size_t p = 0; p < n; ++p) {
        const cd t = as_cd(av[(q * n + i) * n + p]) * as_cd(x[q * n + p]);
        r += t;
        sc += std::abs(t);
      }
      REQUIRE(std::abs(r) <= tol * sc);
    }
  // |det| ~ 80^80 overflows float: compare slogdet, whose sign comes from the pivots.
  const auto sl = xf::linalg::slogdet(a);
  const auto sign = xf::to_host(sl.sign);
  const auto logabs = xf::to_host(sl.logabsdet);
  for (std::size_t q = 0; q < count; ++q) {
    const auto want = ref_det(av, q * n * n, n);
    const std::complex<long double> unit = want / std::abs(want);
    REQUIRE(std::abs(static_cast<double>(logabs[q]) - static_cast<double>(std::log(std::abs(want)))) <= tol * 10);
    REQUIRE(std::abs(as_cd(sign[q]) - cd(static_cast<double>(unit.real()), static_cast<double>(unit.imag()))) <= tol * 10);
  }
  for (std::size_t i = 0; i < n; ++i) av[n * n + i * n + 7] = T(0);  // matrix 1 singular
  REQUIRE_THROWS_WITH(xf::to_host(xf::linalg::inv(xf::asarray<T, Space>(av, {2, 80, 80}))), XF_CONTAINS("matrix 1 of the batch"));
}

// cholesky reads a's lower triangle only (NumPy), from any layout: orders on both sides of the
// device copy's 32-wide tiles, garbage (1e30) above the diagonal, a C-ordered stack, a stack of
// transposed views (the matrix stored transposed) and every other matrix of a longer stack.
template <class Space, class T>
void cholesky_layouts() {
  for (const std::size_t n : {std::size_t{1}, std::size_t{31}, std::size_t{33}, std::size_t{70}}) {
    const std::size_t count = 2;
    const auto mv = uniform<T>(count * n * n, -1, 1);
    std::vector<T> spd(count * n * n), stored(count * n * n), stored_t(count * n * n), spaced(2 * count * n * n, T(7));
    for (std::size_t q = 0; q < count; ++q)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
          cd s = i == j ? cd(static_cast<double>(n)) : cd(0);
          for (std::size_t p = 0; p < n; ++p) s += as_cd(mv[(q * n + i) * n + p]) * std::conj(as_cd(mv[(q * n + j) * n + p]));
          const T v = from_cd<T>(j > i ? cd(1e30) : s);  // only the lower triangle is meaningful
          spd[(q * n + i) * n + j] = from_cd<T>(s);
          stored[(q * n + i) * n + j] = v;
          stored_t[(q * n + j) * n + i] = v;
          spaced[(2 * q * n + i) * n + j] = v;
        }
    const xf::index_t ni = static_cast<xf::index_t>(n), c = static_cast<xf::index_t>(count);
    const auto check = [&](const auto& l_in, const char* layout) {
      const auto l = xf::to_host(l_in);
      const double tol = solve_tolerance<T>(n);
      for (std::size_t q = 0; q < count; ++q)
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t j = 0; j <= i; ++j) {
            INFO(xf::dtype_name<T> << " cholesky of order " << n << ", " << layout << ", matrix " << q << " (" << i << ", " << j << ")");
            if (j < i) REQUIRE(as_cd(l[(q * n + j) * n + i]) == cd(0));  // above the diagonal: (j, i)
            cd r = -as_cd(spd[(q * n + i) * n + j]);
            double s = std::abs(r);
            for (std::size_t p = 0; p <= j; ++p) {
              const cd t = as_cd(l[(q * n + i) * n + p]) * std::conj(as_cd(l[(q * n + j) * n + p]));
              r += t;
              s += std::abs(t);
            }
            REQUIRE(std::abs(r) <= tol * s);
          }
    };
    check(xf::linalg::cholesky(xf::asarray<T, Space>(stored, {c, ni, ni})), "C order");
    check(xf::linalg::cholesky(xf::asarray<T, Space>(stored_t, {c, ni, ni}).swapaxes(1, 2)), "transposed view");
    check(xf::linalg::cholesky(xf::asarray<T, Space>(spaced, {2 * c, ni, ni})(xf::slice(xf::_, xf::_, 2))), "every other matrix");
  }
}

// Systems that need row exchanges at every step (well-conditioned matrices with their rows
// reversed), orders 1 to 64 (the device's one-launch solver covers up to 64) and 65 (cuSOLVER),
// one right-hand side vector shared by the batch and blocks of several: residuals and inverses.
template <class Space, class T>
void solvers_pivoting() {
  for (const std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{17}, std::size_t{64}, std::size_t{65}}) {
    const std::size_t count = 4, k = 3;
    auto av = well_conditioned<T>(count, n);
    for (std::size_t q = 0; q < count; ++q)
      for (std::size_t i = 0; i < n / 2; ++i)
        for (std::size_t j = 0; j < n; ++j) std::swap(av[(q * n + i) * n + j], av[(q * n + n - 1 - i) * n + j]);
    const auto bv = uniform<T>(count * n * k, -1, 1);
    const auto ni = static_cast<xf::index_t>(n);
    const auto a = xf::asarray<T, Space>(av, {4, ni, ni});
    const double tol = solve_tolerance<T>(n);
    // x (count, n, cols) against a x = rhs(q, i, j).
    const auto check = [&](const std::vector<T>& x, std::size_t cols, auto rhs, const char* what) {
      REQUIRE(x.size() == count * n * cols);
      for (std::size_t q = 0; q < count; ++q)
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t j = 0; j < cols; ++j) {
            const cd want = rhs(q, i, j);
            cd r = -want;
            double s = std::abs(want);
            for (std::size_t p = 0; p < n; ++p) {
              const cd t = as_cd(av[(q * n + i) * n + p]) * as_cd(x[(q * n + p) * cols + j]);
              r += t;
              s += std::abs(t);
            }
            INFO(xf::dtype_name<T> << " " << what << " n " << n << ", matrix " << q << " (" << i << ", " << j << ")");
            REQUIRE(std::abs(r) <= tol * s);
          }
    };
    check(xf::to_host(xf::linalg::solve(a, xf::asarray<T, Space>(bv, {4, ni, 3}))), k,
          [&](std::size_t q, std::size_t i, std::size_t j) { return as_cd(bv[(q * n + i) * k + j]); }, "solve (count, n, 3)");
    check(xf::to_host(xf::linalg::solve(a, xf::asarray<T, Space>(std::vector<T>(bv.begin(), bv.begin() + static_cast<std::ptrdiff_t>(n)), {ni}))), 1,
          [&](std::size_t, std::size_t i, std::size_t) { return as_cd(bv[i]); }, "solve with one shared vector");
    check(xf::to_host(xf::linalg::inv(a)), n, [](std::size_t, std::size_t i, std::size_t j) { return cd(i == j ? 1.0 : 0.0); }, "inv");
  }
}

// A singular matrix in the middle of a batch, an indefinite one, and shapes that do not fit.
template <class Space>
void solver_errors() {
  const std::size_t n = 6;
  auto av = well_conditioned<double>(3, n);
  // Matrix 1: column 3 zero. Equal rows are singular in exact arithmetic only; rounding in the
  // elimination can leave a 1e-17 pivot. A zero column stays exactly zero through LU.
  for (std::size_t i = 0; i < n; ++i) av[n * n + i * n + 3] = 0;
  const auto a = xf::asarray<double, Space>(av, {3, 6, 6});
  const auto singular = [&] {
    const auto x = xf::linalg::inv(a);  // device: no error yet, nothing waited for
    return xf::to_host(x);
  };
  REQUIRE_THROWS_WITH(singular(), XF_CONTAINS("xf::linalg::inv") && XF_CONTAINS("singular") && XF_CONTAINS("matrix 1 of the batch"));
  if constexpr (std::is_same_v<Space, xf::device>) {
    const auto x = xf::linalg::solve(a, xf::asarray<double, Space>(std::vector<double>(36, 1.0), {3, 6, 2}));
    REQUIRE_THROWS_AS(xf::linalg::check(x), xf::linalg_error);
    REQUIRE_THROWS_AS(x(0, 0, 0).item(), xf::linalg_error);  // a view of the result carries it too
  }
  // det of the singular matrix is 0, no error.
  const auto d = xf::to_host(xf::linalg::det(a));
  REQUIRE(d[1] == 0);
  REQUIRE(d[0] != 0);
  // Not positive definite: -I.
  const auto m = xf::asarray<double, Space>(std::vector<double>{-1, 0, 0, -1}, {2, 2});
  REQUIRE_THROWS_WITH(xf::to_host(xf::linalg::cholesky(m)), XF_CONTAINS("not positive definite") && XF_CONTAINS("matrix 0"));
  // Shapes: not square; right-hand side of the wrong length. The operands stay usable.
  const auto r = xf::asarray<double, Space>(std::vector<double>(12, 1.0), {3, 4});
  REQUIRE_THROWS_WITH(xf::linalg::inv(r), XF_CONTAINS("xf::linalg::inv") && XF_CONTAINS("square") && XF_CONTAINS("(3, 4)"));
  REQUIRE_THROWS_AS(xf::linalg::solve(a(0), xf::asarray<double, Space>(std::vector<double>(5, 1.0), {5})), xf::shape_error);
  REQUIRE(xf::to_host(a).size() == av.size());
}

}  // namespace xf_test
