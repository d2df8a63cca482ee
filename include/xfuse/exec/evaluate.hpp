// SPDX-License-Identifier: Apache-2.0
// Materialisation: turning an expression into values in an array's memory. Builds the plan
// (leaves, broadcast strides, collapsed layout, aliases, vector flags) and runs it: one kernel on
// the current stream for device arrays, one loop for host arrays.
#pragma once

#include <string>

#include "../array/array.hpp"
#include "../base/nvtx.hpp"
#include "../expr/pending_operand.hpp"
#include "host_loop.hpp"
#include "kernel.cuh"
#include "launch.hpp"
#include "operands.hpp"
#include "producer.hpp"

namespace xf {
namespace detail {

// The earliest leaf J < K of the same type that reads exactly what leaf K reads, or K.
template <int K, int J = 0, class Plan>
signed char find_alias(const Plan& p) {
  if constexpr (J >= K) {
    return static_cast<signed char>(K);
  } else {
    using Leaves = typename Plan::leaves_type;
    if constexpr (std::is_same_v<tuple_element_t<J, Leaves>, tuple_element_t<K, Leaves>>) {
      bool same = get<J>(p.leaves).ptr == get<K>(p.leaves).ptr && p.lay.base[J] == p.lay.base[K];
      for (int d = 0; d < p.lay.rank && same; ++d) same = p.lay.stride[J][d] == p.lay.stride[K][d];
      if (same) return static_cast<signed char>(J);
    }
    return find_alias<K, J + 1>(p);
  }
}

// Device-side facts about leaf K: its device is reachable, vector loads, aliasing.
template <int K, class Plan, class Records, class Aligned>
void setup_leaf(Plan& p, const Records& records, const Aligned& aligned, int cur, const char* op) {
  using D = tuple_element_t<K, typename Plan::leaves_type>;
  p.alias[K] = static_cast<signed char>(K);
  p.vec[K] = false;
  p.staged[K] = false;
  p.smem_offset[K] = 0;
  if constexpr (D::in_memory) {
    require_access(get<K>(records).device, cur, op);
    p.vec[K] = aligned(get<K>(p.leaves).ptr, p.lay.base[K], sizeof(typename D::value_type), p.lay.stride[K]);
    p.alias[K] = find_alias<K>(p);
  }
}


// Whether every destination of `out` passes `aligned` (a pointer, or each pointer of a set).
template <class OutPtr, class Aligned>
bool outputs_aligned(const OutPtr& out, const index_t* strides, const Aligned& aligned) {
  if constexpr (std::is_pointer_v<OutPtr>) {
    return aligned(out, 0, sizeof(stored_t<OutPtr>), strides);
  } else {
    return [&]<int... I>(std::integer_sequence<int, I...>) {
      return (aligned(get<I>(out.to), 0, sizeof(*get<I>(out.to)), strides) && ...);
    }(std::make_integer_sequence<int, stored_t<OutPtr>::size>{});
  }
}

#if XF_CUDA_TU
// A random draw alone into contiguous memory: its own fill kernel (group_fill.cuh). False, having
// run nothing, for any other plan.
template <class Plan>
bool fill_group(const Plan& p, int cur) {
  using Out = typename Plan::out_type;
  if constexpr (Plan::L == 1 && std::is_same_v<typename Plan::fn_type, slot<0, Out>>) {
    using Leaf = tuple_element_t<0, typename Plan::leaves_type>;
    if constexpr (group_leaf<Leaf>) {
      constexpr int W = Leaf::group_size;
      if (p.lay.rank == 1 && p.lay.out_stride[0] == 1 && p.lay.stride[0][0] == 1 && p.lay.base[0] % W == 0 &&
          reinterpret_cast<std::uintptr_t>(p.out) % (W * sizeof(Out) < 16 ? W * sizeof(Out) : 16) == 0) {
        const int blocks = device(cur).multiprocessor_count() * 8;
        group_fill_kernel<Leaf, Out><<<blocks, 256, 0, current_slot(cur).handle>>>(get<0>(p.leaves), p.out, p.lay.base[0] / W, p.lay.size);
        XF_CUDA_CHECK(cudaGetLastError());
        return true;
      }
    }
  }
  return false;
}
#endif

// Runs expression `e` into the strided output `out` (shape `shape`, strides `strides`): a pointer,
// or an output_set whose destinations share that layout (e then yields a tuple).
template <class Space, class Policy = elementwise_policy, class OutPtr, std::size_t N, class E>
void run_expression(OutPtr out, int out_device, const std::array<index_t, N>& shape,
                    const std::array<index_t, N>& strides, const E& e, const char* op) {
  using Out = stored_t<OutPtr>;
  constexpr int R = static_cast<int>(N);
  const nvtx_range range(op);
  const auto records = e.leaves();
  using Records = std::remove_cvref_t<decltype(records)>;
  constexpr int L = Records::size;
  using Descs = typename descs_of<Records>::type;
  using Fn = decltype(e.template evaluator<0>());
  using Plan = fused_plan<Fn, Descs, Out, R, Policy>;

  const auto ops = gather_operands<R>(records, shape);
  Plan p{e.template evaluator<0>(), ops.descs, out, {}, {}, {}, false, false, walk::rows, {}, {}};
  p.lay = make_layout<R, L>(shape, strides, ops.strides, ops.base);
  if (p.lay.size == 0) return;
  p.out = out + p.lay.out_base;
  p.lay.out_base = 0;
  p.narrow = fits_32_bits(p.lay);

  if constexpr (std::is_same_v<Space, device>) {
    static_assert(cuda_tu || always_false<E>,
                  "xfuse: evaluating an expression on device arrays launches a CUDA kernel; compile this "
                  "file with nvcc (a .cu file, or LANGUAGE CUDA in CMake)");
    const int cur = device::current_id();
    require_access(out_device, cur, op);
    const auto aligned = [&](const void* ptr, index_t base, std::size_t itemsize, const index_t* s) {
      const std::size_t width = Plan::E * itemsize < 16 ? Plan::E * itemsize : 16;
      if (s[0] != 1) return false;
      if ((reinterpret_cast<std::uintptr_t>(ptr) + static_cast<std::uintptr_t>(base * static_cast<index_t>(itemsize))) % width) return false;
      for (int d = 1; d < p.lay.rank; ++d)
        if ((s[d] * static_cast<index_t>(itemsize)) % static_cast<index_t>(width)) return false;
      return true;
    };
#if XF_CUDA_TU
    if (fill_group(p, cur)) return;
#endif
    p.row_chunks = p.lay.rank == 1 || p.lay.extent[0] % Plan::E == 0;
    p.out_vec = outputs_aligned(p.out, p.lay.out_stride, aligned);
    [&]<int... K>(std::integer_sequence<int, K...>) {
      (setup_leaf<K>(p, records, aligned, cur, op), ...);
    }(std::make_integer_sequence<int, L>{});
    const launch_config launch = choose_launch(p, cur);
#if XF_CUDA_TU
    p.guard = loop_pass_guard();
    launch_fused(p, launch, cur, current_slot(cur).handle);
#else
    (void)launch;
#endif
  } else {
    refuse_in_capture(op, "statements on host arrays run on the host now, not in the graph");
    run_host(p);
  }
}

// Calls f(record) for each leaf record of `e` that reads memory (generators read none).
template <class E, class F>
void for_each_memory_record(const E& e, F&& f) {
  const auto records = e.leaves();
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          const auto& rec = get<K>(records);
          // A null pointer: a scan's totals made in the kernel that uses them (nothing read).
          if constexpr (std::remove_cvref_t<decltype(rec)>::desc_type::in_memory)
            if (rec.desc.ptr != nullptr) f(rec);
        }(),
        ...);
  }(std::make_integer_sequence<int, std::remove_cvref_t<decltype(records)>::size>{});
}

// True when some memory leaf of `e` reads any byte of `written`.
template <class E>
bool reads_any_of(const byte_range& written, const E& e) {
  bool any = false;
  for_each_memory_record(e, [&](const auto& rec) {
    using Rec = std::remove_cvref_t<decltype(rec)>;
    constexpr int RR = static_cast<int>(std::tuple_size_v<std::remove_cvref_t<decltype(rec.shape)>>);
    any = any || range_of<RR>(rec.desc.ptr, sizeof(typename Rec::desc_type::value_type), rec.shape, rec.strides.data(), rec.base)
                     .overlaps(written);
  });
  return any;
}

// True when some memory leaf of `e` reads bytes that the output writes, other than exactly the
// element being written (which in-place updates like a += b do safely).
template <class Out, std::size_t N, class E>
bool reads_written_memory(const Out* out, const std::array<index_t, N>& shape, const std::array<index_t, N>& strides,
                          const E& e) {
  constexpr int R = static_cast<int>(N);
  const byte_range written = range_of<R>(out, sizeof(Out), shape, strides.data(), 0);
  bool hazard = false;
  for_each_memory_record(e, [&](const auto& rec) {
    using V = typename std::remove_cvref_t<decltype(rec)>::desc_type::value_type;
    index_t s[layout<R, 1>::max_rank] = {};
    broadcast_strides<R>(rec.shape, rec.strides, shape, s);
    const byte_range read = range_of<R>(rec.desc.ptr, sizeof(V), shape, s, rec.base);
    if (!read.overlaps(written)) return;
    bool same = sizeof(V) == sizeof(Out) && static_cast<const void*>(rec.desc.ptr + rec.base) == static_cast<const void*>(out);
    for (int d = 0; d < R && same; ++d) same = shape[d] == 1 || s[d] == strides[d];
    if (!same) hazard = true;
  });
  return hazard;
}

template <class T, int R, class Space, class E>
void evaluate_into(array<T, R, Space>& dst, const E& e, const char* op) {
  if constexpr (holds_producer<E>) {
    if (feed_producer(dst, e, op)) return;
  }
  run_expression<Space>(dst.data(), dst.device_id(), dst.shape(), dst.strides(), e, op);
}

// Throws unless `e` broadcasts into `dst`, a destination that holds each element once.
template <class T, int R, class Space, class E>
void check_assignable(const array<T, R, Space>& dst, const E& e, const char* op) {
  constexpr int RE = rank_v<E>;
  static_assert(RE <= R, "xf: the right side has a higher rank than the destination");
  const auto es = e.shape();
  for (int i = 0; i < RE; ++i) {
    const index_t a = es[i], b = dst.shape()[R - RE + i];
    if (a != b && a != 1)
      throw shape_error(std::string(op) + ": could not broadcast input from shape " + to_string(es) +
                        " into shape " + to_string(dst.shape()));
  }
  for (int d = 0; d < R; ++d)
    if (dst.strides()[d] == 0 && dst.shape()[d] > 1)
      throw shape_error(std::string(op) + ": the destination repeats elements (a broadcast view of shape " +
                        to_string(dst.shape()) + "); write into a copy");
}

template <class T, int R, class Space, class E>
void assign_into(const array<T, R, Space>& dst, const E& e, const char* op) {
  check_assignable(dst, e, op);
  if constexpr (holds_producer<E>) {
    if (feed_producer(dst, e, op)) return;
  }
  if (reads_written_memory(dst.data(), dst.shape(), dst.strides(), e)) {
    // The right side reads what we write: evaluate it first, as NumPy does.
    array<T, R, Space> tmp(dst.shape());
    run_expression<Space>(tmp.data(), tmp.device_id(), tmp.shape(), tmp.strides(), e, op);
    run_expression<Space>(dst.data(), dst.device_id(), dst.shape(), dst.strides(), tmp, op);
    return;
  }
  run_expression<Space>(dst.data(), dst.device_id(), dst.shape(), dst.strides(), e, op);
}

}  // namespace detail

// Materialises an expression into a new array (device arrays: one kernel, on the current stream).
template <expression E>
  requires(!detail::is_pending_operand<E>)  // xf::eval of described reductions: reduce/together.hpp
auto eval(const E& e) {
  using S = resolved_space_t<space_t<E>>;
  return array<value_t<E>, rank_v<E>, S>(e);
}

}  // namespace xf
