// SPDX-License-Identifier: Apache-2.0
// Order statistics of a whole device array without sorting it (radix selection): the key of rank r
// among n unsigned keys (sort/radix_key.hpp) is found digit by digit, high digits first. Each pass
// builds a histogram of one 11-bit digit over the keys whose higher digits match the ones found so
// far, and one block picks the bin that holds rank r: three passes over 32-bit keys, six over
// 64-bit ones, each a read of the keys. A last pass finds the key of rank r + 1 (the next key up,
// or the same key when it repeats) for interpolation. Everything stays on the device, in stream
// order: the found digits live in a select_state in device memory that the next pass reads.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "../base/device.hpp"
#include "../base/memory.hpp"

#if XF_CUDA_TU
#include <cub/block/block_scan.cuh>

namespace xf::detail {

inline constexpr int select_digit_bits = 11;
inline constexpr int select_bins = 1 << select_digit_bits;
inline constexpr int select_threads = 512;
inline constexpr int select_pick_threads = 1024;  // two bins a thread
static_assert(select_bins == 2 * select_pick_threads);

// What the passes of one selection share, in device memory (zeroed before the first pass).
struct select_state {
  unsigned long long prefix;       // the digits of the wanted key found so far, in place
  unsigned long long rank;         // its rank among the keys that share those digits
  unsigned long long equal_count;  // after the last pass: how many keys equal it
  unsigned long long next_key;     // the key of rank + 1 (after select_next_key)
  unsigned long long nan_count;    // keys that are NaN (the all-ones key of a float type)
  unsigned long long histogram[select_bins];
};

// The bits of key k above `low_bit` (0 when low_bit is the key width).
template <class K>
XF_HD XF_FORCEINLINE K bits_above(K k, int low_bit) {
  return low_bit >= static_cast<int>(8 * sizeof(K)) ? K(0) : K(k >> low_bit);
}

// Kernels that do not depend on the key type are templates too: one definition per program.
template <class K>
__global__ void select_start(select_state* state, unsigned long long rank) {
  state->prefix = 0;
  state->rank = rank;
  state->equal_count = 0;
  state->next_key = ~0ull;
}

// Histogram of the digit at `shift` (`width` bits) of the keys whose bits above the digit equal
// the prefix found so far; the first pass (CountNan) also counts the NaN keys.
template <bool CountNan, class K>
__global__ void __launch_bounds__(select_threads) select_histogram(const K* keys, index_t n, select_state* state,
                                                                   int shift, int width) {
  __shared__ unsigned bins[select_bins];
  for (int i = threadIdx.x; i < select_bins; i += blockDim.x) bins[i] = 0;
  __syncthreads();
  const int high = shift + width;
  const K prefix = bits_above(K(state->prefix), high);
  const unsigned digit_mask = (1u << width) - 1u;
  unsigned long long nan_keys = 0;
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const K k = keys[i];
    if (CountNan && k == K(~K(0))) ++nan_keys;
    if (bits_above(k, high) == prefix) atomicAdd(&bins[static_cast<unsigned>(k >> shift) & digit_mask], 1u);
  }
  if constexpr (CountNan) {
    for (int offset = 16; offset > 0; offset /= 2) nan_keys += __shfl_down_sync(0xffffffffu, nan_keys, offset);
    if ((threadIdx.x & 31) == 0 && nan_keys != 0) atomicAdd(&state->nan_count, nan_keys);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < select_bins; i += blockDim.x)
    if (bins[i] != 0) atomicAdd(&state->histogram[i], static_cast<unsigned long long>(bins[i]));
}

// One block: the bin that holds the wanted rank becomes the digit at `shift`; the rank becomes
// the rank within that bin; the histogram is cleared for the next pass.
template <class K>
__global__ void __launch_bounds__(select_pick_threads) select_pick(select_state* state, int shift) {
  using scan = cub::BlockScan<unsigned long long, select_pick_threads>;
  __shared__ typename scan::TempStorage temp;
  const int first = 2 * static_cast<int>(threadIdx.x);
  const unsigned long long counts[2] = {state->histogram[first], state->histogram[first + 1]};
  unsigned long long before = 0;
  scan(temp).ExclusiveSum(counts[0] + counts[1], before);
  const unsigned long long rank = state->rank;
  __syncthreads();  // every thread has read rank before the owner rewrites it
  for (int b = 0; b < 2; ++b) {
    if (before <= rank && rank < before + counts[b]) {
      state->prefix |= static_cast<unsigned long long>(first + b) << shift;
      state->rank = rank - before;
      state->equal_count = counts[b];
    }
    before += counts[b];
  }
  state->histogram[first] = 0;
  state->histogram[first + 1] = 0;
}

// The key of rank + 1: the found key again while it repeats, else the smallest key above it
// (left at all ones when there is none: rank was the last).
template <class K>
__global__ void __launch_bounds__(select_threads) select_next_key(const K* keys, index_t n, select_state* state) {
  const K found = K(state->prefix);
  if (state->rank + 1 < state->equal_count) {
    if (blockIdx.x == 0 && threadIdx.x == 0) state->next_key = found;
    return;
  }
  unsigned long long least = ~0ull;
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const K k = keys[i];
    if (k > found && k < least) least = k;
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    const unsigned long long other = __shfl_down_sync(0xffffffffu, least, offset);
    least = other < least ? other : least;
  }
  if ((threadIdx.x & 31) == 0 && least != ~0ull) atomicMin(&state->next_key, least);
}

// out[at] = finish.from_keys(key of rank r, key of rank r + 1 (or r again: Same), any NaN).
template <class K, class Out, class Finish>
__global__ void select_finish(const select_state* state, Out* out, index_t at, Finish finish, bool same) {
  const K found = K(state->prefix);
  out[at] = finish.from_keys(found, same ? found : K(state->next_key), state->nan_count != 0);
}

// Writes finish.from_keys(key of rank, key of rank + 1, any NaN) to out[at] for each selection
// that `each` hands over: `each(select)` calls select(rank, finish, at, same), where `same` asks
// for the key of rank twice (rank is the last). `keys` holds n > 0 keys.
template <bool Floating, class K, class Out, class Each>
void select_ranks(const K* keys, index_t n, Out* out, const Each& each, cudaStream_t stream) {
  constexpr int key_bits = static_cast<int>(8 * sizeof(K));
  buffer state_memory = allocate_device(sizeof(select_state));
  auto* state = static_cast<select_state*>(state_memory.get());
  const device dev(device::current_id());
  const index_t wanted_blocks = (n + select_threads - 1) / select_threads;
  const unsigned blocks = static_cast<unsigned>(std::min<index_t>(wanted_blocks, 4 * dev.multiprocessor_count()));
  bool first_selection = true;
  each([&](unsigned long long rank, const auto& finish, index_t at, bool same) {
    // The histogram ends each selection cleared; the NaN count of the first one stays (the keys
    // do not change).
    if (first_selection) XF_CUDA_CHECK(cudaMemsetAsync(state, 0, sizeof(select_state), stream));
    select_start<K><<<1, 1, 0, stream>>>(state, rank);
    for (int high = key_bits; high > 0; high -= select_digit_bits) {
      const int width = high < select_digit_bits ? high : select_digit_bits, shift = high - width;
      if (Floating && first_selection && high == key_bits)
        select_histogram<true><<<blocks, select_threads, 0, stream>>>(keys, n, state, shift, width);
      else
        select_histogram<false><<<blocks, select_threads, 0, stream>>>(keys, n, state, shift, width);
      select_pick<K><<<1, select_pick_threads, 0, stream>>>(state, shift);
    }
    if (!same) select_next_key<<<blocks, select_threads, 0, stream>>>(keys, n, state);
    select_finish<K><<<1, 1, 0, stream>>>(state, out, at, finish, same);
    XF_CUDA_CHECK(cudaGetLastError());
    first_selection = false;
  });
}

}  // namespace xf::detail
#endif
