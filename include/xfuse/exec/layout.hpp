// SPDX-License-Identifier: Apache-2.0
// The iteration layout of one evaluation: the output's dimensions after dropping extent-1
// dimensions, ordering by the output's strides, flipping negative output strides and merging
// dimensions that every operand walks contiguously. Dimension 0 is the innermost.
//
// Each positional leaf k sits at position base[k] + sum_d index[d] * stride[k][d]; the output at
// out_base + sum_d index[d] * out_stride[d].
#pragma once

#include <cstdint>

#include "../base/shape.hpp"

namespace xf::detail {

// Division by a run-time constant with a multiply-high and a shift (Granlund and Montgomery),
// exact for dividends below 2^63 (div) or 2^31 (div32): strided and broadcast operands pay no
// division instruction.
struct fast_divmod {
  std::uint64_t divisor = 1;
  std::uint64_t magic = 1;
  std::uint32_t magic32 = 1;  // for divisors below 2^31
  unsigned shift = 0;

  fast_divmod() = default;
  explicit fast_divmod(index_t d) : divisor(static_cast<std::uint64_t>(d)) {
    while ((std::uint64_t{1} << shift) < divisor) ++shift;
    const std::uint64_t excess = (std::uint64_t{1} << shift) - divisor;
    magic = static_cast<std::uint64_t>(((static_cast<unsigned __int128>(1) << 64) * excess) / divisor) + 1;
    if (shift < 32) magic32 = static_cast<std::uint32_t>(((std::uint64_t{1} << 32) * excess) / divisor + 1);
  }

  // n < 2^31 and a divisor below 2^31: then t <= n and t + n cannot wrap.
  XF_HD XF_FORCEINLINE std::uint32_t div32(std::uint32_t n) const {
#if XF_DEVICE_PASS
    const std::uint32_t t = __umulhi(magic32, n);
#else
    const auto t = static_cast<std::uint32_t>((static_cast<std::uint64_t>(magic32) * n) >> 32);
#endif
    return (t + n) >> shift;
  }

  XF_HD XF_FORCEINLINE index_t div(index_t n) const {
    const auto u = static_cast<std::uint64_t>(n);
#if XF_DEVICE_PASS
    const std::uint64_t t = __umul64hi(magic, u);
#else
    const auto t = static_cast<std::uint64_t>((static_cast<unsigned __int128>(magic) * u) >> 64);
#endif
    return static_cast<index_t>((t + u) >> shift);
  }
};

template <int R, int L>
struct layout {
  static constexpr int max_rank = R > 0 ? R : 1;
  static constexpr int leaves = L > 0 ? L : 1;
  int rank = 1;  // dimensions after collapsing, >= 1
  index_t size = 0;
  index_t extent[max_rank] = {};
  fast_divmod div[max_rank] = {};
  index_t out_stride[max_rank] = {};
  index_t out_base = 0;
  index_t stride[leaves][max_rank] = {};
  index_t base[leaves] = {};
};

// Strides of a leaf seen from an output of rank R: right-aligned, 0 where the leaf broadcasts.
template <int R, std::size_t N>
void broadcast_strides(const std::array<index_t, N>& shape, const std::array<index_t, N>& strides,
                       const dims<R>& out_shape, index_t (&out)[layout<R, 1>::max_rank]) {
  for (int i = 0; i < R; ++i) {
    const int d = i - (R - static_cast<int>(N));
    out[i] = (d >= 0 && shape[d] == out_shape[i] && shape[d] != 1) ? strides[d] : 0;
  }
}

// The output's dimensions that matter (extent > 1) into `order`, innermost first: smallest
// |output stride| first, ties broken toward the later (inner) dimension so that a fresh C-ordered
// output keeps its order. Returns how many.
template <int R, int MR>
int dims_innermost_first(const dims<R>& out_shape, const dims<R>& out_strides, int (&order)[MR]) {
  int n = 0;
  for (int d = R - 1; d >= 0; --d)
    if (out_shape[d] != 1) order[n++] = d;
  auto mag = [&](int d) { return out_strides[d] < 0 ? -out_strides[d] : out_strides[d]; };
  for (int i = 1; i < n; ++i) {  // stable insertion sort by |stride|
    const int d = order[i];
    int j = i;
    while (j > 0 && mag(order[j - 1]) > mag(d)) {
      order[j] = order[j - 1];
      --j;
    }
    order[j] = d;
  }
  return n;
}

// Merges dimension i+1 (outer) into i (inner) of n dimensions where the output (strides os) and
// each of the L operands (strides ls) step through both as one; returns how many remain (at least
// one).
template <int L, int Rows, int MR>
int merge_dims(int n, index_t (&ext)[MR], index_t (&os)[MR], index_t (&ls)[Rows][MR]) {
  int m = 0;
  for (int i = 0; i < n; ++i) {
    if (m > 0) {
      bool mergeable = os[i] == os[m - 1] * ext[m - 1];
      for (int k = 0; k < L && mergeable; ++k) mergeable = ls[k][i] == ls[k][m - 1] * ext[m - 1];
      if (mergeable) {
        ext[m - 1] *= ext[i];
        continue;
      }
    }
    ext[m] = ext[i];
    os[m] = os[i];
    for (int k = 0; k < L; ++k) ls[k][m] = ls[k][i];
    ++m;
  }
  if (m == 0) {  // every extent is 1: one element
    ext[0] = 1;
    os[0] = 1;
    for (int k = 0; k < L; ++k) ls[k][0] = 0;
    m = 1;
  }
  return m;
}

// Builds the collapsed layout. `leaf_strides[k]` are leaf k's strides over the output's
// dimensions (outermost first), `leaf_base[k]` its starting position.
template <int R, int L>
layout<R, L> make_layout(const dims<R>& out_shape, const dims<R>& out_strides,
                         const index_t (&leaf_strides)[layout<R, L>::leaves][layout<R, L>::max_rank],
                         const index_t (&leaf_base)[layout<R, L>::leaves]) {
  constexpr int MR = layout<R, L>::max_rank;
  layout<R, L> lay;
  lay.size = product(out_shape);
  for (int k = 0; k < L; ++k) lay.base[k] = leaf_base[k];
  if (lay.size == 0) return lay;

  int order[MR];
  const int n = dims_innermost_first<R>(out_shape, out_strides, order);
  index_t ext[MR], os[MR], ls[layout<R, L>::leaves][MR];
  for (int i = 0; i < n; ++i) {
    const int d = order[i];
    ext[i] = out_shape[d];
    os[i] = out_strides[d];
    for (int k = 0; k < L; ++k) ls[k][i] = leaf_strides[k][d];
    if (os[i] < 0) {  // walk the output forwards: flip this dimension for every operand
      lay.out_base += (ext[i] - 1) * os[i];
      os[i] = -os[i];
      for (int k = 0; k < L; ++k) {
        lay.base[k] += (ext[i] - 1) * ls[k][i];
        ls[k][i] = -ls[k][i];
      }
    }
  }
  const int m = merge_dims<L>(n, ext, os, ls);
  lay.rank = m;
  for (int i = 0; i < m; ++i) {
    lay.extent[i] = ext[i];
    lay.div[i] = fast_divmod(ext[i]);
    lay.out_stride[i] = os[i];
    for (int k = 0; k < L; ++k) lay.stride[k][i] = ls[k][i];
  }
  return lay;
}

// True when the element count and every operand's positions (each partial sum of them, in
// magnitude) stay below 2^31: the kernel may then index in 32 bits.
template <int R, int L>
bool fits_32_bits(const layout<R, L>& lay) {
  constexpr index_t limit = (index_t{1} << 31) - 1;
  const auto reach = [&](index_t base, const index_t* stride) {
    index_t s = base < 0 ? -base : base;
    for (int d = 0; d < lay.rank; ++d) s += (lay.extent[d] - 1) * (stride[d] < 0 ? -stride[d] : stride[d]);
    return s;
  };
  if (lay.size > limit || reach(lay.out_base, lay.out_stride) > limit) return false;
  for (int k = 0; k < L; ++k)
    if (reach(lay.base[k], lay.stride[k]) > limit) return false;
  return true;
}

// The lowest and one-past-highest byte a strided operand touches.
struct byte_range {
  std::uintptr_t lo = 0, hi = 0;
  bool overlaps(const byte_range& o) const { return lo < o.hi && o.lo < hi; }
};

template <int R>
byte_range range_of(const void* ptr, std::size_t itemsize, const dims<R>& shape, const index_t* strides,
                    index_t base) {
  index_t lo = base, hi = base;
  for (int d = 0; d < R; ++d) {
    if (shape[d] == 0) return {};
    const index_t span = (shape[d] - 1) * strides[d];
    (span < 0 ? lo : hi) += span;
  }
  const auto p = reinterpret_cast<std::uintptr_t>(ptr);
  const auto sz = static_cast<std::intptr_t>(itemsize);
  return {p + static_cast<std::uintptr_t>(lo * sz), p + static_cast<std::uintptr_t>(hi * sz + sz)};
}

}  // namespace xf::detail
