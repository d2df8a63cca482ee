// SPDX-License-Identifier: Apache-2.0
// Operands of library calls that need memory (BLAS, cuSOLVER, convolution): arrays as they are,
// expressions evaluated once into a temporary. A call with several operands evaluates them all in
// the operands' common space (operands_space_t), so a generator (xf::eye, xf::arange: no space of
// its own) joins host arrays on the host and device arrays on the device.
#pragma once

#include "evaluate.hpp"

namespace xf::detail {

// The space a library call with operands E... runs in: theirs (host or device), the device when
// every operand is a generator. Host arrays with device arrays are a compile error.
template <class... E>
struct operands_space {
  XF_SPACES_MATCH(space_t<E>...);
  using type = resolved_space_t<common_space_t<space_t<E>...>>;
};
template <class... E>
using operands_space_t = typename operands_space<E...>::type;

// e as an array in Space (by default its own, the device for a generator): the array itself (no
// copy), an expression evaluated once. A producer's description (xf::softmax(x, 1), xf::sort(x))
// reads as an array but is not one: it becomes the array of its result (the result itself, no
// copy, when already computed).
template <class Space = void, class E>
auto as_array(const E& e) {
  using S = std::conditional_t<std::is_void_v<Space>, operands_space_t<E>, Space>;
  if constexpr (requires { e.data(); } && !is_producer<E>) {
    static_assert(std::is_same_v<space_t<E>, S>, "xfuse: an array operand lives in another space (host vs device) than the call");
    return e;
  } else {
    return array<value_t<E>, rank_v<E>, S>(e);
  }
}

// e as an array of element type T in Space: the array itself when it already is one (no copy).
template <class T, class Space = void, class E>
auto as_array_of(const E& e) {
  if constexpr (std::is_same_v<value_t<E>, T>) return as_array<Space>(e);
  else return as_array<Space>(e.template astype<T>());
}

}  // namespace xf::detail
