// layer_norm and rms_norm on host arrays (host suite) and device arrays (GPU suite), against
// PyTorch's formulas evaluated in long double on the values as the array holds them: fresh random
// rows of every length around the edges of the device's kernel (one thread a row up to the longest
// row kept on chip, longer rows in two passes), any axis, views, expressions, weights and biases
// (strided too), half precision, constant rows, rows of one element, NaN and inf, empty axes, and
// weights of the wrong length.
#pragma once

#include <cmath>
#include <limits>
#include <algorithm>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <xfuse/norm.hpp>

#include "check.hpp"
#include "random.hpp"

namespace xf_test::norm {

using xf::index_t;
using ld = long double;
enum class what { layer, rms };

// What a norm should give, with a bound on each element's error: normalising amplifies the
// rounding of x - mean by 1 / std, so a row whose values nearly agree is ill-conditioned and the
// bound grows with max|x| / std (times the weight), on top of a few ulp of the result.
template <class T>
struct expected {
  std::vector<T> values;
  std::vector<double> scale;  // the error bound is tol * scale
};

// PyTorch's formula for one row in long double: weight w and bias b (empty when absent); `scale`
// receives each element's error scale.
inline std::vector<ld> reference_row(const std::vector<ld>& x, what w, ld eps, const std::vector<ld>& weight,
                                     const std::vector<ld>& bias, std::vector<double>& scale) {
  const ld n = static_cast<ld>(x.size());
  ld mean = 0, squares = 0, largest = 0;
  if (w == what::layer) {
    for (ld v : x) mean += v;
    mean /= n;
  }
  for (ld v : x) {
    squares += (v - mean) * (v - mean);
    largest = std::max(largest, std::fabs(v));
  }
  const ld inverse_std = 1 / std::sqrt(squares / n + eps);
  std::vector<ld> out;
  scale.clear();
  for (std::size_t i = 0; i < x.size(); ++i) {
    ld y = (x[i] - mean) * inverse_std;
    const ld wi = weight.empty() ? 1 : std::fabs(weight[i]);
    if (!weight.empty()) y *= weight[i];
    if (!bias.empty()) y += bias[i];
    out.push_back(y);
    scale.push_back(static_cast<double>(std::fabs(y) + wi * (1 + largest * inverse_std) + (bias.empty() ? 0 : std::fabs(bias[i]))));
  }
  return out;
}

// The reference over axis 1 of a C-ordered (before, n, after) block.
template <class T>
expected<T> reference(const std::vector<T>& values, index_t before, index_t n, index_t after, what w, double eps,
                      const std::vector<T>& weight, const std::vector<T>& bias) {
  std::vector<ld> wl, bl;
  for (const T& v : weight) wl.push_back(static_cast<ld>(as_real(v)));
  for (const T& v : bias) bl.push_back(static_cast<ld>(as_real(v)));
  expected<T> out{std::vector<T>(values.size()), std::vector<double>(values.size())};
  std::vector<double> scale;
  for (index_t b = 0; b < before; ++b)
    for (index_t a = 0; a < after; ++a) {
      std::vector<ld> row;
      for (index_t i = 0; i < n; ++i) row.push_back(static_cast<ld>(as_real(values[static_cast<std::size_t>((b * n + i) * after + a)])));
      const auto r = reference_row(row, w, static_cast<ld>(eps), wl, bl, scale);
      for (index_t i = 0; i < n; ++i) {
        const auto at = static_cast<std::size_t>((b * n + i) * after + a);
        out.values[at] = xf::detail::convert<T>(static_cast<double>(r[static_cast<std::size_t>(i)]));
        out.scale[at] = scale[static_cast<std::size_t>(i)];
      }
    }
  return out;
}

// Within a few ulp of the compute type times each element's error scale (NaN matches NaN).
template <class T>
void require_normalised_close(const std::vector<T>& got, const expected<T>& want, index_t n, const std::string& label) {
  const double tol = (std::is_same_v<T, double> ? 1e-13 : std::is_same_v<T, float> ? 1e-6 : 2 * xf_test::eps<T>()) *
                     (1.0 + std::log2(static_cast<double>(n > 1 ? n : 1)));
  REQUIRE(got.size() == want.values.size());
  std::size_t bad = 0;
  std::ostringstream first;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = static_cast<double>(as_real(got[i])), w = static_cast<double>(as_real(want.values[i]));
    const bool ok = (std::isnan(g) && std::isnan(w)) || g == w || std::fabs(g - w) <= tol * want.scale[i];
    if (!ok) {
      if (bad < 5) first << "  [" << i << "] got " << show(got[i]) << " want " << show(want.values[i]) << " (bound " << tol * want.scale[i] << ")\n";
      ++bad;
    }
  }
  INFO(label << ": " << bad << " of " << got.size() << " elements differ\n" << first.str());
  CHECK(bad == 0);
}

// Both norms along axis 1 of (before, n, after) values, without and with weight and bias.
template <class S, class T>
void check_norms(const std::vector<T>& values, index_t before, index_t n, index_t after, const std::string& name) {
  const auto x = xf::asarray<T, S>(values, {before, n, after});
  const auto weight_values = uniform<T>(static_cast<std::size_t>(n), 0.5, 2);
  const auto bias_values = uniform<T>(static_cast<std::size_t>(n), -1, 1);
  const auto weight = xf::asarray<T, S>(weight_values, {n});
  const auto bias = xf::asarray<T, S>(bias_values, {n});
  const std::string shape = " of (" + std::to_string(before) + ", " + std::to_string(n) + ", " + std::to_string(after) + ")";
  const double eps = 1e-5;
  require_normalised_close(xf::to_host(xf::layer_norm(x, 1, eps)), reference(values, before, n, after, what::layer, eps, {}, {}), n,
                           name + " layer_norm" + shape);
  require_normalised_close(xf::to_host(xf::layer_norm(x, -2, eps, weight, bias)),
                           reference(values, before, n, after, what::layer, eps, weight_values, bias_values), n,
                           name + " layer_norm with weight and bias" + shape);
  require_normalised_close(xf::to_host(xf::layer_norm(x, 1, eps, weight)),
                           reference(values, before, n, after, what::layer, eps, weight_values, {}), n, name + " layer_norm with weight" + shape);
  const double rms_eps = xf::detail::machine_epsilon<T>();
  require_normalised_close(xf::to_host(xf::rms_norm(x, 1)), reference(values, before, n, after, what::rms, rms_eps, {}, {}), n,
                           name + " rms_norm" + shape);
  require_normalised_close(xf::to_host(xf::rms_norm(x, 1, 1e-6, weight)),
                           reference(values, before, n, after, what::rms, 1e-6, weight_values, {}), n, name + " rms_norm with weight" + shape);
}

template <class S, class T>
void row_lengths() {
  const std::vector<index_t> lengths = std::is_same_v<T, double>
                                           ? std::vector<index_t>{1, 2, 8, 9, 512, 513, 2048, 2049, 5120, 5122, 8192, 8193}
                                           : std::vector<index_t>{1, 2, 16, 17, 64, 200, 1024, 1025, 2048, 4097, 10240, 10244, 16384, 16385};
  for (const index_t n : lengths) {
    const index_t rows = n > 4096 ? 3 : 29;
    check_norms<S>(uniform<T>(static_cast<std::size_t>(rows * n), -3, 5), rows, n, 1, "plain rows");
  }
}

// The lengths of softmax_cases.hpp's split_rows (which the norms do not take: they stay in two
// passes there): a few long rows, many rows, and rows about a large offset.
template <class S, class T>
void split_rows() {
  using Shape = std::pair<index_t, index_t>;
  const std::vector<Shape> shapes = std::is_same_v<T, double> ? std::vector<Shape>{{3, 8194}, {1, 300000}, {700, 8200}}
                                                              : std::vector<Shape>{{3, 16388}, {1, (1 << 20) + 4}, {600, 16400}};
  for (const auto& [rows, n] : shapes)
    check_norms<S>(uniform<T>(static_cast<std::size_t>(rows * n), -3, 5), rows, n, 1, "split rows");
  auto offset = uniform<T>(static_cast<std::size_t>(2 * 50000), -1, 1);
  for (auto& x : offset) x = xf::detail::convert<T>(static_cast<double>(as_real(x)) + 1000.0);
  check_norms<S>(offset, 2, 50000, 1, "split rows about 1000");
}

template <class S, class T>
void layouts() {
  const auto v = uniform<T>(5 * 300 * 7, -4, 6);
  check_norms<S>(v, 5, 300, 7, "middle axis");
  check_norms<S>(v, 1, 5, 2100, "first axis (strided rows)");
  // The lengths around the edges of softmax_cases.hpp's cluster walk (which the norms do not take:
  // they stay in two passes there).
  const std::vector<index_t> strided = std::is_same_v<T, double> ? std::vector<index_t>{9, 257, 1000, 2048, 2049}
                                                                 : std::vector<index_t>{17, 513, 3000, 4096, 4097};
  for (const index_t n : strided) check_norms<S>(uniform<T>(static_cast<std::size_t>(n * 40), -3, 5), 1, n, 40, "strided rows");
  // An expression, a transposed view, and a strided weight and bias.
  const auto w = uniform<T>(64 * 257, -2, 2);
  std::vector<T> scaled(w.size()), transposed(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) scaled[i] = xf::detail::convert<T>(3.0 * static_cast<double>(as_real(w[i])) + 1.0);
  for (index_t i = 0; i < 64; ++i)
    for (index_t j = 0; j < 257; ++j) transposed[static_cast<std::size_t>(i * 257 + j)] = w[static_cast<std::size_t>(j * 64 + i)];
  const auto x = xf::asarray<T, S>(w, {64, 257});
  require_normalised_close(xf::to_host(xf::layer_norm(x * 3 + 1, 1)), reference(scaled, 64, 257, 1, what::layer, 1e-5, {}, {}), 257,
                           "layer_norm(x * 3 + 1)");
  const auto t = xf::asarray<T, S>(w, {257, 64});
  require_normalised_close(xf::to_host(xf::rms_norm(t.T(), 1, 1e-6)), reference(transposed, 64, 257, 1, what::rms, 1e-6, {}, {}), 257,
                           "rms_norm(a.T(), 1)");
  const auto wide = uniform<T>(2 * 257, 0.5, 2);
  std::vector<T> every_second(257), reversed(257);
  for (index_t i = 0; i < 257; ++i) {
    every_second[static_cast<std::size_t>(i)] = wide[static_cast<std::size_t>(2 * i)];
    reversed[static_cast<std::size_t>(i)] = wide[static_cast<std::size_t>(256 - i)];
  }
  const auto wa = xf::asarray<T, S>(wide, {2 * 257});
  require_normalised_close(xf::to_host(xf::layer_norm(x, 1, 1e-5, wa(xf::slice(xf::_, xf::_, 2)), wa(xf::slice(256, xf::_, -1)))),
                           reference(w, 64, 257, 1, what::layer, 1e-5, every_second, reversed), 257,
                           "layer_norm with a strided weight and a reversed bias");
  const auto strided_rows = xf::asarray<T, S>(w, {257, 64});
  require_normalised_close(xf::to_host(xf::layer_norm(strided_rows, 0, 1e-5, wa(xf::slice(xf::_, xf::_, 2)), wa(xf::slice(256, xf::_, -1)))),
                           reference(w, 1, 257, 64, what::layer, 1e-5, every_second, reversed), 257,
                           "layer_norm along the first axis with a strided weight and a reversed bias (two passes)");
}

template <class S, class T>
void special_rows() {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  // Row 0 holds a NaN, row 1 a +inf, row 2 is constant, row 3 is plain; contiguous and strided.
  const index_t n = 40;
  const auto plain = uniform<T>(static_cast<std::size_t>(4 * n), -5, 5);
  auto special = [&](index_t row, index_t i) {
    if (row == 0 && i == 3) return nan;
    if (row == 1 && i == 7) return inf;
    if (row == 2) return xf::detail::convert<T>(2.5);
    return plain[static_cast<std::size_t>(row * n + i)];
  };
  std::vector<T> rows(plain.size()), columns(plain.size());
  for (index_t row = 0; row < 4; ++row)
    for (index_t i = 0; i < n; ++i) {
      rows[static_cast<std::size_t>(row * n + i)] = special(row, i);
      columns[static_cast<std::size_t>(i * 4 + row)] = special(row, i);
    }
  check_norms<S>(rows, 4, n, 1, "special rows");
  check_norms<S>(columns, 1, n, 4, "special strided rows");
  // The same four kinds of rows, 1000 long, as 16 strided rows.
  const index_t long_n = 1000, lanes = 16;
  const auto long_plain = uniform<T>(static_cast<std::size_t>(long_n * lanes), -5, 5);
  std::vector<T> long_columns(long_plain.size());
  for (index_t i = 0; i < long_n; ++i)
    for (index_t c = 0; c < lanes; ++c) {
      const index_t kind = c % 4;
      T x = long_plain[static_cast<std::size_t>(i * lanes + c)];
      if (kind == 0 && i == 700) x = nan;
      if (kind == 1 && i == 999) x = inf;
      if (kind == 2) x = xf::detail::convert<T>(2.5);
      long_columns[static_cast<std::size_t>(i * lanes + c)] = x;
    }
  check_norms<S>(long_columns, 1, long_n, lanes, "special long strided rows");
  // Empty axis and no rows: empty results. A weight of the wrong length: a shape error naming it.
  const auto empty_axis = xf::asarray<T, S>(std::vector<T>{}, {3, 0});
  CHECK(xf::layer_norm(empty_axis, 1).shape() == xf::dims<2>{3, 0});
  const auto no_rows = xf::asarray<T, S>(std::vector<T>{}, {0, 5});
  CHECK(xf::rms_norm(no_rows, 1).shape() == xf::dims<2>{0, 5});
  const auto x = xf::asarray<T, S>(plain, {4, n});
  const auto short_weight = xf::asarray<T, S>(std::vector<T>(static_cast<std::size_t>(n - 1), T(1)), {n - 1});
  REQUIRE_THROWS_AS(xf::layer_norm(x, 1, 1e-5, short_weight), xf::shape_error);
  CHECK_THROWS_WITH(xf::rms_norm(x, 1, 1e-5, short_weight),
                    XF_CONTAINS("xf::rms_norm") && XF_CONTAINS("weight of shape (39,)") && XF_CONTAINS("(4, 40)"));
  CHECK_THROWS_AS(xf::layer_norm(x, 2), xf::shape_error);
}

template <class S>
void half_rows() {
  const auto v = uniform<float>(9 * 700, -4, 4);
  std::vector<xf::half> h(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) h[i] = xf::half(v[i]);
  check_norms<S>(h, 9, 700, 1, "half rows");
  const auto w = uniform<float>(3 * 4096, -4, 4);
  std::vector<xf::half> hw(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) hw[i] = xf::half(w[i]);
  check_norms<S>(hw, 3, 4096, 1, "half rows of 4096");
}

}  // namespace xf_test::norm
