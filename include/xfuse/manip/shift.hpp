// SPDX-License-Identifier: Apache-2.0
// The gathering pad modes ("constant", "edge", "wrap", "reflect", "symmetric"; the public pad is
// in pad.hpp) and roll: each element of the result reads one element of the source found axis by
// axis (shifted, then wrapped, clamped, mirrored or replaced by a constant). One fused kernel:
// xf::map of one coordinate generator per axis, reading the source through its pointer.
#pragma once

#include <string>
#include <string_view>

#include "../user/map.hpp"
#include "views.hpp"

namespace xf {
namespace detail {

// Along one axis, result index c reads source index c - shift; outside [0, n) the rule decides:
// wrap once (roll: shifts in [0, n)), clamp to the edge, fill with a constant (the one of the
// side), or repeat periodically, as NumPy's pad modes "wrap", "reflect" (mirrored on the edge
// values, period 2n - 2) and "symmetric" (mirrored past them, period 2n).
enum class edge_rule : int { wrap, clamp, fill, periodic, reflect, symmetric };
struct axis_rule {
  index_t shift, n;
  edge_rule rule;
};

// Source index of s outside [0, n) under a repeating rule.
XF_HD XF_FORCEINLINE index_t repeated_index(index_t s, index_t n, edge_rule rule) {
  if (rule == edge_rule::periodic) return (s % n + n) % n;
  if (rule == edge_rule::reflect) {
    if (n == 1) return 0;
    const index_t period = 2 * n - 2, t = (s % period + period) % period;
    return t < n ? t : period - t;
  }
  const index_t period = 2 * n, t = (s % period + period) % period;  // symmetric
  return t < n ? t : period - 1 - t;
}

template <class T, int R>
struct gather_by_axes {
  const T* data;
  index_t stride[R];
  axis_rule rules[R];
  T fill[R][2];  // per axis and side; NumPy pads axis by axis, so in a corner the last axis wins
  template <class... C>
  XF_HD XF_FORCEINLINE T operator()(const C&... c) const {
    const index_t at[R] = {static_cast<index_t>(c)...};
    index_t off = 0;
    const T* constant = nullptr;
    for (int d = 0; d < R; ++d) {
      const axis_rule& r = rules[d];
      index_t s = at[d] - r.shift;
      if (s < 0 || s >= r.n) {
        if (r.rule == edge_rule::fill) {
          constant = &fill[d][s < 0 ? 0 : 1];
          continue;
        }
        if (r.rule == edge_rule::wrap) s = s < 0 ? s + r.n : s - r.n;  // shifts are in [0, n)
        else if (r.rule == edge_rule::clamp) s = s < 0 ? 0 : r.n - 1;
        else s = repeated_index(s, r.n, r.rule);
      }
      off += s * stride[d];
    }
    return constant != nullptr ? *constant : data[off];
  }
};

template <class T, int R, class S>
array<T, R, S> gather_axes(const array<T, R, S>& a, const dims<R>& shape, const axis_rule (&rules)[R], const T (&fill)[R][2],
                           const char* op) {
  array<T, R, S> out(shape);
  if (out.size() == 0) return out;
  require_access(a.device_id(), op);  // the source is read through a pointer, not as a leaf
  gather_by_axes<T, R> f{a.data(), {}, {}, {}};
  for (int d = 0; d < R; ++d) {
    f.stride[d] = a.strides()[d], f.rules[d] = rules[d];
    f.fill[d][0] = fill[d][0], f.fill[d][1] = fill[d][1];
  }
  [&]<int... D>(std::integer_sequence<int, D...>) {
    evaluate_into(out, map(f, coordinate<R>(shape, D)...), op);
  }(std::make_integer_sequence<int, R>{});
  return out;
}

inline bool is_gathering_pad_mode(std::string_view mode) {
  return mode == "constant" || mode == "edge" || mode == "wrap" || mode == "reflect" || mode == "symmetric";
}

inline edge_rule pad_rule(std::string_view mode) {
  if (mode == "constant") return edge_rule::fill;
  if (mode == "edge") return edge_rule::clamp;
  if (mode == "wrap") return edge_rule::periodic;
  if (mode == "reflect") return edge_rule::reflect;
  return edge_rule::symmetric;
}

template <class T, int R, class S>
array<T, R, S> pad_impl(const array<T, R, S>& a, const index_t (&widths)[R][2], std::string_view mode, const T (&values)[R][2]) {
  static_assert(R >= 1, "xf::pad: a 0-d array has no axis to pad");
  constexpr const char* op = "xf::pad";
  const edge_rule rule = pad_rule(mode);
  dims<R> shape{};
  axis_rule rules[R];
  for (int d = 0; d < R; ++d) {
    const index_t before = widths[d][0], after = widths[d][1], n = a.shape()[d];
    if (before < 0 || after < 0)
      throw shape_error(std::string(op) + ": negative pad width (" + std::to_string(before) + ", " + std::to_string(after) +
                        ") for axis " + std::to_string(d) + " of shape " + to_string(a.shape()));
    if (rule != edge_rule::fill && n == 0 && before + after > 0)
      throw shape_error(std::string(op) + ": cannot extend the empty axis " + std::to_string(d) + " of shape " +
                        to_string(a.shape()) + " with mode \"" + std::string(mode) + "\"");
    shape[d] = extent_sum(extent_sum(before, n, op), after, op);
    rules[d] = {before, n, rule};
  }
  checked_size(shape, sizeof(T), op);
  return gather_axes(a, shape, rules, values, op);
}

template <class T, int R>
void same_value_everywhere(T (&values)[R][2], T value) {
  for (auto& side : values) side[0] = side[1] = value;
}

}  // namespace detail

// NumPy's roll(a, shifts, axes): elements shifted along each axis, those past the end coming back
// at the start; roll(a, {1, -2}, {0, 1}). An axis given twice shifts by the sum. One kernel.
template <element T, int R, class S, std::size_t N>
array<T, R, S> roll(const array<T, R, S>& a, const index_t (&shifts)[N], const int (&axes)[N]) {
  static_assert(R >= 1, "xf::roll: a 0-d array has no axis; call xf::roll(a, shift) without one");
  detail::axis_rule rules[R];
  for (int d = 0; d < R; ++d) rules[d] = {0, a.shape()[d], detail::edge_rule::wrap};
  for (std::size_t k = 0; k < N; ++k) {
    const int d = detail::normalize_axis_of(axes[k], a.shape(), "xf::roll");
    rules[d].shift += shifts[k];
  }
  for (auto& r : rules)
    if (r.n > 0) r.shift = (r.shift % r.n + r.n) % r.n;
  T unused[R][2];
  detail::same_value_everywhere(unused, detail::convert<T>(0));
  return detail::gather_axes(a, a.shape(), rules, unused, "xf::roll");
}
// One axis: xf::roll(a, 2, 1).
template <element T, int R, class S>
array<T, R, S> roll(const array<T, R, S>& a, index_t shift, int axis) {
  const int axes[1] = {axis};
  const index_t shifts[1] = {shift};
  return roll(a, shifts, axes);
}
// Without an axis: over the flattened array (C order), then reshaped to a's shape.
template <element T, int R, class S>
array<T, R, S> roll(const array<T, R, S>& a, index_t shift) {
  return roll(a.ravel(), shift, 0).reshape(a.shape());
}

}  // namespace xf
