// SPDX-License-Identifier: Apache-2.0
// What the library backends share: one state (handles, workspaces) per device and host thread,
// since cuBLAS and cuSOLVER handles must not be used by two threads at once and binding one
// costs microseconds; the check of a dimension passed to a 32-bit interface (LAPACK's LP64
// integers, cuBLAS's batched LU, cuSOLVER's typed routines); how BLAS reads one operand.
#pragma once

#include <array>
#include <climits>
#include <string>

#include "../../complex.hpp"
#include "../../core.hpp"

namespace xf::detail {

inline constexpr int max_devices_with_state = 64;

// The calling thread's State for device `dev`, default-constructed on first use; State::release()
// runs when the thread ends (the CUDA context may already be gone then: it must not throw).
template <class State>
State& thread_state_for(int dev, const char* op) {
  struct states {
    std::array<State, max_devices_with_state> each;
    ~states() {
      for (State& s : each) s.release();
    }
  };
  thread_local states cache;
  if (dev < 0 || dev >= max_devices_with_state)
    throw device_error(std::string(op) + ": device " + std::to_string(dev) + " out of range");
  return cache.each[static_cast<std::size_t>(dev)];
}

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
