// SPDX-License-Identifier: Apache-2.0
// The BLAS libraries behind xf::matmul: cuBLAS for device arrays (backend/cublas.hpp: gemm_device),
// cuBLASLt for products with a bias or activation in the store (backend/cublaslt.hpp: lt_gemm) and
// OpenBLAS's CBLAS for host arrays (backend/lapack.hpp: gemm_host).
#pragma once

#include "backend/cublas.hpp"
#include "backend/cublaslt.hpp"
#include "backend/lapack.hpp"
