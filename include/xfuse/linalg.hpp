// Dense linear algebra: matmul and NumPy's products on cuBLAS, xf::linalg's solvers on cuSOLVER
// (device arrays), both on OpenBLAS for host arrays. Link with xfuse::linalg. Kept out of <xfuse/core.hpp>, whose build
// time does not pay for it.
#pragma once

#include "core.hpp"
#include "linalg/blas.hpp"
#include "linalg/matmul.hpp"
#include "linalg/products.hpp"
#include "linalg/solve.hpp"
