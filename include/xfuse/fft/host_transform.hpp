// SPDX-License-Identifier: Apache-2.0
// Transforms of host arrays: numpy.fft's algorithm axis by axis (rfftn: the real axis first, then
// the others; irfftn: the others first, then the real axis) on a contiguous complex copy, each line
// gathered, padded or truncated, transformed by the host DFT (host_engine.hpp) and scattered back.
#pragma once

#include <complex>
#include <map>
#include <new>
#include <stdexcept>
#include <vector>

#include "../exec/as_array.hpp"
#include "geometry.hpp"
#include "host_engine.hpp"

namespace xf::detail {

template <class Real>
struct host_fft_block {
  std::vector<index_t> shape;
  std::vector<std::complex<Real>> data;

  index_t inner(int axis) const {
    index_t s = 1;
    for (std::size_t d = static_cast<std::size_t>(axis) + 1; d < shape.size(); ++d) s *= shape[d];
    return s;
  }
  index_t outer(int axis) const {
    index_t s = 1;
    for (int d = 0; d < axis; ++d) s *= shape[static_cast<std::size_t>(d)];
    return s;
  }
};

// Every line along `axis` becomes `transform(line in, line out)`, the axis `out_length` long.
template <class Real, class Transform>
void host_fft_lines(host_fft_block<Real>& b, int axis, index_t out_length, const Transform& transform) {
  const index_t in_length = b.shape[static_cast<std::size_t>(axis)];
  const index_t inner = b.inner(axis), outer = b.outer(axis);
  std::vector<std::complex<Real>> result(static_cast<std::size_t>(outer * out_length * inner));
  std::vector<std::complex<Real>> line(static_cast<std::size_t>(in_length)), done(static_cast<std::size_t>(out_length));
  for (index_t o = 0; o < outer; ++o) {
    for (index_t i = 0; i < inner; ++i) {
      for (index_t k = 0; k < in_length; ++k) line[static_cast<std::size_t>(k)] = b.data[static_cast<std::size_t>((o * in_length + k) * inner + i)];
      transform(line, done);
      for (index_t k = 0; k < out_length; ++k) result[static_cast<std::size_t>((o * out_length + k) * inner + i)] = done[static_cast<std::size_t>(k)];
    }
  }
  b.data = std::move(result);
  b.shape[static_cast<std::size_t>(axis)] = out_length;
}

template <class Real>
struct host_dfts {
  std::map<index_t, host_dft<Real>> by_length;
  const host_dft<Real>& of(index_t n) { return by_length.try_emplace(n, n).first->second; }
};

// A complex transform of length n along `axis` (input zero-padded or truncated to n).
template <class Real>
void host_complex_axis(host_fft_block<Real>& b, host_dfts<Real>& dfts, int axis, index_t n, bool inverse) {
  const host_dft<Real>& dft = dfts.of(n);
  host_fft_lines(b, axis, n, [&](const auto& in, auto& out) {
    for (index_t k = 0; k < n; ++k) out[static_cast<std::size_t>(k)] = k < static_cast<index_t>(in.size()) ? in[static_cast<std::size_t>(k)] : std::complex<Real>();
    dft.run(out.data(), inverse);
  });
}

// rfft along `axis`: the first n // 2 + 1 points of the complex transform of the real input.
template <class Real>
void host_real_forward_axis(host_fft_block<Real>& b, host_dfts<Real>& dfts, int axis, index_t n) {
  const host_dft<Real>& dft = dfts.of(n);
  std::vector<std::complex<Real>> full(static_cast<std::size_t>(n));
  host_fft_lines(b, axis, n / 2 + 1, [&](const auto& in, auto& out) {
    for (index_t k = 0; k < n; ++k) full[static_cast<std::size_t>(k)] = k < static_cast<index_t>(in.size()) ? in[static_cast<std::size_t>(k)] : std::complex<Real>();
    dft.run(full.data(), false);
    for (index_t k = 0; k <= n / 2; ++k) out[static_cast<std::size_t>(k)] = full[static_cast<std::size_t>(k)];
  });
}

// irfft along `axis`: n real points from the first n // 2 + 1 of a Hermitian spectrum (the
// imaginary parts of the zero and, for even n, the Nyquist point play no part, as in pocketfft).
template <class Real>
void host_real_inverse_axis(host_fft_block<Real>& b, host_dfts<Real>& dfts, int axis, index_t n) {
  const host_dft<Real>& dft = dfts.of(n);
  std::vector<std::complex<Real>> full(static_cast<std::size_t>(n));
  host_fft_lines(b, axis, n, [&](const auto& in, auto& out) {
    const index_t have = static_cast<index_t>(in.size());
    auto at = [&](index_t k) { return k < have ? in[static_cast<std::size_t>(k)] : std::complex<Real>(); };
    full[0] = std::complex<Real>(at(0).real(), 0);
    for (index_t k = 1; k < n; ++k) full[static_cast<std::size_t>(k)] = k <= n / 2 ? at(k) : std::conj(at(n - k));
    if (n % 2 == 0) full[static_cast<std::size_t>(n / 2)] = std::complex<Real>(at(n / 2).real(), 0);
    dft.run(full.data(), true);
    for (index_t k = 0; k < n; ++k) out[static_cast<std::size_t>(k)] = std::complex<Real>(full[static_cast<std::size_t>(k)].real(), 0);
  });
}

template <fft_kind Kind, class Real, class E>
auto fft_host_unchecked(const E& e, const fft_request& req, bool inverse, double scale);

// The transform of `Kind` of host expression `e` over `req`, times `scale`; host memory running
// out is xf::out_of_memory.
template <fft_kind Kind, class Real, class E>
auto fft_host(const E& e, const fft_request& req, bool inverse, double scale) {
  const auto out_of_memory_error = [&] {
    return out_of_memory("xf::fft: cannot allocate the host memory for a transform of " + std::to_string(fft_points(req)) +
                             " points over an array of shape " + to_string(e.shape()),
                         0, 0, 0, 0, -1);
  };
  try {
    return fft_host_unchecked<Kind, Real>(e, req, inverse, scale);
  } catch (const std::bad_alloc&) {
    throw out_of_memory_error();
  } catch (const std::length_error&) {  // a vector longer than it may be
    throw out_of_memory_error();
  }
}

template <fft_kind Kind, class Real, class E>
auto fft_host_unchecked(const E& e, const fft_request& req, bool inverse, double scale) {
  constexpr int R = rank_v<E>;
  using Out = std::conditional_t<Kind == fft_kind::complex_to_real, Real, complex<Real>>;
  const auto source = as_array_of<complex<Real>>(e);
  host_fft_block<Real> b;
  for (int d = 0; d < R; ++d) b.shape.push_back(source.shape()[d]);
  b.data.resize(static_cast<std::size_t>(source.size()));
  {
    const array<complex<Real>, R, host> packed = source.is_contiguous() ? source : source.copy();
    for (index_t i = 0; i < packed.size(); ++i) {
      const complex<Real> v = packed.data()[i];
      b.data[static_cast<std::size_t>(i)] = std::complex<Real>(v.real(), v.imag());
    }
  }
  host_dfts<Real> dfts;
  const std::size_t count = req.axes.size();
  if constexpr (Kind == fft_kind::complex_to_complex) {
    for (std::size_t i = count; i-- > 0;) host_complex_axis(b, dfts, req.axes[i], req.lengths[i], inverse);
  } else if constexpr (Kind == fft_kind::real_to_complex) {
    host_real_forward_axis(b, dfts, req.axes.back(), req.lengths.back());
    for (std::size_t i = count - 1; i-- > 0;) host_complex_axis(b, dfts, req.axes[i], req.lengths[i], false);
  } else {
    for (std::size_t i = 0; i + 1 < count; ++i) host_complex_axis(b, dfts, req.axes[i], req.lengths[i], true);
    host_real_inverse_axis(b, dfts, req.axes.back(), req.lengths.back());
  }
  dims<R> shape{};
  for (int d = 0; d < R; ++d) shape[d] = b.shape[static_cast<std::size_t>(d)];
  array<Out, R, host> out(shape);
  for (index_t i = 0; i < out.size(); ++i) {
    const std::complex<Real> v = b.data[static_cast<std::size_t>(i)] * static_cast<Real>(scale);
    if constexpr (Kind == fft_kind::complex_to_real) out.data()[i] = v.real();
    else out.data()[i] = Out(v.real(), v.imag());
  }
  return out;
}

}  // namespace xf::detail
