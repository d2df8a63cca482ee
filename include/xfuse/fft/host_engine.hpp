// SPDX-License-Identifier: Apache-2.0
// The host transform: a one-dimensional complex DFT of any length, for host arrays. Lengths whose
// prime factors are small run as a mixed-radix Cooley-Tukey recursion (O(n * sum of factors));
// lengths with a prime factor above 64 run as Bluestein's chirp-z convolution on a power-of-two
// transform. Twiddles are rounded once from long double, so results stay within a few ulps times
// log n of the exact DFT, as numpy.fft's pocketfft does. (Neither pocketfft's C++ header nor a
// non-GPL FFTW is packaged by Debian 12, hence this one.)
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

#include "../base/shape.hpp"

namespace xf::detail {

template <class Real>
class host_dft {
 public:
  using cplx = std::complex<Real>;

  explicit host_dft(index_t n) : n_(n) {
    if (n <= 1) return;
    index_t rest = n;
    index_t largest = 1;
    for (index_t p : {index_t{4}, index_t{2}, index_t{3}, index_t{5}}) {
      while (rest % p == 0) {
        factors_.push_back(p);
        rest /= p;
      }
    }
    for (index_t p = 7; p * p <= rest; p += 2) {
      while (rest % p == 0) {
        factors_.push_back(p);
        largest = p;
        rest /= p;
      }
    }
    if (rest > 1) {
      factors_.push_back(rest);
      largest = std::max(largest, rest);
    }
    if (largest > 64) {
      bluestein_setup();
    } else {
      roots_ = unit_roots(n);
      scratch_.resize(static_cast<std::size_t>(n));
    }
  }

  index_t size() const { return n_; }

  // data[0..n) <- its DFT (exponent sign -1), or the unscaled inverse (sign +1).
  void run(cplx* data, bool inverse) const {
    if (n_ <= 1) return;
    if (!chirp_.empty()) return bluestein(data, inverse);
    std::vector<cplx>& out = scratch_;
    recurse(data, 1, out.data(), n_, 0, 1, inverse);
    std::copy(out.begin(), out.end(), data);
  }

 private:
  // exp(-2 pi i k / n) for k < n, rounded from long double.
  static std::vector<cplx> unit_roots(index_t n) {
    std::vector<cplx> w(static_cast<std::size_t>(n));
    const long double tau = 6.283185307179586476925286766559005768L;
    for (index_t k = 0; k < n; ++k) {
      const long double a = tau * static_cast<long double>(k) / static_cast<long double>(n);
      w[static_cast<std::size_t>(k)] = cplx(static_cast<Real>(std::cos(a)), static_cast<Real>(-std::sin(a)));
    }
    return w;
  }

  cplx root(index_t k, bool inverse) const {  // exp(-+2 pi i k / n_), k in [0, n_)
    const cplx w = roots_[static_cast<std::size_t>(k)];
    return inverse ? std::conj(w) : w;
  }

  // out[0..n) <- DFT of in[0], in[stride], ..., decimating in time by factors_[level]. `step` is
  // n_ / n: the root table's step for this length.
  void recurse(const cplx* in, index_t stride, cplx* out, index_t n, std::size_t level, index_t step, bool inverse) const {
    if (n == 1) {
      out[0] = in[0];
      return;
    }
    const index_t p = factors_[level];
    const index_t m = n / p;
    for (index_t j = 0; j < p; ++j) recurse(in + j * stride, stride * p, out + j * m, m, level + 1, step * p, inverse);
    cplx t[64];
    cplx* terms = p <= 64 ? t : nullptr;
    std::vector<cplx> big;
    if (!terms) {
      big.resize(static_cast<std::size_t>(p));
      terms = big.data();
    }
    for (index_t q = 0; q < m; ++q) {
      for (index_t j = 0; j < p; ++j) terms[j] = out[j * m + q] * root((j * q * step) % n_, inverse);
      if (p == 2) {
        out[q] = terms[0] + terms[1];
        out[q + m] = terms[0] - terms[1];
      } else if (p == 4) {
        const cplx a = terms[0] + terms[2], b = terms[0] - terms[2];
        const cplx c = terms[1] + terms[3];
        const cplx d0 = terms[1] - terms[3];
        const cplx d = inverse ? cplx(-d0.imag(), d0.real()) : cplx(d0.imag(), -d0.real());  // * -+i
        out[q] = a + c;
        out[q + m] = b + d;
        out[q + 2 * m] = a - c;
        out[q + 3 * m] = b - d;
      } else {
        const index_t sub = n_ / p;  // the root table's step for length p
        for (index_t s = 0; s < p; ++s) {
          cplx acc = terms[0];
          for (index_t j = 1; j < p; ++j) acc += terms[j] * root(((j * s) % p) * sub, inverse);
          out[q + s * m] = acc;
        }
      }
    }
  }

  // Bluestein: X_k = c_k * sum_j (x_j c_j) conj(c_{k-j}), c_k = exp(-i pi k^2 / n), as a cyclic
  // convolution of length m >= 2n - 1, a power of two.
  void bluestein_setup() {
    index_t m = 1;
    while (m < 2 * n_ - 1) m *= 2;
    chirp_.resize(static_cast<std::size_t>(n_));
    const long double pi = 3.141592653589793238462643383279502884L;
    for (index_t k = 0; k < n_; ++k) {
      // k^2 mod 2n exactly, so the angle stays small for large k.
      const auto k2 = static_cast<index_t>((static_cast<unsigned __int128>(k) * static_cast<unsigned __int128>(k)) %
                                           static_cast<unsigned __int128>(2 * n_));
      const long double a = pi * static_cast<long double>(k2) / static_cast<long double>(n_);
      chirp_[static_cast<std::size_t>(k)] = cplx(static_cast<Real>(std::cos(a)), static_cast<Real>(-std::sin(a)));
    }
    inner_ = std::make_shared<host_dft>(m);
    filter_.assign(static_cast<std::size_t>(m), cplx(0, 0));
    filter_[0] = std::conj(chirp_[0]);
    for (index_t k = 1; k < n_; ++k) filter_[static_cast<std::size_t>(k)] = filter_[static_cast<std::size_t>(m - k)] = std::conj(chirp_[static_cast<std::size_t>(k)]);
    inner_->run(filter_.data(), false);
    work_.resize(static_cast<std::size_t>(m));
  }

  void bluestein(cplx* data, bool inverse) const {
    const index_t m = inner_->size();
    // The inverse DFT of x is conj(DFT(conj(x))).
    for (index_t k = 0; k < m; ++k) {
      if (k < n_) {
        const cplx x = inverse ? std::conj(data[k]) : data[k];
        work_[static_cast<std::size_t>(k)] = x * chirp_[static_cast<std::size_t>(k)];
      } else {
        work_[static_cast<std::size_t>(k)] = cplx(0, 0);
      }
    }
    inner_->run(work_.data(), false);
    for (index_t k = 0; k < m; ++k) work_[static_cast<std::size_t>(k)] *= filter_[static_cast<std::size_t>(k)];
    inner_->run(work_.data(), true);
    const Real inv_m = Real(1) / static_cast<Real>(m);
    for (index_t k = 0; k < n_; ++k) {
      const cplx y = work_[static_cast<std::size_t>(k)] * inv_m * chirp_[static_cast<std::size_t>(k)];
      data[k] = inverse ? std::conj(y) : y;
    }
  }

  index_t n_;
  std::vector<index_t> factors_;
  std::vector<cplx> roots_;
  mutable std::vector<cplx> scratch_;
  // Bluestein
  std::vector<cplx> chirp_, filter_;
  std::shared_ptr<host_dft> inner_;
  mutable std::vector<cplx> work_;
};

}  // namespace xf::detail
