// Producers that compose (exec/producer.hpp): row functions and scans written straight into
// destinations (C-ordered, transposed, strided, reversed views; in place; destinations the
// producer reads), and used inside element-wise expressions (the expression in the producer's
// store on device arrays; the general path on host arrays), against the same results computed the
// plain way (a fresh array, then the expression as loops over host values) on fresh random data
// with NaN and infinities; the statement rule (an eager call is computed by the end of its
// statement), and errors thrown at the call. Shared by the host and GPU suites.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <xfuse/core.hpp>
#include <xfuse/norm.hpp>
#include <xfuse/scan.hpp>
#include <xfuse/softmax.hpp>
#include <xfuse/quantile.hpp>
#include <xfuse/sort.hpp>

#include "check.hpp"
#include "random.hpp"

namespace xf_test::compose {

using xf::index_t;

// got[i] == want[i] within `ulps` of T's epsilon relative to scale[i] (|want[i]| when no scale is
// given: the magnitude of the terms where the value is a sum that may cancel), or both NaN, or
// equal infinities.
template <class T>
void require_near(const std::vector<T>& got, const std::vector<double>& want, const std::string& what, double ulps = 8,
                  const std::vector<double>& scale = {}) {
  REQUIRE(got.size() == want.size());
  const double eps = static_cast<double>(std::numeric_limits<T>::epsilon());
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = static_cast<double>(got[i]), w = want[i];
    const double size = scale.empty() ? std::fabs(w) : scale[i];
    const bool ok = (std::isnan(g) && std::isnan(w)) || (std::isinf(w) && g == w) ||
                    std::fabs(g - w) <= ulps * eps * (size + 1e-30) + eps * 1e-6;
    if (!ok && bad++ == 0) first = i;
  }
  INFO(what << ": " << bad << " of " << got.size() << " differ; first at " << first << ": got "
            << (bad ? static_cast<double>(got[first]) : 0.0) << ", want " << (bad ? want[first] : 0.0));
  CHECK(bad == 0);
}

template <class T>
std::vector<double> as_double(const std::vector<T>& v) {
  return std::vector<double>(v.begin(), v.end());
}

// Random values in [-4, 4) with a NaN row and a row holding +inf when there are rows enough.
template <class T>
std::vector<T> rows_with_specials(index_t m, index_t n) {
  auto v = uniform<T>(static_cast<std::size_t>(m * n), -4, 4);
  if (m > 3 && n > 2) {
    v[static_cast<std::size_t>(1 * n + 1)] = std::numeric_limits<T>::quiet_NaN();
    v[static_cast<std::size_t>(2 * n + 2)] = std::numeric_limits<T>::infinity();
  }
  return v;
}

// A row function written into destinations of every kind, each equal to the fresh result.
template <class S, class T>
void destinations(index_t m, index_t n) {
  const auto v = rows_with_specials<T>(m, n);
  const auto x = xf::asarray<T, S>(v, {m, n});
  const xf::array<T, 2, S> fresh = xf::softmax(x, 1);
  const auto want = as_double(xf::to_host(fresh));
  const std::string shape = " of (" + std::to_string(m) + ", " + std::to_string(n) + ")";

  xf::array<T, 2, S> out({m, n});
  out.assign(xf::softmax(x, 1));
  require_near(xf::to_host(out), want, "out.assign(softmax(x, 1))" + shape, 0);

  out.assign(0);
  out = xf::softmax(x, 1);  // rebinding: a fresh array
  require_near(xf::to_host(out), want, "out = softmax(x, 1)" + shape, 0);

  // A transposed destination: outT.T() is (m, n) with strides (1, m).
  xf::array<T, 2, S> outT({n, m});
  outT.T().assign(xf::softmax(x, 1));
  require_near(xf::to_host(outT.T().copy()), want, "a transposed destination" + shape, 0);

  // Every other column of a wider array (the rest keeps its sentinel), rows walked backwards.
  auto wide = xf::asarray<T, S>(std::vector<T>(static_cast<std::size_t>(m * 2 * n), T(-7)), {m, 2 * n});
  wide(xf::slice(xf::_, xf::_, -1), xf::slice(0, xf::_, 2)).assign(xf::softmax(x(xf::slice(xf::_, xf::_, -1), xf::all), 1));
  const auto w = xf::to_host(wide);
  std::vector<double> got_cols, sentinel;
  for (index_t i = 0; i < m; ++i)
    for (index_t j = 0; j < 2 * n; ++j) (j % 2 == 0 ? got_cols : sentinel).push_back(w[static_cast<std::size_t>(i * 2 * n + j)]);
  require_near(std::vector<double>(got_cols), want, "a strided destination, rows reversed" + shape, 0);
  CHECK(sentinel == std::vector<double>(sentinel.size(), -7.0));

  // Reversed along the axis (the general path).
  xf::array<T, 2, S> rev({m, n});
  rev(xf::all, xf::slice(xf::_, xf::_, -1)).assign(xf::softmax(x, 1));
  const auto r = xf::to_host(rev);
  std::vector<double> unreversed(r.size());
  for (index_t i = 0; i < m; ++i)
    for (index_t j = 0; j < n; ++j) unreversed[static_cast<std::size_t>(i * n + j)] = r[static_cast<std::size_t>(i * n + (n - 1 - j))];
  require_near(std::vector<T>(unreversed.begin(), unreversed.end()), want, "a destination reversed along the axis" + shape, 0);

  // layer_norm with a weight and bias into a preallocated array, and xf::eval.
  const auto wv = uniform<T>(static_cast<std::size_t>(n), 0.5, 1.5), bv = uniform<T>(static_cast<std::size_t>(n), -1, 1);
  const auto weight = xf::asarray<T, S>(wv, {n}), bias = xf::asarray<T, S>(bv, {n});
  const xf::array<T, 2, S> norm_fresh = xf::layer_norm(x, 1, 1e-5, weight, bias);
  out.assign(xf::layer_norm(x, 1, 1e-5, weight, bias));
  require_near(xf::to_host(out), as_double(xf::to_host(norm_fresh)), "out.assign(layer_norm(x, 1, eps, w, b))" + shape, 0);
  require_near(xf::to_host(xf::eval(xf::rms_norm(x, 1, 1e-6, weight))),
               as_double(xf::to_host(xf::array<T, 2, S>(xf::rms_norm(x, 1, 1e-6, weight)))), "eval(rms_norm(x, 1, eps, w))" + shape, 0);
}

// got == v + want elementwise, each sum rounded to T, within 2 ulps of its terms.
template <class T>
void require_added(const std::vector<T>& got, const std::vector<T>& v, const std::vector<double>& want, const std::string& what) {
  std::vector<double> want_sum(v.size()), terms(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    want_sum[i] = static_cast<double>(static_cast<T>(v[i] + static_cast<T>(want[i])));
    terms[i] = std::fabs(static_cast<double>(v[i])) + std::fabs(want[i]);
  }
  require_near(got, want_sum, what, 2, terms);
}

// Destinations that the row function reads: in place (each row read whole before it is written)
// and through a transposed view (NumPy's answer: the result first, then the copy).
template <class S, class T>
void aliasing(index_t n) {
  const auto v = rows_with_specials<T>(n, n);
  const auto want = as_double(xf::to_host(xf::array<T, 2, S>(xf::softmax(xf::asarray<T, S>(v, {n, n}), 1))));
  auto x = xf::asarray<T, S>(v, {n, n});
  x.assign(xf::softmax(x, 1));
  require_near(xf::to_host(x), want, "x.assign(softmax(x, 1))", 0);

  x = xf::asarray<T, S>(v, {n, n});
  x.T().assign(xf::softmax(x, 1));
  const auto t = xf::to_host(x);
  std::vector<double> back(t.size());
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j) back[static_cast<std::size_t>(i * n + j)] = t[static_cast<std::size_t>(j * n + i)];
  require_near(std::vector<T>(back.begin(), back.end()), want, "x.T().assign(softmax(x, 1))", 0);

  x = xf::asarray<T, S>(v, {n, n});
  x += xf::softmax(x, 1);  // the epilogue reads x where it writes
  require_added(xf::to_host(x), v, want, "x += softmax(x, 1)");
}

// A row function along the first axis written into the array it reads (each column's rows read
// whole, by every block that holds them, before any is written), and added to it.
template <class S, class T>
void aliasing_columns(index_t m, index_t n) {
  const auto v = rows_with_specials<T>(m, n);
  const auto want = as_double(xf::to_host(xf::array<T, 2, S>(xf::softmax(xf::asarray<T, S>(v, {m, n}), 0))));
  auto x = xf::asarray<T, S>(v, {m, n});
  x.assign(xf::softmax(x, 0));
  require_near(xf::to_host(x), want, "x.assign(softmax(x, 0))", 0);
  x = xf::asarray<T, S>(v, {m, n});
  x += xf::softmax(x, 0);
  require_added(xf::to_host(x), v, want, "x += softmax(x, 0)");
}

// Expressions that use a row function, along `axis` of an (m, n) array: each against the fresh
// result and the expression applied to host values.
template <class S, class T>
void consumers(index_t m, index_t n, int axis) {
  const auto v = rows_with_specials<T>(m, n);
  const index_t len = axis == 1 ? n : m;
  const auto bv = uniform<T>(static_cast<std::size_t>(len), -1, 1), wv = uniform<T>(static_cast<std::size_t>(len), 0.5, 1.5);
  const auto x = xf::asarray<T, S>(v, {m, n});
  // b and w along the axis, broadcast over the other.
  const auto b = xf::asarray<T, S>(bv, axis == 1 ? xf::dims<2>{1, n} : xf::dims<2>{m, 1});
  const auto w = xf::asarray<T, S>(wv, axis == 1 ? xf::dims<2>{1, n} : xf::dims<2>{m, 1});
  const auto at = [&](index_t i, index_t j) { return static_cast<std::size_t>(axis == 1 ? j : i); };
  const std::string where = " along axis " + std::to_string(axis) + " of (" + std::to_string(m) + ", " + std::to_string(n) + ")";

  const auto s = xf::to_host(xf::array<T, 2, S>(xf::softmax(x, axis)));
  const auto ls = xf::to_host(xf::array<T, 2, S>(xf::log_softmax(x, axis)));
  const auto ln = xf::to_host(xf::array<T, 2, S>(xf::layer_norm(x, axis, 1e-5)));
  // Sums are compared relative to their terms (a fused multiply-add rounds once, two operations twice).
  std::vector<double> affine(v.size()), weighted(v.size()), minus(v.size()), expd(v.size());
  std::vector<double> affine_terms(v.size()), weighted_terms(v.size()), minus_terms(v.size());
  for (index_t i = 0; i < m; ++i)
    for (index_t j = 0; j < n; ++j) {
      const auto k = static_cast<std::size_t>(i * n + j);
      affine[k] = static_cast<double>(T(2) * s[k] + bv[at(i, j)]);
      affine_terms[k] = std::fabs(2.0 * s[k]) + std::fabs(static_cast<double>(bv[at(i, j)]));
      weighted[k] = static_cast<double>(wv[at(i, j)] * ln[k] + bv[at(i, j)]);
      weighted_terms[k] = std::fabs(static_cast<double>(wv[at(i, j)] * ln[k])) + std::fabs(static_cast<double>(bv[at(i, j)]));
      minus[k] = static_cast<double>(v[k] - s[k]);
      minus_terms[k] = std::fabs(static_cast<double>(v[k])) + std::fabs(static_cast<double>(s[k]));
      expd[k] = s[k];
    }
  require_near(xf::to_host(xf::eval(T(2) * xf::softmax(x, axis) + b)), affine, "eval(2 * softmax(x) + b)" + where, 2, affine_terms);
  xf::array<T, 2, S> out({m, n});
  out.assign(w * xf::layer_norm(x, axis, 1e-5) + b);
  require_near(xf::to_host(out), weighted, "out.assign(w * layer_norm(x) + b)" + where, 2, weighted_terms);
  require_near(xf::to_host(xf::eval(x - xf::softmax(x, axis))), minus, "eval(x - softmax(x))" + where, 2, minus_terms);
  // exp(log_softmax) is softmax up to the rounding of log_softmax (|log_softmax| ulps).
  const auto e = xf::to_host(xf::eval(xf::exp(xf::log_softmax(x, axis))));
  std::vector<double> e_want(v.size());
  for (std::size_t k = 0; k < v.size(); ++k) e_want[k] = std::exp(static_cast<double>(ls[k]));
  require_near(e, e_want, "eval(exp(log_softmax(x)))" + where, 4);
  // Into a wider type: the row function's result rounds to T first, as the fresh array holds it.
  const xf::array<double, 2, S> wide = xf::softmax(x, axis) * 1.0;
  require_near(xf::to_host(wide), expd, "array<double> = softmax(x) * 1.0" + where, 0);
  // Two different row functions in one expression: the general path.
  std::vector<double> both(v.size());
  for (std::size_t k = 0; k < v.size(); ++k) both[k] = static_cast<double>(s[k] + ls[k]);
  require_near(xf::to_host(xf::eval(xf::softmax(x, axis) + xf::log_softmax(x, axis))), both, "softmax(x) + log_softmax(x)" + where, 1);
}

// An eager call is computed by the end of its statement: later writes to its input do not change it.
template <class S, class T>
void statement_rule() {
  const auto v = uniform<T>(64 * 33, -3, 3);
  auto x = xf::asarray<T, S>(v, {64, 33});
  const auto want = as_double(xf::to_host(xf::array<T, 2, S>(xf::softmax(x, 1))));
  const auto want_sums = as_double(xf::to_host(xf::array<T, 2, S>(xf::cumsum(x, 0))));
  auto s = xf::softmax(x, 1);
  auto doubled = T(2) * xf::softmax(x, 1);
  auto c = xf::cumsum(x, 0);
  auto sorted = xf::sort(x, 0);
  x.assign(T(0));
  require_near(xf::to_host(s), want, "auto s = softmax(x, 1); x.assign(0); s", 0);
  // The sort too ran by the end of its statement: its columns are v's, sorted.
  const auto got_sorted = xf::to_host(sorted);
  for (index_t j = 0; j < 33; ++j) {
    std::vector<T> column(64);
    for (index_t i = 0; i < 64; ++i) column[static_cast<std::size_t>(i)] = v[static_cast<std::size_t>(i * 33 + j)];
    std::sort(column.begin(), column.end());
    for (index_t i = 0; i < 64; ++i)
      CHECK(got_sorted[static_cast<std::size_t>(i * 33 + j)] == column[static_cast<std::size_t>(i)]);
  }
  std::vector<double> want_doubled(want.size());
  for (std::size_t k = 0; k < want.size(); ++k) want_doubled[k] = static_cast<double>(T(2) * static_cast<T>(want[k]));
  require_near(xf::to_host(xf::eval(doubled)), want_doubled, "auto e = 2 * softmax(x, 1); x.assign(0); e", 0);
  require_near(xf::to_host(c), want_sums, "auto c = cumsum(x, 0); x.assign(0); c", 0);
  // Used as the array it describes.
  CHECK(s.shape() == xf::dims<2>{64, 33});
  CHECK(c.data() != nullptr);
  CHECK(static_cast<double>(xf::to_host(s(3, xf::all))[5]) == want[3 * 33 + 5]);
  // In xf::assign, as if the assignments ran in order: the row function reads x as doubled.
  auto y = xf::asarray<T, S>(v, {64, 33});
  xf::array<T, 2, S> p({64, 33});
  xf::assign(xf::into(y) = y * T(2), xf::into(p) = T(1) * xf::softmax(y, 1));
  const auto want_p = as_double(xf::to_host(xf::array<T, 2, S>(xf::softmax(xf::asarray<T, S>(v, {64, 33}) * T(2), 1))));
  require_near(xf::to_host(p), want_p, "xf::assign(into(y) = 2 * y, into(p) = 1 * softmax(y, 1))", 2);
  // Errors are thrown by the call, before anything runs, whether or not the result is used.
  CHECK_THROWS_AS((void)xf::softmax(x, 2), xf::shape_error);
  CHECK_THROWS_AS((void)xf::layer_norm(x, 1, 1e-5, xf::asarray<T, S>(std::vector<T>(5, T(1)), {5})), xf::shape_error);
  CHECK_THROWS_AS((void)xf::cumsum(x, -3), xf::shape_error);
  CHECK_THROWS_AS((void)xf::sort(x, 2), xf::shape_error);
}

// Scans written straight into destinations and into further expressions.
template <class S>
void scans(index_t n) {
  auto v = uniform<float>(static_cast<std::size_t>(n), -1, 1);
  if (n > 10) v[static_cast<std::size_t>(n / 3)] = std::numeric_limits<float>::infinity();
  const auto x = xf::asarray<float, S>(v, {n});
  const auto want = as_double(xf::to_host(xf::array<float, 1, S>(xf::cumsum(x))));
  // Running sums differ with the order of their additions (CUB's scan, the line walks): compared
  // relative to the running sum of |x|.
  std::vector<double> running(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) running[i] = (i ? running[i - 1] : 0.0) + std::fabs(static_cast<double>(v[i]));
  xf::array<float, 1, S> out({n});
  out.assign(xf::cumsum(x));
  require_near(xf::to_host(out), want, "out.assign(cumsum(x)) of " + std::to_string(n), 4, running);
  out.assign(0.0f);
  out.assign(xf::lazy::cumsum(x));
  require_near(xf::to_host(out), want, "out.assign(lazy::cumsum(x)) of " + std::to_string(n), 4, running);
  // A strided, reversed destination.
  xf::array<float, 1, S> twice({2 * n});
  twice.assign(-7.0f);
  twice(xf::slice(xf::_, xf::_, -2)).assign(xf::cumsum(x));
  const auto t = xf::to_host(twice);
  std::vector<double> got(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) {
    got[static_cast<std::size_t>(i)] = t[static_cast<std::size_t>(2 * n - 1 - 2 * i)];
    CHECK(t[static_cast<std::size_t>(2 * n - 2 - 2 * i)] == -7.0f);
  }
  require_near(std::vector<float>(got.begin(), got.end()), want, "x[::-2].assign(cumsum(x))", 4, running);
  // In place (the general path) and inside an expression.
  auto y = x.copy();
  y.assign(xf::cumsum(y));
  require_near(xf::to_host(y), want, "y.assign(cumsum(y))", 4, running);
  std::vector<double> centred(v.size()), centred_terms(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    centred[i] = static_cast<double>(v[i] - static_cast<float>(want[i]) / static_cast<float>(n));
    centred_terms[i] = std::fabs(static_cast<double>(v[i])) + running[i] / static_cast<double>(n);
  }
  require_near(xf::to_host(xf::eval(x - xf::cumsum(x) / static_cast<float>(n))), centred, "x - cumsum(x) / n", 4, centred_terms);
}

// Each row of v (m x n, C-ordered) sorted as NumPy's stable sort orders it: NaN last, -0.0 == +0.0
// in input order.
template <class T>
std::vector<T> stable_sorted_rows(std::vector<T> v, index_t m, index_t n) {
  for (index_t r = 0; r < m; ++r)
    std::stable_sort(v.begin() + r * n, v.begin() + (r + 1) * n,
                     [](T a, T b) { return !std::isnan(a) && (std::isnan(b) || a < b); });
  return v;
}

// Exactly equal, zeros with their signs, NaN to NaN.
template <class T>
void require_same(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  REQUIRE(got.size() == want.size());
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const bool ok = std::isnan(want[i]) ? std::isnan(got[i]) : got[i] == want[i] && std::signbit(got[i]) == std::signbit(want[i]);
    if (!ok && bad++ == 0) first = i;
  }
  INFO(what << ": " << bad << " of " << got.size() << " differ; first at " << first);
  CHECK(bad == 0);
}

// sort written into destinations of every kind (the sort writes a C-ordered destination of its
// type itself), in place, into a destination it partly reads, and inside expressions; rows of
// m x n with NaN of both signs, infinities and zeros of both signs.
template <class S, class T>
void sorts(index_t m, index_t n) {
  auto v = uniform<T>(static_cast<std::size_t>(m * n), -4, 4);
  const auto pick = uniform<int>(v.size(), 0, 9);
  const T special[6] = {std::numeric_limits<T>::quiet_NaN(), -std::numeric_limits<T>::quiet_NaN(),
                        std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(), T(0), -T(0)};
  for (std::size_t i = 0; i < v.size(); ++i)
    if (pick[i] < 6) v[i] = special[pick[i]];
  const auto want = stable_sorted_rows(v, m, n);
  const std::string shape = " of " + std::to_string(m) + "x" + std::to_string(n);
  const auto x = xf::asarray<T, S>(v, {m, n});
  xf::array<T, 2, S> out({m, n});
  out.assign(xf::sort(x));
  require_same(xf::to_host(out), want, "out.assign(sort(x))" + shape);
  const xf::array<T, 2, S> fresh = xf::sort(x);
  require_same(xf::to_host(fresh), want, "array = sort(x)" + shape);
  // A transposed destination, another element type, a reversed view.
  xf::array<T, 2, S> outT({n, m});
  outT.T().assign(xf::sort(x));
  require_same(xf::to_host(outT.T().copy()), want, "a transposed destination" + shape);
  xf::array<double, 2, S> wide({m, n});
  wide.assign(xf::sort(x));
  const auto w = xf::to_host(wide);
  require_same(std::vector<T>(w.begin(), w.end()), want, "a float64 destination" + shape);
  // In place, from an expression, along axis 0.
  auto y = x.copy();
  y.assign(xf::sort(y));
  require_same(xf::to_host(y), want, "y.assign(sort(y))" + shape);
  std::vector<T> negated(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) negated[i] = -v[i];
  out.assign(xf::sort(-x));
  require_same(xf::to_host(out), stable_sorted_rows(negated, m, n), "out.assign(sort(-x))" + shape);
  const auto columns = xf::to_host(xf::sort(x.T().copy(), 0).T().copy());
  require_same(columns, want, "sort(x.T(), 0)" + shape);
  // A producer as the input of library calls that take arrays: the rows' sort sorted again along
  // axis 0, and the median of each sorted row (NaN where the row has one, as NumPy's).
  std::vector<T> by_columns(v.size());
  for (index_t j = 0; j < n; ++j) {
    std::vector<T> column(static_cast<std::size_t>(m));
    for (index_t i = 0; i < m; ++i) column[static_cast<std::size_t>(i)] = want[static_cast<std::size_t>(i * n + j)];
    column = stable_sorted_rows(column, 1, m);
    for (index_t i = 0; i < m; ++i) by_columns[static_cast<std::size_t>(i * n + j)] = column[static_cast<std::size_t>(i)];
  }
  require_same(xf::to_host(xf::array<T, 2, S>(xf::sort(xf::sort(x), 0))), by_columns, "sort(sort(x), 0)" + shape);
  const auto medians = xf::to_host(xf::median(xf::sort(x), 1));
  for (index_t i = 0; i < m; ++i) {
    const T* row = want.data() + i * n;
    const double mid = (static_cast<double>(row[(n - 1) / 2]) + static_cast<double>(row[n / 2])) / 2;
    const double expect = std::isnan(row[n - 1]) ? std::numeric_limits<double>::quiet_NaN() : mid;
    const double got = static_cast<double>(medians[static_cast<std::size_t>(i)]);
    CHECK(((std::isnan(expect) && std::isnan(got)) || got == static_cast<double>(static_cast<T>(expect)) || std::fabs(got - expect) <= 1e-6 * std::fabs(expect)));
  }
  // A destination the sort reads in part: row r of z written with the sorted row r + 1 ...
  if (m > 1) {
    auto z = x.copy();
    z(xf::slice(0, m - 1)).assign(xf::sort(z(xf::slice(1, m))));
    const auto got = xf::to_host(z);
    require_same(std::vector<T>(got.begin(), got.begin() + (m - 1) * n), std::vector<T>(want.begin() + n, want.end()),
                 "z[:-1].assign(sort(z[1:]))" + shape);
  }
  // ... and inside an element-wise expression (the sort's result, then one fused pass).
  std::vector<T> chosen(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) chosen[i] = want[i] > T(1) ? v[i] : T(0);
  out.assign(xf::where(xf::sort(x) > T(1), x, T(0)));
  require_same(xf::to_host(out), chosen, "out.assign(where(sort(x) > 1, x, 0))" + shape);
}

}  // namespace xf_test::compose
