// SPDX-License-Identifier: Apache-2.0
// Device scans on cub::DeviceScan::InclusiveScanByKey: element i of the flattened walk (result
// `i / n`, step `i % n` along the axis) is computed from the expression as CUB reads it, and its
// running total is stored straight into the result, so an expression is scanned in one pass with
// no temporary and 64-bit counts. One CUB instantiation serves every axis and the flattened case.
#pragma once

#include "../reduce/plan.hpp"

#if XF_CUDA_TU
#include <cub/device/device_scan.cuh>

#include "../exec/index_iterator.hpp"

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

// Where running total i goes: the assignment converts the accumulator to the result's type.
template <class Plan>
struct scan_output_iterator {
  using Out = typename Plan::out_type;
  struct store {
    Out* at;
    template <class A>
    __device__ XF_FORCEINLINE store& operator=(const A& a) {
      *at = convert<Out>(a);
      return *this;
    }
  };
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

template <class Op>
struct scan_combine {
  Op op;
  __device__ XF_FORCEINLINE typename Op::acc_type operator()(const typename Op::acc_type& a,
                                                             const typename Op::acc_type& b) const {
    return op.combine(a, b);
  }
};

// Scans every line of p.reduced (one or more reduced axes walked in C order) into the result.
template <class Plan>
void scan_device(const Plan& p, index_t step, cudaStream_t stream) {
  const index_t n = p.reduced.size, total = n * p.kept.size;
  const fast_divmod line_length(n);
  const auto keys = make_index_iterator(scan_line_of{line_length});
  const auto values = make_index_iterator(scan_input_of<Plan>{p, line_length});
  const scan_output_iterator<Plan> out{p, line_length, step};
  auto run = [&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveScanByKey(temp, bytes, keys, values, out, scan_combine<typename Plan::op_type>{p.op},
                                               total, ::cuda::std::equal_to<>{}, stream);
  };
  std::size_t bytes = 0;
  XF_CUDA_CHECK(run(nullptr, bytes));
  const buffer temp = allocate_device(bytes > 0 ? bytes : 1);
  XF_CUDA_CHECK(run(temp.get(), bytes));
}

}  // namespace xf::detail
#endif
