// matmul and products on device arrays (cuBLAS), against tests/common/linalg_cases.hpp's loops.
#include "../common/solve_cases.hpp"

using namespace xf_test;

TEST_CASE("matmul on device arrays: every layout and element type", "[gpu][linalg]") {
  matmul_layouts<xf::device, float>();
  matmul_layouts<xf::device, double>();
  matmul_layouts<xf::device, xf::complex64>();
  matmul_layouts<xf::device, xf::complex128>();
  matmul_layouts<xf::device, xf::half>();
  matmul_layouts<xf::device, xf::bfloat16>();
}

TEST_CASE("matmul on device arrays: batches, 1-D operands, empty and bad shapes", "[gpu][linalg]") {
  matmul_rules<xf::device, float>();
  matmul_rules<xf::device, double>();
  matmul_rules<xf::device, xf::complex64>();
  matmul_rules<xf::device, xf::half>();
}

TEST_CASE("alpha * matmul + beta * c as one GEMM on device arrays", "[gpu][linalg]") {
  matmul_alpha_beta<xf::device, float>();
  matmul_alpha_beta<xf::device, double>();
  matmul_alpha_beta<xf::device, xf::complex64>();
  matmul_alpha_beta<xf::device, xf::complex128>();
}

TEST_CASE("relu, gelu_tanh and a bias row in cuBLASLt's store on device arrays", "[gpu][linalg][epilogue]") {
  using check = epilogue_check;
  matmul_epilogues<xf::device, float>(48, 32, 40, check::required);
  matmul_epilogues<xf::device, float>(256, 256, 256, check::required);
  matmul_epilogues<xf::device, xf::bfloat16>(64, 96, 128, check::required);
  matmul_epilogues<xf::device, xf::half>(64, 64, 64, check::required);
  matmul_epilogues<xf::device, double>(48, 32, 40, check::reported);
  matmul_epilogues<xf::device, float>(9, 7, 5, check::reported);  // odd leading dimensions
}

TEST_CASE("dot, vdot, inner, outer, trace and mixed types on device arrays", "[gpu][linalg]") {
  products_and_mixed_types<xf::device>();
}

TEST_CASE("matmul with the TF32 opt-in, and on a second stream", "[gpu][linalg]") {
  const xf::index_t m = 96, k = 128, n = 80;
  const auto av = uniform<float>(static_cast<std::size_t>(m * k), -1, 1), bv = uniform<float>(static_cast<std::size_t>(k * n), -1, 1);
  std::vector<cd> want;
  std::vector<double> scale;
  ref_matmul(av, bv, static_cast<std::size_t>(m), static_cast<std::size_t>(k), static_cast<std::size_t>(n), want, scale);
  const auto a = xf::asarray<float, xf::device>(av, {m, k});
  const auto b = xf::asarray<float, xf::device>(bv, {k, n});
  // TF32 rounds inputs to 10 explicit mantissa bits: 2 * 2^-11 relative per product.
  require_product(xf::to_host(xf::matmul(a, b, xf::tf32)), want, scale, static_cast<std::size_t>(k), "tf32 matmul", 1e-3);
  xf::synchronize();  // a and b were written on the default stream
  xf::stream s;
  xf::array<float, 2> c;
  {
    xf::stream_guard g(s);
    c = xf::matmul(a, b);
  }
  s.synchronize();
  require_product(xf::to_host(c), want, scale, static_cast<std::size_t>(k), "matmul on a second stream");
}

TEST_CASE("conjugate transposes reach cuBLAS as a flag", "[gpu][linalg]") {
  matmul_conjugate<xf::device, xf::complex64>();
  matmul_conjugate<xf::device, xf::complex128>();
}

TEST_CASE("solve, inv, det, slogdet and cholesky on device arrays (cuSOLVER)", "[gpu][linalg]") {
  solvers<xf::device, float>();
  solvers<xf::device, double>();
  solvers<xf::device, xf::complex64>();
  solvers<xf::device, xf::complex128>();
}

TEST_CASE("solve, det and inv above the small-matrix size on device arrays", "[gpu][linalg]") {
  solvers_large<xf::device, float>();
  solvers_large<xf::device, xf::complex128>();
}

TEST_CASE("singular and indefinite matrices surface at the next host read, and bad shapes", "[gpu][linalg]") {
  solver_errors<xf::device>();
}

TEST_CASE("cholesky reads only the lower triangle, from any layout, orders 1 to 70, on device arrays", "[gpu][linalg][cholesky]") {
  cholesky_layouts<xf::device, float>();
  cholesky_layouts<xf::device, double>();
  cholesky_layouts<xf::device, xf::complex64>();
  cholesky_layouts<xf::device, xf::complex128>();
}

TEST_CASE("solve and inv with row exchanges at every step, orders 1 to 65, on device arrays", "[gpu][linalg][small_lu]") {
  solvers_pivoting<xf::device, float>();
  solvers_pivoting<xf::device, double>();
  solvers_pivoting<xf::device, xf::complex64>();
  solvers_pivoting<xf::device, xf::complex128>();
}
