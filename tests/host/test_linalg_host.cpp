// matmul and products on host arrays (OpenBLAS), against tests/common/linalg_cases.hpp's loops.
#include "../common/solve_cases.hpp"

using namespace xf_test;

TEST_CASE("matmul on host arrays: every layout and element type", "[host][linalg]") {
  matmul_layouts<xf::host, float>();
  matmul_layouts<xf::host, double>();
  matmul_layouts<xf::host, xf::complex64>();
  matmul_layouts<xf::host, xf::complex128>();
  matmul_layouts<xf::host, xf::half>();
  matmul_layouts<xf::host, xf::bfloat16>();
}

TEST_CASE("matmul on host arrays: batches, 1-D operands, empty and bad shapes", "[host][linalg]") {
  matmul_rules<xf::host, float>();
  matmul_rules<xf::host, xf::complex128>();
}

TEST_CASE("alpha * matmul + beta * c as one GEMM on host arrays", "[host][linalg]") {
  matmul_alpha_beta<xf::host, float>();
  matmul_alpha_beta<xf::host, double>();
  matmul_alpha_beta<xf::host, xf::complex64>();
  matmul_alpha_beta<xf::host, xf::complex128>();
}

TEST_CASE("relu, gelu_tanh and maximum of products with a bias row on host arrays", "[host][linalg][epilogue]") {
  matmul_epilogues<xf::host, float>(9, 7, 5, epilogue_check::none);
  matmul_epilogues<xf::host, double>(16, 16, 16, epilogue_check::none);
  matmul_epilogues<xf::host, xf::bfloat16>(8, 12, 6, epilogue_check::none);
}

TEST_CASE("dot, vdot, inner, outer, trace and mixed types on host arrays", "[host][linalg]") {
  products_and_mixed_types<xf::host>();
}

TEST_CASE("doc example: matmul and products", "[host][linalg][docs]") {
  // example-begin matmul
  const auto A = xf::asarray<double, xf::host>(std::vector<double>{1, 2, 3, 4, 5, 6}, {2, 3});
  const auto B = xf::asarray<double, xf::host>(std::vector<double>{1, 0, 0, 1, 1, 1}, {3, 2});
  const auto C = xf::matmul(A, B);              // A @ B = [[4, 5], [10, 11]]
  const auto G = xf::matmul(A, A.T());          // the transpose is a BLAS flag, not a copy
  const auto v = xf::matmul(A, B(xf::all, 0));  // a 1-D operand: shape (2,), [4, 10]
  const auto S = xf::matmul(A.broadcast_to({3, 2, 3}), B);  // a batch of 3 products: (3, 2, 2)
  const double d = xf::dot(A(0), A(1)).item();  // vectors: one fused pass, 32
  const double t = xf::trace(G).item();         // 14 + 77 = 91
  xf::array<double, 2, xf::host> E = xf::ones<double>({2, 2});
  E += xf::matmul(A, B);                        // one GEMM into E (beta = 1): [[5, 6], [11, 12]]
  const xf::array<double, 2, xf::host> F = 2.0 * xf::matmul(A, B) - E;  // one GEMM: alpha 2, beta -1
  // example-end
  CHECK(E.at(1, 0) == 11);
  CHECK(F.at(1, 1) == 10);
  CHECK(C.at(1, 1) == 11);
  CHECK(G.at(0, 1) == 32);
  CHECK(v.at(1) == 10);
  CHECK(S.shape() == xf::dims<3>{3, 2, 2});
  CHECK(S.at(2, 1, 0) == 10);
  CHECK(d == 32);
  CHECK(t == 91);
}

TEST_CASE("conjugate transposes reach host BLAS as a flag", "[host][linalg]") {
  matmul_conjugate<xf::host, xf::complex64>();
  matmul_conjugate<xf::host, xf::complex128>();
}

TEST_CASE("solve, inv, det, slogdet and cholesky on host arrays (LAPACK)", "[host][linalg]") {
  solvers<xf::host, float>();
  solvers<xf::host, double>();
  solvers<xf::host, xf::complex64>();
  solvers<xf::host, xf::complex128>();
}

TEST_CASE("solve, det and inv above the small-matrix size on host arrays", "[host][linalg]") {
  solvers_large<xf::host, float>();
  solvers_large<xf::host, xf::complex128>();
}

TEST_CASE("singular and indefinite matrices and bad shapes on host arrays", "[host][linalg]") {
  solver_errors<xf::host>();
}

TEST_CASE("doc example: solvers", "[host][linalg][docs]") {
  // example-begin solvers
  const auto A = xf::asarray<double, xf::host>(std::vector<double>{4, 2, 0, 2, 5, 1, 0, 1, 3}, {3, 3});
  const auto b = xf::asarray<double, xf::host>(std::vector<double>{6, 8, 4}, {3});
  const auto x = xf::linalg::solve(A, b);     // A x = b: [1, 1, 1]
  const auto Ai = xf::linalg::inv(A);         // host: a column-major view; .copy() for C order
  const double d = xf::linalg::det(A).item(); // 44
  const auto L = xf::linalg::cholesky(A);     // lower triangular, L L^T = A
  const auto [sign, logabs] = xf::linalg::slogdet(A);  // 1, log(44)
  // On device arrays a singular matrix throws xf::linalg_error at the next host read of the
  // result, or at xf::linalg::check(result); on host arrays, at the call.
  // example-end
  CHECK(std::abs(x.at(0) - 1) < 1e-14);
  CHECK(std::abs(x.at(1) - 1) < 1e-14);
  CHECK(std::abs(x.at(2) - 1) < 1e-14);
  CHECK(std::abs(xf::matmul(A, Ai).at(2, 2) - 1) < 1e-14);
  CHECK(std::abs(d - 44) < 1e-12);
  CHECK(L.at(0, 1) == 0);
  CHECK(std::abs(L.at(0, 0) - 2) < 1e-14);
  CHECK(sign.item() == 1);
  CHECK(std::abs(logabs.item() - std::log(44.0)) < 1e-14);
}

TEST_CASE("cholesky reads only the lower triangle, from any layout, orders 1 to 70, on host arrays", "[host][linalg]") {
  cholesky_layouts<xf::host, float>();
  cholesky_layouts<xf::host, double>();
  cholesky_layouts<xf::host, xf::complex64>();
  cholesky_layouts<xf::host, xf::complex128>();
}

TEST_CASE("solve and inv with row exchanges at every step, orders 1 to 65, on host arrays", "[host][linalg]") {
  solvers_pivoting<xf::host, float>();
  solvers_pivoting<xf::host, double>();
  solvers_pivoting<xf::host, xf::complex64>();
  solvers_pivoting<xf::host, xf::complex128>();
}

TEST_CASE("a failed cuSOLVER call is an xf::cusolver_error naming the call and the status", "[linalg][host][errors]") {
  const xf::cusolver_error e(CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnXgetrf");
  CHECK(e.status() == CUSOLVER_STATUS_INVALID_VALUE);
  CHECK(std::string(e.what()).find("cusolverDnXgetrf") != std::string::npos);
  CHECK(std::string(e.what()).find("status 3") != std::string::npos);
  CHECK_THROWS_AS(xf::detail::check_cusolver(CUSOLVER_STATUS_NOT_INITIALIZED, "cusolverDnXpotrf"), xf::cusolver_error);
  CHECK_THROWS_AS(xf::detail::check_cusolver(CUSOLVER_STATUS_NOT_INITIALIZED, "cusolverDnXpotrf"), xf::error);
  CHECK_NOTHROW(xf::detail::check_cusolver(CUSOLVER_STATUS_SUCCESS, "cusolverDnXpotrf"));
}
