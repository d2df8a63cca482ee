// SPDX-License-Identifier: Apache-2.0
// A long contiguous row of a row plan (row_plan.hpp) staged in shared memory on sm_90 by the
// bulk-copy (TMA) engine: one block per row; one thread starts a bulk copy of the row of every
// leaf in memory that another leaf does not already read (the plan's aliases: x in
// `x / sum(x)` is staged once), completing on an mbarrier; the block then sweeps the staged row as
// often as its arithmetic needs and writes each output once. Unlike a row held in registers, the
// row's bytes in flight are not bounded by registers: an SM keeps a copy in flight for every block
// its shared memory holds (seven rows of 8192 floats), so the copy engine streams the input while
// other blocks compute and store. Used by the row functions (rows/staged_row_kernel.cuh) and by
// expressions using reductions of their rows (staged_row_statistics_kernel.cuh).
#pragma once

#include "../base/atomic.hpp"
#include "../exec/bulk_copy.cuh"
#include "../exec/vector_io.cuh"
#include "row_plan.hpp"

#if XF_CUDA_TU
namespace xf::detail {

struct staged_row_policy {
  static constexpr int block_threads = 256;
  // Shared memory for one row of every staged leaf, within the 48 KiB a block may take without
  // opting in (less the kernel's own: the barrier and the fold's scratch).
  static constexpr index_t max_staged_bytes = 40 * 1024;
  // Shorter rows stay in registers (row_kernel.cuh), which measured as fast there.
  static constexpr index_t shortest_row = 2048;
};

// Elements a thread takes at a time in the sweeps of a staged row: one 16-byte shared-memory load
// of floats, one 16-byte store (fewer instructions per element: the sweeps are a third of the
// kernel's issue slots).
inline constexpr int staged_chunk = 4;

// Whether leaf K of the plan is staged: in memory, not a reduction's result (written by the
// kernel that stages), not reading what an earlier leaf reads, and different from one row to the
// next (a weight row that every row reads is read through the L1 instead: staged_carveout keeps
// room for it).
template <class Plan, int K>
XF_HD XF_FORCEINLINE bool staged_leaf(const Plan& p) {
  using Leaf = tuple_element_t<K, typename Plan::leaves_type>;
  if constexpr (Leaf::in_memory && !is_statistic_leaf<Leaf>) {
    if (p.alias[K] != K) return false;
    for (int d = 0; d < p.kept.rank; ++d)
      if (p.kept.stride[K][d] != 0) return true;
  }
  return false;
}

// Leaves read from memory without being staged, each a row that every row reads (aliases and
// reductions' results not counted).
template <class Plan>
int rows_read_by_every_row(const Plan& p) {
  int count = 0;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    ((count += tuple_element_t<K, typename Plan::leaves_type>::in_memory && !is_statistic_leaf<tuple_element_t<K, typename Plan::leaves_type>> &&
                   p.alias[K] == K && !staged_leaf<Plan, K>(p)),
     ...);
  }(std::make_integer_sequence<int, Plan::L>{});
  return count;
}

// Bytes of one row of every staged leaf (each a multiple of 16 where rows_stageable holds, so
// every staged row starts 16-byte aligned).
template <class Plan>
XF_HD index_t staged_row_bytes(const Plan& p, index_t n) {
  index_t bytes = 0;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    ((bytes += staged_leaf<Plan, K>(p) ? n * static_cast<index_t>(sizeof(typename tuple_element_t<K, typename Plan::leaves_type>::value_type)) : 0),
     ...);
  }(std::make_integer_sequence<int, Plan::L>{});
  return bytes;
}

// Whether every leaf in memory (but reductions' results) steps by +1 along the row, starts each row
// 16-byte aligned, and its row is a multiple of 16 bytes (staged or not, its chunks are read as
// vectors): what staging a row, or a piece of it that is a multiple of 16 elements, asks.
template <class Plan>
bool rows_aligned_for_staging(const Plan& p) {
  const index_t n = p.reduced.size;
  bool ok = true;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          using Leaf = tuple_element_t<K, typename Plan::leaves_type>;
          if constexpr (Leaf::in_memory && !is_statistic_leaf<Leaf>) {
            constexpr index_t size = static_cast<index_t>(sizeof(typename Leaf::value_type));
            ok = ok && p.reduced.stride[K][0] == 1 && (n * size) % 16 == 0 &&
                 reinterpret_cast<std::uintptr_t>(get<K>(p.leaves).ptr + p.kept.base[K] + p.reduced.base[K]) % 16 == 0;
            for (int d = 0; d < p.kept.rank && ok; ++d) ok = (p.kept.stride[K][d] * size) % 16 == 0;
          }
        }(),
        ...);
  }(std::make_integer_sequence<int, Plan::L>{});
  return ok;
}

// Whether every row can be staged whole: at least `shortest` long, aligned for staging, and the
// staged rows fit the shared memory budget.
template <class Plan>
bool rows_stageable(const Plan& p, index_t shortest = staged_row_policy::shortest_row) {
  const index_t n = p.reduced.size;
  if (n < shortest || staged_row_bytes(p, n) > staged_row_policy::max_staged_bytes) return false;
  return rows_aligned_for_staging(p);
}

// The share of the SM's unified L1/shared memory given to shared memory, in percent: all of it,
// unless rows that every block reads are read from memory (a weight, a bias, an operand of an
// epilogue: `rows` of `row_bytes` each): then the L1 keeps room for them and 16 KiB more, or every
// block reads them from L2 again.
inline int staged_carveout(int device, index_t row_bytes, int rows) {
  if (rows == 0) return 100;
  const auto total = static_cast<index_t>(xf::device(device).properties().sharedMemPerMultiprocessor);
  const index_t keep = row_bytes * rows + 16 * 1024;
  return keep >= total ? 0 : static_cast<int>((total - keep) * 100 / total);
}

// Gives Kernel that carveout (staged_carveout), asking the driver only when it changes: the
// attribute belongs to the function, so the last value set is kept per kernel.
template <auto Kernel>
void set_staged_carveout(int device, index_t row_bytes, int rows) {
  static atomic<int> set{-1};
  const int wanted = staged_carveout(device, row_bytes, rows);
  if (set.exchange(wanted, order::acq_rel) != wanted)
    XF_CUDA_CHECK(cudaFuncSetAttribute(Kernel, cudaFuncAttributePreferredSharedMemoryCarveout, wanted));
}

// What a staged row's reads of reductions' results give: nothing (the row functions have none).
struct no_statistics {};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// A block's row, staged: leaf K's row starts `offset[K]` bytes into `staged` (an alias at its
// source's); generators are computed where they are read; a reduction's result (a statistic leaf)
// is component K of the `stats` a read passes.
template <class Plan>
struct staged_row {
  using C = typename Plan::acc_type;
  using Leaves = typename Plan::leaves_type;
  const Plan& p;
  const unsigned char* staged;
  index_t kept_pos[Plan::slots];
  unsigned offset[Plan::slots];
  int n;
  bool all_staged;  // no leaf read from memory: the sweeps' chunks test nothing

  static constexpr unsigned unstaged = ~0u;  // the offset of a leaf read from memory

  template <int K, class Stats>
  __device__ XF_FORCEINLINE auto leaf(int r, const Stats& stats) const {
    using Leaf = tuple_element_t<K, Leaves>;
    if constexpr (is_statistic_leaf<Leaf>) {
      return get<K>(stats);
    } else {
      if constexpr (Leaf::in_memory) {
        if (offset[K] != unstaged) return reinterpret_cast<const typename Leaf::value_type*>(staged + offset[K])[r];
      }
      return get<K>(p.leaves).at(kept_pos[K] + p.reduced.base[K] + r * p.reduced.stride[K][0]);
    }
  }

  // The expression's value at position r (before the plan's map).
  template <class Stats = no_statistics>
  __device__ XF_FORCEINLINE auto point(int r, const Stats& stats = {}) const {
    return point_value<Leaves>(p.fn, [&](auto k) { return leaf<decltype(k)::value>(r, stats); }, std::make_integer_sequence<int, Plan::L>{});
  }

  // f(value, e) for the staged_chunk positions r0 + e (r0 a multiple of staged_chunk): each staged
  // leaf's values read as one shared-memory vector load (every staged row starts 16-byte aligned).
  template <bool Mixed, class Stats, class F>
  __device__ XF_FORCEINLINE void chunk_points(int r0, const Stats& stats, const F& f) const {
    [&]<int... K>(std::integer_sequence<int, K...>) {
      tuple<values<typename tuple_element_t<K, Leaves>::value_type, staged_chunk>...> loaded;
      (
          [&] {
            using T = typename tuple_element_t<K, Leaves>::value_type;
            if constexpr (tuple_element_t<K, Leaves>::in_memory && !is_statistic_leaf<tuple_element_t<K, Leaves>>) {
              if (!Mixed || offset[K] != unstaged) load_vector<T, staged_chunk>(reinterpret_cast<const T*>(staged + offset[K]) + r0, get<K>(loaded).v);
              else load_vector<T, staged_chunk>(get<K>(p.leaves).ptr + kept_pos[K] + p.reduced.base[K] + r0, get<K>(loaded).v);
            }
          }(),
          ...);
#pragma unroll
      for (int e = 0; e < staged_chunk; ++e) {
        const auto leaf_value = [&](auto k) {
          constexpr int J = decltype(k)::value;
          using Leaf = tuple_element_t<J, Leaves>;
          if constexpr (Leaf::in_memory && !is_statistic_leaf<Leaf>) return get<J>(loaded).v[e];
          else return leaf<J>(r0 + e, stats);
        };
        f(point_value<Leaves>(p.fn, leaf_value, std::make_integer_sequence<int, Plan::L>{}), e);
      }
    }(std::make_integer_sequence<int, Plan::L>{});
  }
};

// The offset of leaf `source` among the leaves J (by compile-time indices: a run-time index would
// put the offsets in local memory).
template <int N, int... J>
__device__ XF_FORCEINLINE unsigned source_offset(const unsigned (&offset)[N], int source, std::integer_sequence<int, J...>) {
  unsigned o = 0;
  ((o = source == J ? offset[J] : o), ...);
  return o;
}

// Places the staged leaves' rows in shared memory (row.n elements each) and sets the leaves'
// offsets (staged_row::unstaged: read from memory) and row.all_staged.
template <class Plan>
__device__ XF_FORCEINLINE void place_staged_rows(staged_row<Plan>& row) {
  using Leaves = typename Plan::leaves_type;
  const Plan& p = row.p;
  unsigned bytes = 0;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          row.offset[K] = staged_row<Plan>::unstaged;
          if (staged_leaf<Plan, K>(p)) {
            row.offset[K] = bytes;
            bytes += row.n * sizeof(typename tuple_element_t<K, Leaves>::value_type);
          }
        }(),
        ...);
    // An alias reads where its source does (staged or not).
    ((row.offset[K] = p.alias[K] != K ? source_offset(row.offset, p.alias[K], std::make_integer_sequence<int, K>{}) : row.offset[K]), ...);
    row.all_staged = ((!tuple_element_t<K, Leaves>::in_memory || is_statistic_leaf<tuple_element_t<K, Leaves>> ||
                       row.offset[K] != staged_row<Plan>::unstaged) && ...);
  }(std::make_integer_sequence<int, Plan::L>{});
}

// Called by one thread: the one arrival on `barrier` (announcing the bytes of row.n elements of
// every staged leaf), and one bulk copy per staged leaf from the row at row.kept_pos.
template <class Plan>
__device__ XF_FORCEINLINE void start_staging(const staged_row<Plan>& row, unsigned char* staged, unsigned barrier) {
  using Leaves = typename Plan::leaves_type;
  const Plan& p = row.p;
  bulk::arrive_expect_bytes(barrier, static_cast<unsigned>(staged_row_bytes(p, row.n)));
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          if (staged_leaf<Plan, K>(p)) {
            const auto* src = get<K>(p.leaves).ptr + row.kept_pos[K] + p.reduced.base[K];
            bulk::copy_to_shared(bulk::shared_address(staged + row.offset[K]), src,
                                 static_cast<unsigned>(row.n * sizeof(typename tuple_element_t<K, Leaves>::value_type)), barrier);
          }
        }(),
        ...);
  }(std::make_integer_sequence<int, Plan::L>{});
}

// Stages the block's row: thread 0 starts one bulk copy per staged leaf, all completing on
// `barrier`; the block then waits until every byte has arrived.
template <class Plan>
__device__ XF_FORCEINLINE void stage_row(staged_row<Plan>& row, unsigned char* staged, unsigned barrier) {
  place_staged_rows(row);
  if (threadIdx.x == 0) {
    bulk::barrier_init(barrier);
    start_staging(row, staged, barrier);
  }
  __syncthreads();  // the barrier is initialised before anyone waits on it
  bulk::wait_phase_zero(barrier);
}

// Calls f(value, r) for the expression's value at every position r of the row that this thread
// covers: whole chunks of staged_chunk elements (a warp's chunks are 32 neighbours, so its loads
// read 512 contiguous bytes), then the positions past the last whole chunk one by one.
template <class Plan, class Stats, class F>
__device__ XF_FORCEINLINE void sweep_points(const staged_row<Plan>& row, const Stats& stats, const F& f) {
  const int t = static_cast<int>(threadIdx.x), threads = static_cast<int>(blockDim.x), n = row.n;
  const int whole = n / staged_chunk * staged_chunk;
  const auto chunks = [&]<bool Mixed>(std::bool_constant<Mixed>) {
    for (int r0 = t * staged_chunk; r0 < whole; r0 += threads * staged_chunk)
      row.template chunk_points<Mixed>(r0, stats, [&](const auto& v, int e) { f(v, r0 + e); });
  };
  if (row.all_staged) chunks(std::false_type{});
  else chunks(std::true_type{});
  for (int r = whole + t; r < n; r += threads) f(row.point(r, stats), r);
}

// The same sweep with each value mapped by the plan's reducer to the compute type (the row
// functions' values).
template <class Plan, class F>
__device__ XF_FORCEINLINE void sweep(const staged_row<Plan>& row, const F& f) {
  sweep_points(row, no_statistics{}, [&](const auto& v, int r) { f(row.p.op.map(v, r), r); });
}

// Writes output(value, r) at row_out[r * step] for the expression's value at every position r
// that this thread covers (as sweep_points visits them); a whole chunk as one vector store where
// the output row is contiguous and aligned.
template <class Plan, class Stats, class Out, class Output>
__device__ XF_FORCEINLINE void store_sweep_points(const staged_row<Plan>& row, const Stats& stats, Out* row_out, index_t step,
                                                  const Output& output) {
  constexpr int width = staged_chunk * sizeof(Out) < 16 ? staged_chunk * static_cast<int>(sizeof(Out)) : 16;
  const bool vector = step == 1 && reinterpret_cast<std::uintptr_t>(row_out) % width == 0;
  const int t = static_cast<int>(threadIdx.x), threads = static_cast<int>(blockDim.x), n = row.n;
  const int whole = n / staged_chunk * staged_chunk;
  const auto chunks = [&]<bool Mixed>(std::bool_constant<Mixed>) {
    for (int r0 = t * staged_chunk; r0 < whole; r0 += threads * staged_chunk) {
      Out o[staged_chunk];
      row.template chunk_points<Mixed>(r0, stats, [&](const auto& v, int e) { o[e] = output(v, r0 + e); });
      if (vector) {
        store_vector<Out, staged_chunk>(row_out + r0, o);
      } else {
#pragma unroll
        for (int e = 0; e < staged_chunk; ++e) row_out[(r0 + e) * step] = o[e];
      }
    }
  };
  if (row.all_staged) chunks(std::false_type{});
  else chunks(std::true_type{});
  for (int r = whole + t; r < n; r += threads) row_out[r * step] = output(row.point(r, stats), r);
}

// The same with each value mapped to the compute type first (the row functions' outputs).
template <class Plan, class Out, class Output>
__device__ XF_FORCEINLINE void store_sweep(const staged_row<Plan>& row, Out* row_out, index_t step, const Output& output) {
  store_sweep_points(row, no_statistics{}, row_out, step, [&](const auto& v, int r) { return output(row.p.op.map(v, r), r); });
}
#endif

}  // namespace xf::detail
#endif
