// SPDX-License-Identifier: Apache-2.0
// scipy.signal.fftconvolve: the N-d linear convolution through transforms of the zero-padded
// operands (7-smooth lengths, cuFFT's fast ones), real inputs through rfftn / irfftn. On device
// arrays: two forward transforms, each reading its operand zero-padded in one pass, the product of
// the spectra written by one kernel into the inverse's input, and one multi-dimensional inverse
// (the product is the spectrum of a real array, so cuFFT's complex-to-real plan over all axes gives
// NumPy's answer). With xf::set_fft_callbacks(true) the padding and the product run in cuFFT's loads.
// `method` (default automatic) may instead run the direct kernel of xf::convolve2d for 1-D and 2-D
// operands, chosen as scipy.signal.convolve(method="auto") chooses: by SciPy's operation-count
// model and constants (scipy.signal._signaltools._fftconv_faster).
#pragma once

#include <cmath>

#include "../signal.hpp"
#include "transforms.hpp"

namespace xf {

enum class conv_method { automatic, direct, fft };

namespace detail {

// The least 2^a 3^b 5^c 7^d at or above n (n <= 2^62, so that doubling cannot overflow).
inline index_t fft_fast_length(index_t n, const char* op) {
  if (n > (index_t{1} << 62))
    throw shape_error(std::string(op) + ": array is too big: a transform of " + std::to_string(n) + " points");
  if (n <= 1) return 1;
  index_t best = 1;
  while (best < n) best *= 2;
  for (index_t p7 = 1; p7 < best; p7 *= 7)
    for (index_t p5 = p7; p5 < best; p5 *= 5)
      for (index_t p3 = p5; p3 < best; p3 *= 3) {
        index_t v = p3;
        while (v < n) v *= 2;
        if (v < best) best = v;
      }
  return best;
}

// SciPy's model: true when the transforms are expected to be faster than the direct sum.
template <std::size_t R>
bool fft_convolution_faster(const std::array<index_t, R>& s1, const std::array<index_t, R>& s2, conv_mode mode) {
  double size1 = 1, size2 = 1, out = 1, full = 1;
  for (std::size_t d = 0; d < R; ++d) {
    size1 *= static_cast<double>(s1[d]);
    size2 *= static_cast<double>(s2[d]);
    full *= static_cast<double>(s1[d] + s2[d] - 1);
    out *= static_cast<double>(mode == conv_mode::full ? s1[d] + s2[d] - 1
                               : mode == conv_mode::same ? s1[d]
                                                         : std::abs(s1[d] - s2[d]) + 1);
  }
  double direct = 0;
  if constexpr (R == 1) {
    const double a = size1, b = size2;
    if (mode == conv_mode::full) direct = a * b;
    else if (mode == conv_mode::valid) direct = b >= a ? (b - a + 1) * a : (a - b + 1) * b;
    else direct = a < b ? a * b : a * b - std::floor(b / 2) * std::floor((b + 1) / 2);
  } else {
    direct = mode == conv_mode::same ? size1 * size2 : std::min(size1, size2) * out;
  }
  const double fft_ops = 3 * full * std::log(full);
  const double offset = R == 1 ? -1e-3 : -1e-4;
  double o_fft, o_direct;
  if constexpr (R == 1) {
    if (mode == conv_mode::valid) o_fft = 1.89095737e-9, o_direct = 2.1364985e-10;
    else if (mode == conv_mode::full) o_fft = 1.7649070e-9, o_direct = 2.1414831e-10;
    else if (size2 <= size1) o_fft = 3.2646654e-9, o_direct = 2.8478277e-10;
    else return 3.21635404e-9 * fft_ops < 1.1773253e-8 * direct - 1e-5;
  } else {
    if (mode == conv_mode::valid) o_fft = 1.85927e-9, o_direct = 2.11242e-8;
    else if (mode == conv_mode::full) o_fft = 1.99817e-9, o_direct = 1.66174e-8;
    else o_fft = 2.04735e-9, o_direct = 1.55367e-8;
  }
  return o_fft * fft_ops < o_direct * direct + offset;
}

template <class A, class B>
using fftconvolve_t = std::conditional_t<is_complex<promote_t<value_t<A>, value_t<B>>>, fft_complex_of<promote_t<value_t<A>, value_t<B>>>,
                                         fft_real_of<promote_t<value_t<A>, value_t<B>>>>;

// The full convolution through transforms of `fast` extents, cut to `full`.
template <class T, class Space, int R, class A, class B>
auto fft_full_convolution(const A& a, const B& b, const dims<R>& full, const char* op) {
  fft_sizes fast;
  dims<R> padded{};
  for (int d = 0; d < R; ++d) fast.values.push_back(padded[d] = fft_fast_length(full[d], op));
  fast.given = true;
  checked_size(padded, sizeof(T), op);
  // Each operand padded to `fast` as cuFFT reads it (callbacks on) or by a clearing pass and a copy
  // into cuFFT's input block (faster on an H200 than one gather kernel: 0.397 against 0.415 ms for
  // the whole 2048^2 * 255^2 case).
  const auto spectrum = [&](const auto& operand) {
    if constexpr (is_complex<T>) return fftn(as_array_of<T, Space>(operand), fast);
    else return rfftn(as_array_of<T, Space>(operand), fast);
  };
  auto result = [&] {
    if constexpr (is_complex<T>) return ifftn(spectrum(a) * spectrum(b), fast);
    else return irfftn_of_real_spectrum(spectrum(a) * spectrum(b), fast, "xf::fftconvolve");
  }();
  for (int d = 0; d < R; ++d) result = axis_slice(result, d, 0, full[d]);
  return result;
}

}  // namespace detail

// scipy.signal.fftconvolve(in1, in2, mode): operands of the same rank, host or device; 'same' keeps
// in1's shape, 'valid' needs one operand at least as large as the other along every axis. Real
// operands give float32 (both float32) or float64, complex ones complex64 or complex128.
template <expression A, expression B>
array<detail::fftconvolve_t<A, B>, rank_v<A>, detail::operands_space_t<A, B>> fftconvolve(const A& in1, const B& in2,
                                                                                       conv_mode mode = conv_mode::full,
                                                                                       conv_method method = conv_method::automatic) {
  constexpr int R = rank_v<A>;
  static_assert(R == rank_v<B>, "xf::fftconvolve: in1 and in2 should have the same dimensionality");
  static_assert(R >= 1, "xf::fftconvolve: 0-d operands");
  using T = detail::fftconvolve_t<A, B>;
  using Space = detail::operands_space_t<A, B>;
  const char* op = "xf::fftconvolve";
  const auto s1 = in1.shape(), s2 = in2.shape();
  bool in1_larger = true, in2_larger = true;
  for (int d = 0; d < R; ++d) {
    in1_larger = in1_larger && s1[d] >= s2[d];
    in2_larger = in2_larger && s2[d] >= s1[d];
  }
  if (detail::product(s1) == 0 || detail::product(s2) == 0) {  // SciPy: an empty result
    dims<R> none{};
    return array<T, R, Space>(none);
  }
  dims<R> full{};  // checked before any arithmetic on it (broadcast views can be long without memory)
  for (int d = 0; d < R; ++d) full[d] = detail::extent_sum(s1[d], s2[d] - 1, op);
  detail::checked_size(full, sizeof(T), op);
  if (mode == conv_mode::valid && !in1_larger && !in2_larger)
    throw shape_error(std::string(op) + ": for 'valid' mode, one must be at least as large as the other in every dimension; got " +
                      to_string(s1) + " and " + to_string(s2));
  if (method == conv_method::direct && R > 2)
    throw shape_error(std::string(op) + ": the direct method takes 1-D and 2-D operands; got shapes " + to_string(s1) + " and " +
                      to_string(s2) + " (use conv_method::fft or automatic)");
  const bool direct = method == conv_method::direct ||
                      (method == conv_method::automatic && R <= 2 && !detail::fft_convolution_faster(s1, s2, mode));
  if constexpr (R <= 2) {
    if (direct) {
      const auto a = detail::as_array_of<T, Space>(in1), b = detail::as_array_of<T, Space>(in2);
      if constexpr (R == 2) {
        return array<T, 2, Space>(convolve2d(a, b, mode));
      } else {
        const array<T, 2, Space> r = convolve2d(a.reshape({index_t{1}, s1[0]}), b.reshape({index_t{1}, s2[0]}), mode);
        return r.reshape({r.shape(1)});
      }
    }
  }
  dims<R> start{}, keep{};
  for (int d = 0; d < R; ++d) {
    keep[d] = mode == conv_mode::full ? full[d] : mode == conv_mode::same ? s1[d] : std::abs(s1[d] - s2[d]) + 1;
    start[d] = (full[d] - keep[d]) / 2;  // SciPy's _centered
  }
  auto result = detail::fft_full_convolution<T, Space, R>(in1, in2, full, op);
  for (int d = 0; d < R; ++d) result = detail::axis_slice(result, d, start[d], start[d] + keep[d]);
  return result;
}

}  // namespace xf
