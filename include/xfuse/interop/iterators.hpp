// SPDX-License-Identifier: Apache-2.0
// Iterators over contiguous arrays for Thrust and the standard algorithms:
//
//   xf::begin(a), xf::end(a)   thrust::device_ptr<T> for device arrays (Thrust runs on the device),
//                              T* for host arrays; C order. Views that are not C-contiguous throw
//                              xf::error (make one with .copy()).
//
//   thrust::sort(xf::begin(d), xf::end(d));        // device array, sorted in place (nvcc)
//   thrust::sort(thrust::cuda::par.on(xf::current_stream().handle()), xf::begin(d), xf::end(d));
//   std::sort(xf::begin(h), xf::end(h));           // host array
//
// Thrust without an execution policy runs on the legacy default stream, which is ordered with
// xfuse's default (the per-thread default stream) but not with an xf::stream created non_blocking:
// under an xf::stream_guard, pass the stream (thrust::cuda::par.on(s.handle())).
#pragma once

#include <string>

#include <thrust/device_ptr.h>

#include "../array/array.hpp"

namespace xf {
namespace detail {

template <class T, int R, class Space>
void require_contiguous(const array<T, R, Space>& a, const char* op) {
  if (!a.is_contiguous())
    throw error(std::string(op) + ": the array (shape " + to_string(a.shape()) + ", strides " + to_string(a.strides()) +
                ") is not C-contiguous, so no pointer walks it in order; iterate over a.copy()");
}

}  // namespace detail

// Declared in a namespace of their own that xf names with a using-directive: `xf::begin(a)` finds
// them, argument-dependent lookup does not (it ignores using-directives), so range-for, std::ranges
// and libraries that detect ranges by an unqualified begin(x) (Catch2, fmt) do not take arrays for
// ranges, which strided and device arrays are not. `using namespace xf;` then `begin(v)` on a
// std::vector still picks std::begin.
namespace iteration {

// A pointer to a's first element: thrust::device_ptr<T> for device arrays, T* for host arrays.
template <element T, int R>
thrust::device_ptr<T> begin(const array<T, R, device>& a) {
  detail::require_contiguous(a, "xf::begin");
  return thrust::device_pointer_cast(a.data());
}
template <element T, int R>
T* begin(const array<T, R, host>& a) {
  detail::require_contiguous(a, "xf::begin");
  return a.data();
}

// One past a's last element (C order).
template <element T, int R>
thrust::device_ptr<T> end(const array<T, R, device>& a) {
  detail::require_contiguous(a, "xf::end");
  return thrust::device_pointer_cast(a.data() + a.size());
}
template <element T, int R>
T* end(const array<T, R, host>& a) {
  detail::require_contiguous(a, "xf::end");
  return a.data() + a.size();
}

// Expressions have no memory to walk (arrays take the overloads above: they are more specialised).
template <expression E>
void begin(const E&) {
  static_assert(detail::always_false<E>, "xf::begin takes an xf::array; materialise an expression first (xf::eval(e))");
}
template <expression E>
void end(const E&) {
  static_assert(detail::always_false<E>, "xf::end takes an xf::array; materialise an expression first (xf::eval(e))");
}

}  // namespace iteration

using namespace iteration;

}  // namespace xf
