// SPDX-License-Identifier: Apache-2.0
// xf::launch: runs a user __global__ function (the counterpart of CuPy's RawKernel) on the
// current stream, passing arrays as xf::view: a device-copyable view that knows its shape and
// strides. Other arguments are passed as they are.
//
//   __global__ void scale(xf::view<float, 2> a, float s) { ... a(i, j) *= s; }
//   xf::launch(grid, block, scale, a, 2.0f);
#pragma once

#include <tuple>
#include <utility>

#include "../array/array.hpp"

namespace xf {

// An array as a kernel sees it: a pointer, extents and strides (in elements).
template <class T, int R>
struct view {
  T* data;
  index_t shape[R > 0 ? R : 1];
  index_t strides[R > 0 ? R : 1];

  template <class... I>
    requires(sizeof...(I) == R)
  XF_HD XF_FORCEINLINE T& operator()(I... i) const {
    const index_t idx[] = {static_cast<index_t>(i)..., 0};
    index_t off = 0;
#pragma unroll
    for (int d = 0; d < R; ++d) off += idx[d] * strides[d];
    return data[off];
  }
  XF_HD index_t size() const {
    index_t n = 1;
    for (int d = 0; d < R; ++d) n *= shape[d];
    return n;
  }
  XF_HD index_t extent(int d) const { return shape[d]; }

  // A view of mutable elements also serves where a view of const elements is wanted.
  template <class U = T>
    requires(!std::is_const_v<U>)
  XF_HD operator view<const U, R>() const {
    view<const T, R> v{data, {}, {}};
    for (int d = 0; d < R; ++d) {
      v.shape[d] = shape[d];
      v.strides[d] = strides[d];
    }
    return v;
  }
};

template <class T, int R>
view<T, R> make_view(const array<T, R, device>& a) {
  view<T, R> v{a.data(), {}, {}};
  for (int d = 0; d < R; ++d) {
    v.shape[d] = a.shape()[d];
    v.strides[d] = a.strides()[d];
  }
  return v;
}

namespace detail {
template <class P, class A>
P kernel_argument(const A& a) {
  if constexpr (requires { make_view(a); }) {
    require_access(a.device_id(), "xf::launch");
    return static_cast<P>(make_view(a));
  } else {
    return static_cast<P>(a);
  }
}

template <class... P, class... A, std::size_t... I>
void launch_impl(dim3 grid, dim3 block, std::size_t shared_bytes, void (*kernel)(P...), std::index_sequence<I...>,
                 const A&... args) {
  // Each argument converted to the kernel's parameter type, then passed by address.
  std::tuple<std::remove_cvref_t<P>...> converted{kernel_argument<std::remove_cvref_t<P>>(args)...};
  void* pointers[] = {static_cast<void*>(&std::get<I>(converted))..., nullptr};
  XF_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, pointers, shared_bytes,
                                 current_slot().handle));
}
}  // namespace detail

// Launches kernel<<<grid, block, shared_bytes, current stream>>>(args...) with arrays as views.
template <class... P, class... A>
  requires(sizeof...(P) == sizeof...(A))
void launch(dim3 grid, dim3 block, std::size_t shared_bytes, void (*kernel)(P...), const A&... args) {
  detail::launch_impl(grid, block, shared_bytes, kernel, std::index_sequence_for<P...>{}, args...);
}
template <class... P, class... A>
  requires(sizeof...(P) == sizeof...(A))
void launch(dim3 grid, dim3 block, void (*kernel)(P...), const A&... args) {
  detail::launch_impl(grid, block, 0, kernel, std::index_sequence_for<P...>{}, args...);
}

}  // namespace xf
