// SPDX-License-Identifier: Apache-2.0
// Boolean-mask indexing (a(mask), array/masked.hpp) and NumPy's extract, place and putmask.
//
// Reading a(mask) counts the selected elements (one reduction of the mask and one host read: the
// result's length is data), then compacts them: on the device one cub::DeviceSelect::Flagged pass
// that reads the mask expression and a's values as CUB loads them (mask_kernel.cuh), on the host
// one loop. Writing is element-wise over `a`: a[mask] = v with v broadcasting without the count
// axis is one fused kernel, where(mask, v, a), with no count and no host read; one value per
// selected element in order adds a running count of the mask (the value's row for each element)
// and reads its last entry on the host to check v's length.
#pragma once

#include <cstdint>
#include <string>

#include "../reduce/reductions.hpp"
#include "../scan/scans.hpp"
#include "../user/map.hpp"
#include "index.hpp"
#include "mask_kernel.cuh"
#include "select.hpp"
#include "views.hpp"

namespace xf {
namespace detail {

template <class T, int R, class M>
void check_mask_shape(const dims<R>& shape, const M& mask, const char* op) {
  constexpr int K = rank_v<M>;
  const auto ms = mask.shape();
  for (int d = 0; d < K; ++d)
    if (ms[d] != shape[d])
      throw index_error(std::string(op) + ": the boolean mask of shape " + to_string(ms) + " does not match the " +
                        std::string(dtype_name<T>) + " array of shape " + to_string(shape) + " along axis " +
                        std::to_string(d) + " (" + std::to_string(shape[d]) + " vs " + std::to_string(ms[d]) +
                        "); a mask has the array's leading extents");
}

// The mask in the array's space: itself, or the values of a mask that has none (xf::ones<bool>).
template <class S, class M>
auto mask_in(const M& mask) {
  static_assert(std::is_same_v<space_t<M>, any_space> || std::is_same_v<space_t<M>, S>,
                "xf::array(mask): the mask lives in another space (host vs device) than the array");
  if constexpr (std::is_same_v<space_t<M>, S>) return mask;
  else return array<bool, rank_v<M>, S>(mask);
}

// The mask as an operand of a's shape: itself (K = R) or a bool array of its values with a's
// trailing axes as extents of 1 (K < R; one small kernel).
template <int R, class S, class M>
auto mask_over(const M& mask) {
  constexpr int K = rank_v<M>;
  if constexpr (K == R) {
    return mask;
  } else {
    const array<bool, K, S> values(mask);
    dims<R> shape{};
    for (int d = 0; d < R; ++d) shape[d] = d < K ? values.shape()[d] : 1;
    return values.reshape(shape);
  }
}

// putmask: a's flat element i takes values[i % n] where selected.
template <class T, class V>
struct cyclic_by_position {
  const V* values;
  index_t n;
  XF_HD XF_FORCEINLINE T operator()(index_t i, bool selected, const T& current) const {
    return selected ? convert<T>(values[i % n]) : current;
  }
};

// place: the j-th selected element takes values[j % n] (counts: the mask's inclusive running count).
template <class T, class V>
struct cyclic_in_selection_order {
  const std::int64_t* counts;
  const V* values;
  index_t n;
  XF_HD XF_FORCEINLINE T operator()(index_t i, bool selected, const T& current) const {
    return selected ? convert<T>(values[(counts[i] - 1) % n]) : current;
  }
};

// a[mask] = v for a's flat element i (C order), v one row per selected element: the running count
// of the mask at i's row, less one, is the row of v.
template <class T, class V>
struct value_in_selection_order {
  const std::int64_t* counts;  // inclusive running count of the flattened mask
  const V* values;             // (count, row) C-ordered
  fast_divmod row;             // elements of `a` per mask element: product(a.shape[K:])
  XF_HD XF_FORCEINLINE T operator()(index_t i, bool selected, const T& current) const {
    if (!selected) return current;
    const index_t r = row.div(i);
    const index_t rank_among_selected = counts[r] - 1;
    return convert<T>(values[rank_among_selected * static_cast<index_t>(row.divisor) + (i - r * static_cast<index_t>(row.divisor))]);
  }
};

// The selection's shape (count,) + a.shape[K:] with the count still 0.
template <int RO, int R>
dims<RO> selection_shape(const dims<R>& shape) {
  dims<RO> out{};
  for (int d = 1; d < RO; ++d) out[d] = shape[R - RO + d];
  return out;
}

template <class T, int R, class S, class M>
array<T, R - rank_v<M> + 1, S> select_by_mask(const array<T, R, S>& a, const M& any_mask, const char* op) {
  constexpr int K = rank_v<M>, RO = R - K + 1;
  const auto mask = mask_in<S>(any_mask);
  auto shape = selection_shape<RO, R>(a.shape());
  shape[0] = 1;
  const index_t row_length = product(shape);  // elements of `a` per mask element
  const index_t mask_size = product(mask.shape());
  const auto values = a.is_contiguous() ? a : a.copy();
  if constexpr (std::is_same_v<S, device>) {
    static_assert(cuda_tu || always_false<M>, "xfuse: a(mask) on device arrays launches CUDA kernels; compile this file with nvcc");
    shape[0] = mask_size > 0 ? count_nonzero(mask).item() : 0;  // the host read
    array<T, RO, S> out(shape);
#if XF_CUDA_TU
    if (out.size() == 0) return out;
    require_access(values.device_id(), op);
    select_flagged_device(values.data(), mask, row_length, values.size(), out.data(), op);
#endif
    return out;
  } else {
    const array<bool, K, host> flags(mask);
    const bool* f = flags.data();
    shape[0] = 0;
    for (index_t r = 0; r < mask_size; ++r) shape[0] += f[r] ? 1 : 0;
    array<T, RO, S> out(shape);
    T* next = out.data();
    for (index_t r = 0; r < mask_size && row_length > 0; ++r)
      if (f[r])
        for (index_t j = 0; j < row_length; ++j) *next++ = values.data()[r * row_length + j];
    return out;
  }
}

template <class T, int R, class S, class M, class V>
void assign_where_mask(const array<T, R, S>& a, const M& mask, const V& whole, const char* op) {
  check_mask_shape<T, R>(a.shape(), mask, op);
  if constexpr (expression<V>) {
    static_assert(same_kind_castable<value_t<V>, T>,
                  "xf::array(mask) =: the values would go down a kind (NumPy's same_kind rule, e.g. float into int); "
                  "write .astype<T>() to ask for it");
    assign_into(a, where(mask_over<R, S>(mask), whole, a), op);
  } else {
    assign_into(a, where(mask_over<R, S>(mask), convert<T>(whole), a), op);
  }
}

// v's shape against the selection's (count,) + a.shape[K:], NumPy's broadcasting rule.
template <std::size_t RO, std::size_t RV>
void check_selection_values(const std::array<index_t, RO>& selection, const std::array<index_t, RV>& values, const char* op) {
  bool fits = RV <= RO;
  for (std::size_t d = 0; d < RV && fits; ++d) {
    const index_t v = values[RV - 1 - d], s = selection[RO - 1 - d];
    fits = v == s || v == 1;
  }
  if (!fits)
    throw shape_error(std::string(op) + ": values of shape " + to_string(values) + " do not broadcast to the " +
                      std::to_string(selection[0]) + " selected elements' shape " + to_string(selection));
}

template <class T, int R, class S, class M, class V>
void assign_by_mask(const array<T, R, S>& a, const M& mask, const V& values, const char* op) {
  constexpr int K = rank_v<M>, RO = R - K + 1;
  check_mask_shape<T, R>(a.shape(), mask, op);
  if constexpr (!expression<V>) {
    assign_where_mask(a, mask, values, op);
  } else {
    static_assert(rank_v<V> <= RO, "xf::array(mask) =: the values have a higher rank than the selection");
    // Without a count axis of its own, v broadcasts over the selected elements: one fused kernel.
    if constexpr (rank_v<V> < RO) {
      assign_where_mask(a, mask, values, op);
    } else {
      const auto vshape = values.shape();
      if (vshape[0] == 1) {
        assign_where_mask(a, mask, values, op);
        return;
      }
      static_assert(same_kind_castable<value_t<V>, T>,
                    "xf::array(mask) =: the values would go down a kind (NumPy's same_kind rule, e.g. float into int); "
                    "write .astype<T>() to ask for it");
      const auto counts = cumsum(map(truthy{}, mask_in<S>(mask)));  // int64 over the flattened mask
      const index_t n = counts.size();
      dims<RO> selection{};
      selection[0] = n > 0 ? counts(n - 1).item() : 0;  // the host read
      for (int d = 1; d < RO; ++d) selection[d] = a.shape()[K - 1 + d];
      check_selection_values(selection, vshape, op);
      if (product(selection) == 0) return;
      // One row per selected element, C-ordered, in memory of its own (v may read a).
      array<value_t<V>, RO, S> rows(selection);
      rows.assign(values);
      require_access(counts.device_id(), op);
      index_t row_length = 1;
      for (int d = 1; d < RO; ++d) row_length *= selection[d];
      const value_in_selection_order<T, value_t<V>> f{counts.data(), rows.data(), fast_divmod(row_length)};
      const generator_node<arange_leaf<index_t>, R> flat(arange_leaf<index_t>{0.0, 1.0, 0, 1}, a.shape(), c_strides(a.shape()));
      assign_into(a, map(f, flat, mask_over<R, S>(mask), a), op);
    }
  }
}

// putmask's and place's checks: the mask has the array's shape; the values cast within their kind.
template <class T, class V, int R, class M>
void check_mask_and_values(const dims<R>& shape, const M& mask, const char* op) {
  static_assert(rank_v<M> == R, "xf::putmask, xf::place: the mask has the array's shape");
  static_assert(same_kind_castable<V, T>,
                "xf::putmask, xf::place: the values would go down a kind (e.g. float into int); cast them with .astype<T>()");
  if (mask.shape() != shape)
    throw shape_error(std::string(op) + ": the mask of shape " + to_string(mask.shape()) + " and the array of shape " +
                      to_string(shape) + " differ");
}

}  // namespace detail

// NumPy's extract(condition, arr): take(ravel(arr), flatnonzero(condition)), the elements of the
// flattened arr where the flattened condition is true. Of one size: one selection pass, as
// a(mask); otherwise NumPy's composition (a condition true past arr's end is an xf::index_error).
template <class C, element T, int R, class S>
  requires expression<C>
array<T, 1, S> extract(const C& condition, const array<T, R, S>& arr) {
  const auto values = arr.is_contiguous() ? arr.ravel() : arr.copy().ravel();
  const auto flags = array<bool, rank_v<C>, S>(map(detail::truthy{}, condition));
  if (flags.size() != arr.size()) return take(values, flatnonzero(flags));
  return detail::select_by_mask(values, flags.ravel(), "xf::extract");
}

// NumPy's putmask(a, mask, values): a.flat[i] = values.flat[i % values.size()] where mask.flat[i],
// mask and a of one shape. One fused kernel.
template <element T, int R, class S, class M, element V, int RV>
  requires expression<M>
void putmask(const array<T, R, S>& a, const M& mask, const array<V, RV, S>& values) {
  constexpr const char* op = "xf::putmask";
  detail::check_mask_and_values<T, V, R>(a.shape(), mask, op);
  if (a.size() == 0 || values.size() == 0) return;  // NumPy: no values, nothing written
  const auto cyclic = values.buffer().get() == a.buffer().get() || !values.is_contiguous() ? values.copy() : values;
  detail::require_access(cyclic.device_id(), op);
  const detail::generator_node<detail::arange_leaf<index_t>, R> flat(detail::arange_leaf<index_t>{0.0, 1.0, 0, 1}, a.shape(),
                                                                       detail::c_strides(a.shape()));
  const detail::cyclic_by_position<T, V> f{cyclic.data(), cyclic.size()};
  detail::assign_into(a, map(f, flat, map(detail::truthy{}, mask), a), op);
}

// NumPy's place(arr, mask, vals): the selected elements of arr, in C order, take vals in turn,
// repeated as needed (vals may be empty only when nothing is selected).
template <element T, int R, class S, class M, element V, int RV>
  requires expression<M>
void place(const array<T, R, S>& arr, const M& mask, const array<V, RV, S>& vals) {
  constexpr const char* op = "xf::place";
  detail::check_mask_and_values<T, V, R>(arr.shape(), mask, op);
  const auto counts = cumsum(map(detail::truthy{}, detail::mask_in<S>(mask)));
  const index_t n = counts.size();
  const index_t count = n > 0 ? counts(n - 1).item() : 0;  // the host read
  if (count == 0) return;
  if (vals.size() == 0) throw shape_error(std::string(op) + ": cannot place " + std::to_string(count) + " values from an empty array");
  const auto cyclic = vals.buffer().get() == arr.buffer().get() || !vals.is_contiguous() ? vals.copy() : vals;
  detail::require_access(counts.device_id(), op);
  const detail::cyclic_in_selection_order<T, V> f{counts.data(), cyclic.data(), cyclic.size()};
  const detail::generator_node<detail::arange_leaf<index_t>, R> flat(detail::arange_leaf<index_t>{0.0, 1.0, 0, 1}, arr.shape(),
                                                                       detail::c_strides(arr.shape()));
  detail::assign_into(arr, map(f, flat, map(detail::truthy{}, mask), arr), op);
}

}  // namespace xf
