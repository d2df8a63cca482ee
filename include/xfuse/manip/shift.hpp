// SPDX-License-Identifier: Apache-2.0
// pad (modes "constant" and "edge") and roll: each element of the result reads one element of the
// source found axis by axis (shifted, then wrapped, clamped or replaced by a constant). One fused
// kernel: xf::map of one coordinate generator per axis, reading the source through its pointer.
#pragma once

#include <string>
#include <string_view>

#include "../user/map.hpp"
#include "views.hpp"

namespace xf {
namespace detail {

// Along one axis, result index c reads source index c - shift; outside [0, n) the rule decides.
enum class edge_rule : int { wrap, clamp, fill };
struct axis_rule {
  index_t shift, n;
  edge_rule rule;
};

template <class T, int R>
struct gather_by_axes {
  const T* data;
  index_t stride[R];
  axis_rule rules[R];
  T fill;
  template <class... C>
  XF_HD XF_FORCEINLINE T operator()(const C&... c) const {
    const index_t at[R] = {static_cast<index_t>(c)...};
    index_t off = 0;
    for (int d = 0; d < R; ++d) {
      const axis_rule& r = rules[d];
      index_t s = at[d] - r.shift;
      if (s < 0 || s >= r.n) {
        if (r.rule == edge_rule::fill) return fill;
        if (r.rule == edge_rule::wrap) s = s < 0 ? s + r.n : s - r.n;  // shifts are in [0, n)
        else s = s < 0 ? 0 : r.n - 1;
      }
      off += s * stride[d];
    }
    return data[off];
  }
};

template <class T, int R, class S>
array<T, R, S> gather_axes(const array<T, R, S>& a, const dims<R>& shape, const axis_rule (&rules)[R], T fill,
                           const char* op) {
  array<T, R, S> out(shape);
  if (out.size() == 0) return out;
  require_access(a.device_id(), op);  // the source is read through a pointer, not as a leaf
  gather_by_axes<T, R> f{a.data(), {}, {}, fill};
  for (int d = 0; d < R; ++d) f.stride[d] = a.strides()[d], f.rules[d] = rules[d];
  [&]<int... D>(std::integer_sequence<int, D...>) {
    evaluate_into(out, map(f, coordinate<R>(shape, D)...), op);
  }(std::make_integer_sequence<int, R>{});
  return out;
}

template <class T, int R, class S>
array<T, R, S> pad_impl(const array<T, R, S>& a, const index_t (&widths)[R][2], std::string_view mode, T value) {
  static_assert(R >= 1, "xf::pad: a 0-d array has no axis to pad");
  constexpr const char* op = "xf::pad";
  const bool edge = mode == "edge";
  if (!edge && mode != "constant")
    throw error(std::string(op) + ": mode must be \"constant\" or \"edge\", got \"" + std::string(mode) + "\"");
  dims<R> shape{};
  axis_rule rules[R];
  for (int d = 0; d < R; ++d) {
    const index_t before = widths[d][0], after = widths[d][1], n = a.shape()[d];
    if (before < 0 || after < 0)
      throw shape_error(std::string(op) + ": negative pad width (" + std::to_string(before) + ", " + std::to_string(after) +
                        ") for axis " + std::to_string(d) + " of shape " + to_string(a.shape()));
    if (edge && n == 0 && before + after > 0)
      throw shape_error(std::string(op) + ": cannot extend the empty axis " + std::to_string(d) + " of shape " +
                        to_string(a.shape()) + " with mode \"edge\"");
    shape[d] = extent_sum(extent_sum(before, n, op), after, op);
    rules[d] = {before, n, edge ? edge_rule::clamp : edge_rule::fill};
  }
  checked_size(shape, sizeof(T), op);
  return gather_axes(a, shape, rules, value, op);
}

}  // namespace detail

// NumPy's pad(a, pad_width, mode, constant_values): widths[d] = {before, after} for each axis
// ({{1, 2}, {0, 3}} for a 2-D array), or one width for every side. Mode "constant" fills with
// `value` (default 0), "edge" repeats the edge values. One kernel; the result is C-ordered.
template <element T, int R, class S>
array<T, R, S> pad(const array<T, R, S>& a, const index_t (&widths)[R][2], std::string_view mode = "constant",
                   std::type_identity_t<T> value = detail::convert<T>(0)) {
  return detail::pad_impl(a, widths, mode, value);
}
template <element T, int R, class S>
array<T, R, S> pad(const array<T, R, S>& a, index_t width, std::string_view mode = "constant",
                   std::type_identity_t<T> value = detail::convert<T>(0)) {
  static_assert(R >= 1, "xf::pad: a 0-d array has no axis to pad");
  index_t widths[R][2];
  for (auto& w : widths) w[0] = w[1] = width;
  return detail::pad_impl(a, widths, mode, value);
}

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
  return detail::gather_axes(a, a.shape(), rules, detail::convert<T>(0), "xf::roll");
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
