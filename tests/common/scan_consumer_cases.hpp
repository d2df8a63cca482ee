// Described scans as operands (xf::lazy::cumsum inside an element-wise expression), shared by the
// host suite (the general path: the scan, then the expression) and the GPU suite (the scan's
// kernel storing the expression's value), against running sums in long double (ref_scan), on every
// scan kernel's shapes: one line, a block per row, 32 lines a block, and too few lines (the
// general path).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "scan_sort_cases.hpp"

namespace xf_test {

// got[i] within 1e-5 of the long-double want[i] relative to the sum of |terms| up to i (or both
// NaN, or equal infinities).
inline void check_running(const std::vector<float>& got, const std::vector<long double>& want,
                          const std::vector<long double>& scale, const std::string& what) {
  REQUIRE(got.size() == want.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const long double g = got[i], w = want[i];
    const bool same = (std::isnan(g) && std::isnan(w)) || (std::isinf(w) && g == w) || std::fabs(g - w) <= 1e-5L * (scale[i] + 1);
    bad += !same;
  }
  INFO(what << ": " << bad << " of " << got.size() << " differ");
  CHECK(bad == 0);
}

// x - cumsum(x) / n over a 1-D x of n floats (one line: CUB's scan with the consumer in its store).
template <class Space>
void consumer_of_flat_scan(xf::index_t n) {
  auto v = uniform<float>(static_cast<std::size_t>(n), -2, 2);
  if (n > 100) v[static_cast<std::size_t>(n / 2)] = std::numeric_limits<float>::quiet_NaN();  // the rest of the line is NaN
  const auto x = xf::asarray<float, Space>(v, {n});
  const xf::array<float, 1, Space> y = x - xf::lazy::cumsum(x) / static_cast<float>(n);
  const auto sums = ref_scan(v, {n, 1, 1}, {}, sum_abs_of<long double>{},
                             [](sum_abs_of<long double> a, float e) { return sum_abs_of<long double>{a.sum + e, a.abs + std::fabs(e)}; });
  std::vector<long double> want(v.size()), scale(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    want[i] = v[i] - sums[i].sum / n;
    scale[i] = sums[i].abs / n;
  }
  check_running(xf::to_host(y), want, scale, "x - cumsum(x) / n of " + std::to_string(n));
}

// 2 * x * w - cumsum(x * w + 1, axis) of an (m, n) float x and a broadcast row w, along `axis`.
template <class Space>
void consumer_of_axis_scan(xf::index_t m, xf::index_t n, int axis) {
  const auto v = uniform<float>(static_cast<std::size_t>(m * n), -2, 2), r = uniform<float>(static_cast<std::size_t>(n), 0.5, 1.5);
  const auto x = xf::asarray<float, Space>(v, {m, n});
  const auto w = xf::asarray<float, Space>(r, {n});
  xf::array<float, 2, Space> y({m, n});
  y = 2 * x * w - xf::lazy::cumsum(x * w + 1, axis);
  std::vector<float> terms(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) terms[i] = v[i] * r[i % static_cast<std::size_t>(n)] + 1;
  const auto sums = ref_scan(terms, {m, n, 1}, {axis}, sum_abs_of<long double>{},
                             [](sum_abs_of<long double> a, float e) { return sum_abs_of<long double>{a.sum + e, a.abs + std::fabs(e)}; });
  std::vector<long double> want(v.size()), scale(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    want[i] = 2.0L * v[i] * r[i % static_cast<std::size_t>(n)] - sums[i].sum;
    scale[i] = sums[i].abs + 4;
  }
  check_running(xf::to_host(y), want, scale,
                "2xw - cumsum(xw + 1, " + std::to_string(axis) + ") of (" + std::to_string(m) + ", " + std::to_string(n) + ")");
}

// Types, reuse and the general path's cases, whichever path runs them.
template <class Space>
void scan_consumer_kinds() {
  // int8 running sums in int64 (NumPy's type), consumed as int64; running products of doubles.
  const std::vector<std::int8_t> b = {100, 100, -7, 120, 3};
  const auto xb = xf::asarray<std::int8_t, Space>(b);
  const xf::array<std::int64_t, 1, Space> sb = xf::lazy::cumsum(xb) * 2 - xb;
  CHECK(xf::to_host(sb) == std::vector<std::int64_t>{100, 300, 393, 506, 629});
  const auto d = xf::asarray<double, Space>({1.5, -2.0, 0.25, 4.0, 3.0, 0.5}, {2, 3});
  const xf::array<double, 2, Space> pd = xf::lazy::cumprod(d, 0) + 1;
  CHECK(xf::to_host(pd) == std::vector<double>{2.5, -1.0, 1.25, 7.0, -5.0, 1.125});
  // One description used twice in an expression; it is not kept after that, and a later use
  // computes it again, equal to the eager cumsum.
  const auto v = uniform<float>(5000, -1, 1);
  const auto x = xf::asarray<float, Space>(v, {5000});
  const auto c = xf::lazy::cumsum(x);
  const xf::array<float, 1, Space> sq = c * c;
  const auto eager = xf::to_host(xf::cumsum(x));
  const auto got = xf::to_host(sq);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) bad += !(std::fabs(got[i] - eager[i] * eager[i]) <= 1e-3f * (1 + eager[i] * eager[i]));
  CHECK(bad == 0);
  const xf::array<float, 1, Space> again = c;
  const auto again_host = xf::to_host(again);
  bad = 0;
  for (std::size_t i = 0; i < eager.size(); ++i) bad += !(std::fabs(again_host[i] - eager[i]) <= 1e-3f * (1 + std::fabs(eager[i])));
  CHECK(bad == 0);
  // In place: y = y - cumsum(y) reads each element where it writes it.
  xf::array<float, 1, Space> inplace = xf::asarray<float, Space>({1, 2, 3, 4});
  inplace = inplace - xf::lazy::cumsum(inplace);
  CHECK(xf::to_host(inplace) == std::vector<float>{0, -1, -3, -6});
  // Shifted: the right side reads what the left writes, elsewhere: evaluated first, as NumPy does.
  xf::array<float, 1, Space> shifted = xf::asarray<float, Space>({1, 2, 3, 4, 5});
  shifted(xf::slice(1, 5)) = xf::lazy::cumsum(shifted(xf::slice(0, 4)));
  CHECK(xf::to_host(shifted) == std::vector<float>{1, 1, 3, 6, 10});
  // A flattened scan of a matrix, consumed in 1-D; a scan with a reduction; two scans.
  const auto m = xf::asarray<float, Space>({1, 2, 3, 4, 5, 6}, {2, 3});
  const xf::array<float, 1, Space> flat = xf::lazy::cumsum(m) - 1;
  CHECK(xf::to_host(flat) == std::vector<float>{0, 2, 5, 9, 14, 20});
  const xf::array<float, 2, Space> shares = xf::lazy::cumsum(m, 1) / xf::lazy::sum(m, 1, xf::keepdims);
  CHECK(xf::to_host(shares) == std::vector<float>{1 / 6.0f, 3 / 6.0f, 1, 4 / 15.0f, 9 / 15.0f, 1});
  const xf::array<float, 2, Space> both = xf::lazy::cumsum(m, 0) - xf::lazy::cumprod(m, 1);
  CHECK(xf::to_host(both) == std::vector<float>{0, 0, -3, 1, -13, -111});
  // Empty; a bad axis names the operation and the shape.
  const xf::array<float, 2, Space> e({0, 4});
  const xf::array<float, 2, Space> none = e + xf::lazy::cumsum(e, 1);
  CHECK(none.shape() == xf::dims<2>{0, 4});
  CHECK_THROWS_WITH(xf::lazy::cumsum(m, 2), XF_CONTAINS("xf::lazy::cumsum") && XF_CONTAINS("(2, 3)"));
}

}  // namespace xf_test
