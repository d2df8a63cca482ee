// SPDX-License-Identifier: Apache-2.0
// The BLAS libraries behind xf::matmul: cuBLAS for device arrays (backend/cublas.hpp: gemm_device)
// and OpenBLAS's CBLAS for host arrays (backend/lapack.hpp: gemm_host).
#pragma once

#include "backend/cublas.hpp"
#include "backend/lapack.hpp"
