// SPDX-License-Identifier: Apache-2.0
// The launch of one fused element-wise evaluation, chosen on the host as a value: which walk the
// kernel takes (rows, bulk, tiled), which leaves go through shared memory, how many blocks and how
// much dynamic shared memory. Apart from the kernels, so that it reads as one decision.
#pragma once

#include "../base/device.hpp"
#include "plan.hpp"

namespace xf::detail {

struct launch_config {
  walk mode = walk::rows;
  index_t blocks = 0;          // along x; each covers one tile of the walk
  std::size_t smem_bytes = 0;  // dynamic shared memory (past default_dynamic_smem, an opt-in)
};

// Calls f(k, size of its element) for every leaf k of the plan that reads memory.
template <class Plan, class F>
void for_each_memory_leaf(const Plan&, F&& f) {
  using Leaves = typename Plan::leaves_type;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          if constexpr (tuple_element_t<K, Leaves>::in_memory) f(K, sizeof(typename tuple_element_t<K, Leaves>::value_type));
        }(),
        ...);
  }(std::make_integer_sequence<int, Plan::L>{});
}

// Marks the leaves that `wanted` accepts as staged in shared memory, each alias sharing its
// source's region, `bytes_per_element` bytes of shared memory a byte of element, regions aligned
// to `align`; returns the bytes (0 when none is staged).
template <class Plan, class Wanted>
std::size_t stage_leaves(Plan& p, const Wanted& wanted, std::size_t bytes_per_element, std::size_t align) {
  std::size_t bytes = 0;
  bool any = false;
  for_each_memory_leaf(p, [&](int k, std::size_t size) {
    if (p.alias[k] != k) {
      p.staged[k] = p.staged[p.alias[k]];
      p.smem_offset[k] = p.smem_offset[p.alias[k]];
      return;
    }
    p.staged[k] = wanted(k);
    if (!p.staged[k]) return;
    any = true;
    p.smem_offset[k] = static_cast<int>(bytes);
    bytes += (size * bytes_per_element + align - 1) / align * align;
  });
  return any ? bytes : std::size_t{0};
}

template <class Plan>
void unstage_leaves(Plan& p) {
  for_each_memory_leaf(p, [&](int k, std::size_t) { p.staged[k] = false; });
}

// The tiled walk, for a plan whose output is contiguous along dimension 0 and whose leaves read
// along dimension 1 (a transposed operand): those leaves go through shared memory as tiles.
template <class Plan>
launch_config choose_tiled(Plan& p, const launch_config& otherwise) {
  const auto& lay = p.lay;
  const std::size_t bytes = stage_leaves(
      p,
      [&](int k) {
        const index_t s0 = lay.stride[k][0], s1 = lay.stride[k][1];
        return s0 != 0 && s0 != 1 && s0 != -1 && (s1 == 1 || s1 == -1);
      },
      static_cast<std::size_t>(Plan::tile_side * (Plan::tile_side + 1)), 16);
  if (bytes == 0 || bytes > default_dynamic_smem) {
    unstage_leaves(p);
    return otherwise;
  }
  p.mode = walk::tiled;
  constexpr index_t t = Plan::tile_side;
  const index_t tiles0 = (lay.extent[0] + t - 1) / t, tiles1 = (lay.extent[1] + t - 1) / t;
  p.tile_count[0] = fast_divmod(tiles0);
  p.tile_count[1] = fast_divmod(tiles1);
  return {walk::tiled, tiles0 * tiles1 * (lay.size / (lay.extent[0] * lay.extent[1])), bytes};
}

// The bulk-copy walk (sm_90), for a contiguous plan: every contiguous leaf's tile arrives in shared
// memory by one bulk copy.
template <class Plan>
launch_config choose_bulk(Plan& p, int cur, const launch_config& otherwise) {
  const auto& lay = p.lay;
  bool contiguous = true;
  for_each_memory_leaf(p, [&](int k, std::size_t) {
    contiguous = contiguous && (lay.stride[k][0] == 0 || (lay.stride[k][0] == 1 && p.vec[k]));
  });
  if (!contiguous) return otherwise;
  const std::size_t bytes = stage_leaves(p, [&](int k) { return lay.stride[k][0] == 1; }, static_cast<std::size_t>(Plan::bulk_tile), 128);
  if (bytes == 0 || bytes > device(cur).properties().sharedMemPerBlockOptin - 1024) {
    unstage_leaves(p);
    return otherwise;
  }
  p.mode = walk::bulk;
  return {walk::bulk, (lay.size + Plan::bulk_tile - 1) / Plan::bulk_tile, bytes};
}

// The rows walk's launch: U chunks a thread, halved (down to one) while the tiles would need
// fewer blocks than the device has multiprocessors: a small statement runs as one short wave of
// many blocks, not as a few long ones.
template <class Plan>
launch_config choose_rows(Plan& p, int multiprocessors) {
  p.mode = walk::rows;
  p.chunks = Plan::U;
  const auto blocks = [&](int chunks) {
    const index_t tile = static_cast<index_t>(Plan::block_threads) * chunks * Plan::E;
    return (p.lay.size + tile - 1) / tile;
  };
  while (p.chunks > 1 && blocks(p.chunks) < multiprocessors) p.chunks /= 2;
  return {walk::rows, blocks(p.chunks), 0};
}

// Chooses how the kernel walks the elements and which leaves go through shared memory (recorded
// in the plan, which the kernel reads), and the launch that covers them on device `cur`. The bulk
// walk's tiles are large: an array they would cover in less than a wave takes the rows walk.
template <class Plan>
launch_config choose_launch(Plan& p, int cur) {
  const auto& lay = p.lay;
  const cudaDeviceProp& props = device(cur).properties();
  const launch_config rows = choose_rows(p, props.multiProcessorCount);
  if (lay.rank >= 2 && lay.out_stride[0] == 1 && lay.extent[0] >= 8 && lay.extent[1] >= 8) return choose_tiled(p, rows);
  if (Plan::policy::bulk_copy && lay.rank == 1 && lay.out_stride[0] == 1 && p.out_vec &&
      lay.size >= Plan::bulk_tile * props.multiProcessorCount && props.major >= 9)
    return choose_bulk(p, cur, rows);
  return rows;
}

}  // namespace xf::detail
