// Products and matrix functions on host arrays (tests/common/products_cases.hpp).
#include "../common/products_cases.hpp"

using namespace xf_test::products;

TEST_CASE("kron, cross and tensordot give NumPy's answers", "[linalg][host][numpy]") {
  kron_cross_tensordot_match_numpy<xf::host>();
}

TEST_CASE("matrix_power, multi_dot, matrix_rank, cond, cholesky(upper) and norm(x, 0) give NumPy's answers", "[linalg][host][numpy]") {
  matrix_functions_match_numpy<xf::host>();
}

TEST_CASE("integer and bool matmul wrap as NumPy's", "[linalg][host][numpy]") {
  integer_matmul_matches_numpy<xf::host>();
}

TEST_CASE("eig and eigvals of general matrices give NumPy's answers", "[linalg][host][numpy]") {
  eig_matches_numpy<xf::host>();
}

TEST_CASE("einsum lowers every form to views, reductions, fused products and GEMMs with NumPy's answers", "[linalg][host][numpy]") {
  einsum_matches_numpy<xf::host>();
}

TEST_CASE("generators join host and device operands in products, solvers, einsum, convolution and searches", "[linalg][host][numpy]") {
  generators_join_the_operands_space<xf::host>();
}
