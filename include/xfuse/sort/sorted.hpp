// SPDX-License-Identifier: Apache-2.0
// xf::sort's result, described (exec/producer.hpp): written into an array, the sort writes straight
// into it. On the device, CUB's radix sort reads the input array and writes the destination (no
// keys made, no result array, no copy) when the destination is C-ordered and of the input's type
// and the lines are along the last axis; an expression is first written into the destination (one
// fused pass) and sorted there. Any other destination (strided, transposed, another type) or axis
// takes the lines sorted in a C-ordered array, written through one fused pass. Used in an
// element-wise expression, the sort runs into a fresh array that the expression reads (CUB's sort
// takes no epilogue).
//
// Order, as NumPy's stable sort (np.sort(kind="stable")): NaNs last, -0.0 and +0.0 equal (they
// keep their input order), every other value by value.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <type_traits>

#include "../exec/as_array.hpp"
#include "../exec/produced.hpp"
#include "../exec/layout.hpp"
#include "device.cuh"
#include "lines.hpp"
#include "../base/nvtx_emit.hpp"

namespace xf::detail {

// The order of xf::sort on the host: NaN after every number, -0.0 == +0.0.
struct sort_less {
  template <class V>
  bool operator()(const V& a, const V& b) const {
    if constexpr (std::is_integral_v<V>) {
      return a < b;
    } else {
      const double x = convert<double>(a), y = convert<double>(b);
      return y != y ? x == x : x < y;
    }
  }
};

#if XF_CUDA_TU
// Sorts the `lines` C-ordered lines of n values of `out` in place, or from `from` (a C-ordered
// array of the same shape that out does not overlap) into out, in stream order.
template <class V>
void sort_device_lines(V* out, const V* from, index_t n, index_t lines, cudaStream_t stream) {
  constexpr int bits = std::is_same_v<V, bool> ? 1 : static_cast<int>(8 * sizeof(V));
  constexpr bool floating = !std::is_integral_v<V>;
  std::pair<buffer, std::size_t> temp;
  buffer other;  // an in-place sort's second buffer, then the NaN fix-up's scratch
  std::size_t other_bytes = static_cast<std::size_t>(n * lines) * sizeof(V);
  V* both[2] = {out, nullptr};
  if (!from) {
    if constexpr (floating) other_bytes = nans_last_bytes<V>(n, lines);
    other = allocate_device(other_bytes);
    both[1] = static_cast<V*>(other.get());
  }
  if (radix_sort_lines<false>(both, nullptr, n, lines, bits, stream, from, &temp) == 1)
    XF_CUDA_CHECK(cudaMemcpyAsync(out, both[1], static_cast<std::size_t>(n * lines) * sizeof(V), cudaMemcpyDeviceToDevice, stream));
  if constexpr (floating) {
    if (from) nans_last(out, n, lines, temp.first.get(), temp.second, stream);
    else nans_last(out, n, lines, other.get(), other_bytes, stream);
  }
}
#endif

// The lines of the array `a` along its last axis, sorted into `dst` (its shape, C-ordered, V).
template <class V, int R, class S>
void sort_c_ordered(const array<V, R, S>& dst, const array<V, R, S>& a) {
  const index_t n = a.shape()[R - 1], lines = a.size() / n;
  if constexpr (std::is_same_v<S, device>) {
    static_assert(cuda_tu || always_false<V>, "xfuse: sorting device arrays launches CUDA kernels; compile this file with nvcc");
#if XF_CUDA_TU
    const cudaStream_t stream = current_slot(dst.device_id()).handle;
    const byte_range written = range_of<R>(dst.data(), sizeof(V), dst.shape(), dst.strides().data(), 0);
    const bool identical = a.data() == dst.data() && a.is_contiguous();
    const bool apart = a.is_contiguous() && a.device_id() == dst.device_id() &&
                       !range_of<R>(a.data(), sizeof(V), a.shape(), a.strides().data(), 0).overlaps(written);
    if (!identical && !apart) dst.assign(a);  // a view, or overlapping: one fused pass first
    sort_device_lines(dst.data(), apart ? a.data() : nullptr, n, lines, stream);
#endif
  } else {
    if (a.data() != dst.data() || !a.is_contiguous()) dst.assign(a);
    for (index_t at = 0; at < dst.size(); at += n) std::stable_sort(dst.data() + at, dst.data() + at + n, sort_less{});
  }
}

// e sorted along `axis` (valid) into dst, of e's shape.
template <class T, int R, class S, class E>
void sort_into(const array<T, R, S>& dst, const E& e, int axis) {
  using V = value_t<E>;
  const nvtx_range range("xf::sort");
  if (dst.size() == 0) return;
  if constexpr (std::is_same_v<T, V>) {
    if (axis == R - 1 && dst.is_contiguous()) return sort_c_ordered(dst, as_array(e));
  }
  // Any other destination or axis: the lines, moved last, sorted in a C-ordered array, written
  // back through the inverse view.
  const auto moved = as_array(e).transpose(axis_last_order<R>(axis));
  const array<V, R, S> lines(moved.shape());
  sort_c_ordered(lines, as_array(moved));
  dst.assign(lines.transpose(axis_last_inverse<R>(axis)));
}

template <class E>
struct sorted_values : produced_result<sorted_values<E>> {
  using value_type = value_t<E>;
  using space = resolved_space_t<space_t<E>>;
  static constexpr int rank = rank_v<E>;
  using result_type = array<value_type, rank, space>;

  E expr;  // arrays are shared handles: the description keeps its input alive
  int axis;
  std::shared_ptr<produced_state<result_type>> state = std::make_shared<produced_state<result_type>>();

  dims<rank> shape() const { return expr.shape(); }
  void compute(result_type& r) const { sort_into(r, expr, axis); }
  // Written alone into an array of its shape: straight from the sort. In an expression: false (the
  // expression reads the result).
  template <class T, int R, class S, class C>
  bool xf_feed(const array<T, R, S>& dst, const C& e, const char*) const {
    if constexpr (std::is_same_v<C, sorted_values> && std::is_same_v<S, space> && R == rank) {
      if (e.state != state || state->value || dst.shape() != shape()) return false;
      sort_into(dst, expr, axis);
      state->consumed = true;
      return true;
    } else {
      return false;
    }
  }
};

}  // namespace xf::detail
