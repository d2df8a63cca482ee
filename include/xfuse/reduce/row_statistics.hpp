// SPDX-License-Identifier: Apache-2.0
// An expression that uses reductions of expressions along one axis, each keeping that axis, over
// the elements of the expression's own rows, written into a device array in one kernel:
//
//   y = x - xf::lazy::mean(x, 1, xf::keepdims);
//   y = x / xf::lazy::sum(x, 1, xf::keepdims);
//   y = (x - mu) / xf::sqrt(xf::lazy::var(x, 1, xf::keepdims) + eps);   // mu = lazy::mean(...)
//
// The expression and the reductions' inputs are zipped into one plan walking rows
// (make_row_plan: one layout, so a row is the same elements for all of them); the reducers fold
// side by side (reducers_together), var and std around the mean in a second sweep of the held row
// (held_fold.hpp). A row's statistics go into the reductions' result arrays, then its outputs are
// written from the row held on chip: on sm_90, rows of 2048 elements or more whose arrays fit 40
// KiB are staged in shared memory (staged_row_statistics_kernel.cuh), and shorter ones where two
// arrays of one type leave registers out; other rows are held in registers
// (row_statistics_kernel.cuh). Anything else (host arrays, other axes or shapes, a
// reduction already computed, a reduction of an expression that itself holds one, rows longer
// than a block holds (16384 floats) or fewer than the GPU's multiprocessors, rows strided in
// memory, two arrays of one element type in registers (before sm_90, or rows whose 16-byte
// chunks are not aligned), a destination that other elements read)
// takes the general path: each reduction runs when first needed (its own kernel, a small result),
// then the element-wise kernel. Both give the same values up to the rounding of a different
// summation order.
#pragma once

#include <tuple>
#include <utility>

#include "../expr/pending_operand.hpp"
#include "../expr/zip.hpp"
#include "pending.hpp"
#include "row_plan.hpp"
#include "row_statistics_kernel.cuh"
#include "staged_row_statistics_kernel.cuh"
#include "held_fold.hpp"
#include "together.hpp"
#include "../base/nvtx_emit.hpp"

namespace xf::detail {

// The described reductions that are operands of `e`, left to right, as a std::tuple of pointers
// (their own inputs are not searched).
template <class E>
auto pending_operands(const E& e) {
  if constexpr (is_pending_operand<E>) {
    return std::tuple<const E*>{&e};
  } else if constexpr (holds_pending_reduction<E>) {
    return [&]<int... I>(std::integer_sequence<int, I...>) {
      return std::tuple_cat(pending_operands(get<I>(e.children()))...);
    }(std::make_integer_sequence<int, std::remove_cvref_t<decltype(e.children())>::size>{});
  } else {
    return std::tuple<>{};
  }
}

// Whether the kind of each reduction allows the one kernel into a rank-R destination: one axis
// kept, an input of rank R that holds no described reduction of its own.
template <int R, class... P>
inline constexpr bool rows_fusable_kinds =
    sizeof...(P) > 0 &&
    ((P::keep && P::axis_count == 1 && rank_v<typename P::expression_type> == R && !holds_pending_reduction<typename P::expression_type>) && ...);

// The reducer of the plan: it folds the reductions' inputs (the zipped value after the first,
// which is the expression's) side by side; the plan's outputs are the expression's.
template <class Out, class Reducers>
struct statistics_then_outputs {
  using acc_type = typename Reducers::acc_type;
  using out_type = Out;
  Reducers reducers;

  XF_HD acc_type identity() const { return reducers.identity(); }
  template <class Zipped>
  XF_HD XF_FORCEINLINE acc_type map(const Zipped& v, index_t r) const {
    return reducers.map(inputs(v), r);
  }
  XF_HD XF_FORCEINLINE acc_type combine(const acc_type& a, const acc_type& b) const { return reducers.combine(a, b); }
  XF_HD auto finish(const acc_type& a, index_t n) const { return reducers.finish(a, n); }

  // The values after the first, as a tuple built in place (make_tuple is host code: it also copies
  // arrays, whose buffers live on the host).
  template <class Zipped>
  XF_HD XF_FORCEINLINE static auto inputs(const Zipped& v) {
    return after_first(v, std::make_integer_sequence<int, Zipped::size - 1>{});
  }
  template <class Zipped, int... I>
  XF_HD XF_FORCEINLINE static auto after_first(const Zipped& v, std::integer_sequence<int, I...>) {
    return tuple<std::remove_cvref_t<decltype(get<I + 1>(v))>...>{
        {tuple_leaf<I, std::remove_cvref_t<decltype(get<I + 1>(v))>>{get<I + 1>(v)}...}};
  }
};

// A held row's statistics fold as the reducers' own (held_fold.hpp), over the reductions' inputs.
template <class Out, class Reducers>
struct held_fold<statistics_then_outputs<Out, Reducers>> {
  using Op = statistics_then_outputs<Out, Reducers>;
  using A = typename Op::acc_type;
  using Inner = held_fold<Reducers>;
  static constexpr bool two_sweeps = Inner::two_sweeps;
  template <class Zipped>
  XF_HD XF_FORCEINLINE static A gather(const Op& op, const A& a, const Zipped& v, index_t r) {
    return Inner::gather(op.reducers, a, Op::inputs(v), r);
  }
  XF_HD XF_FORCEINLINE static A merge(const Op& op, const A& a, const A& b) { return Inner::merge(op.reducers, a, b); }
  XF_HD XF_FORCEINLINE static A centre(const Op& op, const A& a) { return Inner::centre(op.reducers, a); }
  template <class Zipped>
  XF_HD XF_FORCEINLINE static A spread(const Op& op, const A& a, const Zipped& v, index_t r) {
    return Inner::spread(op.reducers, a, Op::inputs(v), r);
  }
  XF_HD XF_FORCEINLINE static A merge_spread(const Op& op, const A& a, const A& b) { return Inner::merge_spread(op.reducers, a, b); }
};

// Undoes the reservation of the reductions' results unless the kernel was launched: they are then
// computed on first use, as if never reserved.
template <class Parts>
struct reserved_results {
  const Parts& parts;
  bool launched = false;
  ~reserved_results() {
    if (!launched) std::apply([](const auto*... q) { (q->state->value.reset(), ...); }, parts);
  }
};

// The slot of the leaf of `records` that reads `data` (a reduction's result array), or -1.
template <class Records>
int slot_reading(const Records& records, const void* data) {
  int found = -1;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          if constexpr (tuple_element_t<K, Records>::desc_type::in_memory)
            if (found < 0 && static_cast<const void*>(get<K>(records).desc.ptr) == data) found = K;
        }(),
        ...);
  }(std::make_integer_sequence<int, Records::size>{});
  return found;
}

// Whether every statistic is the same along its row (step 0: the kernels read it once).
template <class Plan>
bool statistics_constant_along_rows(const Plan& p) {
  return [&]<int... K>(std::integer_sequence<int, K...>) {
    return ((!is_statistic_leaf<tuple_element_t<K, typename Plan::leaves_type>> || p.reduced.stride[K][0] == 0 || p.reduced.size == 1) && ...);
  }(std::make_integer_sequence<int, Plan::L>{});
}

// Sets which result each statistic leaf reads; false unless every one reads, for each row, what
// that row stores (the same layout as the leaf the results are stored through).
template <class Plan, class Records, std::size_t N, class Destinations>
bool statistics_of_own_rows(const Plan& p, const Records& records, const void* const (&results)[N], Destinations& stats) {
  bool own = true;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          stats.result_of[K] = -1;
          if constexpr (is_statistic_leaf<tuple_element_t<K, typename Plan::leaves_type>>) {
            for (std::size_t i = 0; i < N; ++i)
              if (static_cast<const void*>(get<K>(records).desc.ptr) == results[i]) stats.result_of[K] = static_cast<signed char>(i);
            own = own && stats.result_of[K] >= 0 && p.alias[K] == stats.slot[stats.result_of[K]];
          }
        }(),
        ...);
  }(std::make_integer_sequence<int, Plan::L>{});
  return own;
}

#if XF_CUDA_TU
// The current device reaches the destination and every array the plan reads (else an exception).
template <class T, int R, class Plan, class All>
void require_launch_access(const array<T, R, device>& dst, const Plan& p, const All& all, int cur, const char* op) {
  require_access(dst.device_id(), cur, op);
  require_leaf_access(p, all, cur, op);
}

// The launch, once the reductions' results are reserved: false when the destination overlaps what
// other elements read, or the rows do not fit a launch.
template <class T, int R, class E, class... P>
bool launch_row_statistics(const array<T, R, device>& dst, const E& e, int axis, const char* op, const P*... parts) {
  const zipped<void, E, typename P::expression_type...> all(e, parts->expr...);
  if (reads_written_memory(dst.data(), dst.shape(), dst.strides(), all)) return false;
  using Reducers = reducers_together<typename P::op_type...>;
  const statistics_then_outputs<T, Reducers> op_of_rows{Reducers{detail::make_tuple(parts->op...)}};
  const auto p = make_row_plan(all, axis, op_of_rows, dst.data(), dst.strides());
  using Plan = std::remove_cvref_t<decltype(p)>;
  statistics_destinations<Plan::L, typename P::op_type::out_type...> stats{detail::make_tuple(parts->state->value->data()...), {}, {}};
  const auto records = all.leaves();
  const void* const results[] = {static_cast<const void*>(parts->state->value->data())...};
  for (std::size_t i = 0; i < sizeof...(P); ++i) {
    stats.slot[i] = slot_reading(records, results[i]);
    if (stats.slot[i] < 0) return false;
  }
  if (!statistics_constant_along_rows(p) || !statistics_of_own_rows(p, records, results, stats)) return false;
  const int cur = device::current_id();
  // Long contiguous rows on sm_90: staged in shared memory, every array once; shorter ones too
  // where registers cannot hold their arrays (one register set per element type).
  const index_t shortest = held_shared(p) ? staged_row_policy::shortest_row : 1;
  if (device(cur).properties().major >= 9 && rows_stageable(p, shortest)) {
    require_launch_access(dst, p, all, cur, op);
    staged_row_statistics_device(p, stats, cur, current_slot(cur).handle);
    return true;
  }
  // Rows a block cannot hold, rows strided in memory (uncoalesced by a row's threads), or two
  // arrays of one element type (one register set per type): the general path.
  const int row_threads = row_statistics_threads<decltype(p)>(p.reduced.size);
  if (row_threads == 0 || !leaves_adjacent<decltype(p)>(p.reduced, 0) || !held_shared(p)) return false;
  const int block = row_threads < row_statistics_policy::block_threads ? row_statistics_policy::block_threads : row_threads;
  const index_t rows_per_block = block / row_threads;
  const index_t blocks = (p.kept.size + rows_per_block - 1) / rows_per_block;
  if (blocks > INT_MAX) return false;
  require_launch_access(dst, p, all, cur, op);
  row_statistics_kernel<<<static_cast<unsigned>(blocks), block, 0, current_slot(cur).handle>>>(p, stats, row_threads);
  XF_CUDA_CHECK(cudaGetLastError());
  return true;
}
#endif

template <class T, int R, class Space, class E>
bool rows_with_statistics(const array<T, R, Space>& dst, const E& e, const char* op) {
  const auto parts = pending_operands(e);
  constexpr bool fusable_kinds = std::is_same_v<Space, device> && rank_v<E> == R && cuda_tu &&
                                 []<class... P>(std::type_identity<std::tuple<const P*...>>) {
                                   return rows_fusable_kinds<R, P...>;
                                 }(std::type_identity<std::remove_cvref_t<decltype(parts)>>{});
  if constexpr (!fusable_kinds) {
    return false;
  } else {
#if XF_CUDA_TU
    const auto shape = dst.shape();
    const int axis = std::get<0>(parts)->axes[0];
    const bool same_rows = std::apply(
        [&](const auto*... q) { return ((q->expr.shape() == shape && q->axes[0] == axis && !q->state->value) && ...); }, parts);
    // A destination walked backwards along the rows would make the row plan flip them.
    if (!same_rows || e.shape() != shape || dst.size() == 0 || dst.strides()[axis] < 0) return false;
    // Fewer rows than multiprocessors leave the GPU idle: the general path splits long rows.
    if (dst.size() / shape[axis] < device(dst.device_id()).multiprocessor_count()) return false;
    const nvtx_range range(op);
    auto keep_shape = shape;
    keep_shape[axis] = 1;
    reserved_results<std::remove_cvref_t<decltype(parts)>> reserved{parts};  // first: an allocation may throw
    std::apply([&](const auto*... q) { (q->state->value.emplace(keep_shape), ...); }, parts);
    reserved.launched = std::apply([&](const auto*... q) { return launch_row_statistics(dst, e, axis, op, q...); }, parts);
    return reserved.launched;
#else
    return false;
#endif
  }
}

}  // namespace xf::detail
