// Products and matrix functions built on matmul and the SVD (kron, cross, tensordot,
// matrix_power, multi_dot, matrix_rank, cond, cholesky(upper), norm of order 0), shared by the
// host suite and the GPU suite: NumPy 2.4.6's printed answers and long-double loops on random data.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include <xfuse/complex.hpp>
#include <xfuse/linalg.hpp>
#include <xfuse/average.hpp>
#include <xfuse/manip.hpp>
#include <xfuse/signal.hpp>

#include "check.hpp"
#include "random.hpp"

namespace xf_test::products {

// got[i] within tol of want[i], relative to 1 + |want[i]|, or to 1 + scale[i] where given: the
// sum of the magnitudes of the terms that make a sum that may cancel.
inline void require_near(const std::vector<double>& got, const std::vector<long double>& want, double tol, const std::string& what,
                         const std::vector<long double>& scale = {}) {
  INFO(what);
  REQUIRE(got.size() == want.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const long double err = std::fabs(static_cast<long double>(got[i]) - want[i]);
    const long double size = scale.empty() ? std::fabs(want[i]) : scale[i];
    if (err > tol * (1 + size) && bad++ < 5) FAIL_CHECK("element " << i << ": " << got[i] << " vs " << static_cast<double>(want[i]));
  }
  CHECK(bad == 0);
}

inline std::vector<long double> magnitudes(const std::vector<double>& v) {
  std::vector<long double> m(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) m[i] = std::fabs(static_cast<long double>(v[i]));
  return m;
}

// Row-major m x k times k x n in long double.
inline std::vector<long double> product(const std::vector<long double>& a, const std::vector<long double>& b, std::size_t m, std::size_t k,
                                        std::size_t n) {
  std::vector<long double> c(m * n, 0);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t p = 0; p < k; ++p)
      for (std::size_t j = 0; j < n; ++j) c[i * n + j] += a[i * k + p] * b[p * n + j];
  return c;
}

inline std::vector<long double> widen(const std::vector<double>& v) { return {v.begin(), v.end()}; }

template <class Space>
void kron_cross_tensordot_match_numpy() {
  // np.kron([1, 10, 100], [5, 6, 7]) -> [5, 6, 7, 50, 60, 70, 500, 600, 700]
  CHECK(xf::to_host(xf::kron(xf::asarray<int, Space>({1, 10, 100}), xf::asarray<int, Space>({5, 6, 7}))) ==
        std::vector<int>{5, 6, 7, 50, 60, 70, 500, 600, 700});
  // np.kron(np.eye(2), np.ones((2, 2))) -> two blocks of ones on the diagonal
  const auto blocks = xf::kron(xf::array<double, 2, Space>(xf::eye<double>(2)), xf::array<double, 2, Space>(xf::ones<double>({2, 2})));
  CHECK(blocks.shape() == std::array<xf::index_t, 2>{4, 4});
  CHECK(xf::to_host(blocks) == std::vector<double>{1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1});
  // np.kron([[1, 2], [3, 4]], [1, 1]) -> [[1, 1, 2, 2], [3, 3, 4, 4]] (the lower rank padded)
  const auto wide = xf::kron(xf::asarray<int, Space>({1, 2, 3, 4}, {2, 2}), xf::asarray<int, Space>({1, 1}));
  CHECK(wide.shape() == std::array<xf::index_t, 2>{2, 4});
  CHECK(xf::to_host(wide) == std::vector<int>{1, 1, 2, 2, 3, 3, 4, 4});

  // np.cross([1, 2, 3], [4, 5, 6]) -> [-3, 6, -3]; np.cross([1, 2], [4, 5, 6]) -> [12, -6, -3]
  CHECK(xf::to_host(xf::cross(xf::asarray<int, Space>({1, 2, 3}), xf::asarray<int, Space>({4, 5, 6}))) == std::vector<int>{-3, 6, -3});
  CHECK(xf::to_host(xf::cross(xf::asarray<int, Space>({1, 2}), xf::asarray<int, Space>({4, 5, 6}))) == std::vector<int>{12, -6, -3});
  // x = [[1, 2, 3], [4, 5, 6]]; y = x[::-1]; np.cross(x, y) -> [[-3, 6, -3], [3, -6, 3]];
  // np.cross(x.T, y.T, axis=0) -> its transpose
  const auto x = xf::asarray<double, Space>({1, 2, 3, 4, 5, 6}, {2, 3});
  const auto y = x.flip(0);
  CHECK(xf::to_host(xf::cross(x, y)) == std::vector<double>{-3, 6, -3, 3, -6, 3});
  const auto columns = xf::cross(x.T(), y.T(), 0);
  CHECK(columns.shape() == std::array<xf::index_t, 2>{3, 2});
  CHECK(xf::to_host(columns) == std::vector<double>{-3, 3, 6, -6, -3, 3});
  // Broadcasting: one vector against many, checked against a loop.
  const std::size_t n = 1000;
  const auto hv = uniform<double>(3 * n, -1, 1);
  const auto many = xf::asarray<double, Space>(hv, {static_cast<xf::index_t>(n), 3});
  const auto one = xf::asarray<double, Space>({0.5, -2.0, 3.0}, {1, 3});
  std::vector<long double> want;
  for (std::size_t i = 0; i < n; ++i) {
    const long double a0 = hv[3 * i], a1 = hv[3 * i + 1], a2 = hv[3 * i + 2];
    want.insert(want.end(), {a1 * 3.0L - a2 * -2.0L, a2 * 0.5L - a0 * 3.0L, a0 * -2.0L - a1 * 0.5L});
  }
  require_near(xf::to_host(xf::cross(many, one)), want, 1e-15, "cross(many, one)");
  CHECK_THROWS_AS(xf::cross(xf::asarray<int, Space>({1, 2}), xf::asarray<int, Space>({3, 4})), xf::shape_error);
  CHECK_THROWS_AS(xf::cross(xf::asarray<int, Space>({1, 2, 3, 4}), xf::asarray<int, Space>({3, 4, 5, 6})), xf::shape_error);

  // a = np.arange(60.).reshape(3, 4, 5); b = np.arange(24.).reshape(4, 3, 2);
  // np.tensordot(a, b, axes=([1, 0], [0, 1])) -> [[4400, 4730], [4532, 4874], [4664, 5018], [4796, 5162], [4928, 5306]]
  const auto a = xf::array<double, 1, Space>(xf::arange<double>(60)).reshape({3, 4, 5});
  const auto b = xf::array<double, 1, Space>(xf::arange<double>(24)).reshape({4, 3, 2});
  const auto c = xf::tensordot(a, b, {1, 0}, {0, 1});
  CHECK(c.shape() == std::array<xf::index_t, 2>{5, 2});
  CHECK(xf::to_host(c) == std::vector<double>{4400, 4730, 4532, 4874, 4664, 5018, 4796, 5162, 4928, 5306});
  // tensordot<1> of matrices is their product; tensordot<0> the outer product; the default is 2.
  const auto hm = uniform<double>(7 * 5, -1, 1), hn = uniform<double>(5 * 3, -1, 1);
  const auto m = xf::asarray<double, Space>(hm, {7, 5}), k = xf::asarray<double, Space>(hn, {5, 3});
  require_near(xf::to_host(xf::tensordot<1>(m, k)), product(widen(hm), widen(hn), 7, 5, 3), 1e-14, "tensordot<1>",
               product(magnitudes(hm), magnitudes(hn), 7, 5, 3));
  CHECK(xf::tensordot<0>(m, k).shape() == std::array<xf::index_t, 4>{7, 5, 5, 3});
  // The default, N = 2: a's last two axes with b's first two, against a loop.
  const auto hb2 = uniform<double>(4 * 5 * 2, -1, 1);
  const auto b2 = xf::asarray<double, Space>(hb2, {4, 5, 2});
  std::vector<long double> want2(3 * 2, 0), terms2(3 * 2, 0);
  for (std::size_t r = 0; r < 3; ++r)
    for (std::size_t p = 0; p < 20; ++p)
      for (std::size_t q = 0; q < 2; ++q) {
        want2[r * 2 + q] += static_cast<long double>(r * 20 + p) * hb2[p * 2 + q];
        terms2[r * 2 + q] += std::fabs(static_cast<long double>(r * 20 + p) * hb2[p * 2 + q]);
      }
  const auto d2 = xf::tensordot(a, b2);
  CHECK(d2.shape() == std::array<xf::index_t, 2>{3, 2});
  require_near(xf::to_host(d2), want2, 1e-14, "tensordot(a, b)", terms2);  // sums of 20 terms up to 59: they cancel
  CHECK_THROWS_AS(xf::tensordot(a, b, {0}, {0}), xf::shape_error);  // extents 3 and 4
}

// Integer and bool matmul: NumPy 2.4.6's printed answers (overflow wraps), and random int32
// stacks with broadcast batches against a loop in uint64 (the wrap NumPy's int32 products have).
template <class Space>
void integer_matmul_matches_numpy() {
  std::vector<int> six(6), twelve(12);
  for (int i = 0; i < 12; ++i) {
    if (i < 6) six[static_cast<std::size_t>(i)] = i;
    twelve[static_cast<std::size_t>(i)] = i;
  }
  const auto a = xf::asarray<int, Space>(six, {2, 3});
  const auto b = xf::asarray<int, Space>(twelve, {3, 4});
  const auto ab = xf::matmul(a, b);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(ab)>, xf::array<int, 2, Space>>);
  CHECK(xf::to_host(ab) == std::vector<int>{20, 23, 26, 29, 56, 68, 80, 92});
  CHECK(xf::to_host(xf::dot(a, b)) == std::vector<int>{20, 23, 26, 29, 56, 68, 80, 92});
  // np.arange(3) @ b -> [20, 23, 26, 29]; b.T @ arange(3) -> the same; arange(3) @ arange(3) -> 5 (0-d).
  const auto v = xf::asarray<int, Space>({0, 1, 2});
  CHECK(xf::to_host(xf::matmul(v, b)) == std::vector<int>{20, 23, 26, 29});
  CHECK(xf::to_host(xf::matmul(b.T(), v)) == std::vector<int>{20, 23, 26, 29});
  const auto dot = xf::matmul(v, v);
  static_assert(std::remove_cvref_t<decltype(dot)>::rank == 0);
  CHECK(dot.item() == 5);
  // Wrapping: int32 46341 * 46341 -> -2147479015; uint8 [200, 100] @ [2, 3] -> 188; int64.
  CHECK(xf::matmul(xf::asarray<int, Space>({46341}, {1, 1}), xf::asarray<int, Space>({46341}, {1, 1})).item() == -2147479015);
  CHECK(xf::matmul(xf::asarray<std::uint8_t, Space>({200, 100}, {1, 2}), xf::asarray<std::uint8_t, Space>({2, 3}, {2, 1})).item() == 188);
  CHECK(xf::matmul(xf::asarray<std::int8_t, Space>({100, 100}, {1, 2}), xf::asarray<std::int8_t, Space>({2, 1}, {2, 1})).item() == 44);
  CHECK(xf::matmul(xf::asarray<std::int64_t, Space>({std::int64_t{1} << 62, 3}), xf::asarray<std::int64_t, Space>({5, 7})).item() ==
        4611686018427387925);
  // bool: np.array([[1, 1], [0, 1]], bool) @ [[0, 1], [1, 0]] -> [[1, 1], [1, 0]] (any of ands).
  const auto p = xf::matmul(xf::asarray<bool, Space>({true, true, false, true}, {2, 2}), xf::asarray<bool, Space>({false, true, true, false}, {2, 2}));
  static_assert(std::is_same_v<typename std::remove_cvref_t<decltype(p)>::value_type, bool>);
  CHECK(xf::to_host(p) == std::vector<bool>{true, true, true, false});
  // int32 @ int64 -> int64; k = 0 -> zeros.
  static_assert(std::is_same_v<typename decltype(xf::matmul(a, xf::asarray<std::int64_t, Space>({1, 2, 3}, {3, 1})))::value_type, std::int64_t>);
  CHECK(xf::to_host(xf::matmul(xf::array<int, 2, Space>(xf::dims<2>{2, 0}), xf::array<int, 2, Space>(xf::dims<2>{0, 3}))) == std::vector<int>(6, 0));
  CHECK_THROWS_AS(xf::matmul(a, a), xf::shape_error);

  // Random int32 of the whole range: (2, 1, 70, 37) @ (3, 37, 131), batches broadcast to (2, 3)
  // without copies; 70 and 131 cross tile edges (64), 37 the k steps (16).
  constexpr std::size_t M = 70, K = 37, N = 131;
  const auto left = xf_test::uniform<double>(2 * M * K, -2147483648.0, 2147483647.0);
  const auto right = xf_test::uniform<double>(3 * K * N, -2147483648.0, 2147483647.0);
  std::vector<int> l(left.size()), r(right.size());
  for (std::size_t i = 0; i < l.size(); ++i) l[i] = static_cast<int>(left[i]);
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = static_cast<int>(right[i]);
  const auto x = xf::asarray<int, Space>(l, {2, 1, static_cast<xf::index_t>(M), static_cast<xf::index_t>(K)});
  const auto y = xf::asarray<int, Space>(r, {3, static_cast<xf::index_t>(K), static_cast<xf::index_t>(N)});
  const auto got = xf::to_host(xf::matmul(x, y));
  REQUIRE(got.size() == 2 * 3 * M * N);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t m = 0; m < M; ++m)
        for (std::size_t n = 0; n < N; ++n) {
          std::uint64_t total = 0;
          for (std::size_t k = 0; k < K; ++k)
            total += static_cast<std::uint64_t>(static_cast<std::int64_t>(l[(i * M + m) * K + k])) *
                     static_cast<std::uint64_t>(static_cast<std::int64_t>(r[(j * K + k) * N + n]));
          if (got[((i * 3 + j) * M + m) * N + n] != static_cast<int>(static_cast<std::uint32_t>(total))) ++bad;
        }
  CHECK(bad == 0);
  // 1-D @ a stack, and a stack @ 1-D: NumPy's promotion and removal of the added axis.
  const auto row = xf::to_host(xf::matmul(xf::asarray<int, Space>(std::vector<int>(l.begin(), l.begin() + K)), y));
  REQUIRE(row.size() == 3 * N);
  std::size_t bad_row = 0;
  for (std::size_t j = 0; j < 3; ++j)
    for (std::size_t n = 0; n < N; ++n) {
      std::uint64_t total = 0;
      for (std::size_t k = 0; k < K; ++k)
        total += static_cast<std::uint64_t>(static_cast<std::int64_t>(l[k])) * static_cast<std::uint64_t>(static_cast<std::int64_t>(r[(j * K + k) * N + n]));
      if (row[j * N + n] != static_cast<int>(static_cast<std::uint32_t>(total))) ++bad_row;
    }
  CHECK(bad_row == 0);
  CHECK(xf::matmul(x, xf::asarray<int, Space>(std::vector<int>(K, 1))).shape() == std::array<xf::index_t, 3>{2, 1, static_cast<xf::index_t>(M)});
  // Enough tiles for the device's large-tile kernel (264 x 4 tiles of 128^2): (264, 130, 19) @
  // (19, 130), the right operand broadcast over the batch, edges in both tile directions.
  constexpr std::size_t B2 = 264, M2 = 130, K2 = 19, N2 = 130;
  const auto l2 = xf_test::uniform<int>(B2 * M2 * K2, -2147483648.0, 2147483647.0);
  const auto r2 = xf_test::uniform<int>(K2 * N2, -2147483648.0, 2147483647.0);
  const auto big = xf::to_host(xf::matmul(xf::asarray<int, Space>(l2, {static_cast<xf::index_t>(B2), static_cast<xf::index_t>(M2), static_cast<xf::index_t>(K2)}),
                                          xf::asarray<int, Space>(r2, {static_cast<xf::index_t>(K2), static_cast<xf::index_t>(N2)})));
  REQUIRE(big.size() == B2 * M2 * N2);
  std::size_t bad_big = 0;
  for (std::size_t z = 0; z < B2; ++z)
    for (std::size_t m = 0; m < M2; ++m)
      for (std::size_t n = 0; n < N2; ++n) {
        std::uint32_t total = 0;
        for (std::size_t k = 0; k < K2; ++k)
          total += static_cast<std::uint32_t>(l2[(z * M2 + m) * K2 + k]) * static_cast<std::uint32_t>(r2[k * N2 + n]);
        if (big[(z * M2 + m) * N2 + n] != static_cast<int>(total)) ++bad_big;
      }
  CHECK(bad_big == 0);
}

// eig and eigvals: NumPy 2.4.6's printed answers (eigenvectors compared up to a unit factor, which
// LAPACK and cuSOLVER may choose differently), residuals |A v - w v| on random real and complex
// stacks, unit norms, eigvals == eig's eigenvalues, integers as float64, inf/NaN refused at read.
template <class T, class Space>
void check_eigenpairs(const std::vector<T>& a, std::size_t count, std::size_t n, double tol) {
  using C = xf::linalg::eig_complex_t<T>;
  using CR = std::complex<double>;
  const auto x = xf::asarray<T, Space>(a, {static_cast<xf::index_t>(count), static_cast<xf::index_t>(n), static_cast<xf::index_t>(n)});
  const auto r = xf::linalg::eig(x);
  static_assert(std::is_same_v<typename decltype(r.eigenvalues)::value_type, C>);
  const auto w = xf::to_host(r.eigenvalues);
  const auto v = xf::to_host(r.eigenvectors);
  const auto w_only = xf::to_host(xf::linalg::eigvals(x));
  REQUIRE(w.size() == count * n);
  REQUIRE(v.size() == count * n * n);
  std::size_t bad = 0;
  for (std::size_t b = 0; b < count; ++b) {
    double scale = 0;
    for (std::size_t i = 0; i < n * n; ++i) scale = std::max(scale, std::abs(CR(a[b * n * n + i])));
    for (std::size_t j = 0; j < n; ++j) {
      const CR lambda(w[b * n + j]);
      if (std::abs(lambda - CR(w_only[b * n + j])) > tol * std::max(1.0, scale) * n) ++bad;
      double norm = 0;
      for (std::size_t i = 0; i < n; ++i) norm += std::norm(CR(v[(b * n + i) * n + j]));
      if (std::abs(std::sqrt(norm) - 1) > tol * n) ++bad;
      for (std::size_t i = 0; i < n; ++i) {
        CR av = 0;
        for (std::size_t k = 0; k < n; ++k) av += CR(a[(b * n + i) * n + k]) * CR(v[(b * n + k) * n + j]);
        if (std::abs(av - lambda * CR(v[(b * n + i) * n + j])) > tol * scale * n) ++bad;
      }
    }
  }
  CHECK(bad == 0);
}

template <class Space>
void eig_matches_numpy() {
  using CR = std::complex<double>;
  const auto same_up_to_phase = [](const std::vector<xf::complex128>& got, const std::vector<CR>& want, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) {
      CR overlap = 0;
      for (std::size_t i = 0; i < n; ++i) overlap += std::conj(want[i * n + j]) * CR(got[i * n + j]);
      CHECK(std::abs(std::abs(overlap) - 1) < 1e-12);
      for (std::size_t i = 0; i < n; ++i) CHECK(std::abs(CR(got[i * n + j]) - overlap * want[i * n + j]) < 1e-12);
    }
  };
  // np.linalg.eig([[1., 2.], [3., 4.]]).
  const auto r = xf::linalg::eig(xf::asarray<double, Space>({1, 2, 3, 4}, {2, 2}));
  const auto w = xf::to_host(r.eigenvalues);
  CHECK(std::abs(CR(w[0]) - CR(-0.3722813232690143)) < 1e-13);
  CHECK(std::abs(CR(w[1]) - CR(5.372281323269014)) < 1e-13);
  same_up_to_phase(xf::to_host(r.eigenvectors), {-0.8245648401323938, -0.4159735579192842, 0.5657674649689923, -0.9093767091321241}, 2);
  // A rotation: a conjugate pair, +i first; eigenvectors [[1, 1], [-i, i]] / sqrt(2).
  const auto rot = xf::linalg::eig(xf::asarray<double, Space>({0, -1, 1, 0}, {2, 2}));
  const auto wr = xf::to_host(rot.eigenvalues);
  CHECK(std::abs(CR(wr[0]) - CR(0, 1)) < 1e-15);
  CHECK(std::abs(CR(wr[1]) - CR(0, -1)) < 1e-15);
  const double h = std::sqrt(0.5);
  same_up_to_phase(xf::to_host(rot.eigenvectors), {h, h, CR(0, -h), CR(0, h)}, 2);
  // Complex: np.linalg.eig([[1+2j, 3], [0.5j, -1]]).
  const auto c = xf::linalg::eig(xf::asarray<xf::complex128, Space>({{1, 2}, {3, 0}, {0, 0.5}, {-1, 0}}, {2, 2}));
  const auto wc = xf::to_host(c.eigenvalues);
  CHECK(std::abs(CR(wc[0]) - CR(1.3228756555322954, 2.3228756555322962)) < 1e-13);
  CHECK(std::abs(CR(wc[1]) - CR(-1.3228756555322954, -0.32287565553229525)) < 1e-13);
  same_up_to_phase(xf::to_host(c.eigenvectors),
                   {0.9886142595467752, CR(-0.4768336246810201, 0.47683362468102025), CR(0.10639982570657991, 0.10639982570657991),
                    0.73841681234051},
                   2);
  // Integers: float64, complex128 results.
  const auto ints = xf::linalg::eigvals(xf::asarray<int, Space>({2, 0, 0, 3}, {2, 2}));
  static_assert(std::is_same_v<typename decltype(ints)::value_type, xf::complex128>);
  CHECK(xf::to_host(ints) == std::vector<xf::complex128>{{2, 0}, {3, 0}});
  // Random stacks: residuals and norms.
  check_eigenpairs<double, Space>(xf_test::uniform<double>(3 * 37 * 37, -1, 1), 3, 37, 1e-12);
  check_eigenpairs<float, Space>(xf_test::uniform<float>(2 * 20 * 20, -1, 1), 2, 20, 2e-5);
  const auto re = xf_test::uniform<double>(2 * 16 * 16, -1, 1), im = xf_test::uniform<double>(2 * 16 * 16, -1, 1);
  std::vector<xf::complex128> z(re.size());
  for (std::size_t i = 0; i < z.size(); ++i) z[i] = {re[i], im[i]};
  check_eigenpairs<xf::complex128, Space>(z, 2, 16, 1e-12);
  // Empty, non-square, inf/NaN (the second matrix of the stack fails; the first is computed).
  CHECK(xf::linalg::eigvals(xf::array<double, 3, Space>(xf::dims<3>{2, 0, 0})).size() == 0);
  CHECK_THROWS_AS(xf::linalg::eig(xf::asarray<double, Space>({1, 2, 3, 4, 5, 6}, {2, 3})), xf::shape_error);
  std::vector<double> with_nan{1, 2, 3, 4, 1, std::nan(""), 0, 1};
  const auto check_nan = [&] { return xf::to_host(xf::linalg::eigvals(xf::asarray<double, Space>(with_nan, {2, 2, 2}))); };
  CHECK_THROWS_AS(check_nan(), xf::linalg_error);
  with_nan[5] = INFINITY;
  CHECK_THROWS_AS(check_nan(), xf::linalg_error);
}

// einsum: NumPy 2.4.6's printed answers for every lowering (transposes, diagonals, traces, sums,
// element-wise and outer products, matrix and batched products, a chain of three, implicit
// output), integer wrapping, and a random batched product against a long-double loop.
template <class Space>
void einsum_matches_numpy() {
  const auto seq = [](int n, std::array<xf::index_t, 2> shape) {
    std::vector<double> v(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i;
    return xf::asarray<double, Space>(v, shape);
  };
  const auto a = seq(6, {2, 3}), b = seq(12, {3, 4}), sq = seq(9, {3, 3}), c = seq(8, {4, 2});
  const auto v3 = xf::asarray<double, Space>({0, 1, 2}), v2 = xf::asarray<double, Space>({0, 1});
  using V = std::vector<double>;
  CHECK(xf::to_host(xf::einsum<"ij,jk->ik">(a, b)) == V{20, 23, 26, 29, 56, 68, 80, 92});
  CHECK(xf::to_host(xf::einsum<"ij,jk">(a, b)) == V{20, 23, 26, 29, 56, 68, 80, 92});  // implicit "->ik"
  const auto trace = xf::einsum<"ii">(sq);
  static_assert(std::remove_cvref_t<decltype(trace)>::rank == 0);
  CHECK(trace.item() == 12);
  CHECK(xf::to_host(xf::einsum<"ii->i">(sq)) == V{0, 4, 8});
  CHECK(xf::to_host(xf::einsum<"ij->ji">(a)) == V{0, 3, 1, 4, 2, 5});
  CHECK(xf::to_host(xf::einsum<"ba">(a.T())) == V{0, 1, 2, 3, 4, 5});  // implicit: alphabetical
  CHECK(xf::einsum<"ij->">(a).item() == 15);
  CHECK(xf::to_host(xf::einsum<"ij->j">(a)) == V{3, 5, 7});
  CHECK(xf::einsum<"i,i">(v3, v3).item() == 5);
  CHECK(xf::to_host(xf::einsum<"i,j->ij">(v2, v3)) == V{0, 0, 0, 0, 1, 2});
  CHECK(xf::to_host(xf::einsum<"ij,ij->ij">(a, a)) == V{0, 1, 4, 9, 16, 25});
  CHECK(xf::to_host(xf::einsum<"ij,jk,kl->il">(a, b, c)) == V{324, 422, 1008, 1304});
  std::vector<double> cube(18);
  for (int i = 0; i < 18; ++i) cube[static_cast<std::size_t>(i)] = i;
  CHECK(xf::to_host(xf::einsum<"iij->j">(xf::asarray<double, Space>(cube, {3, 3, 2}))) == V{24, 27});
  CHECK(xf::to_host(xf::einsum<"ij,i->j">(a, v2)) == V{3, 4, 5});
  // Integers keep their type and wrap: int32 46341 * 46341.
  const auto big = xf::einsum<"ij,jk->ik">(xf::asarray<int, Space>({46341}, {1, 1}), xf::asarray<int, Space>({46341}, {1, 1}));
  static_assert(std::is_same_v<typename std::remove_cvref_t<decltype(big)>::value_type, int>);
  CHECK(big.item() == -2147479015);
  // Operands cast to the result type first (int8 sums do not wrap before the float joins); an
  // extent of 1 broadcasts: np.einsum("ij,i->i", int8 100s, float32 ones) -> [300, 300];
  // np.einsum("i,i", [2.], [1., 2., 3.]) -> 12; "ij,ij->ij" of (1, 3) and (2, 3).
  const auto mixed = xf::einsum<"ij,i->i">(xf::asarray<std::int8_t, Space>(std::vector<std::int8_t>(6, 100), {2, 3}),
                                           xf::asarray<float, Space>({1.0f, 1.0f}));
  static_assert(std::is_same_v<typename std::remove_cvref_t<decltype(mixed)>::value_type, float>);
  CHECK(xf::to_host(mixed) == std::vector<float>{300, 300});
  CHECK(xf::einsum<"i,i">(xf::asarray<double, Space>({2.0}), v3 + 1.0).item() == 12);
  CHECK(xf::to_host(xf::einsum<"ij,ij->ij">(xf::asarray<double, Space>({1, 2, 3}, {1, 3}), a)) == V{0, 2, 6, 3, 8, 15});
  // Expressions as operands; a contracted extent of 0 gives zeros; mismatched extents throw.
  CHECK(xf::to_host(xf::einsum<"ij,jk->ik">(a * 2.0, b)) == V{40, 46, 52, 58, 112, 136, 160, 184});
  CHECK(xf::to_host(xf::einsum<"ij,jk->ik">(xf::array<double, 2, Space>(xf::dims<2>{2, 0}), xf::array<double, 2, Space>(xf::dims<2>{0, 3}))) ==
        V(6, 0.0));
  CHECK_THROWS_AS(xf::einsum<"ij,jk->ik">(a, a), xf::shape_error);
  CHECK_THROWS_AS(xf::einsum<"ii">(a), xf::shape_error);
  // Random: "bij,bjk->bik" and "bij,bkj->bki" (a transposed right operand) against long double.
  const std::size_t nb = 3, m = 17, k = 29, n = 11;
  const auto x = xf_test::uniform<double>(nb * m * k, -1, 1), y = xf_test::uniform<double>(nb * k * n, -1, 1);
  const auto dx = xf::asarray<double, Space>(x, {3, 17, 29}), dy = xf::asarray<double, Space>(y, {3, 29, 11});
  const auto got = xf::to_host(xf::einsum<"bij,bjk->bik">(dx, dy));
  const auto got_t = xf::to_host(xf::einsum<"bij,bkj->bki">(dx, xf::array<double, 3, Space>(dy.swapaxes(1, 2).copy())));
  std::size_t bad = 0;
  for (std::size_t bi = 0; bi < nb; ++bi)
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        long double want = 0;
        for (std::size_t p = 0; p < k; ++p) want += static_cast<long double>(x[(bi * m + i) * k + p]) * y[(bi * k + p) * n + j];
        if (std::abs(got[(bi * m + i) * n + j] - static_cast<double>(want)) > 1e-13) ++bad;
        if (std::abs(got_t[(bi * n + j) * m + i] - static_cast<double>(want)) > 1e-13) ++bad;
      }
  CHECK(bad == 0);
}

template <class Space>
void matrix_functions_match_numpy() {
  // i = [[0, 1], [-1, 0]]; matrix_power(i, 3) -> [[0, -1], [1, 0]]; 0 -> eye; -3 -> [[0, 1], [-1, 0]]
  const auto i = xf::asarray<double, Space>({0, 1, -1, 0}, {2, 2});
  CHECK(xf::to_host(xf::linalg::matrix_power(i, 3)) == std::vector<double>{0, -1, 1, 0});
  CHECK(xf::to_host(xf::linalg::matrix_power(i, 0)) == std::vector<double>{1, 0, 0, 1});
  CHECK(xf::to_host(xf::linalg::matrix_power(i, -3)) == std::vector<double>{0, 1, -1, 0});
  // A stack, power 6, against a long-double loop.
  const auto h = uniform<double>(2 * 3 * 3, -1, 1);
  const auto s = xf::asarray<double, Space>(h, {2, 3, 3});
  std::vector<long double> want;
  for (std::size_t b = 0; b < 2; ++b) {
    const std::vector<long double> one(h.begin() + static_cast<long>(9 * b), h.begin() + static_cast<long>(9 * b + 9));
    auto p = one;
    for (int e = 1; e < 6; ++e) p = product(p, one, 3, 3, 3);
    want.insert(want.end(), p.begin(), p.end());
  }
  require_near(xf::to_host(xf::linalg::matrix_power(s, 6)), want, 1e-13, "matrix_power(s, 6)");

  // multi_dot of shapes (10, 100), (100, 5), (5, 50): against the product in order.
  const auto ha = uniform<double>(10 * 100, -1, 1), hb = uniform<double>(100 * 5, -1, 1), hc = uniform<double>(5 * 50, -1, 1);
  const auto md = xf::linalg::multi_dot({xf::asarray<double, Space>(ha, {10, 100}), xf::asarray<double, Space>(hb, {100, 5}),
                                         xf::asarray<double, Space>(hc, {5, 50})});
  CHECK(md.shape() == std::array<xf::index_t, 2>{10, 50});
  require_near(xf::to_host(md), product(product(widen(ha), widen(hb), 10, 100, 5), widen(hc), 10, 5, 50), 1e-12, "multi_dot");
  CHECK_THROWS_AS(xf::linalg::multi_dot({xf::asarray<double, Space>(ha, {10, 100})}), xf::error);
  CHECK_THROWS_AS(xf::linalg::multi_dot({xf::asarray<double, Space>(ha, {10, 100}), xf::asarray<double, Space>(hc, {5, 50})}), xf::shape_error);

  // np.linalg.matrix_rank(np.eye(4)) -> 4; with I[-1, -1] = 0 -> 3; zeros -> 0; a stack -> [4, 3];
  // matrix_rank(eye(4) * 1e-3, tol=1e-2) -> 0
  auto eye4 = xf::array<double, 2, Space>(xf::eye<double>(4));
  CHECK(xf::linalg::matrix_rank(eye4).item() == 4);
  auto deficient = eye4.copy();
  deficient(3, 3) = 0.0;
  CHECK(xf::linalg::matrix_rank(deficient).item() == 3);
  CHECK(xf::linalg::matrix_rank(xf::array<double, 2, Space>(xf::zeros<double>({4, 4}))).item() == 0);
  CHECK(xf::to_host(xf::linalg::matrix_rank(xf::stack(eye4, deficient))) == std::vector<std::int64_t>{4, 3});
  CHECK(xf::linalg::matrix_rank(eye4 * 1e-3, 1e-2).item() == 0);

  // a = [[1, 0, -1], [0, 1, 0], [1, 0, 1]]: cond(a) 1.4142135623730951, 'fro' 3.1622776601683795,
  // inf 2.0, -inf 1.0, 1 2.0, -1 1.0, -2 0.7071067811865475, 'nuc' 9.242640687119286
  const auto m = xf::asarray<double, Space>({1, 0, -1, 0, 1, 0, 1, 0, 1}, {3, 3});
  CHECK(xf::linalg::cond(m).item() == Approx(1.4142135623730951).epsilon(1e-14));
  CHECK(xf::linalg::cond(m, "fro").item() == Approx(3.1622776601683795).epsilon(1e-14));
  CHECK(xf::linalg::cond(m, xf::linalg::inf).item() == Approx(2.0).epsilon(1e-14));
  CHECK(xf::linalg::cond(m, -xf::linalg::inf).item() == Approx(1.0).epsilon(1e-14));
  CHECK(xf::linalg::cond(m, 1).item() == Approx(2.0).epsilon(1e-14));
  CHECK(xf::linalg::cond(m, -1).item() == Approx(1.0).epsilon(1e-14));
  CHECK(xf::linalg::cond(m, -2).item() == Approx(0.7071067811865475).epsilon(1e-14));
  CHECK(xf::linalg::cond(m, "nuc").item() == Approx(9.242640687119286).epsilon(1e-14));
  CHECK(std::isinf(xf::linalg::cond(deficient).item()));  // NumPy: inf for a singular matrix
  CHECK(std::isinf(xf::linalg::cond(xf::array<double, 2, Space>(xf::zeros<double>({2, 2}))).item()));  // 0 / 0: inf, as NumPy
  // The orders through the inverse: a singular matrix gives inf, as NumPy's (which inverts with errors
  // ignored), on host and device alike. np.linalg.cond(deficient, p) -> inf for p 1, -1, inf, -inf, 'fro'.
  // "nuc" gives inf too (NumPy raises there: its SVD of the NaN inverse does not converge).
  for (const xf::linalg::norm_order p : {xf::linalg::norm_order(1), xf::linalg::norm_order(-1), xf::linalg::norm_order(xf::linalg::inf),
                                         xf::linalg::norm_order(-xf::linalg::inf), xf::linalg::norm_order("fro"),
                                         xf::linalg::norm_order("nuc")}) {
    INFO("cond of a singular matrix, order " << p.name());
    const double c = xf::linalg::cond(deficient, p).item();
    CHECK((std::isinf(c) && c > 0));
  }
  // A stack with one singular matrix: np.linalg.cond(s, 1) -> [1.0, inf, 4.0]; 'fro' [2.9999999999999996, inf, 5.25];
  // -inf [1.0, inf, 0.25] (s = [eye(3), [[1,2,3],[2,4,6],[1,0,1]], diag(2, 1, 4)])
  const auto singular_stack = xf::asarray<double, Space>({1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3, 2, 4, 6, 1, 0, 1, 2, 0, 0, 0, 1, 0, 0, 0, 4}, {3, 3, 3});
  const double dinf = std::numeric_limits<double>::infinity();
  const auto c1 = xf::to_host(xf::linalg::cond(singular_stack, 1));
  CHECK((c1[0] == Approx(1.0).epsilon(1e-14) && c1[1] == dinf && c1[2] == Approx(4.0).epsilon(1e-14)));
  const auto cf = xf::to_host(xf::linalg::cond(singular_stack, "fro"));
  CHECK((cf[0] == Approx(2.9999999999999996).epsilon(1e-14) && cf[1] == dinf && cf[2] == Approx(5.25).epsilon(1e-14)));
  const auto cm = xf::to_host(xf::linalg::cond(singular_stack, -xf::linalg::inf));
  CHECK((cm[0] == Approx(1.0).epsilon(1e-14) && cm[1] == dinf && cm[2] == Approx(0.25).epsilon(1e-14)));
  // A matrix with NaN stays NaN: np.linalg.cond([[1, 2], [3, nan]], 1) -> nan
  CHECK(std::isnan(xf::linalg::cond(xf::asarray<double, Space>({1, 2, 3, std::numeric_limits<double>::quiet_NaN()}, {2, 2}), 1).item()));
  // Integers are float64: np.linalg.cond(int32 [[1, 2], [3, 4]], 1) -> 20.999999999999993, 'fro' 14.999999999999998
  const auto ints = xf::asarray<std::int32_t, Space>({1, 2, 3, 4}, {2, 2});
  static_assert(std::is_same_v<xf::value_t<decltype(xf::linalg::cond(ints, 1))>, double>);
  CHECK(xf::linalg::cond(ints, 1).item() == Approx(20.999999999999993).epsilon(1e-14));
  CHECK(xf::linalg::cond(ints, "fro").item() == Approx(14.999999999999998).epsilon(1e-14));
  // A (2, 3) stack of 2 x 2 matrices diag(1, j + 3 i + 1): cond = j + 3 i + 1, in the batch's order.
  std::vector<double> hs;
  for (int k = 0; k < 6; ++k) hs.insert(hs.end(), {1, 0, 0, static_cast<double>(k + 1)});
  const auto stack_cond = xf::linalg::cond(xf::asarray<double, Space>(hs, {2, 3, 2, 2}));
  CHECK(stack_cond.shape() == std::array<xf::index_t, 2>{2, 3});
  const auto conds = xf::to_host(stack_cond);
  for (int k = 0; k < 6; ++k) CHECK(conds[static_cast<std::size_t>(k)] == Approx(k + 1).epsilon(1e-14));

  // np.linalg.cholesky([[4, 2], [2, 3]], upper=True) -> [[2, 1], [0, 1.4142135623730951]]
  const auto spd = xf::asarray<double, Space>({4, 2, 2, 3}, {2, 2});
  const auto u = xf::to_host(xf::linalg::cholesky(spd, true).copy());
  CHECK((u[0] == 2 && u[1] == 1 && u[2] == 0 && u[3] == Approx(1.4142135623730951).epsilon(1e-15)));
  const auto l = xf::to_host(xf::linalg::cholesky(spd, false).copy());  // [[2, 0], [1, 1.4142135623730951]]
  CHECK((l[0] == 2 && l[1] == 0 && l[2] == 1 && l[3] == Approx(1.4142135623730951).epsilon(1e-15)));
  // np.linalg.cholesky([[2, -1j], [1j, 2]], upper=True) -> [[1.41421356, -0.70710678j], [0, 1.22474487]]
  using C = xf::complex128;
  const auto herm = xf::asarray<C, Space>({C(2, 0), C(0, -1), C(0, 1), C(2, 0)}, {2, 2});
  const auto cu = xf::to_host(xf::linalg::cholesky(herm, true).copy());
  CHECK(cu[0].real() == Approx(1.4142135623730951).epsilon(1e-15));
  CHECK((cu[1].real() == Approx(0.0).margin(1e-15) && cu[1].imag() == Approx(-0.7071067811865476).epsilon(1e-15)));
  CHECK((cu[2].real() == 0 && cu[2].imag() == 0));
  CHECK(cu[3].real() == Approx(1.224744871391589).epsilon(1e-15));

  // np.linalg.norm([3, 0, 4, 0, 1], 0) -> 3.0 (the count of nonzeros); the literal 0 compiles.
  const auto v = xf::asarray<double, Space>({3, 0, 4, 0, 1});
  CHECK(xf::linalg::norm(v, 0).item() == 3.0);
  CHECK(xf::linalg::norm(v, 0, 0).item() == 3.0);
}

// Generators (xf::eye, xf::arange, xf::full) have no space of their own: in every call that takes
// expressions they join the other operands' space, host or device, as they do in element-wise
// expressions (kron(eye(2), host_matrix) used to take the generator as a device operand).
template <class Space>
void generators_join_the_operands_space() {
  const auto m = xf::asarray<double, Space>({1, 2, 3, 4}, {2, 2});
  const auto values = [](const auto& r) {
    static_assert(std::is_same_v<typename std::remove_cvref_t<decltype(r)>::space, Space>);
    return xf::to_host(r);
  };
  // np.kron(np.eye(2), M) -> [[1, 2, 0, 0], [3, 4, 0, 0], [0, 0, 1, 2], [0, 0, 3, 4]]
  CHECK(values(xf::kron(xf::eye<double>(2), m)) == std::vector<double>{1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4});
  // np.eye(2) @ M, np.linalg.solve(2 * np.eye(2), M) -> [[0.5, 1.0], [1.5, 2.0]]
  CHECK(values(xf::eval(xf::matmul(xf::eye<double>(2), m))) == std::vector<double>{1, 2, 3, 4});
  CHECK(values(xf::linalg::solve(2.0 * xf::eye<double>(2), m)) == std::vector<double>{0.5, 1.0, 1.5, 2.0});
  // np.einsum('ij,jk->ik', np.eye(2), M); np.tensordot(np.ones((2, 2)), M, 1) -> [[4, 6], [4, 6]];
  // np.outer(np.arange(2.), [1, 2]) -> [[0, 0], [1, 2]]; np.dot(np.arange(2.), M) -> [3, 4]
  CHECK(values(xf::einsum<"ij,jk->ik">(xf::eye<double>(2), m)) == std::vector<double>{1, 2, 3, 4});
  CHECK(values(xf::tensordot<1>(xf::ones<double>({2, 2}), m)) == std::vector<double>{4, 6, 4, 6});
  CHECK(values(xf::eval(xf::outer(xf::arange<double>(2), m(0)))) == std::vector<double>{0, 0, 1, 2});
  CHECK(values(xf::dot(xf::arange<double>(2), m)) == std::vector<double>{3, 4});
  // np.convolve(np.arange(3.), [1, -1]) -> [0, 1, 1, -2]; np.searchsorted(np.arange(5.), [2.5, -1, 9]) -> [3, 0, 5]
  const auto d = xf::asarray<double, Space>({1, -1});
  CHECK(values(xf::convolve(xf::arange<double>(3), d)) == std::vector<double>{0, 1, 1, -2});
  CHECK(values(xf::searchsorted(xf::arange<double>(5), xf::asarray<double, Space>({2.5, -1, 9}))) == std::vector<std::int64_t>{3, 0, 5});
  CHECK(values(xf::searchsorted(m(0), xf::arange<double>(4))) == std::vector<std::int64_t>{0, 0, 1, 2});
  // np.bincount([0, 1, 1], weights=np.full(3, 0.5)) -> [0.5, 1.0]
  CHECK(values(xf::bincount(xf::asarray<std::int64_t, Space>({0, 1, 1}), xf::full<double>({3}, 0.5))) == std::vector<double>{0.5, 1.0});
  // np.average(M, axis=1, weights=np.arange(1., 3.)) -> [1.6666666666666667, 3.6666666666666665]
  const auto avg = values(xf::average(m, 1, xf::arange<double>(1, 3)));
  CHECK((avg[0] == Approx(1.6666666666666667).epsilon(1e-15) && avg[1] == Approx(3.6666666666666665).epsilon(1e-15)));
}

}  // namespace xf_test::products
