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
#include <xfuse/manip.hpp>

#include "check.hpp"
#include "random.hpp"

namespace xf_test::products {

inline void require_near(const std::vector<double>& got, const std::vector<long double>& want, double tol, const std::string& what) {
  INFO(what);
  REQUIRE(got.size() == want.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const long double err = std::fabs(static_cast<long double>(got[i]) - want[i]);
    if (err > tol * (1 + std::fabs(want[i])) && bad++ < 5) FAIL_CHECK("element " << i << ": " << got[i] << " vs " << static_cast<double>(want[i]));
  }
  CHECK(bad == 0);
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
  require_near(xf::to_host(xf::tensordot<1>(m, k)), product(widen(hm), widen(hn), 7, 5, 3), 1e-14, "tensordot<1>");
  CHECK(xf::tensordot<0>(m, k).shape() == std::array<xf::index_t, 4>{7, 5, 5, 3});
  // The default, N = 2: a's last two axes with b's first two, against a loop.
  const auto hb2 = uniform<double>(4 * 5 * 2, -1, 1);
  const auto b2 = xf::asarray<double, Space>(hb2, {4, 5, 2});
  std::vector<long double> want2(3 * 2, 0);
  for (std::size_t r = 0; r < 3; ++r)
    for (std::size_t p = 0; p < 20; ++p)
      for (std::size_t q = 0; q < 2; ++q) want2[r * 2 + q] += static_cast<long double>(r * 20 + p) * hb2[p * 2 + q];
  const auto d2 = xf::tensordot(a, b2);
  CHECK(d2.shape() == std::array<xf::index_t, 2>{3, 2});
  require_near(xf::to_host(d2), want2, 1e-14, "tensordot(a, b)");
  CHECK_THROWS_AS(xf::tensordot(a, b, {0}, {0}), xf::shape_error);  // extents 3 and 4
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

}  // namespace xf_test::products
