// Expressions that use reductions of their own rows, described with xf::lazy
// (`x / xf::lazy::sum(x, 1, xf::keepdims)`), on host arrays (host suite) and device arrays (GPU
// suite, where qualifying ones run as one kernel: reduce/row_statistics.hpp), against the same
// formulas in long double over plain loops: every axis of rank-2 and rank-3 arrays, row lengths
// from 1 to past a block's threads, rows that share a block, transposed views, in-place updates,
// NaN and infinities, and the general path (other axes, nested reductions, reuse of a result).
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <xfuse/complex.hpp>
#include <xfuse/reduce.hpp>

#include "check.hpp"
#include "random.hpp"
#include "reduce_reference.hpp"

namespace xf_test::row_statistics {

using xf::index_t;

// The C-order flat indices of every row of `shape` along `axis`.
inline std::vector<std::vector<std::size_t>> rows_of(const shape_t& shape, int axis) {
  const int rank = static_cast<int>(shape.size());
  std::vector<index_t> strides(shape.size(), 1);
  for (int d = rank - 2; d >= 0; --d) strides[d] = strides[d + 1] * shape[d + 1];
  index_t rows = 1;
  for (int d = 0; d < rank; ++d) rows *= d == axis ? 1 : shape[d];
  std::vector<std::vector<std::size_t>> all(static_cast<std::size_t>(rows));
  for (index_t q = 0; q < rows; ++q) {
    index_t base = 0, rest = q;
    for (int d = rank - 1; d >= 0; --d) {
      if (d == axis) continue;
      base += rest % shape[d] * strides[d];
      rest /= shape[d];
    }
    for (index_t k = 0; k < shape[axis]; ++k) all[static_cast<std::size_t>(q)].push_back(static_cast<std::size_t>(base + k * strides[axis]));
  }
  return all;
}

enum class formula { divide_by_sum, subtract_mean, standardise, exp_minus_max };

// The formula on each row, in long double (max propagates NaN, as np.max does).
template <class T>
std::vector<T> reference(const std::vector<T>& x, const shape_t& shape, int axis, formula what) {
  std::vector<T> out(x.size());
  for (const auto& row : rows_of(shape, axis)) {
    long double sum = 0, max = -std::numeric_limits<long double>::infinity();
    bool nan = false;
    for (const std::size_t i : row) {
      const long double v = x[i];
      sum += v;
      nan = nan || v != v;
      if (v > max) max = v;
    }
    if (nan) max = std::numeric_limits<long double>::quiet_NaN();
    const long double n = static_cast<long double>(row.size()), mean = sum / n;
    long double squares = 0;
    for (const std::size_t i : row) squares += (x[i] - mean) * (x[i] - mean);
    const long double inverse_std = 1 / std::sqrt(squares / n + 1e-5L);
    for (const std::size_t i : row) {
      const long double v = x[i];
      const long double r = what == formula::divide_by_sum   ? v / sum
                            : what == formula::subtract_mean ? v - mean
                            : what == formula::standardise   ? (v - mean) * inverse_std
                                                             : std::exp(v - max);
      out[i] = static_cast<T>(r);
    }
  }
  return out;
}

// The rows' means as the reduction itself (keepdims), for checking what a described reduction kept.
template <class T>
std::vector<T> row_means(const std::vector<T>& x, const shape_t& shape, int axis) {
  std::vector<T> out;
  for (const auto& row : rows_of(shape, axis)) {
    long double sum = 0;
    for (const std::size_t i : row) sum += x[i];
    out.push_back(static_cast<T>(sum / static_cast<long double>(row.size())));
  }
  return out;
}

template <class T>
double tolerance() {
  return std::is_same_v<T, float> ? 2e-5 : 1e-12;
}

template <class Space, class T, std::size_t R>
auto array_of(const std::vector<T>& v, const shape_t& shape) {
  std::array<index_t, R> s{};
  for (std::size_t d = 0; d < R; ++d) s[d] = shape[d];
  return xf::asarray<T, Space>(v, s);
}

// Each formula along each axis of an array of `shape` (rank 2 or 3); positive values, so that
// sums are far from zero. The described mean keeps the rows' means it was evaluated to.
template <class Space, class T, std::size_t R>
void formulas_along_axes(const shape_t& shape) {
  std::size_t count = 1;
  for (const index_t e : shape) count *= static_cast<std::size_t>(e);
  const auto v = uniform<T>(count, 0.5, 8);
  const auto x = array_of<Space, T, R>(v, shape);
  const double tol = tolerance<T>();
  for (int axis = 0; axis < static_cast<int>(R); ++axis) {
    const std::string what = std::string(xf::dtype_name<T>) + " along axis " + std::to_string(axis) + " of " + std::to_string(shape[0]) +
                             "x" + std::to_string(shape[1]) + (R == 3 ? "x" + std::to_string(shape[2]) : std::string());
    xf::array<T, R, Space> divided = x / xf::lazy::sum(x, axis, xf::keepdims);
    require_all_close(xf::to_host(divided), reference(v, shape, axis, formula::divide_by_sum), tol, 0.0, "x / sum, " + what);
    const auto mean = xf::lazy::mean(x, axis, xf::keepdims);
    xf::array<T, R, Space> centred = x - mean;
    require_all_close(xf::to_host(centred), reference(v, shape, axis, formula::subtract_mean), 0.0, 8 * tol, "x - mean, " + what);
    const xf::array<T, R, Space> kept = mean;
    require_all_close(xf::to_host(kept), row_means(v, shape, axis), tol, 0.0, "the mean kept, " + what);
    const int negative = axis - static_cast<int>(R);
    const xf::array<T, R, Space> standardised(x.shape());
    standardised.assign((x - xf::lazy::mean(x, negative, xf::keepdims)) /
                        xf::sqrt(xf::lazy::var(x, negative, xf::keepdims) + T(1e-5)));
    require_all_close(xf::to_host(standardised), reference(v, shape, axis, formula::standardise), 0.0, 20 * tol, "standardised, " + what);
  }
}

// NaN, infinities and rows of one element: the formulas' IEEE answers.
template <class Space, class T>
void special_values() {
  constexpr T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  for (const index_t n : {index_t{1}, index_t{5}, index_t{700}}) {
    const index_t rows = 300;
    auto v = uniform<T>(static_cast<std::size_t>(rows * n), -4, 4);
    for (index_t r = 0; r < rows; r += 7) v[static_cast<std::size_t>(r * n + (r / 7) % n)] = nan;
    for (index_t r = 3; r < rows; r += 11) v[static_cast<std::size_t>(r * n)] = inf;
    for (index_t r = 5; r < rows; r += 13)
      for (index_t k = 0; k < n; ++k) v[static_cast<std::size_t>(r * n + k)] = -inf;
    const shape_t shape{rows, n};
    const auto x = array_of<Space, T, 2>(v, shape);
    const std::string what = std::string(xf::dtype_name<T>) + ", rows of " + std::to_string(n);
    xf::array<T, 2, Space> e = xf::exp(x - xf::lazy::max(x, 1, xf::keepdims));
    require_all_close(xf::to_host(e), reference(v, shape, 1, formula::exp_minus_max), tolerance<T>(), 0.0, "exp(x - max), " + what);
    xf::array<T, 2, Space> c = x - xf::lazy::mean(x, 1, xf::keepdims);
    require_all_close(xf::to_host(c), reference(v, shape, 1, formula::subtract_mean), tolerance<T>(), 1e-5, "x - mean, " + what);
  }
}

// Rows around the edges of the walk that stages them in shared memory on sm_90 (2048 to 10240
// floats whose rows are whole 16-byte multiples; 2044, 4098 and 10244 take the register walk,
// unless two arrays of one type leave registers out: then rows of any length that are 16-byte
// multiples, 36 and 1024 here, are staged too, and 1030 takes the general path), with NaN, +inf
// and all -inf rows: a weight of x's type (read beside the staged x), the standardised rows (var
// folded around the mean), and nanstd with ddof 1 subtracted from a second input.
template <class Space>
void staged_rows() {
  const index_t m = 140;
  for (const index_t n : {index_t{36}, index_t{1024}, index_t{1030}, index_t{2044}, index_t{2048}, index_t{4098}, index_t{10240},
                          index_t{10244}}) {
    auto v = uniform<float>(static_cast<std::size_t>(m * n), 0.5, 8);
    constexpr float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    v[static_cast<std::size_t>(3 * n + n / 2)] = nan;
    v[static_cast<std::size_t>(7 * n + n - 1)] = inf;
    for (index_t k = 0; k < n; ++k) v[static_cast<std::size_t>(5 * n + k)] = -inf;
    const auto wv = uniform<float>(static_cast<std::size_t>(n), 0.5, 2);
    const auto zv = uniform<float>(v.size(), -1, 1);
    const auto x = xf::asarray<float, Space>(v, {m, n});
    const auto w = xf::asarray<float, Space>(wv, {1, n});
    const auto z = xf::asarray<float, Space>(zv, {m, n});
    const std::string what = "rows of " + std::to_string(n);

    const auto mean = xf::lazy::mean(x, 1, xf::keepdims);
    xf::array<float, 2, Space> r = (x - mean) * w / mean + xf::lazy::max(x * w, 1, xf::keepdims);
    xf::array<float, 2, Space> s = (x - xf::lazy::mean(x, 1, xf::keepdims)) / xf::sqrt(xf::lazy::var(x, 1, xf::keepdims) + 1e-5f);
    xf::array<float, 2, Space> q = z - xf::lazy::nanstd(x, 1, xf::keepdims, xf::ddof(1));
    // Two reductions of one type of different inputs, beside one used twice: folded as three.
    const auto sum_z = xf::lazy::sum(z, 1, xf::keepdims);
    xf::array<float, 2, Space> u = x * sum_z + z * xf::lazy::sum(x, 1, xf::keepdims) - sum_z;
    std::vector<float> want_r(v.size()), want_q(v.size()), want_u(v.size());
    for (index_t i = 0; i < m; ++i) {
      long double sum = 0, max = -INFINITY, kept = 0, count = 0;
      bool nan_in_row = false;
      for (index_t k = 0; k < n; ++k) {
        const long double xv = v[static_cast<std::size_t>(i * n + k)], xw = xv * wv[static_cast<std::size_t>(k)];
        sum += xv;
        nan_in_row = nan_in_row || xw != xw;
        if (xw > max) max = xw;
        if (xv == xv) kept += xv, count += 1;
      }
      if (nan_in_row) max = NAN;
      const long double mu = sum / n, kept_mean = kept / count;
      long double squares = 0;
      for (index_t k = 0; k < n; ++k) {
        const long double xv = v[static_cast<std::size_t>(i * n + k)];
        if (xv == xv) squares += (xv - kept_mean) * (xv - kept_mean);
      }
      const long double nanstd = std::sqrt(squares / (count - 1));
      long double z_sum = 0;
      for (index_t k = 0; k < n; ++k) z_sum += zv[static_cast<std::size_t>(i * n + k)];
      for (index_t k = 0; k < n; ++k) {
        const std::size_t at = static_cast<std::size_t>(i * n + k);
        want_r[at] = static_cast<float>((v[at] - mu) * wv[static_cast<std::size_t>(k)] / mu + max);
        want_q[at] = static_cast<float>(zv[at] - nanstd);
        want_u[at] = static_cast<float>(v[at] * z_sum + zv[at] * sum - z_sum);
      }
    }
    require_all_close(xf::to_host(r), want_r, 2e-5, 1e-5, "(x - mean) * w / mean + max(x * w), " + what);
    require_all_close(xf::to_host(s), reference(v, {m, n}, 1, formula::standardise), 0.0, 4e-4, "standardised, " + what);
    require_all_close(xf::to_host(q), want_q, 1e-5, 1e-5, "z - nanstd(x, ddof=1), " + what);
    require_all_close(xf::to_host(u), want_u, 2e-5, 2e-5 * static_cast<double>(n), "x * sum(z) + z * sum(x) - sum(z), " + what);
    // In place, every row staged whole before any of it is written.
    auto y = xf::asarray<float, Space>(v, {m, n});
    y.assign(y - xf::lazy::mean(y, 1, xf::keepdims));
    require_all_close(xf::to_host(y), reference(v, {m, n}, 1, formula::subtract_mean), 0.0, 2e-4, "y = y - mean(y, 1), " + what);
  }
}

// Transposed inputs, in-place updates, another destination type, a broadcast operand, one
// reduction used twice and two reductions of different inputs.
template <class Space>
void views_and_destinations() {
  const index_t m = 260, n = 333;
  const auto v = uniform<float>(static_cast<std::size_t>(m * n), 0.5, 8);
  const auto x = xf::asarray<float, Space>(v, {m, n});
  // x.T along axis 1 is x along axis 0.
  const auto t = x.transpose();
  xf::array<float, 2, Space> divided = t / xf::lazy::sum(t, 1, xf::keepdims);
  const auto want_columns = reference(v, {m, n}, 0, formula::divide_by_sum);
  require_all_close(xf::to_host(divided.transpose()), want_columns, 2e-5, 0.0, "x.T / sum(x.T, 1)");

  // In place: every row is read whole before any of it is written.
  auto y = xf::asarray<float, Space>(v, {m, n});
  y.assign(y - xf::lazy::mean(y, 1, xf::keepdims));
  require_all_close(xf::to_host(y), reference(v, {m, n}, 1, formula::subtract_mean), 0.0, 2e-4, "y = y - mean(y, 1), in place");

  // A double destination of a float expression.
  const xf::array<double, 2, Space> d({m, n});
  d.assign(x - xf::lazy::mean(x, 1, xf::keepdims));
  const auto want = reference(v, {m, n}, 1, formula::subtract_mean);
  const auto got = xf::to_host(d);
  std::vector<float> got_float(got.begin(), got.end());
  require_all_close(got_float, want, 0.0, 2e-4, "double destination");

  // One reduction used twice, a broadcast weight, and a reduction of another input.
  const auto wv = uniform<float>(static_cast<std::size_t>(n), 0.5, 2);
  const auto w = xf::asarray<float, Space>(wv, {1, n});
  const auto mean = xf::lazy::mean(x, 1, xf::keepdims);
  xf::array<float, 2, Space> r = (x - mean) * w / mean + xf::lazy::max(x * w, 1, xf::keepdims);
  std::vector<float> want_r(v.size());
  for (index_t i = 0; i < m; ++i) {
    long double sum = 0, max = -INFINITY;
    for (index_t k = 0; k < n; ++k) {
      const long double xv = v[static_cast<std::size_t>(i * n + k)];
      sum += xv;
      max = std::fmax(max, xv * wv[static_cast<std::size_t>(k)]);
    }
    const long double mu = sum / n;
    for (index_t k = 0; k < n; ++k)
      want_r[static_cast<std::size_t>(i * n + k)] = static_cast<float>((v[static_cast<std::size_t>(i * n + k)] - mu) * wv[static_cast<std::size_t>(k)] / mu + max);
  }
  require_all_close(xf::to_host(r), want_r, 2e-5, 1e-5, "(x - mean) * w / mean + max(x * w)");
}

// Forms that take the general path (each reduction first, then the element-wise kernel) and a
// result that, once computed, later uses read.
template <class Space>
void general_path() {
  const index_t m = 200, n = 150;
  const auto v = uniform<double>(static_cast<std::size_t>(m * n), 0.5, 8);
  const auto x = xf::asarray<double, Space>(v, {m, n});
  const auto by_columns = reference(v, {m, n}, 0, formula::subtract_mean);
  const auto by_rows = reference(v, {m, n}, 1, formula::subtract_mean);
  std::vector<double> both(v.size()), whole(v.size());
  long double total = 0;
  for (const double e : v) total += e;
  for (std::size_t i = 0; i < v.size(); ++i) {
    both[i] = by_columns[i] + by_rows[i] - v[i];  // x - mean over columns - mean over rows
    whole[i] = v[i] - static_cast<double>(total / static_cast<long double>(v.size()));
  }
  // Two axes in one expression; a mean over every axis (0-d); a reduction of one that holds another.
  xf::array<double, 2, Space> a = x - xf::lazy::mean(x, 0, xf::keepdims) - xf::lazy::mean(x, 1, xf::keepdims);
  require_all_close(xf::to_host(a), both, 0.0, 1e-11, "x - mean(x, 0) - mean(x, 1)");
  xf::array<double, 2, Space> b = x - xf::lazy::mean(x);
  require_all_close(xf::to_host(b), whole, 0.0, 1e-11, "x - mean(x)");
  xf::array<double, 2, Space> c = x - xf::lazy::mean(x - xf::lazy::mean(x, 1, xf::keepdims), 1, xf::keepdims);
  require_all_close(xf::to_host(c), v, 0.0, 1e-11, "x - mean(x - mean(x, 1), 1): x");
  // Without keepdims the result broadcasts as NumPy's does: (n,) against (m, n) along the last axis.
  const auto square = xf::asarray<double, Space>(std::vector<double>(v.begin(), v.begin() + n * n), {n, n});
  xf::array<double, 2, Space> s = square - xf::lazy::sum(square, 1);
  const auto sq = xf::to_host(s);
  for (index_t i = 0; i < n; i += 37)
    for (index_t k = 0; k < n; k += 41) {
      long double row_k = 0;
      for (index_t j = 0; j < n; ++j) row_k += v[static_cast<std::size_t>(k * n + j)];
      REQUIRE(std::abs(sq[static_cast<std::size_t>(i * n + k)] - static_cast<double>(v[static_cast<std::size_t>(i * n + k)] - row_k)) < 1e-10);
    }
  // A described reduction is computed once, the first time it is needed (like xf::matmul's lazy
  // product): later uses read that result, even after its input changes.
  auto y = xf::asarray<double, Space>(v, {m, n});
  const auto sum = xf::lazy::sum(y, 1, xf::keepdims);
  xf::array<double, 2, Space> first = y / sum;
  y.assign(y * 2.0);
  xf::array<double, 2, Space> second = y / sum;
  const auto f = xf::to_host(first), g = xf::to_host(second);
  for (std::size_t i = 0; i < f.size(); ++i) REQUIRE(std::abs(g[i] - 2 * f[i]) <= 1e-12 * std::abs(g[i]));
  // Empty rows: nothing to write.
  const auto empty = xf::asarray<float, Space>(std::vector<float>{}, {300, 0});
  xf::array<float, 2, Space> e = empty / xf::lazy::sum(empty, 1, xf::keepdims);
  REQUIRE(e.shape() == xf::dims<2>{300, 0});
}

// A destination reversed along the rows, one reduction used twice, an xf::assign that changes the
// reduction's input before the reduction is needed, integers with an int64 sum, argmax as an
// operand, and complex values.
template <class Space>
void orders_and_kinds() {
  const index_t m = 300, n = 77;
  const auto v = uniform<float>(static_cast<std::size_t>(m * n), 0.5, 8);
  const auto x = xf::asarray<float, Space>(v, {m, n});
  const auto centred = reference(v, {m, n}, 1, formula::subtract_mean);
  // Reversed destination: row i of y is row i of x - mean, backwards.
  const xf::array<float, 2, Space> y({m, n});
  y(xf::all, xf::slice(xf::_, xf::_, -1)).assign(x - xf::lazy::mean(x, 1, xf::keepdims));
  const auto got = xf::to_host(y);
  std::vector<float> want(got.size());
  for (index_t i = 0; i < m; ++i)
    for (index_t k = 0; k < n; ++k) want[static_cast<std::size_t>(i * n + n - 1 - k)] = centred[static_cast<std::size_t>(i * n + k)];
  require_all_close(got, want, 0.0, 2e-4, "a destination reversed along the rows");
  // (x - mean) / mean, the mean used twice.
  const auto mean = xf::lazy::mean(x, 1, xf::keepdims);
  const auto means = row_means(v, {m, n}, 1);
  xf::array<float, 2, Space> relative = (x - mean) / mean;
  std::vector<float> want_relative(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) want_relative[i] = centred[i] / means[i / static_cast<std::size_t>(n)];
  require_all_close(xf::to_host(relative), want_relative, 1e-4, 1e-5, "(x - mean) / mean");
  // xf::assign in order: the mean is of x after the first assignment doubled it.
  auto x2 = xf::asarray<float, Space>(v, {m, n});
  const xf::array<float, 2, Space> z({m, n});
  const auto mean2 = xf::lazy::mean(x2, 1, xf::keepdims);
  xf::assign(xf::into(x2) = x2 * 2.0f, xf::into(z) = x2 - mean2);
  std::vector<float> doubled(centred.size());
  for (std::size_t i = 0; i < centred.size(); ++i) doubled[i] = 2 * centred[i];
  require_all_close(xf::to_host(z), doubled, 0.0, 4e-4, "xf::assign(x = 2x, z = x - mean(x))");
  // int8 rows minus their int64 sums: exact.
  const auto iv = uniform<std::int8_t>(static_cast<std::size_t>(m * n), -100, 100);
  const auto xi = xf::asarray<std::int8_t, Space>(iv, {m, n});
  xf::array<std::int64_t, 2, Space> di = xi - xf::lazy::sum(xi, 1, xf::keepdims);
  const auto dih = xf::to_host(di);
  for (index_t i = 0; i < m; i += 13) {
    std::int64_t sum = 0;
    for (index_t k = 0; k < n; ++k) sum += iv[static_cast<std::size_t>(i * n + k)];
    for (index_t k = 0; k < n; ++k) REQUIRE(dih[static_cast<std::size_t>(i * n + k)] == iv[static_cast<std::size_t>(i * n + k)] - sum);
  }
  // x + argmax(x, 1): the index of each row's first maximum.
  xf::array<double, 2, Space> shifted = x + xf::lazy::argmax(x, 1, xf::keepdims);
  const auto sh = xf::to_host(shifted);
  for (index_t i = 0; i < m; i += 7) {
    index_t best = 0;
    for (index_t k = 1; k < n; ++k)
      if (v[static_cast<std::size_t>(i * n + k)] > v[static_cast<std::size_t>(i * n + best)]) best = k;
    REQUIRE(sh[static_cast<std::size_t>(i * n + 3)] == static_cast<double>(v[static_cast<std::size_t>(i * n + 3)]) + static_cast<double>(best));
  }
  // argmax of negative rows and argmin of positive ones (the reducers' identity, 0 at index -1, is
  // above every element of the one and below every element of the other), on rows held in
  // registers (77) and staged (2048).
  for (const index_t len : {n, index_t{2048}}) {
    const auto pv = uniform<float>(static_cast<std::size_t>(m * len), 0.5, 8);
    const auto px = xf::asarray<float, Space>(pv, {m, len});
    const auto nx = xf::eval(-px);
    const xf::array<double, 2, Space> low = xf::lazy::argmin(px, 1, xf::keepdims) + 0.0f * px;
    const xf::array<double, 2, Space> high = xf::lazy::argmax(nx, 1, xf::keepdims) + 0.0f * nx;
    const auto lo = xf::to_host(low), hi = xf::to_host(high);
    for (index_t i = 0; i < m; i += 11) {
      index_t best = 0;
      for (index_t k = 1; k < len; ++k)
        if (pv[static_cast<std::size_t>(i * len + k)] < pv[static_cast<std::size_t>(i * len + best)]) best = k;
      REQUIRE(lo[static_cast<std::size_t>(i * len + 1)] == static_cast<double>(best));
      REQUIRE(hi[static_cast<std::size_t>(i * len + 1)] == static_cast<double>(best));
    }
  }
  // Complex rows minus their means.
  using C = xf::complex128;
  std::vector<C> cv(static_cast<std::size_t>(m * n));
  const auto re = uniform<double>(cv.size(), -2, 2), im = uniform<double>(cv.size(), -2, 2);
  for (std::size_t i = 0; i < cv.size(); ++i) cv[i] = C(re[i], im[i]);
  const auto xc = xf::asarray<C, Space>(cv, {m, n});
  xf::array<C, 2, Space> dc = xc - xf::lazy::mean(xc, 1, xf::keepdims);
  const auto dch = xf::to_host(dc);
  for (index_t i = 0; i < m; i += 11) {
    C sum(0, 0);
    for (index_t k = 0; k < n; ++k) sum += cv[static_cast<std::size_t>(i * n + k)];
    const C want_c = cv[static_cast<std::size_t>(i * n + 5)] - sum / static_cast<double>(n);
    const C got_c = dch[static_cast<std::size_t>(i * n + 5)];
    REQUIRE(std::fabs(got_c.real() - want_c.real()) < 1e-12);
    REQUIRE(std::fabs(got_c.imag() - want_c.imag()) < 1e-12);
  }
}

}  // namespace xf_test::row_statistics
