// SPDX-License-Identifier: Apache-2.0
// numpy.fft's transforms on host and device arrays and expressions: fft, ifft, rfft, irfft, hfft,
// ihfft along one axis; fft2, ifft2, rfft2, irfft2 over two; fftn, ifftn, rfftn, irfftn over any.
// Arguments as NumPy's (n / s, axis / axes, norm); float32 (and half) inputs give complex64,
// everything else complex128 (or float64 from the real-output transforms). Device arrays run on
// cuFFT, asynchronously on the current stream, through the plan cache (plan_cache.hpp); host
// arrays on the host DFT (host_engine.hpp). Built with cuFFTDx, fft, ifft, rfft and irfft of device
// operands return a description (produced_fft.hpp) and covered lines run in xfuse's own kernel
// (line_kernel.cuh), the operand and the consumer fused.
//
//   auto spectrum = xf::rfft(signal);                      // np.fft.rfft(signal)
//   auto image = xf::irfft2(xf::rfft2(img) * transfer);    // a filter in the frequency domain
//   auto windowed = xf::fft(x * window);                   // x * window written once, as cuFFT's input
//
// An expression operand costs one pass: one fused kernel writes it (cast, zero-padded, scaled for
// the norm, the transformed axes moved last) into the block cuFFT reads (an expression that n
// truncates is evaluated into an array first, then sliced: one pass more), and an
// array that cuFFT can read in place (its advanced layouts) is not copied at all. With
// xf::set_fft_callbacks(true) the operand is evaluated in cuFFT's loads instead
// (load_callback.hpp).
//
// Several axes go in calls of up to three distinct axes (cuFFT's most), repeated axes one after the
// other, as NumPy applies them. irfftn runs as NumPy defines it: inverse complex transforms over all
// axes but the last, then a real one along the last, so inputs that are not the spectrum of a real
// array give NumPy's results too.
#pragma once

#include <optional>
#include <vector>

#include "device_stage.hpp"
#include "host_transform.hpp"
#include "produced_fft.hpp"

namespace xf {
namespace detail {

template <class E>
inline constexpr bool fft_operand = expression<E> && (rank_v<E> >= 1);

// Calls of at most three distinct axes, from the end of `axes` (NumPy transforms the last first).
// Transforms along distinct axes commute, padding included; an axis given twice (with possibly
// different lengths) does not, so then each axis is its own call, front first if `front_first`
// (irfftn's order) and from the end otherwise (fftn's and rfftn's).
inline std::vector<std::pair<std::size_t, std::size_t>> fft_calls(const std::vector<int>& axes, std::size_t begin, std::size_t end,
                                                                    bool front_first = false) {
  std::vector<std::pair<std::size_t, std::size_t>> calls;
  bool repeats = false;
  for (std::size_t i = begin; i < end; ++i)
    for (std::size_t j = i + 1; j < end; ++j) repeats = repeats || axes[i] == axes[j];
  if (repeats && front_first) {
    for (std::size_t i = begin; i < end; ++i) calls.emplace_back(i, i + 1);
    return calls;
  }
  std::size_t hi = end;
  while (hi > begin) {
    std::size_t lo = hi - 1;
    while (lo > begin && hi - lo < 3 && std::find(axes.begin() + static_cast<std::ptrdiff_t>(lo), axes.begin() + static_cast<std::ptrdiff_t>(hi), axes[lo - 1]) ==
                                            axes.begin() + static_cast<std::ptrdiff_t>(hi))
      --lo;
    calls.emplace_back(lo, hi);
    hi = lo;
  }
  return calls;
}

template <class T>
std::vector<T> part(const std::vector<T>& v, std::pair<std::size_t, std::size_t> r) {
  return std::vector<T>(v.begin() + static_cast<std::ptrdiff_t>(r.first), v.begin() + static_cast<std::ptrdiff_t>(r.second));
}

// Complex transforms over `axes` (front to back as NumPy: the last first), the first call scaled.
template <class Real, int R, class Src>
array<complex<Real>, R, device> fft_device_complex(const Src& src, const fft_request& req, std::size_t begin, std::size_t end,
                                                   bool inverse, double scale, bool scratch, bool front_first = false) {
  const auto calls = fft_calls(req.axes, begin, end, front_first);
  if (calls.empty()) {
    if (scale == 1.0) return array<complex<Real>, R, device>(src.template astype<complex<Real>>());
    return array<complex<Real>, R, device>(src.template astype<complex<Real>>() * static_cast<Real>(scale));
  }
  auto result = fft_device_call<fft_kind::complex_to_complex, Real, R>(src, part(req.axes, calls[0]), part(req.lengths, calls[0]),
                                                                       inverse, scale, scratch);
  for (std::size_t c = 1; c < calls.size(); ++c)
    result = fft_device_call<fft_kind::complex_to_complex, Real, R>(result, part(req.axes, calls[c]), part(req.lengths, calls[c]),
                                                                    inverse, 1.0, true);
  return result;
}

template <fft_kind Kind, class Real, class E>
auto fft_device(const E& e, const fft_request& req, bool inverse, double scale) {
  constexpr int R = rank_v<E>;
  const std::size_t count = req.axes.size();
  if constexpr (Kind == fft_kind::complex_to_complex) {
    return fft_device_complex<Real, R>(e, req, 0, count, inverse, scale, false);
  } else if constexpr (Kind == fft_kind::real_to_complex) {
    // The real call takes the last axes (up to three distinct, the real one last), then the rest.
    const auto first = fft_calls(req.axes, 0, count).front();
    auto result = fft_device_call<fft_kind::real_to_complex, Real, R>(e, part(req.axes, first), part(req.lengths, first), false,
                                                                     scale, false);
    if (first.first == 0) return result;
    return fft_device_complex<Real, R>(result, req, 0, first.first, false, 1.0, true);
  } else {
    const std::vector<int> last_axis{req.axes.back()};
    const std::vector<index_t> last_length{req.lengths.back()};
    if (count == 1)
      return fft_device_call<fft_kind::complex_to_real, Real, R>(e, last_axis, last_length, true, scale, false);
    // The scale goes with the first call, which copies (or fuses) its input anyway.
    auto spectrum = fft_device_complex<Real, R>(e, req, 0, count - 1, true, scale, false, true);
    return fft_device_call<fft_kind::complex_to_real, Real, R>(spectrum, last_axis, last_length, true, 1.0, true);
  }
}

// Runs a transform of `Kind` on host or device, with numpy.fft's scale for `norm`.
template <fft_kind Kind, class E>
auto run_fft(const E& e, const fft_request& req, bool inverse, fft_norm norm) {
  using Real = fft_real_of<value_t<E>>;
  check_fft_norm(norm, req.op);
  const double scale = fft_scale(norm, fft_points(req), inverse);
  if constexpr (std::is_same_v<resolved_space_t<space_t<E>>, host>) return fft_host<Kind, Real>(e, req, inverse, scale);
  else return fft_device<Kind, Real>(e, req, inverse, scale);
}

// fft, ifft, rfft, irfft: with xfuse's own transform kernel, a device operand's transform is
// described (produced_fft.hpp) and computed by the end of the caller's statement unless taken.
template <fft_kind Kind, class E>
auto one_axis_fft(const statement_end& end, const E& e, const fft_request& req, bool inverse, fft_norm norm) {
  if constexpr (!std::is_same_v<resolved_space_t<space_t<E>>, host> && have_line_kernels) {
    check_fft_norm(norm, req.op);
    return describe_fft<Kind>(end, e, req, inverse, fft_scale(norm, fft_points(req), inverse));
  } else {
    return run_fft<Kind>(e, req, inverse, norm);
  }
}

// irfftn over every axis of a spectrum that is Hermitian along all of them (the product of the
// spectra of real arrays): on the device one cuFFT complex-to-real call over up to three axes
// (equal to NumPy's axis-by-axis definition for such input, and one pass fewer).
template <class E>
auto irfftn_of_real_spectrum(const E& e, const fft_sizes& s, const char* op) {
  constexpr int R = rank_v<E>;
  const auto req = resolve_fft_axes(e.shape(), s, {}, true, op);
  if constexpr (!std::is_same_v<resolved_space_t<space_t<E>>, host> && R <= 3) {
    return fft_device_call<fft_kind::complex_to_real, fft_real_of<value_t<E>>, R>(e, req.axes, req.lengths, true, 1.0 / fft_points(req),
                                                                                  false);
  } else {
    return run_fft<fft_kind::complex_to_real>(e, req, true, fft_norm::backward);
  }
}

}  // namespace detail

// ---------------------------------------------------------------- one axis
// np.fft.fft(a, n, axis, norm): the discrete Fourier transform along `axis`, zero-padded or
// truncated to n points.
template <class E>
  requires detail::fft_operand<E>
auto fft(const E& a, std::optional<index_t> n = std::nullopt, int axis = -1, fft_norm norm = fft_norm::backward,
         const detail::statement_end& end = {}) {
  const auto req = detail::resolve_fft_axis(a.shape(), n, axis, false, "xf::fft");
  return detail::one_axis_fft<detail::fft_kind::complex_to_complex>(end, a, req, false, norm);
}
// np.fft.ifft: the inverse (scaled by 1/n under the default norm).
template <class E>
  requires detail::fft_operand<E>
auto ifft(const E& a, std::optional<index_t> n = std::nullopt, int axis = -1, fft_norm norm = fft_norm::backward,
         const detail::statement_end& end = {}) {
  const auto req = detail::resolve_fft_axis(a.shape(), n, axis, false, "xf::ifft");
  return detail::one_axis_fft<detail::fft_kind::complex_to_complex>(end, a, req, true, norm);
}
// np.fft.rfft: the n // 2 + 1 non-negative frequencies of the transform of a real input.
template <class E>
  requires detail::fft_operand<E>
auto rfft(const E& a, std::optional<index_t> n = std::nullopt, int axis = -1, fft_norm norm = fft_norm::backward,
         const detail::statement_end& end = {}) {
  static_assert(!is_complex<value_t<E>>, "xf::rfft: the input must be real (NumPy raises TypeError for complex input)");
  const auto req = detail::resolve_fft_axis(a.shape(), n, axis, false, "xf::rfft");
  return detail::one_axis_fft<detail::fft_kind::real_to_complex>(end, a, req, false, norm);
}
// np.fft.irfft: n real points (default 2 * (m - 1)) from the non-negative frequencies.
template <class E>
  requires detail::fft_operand<E>
auto irfft(const E& a, std::optional<index_t> n = std::nullopt, int axis = -1, fft_norm norm = fft_norm::backward,
         const detail::statement_end& end = {}) {
  const auto req = detail::resolve_fft_axis(a.shape(), n, axis, true, "xf::irfft");
  return detail::one_axis_fft<detail::fft_kind::complex_to_real>(end, a, req, true, norm);
}
// np.fft.hfft: the real spectrum of a signal with Hermitian symmetry, given by its first half.
template <class E>
  requires detail::fft_operand<E>
auto hfft(const E& a, std::optional<index_t> n = std::nullopt, int axis = -1, fft_norm norm = fft_norm::backward) {
  const auto req = detail::resolve_fft_axis(a.shape(), n, axis, true, "xf::hfft");
  return detail::run_fft<detail::fft_kind::complex_to_real>(xf::conj(a), req, true, detail::swap_direction(norm));
}
// np.fft.ihfft: the inverse of hfft, from a real input.
template <class E>
  requires detail::fft_operand<E>
auto ihfft(const E& a, std::optional<index_t> n = std::nullopt, int axis = -1, fft_norm norm = fft_norm::backward) {
  static_assert(!is_complex<value_t<E>>, "xf::ihfft: the input must be real");
  const auto req = detail::resolve_fft_axis(a.shape(), n, axis, false, "xf::ihfft");
  auto spectrum = detail::run_fft<detail::fft_kind::real_to_complex>(a, req, false, detail::swap_direction(norm));
  spectrum.assign(xf::conj(spectrum));
  return spectrum;
}

// ---------------------------------------------------------------- several axes
// np.fft.fftn(a, s, axes, norm): without axes, the last len(s) axes (all without s).
template <class E>
  requires detail::fft_operand<E>
auto fftn(const E& a, const fft_sizes& s = {}, const fft_axes& axes = {}, fft_norm norm = fft_norm::backward) {
  const auto req = detail::resolve_fft_axes(a.shape(), s, axes, false, "xf::fftn");
  return detail::run_fft<detail::fft_kind::complex_to_complex>(a, req, false, norm);
}
template <class E>
  requires detail::fft_operand<E>
auto ifftn(const E& a, const fft_sizes& s = {}, const fft_axes& axes = {}, fft_norm norm = fft_norm::backward) {
  const auto req = detail::resolve_fft_axes(a.shape(), s, axes, false, "xf::ifftn");
  return detail::run_fft<detail::fft_kind::complex_to_complex>(a, req, true, norm);
}
template <class E>
  requires detail::fft_operand<E>
auto rfftn(const E& a, const fft_sizes& s = {}, const fft_axes& axes = {}, fft_norm norm = fft_norm::backward) {
  static_assert(!is_complex<value_t<E>>, "xf::rfftn: the input must be real");
  const auto req = detail::resolve_fft_axes(a.shape(), s, axes, false, "xf::rfftn");
  if (req.axes.empty()) throw shape_error("xf::rfftn: at least one axis must be transformed");
  return detail::run_fft<detail::fft_kind::real_to_complex>(a, req, false, norm);
}
template <class E>
  requires detail::fft_operand<E>
auto irfftn(const E& a, const fft_sizes& s = {}, const fft_axes& axes = {}, fft_norm norm = fft_norm::backward) {
  const auto req = detail::resolve_fft_axes(a.shape(), s, axes, true, "xf::irfftn");
  return detail::run_fft<detail::fft_kind::complex_to_real>(a, req, true, norm);
}

// The two-axis forms: axes (-2, -1) unless given.
template <class E>
  requires detail::fft_operand<E>
auto fft2(const E& a, const fft_sizes& s = {}, const fft_axes& axes = {-2, -1}, fft_norm norm = fft_norm::backward) {
  return fftn(a, s, axes, norm);
}
template <class E>
  requires detail::fft_operand<E>
auto ifft2(const E& a, const fft_sizes& s = {}, const fft_axes& axes = {-2, -1}, fft_norm norm = fft_norm::backward) {
  return ifftn(a, s, axes, norm);
}
template <class E>
  requires detail::fft_operand<E>
auto rfft2(const E& a, const fft_sizes& s = {}, const fft_axes& axes = {-2, -1}, fft_norm norm = fft_norm::backward) {
  return rfftn(a, s, axes, norm);
}
template <class E>
  requires detail::fft_operand<E>
auto irfft2(const E& a, const fft_sizes& s = {}, const fft_axes& axes = {-2, -1}, fft_norm norm = fft_norm::backward) {
  return irfftn(a, s, axes, norm);
}

}  // namespace xf
