// SPDX-License-Identifier: Apache-2.0
// Integer-array indexing: take (a gather along an axis, or of the flattened array) and put (a
// scatter into the flattened array), with NumPy's modes: "raise" (the default), "wrap", "clip".
//
// take is one fused kernel: the result's elements are xf::map of an index leaf and a generator
// whose position is the memory offset of the source element without the taken axis. put runs one
// small scatter kernel (nothing element-wise fits a scatter). In "raise" mode the indices are
// checked first, by one reduction (the first bad index in C order) and one host read of its
// result: on device arrays this waits for the current stream. An error leaves every array as it was.
#pragma once

#include <string>
#include <string_view>

#include "../reduce/reductions.hpp"
#include "../user/launch.hpp"
#include "../user/map.hpp"
#include "views.hpp"

namespace xf {
namespace detail {

enum class index_mode : int { raise, wrap, clip };

inline index_mode parse_index_mode(std::string_view mode, const char* op) {
  if (mode == "raise") return index_mode::raise;
  if (mode == "wrap") return index_mode::wrap;
  if (mode == "clip") return index_mode::clip;
  throw error(std::string(op) + ": mode must be \"raise\", \"wrap\" or \"clip\", got \"" + std::string(mode) + "\"");
}

// Index v along an axis of extent n > 0, in [0, n). "raise" indices were checked: negative ones
// count from the end. "clip" does not count negative indices from the end (NumPy's rule).
template <class I>
XF_HD XF_FORCEINLINE index_t resolve_mode(const I& v, index_t n, index_mode mode) {
  if constexpr (std::is_unsigned_v<I>) {
    const auto u = static_cast<std::uint64_t>(v);
    if (u < static_cast<std::uint64_t>(n)) return static_cast<index_t>(u);
    return mode == index_mode::wrap ? static_cast<index_t>(u % static_cast<std::uint64_t>(n)) : n - 1;
  } else {
    const auto i = static_cast<index_t>(v);
    if (mode == index_mode::wrap) {
      const index_t r = i % n;
      return r < 0 ? r + n : r;
    }
    if (mode == index_mode::clip) return i < 0 ? 0 : (i >= n ? n - 1 : i);
    return i < 0 ? i + n : i;
  }
}

template <class I>
XF_HD XF_FORCEINLINE bool out_of_bounds(const I& v, index_t n) {
  if constexpr (std::is_unsigned_v<I>) return static_cast<std::uint64_t>(v) >= static_cast<std::uint64_t>(n);
  else return static_cast<index_t>(v) < -n || static_cast<index_t>(v) >= n;
}

// The C-order position of the first index outside [-n, n), or -1 (a reduction: one pass).
template <class I>
struct first_out_of_bounds {
  using acc_type = index_t;
  using out_type = std::int64_t;
  index_t n;
  XF_HD static index_t identity() { return -1; }
  XF_HD XF_FORCEINLINE index_t map(const I& v, index_t i) const { return out_of_bounds(v, n) ? i : -1; }
  XF_HD XF_FORCEINLINE index_t combine(index_t a, index_t b) const { return a < 0 ? b : (b < 0 || a < b ? a : b); }
  XF_HD std::int64_t finish(index_t a, index_t) const { return a; }
};

template <class I>
constexpr void check_index_type() {
  static_assert(is_integer<I>, "xf::take/put: the indices must be an array of integers (not bool or floats)");
}

template <class I>
std::string index_text(const I& v) {
  if constexpr (std::is_unsigned_v<I>) return std::to_string(static_cast<unsigned long long>(v));
  else return std::to_string(static_cast<long long>(v));
}

// Mode "raise": throws xf::index_error naming the first bad index, the axis (-1: the flattened
// array) and its extent. One reduction and one host read.
template <class I, int RI, class S>
void check_indices(const array<I, RI, S>& idx, index_t n, int axis, const char* op) {
  if (idx.size() == 0) return;
  const index_t bad = reduce_all<false>(idx, first_out_of_bounds<I>{n}, op).item();
  if (bad < 0) return;
  const I v = to_host(idx)[static_cast<std::size_t>(bad)];
  throw index_error(std::string(op) + ": index " + index_text(v) + " is out of bounds for " +
                    (axis >= 0 ? "axis " + std::to_string(axis) + " with size " : std::string("size ")) + std::to_string(n));
}

// Element `offset + index * stride` of the source; offset comes from a generator leaf.
template <class T, class I>
struct take_element {
  const T* data;
  index_t stride, n;
  index_mode mode;
  XF_HD XF_FORCEINLINE T operator()(index_t offset, const I& i) const { return data[offset + resolve_mode(i, n, mode) * stride]; }
};

// take along `axis` (normalised) without checks: one fused kernel.
template <class T, int R, class S, class I, int RI>
array<T, R - 1 + RI, S> take_unchecked(const array<T, R, S>& a, const array<I, RI, S>& idx, int axis, index_mode mode,
                                       const char* op) {
  constexpr int RO = R - 1 + RI;
  dims<RO> shape{}, offset_strides{}, idx_shape{};
  for (int d = 0; d < RO; ++d) {
    const bool taken = d >= axis && d < axis + RI;
    const int src = d < axis ? d : d - RI + 1;
    shape[d] = taken ? idx.shape()[d - axis] : a.shape()[src];
    offset_strides[d] = taken ? 0 : a.strides()[src];
    idx_shape[d] = taken ? shape[d] : 1;
  }
  array<T, RO, S> out(shape);
  if (out.size() == 0) return out;
  const index_t n = a.shape()[axis];
  if (n == 0)
    throw index_error(std::string(op) + ": cannot do a non-empty take from an empty axis (axis " + std::to_string(axis) +
                      " of shape " + to_string(a.shape()) + ")");
  require_access(a.device_id(), op);  // the source is read through a pointer, not as a leaf
  const generator_node<arange_leaf<index_t>, RO> offsets(arange_leaf<index_t>{0.0, 1.0, 0, 1}, shape, offset_strides);
  evaluate_into(out, map(take_element<T, I>{a.data(), a.strides()[axis], n, mode}, offsets, idx.reshape(idx_shape)), op);
  return out;
}

// One thread per index: a.flat[indices[k]] = values[k % nv] (put's scatter).
template <class T, int R, class I, class V>
struct put_scatter {
  T* data;
  index_t extent[R > 0 ? R : 1], stride[R > 0 ? R : 1];
  const I* idx;
  const V* values;
  index_t count, nv, n;
  index_mode mode;
  XF_HD XF_FORCEINLINE void operator()(index_t k) const {
    index_t flat = resolve_mode(idx[k], n, mode), off = 0;
    for (int d = R - 1; d >= 0; --d) {
      off += flat % extent[d] * stride[d];
      flat /= extent[d];
    }
    data[off] = convert<T>(values[k % nv]);
  }
};

// One thread per selected element: a[..., idx[...], ...] = values[k] (a(idx) = v's scatter).
// The selection's axes are a's with the indexed one replaced by idx's, [first, first + RI).
template <class T, class I, int RO>
struct index_scatter {
  static constexpr int slots = RO > 0 ? RO : 1;
  T* data;
  const T* values;  // the selection's values, C-ordered
  const I* idx;     // C-ordered
  index_t count;    // elements of the selection
  index_t n, axis_stride;  // the indexed axis of `a`
  fast_divmod extent[slots];
  index_t stride[slots];      // a's stride for the selection's axis (0 on idx's axes)
  index_t idx_stride[slots];  // idx's stride for it (0 elsewhere)
  XF_HD XF_FORCEINLINE void operator()(index_t k) const {
    index_t rest = k, off = 0, at = 0;
    for (int d = RO - 1; d >= 0; --d) {
      const index_t q = extent[d].div(rest), c = rest - q * static_cast<index_t>(extent[d].divisor);
      rest = q;
      off += c * stride[d];
      at += c * idx_stride[d];
    }
    data[off + resolve_mode(idx[at], n, index_mode::raise) * axis_stride] = values[k];
  }
};

#if XF_CUDA_TU
template <class Scatter>
__global__ void put_kernel(Scatter s) {
  const index_t step = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t k = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < s.count; k += step) s(k);
}
#endif

// Runs a scatter (put's, a(idx) = v's): one thread per element on the device, a loop on the host.
template <class Scatter, class S>
void run_scatter(const Scatter& s) {
  if constexpr (std::is_same_v<S, device>) {
    static_assert(cuda_tu || always_false<Scatter>, "xfuse: writing device arrays through indices launches a CUDA kernel; compile this file with nvcc");
#if XF_CUDA_TU
    const index_t blocks = (s.count + 255) / 256;
    launch(dim3(static_cast<unsigned>(blocks < 65536 ? blocks : 65536)), dim3(256), &put_kernel<Scatter>, s);
#endif
  } else {
    for (index_t k = 0; k < s.count; ++k) s(k);
  }
}

template <class T, int R, class S>
void refuse_repeating_destination(const array<T, R, S>& a, const char* op) {
  for (int d = 0; d < R; ++d)
    if (a.strides()[d] == 0 && a.shape()[d] > 1)
      throw shape_error(std::string(op) + ": the destination repeats elements (a broadcast view of shape " +
                        to_string(a.shape()) + "); write into a copy");
}

// Writes `values`, broadcast to the selection's `shape`, through the prepared scatter `s` (its
// layout set; its destination on `destination_device`) whose indices `idx` index `axis`: the indices are checked,
// then the values and indices are copied into memory of their own (either may read what the
// scatter writes), then one scatter runs.
template <class T, class I, int RO, class S, int RI, class V>
void scatter_selection(index_scatter<T, I, RO> s, int destination_device, const dims<RO>& shape, const array<I, RI, S>& idx,
                       int axis, const V& values, const char* op) {
  if constexpr (expression<V>)
    static_assert(same_kind_castable<value_t<V>, T>, "xfuse: the values written through indices would go down a kind (NumPy's same_kind rule, e.g. float into int); write .astype<T>() to ask for it");
  s.count = product(shape);
  if (s.count == 0) return;
  check_indices(idx, s.n, axis, op);
  array<T, RO, S> own_values(shape);
  if constexpr (expression<V>) own_values.assign(values);
  else own_values.assign(convert<T>(values));
  const array<I, RI, S> own_idx = idx.copy();
  s.values = own_values.data();
  s.idx = own_idx.data();
  require_access(idx.device_id(), op);
  require_access(destination_device, op);
  run_scatter<decltype(s), S>(s);
}

template <class T, int R, class S, class I, int RI>
array<T, R - 1 + RI, S> gather_by_index(const array<T, R, S>& a, const array<I, RI, S>& idx, int axis, const char* op) {
  check_indices(idx, a.shape()[axis], axis, op);
  return take_unchecked(a, idx, axis, index_mode::raise, op);
}

template <class T, int R, class S, class I, int RI, class V>
void scatter_by_index(const array<T, R, S>& a, const array<I, RI, S>& idx, int axis, const V& values, const char* op) {
  constexpr int RO = R - 1 + RI;
  refuse_repeating_destination(a, op);
  dims<RO> shape{};
  index_scatter<T, I, RO> s{a.data(), nullptr, nullptr, 0, a.shape()[axis], a.strides()[axis], {}, {}, {}};
  const auto idx_strides = c_strides(idx.shape());
  for (int d = 0; d < RO; ++d) {
    const bool taken = d >= axis && d < axis + RI;
    shape[d] = taken ? idx.shape()[d - axis] : a.shape()[d < axis ? d : d - RI + 1];
    s.extent[d] = fast_divmod(shape[d] > 0 ? shape[d] : 1);
    s.stride[d] = taken ? 0 : a.strides()[d < axis ? d : d - RI + 1];
    s.idx_stride[d] = taken ? idx_strides[d - axis] : 0;
  }
  scatter_selection(s, a.device_id(), shape, idx, axis, values, op);
}

}  // namespace detail

// NumPy's take(a, indices, axis, mode): the elements of `a` at `indices` (an integer array of any
// rank) along `axis`; the result's shape is a.shape[:axis] + indices.shape + a.shape[axis + 1:].
template <element T, int R, class S, class I, int RI>
array<T, R - 1 + RI, S> take(const array<T, R, S>& a, const array<I, RI, S>& indices, int axis,
                             std::string_view mode = "raise") {
  static_assert(R >= 1, "xf::take: a 0-d array has no axis to take along");
  detail::check_index_type<I>();
  const auto m = detail::parse_index_mode(mode, "xf::take");
  axis = detail::normalize_axis_of(axis, a.shape(), "xf::take");
  if (m == detail::index_mode::raise) detail::check_indices(indices, a.shape()[axis], axis, "xf::take");
  return detail::take_unchecked(a, indices, axis, m, "xf::take");
}
// Without an axis: indices into the flattened array (a view of it where the strides allow).
template <element T, int R, class S, class I, int RI>
array<T, RI, S> take(const array<T, R, S>& a, const array<I, RI, S>& indices, std::string_view mode = "raise") {
  detail::check_index_type<I>();
  const auto m = detail::parse_index_mode(mode, "xf::take");
  if (m == detail::index_mode::raise) detail::check_indices(indices, a.size(), -1, "xf::take");
  return detail::take_unchecked(a.ravel(), indices, 0, m, "xf::take");
}

// NumPy's put(a, indices, values, mode): a.flat[indices[k]] = values.flat[k % values.size()], in
// place (`a` may be any writable view). Values convert to a's type (NumPy's same_kind rule). A
// repeated index gets one of its values: on the device which one is unspecified (NumPy: the last).
template <element T, int R, class S, class I, int RI, element V, int RV>
void put(const array<T, R, S>& a, const array<I, RI, S>& indices, const array<V, RV, S>& values,
         std::string_view mode = "raise") {
  constexpr const char* op = "xf::put";
  detail::check_index_type<I>();
  static_assert(detail::same_kind_castable<V, T>, "xf::put: the values would go down a kind (e.g. float into int); cast them with .astype<T>()");
  const auto m = detail::parse_index_mode(mode, op);
  detail::refuse_repeating_destination(a, op);
  if (indices.size() == 0 || values.size() == 0) return;
  if (a.size() == 0)
    throw index_error(std::string(op) + ": cannot put into an empty array (shape " + to_string(a.shape()) + ")");
  if (m == detail::index_mode::raise) detail::check_indices(indices, a.size(), -1, op);
  // Contiguous copies of the inputs where needed, also when they share a's memory (NumPy's result).
  auto own = [&](const auto& x) {
    const bool shared = x.buffer().get() != nullptr && x.buffer().get() == a.buffer().get();
    return atleast_1d(shared || !x.is_contiguous() ? x.copy() : x);
  };
  const auto idx = own(indices);
  const auto val = own(values);
  detail::put_scatter<T, R, I, V> s{a.data(), {}, {}, idx.data(), val.data(), idx.size(), val.size(), a.size(), m};
  for (int d = 0; d < R; ++d) s.extent[d] = a.shape()[d], s.stride[d] = a.strides()[d];
  detail::require_access(a.device_id(), op);
  detail::run_scatter<decltype(s), S>(s);
}
// A scalar value for every index.
template <element T, int R, class S, class I, int RI, class V>
  requires weak_scalar<V>
void put(const array<T, R, S>& a, const array<I, RI, S>& indices, const V& value, std::string_view mode = "raise") {
  const array<T, 1, S> one = full<T>(dims<1>{1}, detail::convert<T>(value));
  put(a, indices, one, mode);
}

}  // namespace xf
