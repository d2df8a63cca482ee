// softmax, log_softmax and logsumexp on host arrays (host suite) and device arrays (GPU suite),
// against SciPy's formulas evaluated in long double on the values as the array holds them: fresh
// random rows of every length around the edges of the device's kernel (one warp, several warps,
// the longest row kept on chip, longer rows in two passes), any axis, views (transposed,
// reversed), expressions, half precision, rows with NaN, +inf and -inf, empty axes and no rows.
#pragma once

#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <xfuse/softmax.hpp>

#include "check.hpp"
#include "random.hpp"

namespace xf_test::softmax {

using xf::index_t;
using ld = long double;
enum class what { softmax, log_softmax, logsumexp };

// SciPy's answers and, for each, how far an answer computed in the compute type may be from it.
// `u` is the compute type's epsilon (float for half), `sum_ulps` how many of them the sum of the
// row's exponentials may lose. The error model: x - shift rounds within |x - shift| u / 2, which exp
// turns into a relative error; exp, log and the other operations add an ulp or two each.
struct row_answer {
  std::vector<ld> value, tol;
};
inline row_answer reference_row(const std::vector<ld>& x, what w, ld u, ld sum_ulps) {
  ld max = -std::numeric_limits<ld>::infinity();
  for (ld v : x) max = std::isnan(max) ? max : (std::isnan(v) || v > max ? v : max);
  const ld shift = w == what::softmax ? max : (std::isfinite(max) ? max : 0.0L);
  ld sum = 0;
  for (ld v : x) sum += std::exp(v - shift);
  const ld log_sum = std::log(sum), sum_err = sum_ulps * u;
  if (w == what::logsumexp) {
    const ld r = log_sum + shift;
    return {{r}, {sum_err + u * (std::fabs(log_sum) + std::fabs(shift) + std::fabs(r) + 2)}};
  }
  row_answer out;
  for (ld v : x) {
    const ld d = v - shift;
    if (w == what::softmax) {  // relative to the value itself
      const ld r = std::exp(d) / sum;
      out.value.push_back(r);
      out.tol.push_back(r == 0 ? 0.0L : r * (sum_err + u * (std::fabs(d) + 4)));
    } else {  // log(sum)'s error is absolute: the floor near zero
      const ld r = d - log_sum;
      out.value.push_back(r);
      out.tol.push_back(sum_err + u * (std::fabs(d) + std::fabs(log_sum) + std::fabs(r) + 2));
    }
  }
  return out;
}

// The answers for T and the distance allowed from each: the row's error above plus one rounding
// to T of each of the two (relative, and for results below T's normal range one subnormal step).
template <class T>
struct expected {
  std::vector<T> value;
  std::vector<double> tol;
};

// A sum of n positive terms in the compute type: a few ulps per halving when added pairwise (the
// device), about sqrt(n) when added in order (the host; rounding errors of random sign).
inline ld sum_ulps(index_t n) {
  const ld m = static_cast<ld>(n > 1 ? n : 1);
  return 4 * (1 + std::log2(m)) + 2 * std::sqrt(m);
}

// The spacing of T's subnormal numbers: where a rounding error stops being relative.
template <class T>
constexpr ld subnormal_step() {
  if constexpr (std::is_same_v<T, xf::half>) return 0x1p-24L;
  else if constexpr (std::is_same_v<T, xf::bfloat16>) return 0x1p-133L;
  else return std::numeric_limits<T>::denorm_min();
}

// The reference over `axis` of a C-ordered (rows_before, n, rows_after) block of values.
template <class T>
expected<T> reference(const std::vector<T>& values, index_t before, index_t n, index_t after, what w) {
  using C = std::conditional_t<std::is_same_v<T, double>, double, float>;  // the compute type
  const ld u = static_cast<ld>(xf_test::eps<C>()), out_u = static_cast<ld>(xf_test::eps<T>());
  const ld tiny = subnormal_step<T>();
  const index_t m = w == what::logsumexp ? 1 : n;
  expected<T> out{std::vector<T>(static_cast<std::size_t>(before * m * after)), std::vector<double>(static_cast<std::size_t>(before * m * after))};
  for (index_t b = 0; b < before; ++b)
    for (index_t a = 0; a < after; ++a) {
      std::vector<ld> row;
      for (index_t i = 0; i < n; ++i) row.push_back(static_cast<ld>(as_real(values[static_cast<std::size_t>((b * n + i) * after + a)])));
      const auto r = reference_row(row, w, u, sum_ulps(n));
      for (index_t i = 0; i < m; ++i) {
        const auto at = static_cast<std::size_t>((b * m + i) * after + a);
        const ld v = r.value[static_cast<std::size_t>(i)];
        out.value[at] = xf::detail::convert<T>(static_cast<double>(v));
        out.tol[at] = static_cast<double>(r.tol[static_cast<std::size_t>(i)] + out_u * std::fabs(v) + tiny);
      }
    }
  return out;
}

// Every value within its own tolerance; NaN and infinities exactly.
template <class T>
void require_close_to(const std::vector<T>& got, const expected<T>& want, const std::string& what_text) {
  REQUIRE(got.size() == want.value.size());
  std::size_t bad = 0;
  std::ostringstream first;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = as_real(got[i]), w = as_real(want.value[i]);
    const bool ok = std::isfinite(w) ? std::fabs(g - w) <= want.tol[i] : (std::isnan(w) ? std::isnan(g) : g == w);
    if (!ok && bad++ < 5) first << "  [" << i << "] got " << show(got[i]) << " want " << show(want.value[i]) << " within " << want.tol[i] << "\n";
  }
  INFO(what_text << ": " << bad << " of " << got.size() << " elements differ\n" << first.str());
  CHECK(bad == 0);
}

template <class S, class T, class F>
void check_rows(const std::vector<T>& values, index_t before, index_t n, index_t after, const F& make, const std::string& name) {
  const auto x = xf::asarray<T, S>(values, {before, n, after});
  const auto ex = x;
  for (const what w : {what::softmax, what::log_softmax, what::logsumexp}) {
    const std::string label = name + (w == what::softmax ? " softmax" : w == what::log_softmax ? " log_softmax" : " logsumexp") +
                              " of (" + std::to_string(before) + ", " + std::to_string(n) + ", " + std::to_string(after) + ")";
    const auto want = reference(values, before, n, after, w);
    std::vector<T> got;
    if (w == what::softmax) got = xf::to_host(xf::softmax(make(ex), 1));
    else if (w == what::log_softmax) got = xf::to_host(xf::log_softmax(make(ex), 1));
    else {
      const auto kept = xf::logsumexp(make(ex), 1, xf::keepdims);
      CHECK(kept.shape() == xf::dims<3>{before, 1, after});
      got = xf::to_host(kept);
      const auto squeezed = xf::logsumexp(make(ex), -2);
      CHECK(squeezed.shape() == xf::dims<2>{before, after});
      require_equal(xf::to_host(squeezed), got, label + " (axis removed)");
    }
    require_close_to(got, want, label);
  }
}

// Rows along the last axis of every length around the device kernels' edges: for float, 16 values
// a thread, one thread a row up to 16, 1024 threads up to 16384; rows of 2048 to 10240 staged in
// shared memory on sm_90 when their bytes are a multiple of 16 (4097, 10244 are not staged);
// two passes past 16384. For double, half the lengths.
template <class S, class T>
void row_lengths() {
  const std::vector<index_t> lengths =
      std::is_same_v<T, double>
          ? std::vector<index_t>{1, 2, 7, 8, 9, 511, 512, 513, 2048, 2049, 5120, 5122, 8192, 8193}
          : std::vector<index_t>{1, 2, 16, 17, 31, 33, 64, 65, 200, 1023, 1024, 1025, 2048, 4097, 8192, 10240, 10244, 16384, 16385, 32769};
  for (const index_t n : lengths) {
    const index_t rows = n > 4096 ? 3 : 37;
    const auto v = uniform<T>(static_cast<std::size_t>(rows * n), -30, 30);
    check_rows<S>(v, rows, n, 1, [](const auto& a) { return a; }, "plain rows");
  }
}

// Other axes, views and expressions: the same answers whatever the layout.
template <class S, class T>
void layouts() {
  const auto v = uniform<T>(5 * 300 * 7, -20, 20);
  check_rows<S>(v, 5, 300, 7, [](const auto& a) { return a; }, "middle axis");
  check_rows<S>(v, 1, 5, 2100, [](const auto& a) { return a; }, "first axis (strided rows)");
  // Strided rows of every length around the device's edges: one warp of neighbouring rows, a block
  // of them up to 512 floats (256 doubles), two passes past that; 40 rows (a partial group of lanes).
  // And long rows of expressions of one and two leaves (staged in shared memory on sm_90).
  const auto long_rows = uniform<T>(3 * 4096, -20, 20);
  std::vector<T> doubled(long_rows.size()), scaled_long(long_rows.size());
  for (std::size_t i = 0; i < long_rows.size(); ++i) {
    doubled[i] = xf::detail::convert<T>(2.0 * static_cast<double>(as_real(long_rows[i])));
    scaled_long[i] = xf::detail::convert<T>(2.0 * static_cast<double>(as_real(long_rows[i])) - 1.0);
  }
  const auto lx = xf::asarray<T, S>(long_rows, {3, 4096});
  require_close_to(xf::to_host(xf::softmax(lx * 2 - 1, 1)), reference(scaled_long, 3, 4096, 1, what::softmax), "softmax(x * 2 - 1) of rows of 4096");
  require_close_to(xf::to_host(xf::log_softmax(lx + lx, 1)), reference(doubled, 3, 4096, 1, what::log_softmax), "log_softmax(x + x) of rows of 4096");
  // A row that every row reads (read from memory beside the staged x, not staged): x - w, w of
  // shape (4096,).
  const auto row_w = uniform<T>(4096, -5, 5);
  std::vector<T> shifted(long_rows.size());
  for (std::size_t i = 0; i < long_rows.size(); ++i)
    shifted[i] = xf::detail::convert<T>(static_cast<double>(as_real(long_rows[i])) - static_cast<double>(as_real(row_w[i % 4096])));
  const auto lw = xf::asarray<T, S>(row_w, {4096});
  require_close_to(xf::to_host(xf::softmax(lx - lw, 1)), reference(shifted, 3, 4096, 1, what::softmax), "softmax(x - w) of rows of 4096, w one row");
  // Past 512 floats (256 doubles) on sm_90 a thread-block cluster holds them, each block at most
  // 32 KiB of them: clusters of 4 (513), 16 (3000; 4096, a block's share exactly 32 KiB); a share
  // is a multiple of 8 elements, so the last block holds fewer. One more (4097; 2049 doubles) and
  // longer take two passes.
  const std::vector<index_t> strided = std::is_same_v<T, double> ? std::vector<index_t>{8, 9, 256, 257, 1000, 2048, 2049}
                                                                 : std::vector<index_t>{16, 17, 512, 513, 3000, 4096, 4097, 8192};
  for (const index_t n : strided)
    check_rows<S>(uniform<T>(static_cast<std::size_t>(n * 40), -20, 20), 1, n, 40, [](const auto& a) { return a; },
                  "strided rows");
  // Long strided rows walked backwards (a reversed view along the axis).
  const index_t back_n = 3001;
  const auto back = uniform<T>(static_cast<std::size_t>(back_n * 40), -20, 20);
  std::vector<T> backwards(back.size());
  for (index_t i = 0; i < back_n; ++i)
    for (index_t c = 0; c < 40; ++c)
      backwards[static_cast<std::size_t>(i * 40 + c)] = back[static_cast<std::size_t>((back_n - 1 - i) * 40 + c)];
  const auto bx = xf::asarray<T, S>(back, {back_n, 40});
  require_close_to(xf::to_host(xf::softmax(bx(xf::slice(xf::_, xf::_, -1), xf::all), 0)), reference(backwards, 1, back_n, 40, what::softmax),
                   "softmax(a[::-1], 0) of 3001 x 40");
  const auto w = uniform<T>(64 * 257, -10, 10);
  check_rows<S>(w, 64, 257, 1, [](const auto& a) { return a; }, "odd rows");
  // An expression of the input, computed by the test on the host first.
  std::vector<T> scaled(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) scaled[i] = xf::detail::convert<T>(2.0 * static_cast<double>(as_real(w[i])) - 1.0);
  const auto x = xf::asarray<T, S>(w, {64, 257});
  require_close_to(xf::to_host(xf::softmax(x * 2 - 1, 1)), reference(scaled, 64, 257, 1, what::softmax), "softmax(x * 2 - 1)");
  // A transposed view: rows of the view are columns in memory.
  const auto t = xf::asarray<T, S>(w, {257, 64});
  std::vector<T> tv(w.size());
  for (index_t i = 0; i < 64; ++i)
    for (index_t j = 0; j < 257; ++j) tv[static_cast<std::size_t>(i * 257 + j)] = w[static_cast<std::size_t>(j * 64 + i)];
  require_close_to(xf::to_host(xf::log_softmax(t.T(), 1)), reference(tv, 64, 257, 1, what::log_softmax), "log_softmax(a.T(), 1)");
  // A reversed view along the row.
  std::vector<T> rv(w.size());
  for (index_t i = 0; i < 64; ++i)
    for (index_t j = 0; j < 257; ++j) rv[static_cast<std::size_t>(i * 257 + j)] = w[static_cast<std::size_t>(i * 257 + 256 - j)];
  require_close_to(xf::to_host(xf::softmax(x(xf::all, xf::slice(xf::_, xf::_, -1)), -1)), reference(rv, 64, 257, 1, what::softmax),
                   "softmax(a[:, ::-1])");
}

// Contiguous rows longer than a block holds, split over blocks on sm_90 (rows/split_row_kernel.cuh):
// pieces of at most 32 KiB, more pieces (down to 2048 elements) when the rows are too few to fill
// the GPU, a piece a multiple of 16 elements (the last one shorter: 68 elements of the row of
// 2^20 + 4), several rounds of the grid when the rows are many (600 rows of 16400 floats), NaN,
// inf, a row whose first pieces are all -inf,
// expressions of two leaves, an expression in the store, in place, every second row and the rows
// reversed. Elsewhere, two passes: the same answers.
template <class S, class T>
void split_rows() {
  using Shape = std::pair<index_t, index_t>;
  const std::vector<Shape> shapes = std::is_same_v<T, double>
                                        ? std::vector<Shape>{{3, 8194}, {1, 300000}, {700, 8200}}
                                        : std::vector<Shape>{{3, 16388}, {1, (1 << 20) + 4}, {5, 100000}, {2, 65540}, {600, 16400}};
  for (const auto& [rows, n] : shapes)
    check_rows<S>(uniform<T>(static_cast<std::size_t>(rows * n), -30, 30), rows, n, 1, [](const auto& a) { return a; }, "split rows");
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const index_t n = 40000, rows = 6;
  auto v = uniform<T>(static_cast<std::size_t>(rows * n), -5, 5);
  const auto at = [&](index_t row, index_t i) -> T& { return v[static_cast<std::size_t>(row * n + i)]; };
  at(0, 21111) = nan;
  at(1, n - 1) = inf;
  for (index_t i = 0; i < n; ++i) at(2, i) = -inf;
  at(3, 0) = at(3, 2112) = at(3, n - 1) = -inf;
  for (index_t i = 0; i < 20000; ++i) at(4, i) = -inf;  // whole pieces of -inf before finite ones
  check_rows<S>(v, rows, n, 1, [](const auto& a) { return a; }, "special split rows");
  // x - w (w one row, read from memory beside the staged x) and an expression in the store.
  const auto plain = uniform<T>(static_cast<std::size_t>(4 * n), -20, 20);
  const auto w_values = uniform<T>(static_cast<std::size_t>(n), -5, 5);
  std::vector<T> shifted(plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i)
    shifted[i] = xf::detail::convert<T>(static_cast<double>(as_real(plain[i])) - static_cast<double>(as_real(w_values[i % n])));
  const auto x = xf::asarray<T, S>(plain, {4, n});
  const auto w = xf::asarray<T, S>(w_values, {n});
  require_close_to(xf::to_host(xf::softmax(x - w, 1)), reference(shifted, 4, n, 1, what::softmax), "softmax(x - w) of split rows");
  const auto s = reference(plain, 4, n, 1, what::softmax);
  expected<T> affine = s;
  for (std::size_t i = 0; i < plain.size(); ++i) {
    affine.value[i] = xf::detail::convert<T>(2.0 * static_cast<double>(as_real(s.value[i])) + static_cast<double>(as_real(w_values[i % n])));
    affine.tol[i] = 2 * s.tol[i] + 4 * std::numeric_limits<T>::epsilon() * (2 * std::fabs(static_cast<double>(as_real(s.value[i]))) +
                                                                              std::fabs(static_cast<double>(as_real(w_values[i % n]))));
  }
  require_close_to(xf::to_host(xf::eval(T(2) * xf::softmax(x, 1) + w)), affine, "eval(2 * softmax(x) + w) of split rows");
  // Written over its input: each piece is read before any piece of its row is written.
  auto in_place = xf::asarray<T, S>(plain, {4, n});
  in_place.assign(xf::softmax(in_place, 1));
  require_close_to(xf::to_host(in_place), s, "x.assign(softmax(x)) of split rows");
  // Every second row, and the rows in reverse order.
  std::vector<T> second(static_cast<std::size_t>(2 * n)), reversed(plain.size());
  for (index_t r = 0; r < 4; ++r)
    for (index_t i = 0; i < n; ++i) {
      if (r % 2 == 0) second[static_cast<std::size_t>(r / 2 * n + i)] = plain[static_cast<std::size_t>(r * n + i)];
      reversed[static_cast<std::size_t>(r * n + i)] = plain[static_cast<std::size_t>((3 - r) * n + i)];
    }
  require_close_to(xf::to_host(xf::log_softmax(x(xf::slice(xf::_, xf::_, 2), xf::all), 1)), reference(second, 2, n, 1, what::log_softmax),
                   "log_softmax(x[::2]) of split rows");
  require_close_to(xf::to_host(xf::softmax(x(xf::slice(xf::_, xf::_, -1), xf::all), 1)), reference(reversed, 4, n, 1, what::softmax),
                   "softmax(x[::-1]) of split rows");
}

// NaN, +inf and -inf in rows; empty axes and no rows.
template <class S, class T>
void special_rows() {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  // Row 0 holds a NaN, row 1 a +inf, row 2 is all -inf, row 3 has some -inf, row 4 is plain; as
  // contiguous rows (on chip on the device) and as strided ones (two passes there).
  const index_t n = 40;
  const auto plain = uniform<T>(static_cast<std::size_t>(5 * n), -5, 5);
  auto special = [&](index_t row, index_t i) {
    const T x = plain[static_cast<std::size_t>(row * n + i)];
    if (row == 0 && i == 3) return nan;
    if (row == 1 && i == 7) return inf;
    if (row == 2 || (row == 3 && (i == 1 || i == 30))) return -inf;
    return x;
  };
  std::vector<T> rows(plain.size()), columns(plain.size());
  for (index_t row = 0; row < 5; ++row)
    for (index_t i = 0; i < n; ++i) {
      rows[static_cast<std::size_t>(row * n + i)] = special(row, i);
      columns[static_cast<std::size_t>(i * 5 + row)] = special(row, i);
    }
  check_rows<S>(rows, 5, n, 1, [](const auto& a) { return a; }, "special rows");
  check_rows<S>(columns, 1, n, 5, [](const auto& a) { return a; }, "special strided rows");
  // The same five kinds of rows, 1000 long, as 20 strided rows (a cluster's on sm_90).
  const index_t long_n = 1000, lanes = 20;
  const auto long_plain = uniform<T>(static_cast<std::size_t>(long_n * lanes), -5, 5);
  std::vector<T> long_columns(long_plain.size());
  for (index_t i = 0; i < long_n; ++i)
    for (index_t c = 0; c < lanes; ++c) {
      const index_t kind = c % 5;
      T x = long_plain[static_cast<std::size_t>(i * lanes + c)];
      if ((kind == 0 && i == 600) || (kind == 1 && i == 999)) x = kind == 0 ? nan : inf;
      if (kind == 2 || (kind == 3 && (i == 0 || i == 700))) x = -inf;
      long_columns[static_cast<std::size_t>(i * lanes + c)] = x;
    }
  check_rows<S>(long_columns, 1, long_n, lanes, [](const auto& a) { return a; }, "special long strided rows");
  // Empty axis: softmax and log_softmax have no maximum to shift by (SciPy raises), logsumexp is
  // -inf (log of an empty sum).
  const auto empty_axis = xf::asarray<T, S>(std::vector<T>{}, {3, 0});
  CHECK_THROWS_WITH(xf::softmax(empty_axis, 1), XF_CONTAINS("xf::softmax") && XF_CONTAINS("(3, 0)"));
  CHECK_THROWS_AS(xf::log_softmax(empty_axis, -1), xf::shape_error);
  CHECK(xf::to_host(xf::logsumexp(empty_axis, 1)) == std::vector<T>(3, -inf));
  const auto no_rows = xf::asarray<T, S>(std::vector<T>{}, {0, 5});
  CHECK(xf::log_softmax(no_rows, 1).shape() == xf::dims<2>{0, 5});
  CHECK(xf::logsumexp(no_rows, 1).shape() == xf::dims<1>{0});
  CHECK_THROWS_AS(xf::softmax(no_rows, 2), xf::shape_error);
}

// Half precision computes in float and rounds once per output.
template <class S>
void half_rows() {
  const auto v = uniform<float>(9 * 700, -8, 8);
  std::vector<xf::half> h(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) h[i] = xf::half(v[i]);
  check_rows<S>(h, 9, 700, 1, [](const auto& a) { return a; }, "half rows");
  const auto w = uniform<float>(3 * 4096, -8, 8);
  std::vector<xf::half> hw(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) hw[i] = xf::half(w[i]);
  check_rows<S>(hw, 3, 4096, 1, [](const auto& a) { return a; }, "half rows of 4096");
}

}  // namespace xf_test::softmax
