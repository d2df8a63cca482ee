// SPDX-License-Identifier: Apache-2.0
// What the library backends share: their state (handles, workspaces) one per device and host
// thread (base/thread_state.hpp: cuBLAS and cuSOLVER handles must not be used by two threads at
// once, and binding one costs microseconds); the check of a dimension passed to a 32-bit interface (LAPACK's LP64
// integers, cuBLAS's batched LU, cuSOLVER's typed routines); how BLAS reads one operand.
#pragma once

#include <array>
#include <climits>
#include <string>

#include "../../complex.hpp"
#include "../../base/thread_state.hpp"
#include "../../core.hpp"

namespace xf::detail {

// A dimension passed to a 32-bit interface.
inline int lapack_int(index_t v, const char* op) {
  if (v > INT_MAX)
    throw shape_error(std::string(op) + ": a dimension of " + std::to_string(v) + " exceeds the 32-bit LAPACK interface");
  return static_cast<int>(v);
}

// The complex type of a real or complex element type (eigenvalues of general matrices).
template <class T>
using complex_of_t = std::conditional_t<is_complex<T>, T, std::conditional_t<std::is_same_v<T, float>, complex64, complex128>>;

// One matrix of a product as BLAS reads it: row-major with leading dimension `ld` (element (i, j)
// at i * ld + j), or, when `transposed`, column-major (at i + j * ld): a transposed view.
// `conjugate` (transposed only): the conjugates of those elements, BLAS's conjugate transpose.
struct blas_operand {
  const void* ptr;
  index_t ld;
  bool transposed;
  bool conjugate = false;
};

}  // namespace xf::detail
