// SPDX-License-Identifier: Apache-2.0
// Operands of library calls that need memory (BLAS, cuSOLVER, convolution): arrays as they are,
// expressions evaluated once into a temporary.
#pragma once

#include "evaluate.hpp"

namespace xf::detail {

// e as an array: the array itself (no copy), an expression evaluated once.
template <class E>
auto as_array(const E& e) {
  if constexpr (requires { e.data(); }) return e;
  else return eval(e);
}

// e as an array of element type T: the array itself when it already is one (no copy).
template <class T, class E>
auto as_array_of(const E& e) {
  if constexpr (std::is_same_v<value_t<E>, T>) return as_array(e);
  else return eval(e.template astype<T>());
}

}  // namespace xf::detail
