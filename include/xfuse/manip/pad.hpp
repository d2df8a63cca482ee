// SPDX-License-Identifier: Apache-2.0
// NumPy's pad, every mode. The gathering modes ("constant", "edge", "wrap", "reflect",
// "symmetric") are one kernel (shift.hpp). "linear_ramp" and the statistic modes ("maximum",
// "minimum", "mean", "median") follow NumPy's algorithm axis by axis, so that the corners hold
// what NumPy's hold: the array is first padded with zeros, then for each axis in order the two
// pad slabs of that axis (over the already padded extent of the earlier axes and the original
// extent of the later ones) are written from the values next to them: a ramp (one fused kernel a
// side) or a reduction along the axis broadcast over the slab (one reduction and one kernel a
// side; median sorts).
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "../sort/quantile.hpp"
#include "../reduce/reductions.hpp"
#include "shift.hpp"
#include "views.hpp"

namespace xf {

// NumPy's stat_length for the statistic pad modes: how many values next to each edge the
// statistic reads; all of the axis by default. One length for every side, or {before, after}
// per axis ({{1, 2}, {3, 4}} for a 2-D array).
class stat_length {
 public:
  explicit stat_length(index_t every_side) : every_side_(checked(every_side)) {}
  template <std::size_t R>
  explicit stat_length(const index_t (&per_side)[R][2]) {
    for (const auto& sides : per_side) per_side_.push_back({checked(sides[0]), checked(sides[1])});
  }
  // All of every axis (NumPy's stat_length=None).
  static stat_length all() { return stat_length(); }

  // The length for axis d and side (0 before, 1 after), or -1 for all of the axis.
  index_t of(int d, int side, int rank, const char* op) const {
    if (!per_side_.empty() && static_cast<int>(per_side_.size()) != rank)
      throw shape_error(std::string(op) + ": stat_length has " + std::to_string(per_side_.size()) +
                        " axes for an array of rank " + std::to_string(rank));
    return per_side_.empty() ? every_side_ : per_side_[static_cast<std::size_t>(d)][static_cast<std::size_t>(side)];
  }

 private:
  stat_length() = default;
  static index_t checked(index_t n) {
    if (n < 0) throw shape_error("xf::stat_length: negative length " + std::to_string(n));
    return n;
  }
  index_t every_side_ = -1;
  std::vector<std::array<index_t, 2>> per_side_;
};

namespace detail {

enum class pad_statistic { maximum, minimum, mean, median };

inline bool pad_statistic_of(std::string_view mode, pad_statistic& out) {
  if (mode == "maximum") out = pad_statistic::maximum;
  else if (mode == "minimum") out = pad_statistic::minimum;
  else if (mode == "mean") out = pad_statistic::mean;
  else if (mode == "median") out = pad_statistic::median;
  else return false;
  return true;
}

[[noreturn]] inline void unknown_pad_mode(std::string_view mode) {
  throw error("xf::pad: mode must be \"constant\", \"edge\", \"wrap\", \"reflect\", \"symmetric\", \"linear_ramp\", "
              "\"maximum\", \"minimum\", \"mean\" or \"median\", got \"" + std::string(mode) + "\"");
}

template <class C>
XF_HD XF_FORCEINLINE C rounded_sum(C x, C y) {
#if XF_DEVICE_PASS
  if constexpr (std::is_same_v<C, float>) return __fadd_rn(x, y);
  else return __dadd_rn(x, y);
#else
  volatile C sum = x + y;
  return sum;
#endif
}

// NumPy's integers (bool is not one: it is neither floored nor rounded).
template <class T>
inline constexpr bool numpy_integer = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// The value at `position` of one pad slab along an axis: NumPy's
// linspace(end_value, edge, width, endpoint=False) in type C, reversed for the slab after the
// data: i * (delta / width) unless some step of the whole slab is zero, then (i / width) * delta;
// integers are floored, then every type is rounded to T.
template <class T, class C>
struct ramp_value {
  C start;
  C width;
  index_t last;  // width - 1
  bool reversed;
  XF_HD XF_FORCEINLINE T operator()(index_t position, T edge, bool some_step_zero) const {
    const C i = static_cast<C>(reversed ? last - position : position);
    const C delta = static_cast<C>(static_cast<compute_t<T>>(edge)) - start;
    C y = some_step_zero ? math::rounded_product(i / width, delta) : math::rounded_product(i, delta / width);
    y = rounded_sum(y, start);
    if constexpr (numpy_integer<T>) {
      using std::floor;
      y = floor(y);
    }
    return convert<T>(y);
  }
};

// Writes the ramp of one slab (`slab`, its values along `axis`) from end_value to `edge` (the
// slab's neighbouring data, extent 1 along the axis).
template <class C, class T, int R, class S>
void write_ramp(array<T, R, S>& slab, const array<T, R, S>& edge, int axis, T end_value, bool reversed) {
  const index_t width = slab.shape()[axis];
  const C start = static_cast<C>(static_cast<compute_t<T>>(end_value));
  const array<bool, 0, S> some_step_zero = ::xf::any((::xf::astype<C>(edge) - start) / static_cast<C>(width) == C(0));
  const ramp_value<T, C> f{start, static_cast<C>(width), width - 1, reversed};
  slab.assign(::xf::map(f, coordinate<R>(slab.shape(), axis), edge, some_step_zero));
}

// The statistic of `chunk` along `axis`, kept as extent 1, in T: integers get NumPy's rounding of
// a mean or median (half to even) before the cast.
template <class T, int R, class S>
array<T, R, S> pad_statistic_of_chunk(const array<T, R, S>& chunk, int axis, pad_statistic statistic) {
  switch (statistic) {
    case pad_statistic::maximum: return ::xf::max(chunk, axis, keepdims);
    case pad_statistic::minimum: return ::xf::min(chunk, axis, keepdims);
    case pad_statistic::mean:
      if constexpr (numpy_integer<T>) return ::xf::astype<T>(::xf::round(::xf::mean(chunk, axis, keepdims)));
      else return ::xf::astype<T>(::xf::mean(chunk, axis, keepdims));
    case pad_statistic::median:
      if constexpr (numpy_integer<T>) return ::xf::astype<T>(::xf::round(::xf::median(chunk, axis, keepdims)));
      else return ::xf::astype<T>(::xf::median(chunk, axis, keepdims));
  }
  return {};
}

// NumPy's _get_stats and _set_pad_area for one axis of the region `roi`.
template <class T, int R, class S>
void write_statistics(array<T, R, S>& roi, int axis, index_t before, index_t n, index_t after, pad_statistic statistic,
                      const stat_length& lengths, const char* op) {
  index_t left = lengths.of(axis, 0, R, op), right = lengths.of(axis, 1, R, op);
  if (left < 0 || left > n) left = n;
  if (right < 0 || right > n) right = n;
  const bool needs_values = statistic == pad_statistic::maximum || statistic == pad_statistic::minimum || numpy_integer<T>;
  if ((left == 0 || right == 0) && needs_values)
    throw shape_error(std::string(op) + ": stat_length of 0 yields no value for padding (axis " + std::to_string(axis) +
                      ", " + std::string(dtype_name<T>) + ")");
  if (before == 0 && after == 0) return;
  const array<T, R, S> left_stat = pad_statistic_of_chunk(axis_slice(roi, axis, before, before + left), axis, statistic);
  const array<T, R, S> right_stat =
      left == n && right == n ? left_stat : pad_statistic_of_chunk(axis_slice(roi, axis, before + n - right, before + n), axis, statistic);
  if (before > 0) axis_slice(roi, axis, 0, before).assign(left_stat);
  if (after > 0) axis_slice(roi, axis, before + n, before + n + after).assign(right_stat);
}

// linear_ramp and the statistic modes: zeros, then axis by axis as NumPy.
// ramp_in_array_type: NumPy's linspace runs in float64 when the end values reach it as NumPy
// scalars (one value, or one pair), and in the array's floating type when they are a pair per
// axis of an array of rank 2 or more (NumPy's _as_pairs hands those over as Python floats).
template <class T, int R, class S>
array<T, R, S> pad_axis_by_axis(const array<T, R, S>& a, const index_t (&widths)[R][2], std::string_view mode,
                                const T (&end_values)[R][2], const stat_length& lengths, bool ramp_in_array_type) {
  constexpr const char* op = "xf::pad";
  static_assert(!is_complex<T>, "xf::pad: linear_ramp and the statistic modes take real element types");
  pad_statistic statistic{};
  const bool ramp = mode == "linear_ramp";
  if (!ramp && !pad_statistic_of(mode, statistic)) unknown_pad_mode(mode);
  T zeros[R][2];
  same_value_everywhere(zeros, convert<T>(0));
  array<T, R, S> out = pad_impl(a, widths, "constant", zeros);  // checks widths and sizes
  for (int d = 0; d < R; ++d)
    if (a.shape()[d] == 0 && widths[d][0] + widths[d][1] > 0)
      throw shape_error(std::string(op) + ": cannot extend the empty axis " + std::to_string(d) + " of shape " +
                        to_string(a.shape()) + " with mode \"" + std::string(mode) + "\"");
  if (a.size() == 0) return out;
  for (int d = 0; d < R; ++d) {
    // The region NumPy pads for axis d: earlier axes padded, later ones their original extent.
    array<T, R, S> roi = out;
    for (int e = d + 1; e < R; ++e) roi = axis_slice(roi, e, widths[e][0], widths[e][0] + a.shape()[e]);
    const index_t before = widths[d][0], n = a.shape()[d], after = widths[d][1];
    if (ramp) {
      const auto ramp_side = [&](index_t from, index_t to, index_t edge_at, T end_value, bool reversed) {
        auto slab = axis_slice(roi, d, from, to);
        const auto edge = axis_slice(roi, d, edge_at, edge_at + 1);
        using Own = std::conditional_t<std::is_same_v<compute_t<T>, double>, double, float>;  // 16-bit: float
        if (ramp_in_array_type && std::is_floating_point_v<compute_t<T>>) write_ramp<Own>(slab, edge, d, end_value, reversed);
        else write_ramp<double>(slab, edge, d, end_value, reversed);
      };
      if (before > 0) ramp_side(0, before, before, end_values[d][0], false);
      if (after > 0) ramp_side(before + n, before + n + after, before + n - 1, end_values[d][1], true);
    } else {
      write_statistics(roi, d, before, n, after, statistic, lengths, op);
    }
  }
  return out;
}

template <class T, int R, class S>
array<T, R, S> pad_any_mode(const array<T, R, S>& a, const index_t (&widths)[R][2], std::string_view mode,
                            const T (&values)[R][2], const stat_length& lengths, bool values_per_axis = false) {
  if (is_gathering_pad_mode(mode)) return pad_impl(a, widths, mode, values);
  if constexpr (is_complex<T>) {
    pad_statistic statistic{};
    if (mode != "linear_ramp" && !pad_statistic_of(mode, statistic)) unknown_pad_mode(mode);
    throw error("xf::pad: mode \"" + std::string(mode) + "\" takes real element types, not " + std::string(dtype_name<T>));
  } else {
    return pad_axis_by_axis(a, widths, mode, values, lengths, values_per_axis && R >= 2);
  }
}

template <int R>
void same_width_everywhere(index_t (&widths)[R][2], index_t width) {
  for (auto& w : widths) w[0] = w[1] = width;
}

}  // namespace detail

// NumPy's pad(a, pad_width, mode, ...): widths[d] = {before, after} for each axis ({{1, 2}, {0, 3}}
// for a 2-D array), or one width for every side. The result is C-ordered.
//  - "constant" fills with `value` (default 0), or with one value per axis and side
//    ({{1, 2}, {3, 4}}: in the corners the last axis's, as NumPy's);
//  - "edge" repeats the edge values; "wrap", "reflect" and "symmetric" repeat the array
//    periodically, mirrored on its edge values or past them (widths larger than the axis included);
//  - "linear_ramp" ramps from `value` (NumPy's end_values; per axis and side with the overload
//    taking values) to the edge value, as NumPy's linspace does (in float64, or for per-axis
//    values of a floating array of rank 2 or more in its type, 16-bit floats in float; integers
//    floored);
//  - "maximum", "minimum", "mean", "median" fill with that statistic of the values along the axis
//    (all of them, or stat_length of them next to each edge); integers round a mean or median half
//    to even, as NumPy's. Real element types.
// The gathering modes are one kernel; the others a kernel or a reduction per axis and side.
template <element T, int R, class S>
array<T, R, S> pad(const array<T, R, S>& a, const index_t (&widths)[R][2], std::string_view mode = "constant",
                   std::type_identity_t<T> value = detail::convert<T>(0)) {
  T values[R][2];
  detail::same_value_everywhere(values, value);
  return detail::pad_any_mode(a, widths, mode, values, stat_length::all());
}
template <element T, int R, class S>
array<T, R, S> pad(const array<T, R, S>& a, index_t width, std::string_view mode = "constant",
                   std::type_identity_t<T> value = detail::convert<T>(0)) {
  static_assert(R >= 1, "xf::pad: a 0-d array has no axis to pad");
  index_t widths[R][2];
  detail::same_width_everywhere(widths, width);
  return pad(a, widths, mode, value);
}
// Per axis and side values: "constant" (constant_values) or "linear_ramp" (end_values).
template <element T, int R, class S>
array<T, R, S> pad(const array<T, R, S>& a, const index_t (&widths)[R][2], std::string_view mode,
                   const std::type_identity_t<T> (&values)[R][2]) {
  if (mode != "constant" && mode != "linear_ramp")
    throw error("xf::pad: values per axis and side are for modes \"constant\" and \"linear_ramp\", not \"" + std::string(mode) + "\"");
  return detail::pad_any_mode(a, widths, mode, values, stat_length::all(), true);
}
template <element T, int R, class S>
array<T, R, S> pad(const array<T, R, S>& a, const index_t (&widths)[R][2], const std::type_identity_t<T> (&values)[R][2]) {
  return pad(a, widths, "constant", values);
}
// The statistic modes with NumPy's stat_length: xf::pad(a, 2, "mean", xf::stat_length(3)).
template <element T, int R, class S>
array<T, R, S> pad(const array<T, R, S>& a, const index_t (&widths)[R][2], std::string_view mode, const stat_length& lengths) {
  detail::pad_statistic statistic{};
  if (!detail::pad_statistic_of(mode, statistic))
    throw error("xf::pad: stat_length is for modes \"maximum\", \"minimum\", \"mean\" and \"median\", not \"" + std::string(mode) + "\"");
  T values[R][2];
  detail::same_value_everywhere(values, detail::convert<T>(0));
  return detail::pad_any_mode(a, widths, mode, values, lengths);
}
template <element T, int R, class S>
array<T, R, S> pad(const array<T, R, S>& a, index_t width, std::string_view mode, const stat_length& lengths) {
  static_assert(R >= 1, "xf::pad: a 0-d array has no axis to pad");
  index_t widths[R][2];
  detail::same_width_everywhere(widths, width);
  return pad(a, widths, mode, lengths);
}

}  // namespace xf
