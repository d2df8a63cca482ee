// SPDX-License-Identifier: Apache-2.0
// mdspan: an array seen as a cuda::std::mdspan (libcu++, usable in device and host code), and an
// mdspan seen as an array.
//
//   xf::as_mdspan(a)               xf::strided_mdspan<T, R>: a's data pointer, extents and strides
//                                  (layout_stride). Non-owning: valid while a handle to a's buffer
//                                  lives. Pass it by value to a kernel of your own.
//   xf::from_mdspan<Space>(m)      an array over m's memory (no copy, non-owning unless a keep-alive
//                                  is given): the memory must outlive every handle, view and
//                                  expression made from the array.
//
// layout_stride takes positive strides and a one-to-one mapping only: as_mdspan throws xf::error
// for views with a negative stride (flip, slices with negative steps) or a zero stride along an
// extent above 1 (broadcast_to); .copy() such views first. Strides of extent-1 dimensions are
// reported as 1, and an empty array gets C strides (no element can be reached either way).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include <cuda/std/mdspan>

#include "../array/array.hpp"

namespace xf {

// The mdspan type of an array of rank R: dynamic extents, strides in elements.
template <class T, int R>
using strided_mdspan =
    cuda::std::mdspan<T, cuda::std::dextents<index_t, static_cast<std::size_t>(R)>, cuda::std::layout_stride>;

namespace detail {

// The strides layout_stride accepts for this shape and strides, or an xf::error saying why none.
template <int R>
dims<R> mdspan_strides(const dims<R>& shape, const dims<R>& strides) {
  if (product(shape) == 0) {
    dims<R> ones = shape;
    for (auto& e : ones) e = e > 0 ? e : 1;
    return c_strides(ones);
  }
  dims<R> s = strides;
  int order[R > 0 ? R : 1];
  int n = 0;
  for (int d = 0; d < R; ++d) {
    if (shape[d] == 1) {
      s[d] = 1;
      continue;
    }
    if (strides[d] <= 0)
      throw error(std::string("xf::as_mdspan: cuda::std::layout_stride takes positive strides only, and this view "
                              "has strides ") +
                  to_string(strides) + " for shape " + to_string(shape) + " (" +
                  (strides[d] < 0 ? "a negative stride: a flipped view or a slice with a negative step"
                                  : "a zero stride: a broadcast view") +
                  "); make a copy with .copy() first");
    order[n++] = d;
  }
  // Walking the dimensions by increasing stride, each stride must pass the span of the previous
  // one: layout_stride's condition for a one-to-one mapping. Views whose dimensions interleave
  // fail it (a slice with a step wider than the row it steps through), even where no element is
  // reached twice.
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && s[order[j]] < s[order[j - 1]]; --j) std::swap(order[j], order[j - 1]);
  for (int i = 1; i < n; ++i)
    if (s[order[i]] < s[order[i - 1]] * shape[order[i - 1]])
      throw error("xf::as_mdspan: the strides " + to_string(strides) + " of shape " + to_string(shape) +
                  " interleave (a stride below the span of a smaller-stride dimension), which cuda::std::layout_stride "
                  "does not allow; make a copy with .copy() first");
  return s;
}

template <class I>
constexpr bool fits_index(I v) {
  if constexpr (std::is_unsigned_v<I>)
    return v <= static_cast<std::make_unsigned_t<index_t>>(std::numeric_limits<index_t>::max());
  else return true;  // signed index types have at most 64 bits
}

}  // namespace detail

// The array as a cuda::std::mdspan over its memory (device memory for device arrays: read it in
// device code only). m(i, j) or m[cuda::std::array{i, j}] is element (i, j); m.stride(d) counts elements.
template <element T, int R, class Space>
strided_mdspan<T, R> as_mdspan(const array<T, R, Space>& a) {
  using M = strided_mdspan<T, R>;
  const dims<R> s = detail::mdspan_strides<R>(a.shape(), a.strides());
  cuda::std::array<index_t, static_cast<std::size_t>(R)> ext{}, str{};
  for (int d = 0; d < R; ++d) {
    ext[d] = a.shape()[d];
    str[d] = s[d];
  }
  const typename M::extents_type e(ext);
  return M(a.data(), typename M::mapping_type(e, str));
}

// An array over an mdspan's memory, without copying: layout_right, layout_left, layout_stride (any
// strided layout) with static or dynamic extents, and an accessor whose handle is a plain T*.
// Space says where the memory is (the default, xf::device, is checked with
// cudaPointerGetAttributes: host memory throws xf::device_error). The array does not own the
// memory; `keep_alive` (any movable object, e.g. the std::shared_ptr that owns it) is held until
// the last handle goes. An empty device mdspan gives a new empty array.
template <class Space = device, class T, class Extents, class Layout, class Accessor,
          class KeepAlive = std::nullptr_t>
auto from_mdspan(const cuda::std::mdspan<T, Extents, Layout, Accessor>& m, KeepAlive keep_alive = nullptr) {
  static_assert(!std::is_const_v<T>, "xf::from_mdspan: xfuse arrays are writable; pass an mdspan of non-const T");
  static_assert(element<T>, "xf::from_mdspan: the mdspan's element type is not an xfuse element type");
  static_assert(std::is_same_v<typename Accessor::data_handle_type, T*> &&
                    std::is_same_v<typename Accessor::reference, T&>,
                "xf::from_mdspan: the accessor must read a plain T* (cuda::std::default_accessor)");
  static_assert(Layout::template mapping<Extents>::is_always_strided(),
                "xf::from_mdspan: the layout must be strided (layout_right, layout_left, layout_stride)");
  static_assert(std::is_same_v<Space, device> || std::is_same_v<Space, host>,
                "xf::from_mdspan: the space is xf::device or xf::host");
  constexpr int R = static_cast<int>(Extents::rank());
  dims<R> shape{}, strides{};
  for (int d = 0; d < R; ++d) {
    const auto e = m.extent(static_cast<std::size_t>(d));
    const auto s = m.stride(static_cast<std::size_t>(d));
    if (!detail::fits_index(e) || !detail::fits_index(s))
      throw shape_error("xf::from_mdspan: an extent or a stride does not fit xf::index_t");
    shape[d] = static_cast<index_t>(e);
    strides[d] = static_cast<index_t>(s);
  }
  const index_t count = detail::checked_size(shape, sizeof(T), "xf::from_mdspan");
  if constexpr (std::is_same_v<Space, device>) {
    if (count == 0) return array<T, R, Space>(shape);
  }
  return array<T, R, Space>::wrap(m.data_handle(), shape, strides, std::move(keep_alive));
}

}  // namespace xf
