// xf::linalg's decompositions (qr, eigh, eigvalsh, svd, svdvals), lstsq, pinv and norm, on host
// arrays (LAPACK) and device arrays (cuSOLVER), against identities checked on the host in
// complex<double> with plain loops: Q R = A with orthonormal Q and upper-triangular R,
// A V = V diag(w) with orthonormal V, U S Vh = A with orthonormal U and V, the normal equations
// A^H (b - A x) = 0, the Penrose conditions, and norms summed by loops. Random matrices, batched,
// tall and wide, transposed views, and bad inputs.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "solve_cases.hpp"

namespace xf_test {

// A dense complex<double> matrix on the host, row-major: the reference side.
struct cmat {
  std::size_t rows = 0, cols = 0;
  std::vector<cd> v;
  cmat(std::size_t r, std::size_t c) : rows(r), cols(c), v(r * c) {}
  cd& operator()(std::size_t i, std::size_t j) { return v[i * cols + j]; }
  cd operator()(std::size_t i, std::size_t j) const { return v[i * cols + j]; }
};

// Matrix `index` of a host copy of a stack of (rows, cols) matrices.
template <class T>
cmat matrix_of(const std::vector<T>& data, std::size_t index, std::size_t rows, std::size_t cols) {
  cmat m(rows, cols);
  for (std::size_t i = 0; i < rows * cols; ++i) m.v[i] = as_cd(data[index * rows * cols + i]);
  return m;
}

inline cmat mul(const cmat& a, const cmat& b) {
  cmat c(a.rows, b.cols);
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t p = 0; p < a.cols; ++p)
      for (std::size_t j = 0; j < b.cols; ++j) c(i, j) += a(i, p) * b(p, j);
  return c;
}

inline cmat adjoint(const cmat& a) {
  cmat t(a.cols, a.rows);
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t j = 0; j < a.cols; ++j) t(j, i) = std::conj(a(i, j));
  return t;
}

inline double max_abs(const cmat& a) {
  double m = 0;
  for (const cd& x : a.v) m = std::max(m, std::abs(x));
  return m;
}

inline double max_diff(const cmat& a, const cmat& b) {
  REQUIRE(a.rows == b.rows);
  REQUIRE(a.cols == b.cols);
  double m = 0;
  for (std::size_t i = 0; i < a.v.size(); ++i) m = std::max(m, std::abs(a.v[i] - b.v[i]));
  return m;
}

// |Q^H Q - I|: the columns of q are orthonormal.
inline double orthonormality_error(const cmat& q) {
  const cmat g = mul(adjoint(q), q);
  double m = 0;
  for (std::size_t i = 0; i < g.rows; ++i)
    for (std::size_t j = 0; j < g.cols; ++j) m = std::max(m, std::abs(g(i, j) - (i == j ? cd(1) : cd(0))));
  return m;
}

// Backward-stable factorizations reach a few units of roundoff times the dimension.
template <class T>
double decomp_tolerance(std::size_t n) {
  return (std::is_same_v<xf::real_t<T>, double> ? 2.2e-16 : 1.2e-7) * 20.0 * static_cast<double>(n);
}

// QR of a batch of tall matrices, a wide matrix and a transposed view, in every mode.
template <class Space, class T>
void qr_cases() {
  const auto check = [](const auto& av_host, std::size_t count, std::size_t m, std::size_t n, const auto& a, xf::linalg::qr_mode mode,
                        const char* what) {
    const std::size_t k = std::min(m, n);
    const std::size_t qn = mode == xf::linalg::qr_mode::complete ? m : k;
    const auto f = xf::linalg::qr(a, mode);
    REQUIRE(f.R.shape(f.R.ndim() - 2) == static_cast<xf::index_t>(qn));
    REQUIRE(f.R.shape(f.R.ndim() - 1) == static_cast<xf::index_t>(n));
    const auto r = xf::to_host(f.R);
    const double tol = decomp_tolerance<T>(std::max(m, n));
    for (std::size_t b = 0; b < count; ++b) {
      INFO(xf::dtype_name<T> << " qr (" << what << "), matrix " << b << " of " << count << ", " << m << " x " << n);
      const cmat rb = matrix_of(r, b, qn, n);
      for (std::size_t i = 0; i < qn; ++i)
        for (std::size_t j = 0; j < std::min(i, n); ++j) REQUIRE(rb(i, j) == cd(0));
      if (mode == xf::linalg::qr_mode::r) continue;
      REQUIRE(f.Q.shape(f.Q.ndim() - 1) == static_cast<xf::index_t>(qn));
      const cmat qb = matrix_of(xf::to_host(f.Q), b, m, qn);
      const cmat ab = matrix_of(av_host, b, m, n);
      REQUIRE(orthonormality_error(qb) <= tol);
      REQUIRE(max_diff(mul(qb, rb), ab) <= tol * max_abs(ab));
    }
  };
  using M = xf::linalg::qr_mode;
  {  // a batch of 3 tall 11 x 7 matrices
    const auto av = uniform<T>(3 * 11 * 7, -1, 1);
    const auto a = xf::asarray<T, Space>(av, {3, 11, 7});
    check(av, 3, 11, 7, a, M::reduced, "reduced");
    check(av, 3, 11, 7, a, M::complete, "complete");
    check(av, 3, 11, 7, a, M::r, "r");
  }
  {  // wide 6 x 9, and the transposed view of a 9 x 6 matrix
    const auto av = uniform<T>(6 * 9, -1, 1);
    const auto a = xf::asarray<T, Space>(av, {6, 9});
    check(av, 1, 6, 9, a, M::reduced, "wide reduced");
    check(av, 1, 6, 9, a, M::complete, "wide complete");
    std::vector<T> t(av.size());
    for (std::size_t i = 0; i < 6; ++i)
      for (std::size_t j = 0; j < 9; ++j) t[j * 6 + i] = av[i * 9 + j];
    const auto at = xf::asarray<T, Space>(t, {9, 6});
    check(av, 1, 6, 9, at.T(), M::reduced, "transposed view");
  }
  {  // empty: a 4 x 0 matrix has Q = I in complete mode
    const auto e = xf::asarray<T, Space>(std::vector<T>{}, {4, 0});
    const auto f = xf::linalg::qr(e, M::complete);
    REQUIRE(f.R.shape() == xf::dims<2>{4, 0});
    const auto q = xf::to_host(f.Q);
    REQUIRE(q.size() == 16);
    for (std::size_t i = 0; i < 4; ++i)
      for (std::size_t j = 0; j < 4; ++j) REQUIRE(as_cd(q[i * 4 + j]) == cd(i == j ? 1 : 0));
  }
}

// A batch of random Hermitian matrices (M + M^H) / 2.
template <class T>
std::vector<T> hermitian(std::size_t count, std::size_t n) {
  const auto mv = uniform<T>(count * n * n, -1, 1);
  std::vector<T> h(mv.size());
  for (std::size_t b = 0; b < count; ++b)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        const cd x = (as_cd(mv[(b * n + i) * n + j]) + std::conj(as_cd(mv[(b * n + j) * n + i]))) * 0.5;
        h[(b * n + i) * n + j] = from_cd<T>(i == j ? cd(x.real()) : x);
      }
  return h;
}

template <class Space, class T>
void eigh_cases() {
  using Re = xf::real_t<T>;
  for (const std::size_t count : {std::size_t{1}, std::size_t{4}}) {  // one matrix (syevd) and a batch (syevBatched)
    const std::size_t n = 13;
    const auto hv = hermitian<T>(count, n);
    const auto a = xf::asarray<T, Space>(hv, {static_cast<xf::index_t>(count), 13, 13});
    const auto f = xf::linalg::eigh(a);
    const auto w = xf::to_host(f.eigenvalues);
    const auto v = xf::to_host(f.eigenvectors);
    const auto w_only = xf::to_host(xf::linalg::eigvalsh(a));
    const double tol = decomp_tolerance<T>(n);
    for (std::size_t b = 0; b < count; ++b) {
      INFO(xf::dtype_name<T> << " eigh, matrix " << b << " of " << count);
      const cmat ab = matrix_of(hv, b, n, n), vb = matrix_of(v, b, n, n);
      REQUIRE(orthonormality_error(vb) <= tol);
      cmat vw = vb;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) vw(i, j) *= static_cast<double>(w[b * n + j]);
      REQUIRE(max_diff(mul(ab, vb), vw) <= tol * max_abs(ab) * 4);
      for (std::size_t j = 0; j + 1 < n; ++j) REQUIRE(w[b * n + j] <= w[b * n + j + 1]);
      for (std::size_t j = 0; j < n; ++j) REQUIRE(std::abs(static_cast<double>(w_only[b * n + j] - w[b * n + j])) <= tol * max_abs(ab) * 4);
    }
  }
  {  // uplo: only the named triangle is read; junk in the other one changes nothing
    const std::size_t n = 9;
    const auto hv = hermitian<T>(1, n);
    auto junk_lower = hv, junk_upper = hv;
    const auto noise = uniform<T>(n * n, 5, 9);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        if (i > j) junk_lower[i * n + j] = noise[i * n + j];
        if (i < j) junk_upper[i * n + j] = noise[i * n + j];
      }
    const auto want = xf::to_host(xf::linalg::eigvalsh(xf::asarray<T, Space>(hv, {9, 9})));
    const auto got_u = xf::to_host(xf::linalg::eigvalsh(xf::asarray<T, Space>(junk_lower, {9, 9}), 'U'));
    const auto got_l = xf::to_host(xf::linalg::eigvalsh(xf::asarray<T, Space>(junk_upper, {9, 9})));
    for (std::size_t j = 0; j < n; ++j) {
      REQUIRE(std::abs(static_cast<double>(got_u[j] - want[j])) <= decomp_tolerance<T>(n) * 8);
      REQUIRE(std::abs(static_cast<double>(got_l[j] - want[j])) <= decomp_tolerance<T>(n) * 8);
    }
    STATIC_REQUIRE(std::is_same_v<typename decltype(xf::linalg::eigvalsh(xf::asarray<T, Space>(hv, {9, 9})))::value_type, Re>);
  }
  const auto r = xf::asarray<T, Space>(uniform<T>(12, -1, 1), {3, 4});
  REQUIRE_THROWS_WITH(xf::linalg::eigh(r), XF_CONTAINS("xf::linalg::eigh") && XF_CONTAINS("square") && XF_CONTAINS("(3, 4)"));
  REQUIRE_THROWS_WITH(xf::linalg::eigvalsh(r(xf::all, xf::slice(0, 3)), 'X'), XF_CONTAINS("uplo"));
}

template <class Space, class T>
void svd_cases() {
  const auto check = [](const std::vector<T>& av, std::size_t count, std::size_t m, std::size_t n, const auto& a, bool full) {
    const std::size_t k = std::min(m, n);
    const auto f = xf::linalg::svd(a, full);
    const std::size_t uc = full ? m : k, vr = full ? n : k;
    REQUIRE(f.U.shape(f.U.ndim() - 1) == static_cast<xf::index_t>(uc));
    REQUIRE(f.Vh.shape(f.Vh.ndim() - 2) == static_cast<xf::index_t>(vr));
    const auto u = xf::to_host(f.U), vh = xf::to_host(f.Vh);
    const auto s = xf::to_host(f.S);
    const auto s_only = xf::to_host(xf::linalg::svdvals(a));
    const double tol = decomp_tolerance<T>(std::max(m, n));
    for (std::size_t b = 0; b < count; ++b) {
      INFO(xf::dtype_name<T> << " svd, matrix " << b << " of " << count << ", " << m << " x " << n << (full ? ", full" : ", reduced"));
      const cmat ub = matrix_of(u, b, m, uc), vb = matrix_of(vh, b, vr, n), ab = matrix_of(av, b, m, n);
      REQUIRE(orthonormality_error(ub) <= tol);
      REQUIRE(orthonormality_error(adjoint(vb)) <= tol);
      // U S Vh over the first k columns of U and rows of Vh.
      cmat usv(m, n);
      for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j)
          for (std::size_t p = 0; p < k; ++p) usv(i, j) += ub(i, p) * static_cast<double>(s[b * k + p]) * vb(p, j);
      REQUIRE(max_diff(usv, ab) <= tol * max_abs(ab) * 4);
      for (std::size_t p = 0; p < k; ++p) {
        REQUIRE(s[b * k + p] >= 0);
        if (p + 1 < k) REQUIRE(s[b * k + p] >= s[b * k + p + 1]);
        REQUIRE(std::abs(static_cast<double>(s_only[b * k + p] - s[b * k + p])) <= tol * static_cast<double>(s[b * k]) * 4);
      }
    }
  };
  {
    const auto av = uniform<T>(3 * 10 * 6, -1, 1);
    const auto a = xf::asarray<T, Space>(av, {3, 10, 6});
    check(av, 3, 10, 6, a, true);
    check(av, 3, 10, 6, a, false);
  }
  {
    const auto av = uniform<T>(2 * 5 * 8, -1, 1);
    const auto a = xf::asarray<T, Space>(av, {2, 5, 8});
    check(av, 2, 5, 8, a, true);
    check(av, 2, 5, 8, a, false);
    // A transposed view: the 8 x 5 transposes.
    std::vector<T> t(av.size());
    for (std::size_t b = 0; b < 2; ++b)
      for (std::size_t i = 0; i < 5; ++i)
        for (std::size_t j = 0; j < 8; ++j) t[b * 40 + j * 5 + i] = av[b * 40 + i * 8 + j];
    check(t, 2, 8, 5, a.swapaxes(1, 2), false);
  }
}

// lstsq: overdetermined full rank against the normal equations, rank-deficient, underdetermined.
template <class Space, class T>
void lstsq_cases() {
  using Re = xf::real_t<T>;
  const double tol = decomp_tolerance<T>(12) * 10;
  const auto normal_residual = [](const cmat& a, const cmat& x, const cmat& b) {  // |A^H (b - A x)| / (|A|^2 |x| + |A| |b|)
    cmat r = mul(a, x);
    for (std::size_t i = 0; i < r.v.size(); ++i) r.v[i] = b.v[i] - r.v[i];
    const double scale = max_abs(a) * (max_abs(a) * max_abs(x) + max_abs(b)) * static_cast<double>(a.rows);
    return max_abs(mul(adjoint(a), r)) / scale;
  };
  {  // 12 x 5, two right-hand sides: rank 5, residuals |b - A x|^2
    const auto av = uniform<T>(60, -1, 1), bv = uniform<T>(24, -1, 1);
    const auto res = xf::linalg::lstsq(xf::asarray<T, Space>(av, {12, 5}), xf::asarray<T, Space>(bv, {12, 2}));
    const cmat a = matrix_of(av, 0, 12, 5), b = matrix_of(bv, 0, 12, 2), x = matrix_of(xf::to_host(res.x), 0, 5, 2);
    REQUIRE(normal_residual(a, x, b) <= tol);
    REQUIRE(res.rank.item() == 5);
    const auto resid = xf::to_host(res.residuals);
    REQUIRE(resid.size() == 2);
    const cmat ax = mul(a, x);
    for (std::size_t j = 0; j < 2; ++j) {
      double want = 0;
      for (std::size_t i = 0; i < 12; ++i) want += std::norm(b(i, j) - ax(i, j));
      REQUIRE(std::abs(static_cast<double>(resid[j]) - want) <= tol * (want + 1));
    }
    REQUIRE(res.singular_values.size() == 5);
  }
  {  // rank 3: column 4 = column 0, column 3 = column 1; a 1-D right-hand side
    auto av = uniform<T>(40, -1, 1);
    for (std::size_t i = 0; i < 8; ++i) {
      av[i * 5 + 4] = av[i * 5 + 0];
      av[i * 5 + 3] = av[i * 5 + 1];
    }
    const auto bv = uniform<T>(8, -1, 1);
    const auto res = xf::linalg::lstsq(xf::asarray<T, Space>(av, {8, 5}), xf::asarray<T, Space>(bv, {8}));
    REQUIRE(res.rank.item() == 3);
    STATIC_REQUIRE(decltype(res.x)::ndim() == 1);
    STATIC_REQUIRE(std::is_same_v<typename decltype(res.residuals)::value_type, Re>);
    const auto x = xf::to_host(res.x);
    REQUIRE(x.size() == 5);
    const cmat a = matrix_of(av, 0, 8, 5), b = matrix_of(bv, 0, 8, 1), xm = matrix_of(x, 0, 5, 1);
    REQUIRE(normal_residual(a, xm, b) <= tol);
    // The minimum-norm solution splits equal columns' weight evenly.
    REQUIRE(std::abs(xm(4, 0) - xm(0, 0)) <= tol * 10 * (std::abs(xm(0, 0)) + 1));
    REQUIRE(std::abs(xm(3, 0) - xm(1, 0)) <= tol * 10 * (std::abs(xm(1, 0)) + 1));
  }
  {  // underdetermined 4 x 7: A x = b exactly, no residuals
    const auto av = uniform<T>(28, -1, 1), bv = uniform<T>(4, -1, 1);
    const auto res = xf::linalg::lstsq(xf::asarray<T, Space>(av, {4, 7}), xf::asarray<T, Space>(bv, {4}));
    const cmat ax = mul(matrix_of(av, 0, 4, 7), matrix_of(xf::to_host(res.x), 0, 7, 1));
    for (std::size_t i = 0; i < 4; ++i) REQUIRE(std::abs(ax(i, 0) - as_cd(bv[i])) <= tol * 10);
    REQUIRE(res.residuals.size() == 0);
    REQUIRE(res.rank.item() == 4);
  }
  REQUIRE_THROWS_WITH(xf::linalg::lstsq(xf::asarray<T, Space>(uniform<T>(12, -1, 1), {4, 3}), xf::asarray<T, Space>(uniform<T>(5, -1, 1), {5})),
                      XF_CONTAINS("xf::linalg::lstsq") && XF_CONTAINS("(4, 3)") && XF_CONTAINS("(5,)"));
}

// pinv: the four Penrose conditions on a batch of 3 x (7 x 4) matrices (rank 4) and a rank-2 wide one.
template <class Space, class T>
void pinv_cases() {
  const auto penrose = [](const cmat& a, const cmat& p, double tol) {
    const cmat ap = mul(a, p), pa = mul(p, a);
    REQUIRE(max_diff(mul(ap, a), a) <= tol * max_abs(a));
    REQUIRE(max_diff(mul(pa, p), p) <= tol * max_abs(p) * max_abs(a) * max_abs(p));
    REQUIRE(max_diff(ap, adjoint(ap)) <= tol * max_abs(a) * max_abs(p));
    REQUIRE(max_diff(pa, adjoint(pa)) <= tol * max_abs(a) * max_abs(p));
  };
  const double tol = decomp_tolerance<T>(7) * 40;
  {
    const auto av = uniform<T>(3 * 28, -1, 1);
    const auto p = xf::to_host(xf::linalg::pinv(xf::asarray<T, Space>(av, {3, 7, 4})));
    REQUIRE(p.size() == 3 * 28);
    for (std::size_t b = 0; b < 3; ++b) penrose(matrix_of(av, b, 7, 4), matrix_of(p, b, 4, 7), tol);
  }
  {  // rank 2: rows 2 and 3 repeat rows 0 and 1 (scaled by 2, exact)
    auto av = uniform<T>(4 * 6, -1, 1);
    for (std::size_t j = 0; j < 6; ++j) {
      av[2 * 6 + j] = from_cd<T>(as_cd(av[j]) * 2.0);
      av[3 * 6 + j] = from_cd<T>(as_cd(av[6 + j]) * 2.0);
    }
    const auto p = xf::to_host(xf::linalg::pinv(xf::asarray<T, Space>(av, {4, 6}), 1e-5));
    penrose(matrix_of(av, 0, 4, 6), matrix_of(p, 0, 6, 4), tol);
  }
}

template <class Space, class T>
void norm_cases() {
  using Re = xf::real_t<T>;
  const std::size_t b = 3, m = 5, n = 4;
  const auto xv = uniform<T>(b * m * n, -2, 2);
  const auto x = xf::asarray<T, Space>(xv, {3, 5, 4});
  const double tol = decomp_tolerance<T>(20) * 4;
  const auto at = [&](std::size_t i, std::size_t j, std::size_t k) { return std::abs(as_cd(xv[(i * m + j) * n + k])); };
  // All elements.
  {
    double s = 0;
    for (const T& v : xv) s += std::norm(as_cd(v));
    const Re got = xf::linalg::norm(x).item();
    REQUIRE(std::abs(static_cast<double>(got) - std::sqrt(s)) <= tol * std::sqrt(s));
  }
  // Vector norms along axis 1, every order.
  for (const double p : {2.0, 1.0, 3.0, 0.5, 0.0, xf::linalg::inf, -xf::linalg::inf}) {
    const auto got = xf::to_host(xf::linalg::norm(x, p, 1));
    const auto kept = xf::linalg::norm(x, p, -2, xf::keepdims);
    REQUIRE(kept.shape() == xf::dims<3>{3, 1, 4});
    REQUIRE(got.size() == b * n);
    for (std::size_t i = 0; i < b; ++i)
      for (std::size_t k = 0; k < n; ++k) {
        double want = 0;
        if (std::isinf(p)) {
          want = at(i, 0, k);
          for (std::size_t j = 1; j < m; ++j) want = p > 0 ? std::max(want, at(i, j, k)) : std::min(want, at(i, j, k));
        } else if (p == 0) {
          for (std::size_t j = 0; j < m; ++j) want += at(i, j, k) != 0;
        } else {
          for (std::size_t j = 0; j < m; ++j) want += std::pow(at(i, j, k), p);
          want = std::pow(want, 1 / p);
        }
        INFO(xf::dtype_name<T> << " vector norm, order " << p << " at (" << i << ", " << k << ")");
        REQUIRE(std::abs(static_cast<double>(got[i * n + k]) - want) <= tol * want);
      }
  }
  // Matrix norms over (1, 2) and (2, 1), against loops and the singular values of svd().
  const auto s = xf::to_host(xf::linalg::svd(x).S);  // (3, 4)
  for (const xf::linalg::norm_order ord : {xf::linalg::norm_order("fro"), xf::linalg::norm_order("nuc"), xf::linalg::norm_order(1),
                                           xf::linalg::norm_order(-1), xf::linalg::norm_order(2), xf::linalg::norm_order(-2),
                                           xf::linalg::norm_order(xf::linalg::inf), xf::linalg::norm_order(-xf::linalg::inf)}) {
    for (const bool swapped : {false, true}) {
      const auto got = swapped ? xf::to_host(xf::linalg::norm(x, ord, {2, 1})) : xf::to_host(xf::linalg::norm(x, ord, {1, 2}));
      REQUIRE(got.size() == b);
      for (std::size_t i = 0; i < b; ++i) {
        // Over (2, 1) the matrices are transposed: the 1 and inf norms trade places.
        double want = 0;
        const auto col_sums = [&](bool of_rows) {
          std::vector<double> sums(of_rows ? m : n, 0.0);
          for (std::size_t j = 0; j < m; ++j)
            for (std::size_t k = 0; k < n; ++k) sums[of_rows ? j : k] += at(i, j, k);
          return sums;
        };
        if (ord.kind == xf::linalg::norm_order::frobenius) {
          for (std::size_t j = 0; j < m; ++j)
            for (std::size_t k = 0; k < n; ++k) want += at(i, j, k) * at(i, j, k);
          want = std::sqrt(want);
        } else if (ord.kind == xf::linalg::norm_order::nuclear) {
          for (std::size_t k = 0; k < n; ++k) want += static_cast<double>(s[i * n + k]);
        } else if (std::abs(ord.p) == 2) {
          want = static_cast<double>(ord.p > 0 ? s[i * n] : s[i * n + n - 1]);
        } else {
          const bool rows = std::isinf(ord.p) != swapped;
          const auto sums = col_sums(rows);
          want = ord.p > 0 ? *std::max_element(sums.begin(), sums.end()) : *std::min_element(sums.begin(), sums.end());
        }
        INFO(xf::dtype_name<T> << " matrix norm " << ord.name() << (swapped ? " over (2, 1)" : " over (1, 2)") << ", matrix " << i);
        REQUIRE(std::abs(static_cast<double>(got[i]) - want) <= tol * want);
      }
    }
  }
  REQUIRE(xf::linalg::norm(x, "fro", {1, 2}, xf::keepdims).shape() == xf::dims<3>{3, 1, 1});
  REQUIRE(xf::linalg::norm(x(0), "nuc").ndim() == 0);
  REQUIRE_THROWS_WITH(xf::linalg::norm(x, "max", {1, 2}), XF_CONTAINS("xf::linalg::norm") && XF_CONTAINS("max"));
  REQUIRE_THROWS_WITH(xf::linalg::norm(x, 3, {1, 2}), XF_CONTAINS("not a matrix norm"));
  REQUIRE_THROWS_WITH(xf::linalg::norm(x, "fro", 1), XF_CONTAINS("two axes"));
  REQUIRE_THROWS_AS(xf::linalg::norm(x, 2, 3), xf::shape_error);
  REQUIRE_THROWS_AS(xf::linalg::norm(x, 2, {1, -2}), xf::shape_error);
}

}  // namespace xf_test
