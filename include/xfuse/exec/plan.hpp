// SPDX-License-Identifier: Apache-2.0
// The plan of one fused evaluation: the evaluator functor, the leaves, the output pointer and the
// layout, plus the launch-invariant facts the kernel branches on (uniformly). It is the kernel's
// only parameter, and the host loop runs the very same plan.
#pragma once

#include "../expr/traits.hpp"
#include "layout.hpp"
#include "outputs.hpp"
#include "pass_guard.hpp"
#include "policy.hpp"

namespace xf::detail {

// Sizes of the leaves that read memory (generators load nothing): the chunk and unroll factors
// depend on them.
struct leaf_sizes {
  std::size_t smallest, largest, total;
};
template <class Leaves, int... I>
constexpr leaf_sizes memory_leaf_sizes(std::integer_sequence<int, I...>, std::size_t out_smallest, std::size_t out_largest) {
  constexpr bool in_memory[] = {tuple_element_t<I, Leaves>::in_memory..., false};
  constexpr std::size_t size[] = {sizeof(typename tuple_element_t<I, Leaves>::value_type)..., 0};
  leaf_sizes s{out_smallest, out_largest, 0};
  // The arrays end in a sentinel (not in memory), so the loop bound is never a constant zero
  // (which EDG warns about for expressions without leaves).
  for (std::size_t i = 0; i < std::size(in_memory); ++i) {
    if (!in_memory[i]) continue;
    if (size[i] < s.smallest) s.smallest = size[i];
    if (size[i] > s.largest) s.largest = size[i];
    s.total += size[i];
  }
  return s;
}

// How the kernel walks the elements (chosen on the host, uniform across the launch).
inline constexpr std::size_t default_dynamic_smem = 48 * 1024 - 1024;  // beyond this, a kernel opts in

enum class walk : unsigned char {
  rows,   // chunks of E elements along dimension 0, loaded into registers (any layout)
  bulk,   // contiguous: each block's tile of every input arrives by one bulk copy (Hopper's TMA)
  tiled,  // a leaf contiguous along dimension 1, not 0: 32x32 tiles transposed through shared memory
};

template <class Fn, class Leaves, class Out, int R, class Policy = elementwise_policy>
struct fused_plan {
  using fn_type = Fn;
  using out_type = Out;
  using leaves_type = Leaves;
  using policy = Policy;
  static constexpr int L = Leaves::size;
  static constexpr int rank = R;
  static constexpr int block_threads = Policy::block_threads;

 private:
  static constexpr leaf_sizes sizes = memory_leaf_sizes<Leaves>(std::make_integer_sequence<int, L>{}, output_pointer<Out>::smallest,
                                                                     output_pointer<Out>::largest);
  static constexpr std::size_t smallest = sizes.smallest;
  static constexpr std::size_t largest = sizes.largest;
  static constexpr std::size_t loaded = sizes.total;
  static constexpr int clamp_pow2(std::size_t v, std::size_t lo, std::size_t hi) {
    std::size_t r = lo;
    while (r * 2 <= v && r * 2 <= hi) r *= 2;
    return static_cast<int>(r);
  }

 public:
  // Elements per chunk: a 16-byte access of the narrowest type, capped so the widest type moves
  // at most Policy::max_chunk_bytes per chunk.
  static constexpr int E = clamp_pow2(16 / smallest, 1, Policy::max_chunk_bytes / largest > 0 ? Policy::max_chunk_bytes / largest : 1);
  // Chunks per thread: enough loads in flight (Policy::bytes_in_flight per thread over all leaves).
  static constexpr int U = clamp_pow2(Policy::bytes_in_flight / (E * (loaded > 0 ? loaded : sizeof(Out))), 1,
                                      Policy::max_chunks);
  static constexpr index_t tile = static_cast<index_t>(block_threads) * U * E;
  static constexpr int min_blocks = Policy::min_blocks_per_sm > 0 ? Policy::min_blocks_per_sm
                                    : L <= 2                         ? 5
                                    : L <= 4                         ? 4
                                                                     : 3;
  // The tiled walk's square tile: Policy::tile_side, halved (down to 32) while a thread's values,
  // tile_side^2 / block_threads elements of every leaf, exceed Policy::bytes_in_flight.
  static constexpr int tile_side = [] {
    int t = Policy::tile_side;
    while (t > 32 && static_cast<std::size_t>(t * t / block_threads) * (loaded > 0 ? loaded : sizeof(Out)) > Policy::bytes_in_flight) t /= 2;
    return t;
  }();
  // The bulk walk's tile: about Policy::bulk_tile_bytes of staged input per block.
  static constexpr int UB = clamp_pow2(Policy::bulk_tile_bytes / (block_threads * E * (loaded > 0 ? loaded : sizeof(Out))), 1, 64);
  static constexpr index_t bulk_tile = static_cast<index_t>(block_threads) * UB * E;

  Fn fn;
  Leaves leaves;
  output_pointer_t<Out> out;  // Out*, or an output_set for several destinations
  layout<R, L> lay;
  signed char alias[L > 0 ? L : 1];  // leaf k reads the same memory as leaf alias[k] (== k: itself)
  bool vec[L > 0 ? L : 1];           // leaf k can use aligned vector loads along dimension 0
  bool out_vec;                      // the output can use aligned vector stores
  bool row_chunks;                   // a chunk of E elements never crosses the innermost dimension
  walk mode;
  bool staged[L > 0 ? L : 1];        // bulk/tiled: leaf k goes through shared memory
  fast_divmod tile_count[2];         // tiled: tiles along dimensions 0 and 1
  int smem_offset[L > 0 ? L : 1];    // where leaf k's staged values start (an alias shares its source's)
  bool narrow;                       // every element index and position fits 31 bits: 32-bit index math
  int chunks = U;                    // rows: chunks a thread takes (U, fewer for an array under a wave)
  pass_guard guard;                  // in an unrolled device loop: whether the kernel's pass runs
};

}  // namespace xf::detail
