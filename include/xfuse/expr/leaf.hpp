// SPDX-License-Identifier: Apache-2.0
// Positional leaves: the operands whose value depends on where an element is. Arrays read memory;
// generators (arange, linspace, eye) compute from a position. Each leaf has a position function
// p = base + sum(index_d * stride_d), so the evaluator can collapse, reorder and flip dimensions
// for arrays and generators alike.
#pragma once

#include <cmath>

#include "../base/convert.hpp"
#include "../base/shape.hpp"

namespace xf::detail {

// start + p * step with two roundings, as NumPy computes it: the device must not contract this
// into a fused multiply-add, or generated values would differ from the host's in the last bit.
XF_HD XF_FORCEINLINE double affine(double start, double p, double step) {
#if XF_DEVICE_PASS
  return __dadd_rn(start, __dmul_rn(p, step));
#else
  return start + p * step;
#endif
}

// Reads element p of memory (p counts elements from the first). The kind tells readers apart:
// - memory_leaf: an array;
// - statistic_leaf: a reduction's result inside the expression that uses it (a described
//   reduction as an operand: reduce/row_statistics.hpp); the one-kernel rows read these only once
//   the statistics are stored;
// - produced_leaf: a producer's result inside the expression that uses it (a scan, a row function:
//   exec/producer.hpp); when the producer runs in its consumer's kernel, the pointer is null and
//   the kernel gives each element the producer's value instead of reading it.
template <class T, class Kind>
struct pointer_leaf {
  using value_type = T;
  static constexpr bool in_memory = true;
  const T* ptr;
  XF_HD XF_FORCEINLINE T at(index_t p) const { return ptr[p]; }
};
struct array_memory {};
struct statistic_memory {};
struct produced_memory {};
template <class T>
using memory_leaf = pointer_leaf<T, array_memory>;
template <class T>
using statistic_leaf = pointer_leaf<T, statistic_memory>;
template <class T>
using produced_leaf = pointer_leaf<T, produced_memory>;

template <class Leaf>
inline constexpr bool is_statistic_leaf = false;
template <class T>
inline constexpr bool is_statistic_leaf<pointer_leaf<T, statistic_memory>> = true;
template <class Leaf>
inline constexpr bool is_produced_leaf = false;
template <class T>
inline constexpr bool is_produced_leaf<pointer_leaf<T, produced_memory>> = true;

// arange: start + p * step. Integers are exact; floats are computed in double, then rounded once.
template <class T>
struct arange_leaf {
  using value_type = T;
  static constexpr bool in_memory = false;
  double start, step;
  index_t istart, istep;
  XF_HD XF_FORCEINLINE T at(index_t p) const {
    if constexpr (is_integer<T>) {
      // Modular: a uint64 walk past 2^63 is exact in unsigned arithmetic, never a signed overflow.
      return static_cast<T>(static_cast<std::uint64_t>(istart) + static_cast<std::uint64_t>(p) * static_cast<std::uint64_t>(istep));
    } else {
      return convert<T>(affine(start, static_cast<double>(p), step));
    }
  }
};

// linspace: start + p * step, as NumPy computes it, the last sample exactly `stop` when the
// endpoint is included and there are two samples or more. When the step underflows to zero but
// the span does not (subnormal spans), NumPy computes start + (p / div) * span: `div` is then
// nonzero and `step` holds the span. Integer results round toward minus infinity, as NumPy 2 does.
template <class T>
struct linspace_leaf {
  using value_type = T;
  static constexpr bool in_memory = false;
  double start, step, stop;
  double div;    // 0, or the divisor of the subnormal form
  index_t last;  // position that is exactly `stop`, or -1
  XF_HD XF_FORCEINLINE T at(index_t p) const {
    const double q = div == 0 ? static_cast<double>(p) : static_cast<double>(p) / div;
    const double v = p == last ? stop : affine(start, q, step);
    if constexpr (is_integer<T>) {
      return convert<T>(::floor(v));
    } else {
      return convert<T>(v);
    }
  }
};

// eye: the position is column - row, so the value is 1 on diagonal k.
template <class T>
struct eye_leaf {
  using value_type = T;
  static constexpr bool in_memory = false;
  index_t k;
  XF_HD XF_FORCEINLINE T at(index_t p) const { return convert<T>(p == k ? 1.0f : 0.0f); }
};

// tri: the position is column - row, so the value is 1 on and below diagonal k (np.tri).
template <class T>
struct tri_leaf {
  using value_type = T;
  static constexpr bool in_memory = false;
  index_t k;
  XF_HD XF_FORCEINLINE T at(index_t p) const { return convert<T>(p <= k ? 1.0f : 0.0f); }
};

// The host-side record of a leaf: its descriptor and its layout in its own rank. `device` is the
// owning device of memory leaves (-1: host memory or not memory).
template <class Desc, int R>
struct leaf_record {
  using desc_type = Desc;
  static constexpr int rank = R;
  Desc desc;
  dims<R> shape;
  dims<R> strides;
  index_t base = 0;
  int device = -1;
};

}  // namespace xf::detail
