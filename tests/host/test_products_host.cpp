// Products and matrix functions on host arrays (tests/common/products_cases.hpp).
#include "../common/products_cases.hpp"

using namespace xf_test::products;

TEST_CASE("kron, cross and tensordot give NumPy's answers", "[linalg][host][numpy]") {
  kron_cross_tensordot_match_numpy<xf::host>();
}

TEST_CASE("matrix_power, multi_dot, matrix_rank, cond, cholesky(upper) and norm(x, 0) give NumPy's answers", "[linalg][host][numpy]") {
  matrix_functions_match_numpy<xf::host>();
}
