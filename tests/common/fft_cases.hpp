// Fourier transforms on host and device arrays: NumPy's printed results for small inputs, then
// random inputs of odd, prime, power-of-two and composite lengths, batches, axes, norms, n / s
// padding and truncation, strided views and expressions, against the definitions computed with
// plain O(n^2) sums in long double (exact angles: 2 pi (j k mod n) / n), and bad input.
#pragma once

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include <xfuse/fft.hpp>
#include <xfuse/xfuse.hpp>

#include "catch.hpp"
#include "check.hpp"
#include "random.hpp"

namespace xf_test {

using cld = std::complex<long double>;

// A C-ordered block of exact values: the reference's working form.
struct ref_block {
  std::vector<xf::index_t> shape;
  std::vector<cld> data;
  xf::index_t inner(int axis) const {
    xf::index_t s = 1;
    for (std::size_t d = static_cast<std::size_t>(axis) + 1; d < shape.size(); ++d) s *= shape[d];
    return s;
  }
  xf::index_t outer(int axis) const {
    xf::index_t s = 1;
    for (int d = 0; d < axis; ++d) s *= shape[static_cast<std::size_t>(d)];
    return s;
  }
};

template <class T, int R, class S>
ref_block ref_of(const xf::array<T, R, S>& a) {
  ref_block b;
  for (int d = 0; d < R; ++d) b.shape.push_back(a.shape()[d]);
  const auto h = xf::to_host(a);
  for (const auto& v : h) {
    if constexpr (xf::is_complex<T>) b.data.emplace_back(static_cast<long double>(v.real()), static_cast<long double>(v.imag()));
    else b.data.emplace_back(static_cast<long double>(v), 0.0L);
  }
  return b;
}

// A transform's description (fft, rfft... of device operands with xfuse's own transform kernel):
// its result.
template <class G>
  requires xf::detail::is_producer<G>
ref_block ref_of(const G& g) {
  return ref_of(g.eval());
}

// Each line along `axis` becomes line_fn(line), out_length long.
template <class F>
void ref_lines(ref_block& b, int axis, xf::index_t out_length, const F& line_fn) {
  const xf::index_t m = b.shape[static_cast<std::size_t>(axis)], inner = b.inner(axis), outer = b.outer(axis);
  std::vector<cld> out(static_cast<std::size_t>(outer * out_length * inner));
  for (xf::index_t o = 0; o < outer; ++o)
    for (xf::index_t i = 0; i < inner; ++i) {
      std::vector<cld> line(static_cast<std::size_t>(m));
      for (xf::index_t k = 0; k < m; ++k) line[static_cast<std::size_t>(k)] = b.data[static_cast<std::size_t>((o * m + k) * inner + i)];
      const std::vector<cld> r = line_fn(line);
      for (xf::index_t k = 0; k < out_length; ++k) out[static_cast<std::size_t>((o * out_length + k) * inner + i)] = r[static_cast<std::size_t>(k)];
    }
  b.data = std::move(out);
  b.shape[static_cast<std::size_t>(axis)] = out_length;
}

inline std::vector<cld> naive_dft(std::vector<cld> x, xf::index_t n, bool inverse) {
  x.resize(static_cast<std::size_t>(n));  // pads with zeros or truncates
  const long double tau = 6.283185307179586476925286766559005768L;
  std::vector<cld> w(static_cast<std::size_t>(n));
  for (xf::index_t k = 0; k < n; ++k) {
    const long double a = tau * static_cast<long double>(k) / static_cast<long double>(n);
    w[static_cast<std::size_t>(k)] = cld(std::cos(a), inverse ? std::sin(a) : -std::sin(a));
  }
  std::vector<cld> y(static_cast<std::size_t>(n));
  for (xf::index_t k = 0; k < n; ++k) {
    cld acc = 0;
    for (xf::index_t j = 0; j < n; ++j) acc += x[static_cast<std::size_t>(j)] * w[static_cast<std::size_t>((j * k) % n)];
    y[static_cast<std::size_t>(k)] = acc;
  }
  return y;
}

inline void ref_c2c(ref_block& b, int axis, xf::index_t n, bool inverse) {
  ref_lines(b, axis, n, [&](const std::vector<cld>& l) { return naive_dft(l, n, inverse); });
}
inline void ref_r2c(ref_block& b, int axis, xf::index_t n) {
  for (auto& v : b.data) v = cld(v.real(), 0);
  ref_lines(b, axis, n / 2 + 1, [&](const std::vector<cld>& l) { return naive_dft(l, n, false); });
}
inline void ref_c2r(ref_block& b, int axis, xf::index_t n) {
  ref_lines(b, axis, n, [&](std::vector<cld> l) {
    l.resize(static_cast<std::size_t>(n / 2 + 1));
    std::vector<cld> full(static_cast<std::size_t>(n));
    for (xf::index_t k = 0; k < n; ++k) full[static_cast<std::size_t>(k)] = k <= n / 2 ? l[static_cast<std::size_t>(k)] : std::conj(l[static_cast<std::size_t>(n - k)]);
    full[0] = cld(full[0].real(), 0);
    if (n % 2 == 0) full[static_cast<std::size_t>(n / 2)] = cld(full[static_cast<std::size_t>(n / 2)].real(), 0);
    auto y = naive_dft(full, n, true);
    for (auto& v : y) v = cld(v.real(), 0);
    return y;
  });
}
inline void ref_scale(ref_block& b, long double s) {
  for (auto& v : b.data) v *= s;
}

// The result equals the reference within `tol` of the reference's largest magnitude.
template <class T, int R, class S>
void require_fft_close(const xf::array<T, R, S>& got, const ref_block& want, double tol, const std::string& what) {
  INFO(what);
  for (int d = 0; d < R; ++d) REQUIRE(got.shape()[d] == want.shape[static_cast<std::size_t>(d)]);
  const ref_block g = ref_of(got);
  long double biggest = 0;
  for (const auto& v : want.data) biggest = std::max(biggest, std::abs(v));
  long double worst = 0;
  std::size_t at = 0;
  for (std::size_t i = 0; i < g.data.size(); ++i) {
    const long double e = std::abs(g.data[i] - want.data[i]);
    if (!(e <= worst)) worst = e, at = i;
  }
  INFO("worst element " << at << " off by " << static_cast<double>(worst) << " of " << static_cast<double>(biggest));
  REQUIRE(worst <= tol * std::max(biggest, 1e-300L));
}

template <class G>
  requires xf::detail::is_producer<G>
void require_fft_close(const G& got, const ref_block& want, double tol, const std::string& what) {
  require_fft_close(got.eval(), want, tol, what);
}

template <class T>
double fft_tol() {
  return std::is_same_v<xf::real_t<T>, float> ? 2e-5 : 1e-12;
}

template <class T, class Space>
auto random_array(const xf::dims<1>& shape) {
  return xf::asarray<T, Space>(uniform<T>(static_cast<std::size_t>(shape[0]), -1, 1));
}
template <class T, class Space, int R>
xf::array<T, R, Space> random_array(const xf::dims<R>& shape) {
  return xf::asarray<T, Space>(uniform<T>(static_cast<std::size_t>(xf::detail::product(shape)), -1, 1), shape);
}

// ---------------------------------------------------------------- NumPy's printed values
template <class Space>
void fft_known_values() {
  using cd = xf::complex128;
  const auto x = xf::asarray<double, Space>({1, 2, 3, 4});
  const auto close = [](const auto& got, const std::vector<cd>& want) {
    const auto h = xf::to_host(got);
    REQUIRE(h.size() == want.size());
    for (std::size_t i = 0; i < h.size(); ++i) {
      INFO("element " << i << ": " << show(h[i]) << " vs " << show(want[i]));
      CHECK(std::abs(h[i].real() - want[i].real()) <= 1e-14 * 16);
      CHECK(std::abs(h[i].imag() - want[i].imag()) <= 1e-14 * 16);
    }
  };
  const auto close_real = [](const auto& got, const std::vector<double>& want) {
    const auto h = xf::to_host(got);
    REQUIRE(h.size() == want.size());
    for (std::size_t i = 0; i < h.size(); ++i) CHECK(std::abs(h[i] - want[i]) <= 1e-14 * 16);
  };
  close(xf::fft(x), {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}});
  close(xf::rfft(xf::asarray<double, Space>({1, 2, 3, 4, 5})), {{15, 0}, {-2.5, 3.4409548011779334}, {-2.5, 0.8122992405822659}});
  const auto spectrum = xf::asarray<cd, Space>({cd(1, 0), cd(2, 1), cd(3, 0)});
  close_real(xf::irfft(spectrum), {2, -1, 0, 0});
  close_real(xf::irfft(xf::asarray<cd, Space>({cd(1, 5), cd(2, 1), cd(3, 7)}), 5),
             {2.2, -2.549828110686965, 2.3514509424594197, -2.504237346959462, 1.5026145151870072});
  close_real(xf::hfft(spectrum), {8, 0, 0, -4});
  close(xf::ihfft(x), {{2.5, 0}, {-0.5, -0.5}, {-0.5, 0}});
  close(xf::ifft(x, std::nullopt, -1, xf::fft_norm::ortho), {{5, 0}, {-1, -1}, {-1, 0}, {-1, 1}});
  close(xf::fft(x, std::nullopt, -1, xf::fft_norm::forward), {{2.5, 0}, {-0.5, 0.5}, {-0.5, 0}, {-0.5, -0.5}});
  close(xf::fft2(xf::asarray<double, Space>(std::vector<double>{0, 1, 2, 3, 4, 5}, {2, 3})),
        {{15, 0}, {-3, 1.7320508075688772}, {-3, -1.7320508075688772}, {-9, 0}, {0, 0}, {0, 0}});
  // irfftn of an input that is no real array's spectrum: NumPy's axis-by-axis definition.
  close_real(xf::irfftn(xf::asarray<cd, Space>(std::vector<cd>{cd(1, 2), cd(3, -1), cd(4, 0.5), cd(2, -3)}, {2, 2})), {2.5, 0, -0.5, -1});
  // Result types: float32 stays complex64, integers give complex128.
  static_assert(std::is_same_v<xf::value_t<decltype(xf::rfft(xf::asarray<float, Space>({1, 2, 3})))>, xf::complex64>);
  static_assert(std::is_same_v<xf::value_t<decltype(xf::fft(xf::asarray<int, Space>({1, 2, 3})))>, xf::complex128>);
  static_assert(std::is_same_v<xf::value_t<decltype(xf::irfft(xf::asarray<xf::complex64, Space>({{1, 0}})))>, float>);
  close(xf::fft(xf::asarray<int, Space>({1, 2, 3, 4})), {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}});
  // Half precision computes in float32 and gives complex64.
  const auto halves = xf::asarray<xf::half, Space>(std::vector<xf::half>{xf::half(1.0f), xf::half(2.0f), xf::half(3.0f), xf::half(4.0f)});
  const auto from_half = xf::to_host(xf::rfft(halves));
  static_assert(std::is_same_v<xf::value_t<decltype(xf::rfft(halves))>, xf::complex64>);
  REQUIRE(from_half.size() == 3);
  CHECK((from_half[0] == xf::complex64(10, 0) && from_half[1] == xf::complex64(-2, 2) && from_half[2] == xf::complex64(-2, 0)));

  // Frequencies and shifts.
  xf::array<double, 1, Space> f = xf::fftfreq(5, 0.1);
  close_real(f, {0, 2, 4, -4, -2});
  xf::array<double, 1, Space> f6 = xf::fftfreq(6);
  close_real(f6, {0, 0.16666666666666666, 0.3333333333333333, -0.5, -0.3333333333333333, -0.16666666666666666});
  xf::array<double, 1, Space> rf = xf::rfftfreq(7, 2.0);
  close_real(rf, {0, 0.07142857142857142, 0.14285714285714285, 0.21428571428571427});
  const auto five = xf::asarray<int, Space>({0, 1, 2, 3, 4});
  CHECK(xf::to_host(xf::fftshift(five)) == std::vector<int>{3, 4, 0, 1, 2});
  CHECK(xf::to_host(xf::ifftshift(five)) == std::vector<int>{2, 3, 4, 0, 1});
  const auto grid = xf::asarray<int, Space>(std::vector<int>{0, 1, 2, 3, 4, 5}, {2, 3});
  CHECK(xf::to_host(xf::fftshift(grid)) == std::vector<int>{5, 3, 4, 2, 0, 1});
  CHECK(xf::to_host(xf::fftshift(grid, {1})) == std::vector<int>{2, 0, 1, 5, 3, 4});
}

// ---------------------------------------------------------------- random inputs
// One axis: every 1-D transform of length `m` inputs to n points (n < m truncates, n > m pads).
template <class Space, class T>
void fft_one_axis(xf::index_t m, std::optional<xf::index_t> n_given) {
  using C = xf::detail::fft_complex_of<T>;
  const xf::index_t n = n_given ? *n_given : m;
  const std::string what = std::string(xf::dtype_name<T>) + " m=" + std::to_string(m) + " n=" + std::to_string(n);
  const auto c = random_array<C, Space, 2>({3, m});
  const auto r = random_array<xf::real_t<C>, Space, 2>({3, m});
  const double tol = fft_tol<T>();
  for (auto norm : {xf::fft_norm::backward, xf::fft_norm::ortho, xf::fft_norm::forward}) {
    const auto scale = [&](bool inverse, xf::index_t points) {
      return static_cast<long double>(xf::detail::fft_scale(norm, static_cast<double>(points), inverse));
    };
    {
      ref_block want = ref_of(c);
      ref_c2c(want, 1, n, false);
      ref_scale(want, scale(false, n));
      require_fft_close(xf::fft(c, n_given, -1, norm), want, tol, "fft " + what);
    }
    {
      ref_block want = ref_of(c);
      ref_c2c(want, 1, n, true);
      ref_scale(want, scale(true, n));
      require_fft_close(xf::ifft(c, n_given, 1, norm), want, tol, "ifft " + what);
    }
    {
      ref_block want = ref_of(r);
      ref_r2c(want, 1, n);
      ref_scale(want, scale(false, n));
      require_fft_close(xf::rfft(r, n_given, -1, norm), want, tol, "rfft " + what);
    }
    {
      // irfft of m complex points to n real ones (default n = 2 (m - 1)).
      const xf::index_t out = n_given ? n : 2 * (m - 1);
      if (out < 1) continue;
      ref_block want = ref_of(c);
      ref_c2r(want, 1, out);
      ref_scale(want, scale(true, out));
      require_fft_close(xf::irfft(c, n_given, -1, norm), want, tol, "irfft " + what);
    }
  }
}

// Other axes, batches, several axes, views and expressions.
template <class Space, class T>
void fft_axes_and_views() {
  using C = xf::detail::fft_complex_of<T>;
  using Re = xf::real_t<C>;
  const double tol = fft_tol<T>();
  const auto c = random_array<C, Space, 3>({6, 5, 7});
  const auto r = random_array<Re, Space, 3>({6, 5, 8});
  for (int axis = 0; axis < 3; ++axis) {
    ref_block want = ref_of(c);
    ref_c2c(want, axis, c.shape()[axis], false);
    require_fft_close(xf::fft(c, std::nullopt, axis), want, tol, "fft along axis " + std::to_string(axis));
    ref_block wr = ref_of(r);
    ref_r2c(wr, axis, r.shape()[axis]);
    require_fft_close(xf::rfft(r, std::nullopt, axis), wr, tol, "rfft along axis " + std::to_string(axis));
    ref_block wi = ref_of(c);
    ref_c2r(wi, axis, 9);
    ref_scale(wi, 1.0L / 9);
    require_fft_close(xf::irfft(c, 9, axis), wi, tol, "irfft to 9 along axis " + std::to_string(axis));
  }
  {  // all axes; and two of three, with s padding one and truncating the other
    ref_block want = ref_of(c);
    for (int axis = 2; axis >= 0; --axis) ref_c2c(want, axis, c.shape()[axis], false);
    require_fft_close(xf::fftn(c), want, tol, "fftn over every axis");
    ref_block w2 = ref_of(c);
    ref_c2c(w2, 0, 4, true);
    ref_c2c(w2, 2, 9, true);
    ref_scale(w2, 1.0L / 36);
    require_fft_close(xf::ifftn(c, {9, 4}, {2, 0}), w2, tol, "ifftn s=(9, 4) axes=(2, 0)");
    ref_block w3 = ref_of(c);
    ref_c2c(w3, 2, 7, false);
    ref_c2c(w3, 1, 5, false);
    require_fft_close(xf::fft2(c), w3, tol, "fft2 of a 3-d array");
    ref_block w4 = ref_of(c);
    ref_c2c(w4, 0, 6, false);
    ref_c2c(w4, 0, 6, false);
    require_fft_close(xf::fftn(c, {}, {0, 0}), w4, tol, "fftn along a repeated axis");
    // A repeated axis with two lengths: NumPy's order (fftn and rfftn from the end, irfftn from the front).
    ref_block w5 = ref_of(c);
    ref_c2c(w5, 0, 4, false);
    ref_c2c(w5, 0, 3, false);
    require_fft_close(xf::fftn(c, {3, 4}, {0, 0}), w5, tol, "fftn along a repeated axis, two lengths");
    ref_block w6 = ref_of(c);
    ref_c2c(w6, 0, 3, true);
    ref_c2c(w6, 0, 4, true);
    ref_c2r(w6, 2, 8);
    ref_scale(w6, 1.0L / 96);
    require_fft_close(xf::irfftn(c, {3, 4, 8}, {0, 0, 2}), w6, tol, "irfftn along a repeated axis, two lengths");
    // -1 in s: the whole extent (NumPy 2).
    ref_block w7 = ref_of(c);
    ref_c2c(w7, 2, 4, false);
    ref_c2c(w7, 0, 6, false);
    require_fft_close(xf::fftn(c, {-1, 4}, {0, 2}), w7, tol, "fftn with s = (-1, 4)");
  }
  {  // rfftn / irfftn, 2 and 3 axes, with s
    ref_block want = ref_of(r);
    ref_r2c(want, 2, 8);
    ref_c2c(want, 1, 5, false);
    ref_c2c(want, 0, 6, false);
    const auto spectrum = xf::rfftn(r);
    require_fft_close(spectrum, want, tol, "rfftn over every axis");
    ref_block back = ref_of(spectrum);
    ref_c2c(back, 0, 6, true);
    ref_c2c(back, 1, 5, true);
    ref_c2r(back, 2, 8);
    ref_scale(back, 1.0L / 240);
    const auto restored = xf::irfftn(spectrum, {6, 5, 8});
    require_fft_close(restored, back, tol, "irfftn over every axis");
    require_fft_close(restored, ref_of(r), tol, "irfftn(rfftn(x)) == x");
    ref_block w2 = ref_of(r);
    ref_r2c(w2, 0, 10);
    ref_c2c(w2, 2, 3, false);
    require_fft_close(xf::rfft2(r, {3, 10}, {2, 0}), w2, tol, "rfft2 s=(3, 10) axes=(2, 0)");
    ref_block w4 = ref_of(r);
    ref_r2c(w4, 2, 8);
    ref_c2c(w4, 0, 4, false);
    ref_c2c(w4, 0, 3, false);
    require_fft_close(xf::rfftn(r, {3, 4, 8}, {0, 0, 2}), w4, tol, "rfftn along a repeated axis, two lengths");
    ref_block w3 = ref_of(c);
    ref_c2c(w3, 0, 6, true);
    ref_c2r(w3, 1, 7);
    ref_scale(w3, 1.0L / 42);
    require_fft_close(xf::irfft2(c, {6, 7}, {0, 1}), w3, tol, "irfft2 of the leading axes of a non-Hermitian input");
  }
  {  // views: a strided slice, a transposed matrix, a reversed axis; an expression
    const auto big = random_array<C, Space, 2>({8, 24});
    const auto strided = big(xf::slice(1, xf::_, 2), xf::slice(0, xf::_, 3));
    ref_block want = ref_of(strided);
    ref_c2c(want, 1, 8, false);
    require_fft_close(xf::fft(strided), want, tol, "fft of a strided view");
    const auto t = big.T();
    ref_block wt = ref_of(t);
    ref_c2c(wt, 1, 8, false);
    require_fft_close(xf::fft(t), wt, tol, "fft of a transposed view");
    const auto flipped = big.flip(1);
    ref_block wf = ref_of(flipped);
    ref_c2c(wf, 1, 24, true);
    ref_scale(wf, 1.0L / 24);
    require_fft_close(xf::ifft(flipped), wf, tol, "ifft of a reversed view");
    // Real views that start between two complex values (x[1:] of doubles): cuFFT reads real input in pairs.
    const auto reals = random_array<Re, Space, 2>({3, 9});
    const auto shifted = reals(xf::all, xf::slice(1, xf::_));
    ref_block ws = ref_of(shifted);
    ref_r2c(ws, 1, 8);
    require_fft_close(xf::rfft(shifted), ws, tol, "rfft of a view starting at an odd element");
    const auto row = reals(1);
    ref_block wrow = ref_of(row);
    ref_r2c(wrow, 0, 9);
    require_fft_close(xf::rfft(row), wrow, tol, "rfft of a row starting at an odd element");
    const auto w = random_array<Re, Space, 1>({24});
    const xf::array<C, 2, Space> product = big * w;
    ref_block we = ref_of(product);
    ref_c2c(we, 1, 24, false);
    require_fft_close(xf::fft(big * w), we, tol, "fft of an expression");
    const xf::array<Re, 2, Space> real_product = xf::real(big) * w + 1;
    ref_block wr = ref_of(real_product);
    ref_r2c(wr, 1, 30);
    require_fft_close(xf::rfft(xf::real(big) * w + 1, 30), wr, tol, "rfft of an expression, padded");
  }
}

// NaN and infinity spread as in any DFT; empty batches give empty results; bad arguments throw.
template <class Space>
void fft_special_inputs() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto with_nan = xf::fft(xf::asarray<double, Space>({1, nan, 3, 4}));
  for (const auto& v : xf::to_host(with_nan)) CHECK((std::isnan(v.real()) || std::isnan(v.imag())));
  const double inf = std::numeric_limits<double>::infinity();
  const auto with_inf = xf::to_host(xf::rfft(xf::asarray<double, Space>({inf, 0, 0, 0})));
  for (const auto& v : with_inf) CHECK(std::isinf(v.real()));

  const xf::array<double, 2, Space> none(xf::dims<2>{0, 8});
  const auto empty = xf::rfft(none);
  CHECK(empty.shape() == xf::dims<2>{0, 5});
  const auto empty_in = xf::fft(xf::asarray<double, Space>(std::vector<double>{}), 4);  // zero points padded to 4
  CHECK(xf::to_host(empty_in) == std::vector<xf::complex128>(4, xf::complex128(0, 0)));

  const auto x = xf::asarray<double, Space>({1, 2, 3});
  CHECK_THROWS_AS(xf::fft(x, 0), xf::shape_error);
  CHECK_THROWS_WITH(xf::fft(x, 0), XF_CONTAINS("xf::fft: invalid number of data points (0)"));
  CHECK_THROWS_AS(xf::fft(x, std::nullopt, 1), xf::shape_error);
  CHECK_THROWS_AS(xf::irfft(xf::asarray<xf::complex128, Space>({{1, 0}})), xf::shape_error);  // n = 0
  const xf::array<double, 2, Space> m(xf::dims<2>{2, 3});
  CHECK_THROWS_AS(xf::fftn(m, {4, 4, 4}), xf::shape_error);
  CHECK_THROWS_AS(xf::fftn(m, {4}, {0, 1}), xf::shape_error);
  CHECK_THROWS_AS(xf::fftfreq(0), xf::shape_error);
  // Lengths whose arrays no 64-bit byte count holds are refused before anything is allocated.
  CHECK_THROWS_WITH(xf::fft(x, xf::index_t{1} << 61), XF_CONTAINS("xf::fft: array is too big"));
  CHECK_THROWS_WITH(xf::rfftn(m, {xf::index_t{1} << 40, xf::index_t{1} << 40}), XF_CONTAINS("array is too big"));
  CHECK_THROWS_WITH(xf::rfftn(m, xf::fft_sizes(std::vector<xf::index_t>{})), XF_CONTAINS("xf::rfftn: at least one axis"));
  CHECK_THROWS_AS(xf::irfftn(m.template astype<xf::complex128>(), {}, xf::fft_axes(std::vector<int>{})), xf::shape_error);
  CHECK_THROWS_AS(xf::fftn(m, {4, -2}), xf::shape_error);
  CHECK(xf::to_host(x) == std::vector<double>{1, 2, 3});  // the input is intact
}

}  // namespace xf_test

namespace xf_test {

// The definition of an N-d full convolution in long double, then the mode's centred window.
template <class T, int R, class S>
ref_block ref_convolve(const xf::array<T, R, S>& a, const xf::array<T, R, S>& b, xf::conv_mode mode) {
  const ref_block x = ref_of(a), h = ref_of(b);
  xf::dims<R> full{}, keep{}, start{};
  for (int d = 0; d < R; ++d) {
    full[d] = a.shape()[d] + b.shape()[d] - 1;
    keep[d] = mode == xf::conv_mode::full ? full[d] : mode == xf::conv_mode::same ? a.shape()[d] : std::abs(a.shape()[d] - b.shape()[d]) + 1;
    start[d] = (full[d] - keep[d]) / 2;
  }
  const auto fs = xf::detail::c_strides(full);
  std::vector<cld> f(static_cast<std::size_t>(xf::detail::product(full)));
  const auto as = xf::detail::c_strides(a.shape()), bs = xf::detail::c_strides(b.shape());
  for (xf::index_t i = 0; i < a.size(); ++i)
    for (xf::index_t j = 0; j < b.size(); ++j) {
      xf::index_t at = 0;
      for (int d = 0; d < R; ++d) at += ((i / as[d]) % a.shape()[d] + (j / bs[d]) % b.shape()[d]) * fs[d];
      f[static_cast<std::size_t>(at)] += x.data[static_cast<std::size_t>(i)] * h.data[static_cast<std::size_t>(j)];
    }
  ref_block out;
  for (int d = 0; d < R; ++d) out.shape.push_back(keep[d]);
  const auto ks = xf::detail::c_strides(keep);
  out.data.resize(static_cast<std::size_t>(xf::detail::product(keep)));
  for (xf::index_t k = 0; k < xf::detail::product(keep); ++k) {
    xf::index_t at = 0;
    for (int d = 0; d < R; ++d) at += ((k / ks[d]) % keep[d] + start[d]) * fs[d];
    out.data[static_cast<std::size_t>(k)] = f[static_cast<std::size_t>(at)];
  }
  return out;
}

template <class Space, class T, int R>
void fftconvolve_case(const xf::dims<R>& s1, const xf::dims<R>& s2) {
  const auto a = random_array<T, Space, R>(s1);
  const auto b = random_array<T, Space, R>(s2);
  for (auto mode : {xf::conv_mode::full, xf::conv_mode::same, xf::conv_mode::valid}) {
    const std::string what = std::string("fftconvolve ") + xf::dtype_name<T> + " " + xf::to_string(s1) + " * " + xf::to_string(s2) +
                             " mode " + std::to_string(static_cast<int>(mode));
    bool one_larger = true, other_larger = true;
    for (int d = 0; d < R; ++d) one_larger = one_larger && s1[d] >= s2[d], other_larger = other_larger && s2[d] >= s1[d];
    if (mode == xf::conv_mode::valid && !one_larger && !other_larger) {
      CHECK_THROWS_AS(xf::fftconvolve(a, b, mode), xf::shape_error);
      continue;
    }
    const ref_block want = ref_convolve(a, b, mode);
    const double tol = fft_tol<T>() * 4;
    const auto by_fft = xf::fftconvolve(a, b, mode, xf::conv_method::fft);
    static_assert(std::is_same_v<xf::value_t<decltype(by_fft)>, T>);
    require_fft_close(by_fft, want, tol, what + " by transforms");
    require_fft_close(xf::fftconvolve(a, b, mode), want, tol, what + " automatic");
    if constexpr (R <= 2) require_fft_close(xf::fftconvolve(a, b, mode, xf::conv_method::direct), want, tol, what + " direct");
  }
}

template <class Space>
void fftconvolve_cases() {
  fftconvolve_case<Space, double, 1>({37}, {5});
  fftconvolve_case<Space, float, 1>({16}, {33});
  fftconvolve_case<Space, double, 2>({20, 31}, {7, 4});
  fftconvolve_case<Space, xf::complex128, 2>({9, 6}, {4, 8});
  fftconvolve_case<Space, float, 3>({6, 5, 7}, {3, 2, 4});
  // expressions and integers: promoted as SciPy does
  const auto i = xf::asarray<int, Space>({1, 2, 3});
  const auto k = xf::asarray<int, Space>({0, 1, 0, 0});
  const auto r = xf::fftconvolve(i * 2, k);
  static_assert(std::is_same_v<xf::value_t<decltype(r)>, double>);
  const auto h = xf::to_host(r);
  const std::vector<double> want{0, 2, 4, 6, 0, 0};
  REQUIRE(h.size() == want.size());
  for (std::size_t n = 0; n < h.size(); ++n) CHECK(std::abs(h[n] - want[n]) < 1e-12);
  // Empty operands give an empty result in every mode (SciPy: an empty array); the direct method is 1-D and 2-D only.
  const xf::array<double, 2, Space> none(xf::dims<2>{0, 5});
  const auto kernel = random_array<double, Space, 2>({3, 3});
  CHECK(xf::fftconvolve(none, kernel, xf::conv_mode::valid).size() == 0);
  const auto cube = random_array<double, Space, 3>({4, 4, 4});
  CHECK_THROWS_WITH(xf::fftconvolve(cube, cube, xf::conv_mode::full, xf::conv_method::direct), XF_CONTAINS("direct method"));
  CHECK(xf::detail::fft_fast_length(2302, "test") == 2304);
  CHECK(xf::detail::fft_fast_length(1, "test") == 1);
  CHECK(xf::detail::fft_fast_length(97, "test") == 98);
  CHECK(xf::detail::fft_fast_length(4097, "test") == 4116);
}

}  // namespace xf_test
