// Convolution and correlation on host and device arrays: NumPy's and SciPy's results for small
// operands (printed by numpy 2 / scipy 1.16, pasted here), then random operands of every type
// against the definitions computed with plain loops in complex<double>, views as operands, each
// device kernel (1-D tiled, 2-D tiled, large filters direct) and bad input.
#pragma once

#include <complex>
#include <string>
#include <vector>

#include <xfuse/signal.hpp>
#include <xfuse/xfuse.hpp>

#include "check.hpp"
#include "random.hpp"

namespace xf_test {

using cdouble = std::complex<double>;

template <class T>
cdouble to_cd(const T& x) {
  if constexpr (xf::is_complex<T>) return {static_cast<double>(x.real()), static_cast<double>(x.imag())};
  else return {static_cast<double>(x), 0.0};
}

template <class T>
void require_signal(const std::vector<T>& got, const std::vector<cdouble>& want, const std::vector<double>& scale, const std::string& what) {
  REQUIRE(got.size() == want.size());
  const double eps = std::is_same_v<xf::real_t<T>, float> ? 6e-8 : 1.2e-16;
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO(what << " element " << i << ": got " << to_cd(got[i]) << ", want " << want[i]);
    REQUIRE(std::abs(to_cd(got[i]) - want[i]) <= 8 * eps * scale[i] + 1e-300);
  }
}

// Exact small cases: the values NumPy and SciPy print.
template <class Space>
void signal_known_values() {
  using M = xf::conv_mode;
  const auto a = xf::asarray<double, Space>({1, 2, 3, 4, 5});
  const auto v = xf::asarray<double, Space>({1, 10, 100, 1000});
  using vd = std::vector<double>;
  CHECK(xf::to_host(xf::convolve(a, v)) == vd{1, 12, 123, 1234, 2345, 3450, 4500, 5000});
  CHECK(xf::to_host(xf::convolve(a, v, M::same)) == vd{12, 123, 1234, 2345, 3450});
  CHECK(xf::to_host(xf::convolve(v, a, M::same)) == vd{12, 123, 1234, 2345, 3450});
  CHECK(xf::to_host(xf::convolve(a, v, M::valid)) == vd{1234, 2345});
  CHECK(xf::to_host(xf::correlate(a, v, M::full)) == vd{1000, 2100, 3210, 4321, 5432, 543, 54, 5});
  CHECK(xf::to_host(xf::correlate(a, v, M::same)) == vd{2100, 3210, 4321, 5432, 543});
  CHECK(xf::to_host(xf::correlate(a, v)) == vd{4321, 5432});
  CHECK(xf::to_host(xf::correlate(v, a, M::full)) == vd{5, 54, 543, 5432, 4321, 3210, 2100, 1000});
  CHECK(xf::to_host(xf::correlate(v, a, M::same)) == vd{543, 5432, 4321, 3210, 2100});
  CHECK(xf::to_host(xf::correlate(v, a)) == vd{5432, 4321});

  const auto img = xf::asarray<double, Space>(std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, {4, 5});
  const auto k3 = xf::asarray<double, Space>(std::vector<double>{1, 10, 100, 1000, 1e4, 1e5}, {2, 3});
  const auto k = xf::asarray<double, Space>(std::vector<double>{1, 10, 100, 1000}, {2, 2});
  CHECK(xf::to_host(xf::convolve2d(img, k3)) ==
        vd{1.0,     12.0,    123.0,    234.0,    345.0,    450.0,    500.0,    1006.0,   12067.0,  123678.0, 234789.0, 345900.0,
           451000.0, 501000.0, 6011.0,  67122.0,  679233.0, 790344.0, 901455.0, 1001550.0, 1001500.0, 11016.0, 122177.0, 1234788.0,
           1345899.0, 1457010.0, 1552100.0, 1502000.0, 16000.0, 177000.0, 1788000.0, 1899000.0, 2010000.0, 2100000.0, 2000000.0});
  CHECK(xf::to_host(xf::convolve2d(img, k3, M::same)) ==
        vd{12.0, 123.0, 234.0, 345.0, 450.0, 12067.0, 123678.0, 234789.0, 345900.0, 451000.0, 67122.0, 679233.0, 790344.0, 901455.0,
           1001550.0, 122177.0, 1234788.0, 1345899.0, 1457010.0, 1552100.0});
  CHECK(xf::to_host(xf::convolve2d(img, k3, M::valid)) ==
        vd{123678.0, 234789.0, 345900.0, 679233.0, 790344.0, 901455.0, 1234788.0, 1345899.0, 1457010.0});
  CHECK(xf::to_host(xf::correlate2d(img, k3, M::same)) ==
        vd{760210.0, 876321.0, 987432.0, 1098543.0, 109054.0, 1310760.0, 1431876.0, 1542987.0, 1654098.0, 164109.0, 1861310.0, 1987431.0,
           2098542.0, 2209653.0, 219164.0, 1860.0, 1986.0, 2097.0, 2208.0, 219.0});
  CHECK(xf::to_host(xf::correlate2d(img, k3, M::valid)) ==
        vd{876321.0, 987432.0, 1098543.0, 1431876.0, 1542987.0, 1654098.0, 1987431.0, 2098542.0, 2209653.0});
  CHECK(xf::to_host(xf::correlate2d(k, img, M::same)) == vd{15398.0, 14287.0, 9843.0, 8732.0});
  CHECK(xf::to_host(xf::correlate2d(k, img, M::valid)) ==
        vd{22064.0, 20953.0, 19842.0, 18731.0, 16509.0, 15398.0, 14287.0, 13176.0, 10954.0, 9843.0, 8732.0, 7621.0});
  CHECK(xf::to_host(xf::convolve2d(k, img, M::same)) == vd{2378.0, 3489.0, 7933.0, 9044.0});

  using z = xf::complex128;
  const auto zs = xf::asarray<z, Space>({z(1, 1), z(2, 0), z(3, -1)});
  const auto ws = xf::asarray<z, Space>({z(0, 1), z(2, 0)});
  using vz = std::vector<z>;
  CHECK(xf::to_host(xf::correlate(zs, ws, M::full)) == vz{z(2, 2), z(5, -1), z(6, -4), z(-1, -3)});
  CHECK(xf::to_host(xf::correlate(zs, ws, M::same)) == vz{z(2, 2), z(5, -1), z(6, -4)});
  CHECK(xf::to_host(xf::convolve(zs, ws)) == vz{z(-1, 1), z(2, 4), z(5, 3), z(6, -2)});
  CHECK(xf::to_host(xf::correlate(ws, zs, M::same)) == vz{z(6, 4), z(5, 1), z(2, -2)});
  CHECK(xf::to_host(xf::correlate(ws, zs, M::valid)) == vz{z(6, 4), z(5, 1)});
  const auto Z = xf::asarray<z, Space>(std::vector<z>{z(1, 1), z(2, 0), z(3, 0), z(4, -2), z(0, 0.5), z(1, 0)}, {3, 2});
  const auto W = xf::asarray<z, Space>(std::vector<z>{z(0, 1), z(2, -1)}, {1, 2});
  CHECK(xf::to_host(xf::correlate2d(Z, W, M::same)) == vz{z(5, 1), z(0, -2), z(10, -3), z(-2, -4), z(2.5, 1), z(0, -1)});
}

// The definitions, in complex<double>: the full result, then the window the mode keeps.
inline std::vector<cdouble> full_2d(const std::vector<cdouble>& x, std::size_t m, std::size_t n, const std::vector<cdouble>& f, std::size_t p,
                                    std::size_t q, bool correlate, std::vector<double>& scale) {
  const std::size_t fr = m + p - 1, fc = n + q - 1;
  std::vector<cdouble> out(fr * fc);
  scale.assign(fr * fc, 0);
  for (std::size_t i = 0; i < fr; ++i)
    for (std::size_t j = 0; j < fc; ++j)
      for (std::size_t a = 0; a < p; ++a)
        for (std::size_t b = 0; b < q; ++b) {
          // convolution: x[i - a][j - b] f[a][b]; correlation: x[i - (p-1) + a][j - (q-1) + b] conj(f[a][b])
          const std::ptrdiff_t xi = correlate ? std::ptrdiff_t(i + a) - std::ptrdiff_t(p - 1) : std::ptrdiff_t(i) - std::ptrdiff_t(a);
          const std::ptrdiff_t xj = correlate ? std::ptrdiff_t(j + b) - std::ptrdiff_t(q - 1) : std::ptrdiff_t(j) - std::ptrdiff_t(b);
          if (xi < 0 || xj < 0 || xi >= std::ptrdiff_t(m) || xj >= std::ptrdiff_t(n)) continue;
          const cdouble t = x[std::size_t(xi) * n + std::size_t(xj)] * (correlate ? std::conj(f[a * q + b]) : f[a * q + b]);
          out[i * fc + j] += t;
          scale[i * fc + j] += std::abs(t);
        }
  return out;
}

template <class T>
std::vector<cdouble> to_cds(const std::vector<T>& v) {
  std::vector<cdouble> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = to_cd(v[i]);
  return out;
}

// Random operands: every mode against the definitions. 2-D: SciPy's windows (same: in1's extent,
// start (full - m) / 2, rounded up for correlate2d); 1-D: NumPy's (same: the longer length;
// correlate rounds up when v is the longer).
template <class Space, class T>
void signal_random(std::size_t m, std::size_t n, std::size_t p, std::size_t q, bool transposed_input) {
  const auto xv = uniform<T>(m * n, -1, 1), fv = uniform<T>(p * q, -1, 1);
  const auto mi = static_cast<xf::index_t>(m), ni = static_cast<xf::index_t>(n);
  // The input as a C-ordered array or as the transpose of a stored (n, m) array.
  xf::array<T, 2, Space> x;
  if (transposed_input) {
    std::vector<T> t(m * n);
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) t[j * m + i] = xv[i * n + j];
    x = xf::asarray<T, Space>(t, {ni, mi}).T();
  } else {
    x = xf::asarray<T, Space>(xv, {mi, ni});
  }
  const auto f = xf::asarray<T, Space>(fv, {static_cast<xf::index_t>(p), static_cast<xf::index_t>(q)});
  const std::string name = std::string(xf::dtype_name<T>) + " " + std::to_string(m) + "x" + std::to_string(n) + " * " + std::to_string(p) + "x" +
                           std::to_string(q) + (transposed_input ? " (transposed view)" : "");
  for (const bool corr : {false, true}) {
    std::vector<double> scale;
    const auto full = full_2d(to_cds(xv), m, n, to_cds(fv), p, q, corr, scale);
    const std::size_t fr = m + p - 1, fc = n + q - 1;
    const auto window = [&](std::size_t r0, std::size_t rows, std::size_t c0, std::size_t cols, std::vector<cdouble>& w, std::vector<double>& s) {
      w.clear();
      s.clear();
      for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j) w.push_back(full[(r0 + i) * fc + c0 + j]), s.push_back(scale[(r0 + i) * fc + c0 + j]);
    };
    std::vector<cdouble> want;
    std::vector<double> s;
    const auto run = [&](xf::conv_mode mode) {
      return corr ? xf::to_host(xf::correlate2d(x, f, mode)) : xf::to_host(xf::convolve2d(x, f, mode));
    };
    const std::string what = name + (corr ? " correlate2d " : " convolve2d ");
    window(0, fr, 0, fc, want, s);
    require_signal(run(xf::conv_mode::full), want, s, what + "full");
    window((fr - m + (corr ? 1 : 0)) / 2, m, (fc - n + (corr ? 1 : 0)) / 2, n, want, s);
    require_signal(run(xf::conv_mode::same), want, s, what + "same");
    if (m >= p && n >= q) {
      window(p - 1, m - p + 1, q - 1, n - q + 1, want, s);
      require_signal(run(xf::conv_mode::valid), want, s, what + "valid");
    }
  }
  // 1-D: the first row against the filter's first row.
  {
    const auto xr = std::vector<T>(xv.begin(), xv.begin() + static_cast<std::ptrdiff_t>(n));
    const auto fr1 = std::vector<T>(fv.begin(), fv.begin() + static_cast<std::ptrdiff_t>(q));
    const auto a = xf::asarray<T, Space>(xr), v = xf::asarray<T, Space>(fr1);
    for (const bool corr : {false, true}) {
      std::vector<double> scale;
      const auto full = full_2d(to_cds(xr), 1, n, to_cds(fr1), 1, q, corr, scale);
      const std::size_t longer = std::max(n, q), shorter = std::min(n, q);
      const bool up = corr && q > n;
      const std::size_t start = (n + q - 1 - longer + (up ? 1 : 0)) / 2;
      const std::vector<cdouble> same(full.begin() + std::ptrdiff_t(start), full.begin() + std::ptrdiff_t(start + longer));
      const std::vector<double> same_s(scale.begin() + std::ptrdiff_t(start), scale.begin() + std::ptrdiff_t(start + longer));
      const std::vector<cdouble> valid(full.begin() + std::ptrdiff_t(shorter - 1), full.begin() + std::ptrdiff_t(shorter - 1 + longer - shorter + 1));
      const std::vector<double> valid_s(scale.begin() + std::ptrdiff_t(shorter - 1), scale.begin() + std::ptrdiff_t(longer));
      const std::string what = name + (corr ? " correlate (1-D) " : " convolve (1-D) ");
      if (corr) {
        require_signal(xf::to_host(xf::correlate(a, v, xf::conv_mode::full)), full, scale, what + "full");
        require_signal(xf::to_host(xf::correlate(a, v, xf::conv_mode::same)), same, same_s, what + "same");
        require_signal(xf::to_host(xf::correlate(a, v, xf::conv_mode::valid)), valid, valid_s, what + "valid");
      } else {
        require_signal(xf::to_host(xf::convolve(a, v, xf::conv_mode::full)), full, scale, what + "full");
        require_signal(xf::to_host(xf::convolve(a, v, xf::conv_mode::same)), same, same_s, what + "same");
        require_signal(xf::to_host(xf::convolve(a, v, xf::conv_mode::valid)), valid, valid_s, what + "valid");
      }
    }
  }
}

template <class Space>
void signal_errors() {
  const auto a = xf::asarray<double, Space>(std::vector<double>(12, 1.0), {3, 4});
  const auto b = xf::asarray<double, Space>(std::vector<double>(10, 1.0), {5, 2});
  REQUIRE_THROWS_WITH(xf::convolve2d(a, b, xf::conv_mode::valid),
                      XF_CONTAINS("xf::convolve2d") && XF_CONTAINS("valid") && XF_CONTAINS("(3, 4)") && XF_CONTAINS("(5, 2)"));
  const auto e = xf::asarray<double, Space>(std::vector<double>{}, {0});
  REQUIRE_THROWS_WITH(xf::convolve(e, xf::asarray<double, Space>({1.0, 2.0})), XF_CONTAINS("xf::convolve") && XF_CONTAINS("empty"));
  REQUIRE(xf::to_host(a).size() == 12);
}

}  // namespace xf_test
