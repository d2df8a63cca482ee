// Device reductions. A full reduction goes to cub::DeviceReduce (64-bit counts). A reduction over
// some axes runs one kernel: a block of 256 threads takes `o_lanes` results and `r_lanes` threads
// per result; consecutive threads walk consecutive reduced elements when a leaf is contiguous along
// them (row sums: a warp per row), otherwise consecutive results (column sums: coalesced across
// results). Few results over many elements split the elements over blocks (`splits`), whose partial
// accumulators a second, small kernel folds.
#pragma once

#include "plan.hpp"

#if XF_CUDA_TU
#include <iterator>

#include <cub/device/device_reduce.cuh>

namespace xf::detail {

struct reduce_config {
  int o_lanes = 1, r_lanes = 256;  // o_lanes * r_lanes == reduce_threads
  bool r_fast = true;              // consecutive threads take consecutive reduced elements
  int splits = 1;                  // blocks sharing one result's elements
  index_t chunk = 0;               // reduced elements per split
};
inline constexpr int reduce_threads = 256;

template <class Plan>
__global__ void __launch_bounds__(reduce_threads) reduce_kernel(const __grid_constant__ Plan p, const reduce_config c,
                                                                typename Plan::acc_type* partial) {
  using Acc = typename Plan::acc_type;
  __shared__ alignas(16) unsigned char raw[reduce_threads * sizeof(Acc)];
  Acc* s = reinterpret_cast<Acc*>(raw);
  const int t = static_cast<int>(threadIdx.x);
  const int o_lane = c.r_fast ? t / c.r_lanes : t % c.o_lanes;
  const int r_lane = c.r_fast ? t % c.r_lanes : t / c.o_lanes;
  const index_t o = static_cast<index_t>(blockIdx.x) * c.o_lanes + o_lane;
  const index_t n_out = p.kept.size, n_red = p.reduced.size;
  const index_t r_begin = static_cast<index_t>(blockIdx.y) * c.chunk;
  const index_t r_end = r_begin + c.chunk < n_red ? r_begin + c.chunk : n_red;
  Acc acc = p.op.identity();
  index_t out_pos = 0;
  if (o < n_out) {
    index_t kept_pos[Plan::slots];
    layout_positions(p.kept, p.kept_narrow, o, kept_pos, out_pos);
    const index_t step = c.r_lanes;
    index_t r = r_begin + r_lane;
    // Four independent elements per round: their loads are in flight together.
#pragma unroll 1
    for (; r + 3 * step < r_end; r += 4 * step) {
      const Acc a0 = mapped_element(p, kept_pos, r), a1 = mapped_element(p, kept_pos, r + step);
      const Acc a2 = mapped_element(p, kept_pos, r + 2 * step), a3 = mapped_element(p, kept_pos, r + 3 * step);
      acc = p.op.combine(acc, p.op.combine(p.op.combine(a0, a1), p.op.combine(a2, a3)));
    }
#pragma unroll 1
    for (; r < r_end; r += step) acc = p.op.combine(acc, mapped_element(p, kept_pos, r));
  }
  s[t] = acc;
  __syncthreads();
  for (int width = c.r_lanes / 2; width > 0; width /= 2) {
    if (r_lane < width) s[t] = p.op.combine(s[t], s[c.r_fast ? t + width : t + width * c.o_lanes]);
    __syncthreads();
  }
  if (r_lane == 0 && o < n_out) {
    if (c.splits == 1) p.out[out_pos] = p.op.finish(s[t], n_red);
    else partial[static_cast<index_t>(blockIdx.y) * n_out + o] = s[t];
  }
}

// Folds the splits' partial accumulators of every result, then finishes it.
template <class Plan>
__global__ void __launch_bounds__(reduce_threads) reduce_splits_kernel(const __grid_constant__ Plan p, int splits,
                                                                       const typename Plan::acc_type* partial) {
  const index_t o = static_cast<index_t>(blockIdx.x) * reduce_threads + threadIdx.x;
  const index_t n_out = p.kept.size;
  if (o >= n_out) return;
  auto acc = p.op.identity();
  for (int s = 0; s < splits; ++s) acc = p.op.combine(acc, partial[s * n_out + o]);
  index_t kept_pos[Plan::slots], out_pos;
  layout_positions(p.kept, p.kept_narrow, o, kept_pos, out_pos);
  p.out[out_pos] = p.op.finish(acc, p.reduced.size);
}

// The finish of a full reduction, on the accumulator CUB wrote.
template <class Op>
__global__ void reduce_finish_kernel(Op op, const typename Op::acc_type* acc, typename Op::out_type* out, index_t n) {
  *out = op.finish(*acc, n);
}

// 0, 1, 2, ...: CUB's input for a full reduction of an expression (the transform computes element i).
struct index_iterator {
  using iterator_category = std::random_access_iterator_tag;
  using value_type = index_t;
  using difference_type = index_t;
  using pointer = const index_t*;
  using reference = index_t;
  index_t i = 0;
  XF_HD index_t operator*() const { return i; }
  XF_HD index_t operator[](index_t d) const { return i + d; }
  XF_HD index_iterator operator+(index_t d) const { return {i + d}; }
  XF_HD index_iterator operator-(index_t d) const { return {i - d}; }
  XF_HD index_t operator-(const index_iterator& o) const { return i - o.i; }
  XF_HD index_iterator& operator+=(index_t d) { i += d; return *this; }
  XF_HD index_iterator& operator++() { ++i; return *this; }
  XF_HD bool operator==(const index_iterator& o) const { return i == o.i; }
  XF_HD bool operator!=(const index_iterator& o) const { return i != o.i; }
};

template <class Plan>
struct element_of {
  Plan p;
  __device__ XF_FORCEINLINE typename Plan::acc_type operator()(index_t r) const {
    index_t origin[Plan::slots] = {};
    for (int k = 0; k < Plan::L; ++k) origin[k] = p.kept.base[k];
    return mapped_element(p, origin, r);
  }
};
template <class Op, class In>
struct map_of {
  Op op;
  __device__ XF_FORCEINLINE typename Op::acc_type operator()(const In& v) const { return op.map(v, 0); }
};
template <class Op>
struct combine_of {
  Op op;
  __device__ XF_FORCEINLINE typename Op::acc_type operator()(const typename Op::acc_type& a,
                                                             const typename Op::acc_type& b) const {
    return op.combine(a, b);
  }
};

// A plain array, walked contiguously, whose reducer ignores the index: CUB reads it directly
// (vectorised loads), as cub::DeviceReduce would on a bare pointer.
template <class Plan>
const void* contiguous_input(const Plan& p) {
  if constexpr (Plan::L == 1 && tuple_element_t<0, typename Plan::leaves_type>::in_memory && !uses_index_v<typename Plan::op_type>) {
    using V = typename tuple_element_t<0, typename Plan::leaves_type>::value_type;
    using Fn = std::remove_cvref_t<decltype(p.fn)>;
    if constexpr (std::is_same_v<Fn, slot<0, V>>) {
      if (p.reduced.rank == 1 && p.reduced.stride[0][0] == 1) return get<0>(p.leaves).ptr + p.kept.base[0];
    }
  }
  return nullptr;
}

template <class Plan>
void reduce_all_device(const Plan& p, cudaStream_t stream) {
  using Op = typename Plan::op_type;
  using Acc = typename Plan::acc_type;
  const index_t n = p.reduced.size;
  constexpr bool direct = plain_finish_v<Op>;
  buffer acc_memory;
  Acc* acc_out = nullptr;
  if constexpr (direct) {
    acc_out = reinterpret_cast<Acc*>(p.out);
  } else {
    acc_memory = allocate_device(sizeof(Acc));
    acc_out = static_cast<Acc*>(acc_memory.get());
  }
  auto run = [&](void* temp, std::size_t& bytes) {
    if (const void* in = contiguous_input(p)) {
      using V = typename tuple_element_t<0, typename Plan::leaves_type>::value_type;
      return cub::DeviceReduce::TransformReduce(temp, bytes, static_cast<const V*>(in), acc_out, n, combine_of<Op>{p.op},
                                                map_of<Op, V>{p.op}, p.op.identity(), stream);
    }
    return cub::DeviceReduce::TransformReduce(temp, bytes, index_iterator{0}, acc_out, n, combine_of<Op>{p.op},
                                              element_of<Plan>{p}, p.op.identity(), stream);
  };
  std::size_t bytes = 0;
  XF_CUDA_CHECK(run(nullptr, bytes));
  const buffer temp = allocate_device(bytes > 0 ? bytes : 1);
  XF_CUDA_CHECK(run(temp.get(), bytes));
  if constexpr (!direct) {
    reduce_finish_kernel<Op><<<1, 1, 0, stream>>>(p.op, acc_out, p.out, n);
    XF_CUDA_CHECK(cudaGetLastError());
  }
}

// How a reduction over some axes spreads over the GPU.
template <class Plan>
reduce_config choose_reduce_config(const Plan& p, int sms) {
  const index_t n_out = p.kept.size, n_red = p.reduced.size;
  reduce_config c;
  bool contiguous_along_reduced = false;
  for (int k = 0; k < Plan::L; ++k) {
    const index_t s = p.reduced.stride[k][0];
    contiguous_along_reduced = contiguous_along_reduced || s == 1 || s == -1;
  }
  c.r_fast = contiguous_along_reduced || n_out == 1;
  if (c.r_fast) {
    // A warp per result; a whole block per result when there are too few results to fill the GPU.
    c.r_lanes = n_out * 32 >= static_cast<index_t>(sms) * 1024 || n_red <= 64 ? 32 : reduce_threads;
  } else {
    // 32 consecutive results per block, 8 threads splitting each result's elements.
    c.r_lanes = 8;
  }
  c.o_lanes = reduce_threads / c.r_lanes;
  const index_t blocks = (n_out + c.o_lanes - 1) / c.o_lanes;
  // Split the elements until there are 8 blocks per SM (full occupancy), keeping at least 64
  // elements per thread.
  const index_t wanted = static_cast<index_t>(sms) * 8;
  index_t splits = 1;
  while (blocks * splits * 2 <= wanted && n_red / (splits * 2) >= static_cast<index_t>(c.r_lanes) * 64 && splits < 65535)
    splits *= 2;
  c.splits = static_cast<int>(splits);
  c.chunk = (n_red + splits - 1) / splits;
  return c;
}

template <class Plan>
void reduce_axes_device(const Plan& p, int device, cudaStream_t stream) {
  using Acc = typename Plan::acc_type;
  const reduce_config c = choose_reduce_config(p, xf::device(device).properties().multiProcessorCount);
  const index_t blocks = (p.kept.size + c.o_lanes - 1) / c.o_lanes;
  if (blocks > INT_MAX) throw error("xf: reduction with too many results for one launch (" + std::to_string(p.kept.size) + ")");
  buffer partial;
  if (c.splits > 1) partial = allocate_device(sizeof(Acc) * static_cast<std::size_t>(c.splits) * static_cast<std::size_t>(p.kept.size));
  reduce_kernel<Plan><<<dim3(static_cast<unsigned>(blocks), static_cast<unsigned>(c.splits)), reduce_threads, 0, stream>>>(
      p, c, static_cast<Acc*>(partial.get()));
  XF_CUDA_CHECK(cudaGetLastError());
  if (c.splits > 1) {
    const index_t finish_blocks = (p.kept.size + reduce_threads - 1) / reduce_threads;
    reduce_splits_kernel<Plan><<<static_cast<unsigned>(finish_blocks), reduce_threads, 0, stream>>>(
        p, c.splits, static_cast<const Acc*>(partial.get()));
    XF_CUDA_CHECK(cudaGetLastError());
  }
}

}  // namespace xf::detail
#endif
