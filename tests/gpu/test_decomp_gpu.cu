// qr, eigh, svd, lstsq, pinv and norm on device arrays (cuSOLVER), against tests/common/decomp_cases.hpp's identities.
#include "../common/decomp_cases.hpp"

using namespace xf_test;

TEST_CASE("qr on device arrays: reduced, complete, r; batches, wide, transposed views", "[gpu][linalg]") {
  qr_cases<xf::device, float>();
  qr_cases<xf::device, double>();
  qr_cases<xf::device, xf::complex64>();
  qr_cases<xf::device, xf::complex128>();
}

TEST_CASE("eigh and eigvalsh on device arrays", "[gpu][linalg]") {
  eigh_cases<xf::device, float>();
  eigh_cases<xf::device, double>();
  eigh_cases<xf::device, xf::complex64>();
  eigh_cases<xf::device, xf::complex128>();
}

TEST_CASE("svd and svdvals on device arrays: full, reduced, tall, wide, batched", "[gpu][linalg]") {
  svd_cases<xf::device, float>();
  svd_cases<xf::device, double>();
  svd_cases<xf::device, xf::complex64>();
  svd_cases<xf::device, xf::complex128>();
}

TEST_CASE("lstsq and pinv on device arrays", "[gpu][linalg]") {
  lstsq_cases<xf::device, float>();
  lstsq_cases<xf::device, double>();
  lstsq_cases<xf::device, xf::complex64>();
  lstsq_cases<xf::device, xf::complex128>();
  pinv_cases<xf::device, float>();
  pinv_cases<xf::device, double>();
  pinv_cases<xf::device, xf::complex64>();
  pinv_cases<xf::device, xf::complex128>();
}

TEST_CASE("norm on device arrays: vector and matrix orders, axes, keepdims", "[gpu][linalg]") {
  norm_cases<xf::device, float>();
  norm_cases<xf::device, double>();
  norm_cases<xf::device, xf::complex64>();
  norm_cases<xf::device, xf::complex128>();
}
