// SPDX-License-Identifier: Apache-2.0
// Convolution and correlation: NumPy's convolve and correlate (1-D) and SciPy's convolve2d and
// correlate2d (boundaries fill, symm, wrap), on host and device arrays of float, double and
// complex types.
//
//   auto y = xf::convolve(x, taps, xf::conv_mode::same);          // np.convolve(x, taps, 'same')
//   auto img = xf::convolve2d(image, gaussian, xf::conv_mode::same);  // cupyx.scipy.signal.convolve2d
//
// Each is one kernel (signal/correlate_kernel.cuh): the filter, reversed (convolution) or
// conjugated (correlation), slides over the input; the mode decides the output's extent and where
// it starts in the full result. Operands may be views (any strides) or expressions, which are
// evaluated first. Results are new C-ordered arrays, asynchronous on the current stream.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

#include "core.hpp"
#include "exec/as_array.hpp"
#include "complex.hpp"
#include "manip/pad.hpp"
#include "signal/correlate_kernel.cuh"

namespace xf {

// full: every overlap; same: the first operand's extent (NumPy: the longer one's), centred;
// valid: only complete overlaps.
enum class conv_mode { full, same, valid };

namespace detail {

inline const char* conv_mode_name(conv_mode m) {
  return m == conv_mode::full ? "full" : m == conv_mode::same ? "same" : "valid";
}

// The output's extent along one axis and its start in the full result (length m + n - 1).
struct conv_window {
  index_t length, start;
};
// `same_length`: the extent 'same' keeps; `round_up`: where 'same' centres an odd surplus.
inline conv_window window_of(conv_mode mode, index_t m, index_t n, index_t same_length, bool round_up) {
  const index_t full = m + n - 1;
  switch (mode) {
    case conv_mode::full: return {full, 0};
    case conv_mode::same: return {same_length, (full - same_length + (round_up ? 1 : 0)) / 2};
    default: return {std::max(m, n) - std::min(m, n) + 1, std::min(m, n) - 1};
  }
}

template <class T>
inline constexpr bool signal_element = std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, complex64> ||
                                       std::is_same_v<T, complex128>;

// out (rows x cols windows) = correlation of x with the prepared filter f (C-contiguous, P x Q),
// the windows' starts given in the full result of a P x Q filter.
template <class T, class Space>
array<T, 2, Space> run_correlation(const array<T, 2, Space>& x, const array<T, 2, Space>& f, conv_window rows, conv_window cols) {
  correlate_geometry g{};
  g.rows = x.shape(0);
  g.cols = x.shape(1);
  g.row_stride = x.strides()[0];
  g.col_stride = x.strides()[1];
  g.out_rows = rows.length;
  g.out_cols = cols.length;
  g.p = static_cast<int>(f.shape(0));
  g.q = static_cast<int>(f.shape(1));
  // Full-result index s reads x from s - (P - 1).
  g.r0 = rows.start - (g.p - 1);
  g.c0 = cols.start - (g.q - 1);
  array<T, 2, Space> out(dims<2>{rows.length, cols.length});
  if constexpr (std::is_same_v<Space, device>) {
    const device_guard on_device(x.device_id());
    require_access(f.device_id(), "xf::convolve");
    correlate_device(x.data(), f.data(), out.data(), g, current_stream().handle());
  } else {
    correlate_host(x.data(), f.data(), out.data(), g);
  }
  return out;
}

// The filter as run_correlation reads it: conjugated for correlation (complex), reversed along
// every axis for convolution, contiguous.
template <bool Correlate, class T, int R, class Space>
array<T, R, Space> filter_of(const array<T, R, Space>& v) {
  if constexpr (Correlate) {
    if constexpr (is_complex<T>) return array<T, R, Space>(conj(v));
    else return v.is_contiguous() ? v : v.copy();
  } else {
    return v.flip().copy();
  }
}

template <class A, class V>
using signal_t = promote_t<value_t<A>, value_t<V>>;

template <class T, int R, class Space>
void require_nonempty(const array<T, R, Space>& a, const char* op, const char* which) {
  if (a.size() == 0) throw shape_error(std::string(op) + ": " + which + " is empty (shape " + to_string(a.shape()) + ", " + dtype_name<T> + ")");
}

// The operands of a convolution as arrays of their common type and space, both non-empty.
template <int R, class A, class V>
auto signal_operands(const A& a_in, const V& v_in, const char* op, const char* first, const char* second) {
  using T = signal_t<A, V>;
  using Space = operands_space_t<A, V>;
  std::pair<array<T, R, Space>, array<T, R, Space>> r{as_array_of<T, Space>(a_in), as_array_of<T, Space>(v_in)};
  require_nonempty(r.first, op, first);
  require_nonempty(r.second, op, second);
  return r;
}

template <bool Correlate, class A, class V>
auto signal_1d(const A& a_in, const V& v_in, conv_mode mode, const char* op) {
  using T = signal_t<A, V>;
  static_assert(rank_v<A> == 1 && rank_v<V> == 1, "xf::convolve / xf::correlate: 1-D operands (convolve2d for matrices)");
  static_assert(signal_element<T>, "xf::convolve / xf::correlate: float, double, complex64 or complex128 operands");
  using Space = operands_space_t<A, V>;
  const auto [a, v] = signal_operands<1>(a_in, v_in, op, "the first operand", "the second operand");
  const index_t m = a.size(), n = v.size();
  // NumPy: 'same' keeps the longer length; correlate centres it one later when v is the longer.
  const conv_window w = window_of(mode, m, n, std::max(m, n), Correlate && n > m);
  const array<T, 1, Space> f = filter_of<Correlate>(v);
  return run_correlation(a.reshape(std::array<index_t, 2>{1, m}), f.reshape(std::array<index_t, 2>{1, n}), conv_window{1, 0}, w)
      .reshape(std::array<index_t, 1>{w.length});
}

// SciPy's boundary names as np.pad modes: "fill" pads with the fill value, "symm" mirrors past
// the edge, "wrap" repeats periodically.
inline std::string_view pad_mode_of_boundary(std::string_view boundary, const char* op) {
  if (boundary == "fill") return "constant";
  if (boundary == "symm" || boundary == "symmetric") return "symmetric";
  if (boundary == "wrap" || boundary == "circular") return "wrap";
  throw error(std::string(op) + ": boundary must be \"fill\", \"symm\" or \"wrap\", got \"" + std::string(boundary) + "\"");
}

template <bool Correlate, class A, class V>
auto signal_2d(const A& a_in, const V& v_in, conv_mode mode, const char* op, std::string_view boundary,
               signal_t<A, V> fillvalue) {
  using T = signal_t<A, V>;
  static_assert(rank_v<A> == 2 && rank_v<V> == 2, "xf::convolve2d / xf::correlate2d: 2-D operands");
  static_assert(signal_element<T>, "xf::convolve2d / xf::correlate2d: float, double, complex64 or complex128 operands");
  using Space = operands_space_t<A, V>;
  const auto [a, v] = signal_operands<2>(a_in, v_in, op, "in1", "in2");
  const index_t m = a.shape(0), n = a.shape(1), p = v.shape(0), q = v.shape(1);
  if (mode == conv_mode::valid && !((m >= p && n >= q) || (p >= m && q >= n)))
    throw shape_error(std::string(op) + ": for 'valid' mode one operand must be at least as large as the other in every dimension; got " +
                      to_string(a.shape()) + " and " + to_string(v.shape()));
  if (p > 2147483647 || q > 2147483647) throw shape_error(std::string(op) + ": the filter is too large");
  // SciPy: 'same' keeps in1's extent; correlate2d centres an odd surplus one later.
  const conv_window rows = window_of(mode, m, p, m, Correlate), cols = window_of(mode, n, q, n, Correlate);
  const array<T, 2, Space> f = filter_of<Correlate>(v);
  const std::string_view pad_mode = pad_mode_of_boundary(boundary, op);
  if (pad_mode == "constant" && fillvalue == T(0)) return run_correlation(a, f, rows, cols);
  // Other boundaries: the input padded by the filter's extent less one on every side (one gather
  // kernel, NumPy's pad modes), whose full result index s then starts reading at s.
  const index_t widths[2][2] = {{p - 1, p - 1}, {q - 1, q - 1}};
  const array<T, 2, Space> padded = pad(a, widths, pad_mode, fillvalue);
  return run_correlation(padded, f, conv_window{rows.length, rows.start + p - 1}, conv_window{cols.length, cols.start + q - 1});
}

}  // namespace detail

// np.convolve(a, v, mode): the discrete linear convolution of two 1-D sequences (default 'full').
template <expression A, expression V>
auto convolve(const A& a, const V& v, conv_mode mode = conv_mode::full) {
  return detail::signal_1d<false>(a, v, mode, "xf::convolve");
}
// np.correlate(a, v, mode): c[k] = sum_n a[n + k] conj(v[n]) (default 'valid').
template <expression A, expression V>
auto correlate(const A& a, const V& v, conv_mode mode = conv_mode::valid) {
  return detail::signal_1d<true>(a, v, mode, "xf::correlate");
}
// scipy.signal.convolve2d(in1, in2, mode, boundary, fillvalue) (default 'full', "fill", 0):
// boundary "fill" (zero fill runs directly; another fill value, "symm" and "wrap" pad the input
// first, one gather kernel, as np.pad's constant, symmetric and wrap modes).
template <expression A, expression V>
auto convolve2d(const A& in1, const V& in2, conv_mode mode = conv_mode::full, std::string_view boundary = "fill",
                detail::signal_t<A, V> fillvalue = detail::signal_t<A, V>(0)) {
  return detail::signal_2d<false>(in1, in2, mode, "xf::convolve2d", boundary, fillvalue);
}
// scipy.signal.correlate2d(in1, in2, mode, boundary, fillvalue) (default 'full', "fill", 0).
template <expression A, expression V>
auto correlate2d(const A& in1, const V& in2, conv_mode mode = conv_mode::full, std::string_view boundary = "fill",
                 detail::signal_t<A, V> fillvalue = detail::signal_t<A, V>(0)) {
  return detail::signal_2d<true>(in1, in2, mode, "xf::correlate2d", boundary, fillvalue);
}

}  // namespace xf
