// SPDX-License-Identifier: Apache-2.0
// Dense linear algebra: matmul and NumPy's products on cuBLAS, xf::linalg's solvers and
// decompositions (solve, inv, det, cholesky, qr, eigh, svd, lstsq, pinv, norm) on cuSOLVER
// (device arrays), both on OpenBLAS for host arrays. Link with xfuse::linalg. Kept out of <xfuse/core.hpp>, whose build
// time does not pay for it.
#pragma once

#include "core.hpp"
#include "linalg/blas.hpp"
#include "linalg/matmul.hpp"
#include "linalg/products.hpp"
#include "linalg/eig.hpp"
#include "linalg/einsum.hpp"
#include "linalg/eigh.hpp"
#include "linalg/lstsq.hpp"
#include "linalg/norm.hpp"
#include "linalg/qr.hpp"
#include "linalg/solve.hpp"
#include "linalg/svd.hpp"
#include "linalg/chain.hpp"
#include "linalg/rank.hpp"
#include "linalg/covariance.hpp"
