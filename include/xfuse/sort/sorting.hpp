// SPDX-License-Identifier: Apache-2.0
// sort and argsort, public through <xfuse/sort.hpp>, whose comment says what they do; the keys
// that argsort and the quantiles sort (sorted_keys).
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "../base/nvtx_emit.hpp"
#include "../core.hpp"
#include "../exec/as_array.hpp"
#include "../user/map.hpp"
#include "device.cuh"
#include "lines.hpp"
#include "radix_key.hpp"
#include "sorted.hpp"

namespace xf {
namespace detail {

// The unsigned keys of `e`, as a fresh C-ordered array (one fused kernel on the device).
template <bool EqualZeros, class E>
auto radix_keys(const E& e) {
  static_assert(rank_v<E> >= 1, "xf::sort/argsort: a 0-d array has no axis to sort along");
  return eval(map(to_radix_key<value_t<E>, EqualZeros>{}, e));
}

template <class T>
constexpr int radix_end_bit() {
  return is_bool<T> ? 1 : static_cast<int>(8 * sizeof(T));
}

template <class A>
index_t line_length(const A& a) {
  return a.shape()[A::rank - 1];
}


// Keys of `e` (an array or expression) with every line along the last axis sorted, as a fresh
// C-ordered array.
template <class E>
auto sorted_keys(const E& e) {
  auto keys = radix_keys<false>(e);
  using Keys = decltype(keys);
  const index_t n = line_length(keys), size = keys.size();
  if (size == 0) return keys;
  if constexpr (std::is_same_v<resolved_space_t<space_t<E>>, device>) {
    static_assert(cuda_tu || always_false<E>, "xfuse: sorting device arrays launches CUDA kernels; compile this file with nvcc");
#if XF_CUDA_TU
    Keys other(keys.shape());
    typename Keys::value_type* const both[2] = {keys.data(), other.data()};
    const int in = radix_sort_lines<false>(both, nullptr, n, size / n, radix_end_bit<value_t<E>>(), current_slot(keys.device_id()).handle);
    return in == 0 ? keys : other;
#endif
  } else {
    for (index_t at = 0; at < size; at += n) std::sort(keys.data() + at, keys.data() + at + n);
    return keys;
  }
}

}  // namespace detail

// The values of `e` sorted along its last axis (NumPy's sort(a)); sort(e, axis) along any axis.
// The result is described (sort/sorted.hpp): written into an array, the sort writes straight into
// it; otherwise it is computed by the end of the statement, as a C-ordered array.
template <expression E>
auto sort(const E& e, const detail::statement_end& end = {}) {
  static_assert(rank_v<E> >= 1, "xf::sort: a 0-d array has no axis to sort along");
  static_assert(!is_complex<value_t<E>>, "xf::sort: complex values have no order here (NumPy sorts them "
                                         "lexicographically); sort their real or imaginary parts");
  return end.bind(detail::sorted_values<E>{{}, e, rank_v<E> - 1});
}

// The values of `e` sorted along `axis` (NumPy's sort(a, axis)).
template <expression E>
auto sort(const E& e, int axis, const detail::statement_end& end = {}) {
  constexpr int R = rank_v<E>;
  static_assert(R >= 1, "xf::sort: a 0-d array has no axis to sort along");
  const int a = detail::normalize_axis_of(axis, e.shape(), "xf::sort");
  return end.bind(detail::sorted_values<E>{{}, e, a});
}

// The int64 positions that sort each line of `e` along its last axis (stable: equal values keep
// their order).
template <expression E>
auto argsort(const E& e) {
  using T = value_t<E>;
  const detail::nvtx_range range("xf::argsort");
  using S = resolved_space_t<space_t<E>>;
  auto keys = detail::radix_keys<true>(e);
  using Keys = decltype(keys);
  const index_t n = detail::line_length(keys), size = keys.size();
  using Order = array<std::int64_t, Keys::rank, S>;
  if (size == 0) return Order(keys.shape());
  if constexpr (std::is_same_v<S, device>) {
    static_assert(detail::cuda_tu || detail::always_false<E>, "xfuse: sorting device arrays launches CUDA kernels; compile this file with nvcc");
#if XF_CUDA_TU
    const array<std::int64_t, 1, S> positions = arange<std::int64_t>(size) % n;  // each line's 0 .. n-1
    Order order = positions.reshape(keys.shape());
    Keys other_keys(keys.shape());
    Order other_order(keys.shape());
    typename Keys::value_type* const key_buffers[2] = {keys.data(), other_keys.data()};
    std::int64_t* const order_buffers[2] = {order.data(), other_order.data()};
    const int in = detail::radix_sort_lines<true>(key_buffers, order_buffers, n, size / n, detail::radix_end_bit<T>(),
                                                  detail::current_slot(keys.device_id()).handle);
    return in == 0 ? order : other_order;
#endif
  } else {
    Order order(keys.shape());
    for (index_t at = 0; at < size; at += n) {
      std::int64_t* line = order.data() + at;
      const auto* k = keys.data() + at;
      std::iota(line, line + n, std::int64_t{0});
      std::stable_sort(line, line + n, [k](std::int64_t a, std::int64_t b) { return k[a] < k[b]; });
    }
    return order;
  }
}

// The int64 positions that sort `e` along `axis` (NumPy's argsort(a, axis), stable), as a
// C-ordered array.
template <expression E>
auto argsort(const E& e, int axis) {
  constexpr int R = rank_v<E>;
  static_assert(R >= 1, "xf::argsort: a 0-d array has no axis to sort along");
  const int a = detail::normalize_axis_of(axis, e.shape(), "xf::argsort");
  if (a == R - 1) return argsort(e);
  const auto moved = detail::as_array(e).transpose(detail::axis_last_order<R>(a));
  return argsort(moved).transpose(detail::axis_last_inverse<R>(a)).copy();
}

}  // namespace xf
