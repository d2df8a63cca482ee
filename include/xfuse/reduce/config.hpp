// SPDX-License-Identifier: Apache-2.0
// How a device reduction is launched, decided on the host from its plan and the GPU's size: the
// lanes per result, the splits of a result's elements over blocks, and whether chunks load as
// 16-byte vectors. Plain host code (no CUDA), so that the decisions are unit-tested without a GPU
// (tests/host/test_layout_host.cpp); the tuning values come from a policy (reduce_policy by
// default) so that they can be swept.
#pragma once

#include <cstdint>
#include <utility>

#include "../base/config.hpp"
#include "../expr/traits.hpp"
#include "policy.hpp"

namespace xf::detail {

// Whether every result's elements are E-aligned contiguous runs in every leaf held in memory
// (or broadcast along them): then chunks load with 16-byte accesses.
template <class Plan>
bool vector_chunks(const Plan& p) {
  if (Plan::E == 1 || p.reduced.rank != 1) return false;
  bool ok = true;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          using Leaf = tuple_element_t<K, typename Plan::leaves_type>;
          if constexpr (Leaf::in_memory) {
            const index_t s = p.reduced.stride[K][0];
            if (s == 0) return;
            constexpr index_t bytes = static_cast<index_t>(sizeof(typename Leaf::value_type)) * Plan::E;
            ok = ok && s == 1 && reinterpret_cast<std::uintptr_t>(get<K>(p.leaves).ptr + p.kept.base[K]) % bytes == 0;
            for (int d = 0; d < p.kept.rank && ok; ++d)
              ok = (p.kept.stride[K][d] * static_cast<index_t>(sizeof(typename Leaf::value_type))) % bytes == 0;
          }
        }(),
        ...);
  }(std::make_integer_sequence<int, Plan::L>{});
  return ok;
}

// How a reduction spreads over the GPU, which holds `slots` blocks of the kernel at once.
template <class Plan, class Policy = reduce_policy>
reduce_config choose_reduce_config(const Plan& p, index_t slots) {
  constexpr int threads = Policy::block_threads;
  const index_t n_out = p.kept.size, n_red = p.reduced.size;
  reduce_config c;
  bool contiguous_along_reduced = false;
  for (int k = 0; k < Plan::L; ++k) {
    const index_t s = p.reduced.stride[k][0];
    contiguous_along_reduced = contiguous_along_reduced || s == 1 || s == -1;
  }
  c.r_fast = contiguous_along_reduced || n_out == 1;
  if (c.r_fast) {
    // A block per result while each thread still gets 8 elements: many small blocks even out the
    // last wave (a warp per row of 8192 floats left a wave half empty); a warp per short row.
    c.r_lanes = n_red >= Policy::elements_per_thread_for_a_block * threads ? threads
                                                                                        : Policy::warp_lanes;
  } else {
    // Consecutive results across the block, a few threads splitting each result's elements.
    c.r_lanes = Policy::column_lanes;
  }
  c.o_lanes = threads / c.r_lanes;
  const index_t blocks = (n_out + c.o_lanes - 1) / c.o_lanes;
  // Fewer blocks than the GPU holds: split each result's elements so that one full wave runs
  // (any count, not a power of two: every SM gets the same work), at least 64 elements a thread.
  // (Two, four and eight waves measured no faster: bench/results/H200/evidence/reduce_waves.txt.)
  index_t splits = 1;
  if (blocks < slots) {
    splits = slots / blocks;
    const index_t most = n_red / (static_cast<index_t>(c.r_lanes) * Policy::min_elements_per_split_thread);
    if (splits > most) splits = most > 0 ? most : 1;
    if (splits > Policy::max_splits) splits = Policy::max_splits;
  }
  c.splits = static_cast<int>(splits);
  c.chunk = (n_red + splits - 1) / splits;
  c.chunked = c.r_fast && p.reduced.rank == 1 && Plan::E > 1;
  if (c.chunked) c.chunk = (c.chunk + Plan::E - 1) / Plan::E * Plan::E;
  return c;
}

}  // namespace xf::detail
