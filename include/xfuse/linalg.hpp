// Dense linear algebra: matmul and NumPy's products on cuBLAS (device arrays) and OpenBLAS (host
// arrays). Link with xfuse::linalg (cuBLAS and OpenBLAS). Kept out of <xfuse/core.hpp>, whose build
// time does not pay for it.
#pragma once

#include "core.hpp"
#include "linalg/blas.hpp"
#include "linalg/matmul.hpp"
#include "linalg/products.hpp"
