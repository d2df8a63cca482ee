// SPDX-License-Identifier: Apache-2.0
// Device sorting on CUB's radix sorts, over unsigned keys (sort/radix_key.hpp), so one
// instantiation per key width serves every element type. Lines (the last axis) of at least
// `long_line` elements, or a single line, sort one by one with cub::DeviceRadixSort (onesweep,
// 64-bit counts); shorter lines sort together with cub::DeviceSegmentedRadixSort, in groups of
// under 2^31 elements (its counts are int).
#pragma once

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <utility>

#include "../base/memory.hpp"
#include "../exec/index_iterator.hpp"
#include "radix_key.hpp"

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
// With `from` (keys only), the keys are read from there and written into keys[0] (CUB's
// two-pointer sort: `from` is left as it is, keys[1] is unused). `kept`, when given, receives the
// temporary storage and its size, for work after the sort in stream order.
template <bool Pairs, class K>
int radix_sort_lines(K* const keys[2], std::int64_t* const values[2], index_t n, index_t lines, int end_bit,
                     cudaStream_t stream, const K* from = nullptr, std::pair<buffer, std::size_t>* kept = nullptr) {
  temp_storage temp;  // one allocation for every line's sort
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
      temp.run([&](void* t, std::size_t& bytes) {
        if constexpr (Pairs) return cub::DeviceRadixSort::SortPairs(t, bytes, kb, vb, n, 0, end_bit, stream);
        else if (from) return cub::DeviceRadixSort::SortKeys(t, bytes, from + l * n, keys[0] + l * n, n, 0, end_bit, stream);
        else return cub::DeviceRadixSort::SortKeys(t, bytes, kb, n, 0, end_bit, stream);
      });
      settle(from ? 0 : kb.selector, l * n, n);
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
      temp.run([&](void* t, std::size_t& bytes) {
        if constexpr (Pairs)
          return cub::DeviceSegmentedRadixSort::SortPairs(t, bytes, kb, vb, items, segments, offsets, offsets + 1, 0,
                                                          end_bit, stream);
        else if (from)
          return cub::DeviceSegmentedRadixSort::SortKeys(t, bytes, from + at, keys[0] + at, items, segments, offsets,
                                                         offsets + 1, 0, end_bit, stream);
        else
          return cub::DeviceSegmentedRadixSort::SortKeys(t, bytes, kb, items, segments, offsets, offsets + 1, 0, end_bit,
                                                         stream);
      });
      settle(from ? 0 : kb.selector, at, count * n);
    }
  }
  if (kept) *kept = temp.take();
  return result < 0 ? 0 : result;
}

// NaNs last. CUB orders floating keys by their bits (after its sign transform), so each line's NaNs
// with the sign bit set come first; NumPy puts every NaN last. Each line's leading NaNs count is
// found by a binary search (they are a prefix), and only where a line has some are its values
// moved forward and the NaNs written last (positive, as a sort by keys gives them).
template <class T>
__device__ XF_FORCEINLINE bool negative_nan(const T& v) {
  using Bits = radix_key_t<T>;
  Bits b;
  __builtin_memcpy(&b, &v, sizeof(T));
  const auto f = static_cast<std::conditional_t<std::is_same_v<T, double>, double, float>>(v);
  return f != f && (b >> (8 * sizeof(T) - 1)) != 0;
}

template <class T>
__global__ void count_leading_nans(const T* data, index_t n, index_t lines, index_t* counts, int* any) {
  const index_t line = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (line >= lines) return;
  const T* x = data + line * n;
  index_t lo = 0, hi = n;  // x[i] is a negative NaN for every i < lo, not one for any i >= hi
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    if (negative_nan(x[mid])) lo = mid + 1;
    else hi = mid;
  }
  counts[line] = lo;
  if (lo > 0) atomicOr(any, 1);
}

// Pass 0 writes the lines that have leading NaNs, rotated, into `scratch`; pass 1 copies them back.
template <class T>
__global__ void move_nans_last(T* data, T* scratch, index_t n, index_t total, const index_t* counts, const int* any, int pass) {
  if (*any == 0) return;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    const index_t line = i / n, j = i - line * n, k = counts[line];
    if (k == 0) continue;
    if (pass == 1) data[i] = scratch[i];
    else scratch[i] = j < n - k ? data[i + k] : static_cast<T>(__int_as_float(0x7fc00000));
  }
}

// nans_last's scratch: room for the lines' values, then the counts (16-byte aligned: after an odd
// count of 2-byte values they would not be), then a flag.
template <class T>
std::size_t nans_last_counts_at(index_t n, index_t lines) {
  return (static_cast<std::size_t>(n * lines) * sizeof(T) + 15) / 16 * 16;
}
template <class T>
std::size_t nans_last_bytes(index_t n, index_t lines) {
  return nans_last_counts_at<T>(n, lines) + static_cast<std::size_t>(lines) * sizeof(index_t) + sizeof(int);
}

// `scratch` (bytes long) is memory free in stream order: the sort's temporary storage, or the
// other buffer of an in-place sort; it is used when it is large enough.
template <class T>
void nans_last(T* data, index_t n, index_t lines, void* scratch, std::size_t bytes, cudaStream_t stream) {
  const index_t total = n * lines;
  buffer own;
  if (bytes < nans_last_bytes<T>(n, lines)) {
    own = allocate_device(nans_last_bytes<T>(n, lines));
    scratch = own.get();
  }
  auto* const base = static_cast<unsigned char*>(scratch);
  index_t* const counts = reinterpret_cast<index_t*>(base + nans_last_counts_at<T>(n, lines));
  int* const any = reinterpret_cast<int*>(counts + lines);
  XF_CUDA_CHECK(cudaMemsetAsync(any, 0, sizeof(int), stream));
  count_leading_nans<<<static_cast<unsigned>((lines + 255) / 256), 256, 0, stream>>>(data, n, lines, counts, any);
  XF_CUDA_CHECK(cudaGetLastError());
  const unsigned blocks = static_cast<unsigned>(std::min<index_t>((total + 255) / 256, 1024));  // grid-stride
  for (int pass = 0; pass < 2; ++pass) {
    move_nans_last<<<blocks, 256, 0, stream>>>(data, static_cast<T*>(scratch), n, total, counts, any, pass);
    XF_CUDA_CHECK(cudaGetLastError());
  }
}

}  // namespace xf::detail
#endif
