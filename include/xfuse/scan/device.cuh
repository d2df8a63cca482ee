// SPDX-License-Identifier: Apache-2.0
// Device scans on CUB: the expression's element is computed as CUB reads it, and its running
// total is stored straight into the result, so an expression is scanned in one pass with no
// temporary and 64-bit counts. Scans along an axis run a block per set of lines (lines.cuh) where
// the lines fill the GPU, else cub::DeviceScan::InclusiveScanByKey (element
// i of the walk over every line: line `i / n`, step `i % n`), one instantiation for every axis; the
// flattened scan (one line) runs cub::DeviceScan::InclusiveScan, which has no keys to compute and
// compare (its speed against the keyed scan: docs/performance.md).
#pragma once

#include "../reduce/plan.hpp"

#if XF_CUDA_TU
#include <cub/device/device_scan.cuh>

#include "../exec/index_iterator.hpp"
#include "lines.cuh"

namespace xf::detail {

// Which line of the scan element i belongs to: CUB's key (equal keys scan together).
struct scan_line_of {
  fast_divmod n;
  XF_HD XF_FORCEINLINE index_t operator()(index_t i) const { return n.div(i); }
};

// The mapped value of element i: step i % n of line i / n.
template <class Plan>
struct scan_input_of {
  Plan p;
  fast_divmod n;
  __device__ XF_FORCEINLINE typename Plan::acc_type operator()(index_t i) const {
    const index_t line = n.div(i);
    index_t kept_pos[Plan::slots], out_pos;
    layout_positions(p.kept, p.kept_narrow, line, kept_pos, out_pos);
    return mapped_element(p, kept_pos, i - line * static_cast<index_t>(n.divisor));
  }
};

// What an output iterator's element is: an assignment that converts the accumulator to the
// result's type.
template <class Out>
struct converting_store {
  Out* at;
  template <class A>
  __device__ XF_FORCEINLINE converting_store& operator=(const A& a) {
    *at = convert<Out>(a);
    return *this;
  }
};

// Where running total i goes.
template <class Plan>
struct scan_output_iterator {
  using Out = typename Plan::out_type;
  using store = converting_store<Out>;
  using iterator_category = std::random_access_iterator_tag;
  using value_type = Out;
  using difference_type = index_t;
  using pointer = Out*;
  using reference = store;
  Plan p;
  fast_divmod n;
  index_t step;  // the result's stride along the scanned axis
  index_t i = 0;
  __device__ XF_FORCEINLINE store operator[](index_t d) const {
    const index_t at = i + d, line = n.div(at);
    index_t kept_pos[Plan::slots], out_pos;
    layout_positions(p.kept, p.kept_narrow, line, kept_pos, out_pos);
    return {p.out + out_pos + (at - line * static_cast<index_t>(n.divisor)) * step};
  }
  __device__ XF_FORCEINLINE store operator*() const { return (*this)[0]; }
  XF_HD scan_output_iterator operator+(index_t d) const { return {p, n, step, i + d}; }
  XF_HD scan_output_iterator& operator+=(index_t d) { i += d; return *this; }
  XF_HD index_t operator-(const scan_output_iterator& o) const { return i - o.i; }
};

// Element i of the only line (the flattened scan), whose leaf positions are `kept_pos`.
template <class Plan>
struct flat_input_of {
  Plan p;
  index_t kept_pos[Plan::slots];
  __device__ XF_FORCEINLINE typename Plan::acc_type operator()(index_t i) const { return mapped_element(p, kept_pos, i); }
};

// Where running total i of the flattened scan goes: element i of a contiguous result.
template <class Out>
struct flat_output_iterator {
  using store = converting_store<Out>;
  using iterator_category = std::random_access_iterator_tag;
  using value_type = Out;
  using difference_type = index_t;
  using pointer = Out*;
  using reference = store;
  Out* out;
  __device__ XF_FORCEINLINE store operator[](index_t d) const { return {out + d}; }
  __device__ XF_FORCEINLINE store operator*() const { return {out}; }
  XF_HD flat_output_iterator operator+(index_t d) const { return {out + d}; }
  XF_HD flat_output_iterator& operator+=(index_t d) {
    out += d;
    return *this;
  }
  XF_HD index_t operator-(const flat_output_iterator& o) const { return out - o.out; }
};

// CUB's operator for a running sum or product of a floating type in that type (the scans of a
// plain array), or void: the scan keeps the reducer's own combine.
template <class Op>
struct plain_scan_operator {
  using type = void;
};
template <class T>
  requires std::is_floating_point_v<T>
struct plain_scan_operator<sum_reducer<T, T, T, false>> {
  using type = ::cuda::std::plus<>;
};
template <class T>
  requires std::is_floating_point_v<T>
struct plain_scan_operator<prod_reducer<T, T, T, false>> {
  using type = ::cuda::std::multiplies<>;
};

// Whether the plan scans a plain array of its result type: one leaf in memory read as it is.
template <class Plan>
inline constexpr bool scans_plain_values = [] {
  if constexpr (Plan::L != 1 || std::is_void_v<typename plain_scan_operator<typename Plan::op_type>::type>) {
    return false;
  } else {
    using Leaf = tuple_element_t<0, typename Plan::leaves_type>;
    using T = typename Plan::out_type;
    return Leaf::in_memory && std::is_same_v<typename Leaf::value_type, T> &&
           std::is_same_v<decltype(std::declval<Plan>().fn), slot<0, T>>;
  }
}();

template <class In, class Out, class Combine>
void run_flat_scan(In values, Out out, Combine combine, index_t total, cudaStream_t stream) {
  temp_storage().run([&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveScan(temp, bytes, values, out, combine, total, stream);
  });
}

// Scans the only line of p.reduced (p.kept has one position) into the contiguous result p.out.
// A contiguous plain array of the result's floating type goes to CUB as a pointer, which it
// reads with vector loads (0.84 of the pointer's speed through the element iterator).
template <class Plan>
void scan_flat_device(const Plan& p, cudaStream_t stream) {
  flat_input_of<Plan> input{p, {}};
  index_t out_pos;
  layout_positions(p.kept, false, 0, input.kept_pos, out_pos);
  const index_t total = p.reduced.size;
  if constexpr (scans_plain_values<Plan>) {
    if (p.reduced.rank == 1 && p.reduced.stride[0][0] == 1) {
      const auto* first = get<0>(p.leaves).ptr + input.kept_pos[0];
      run_flat_scan(first, p.out + out_pos, typename plain_scan_operator<typename Plan::op_type>::type{}, total, stream);
      return;
    }
  }
  const flat_output_iterator<typename Plan::out_type> out{p.out + out_pos};
  run_flat_scan(make_index_iterator(input), out, scan_combine<typename Plan::op_type>{p.op}, total, stream);
}

// Step r of the one line of a plan that feeds a consumer (feed.cuh), whose leaf positions at the
// line's start are `kept_pos` (found once on the host: no division per element).
template <class Plan>
struct line_input_of {
  Plan p;
  index_t kept_pos[Plan::slots];
  __device__ XF_FORCEINLINE typename Plan::acc_type operator()(index_t r) const { return scan_input(p, kept_pos, r); }
};

// Where running total r of that line goes: the consumer's value, `step` elements apart.
template <class Plan>
struct line_output_iterator {
  using Out = typename Plan::out_type;
  struct store {
    const line_output_iterator& it;
    index_t at;
    template <class A>
    __device__ XF_FORCEINLINE store& operator=(const A& total) {
      it.out[at * it.step] = scanned_output(it.line.p, it.line.kept_pos, at, static_cast<typename Plan::acc_type>(total));
      return *this;
    }
  };
  using iterator_category = std::random_access_iterator_tag;
  using value_type = Out;
  using difference_type = index_t;
  using pointer = Out*;
  using reference = store;
  line_input_of<Plan> line;  // the plan and the line's leaf positions
  Out* out;
  index_t step;
  index_t i = 0;
  __device__ XF_FORCEINLINE store operator[](index_t d) const { return {*this, i + d}; }
  __device__ XF_FORCEINLINE store operator*() const { return (*this)[0]; }
  XF_HD line_output_iterator operator+(index_t d) const { return {line, out, step, i + d}; }
  XF_HD line_output_iterator& operator+=(index_t d) {
    i += d;
    return *this;
  }
  XF_HD index_t operator-(const line_output_iterator& o) const { return i - o.i; }
};

// Scans the one line of a plan that feeds a consumer: CUB's scan with no keys, the consumer's
// value stored as each running total is made.
template <class Plan>
void scan_line_to_consumer(const Plan& p, index_t step, cudaStream_t stream) {
  line_input_of<Plan> input{p, {}};
  index_t out_pos;
  layout_positions(p.kept, false, 0, input.kept_pos, out_pos);
  const line_output_iterator<Plan> out{input, p.out + out_pos, step};
  run_flat_scan(make_index_iterator(input), out, scan_combine<typename Plan::op_type>{p.op}, p.reduced.size, stream);
}

// Scans every line of p.reduced (one or more reduced axes walked in C order) into the result:
// a block per set of lines where they fill the GPU (lines.cuh), else the keyed scan.
template <class Plan>
void scan_device(const Plan& p, index_t step, int device, cudaStream_t stream) {
  if (scan_lines_device(p, step, device, stream)) return;
  const index_t n = p.reduced.size, total = n * p.kept.size;
  const fast_divmod line_length(n);
  const auto keys = make_index_iterator(scan_line_of{line_length});
  const auto values = make_index_iterator(scan_input_of<Plan>{p, line_length});
  const scan_output_iterator<Plan> out{p, line_length, step};
  temp_storage().run([&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveScanByKey(temp, bytes, keys, values, out, scan_combine<typename Plan::op_type>{p.op},
                                               total, ::cuda::std::equal_to<>{}, stream);
  });
}

}  // namespace xf::detail
#endif
