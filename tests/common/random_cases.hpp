// xf::random on host and device arrays: moments and Kolmogorov-Smirnov statistics against the
// distributions' closed forms, ranges, reproducibility (same seed and draw, same values),
// independence of successive draws, and, on the device, bit-identical values to the host's
// evaluation of the same draw however the kernel walks it. The generator's seed comes from the
// test seed, so each run draws fresh values (XFUSE_TEST_SEED repeats one).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <xfuse/permutation.hpp>
#include <xfuse/random.hpp>
#include <xfuse/xfuse.hpp>

#include "check.hpp"
#include "random.hpp"

namespace xf_test {

// Significand bits of T, the implicit one included.
template <class T>
constexpr int significand_bits() {
  if constexpr (std::is_same_v<T, xf::half>) return 11;
  else if constexpr (std::is_same_v<T, xf::bfloat16>) return 8;
  else if constexpr (std::is_same_v<T, float>) return 24;
  else return 53;
}

// The reals that round to nearest q in a format of `bits` significand bits: from half the spacing
// below q to half the spacing above (the spacing halves below a power of two).
inline std::pair<double, double> rounding_cell(double q, int bits) {
  if (q == 0 || !std::isfinite(q)) return {q, q};
  int e = 0;
  const double a = std::frexp(std::fabs(q), &e);  // |q| = a 2^e, a in [1/2, 1)
  const double above = std::ldexp(1.0, e - bits), below = a == 0.5 ? above / 2 : above;
  return q > 0 ? std::pair{q - below / 2, q + above / 2} : std::pair{q - above / 2, q + below / 2};
}

// Kolmogorov-Smirnov: sup |F_n - F| against the distribution of the draws rounded to T (each
// value q carries the probability of the reals that round to it, so 16-bit draws need no slack);
// 1.95 / sqrt(n) is the 0.1% critical value, and a conservative one for such steps.
template <class T, class Cdf>
double ks_statistic(std::vector<T> v, Cdf cdf) {
  std::vector<double> d(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) d[i] = xf::detail::convert<double>(v[i]);
  std::sort(d.begin(), d.end());
  const double n = static_cast<double>(d.size());
  double sup = 0;
  for (std::size_t i = 0, j = 0; i < d.size(); i = j) {
    while (j < d.size() && d[j] == d[i]) ++j;  // [i, j): the draws equal to d[i]
    const auto [lo, hi] = rounding_cell(d[i], significand_bits<T>());
    sup = std::max({sup, std::abs(cdf(lo) - static_cast<double>(i) / n), std::abs(static_cast<double>(j) / n - cdf(hi))});
  }
  return sup;
}

template <class T>
void mean_var(const std::vector<T>& v, double& mean, double& var) {
  long double s = 0, s2 = 0;
  for (const T& x : v) {
    const long double y = xf::detail::convert<double>(x);
    s += y;
    s2 += y * y;
  }
  const long double n = static_cast<long double>(v.size());
  mean = static_cast<double>(s / n);
  var = static_cast<double>(s2 / n - (s / n) * (s / n));
}

// Uniform on [low, high) and normal(mu, sigma) draws of T in `Space`: closed-form checks.
template <class Space, class T>
void random_distributions(std::size_t n) {
  xf::random::generator g(seed());
  const auto ni = static_cast<xf::index_t>(n);
  const std::string name = xf::dtype_name<T>;
  const double low = -3, high = 5, mu = 2, sigma = 0.5;
  const xf::array<T, 1, Space> u = xf::random::uniform<T>({ni}, g, low, high);
  const auto uh = xf::to_host(u);
  for (const T& x : uh) {
    const double y = xf::detail::convert<double>(x);
    REQUIRE(y >= low);
    REQUIRE(y <= high);  // 16-bit rounding may reach high; float and double stay below
  }
  double m, v;
  mean_var(uh, m, v);
  INFO(name << " uniform: mean " << m << ", variance " << v);
  const double width = high - low;
  REQUIRE(std::abs(m - (low + high) / 2) <= 5 * width / std::sqrt(12.0 * static_cast<double>(n)));
  // Rounding to 16 bits adds a variance of spacing^2 / 12 at most (bfloat16 near 5: 8e-5), far
  // below the sampling error.
  REQUIRE(std::abs(v - width * width / 12) <= 5 * width * width / std::sqrt(180.0 * static_cast<double>(n)));
  const double ks_u = ks_statistic(uh, [&](double x) { return std::clamp((x - low) / width, 0.0, 1.0); });
  INFO(name << " uniform KS " << ks_u);
  // Kolmogorov-Smirnov at a false-alarm rate of about 1e-6 (c = sqrt(ln(2 / 1e-6) / 2) = 2.69),
  // as the 5-sigma moment checks: every run draws fresh values, so 1.95 (0.1%) failed about one
  // run in forty over the several checks.
  const double ks_bound = 2.7 / std::sqrt(static_cast<double>(n));
  REQUIRE(ks_u <= ks_bound);

  const xf::array<T, 1, Space> z = xf::random::normal<T>({ni}, g, mu, sigma);
  const auto zh = xf::to_host(z);
  mean_var(zh, m, v);
  INFO(name << " normal: mean " << m << ", variance " << v);
  REQUIRE(std::abs(m - mu) <= 5 * sigma / std::sqrt(static_cast<double>(n)));
  // 5 sigma of the sample variance: 2.2% of sigma^2 at n = 1e5, so a sigma 2% off (the variance
  // 4% off) fails but for a chance of 3e-5, and 1e6 draws leave it no chance.
  REQUIRE(std::abs(v - sigma * sigma) <= 5 * sigma * sigma * std::sqrt(2.0 / static_cast<double>(n)));
  const double ks_z = ks_statistic(zh, [&](double x) { return 0.5 * std::erfc(-(x - mu) / (sigma * std::sqrt(2.0))); });
  INFO(name << " normal KS " << ks_z);
  REQUIRE(ks_z <= ks_bound);
  // Tails: Box-Muller's largest values for n draws reach about sqrt(2 ln n) sigmas.
  double biggest = 0;
  for (const T& x : zh) biggest = std::max(biggest, std::abs(xf::detail::convert<double>(x) - mu) / sigma);
  REQUIRE(biggest > 3.0);
  REQUIRE(biggest < 8.5);
}

// Integers on [low, high): every value in range, each value's count within 6 sigma of n / range.
template <class Space, class T>
void random_integers(std::size_t n, std::int64_t low, std::int64_t high) {
  xf::random::generator g(seed() ^ 0x5bd1e995u);
  const xf::array<T, 1, Space> k = xf::random::integers<T>({static_cast<xf::index_t>(n)}, g, low, high);
  const auto kh = xf::to_host(k);
  const auto range = static_cast<std::size_t>(high - low);
  std::vector<std::size_t> counts(range, 0);
  for (const T& x : kh) {
    const auto y = static_cast<std::int64_t>(x);
    REQUIRE(y >= low);
    REQUIRE(y < high);
    ++counts[static_cast<std::size_t>(y - low)];
  }
  const double expect = static_cast<double>(n) / static_cast<double>(range);
  for (std::size_t i = 0; i < range; ++i) {
    INFO(xf::dtype_name<T> << " integers: value " << low + static_cast<std::int64_t>(i) << " drawn " << counts[i] << " times, expected " << expect);
    REQUIRE(std::abs(static_cast<double>(counts[i]) - expect) <= 6 * std::sqrt(expect));
  }
}

// A draw is a value: the same node evaluates to the same values; a new generator with the same
// seed repeats the sequence of draws; successive draws differ; bad parameters are clear errors.
template <class Space>
void random_reproducible() {
  xf::random::generator g(seed());
  const auto first = xf::random::uniform<float>({1000}, g);
  const auto second = xf::random::uniform<float>({1000}, g);
  REQUIRE(g.draws() == 2);
  const xf::array<float, 1, Space> a = first, a_again = first, b = second;
  REQUIRE(xf::to_host(a) == xf::to_host(a_again));
  const auto ah = xf::to_host(a), bh = xf::to_host(b);
  std::size_t same = 0;
  for (std::size_t i = 0; i < ah.size(); ++i) same += ah[i] == bh[i];
  REQUIRE(same < 5);
  xf::random::generator again(seed());
  const xf::array<float, 1, Space> c = xf::random::uniform<float>({1000}, again);
  REQUIRE(xf::to_host(c) == ah);
  // Element p depends on p only: a longer draw starts with the shorter one's values.
  xf::random::generator longer(seed());
  const xf::array<float, 1, Space> d = xf::random::uniform<float>({1500}, longer);
  const auto dh = xf::to_host(d);
  REQUIRE(std::vector<float>(dh.begin(), dh.begin() + 1000) == ah);
  REQUIRE_THROWS_WITH(xf::random::uniform<float>({10}, g, 2.0, 1.0), XF_CONTAINS("xf::random::uniform"));
  REQUIRE_THROWS_WITH(xf::random::integers<std::uint8_t>({10}, g, 0, 300), XF_CONTAINS("uint8"));
  REQUIRE_THROWS_WITH(xf::random::integers<int>({10}, g, 5, 5), XF_CONTAINS("empty"));
  REQUIRE_THROWS_AS(xf::random::normal<double>({10}, g, 0.0, -1.0), xf::error);
}

// Exponential draws: the closed-form CDF (KS) and moments; on the device bit for bit the host's.
template <class Space, class T>
void random_exponential(std::size_t n, double scale) {
  xf::random::generator g(seed() ^ 0x27d4eb2fu);
  const auto draw = xf::random::exponential<T>({static_cast<xf::index_t>(n)}, g, scale);
  const xf::array<T, 1, Space> x = draw;
  const auto xh = xf::to_host(x);
  for (const T& v : xh) REQUIRE(xf::detail::convert<double>(v) >= 0);
  const double ks = ks_statistic(xh, [&](double v) { return v <= 0 ? 0.0 : 1.0 - std::exp(-v / scale); });
  INFO(xf::dtype_name<T> << " exponential KS " << ks);
  REQUIRE(ks <= 2.7 / std::sqrt(static_cast<double>(n)) + (std::is_same_v<T, double> ? 0 : 1e-6));
  double mean = 0, var = 0;
  mean_var(xh, mean, var);
  REQUIRE(std::abs(mean - scale) <= 5 * scale / std::sqrt(static_cast<double>(n)));
  if constexpr (std::is_same_v<Space, xf::device>) {
    const xf::array<T, 1, xf::host> h = draw;
    REQUIRE(xf::to_host(h) == xh);
  }
  REQUIRE_THROWS_AS(xf::random::exponential<T>({3}, g, -1.0), xf::error);
}

// Pearson's chi-square of integer draws against a probability mass function: a bin for each count
// in [lo, hi] expected at least 20 times, the tails pooled; true when below a bound whose false
// alarm rate is under 1e-6 (d + 7 sqrt(2 d) + 10 for d degrees of freedom).
template <class Pmf>
bool chi_square_fits(const std::vector<std::int64_t>& xh, Pmf pmf, std::int64_t start, std::int64_t last) {
  const double nd = static_cast<double>(xh.size());
  std::int64_t lo = start, hi = start;
  while (lo > 0 && pmf(lo - 1) * nd >= 20) --lo;
  while (hi < last && pmf(hi + 1) * nd >= 20) ++hi;
  std::vector<double> observed(static_cast<std::size_t>(hi - lo + 3), 0), expected(observed.size(), 0);
  for (const auto k : xh) observed[static_cast<std::size_t>(k < lo ? 0 : k > hi ? hi - lo + 2 : k - lo + 1)] += 1;
  double inside = 0, below = 0;
  for (std::int64_t k = lo; k <= hi; ++k) inside += expected[static_cast<std::size_t>(k - lo + 1)] = pmf(k);
  for (std::int64_t k = 0; k < lo; ++k) below += pmf(k);
  expected[0] = below;
  expected.back() = std::max(0.0, 1 - inside - below);
  double chi2 = 0;
  int cells = 0;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    const double e = expected[i] * nd;
    if (e < 1) continue;  // an empty tail
    chi2 += (observed[i] - e) * (observed[i] - e) / e;
    ++cells;
  }
  const double d = cells - 1;
  INFO("chi-square " << chi2 << " over " << cells << " cells");
  return chi2 <= d + 7 * std::sqrt(2 * d) + 10;
}

// Sample mean and variance within 6 sigma of the distribution's (kurtosis-aware for the variance).
template <class T>
void require_moments(const std::vector<T>& xh, double mean_want, double var_want, double fourth_central) {
  double mean = 0, var = 0;
  mean_var(xh, mean, var);
  const double nd = static_cast<double>(xh.size());
  INFO("mean " << mean << " (want " << mean_want << "), variance " << var << " (want " << var_want << ")");
  REQUIRE(std::abs(mean - mean_want) <= 6 * std::sqrt(var_want / nd) + 1e-12 * std::abs(mean_want));
  REQUIRE(std::abs(var - var_want) <= 6 * std::sqrt(std::max(fourth_central - var_want * var_want, 0.0) / nd) + 1e-9 * var_want);
}

// A draw evaluated in Space; on the device also on the host, bit for bit the same.
template <class Space, class Draw>
auto drawn_values(const Draw& draw) {
  using T = xf::value_t<Draw>;
  const xf::array<T, 1, Space> x = draw;
  const auto xh = xf::to_host(x);
  if constexpr (std::is_same_v<Space, xf::device>) {
    const xf::array<T, 1, xf::host> h = draw;
    REQUIRE(xf::to_host(h) == xh);
  }
  return xh;
}

// Poisson draws, for means on both sides of the switch between NumPy's two algorithms: moments and
// chi-square against the pmf.
template <class Space>
void random_poisson(std::size_t n) {
  xf::random::generator g(seed() ^ 0x9e3779b9u);
  for (const double lam : {0.0, 0.5, 3.0, 9.99, 10.0, 42.5, 1e4, 1e9}) {
    INFO("poisson lam " << lam);
    const auto xh = drawn_values<Space>(xf::random::poisson({static_cast<xf::index_t>(n)}, g, lam));
    require_moments(xh, lam, lam, lam * (1 + 3 * lam));
    if (lam == 0 || lam > 1e5) continue;
    const auto pmf = [&](std::int64_t k) {
      return std::exp(static_cast<double>(k) * std::log(lam) - lam - std::lgamma(static_cast<double>(k) + 1));
    };
    REQUIRE(chi_square_fits(xh, pmf, static_cast<std::int64_t>(lam), std::numeric_limits<std::int64_t>::max() / 2));
  }
  REQUIRE_THROWS_AS(xf::random::poisson({3}, g, -1.0), xf::error);
  REQUIRE_THROWS_AS(xf::random::poisson({3}, g, std::nan("")), xf::error);
  REQUIRE_THROWS_AS(xf::random::poisson({3}, g, 1e14), xf::error);
  REQUIRE_THROWS_AS(xf::random::poisson<std::int8_t>({3}, g, 100.0), xf::error);
}

// Binomial draws on both sides of the switch from inversion to beta splitting, and p past 1/2:
// moments and chi-square against the pmf; the edges n = 0, p = 0, p = 1.
template <class Space>
void random_binomial(std::size_t n) {
  xf::random::generator g(seed() ^ 0x85ebca6bu);
  const std::pair<std::int64_t, double> cases[] = {{10, 0.3}, {100, 0.95}, {61, 0.5}, {1000, 0.5}, {12345, 0.01}, {1000000000, 0.25}};
  for (const auto& one : cases) {
    const std::int64_t trials = one.first;  // plain locals: clang before 16 cannot capture bindings
    const double p = one.second;
    INFO("binomial n " << trials << " p " << p);
    const auto xh = drawn_values<Space>(xf::random::binomial({static_cast<xf::index_t>(n)}, g, trials, p));
    const double nd = static_cast<double>(trials), q = 1 - p;
    for (const auto k : xh) REQUIRE((k >= 0 && k <= trials));
    require_moments(xh, nd * p, nd * p * q, nd * p * q * (1 + 3 * (nd - 2) * p * q));
    if (trials > 100000) continue;
    const auto pmf = [&](std::int64_t k) {
      const double kd = static_cast<double>(k);
      return std::exp(std::lgamma(nd + 1) - std::lgamma(kd + 1) - std::lgamma(nd - kd + 1) + kd * std::log(p) + (nd - kd) * std::log(q));
    };
    REQUIRE(chi_square_fits(xh, pmf, static_cast<std::int64_t>(nd * p), trials));
  }
  CHECK(xf::to_host(xf::array<std::int64_t, 1, Space>(xf::random::binomial({5}, g, 0, 0.5))) == std::vector<std::int64_t>(5, 0));
  CHECK(xf::to_host(xf::array<std::int64_t, 1, Space>(xf::random::binomial({5}, g, 7, 0.0))) == std::vector<std::int64_t>(5, 0));
  CHECK(xf::to_host(xf::array<std::int64_t, 1, Space>(xf::random::binomial({5}, g, 7, 1.0))) == std::vector<std::int64_t>(5, 7));
  REQUIRE_THROWS_AS(xf::random::binomial({3}, g, -1, 0.5), xf::error);
  REQUIRE_THROWS_AS(xf::random::binomial({3}, g, 5, 1.5), xf::error);
  REQUIRE_THROWS_AS(xf::random::binomial({3}, g, std::int64_t{1} << 62, 0.5), xf::error);
  REQUIRE_THROWS_AS(xf::random::binomial<std::int8_t>({3}, g, 1000, 0.5), xf::error);
}

// Gamma and beta draws: moments for shapes below and above 1, and the closed-form CDFs (KS) of
// gamma(1) (exponential), gamma(2), beta(1, 1) (uniform), beta(2, 1) (x^2) and beta(1/2, 1/2)
// (arcsine).
template <class Space>
void random_gamma_beta(std::size_t n) {
  xf::random::generator g(seed() ^ 0xc2b2ae35u);
  const double ks_bound = 2.7 / std::sqrt(static_cast<double>(n));
  for (const double k : {0.0, 0.3, 1.0, 2.0, 2.5, 100.0}) {
    INFO("gamma shape " << k << " scale 2");
    const auto xh = drawn_values<Space>(xf::random::gamma({static_cast<xf::index_t>(n)}, g, k, 2.0));
    for (const double v : xh) REQUIRE(v >= 0);
    require_moments(xh, 2 * k, 4 * k, 16 * (3 * k * (k + 2)));
    if (k == 1) REQUIRE(ks_statistic(xh, [](double v) { return 1 - std::exp(-v / 2); }) <= ks_bound);
    if (k == 2) REQUIRE(ks_statistic(xh, [](double v) { return 1 - std::exp(-v / 2) * (1 + v / 2); }) <= ks_bound);
  }
  const auto pi = std::acos(-1.0);
  for (const auto& ab : {std::pair{0.5, 0.5}, {0.1, 0.2}, {1.0, 1.0}, {2.0, 1.0}, {2.0, 5.0}, {50.0, 30.0}}) {
    const double a = ab.first, b = ab.second;
    INFO("beta a " << a << " b " << b);
    const auto xh = drawn_values<Space>(xf::random::beta<float>({static_cast<xf::index_t>(n)}, g, a, b));
    for (const float v : xh) REQUIRE((v >= 0 && v <= 1));
    const double m = a / (a + b), v = a * b / ((a + b) * (a + b) * (a + b + 1));
    const double excess = 6 * ((a - b) * (a - b) * (a + b + 1) - a * b * (a + b + 2)) / (a * b * (a + b + 2) * (a + b + 3));
    const double m4 = (3 + excess) * v * v;  // the fourth central moment from the excess kurtosis
    require_moments(xh, m, v, m4);
    if (a == 1 && b == 1) REQUIRE(ks_statistic(xh, [](double x) { return x; }) <= ks_bound + 1e-6);
    if (a == 2 && b == 1) REQUIRE(ks_statistic(xh, [](double x) { return x * x; }) <= ks_bound + 1e-6);
    if (a == 0.5) REQUIRE(ks_statistic(xh, [&](double x) { return 2 / pi * std::asin(std::sqrt(x)); }) <= ks_bound + 1e-6);
  }
  REQUIRE_THROWS_AS(xf::random::gamma({3}, g, -1.0), xf::error);
  REQUIRE_THROWS_AS(xf::random::beta({3}, g, 0.0, 1.0), xf::error);
  REQUIRE_THROWS_AS(xf::random::beta({3}, g, 1e-305, 1.0), xf::error);
}

// Permutations are permutations, uniform in where an element lands; shuffle and choice draw from
// the array's own values; choice with p follows p.
template <class Space>
void random_orderings() {
  xf::random::generator g(seed() ^ 0x165667b1u);
  const auto p = xf::to_host(xf::random::permutation<Space>(1000, g));
  std::vector<std::int64_t> sorted(p);
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::int64_t> all(1000);
  for (std::size_t i = 0; i < 1000; ++i) all[i] = static_cast<std::int64_t>(i);
  REQUIRE(sorted == all);
  REQUIRE(p != all);
  // Where element 0 lands over 4000 permutations of 8: 500 each, within 6 sigma.
  std::vector<int> lands(8, 0);
  for (int t = 0; t < 4000; ++t) {
    const auto q = xf::to_host(xf::random::permutation<Space>(8, g));
    ++lands[static_cast<std::size_t>(std::find(q.begin(), q.end(), 0) - q.begin())];
  }
  for (int c : lands) REQUIRE(std::abs(c - 500) <= 6 * std::sqrt(500.0 * 7 / 8));
  // Rows of a matrix, permuted and shuffled in place: the same rows, reordered.
  std::vector<float> v(60);
  for (std::size_t i = 0; i < 60; ++i) v[i] = static_cast<float>(i);
  const auto m = xf::asarray<float, Space>(v, {20, 3});
  const auto rows = xf::to_host(xf::random::permutation(m, g));
  xf::random::shuffle(m, g);
  for (const auto& got : {rows, xf::to_host(m)}) {
    std::vector<float> firsts;
    for (std::size_t r = 0; r < 20; ++r) {
      REQUIRE(got[3 * r + 1] == got[3 * r] + 1);
      REQUIRE(got[3 * r + 2] == got[3 * r] + 2);
      firsts.push_back(got[3 * r]);
    }
    std::sort(firsts.begin(), firsts.end());
    for (std::size_t r = 0; r < 20; ++r) REQUIRE(firsts[r] == static_cast<float>(3 * r));
  }
  // choice: with replacement values of a; without, distinct; with p, the frequencies of p.
  const auto a = xf::asarray<int, Space>({10, 20, 30, 40, 50});
  for (const int x : xf::to_host(xf::random::choice(a, 100, g))) REQUIRE((x % 10 == 0 && x >= 10 && x <= 50));
  auto distinct = xf::to_host(xf::random::choice(a, 5, g, false));
  std::sort(distinct.begin(), distinct.end());
  REQUIRE(distinct == std::vector<int>{10, 20, 30, 40, 50});
  REQUIRE_THROWS_AS(xf::random::choice(a, 6, g, false), xf::error);
  const auto probabilities = xf::asarray<double, Space>({0.1, 0.0, 0.6, 0.3, 0.0});
  const auto picks = xf::to_host(xf::random::choice(a, 20000, g, probabilities));
  const double want[5] = {0.1, 0.0, 0.6, 0.3, 0.0};
  for (int k = 0; k < 5; ++k) {
    const double count = static_cast<double>(std::count(picks.begin(), picks.end(), 10 * (k + 1)));
    const double expect = 20000 * want[k];
    INFO("value " << 10 * (k + 1) << " picked " << count << " times, expected " << expect);
    REQUIRE(std::abs(count - expect) <= 6 * std::sqrt(expect * (1 - want[k])) + (want[k] == 0 ? 0 : 1));
  }
  REQUIRE_THROWS_AS(xf::random::choice(a, 3, g, xf::asarray<double, Space>({0.5, 0.5, 0.5, 0, 0})), xf::error);
  REQUIRE_THROWS_AS(xf::random::choice(a, 3, g, xf::asarray<double, Space>({1.5, -0.5, 0, 0, 0})), xf::error);
}

}  // namespace xf_test
