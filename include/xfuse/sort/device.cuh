// SPDX-License-Identifier: Apache-2.0
// Device sorting on CUB's radix sorts, over unsigned keys (sort/radix_key.hpp), so one
// instantiation per key width serves every element type. Lines (the last axis) of at least
// `long_line` elements, or a single line, sort one by one with cub::DeviceRadixSort (onesweep,
// 64-bit counts); shorter lines sort together with cub::DeviceSegmentedRadixSort, in groups of
// under 2^31 elements (its counts are int).
#pragma once

#include <climits>
#include <cstdint>

#include "../core/memory.hpp"
#include "../exec/index_iterator.hpp"

#if XF_CUDA_TU
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>

namespace xf::detail {

inline constexpr index_t long_line = index_t{1} << 20;

// Offset of line i within its group.
struct line_offset {
  index_t n;
  XF_HD XF_FORCEINLINE int operator()(index_t i) const { return static_cast<int>(i * n); }
};

// Sorts each of `lines` C-ordered lines of n keys in keys[0], carrying values[0] along when
// Pairs (argsort's positions). Both buffers of each pair are overwritten (CUB's double buffering,
// which saves a third copy); returns the index of the one holding the result.
template <bool Pairs, class K>
int radix_sort_lines(K* const keys[2], std::int64_t* const values[2], index_t n, index_t lines, int end_bit,
                     cudaStream_t stream) {
  buffer temp;
  std::size_t temp_bytes = 0;
  // Runs a CUB call twice (size query, then the sort), reusing the temporary storage when it fits.
  auto with_temp = [&](auto&& call) {
    std::size_t bytes = 0;
    XF_CUDA_CHECK(call(nullptr, bytes));
    if (bytes > temp_bytes) {
      temp = allocate_device(bytes);
      temp_bytes = bytes;
    }
    XF_CUDA_CHECK(call(temp.get(), bytes));
  };
  int result = -1;
  // Lines whose sort ended in the other buffer are copied over (CUB's pass count depends only on
  // the bit range, so this does not happen in practice).
  auto settle = [&](int selector, index_t first, index_t count) {
    if (result < 0) result = selector;
    if (selector == result) return;
    const std::size_t at = static_cast<std::size_t>(first), items = static_cast<std::size_t>(count);
    XF_CUDA_CHECK(cudaMemcpyAsync(keys[result] + at, keys[selector] + at, items * sizeof(K), cudaMemcpyDeviceToDevice, stream));
    if constexpr (Pairs)
      XF_CUDA_CHECK(cudaMemcpyAsync(values[result] + at, values[selector] + at, items * sizeof(std::int64_t),
                                    cudaMemcpyDeviceToDevice, stream));
  };
  if (lines == 1 || n >= long_line) {
    for (index_t l = 0; l < lines; ++l) {
      cub::DoubleBuffer<K> kb(keys[0] + l * n, keys[1] + l * n);
      cub::DoubleBuffer<std::int64_t> vb(Pairs ? values[0] + l * n : nullptr, Pairs ? values[1] + l * n : nullptr);
      with_temp([&](void* t, std::size_t& bytes) {
        if constexpr (Pairs) return cub::DeviceRadixSort::SortPairs(t, bytes, kb, vb, n, 0, end_bit, stream);
        else return cub::DeviceRadixSort::SortKeys(t, bytes, kb, n, 0, end_bit, stream);
      });
      settle(kb.selector, l * n, n);
    }
  } else {
    const index_t group = INT_MAX / n;
    const auto offsets = make_index_iterator(line_offset{n});
    for (index_t first = 0; first < lines; first += group) {
      const index_t count = lines - first < group ? lines - first : group;
      const index_t at = first * n;
      cub::DoubleBuffer<K> kb(keys[0] + at, keys[1] + at);
      cub::DoubleBuffer<std::int64_t> vb(Pairs ? values[0] + at : nullptr, Pairs ? values[1] + at : nullptr);
      const int items = static_cast<int>(count * n), segments = static_cast<int>(count);
      with_temp([&](void* t, std::size_t& bytes) {
        if constexpr (Pairs)
          return cub::DeviceSegmentedRadixSort::SortPairs(t, bytes, kb, vb, items, segments, offsets, offsets + 1, 0,
                                                          end_bit, stream);
        else
          return cub::DeviceSegmentedRadixSort::SortKeys(t, bytes, kb, items, segments, offsets, offsets + 1, 0, end_bit,
                                                         stream);
      });
      settle(kb.selector, at, count * n);
    }
  }
  return result < 0 ? 0 : result;
}

}  // namespace xf::detail
#endif
