// SPDX-License-Identifier: Apache-2.0
// Long contiguous rows on sm_90 (row_plan.hpp's kinds), staged in shared memory by the bulk-copy
// (TMA) engine: one block per row; one thread starts a bulk copy of the row of every leaf in
// memory, completing on an mbarrier; the block then sweeps the staged row three times (the
// statistics, then the outputs) and writes each output once. Unlike the register walk
// (row_kernel.cuh), the row's bytes in flight are not bounded by registers: an SM keeps a copy in
// flight for every block its shared memory holds (seven rows of 8192 floats), so the copy engine
// streams the input while other blocks compute and store.
#pragma once

#include "../base/atomic.hpp"
#include "../exec/bulk_copy.cuh"
#include "../exec/vector_io.cuh"
#include "../reduce/row_plan.hpp"

#if XF_CUDA_TU
namespace xf::detail {

struct staged_row_policy {
  static constexpr int block_threads = 256;
  // Shared memory for one row of every leaf in memory, within the 48 KiB a block may take without
  // opting in (less the kernel's own: the barrier and the fold's scratch).
  static constexpr index_t max_staged_bytes = 40 * 1024;
  // Shorter rows stay in registers (row_kernel.cuh), which measured as fast there.
  static constexpr index_t shortest_row = 2048;
};

// Elements a thread takes at a time in the sweeps of a staged row: one 16-byte shared-memory load
// of floats, one 16-byte store (fewer instructions per element: the sweeps are a third of the
// kernel's issue slots).
inline constexpr int staged_chunk = 4;

// Bytes of one row of every leaf held in memory (each a multiple of 16, so every staged row
// starts 16-byte aligned).
template <class Plan>
XF_HD index_t staged_row_bytes(index_t n) {
  index_t bytes = 0;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    ((bytes += tuple_element_t<K, typename Plan::leaves_type>::in_memory
                   ? n * static_cast<index_t>(sizeof(typename tuple_element_t<K, typename Plan::leaves_type>::value_type))
                   : 0),
     ...);
  }(std::make_integer_sequence<int, Plan::L>{});
  return bytes;
}

// Whether every row can be staged: every leaf in memory steps by +1 along the row, starts each row
// 16-byte aligned, and its row is a multiple of 16 bytes; the rows fit the shared memory budget.
template <class Plan>
bool rows_stageable(const Plan& p) {
  const index_t n = p.reduced.size;
  if (n < staged_row_policy::shortest_row || staged_row_bytes<Plan>(n) > staged_row_policy::max_staged_bytes) return false;
  bool ok = true;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          using Leaf = tuple_element_t<K, typename Plan::leaves_type>;
          if constexpr (Leaf::in_memory) {
            constexpr index_t size = static_cast<index_t>(sizeof(typename Leaf::value_type));
            ok = ok && p.reduced.stride[K][0] == 1 && (n * size) % 16 == 0 &&
                 reinterpret_cast<std::uintptr_t>(get<K>(p.leaves).ptr + p.kept.base[K]) % 16 == 0;
            for (int d = 0; d < p.kept.rank && ok; ++d) ok = (p.kept.stride[K][d] * size) % 16 == 0;
          }
        }(),
        ...);
  }(std::make_integer_sequence<int, Plan::L>{});
  return ok;
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Folds x over the block by maximum or sum (every thread gets the result).
template <bool Max, class C>
__device__ XF_FORCEINLINE C fold_block(C x, C* scratch) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    const C y = __shfl_xor_sync(0xffffffffu, x, offset);
    x = Max ? nan_max(x, y) : x + y;
  }
  __syncthreads();  // the scratch of an earlier fold has been read
  if (threadIdx.x % 32 == 0) scratch[threadIdx.x / 32] = x;
  __syncthreads();
  C r = scratch[0];
  for (unsigned w = 1; w < blockDim.x / 32; ++w) r = Max ? nan_max(r, scratch[w]) : r + scratch[w];
  return r;
}
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// A block's row, staged: leaf K's row starts `offset[K]` bytes into `staged`; generators (leaves
// not in memory) are computed where they are read.
template <class Plan>
struct staged_row {
  using C = typename Plan::acc_type;
  using Leaves = typename Plan::leaves_type;
  const Plan& p;
  const unsigned char* staged;
  index_t kept_pos[Plan::slots];
  unsigned offset[Plan::slots];
  int n;

  // Element r of the row, through the expression.
  __device__ XF_FORCEINLINE C operator()(int r) const {
    const auto leaf_value = [&](auto k) {
      constexpr int K = decltype(k)::value;
      using Leaf = tuple_element_t<K, Leaves>;
      if constexpr (Leaf::in_memory) return reinterpret_cast<const typename Leaf::value_type*>(staged + offset[K])[r];
      else return get<K>(p.leaves).at(kept_pos[K] + p.reduced.base[K] + r * p.reduced.stride[K][0]);
    };
    return p.op.map(point_value<Leaves>(p.fn, leaf_value, std::make_integer_sequence<int, Plan::L>{}), r);
  }

  // The staged_chunk elements from position r0 (a multiple of staged_chunk) into v: each staged
  // leaf's values as one shared-memory vector load (every staged row starts 16-byte aligned),
  // generators where they are read.
  __device__ XF_FORCEINLINE void chunk(int r0, C* v) const {
    [&]<int... K>(std::integer_sequence<int, K...>) {
      tuple<values<typename tuple_element_t<K, Leaves>::value_type, staged_chunk>...> loaded;
      (
          [&] {
            using T = typename tuple_element_t<K, Leaves>::value_type;
            if constexpr (tuple_element_t<K, Leaves>::in_memory)
              load_vector<T, staged_chunk>(reinterpret_cast<const T*>(staged + offset[K]) + r0, get<K>(loaded).v);
          }(),
          ...);
#pragma unroll
      for (int e = 0; e < staged_chunk; ++e) {
        const auto leaf_value = [&](auto k) {
          constexpr int J = decltype(k)::value;
          if constexpr (tuple_element_t<J, Leaves>::in_memory) return get<J>(loaded).v[e];
          else return get<J>(p.leaves).at(kept_pos[J] + p.reduced.base[J] + (r0 + e) * p.reduced.stride[J][0]);
        };
        v[e] = p.op.map(point_value<Leaves>(p.fn, leaf_value, std::make_integer_sequence<int, Plan::L>{}), r0 + e);
      }
    }(std::make_integer_sequence<int, Plan::L>{});
  }
};

// Thread 0 starts one bulk copy per leaf in memory, all completing on `barrier`; the block then
// waits until every byte has arrived.
template <class Plan>
__device__ XF_FORCEINLINE void stage_row(staged_row<Plan>& row, unsigned char* staged, unsigned barrier) {
  using Leaves = typename Plan::leaves_type;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    unsigned at = 0;
    ((row.offset[K] = at, at += tuple_element_t<K, Leaves>::in_memory ? row.n * sizeof(typename tuple_element_t<K, Leaves>::value_type) : 0),
     ...);
  }(std::make_integer_sequence<int, Plan::L>{});
  if (threadIdx.x == 0) {
    bulk::barrier_init(barrier);
    bulk::arrive_expect_bytes(barrier, static_cast<unsigned>(staged_row_bytes<Plan>(row.n)));
    [&]<int... K>(std::integer_sequence<int, K...>) {
      (
          [&] {
            using Leaf = tuple_element_t<K, Leaves>;
            if constexpr (Leaf::in_memory) {
              const auto* src = get<K>(row.p.leaves).ptr + row.kept_pos[K] + row.p.reduced.base[K];
              bulk::copy_to_shared(bulk::shared_address(staged + row.offset[K]), src,
                                   static_cast<unsigned>(row.n * sizeof(typename Leaf::value_type)), barrier);
            }
          }(),
          ...);
    }(std::make_integer_sequence<int, Plan::L>{});
  }
  __syncthreads();  // the barrier is initialised before anyone waits on it
  bulk::wait_phase_zero(barrier);
}

// Calls f(x, r) for every element x at position r of the row that this thread covers: whole
// chunks of staged_chunk elements (a warp's chunks are 32 neighbours, so its loads read 512
// contiguous bytes), then the positions past the last whole chunk one by one.
template <class Plan, class F>
__device__ XF_FORCEINLINE void sweep(const staged_row<Plan>& value, const F& f) {
  const int t = static_cast<int>(threadIdx.x), threads = static_cast<int>(blockDim.x), n = value.n;
  const int whole = n / staged_chunk * staged_chunk;
  for (int r0 = t * staged_chunk; r0 < whole; r0 += threads * staged_chunk) {
    typename Plan::acc_type v[staged_chunk];
    value.chunk(r0, v);
#pragma unroll
    for (int e = 0; e < staged_chunk; ++e) f(v[e], r0 + e);
  }
  for (int r = whole + t; r < n; r += threads) f(value(r), r);
}

// Writes output(x, r) at row_out[r * step] for every element x at position r that this thread
// covers (as sweep visits them); a whole chunk as one vector store where the output row is
// contiguous and aligned.
template <class Plan, class Out, class Output>
__device__ XF_FORCEINLINE void store_sweep(const staged_row<Plan>& value, Out* row_out, index_t step, const Output& output) {
  constexpr int width = staged_chunk * sizeof(Out) < 16 ? staged_chunk * static_cast<int>(sizeof(Out)) : 16;
  const bool vector = step == 1 && reinterpret_cast<std::uintptr_t>(row_out) % width == 0;
  const int t = static_cast<int>(threadIdx.x), threads = static_cast<int>(blockDim.x), n = value.n;
  const int whole = n / staged_chunk * staged_chunk;
  for (int r0 = t * staged_chunk; r0 < whole; r0 += threads * staged_chunk) {
    typename Plan::acc_type v[staged_chunk];
    value.chunk(r0, v);
    Out o[staged_chunk];
#pragma unroll
    for (int e = 0; e < staged_chunk; ++e) o[e] = output(v[e], r0 + e);
    if (vector) {
      store_vector<Out, staged_chunk>(row_out + r0, o);
    } else {
#pragma unroll
      for (int e = 0; e < staged_chunk; ++e) row_out[(r0 + e) * step] = o[e];
    }
  }
  for (int r = whole + t; r < n; r += threads) row_out[r * step] = output(value(r), r);
}

// softmax, log_softmax, logsumexp of a staged row: a sweep for the maximum, one for the sum of
// exponentials, one for the outputs.
template <row_result What, class Plan, class Finish, class EpilogueRow>
__device__ XF_FORCEINLINE void staged_softmax(const staged_row<Plan>& value, typename Plan::out_type* row_out, index_t step,
                                              typename Plan::acc_type* scratch, const Finish& finish, const EpilogueRow& at) {
  using C = typename Plan::acc_type;
  using Out = typename Plan::out_type;
  C max = -limits<C>::infinity();
  sweep(value, [&](C x, int) { max = nan_max(max, x); });
  const C shift = row_shift<What>(fold_block<true>(max, scratch));
  C sum = 0;
  sweep(value, [&](C x, int) { sum += math::r_exp(x - shift); });
  sum = fold_block<false>(sum, scratch);
  if constexpr (What == row_result::logsumexp) {
    if (threadIdx.x == 0) *row_out = finish.template store<Out>(at, math::r_log(sum) + shift, 0);
  } else if constexpr (What == row_result::softmax) {
    const C inverse_sum = C(1) / sum;
    store_sweep(value, row_out, step, [&](C x, int r) { return finish.template store<Out>(at, math::r_exp(x - shift) * inverse_sum, r); });
  } else {
    const C log_sum = math::r_log(sum);
    store_sweep(value, row_out, step, [&](C x, int r) { return finish.template store<Out>(at, (x - shift) - log_sum, r); });
  }
}

// layer_norm, rms_norm of a staged row: a sweep for the mean (layer norm), one for the squares,
// one for the outputs.
template <row_result What, class Plan, class Finish, class EpilogueRow>
__device__ XF_FORCEINLINE void staged_norm(const staged_row<Plan>& value, typename Plan::out_type* row_out, index_t step,
                                           typename Plan::acc_type* scratch, const Finish& finish, const EpilogueRow& at) {
  using C = typename Plan::acc_type;
  using Out = typename Plan::out_type;
  const int n = value.n;
  C mean = 0, squares = 0;
  if constexpr (What == row_result::layer_norm) {
    sweep(value, [&](C x, int) { mean += x; });
    mean = fold_block<false>(mean, scratch) / static_cast<C>(n);
  }
  sweep(value, [&](C x, int) { squares += (x - mean) * (x - mean); });
  const C inverse_std = C(1) / math::r_sqrt(fold_block<false>(squares, scratch) / static_cast<C>(n) + finish.eps);
  store_sweep(value, row_out, step, [&](C x, int r) { return finish.template store<Out>(at, finish.apply((x - mean) * inverse_std, r), r); });
}
#endif

// One block per row (blockIdx.x), its leaves' rows in dynamic shared memory.
template <row_result What, class Plan, class Finish>
__global__ void __launch_bounds__(staged_row_policy::block_threads)
    staged_row_kernel(const __grid_constant__ Plan p, const __grid_constant__ Finish finish) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using C = typename Plan::acc_type;
  extern __shared__ __align__(16) unsigned char staged[];
  __shared__ __align__(8) unsigned long long barrier_word;
  __shared__ C scratch[staged_row_policy::block_threads / 32];
  staged_row<Plan> row{p, staged, {}, {}, static_cast<int>(p.reduced.size)};
  index_t out_pos;
  layout_positions(p.kept, p.kept_narrow, blockIdx.x, row.kept_pos, out_pos);
  stage_row(row, staged, bulk::shared_address(&barrier_word));
  const auto at = finish.epilogue.row(blockIdx.x);
  if constexpr (is_softmax_kind<What>) staged_softmax<What>(row, p.out + out_pos, p.reduced.out_stride[0], scratch, finish, at);
  else staged_norm<What>(row, p.out + out_pos, p.reduced.out_stride[0], scratch, finish, at);
#endif
}

// The share of the SM's unified L1/shared memory given to shared memory, in percent: all of it,
// unless a weight or bias row is read by every block: then the L1 keeps room for them (rows of
// `weight_bytes` each: a weight, a bias, an operand of the epilogue) and 16 KiB more, or every
// block reads them from L2 again.
inline int staged_carveout(int device, index_t weight_bytes, int weight_rows) {
  if (weight_rows == 0) return 100;
  const auto total = static_cast<index_t>(xf::device(device).properties().sharedMemPerMultiprocessor);
  const index_t keep = weight_bytes * weight_rows + 16 * 1024;
  return keep >= total ? 0 : static_cast<int>((total - keep) * 100 / total);
}

template <row_result What, class Plan, class Finish>
void staged_rows_device(const Plan& p, const Finish& finish, int device, cudaStream_t stream) {
  if (p.kept.size > INT_MAX) throw error("xf: too many rows for one launch (" + std::to_string(p.kept.size) + ")");
  const auto bytes = static_cast<std::size_t>(staged_row_bytes<Plan>(p.reduced.size));
  const auto kernel = staged_row_kernel<What, Plan, Finish>;
  // Set when it changes (per kernel: the attribute belongs to the function).
  static atomic<int> carveout{-1};
  const int wanted = staged_carveout(device, p.reduced.size * static_cast<index_t>(sizeof(typename Plan::out_type)),
                                     (finish.weight != nullptr) + (finish.bias != nullptr) +
                                         decltype(finish.epilogue)::leaves_in_memory);
  if (carveout.exchange(wanted, order::acq_rel) != wanted)
    XF_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, wanted));
  kernel<<<static_cast<unsigned>(p.kept.size), staged_row_policy::block_threads, bytes, stream>>>(p, finish);
  XF_CUDA_CHECK(cudaGetLastError());
}

}  // namespace xf::detail
#endif
