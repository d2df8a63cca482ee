// qr, eigh, svd, lstsq, pinv and norm on host arrays (LAPACK), against tests/common/decomp_cases.hpp's identities.
#include "../common/decomp_cases.hpp"

using namespace xf_test;

TEST_CASE("qr on host arrays: reduced, complete, r; batches, wide, transposed views", "[host][linalg]") {
  qr_cases<xf::host, float>();
  qr_cases<xf::host, double>();
  qr_cases<xf::host, xf::complex64>();
  qr_cases<xf::host, xf::complex128>();
}

TEST_CASE("eigh and eigvalsh on host arrays", "[host][linalg]") {
  eigh_cases<xf::host, float>();
  eigh_cases<xf::host, double>();
  eigh_cases<xf::host, xf::complex64>();
  eigh_cases<xf::host, xf::complex128>();
}

TEST_CASE("svd and svdvals on host arrays: full, reduced, tall, wide, batched", "[host][linalg]") {
  svd_cases<xf::host, float>();
  svd_cases<xf::host, double>();
  svd_cases<xf::host, xf::complex64>();
  svd_cases<xf::host, xf::complex128>();
}

TEST_CASE("lstsq and pinv on host arrays", "[host][linalg]") {
  lstsq_cases<xf::host, float>();
  lstsq_cases<xf::host, double>();
  lstsq_cases<xf::host, xf::complex64>();
  lstsq_cases<xf::host, xf::complex128>();
  pinv_cases<xf::host, float>();
  pinv_cases<xf::host, double>();
  pinv_cases<xf::host, xf::complex64>();
  pinv_cases<xf::host, xf::complex128>();
}

TEST_CASE("norm on host arrays: vector and matrix orders, axes, keepdims", "[host][linalg]") {
  norm_cases<xf::host, float>();
  norm_cases<xf::host, double>();
  norm_cases<xf::host, xf::complex64>();
  norm_cases<xf::host, xf::complex128>();
}

TEST_CASE("doc example: decompositions", "[host][linalg][docs]") {
  // example-begin decompositions
  const auto A = xf::asarray<double, xf::host>(std::vector<double>{2, 1, 1, 3, 0, 1}, {3, 2});
  const auto [Q, R] = xf::linalg::qr(A);          // Q (3, 2) orthonormal, R (2, 2) upper
  const auto [U, S, Vh] = xf::linalg::svd(A, false);  // reduced: U (3, 2), S (2), Vh (2, 2)
  const auto H = xf::matmul(A.T(), A);             // symmetric: [[5, 5], [5, 11]]
  const auto [w, V] = xf::linalg::eigh(H);        // w ascending = S^2 reversed
  const auto b = xf::asarray<double, xf::host>(std::vector<double>{1, 2, 3}, {3});
  const auto fit = xf::linalg::lstsq(A, b);        // x = [-0.2, 1]; also residuals, rank (0-d)
  const auto P = xf::linalg::pinv(A);              // (2, 3); P A = I here
  const double fro = xf::linalg::norm(A).item();   // sqrt(16) = 4
  const double two = xf::linalg::norm(A, 2).item();  // the largest singular value, S(0)
  // example-end
  CHECK(std::abs(xf::matmul(Q, R).at(2, 1) - 1) < 1e-14);
  CHECK(R.at(1, 0) == 0);
  CHECK(std::abs(w.at(1) - S.at(0) * S.at(0)) < 1e-12);
  CHECK(std::abs(std::abs(V.at(0, 1)) - std::abs(Vh.at(0, 0))) < 1e-12);
  CHECK(std::abs(U.at(0, 0) * S.at(0) * Vh.at(0, 0) + U.at(0, 1) * S.at(1) * Vh.at(1, 0) - 2) < 1e-14);
  CHECK(fit.rank.item() == 2);
  CHECK(std::abs(xf::matmul(P, A).at(0, 0) - 1) < 1e-14);
  CHECK(std::abs(fro - 4) < 1e-14);
  CHECK(std::abs(two - S.at(0)) < 1e-14);
  // Normal equations: A^T A x = A^T b, [[5, 5], [5, 11]] x = [4, 10]: x = [-0.2, 1].
  CHECK(std::abs(fit.x.at(0) + 0.2) < 1e-13);
  CHECK(std::abs(fit.x.at(1) - 1) < 1e-13);
}
