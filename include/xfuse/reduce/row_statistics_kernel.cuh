// SPDX-License-Identifier: Apache-2.0
// One kernel for an expression and the reductions along one axis that it uses
// (row_statistics.hpp). Each row (the elements along the axis) is taken by `row_threads` threads
// of a block, each holding up to H of the row's elements in registers: per element type, the
// values of the first leaf held in memory (not a reduction's result), shared by every leaf of that
// type (x in `x / sum(x)` is read by two leaves and held once). The threads fold the row's
// statistics (every described reduction at once, reducers_together, by held_fold.hpp: var and std
// sweep the held values twice), store them into the reductions' result arrays, and compute the
// row's outputs from the held values and the statistics in registers: one read and one write of
// memory, as the fused softmax (row_kernel.cuh).
#pragma once

#include <utility>

#include "held_fold.hpp"
#include "kernel.cuh"
#include "row_plan.hpp"

#if XF_CUDA_TU
namespace xf::detail {

using row_statistics_policy = held_row_policy;

// Whether leaf K's values stay in registers between the two phases: memory, not a statistic.
template <class Leaves, int K>
inline constexpr bool held_leaf = tuple_element_t<K, Leaves>::in_memory && !is_statistic_leaf<tuple_element_t<K, Leaves>>;

// The leaf whose registers leaf K reads: the first held leaf of K's type. The kernel runs only
// when each held leaf reads what that one reads (held_shared, checked per launch; a test per
// element cost 12% of the standardised rows' time).
template <class Leaves, int K, int J = 0>
XF_HD constexpr int held_source() {
  if constexpr (J >= K) return K;
  else if constexpr (held_leaf<Leaves, J> && std::is_same_v<tuple_element_t<J, Leaves>, tuple_element_t<K, Leaves>>) return J;
  else return held_source<Leaves, K, J + 1>();
}

// Elements of a row a thread holds: bytes_per_thread of the widest held leaf, at most 16.
template <class Leaves>
inline constexpr int held_per_thread = [] {
  std::size_t widest = 1;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    ((widest = held_leaf<Leaves, K> && sizeof(typename tuple_element_t<K, Leaves>::value_type) > widest
                   ? sizeof(typename tuple_element_t<K, Leaves>::value_type)
                   : widest),
     ...);
  }(std::make_integer_sequence<int, Leaves::size>{});
  // At most 16: an element takes a register however narrow it is.
  return row_statistics_policy::bytes_per_thread / widest < 16 ? static_cast<int>(row_statistics_policy::bytes_per_thread / widest) : 16;
}();

// Where the statistics of a row go: result array I of the reductions, at the position that the
// expression's leaf `slot[I]` (reading that array) has for the row; and which result each of the
// plan's L leaves reads (-1: none). Every leaf reading a result reads this row's (the host checks
// that it aliases slot[I]), so the outputs take the statistics from registers.
template <int L, class... Out>
struct statistics_destinations {
  tuple<Out*...> to;
  int slot[sizeof...(Out)];
  signed char result_of[L > 0 ? L : 1];
};

// The zipped expression's value at row element r (the expression's value first, then the
// reductions' inputs): held leaves from the registers `held`, statistics from `row_stats` (the
// row's values once folded; before that they are not read), generators computed.
template <bool Statistics, class Plan, class Held>
__device__ XF_FORCEINLINE auto zipped_value(const Plan& p, const index_t (&kept_pos)[Plan::slots], const Held& held, index_t r,
                                            const Held& row_stats) {
  using Leaves = typename Plan::leaves_type;
  return point_value<Leaves>(
      p.fn,
      [&](auto k) {
        constexpr int K = decltype(k)::value;
        using V = typename tuple_element_t<K, Leaves>::value_type;
        constexpr int source = held_source<Leaves, K>();
        const index_t pos = kept_pos[K] + p.reduced.base[K] + r * p.reduced.stride[K][0];
        if constexpr (held_leaf<Leaves, K>) return get<source>(held);
        else if constexpr (is_statistic_leaf<tuple_element_t<K, Leaves>>) return Statistics ? get<K>(row_stats) : V{};
        else return get<K>(p.leaves).at(pos);
      },
      std::make_integer_sequence<int, Plan::L>{});
}

// The thread's share of a row: chunks of E consecutive elements, chunk c of the thread at
// (c * row_threads + lane) * E, so that a warp's loads of one chunk are consecutive.
struct row_share {
  int lane, row_threads;
  index_t n;
  __device__ XF_FORCEINLINE index_t chunk_start(int c, int E) const { return (static_cast<index_t>(c) * row_threads + lane) * E; }
};

// Loads the held leaves' values of the thread's H elements into `held` (the first leaf of each
// register set only): a 16-byte load per chunk where the leaf is contiguous along the row and
// aligned, element by element otherwise and at the row's end.
template <int H, class Plan, class Held>
__device__ XF_FORCEINLINE void load_held(const Plan& p, const index_t (&kept_pos)[Plan::slots], const row_share& share, Held (&held)[H]) {
  using Leaves = typename Plan::leaves_type;
  constexpr int E = Plan::E;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          if constexpr (held_leaf<Leaves, K> && held_source<Leaves, K>() == K) {
            using V = typename tuple_element_t<K, Leaves>::value_type;
            const V* row = get<K>(p.leaves).ptr + kept_pos[K] + p.reduced.base[K];
            const index_t stride = p.reduced.stride[K][0];
            const bool vector = stride == 1 && reinterpret_cast<std::uintptr_t>(row) % (E * sizeof(V) < 16 ? E * sizeof(V) : 16) == 0;
#pragma unroll
            for (int c = 0; c < H / E; ++c) {
              const index_t r0 = share.chunk_start(c, E);
              if (vector && r0 + E <= share.n) {
                V v[E];
                load_vector<V, E>(row + r0, v);
#pragma unroll
                for (int e = 0; e < E; ++e) get<K>(held[c * E + e]) = v[e];
              } else {
#pragma unroll
                for (int e = 0; e < E; ++e)
                  if (r0 + e < share.n) get<K>(held[c * E + e]) = row[(r0 + e) * stride];
              }
            }
          }
        }(),
        ...);
  }(std::make_integer_sequence<int, Plan::L>{});
}

// The row's accumulators folded by `merge` over its threads (a power of two, aligned in the
// block): by shuffles within a warp, then across the row's warps through shared memory. Every
// thread of the block calls it; every thread of a row gets the row's total.
template <class Acc, class Merge>
__device__ XF_FORCEINLINE Acc fold_over_row(Acc acc, int row_threads, Acc* scratch, const Merge& merge) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    if (offset < row_threads) acc = merge(acc, shuffle_xor(acc, offset));
  if (row_threads <= 32) return acc;
  const int warp = static_cast<int>(threadIdx.x) / 32, warps = row_threads / 32, first = warp / warps * warps;
  __syncthreads();  // the scratch of an earlier fold has been read
  if (threadIdx.x % 32 == 0) scratch[warp] = acc;
  __syncthreads();
  acc = scratch[first];
  for (int w = 1; w < warps; ++w) acc = merge(acc, scratch[first + w]);
  return acc;
}

// A held row's statistics: `visit(f)` calls f(zipped value, position) for each element of the row
// that this thread holds; folded over the row's threads, a second time around the mean for the
// reducers that centre (held_fold.hpp). Every thread of the block calls it.
template <class Plan, class Visit>
__device__ XF_FORCEINLINE typename Plan::acc_type fold_held_row(const Plan& p, const Visit& visit, int row_threads,
                                                                typename Plan::acc_type* scratch) {
  using Fold = held_fold<typename Plan::op_type>;
  using Acc = typename Plan::acc_type;
  Acc acc = p.op.identity();
  visit([&](const auto& v, index_t r) { acc = Fold::gather(p.op, acc, v, r); });
  acc = fold_over_row(acc, row_threads, scratch, [&](const Acc& a, const Acc& b) { return Fold::merge(p.op, a, b); });
  if constexpr (Fold::two_sweeps) {
    acc = Fold::centre(p.op, acc);
    visit([&](const auto& v, index_t r) { acc = Fold::spread(p.op, acc, v, r); });
    acc = fold_over_row(acc, row_threads, scratch, [&](const Acc& a, const Acc& b) { return Fold::merge_spread(p.op, a, b); });
  }
  return acc;
}

// kept_pos[slot] by compile-time indices (a run-time index puts the positions in local memory,
// where every later read of them goes).
template <int... K>
__device__ XF_FORCEINLINE index_t position_of_slot(const index_t* kept_pos, int slot, std::integer_sequence<int, K...>) {
  index_t at = 0;
  ((at = slot == K ? kept_pos[K] : at), ...);
  return at;
}

// Statistic leaf K's value from the row's finished results (those of its own result array).
template <int K, class Leaves, class Held, class Results, int... I>
__device__ XF_FORCEINLINE void take_result(Held& row_stats, const Results& results, int result, std::integer_sequence<int, I...>) {
  using V = typename tuple_element_t<K, Leaves>::value_type;
  (
      [&] {
        if constexpr (std::is_same_v<V, std::remove_cvref_t<decltype(get<I>(results))>>)
          if (result == I) get<K>(row_stats) = get<I>(results);
      }(),
      ...);
}

// The row's statistics, finished from its accumulators: stored by one thread of the row (`store`)
// where the plan's destinations take them, and returned by every thread as the values its
// statistic leaves read (what the expression computes from them alone, sqrt(var + eps), is then
// computed once a row).
template <class Held, class Plan, class Destinations>
__device__ XF_FORCEINLINE Held finish_row_statistics(const Plan& p, const Destinations& stats, const typename Plan::acc_type& acc,
                                                     index_t n, const index_t* kept_pos, bool store) {
  using Leaves = typename Plan::leaves_type;
  const auto results = p.op.finish(acc, n);
  constexpr auto each_result = std::make_integer_sequence<int, std::remove_cvref_t<decltype(results)>::size>{};
  if (store) {
    constexpr auto slots = std::make_integer_sequence<int, Plan::slots>{};
    [&]<int... I>(std::integer_sequence<int, I...>) {
      ((get<I>(stats.to)[position_of_slot(kept_pos, stats.slot[I], slots)] = get<I>(results)), ...);
    }(each_result);
  }
  Held row_stats;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          if constexpr (is_statistic_leaf<tuple_element_t<K, Leaves>>) take_result<K, Leaves>(row_stats, results, stats.result_of[K], each_result);
        }(),
        ...);
  }(std::make_integer_sequence<int, Plan::L>{});
  return row_stats;
}

template <class Plan, class Destinations>
__global__ void __launch_bounds__(row_statistics_policy::max_row_threads)
    row_statistics_kernel(const __grid_constant__ Plan p, const __grid_constant__ Destinations stats, int row_threads) {
  using Leaves = typename Plan::leaves_type;
  using Acc = typename Plan::acc_type;
  using Out = typename Plan::out_type;
  constexpr int H = held_per_thread<Leaves>, E = Plan::E;
  static_assert(H % E == 0, "xf: a thread's held elements are whole chunks");
  using Held = decltype([]<int... K>(std::integer_sequence<int, K...>) {
    return tuple<typename tuple_element_t<K, Leaves>::value_type...>{};
  }(std::make_integer_sequence<int, Plan::L>{}));
  // Raw bytes: an accumulator of complex values has a constructor, which __shared__ forbids.
  __shared__ alignas(16) unsigned char raw[row_statistics_policy::max_row_threads / 32 * sizeof(Acc)];
  Acc* const scratch = reinterpret_cast<Acc*>(raw);
  const int t = static_cast<int>(threadIdx.x);
  const row_share share{t % row_threads, row_threads, p.reduced.size};
  const index_t o = static_cast<index_t>(blockIdx.x) * (blockDim.x / row_threads) + t / row_threads;
  const bool live = o < p.kept.size;  // the block's last rows may not exist; their threads still fold
  index_t kept_pos[Plan::slots] = {}, out_pos = 0;
  if (live) layout_positions(p.kept, p.kept_narrow, o, kept_pos, out_pos);

  // The row's elements, loaded once and folded into the statistics.
  Held held[H];
  if (live) load_held<H>(p, kept_pos, share, held);
  const auto each_held = [&](const auto& f) {
#pragma unroll
    for (int i = 0; i < H; ++i) {
      const index_t r = share.chunk_start(i / E, E) + i % E;
      if (live && r < share.n) f(zipped_value<false>(p, kept_pos, held[i], r, held[i]), r);
    }
  };
  const Acc acc = fold_held_row(p, each_held, row_threads, scratch);
  // The outputs, from the held values and the statistics.
  if (!live) return;
  const Held row_stats = finish_row_statistics<Held>(p, stats, acc, share.n, kept_pos, share.lane == 0);
  const index_t step = p.reduced.out_stride[0];
  Out* const row_out = p.out + out_pos;
  constexpr int width = E * static_cast<int>(sizeof(Out)) < 16 ? E * static_cast<int>(sizeof(Out)) : 16;
  const bool vector = step == 1 && reinterpret_cast<std::uintptr_t>(row_out) % width == 0;
#pragma unroll
  for (int c = 0; c < H / E; ++c) {
    const index_t r0 = share.chunk_start(c, E);
    if (r0 >= share.n) break;
    Out r[E];
#pragma unroll
    for (int e = 0; e < E; ++e)
      if (r0 + e < share.n) r[e] = get<0>(zipped_value<true>(p, kept_pos, held[c * E + e], r0 + e, row_stats));
    if (vector && r0 + E <= share.n) {
      store_vector<Out, E>(row_out + r0, r);
    } else {
#pragma unroll
      for (int e = 0; e < E; ++e)
        if (r0 + e < share.n) row_out[(r0 + e) * step] = r[e];
    }
  }
}

// Whether every held leaf reads what the first held leaf of its type reads: then one register set
// per type holds the row. (Two arrays of one type, as x and a weight, take the general path.)
template <class Plan>
bool held_shared(const Plan& p) {
  using Leaves = typename Plan::leaves_type;
  return [&]<int... K>(std::integer_sequence<int, K...>) {
    return ((!held_leaf<Leaves, K> || p.alias[K] == held_source<Leaves, K>()) && ...);
  }(std::make_integer_sequence<int, Plan::L>{});
}

// Threads per row (a power of two) for rows of n elements: enough to hold the row, or 0 when a
// row is longer than a block can hold.
template <class Plan>
int row_statistics_threads(index_t n) {
  constexpr int H = held_per_thread<typename Plan::leaves_type>;
  int threads = 1;
  while (threads < row_statistics_policy::max_row_threads && static_cast<index_t>(threads) * H < n) threads *= 2;
  return static_cast<index_t>(threads) * H < n ? 0 : threads;
}

}  // namespace xf::detail
#endif
