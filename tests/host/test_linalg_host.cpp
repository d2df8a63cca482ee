// matmul and products on host arrays (OpenBLAS), against tests/common/linalg_cases.hpp's loops.
#include "../common/linalg_cases.hpp"

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
  // example-end
  CHECK(C.at(1, 1) == 11);
  CHECK(G.at(0, 1) == 32);
  CHECK(v.at(1) == 10);
  CHECK(S.shape() == xf::dims<3>{3, 2, 2});
  CHECK(S.at(2, 1, 0) == 10);
  CHECK(d == 32);
  CHECK(t == 91);
}
