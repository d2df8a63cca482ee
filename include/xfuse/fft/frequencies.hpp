// SPDX-License-Identifier: Apache-2.0
// numpy.fft's helpers: the sample frequencies of a transform (fftfreq, rfftfreq: lazy float64
// expressions, materialised where they are assigned, host or device) and the shifts that put the
// zero frequency in the middle (fftshift, ifftshift: one roll kernel).
#pragma once

#include "../exec/as_array.hpp"
#include "../manip/shift.hpp"
#include "geometry.hpp"

namespace xf {
namespace detail {
// n * d, the span the frequencies divide; zero is NumPy's ZeroDivisionError.
inline double sample_span(index_t n, double d, const char* op) {
  const double span = static_cast<double>(n) * d;
  if (span == 0) throw error(std::string(op) + ": division by zero (n * d is 0 for d = " + std::to_string(d) + ")");
  return span;
}
}  // namespace detail

// np.fft.fftfreq(n, d): [0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (d * n), each an integer
// times 1 / (n * d) as NumPy computes it.
inline auto fftfreq(index_t n, double d = 1.0) {
  if (n < 1) throw shape_error("xf::fftfreq: n must be positive, got " + std::to_string(n));
  const double step = 1.0 / detail::sample_span(n, d, "xf::fftfreq");
  const auto k = xf::arange<std::int64_t>(n);
  const std::int64_t positive = (n - 1) / 2 + 1;
  return xf::where(k < positive, k, k - n).astype<double>() * step;
}

// np.fft.rfftfreq(n, d): [0, 1, ..., n // 2] / (d * n).
inline auto rfftfreq(index_t n, double d = 1.0) {
  if (n < 1) throw shape_error("xf::rfftfreq: n must be positive, got " + std::to_string(n));
  const double step = 1.0 / detail::sample_span(n, d, "xf::rfftfreq");
  return xf::arange<std::int64_t>(n / 2 + 1).astype<double>() * step;
}

namespace detail {
template <class E>
auto fft_shifted(const E& x, const fft_axes& axes, bool inverse, const char* op) {
  constexpr int R = rank_v<E>;
  static_assert(R >= 1, "xf::fftshift: a 0-d array has nothing to shift");
  const auto a = as_array(x);
  index_t shifts[R] = {};
  int which[R];
  for (int d = 0; d < R; ++d) which[d] = d;
  std::vector<int> chosen = axes.values;
  if (!axes.given)
    for (int d = 0; d < R; ++d) chosen.push_back(d);
  for (int axis : chosen) {
    const int d = normalize_axis_of(axis, a.shape(), op);
    const index_t n = a.shape()[d];
    shifts[d] += inverse ? -(n / 2) : n / 2;
  }
  return roll(a, shifts, which);
}
}  // namespace detail

// np.fft.fftshift(x, axes): the zero frequency moved to the middle of each axis (all by default).
template <class E>
  requires expression<E>
auto fftshift(const E& x, const fft_axes& axes = {}) {
  return detail::fft_shifted(x, axes, false, "xf::fftshift");
}
// np.fft.ifftshift: its inverse (they differ for odd lengths).
template <class E>
  requires expression<E>
auto ifftshift(const E& x, const fft_axes& axes = {}) {
  return detail::fft_shifted(x, axes, true, "xf::ifftshift");
}

}  // namespace xf
