// Distributed arrays on Legate: every result equals the single-array xfuse result on the same
// values (bit for bit for element-wise statements and random draws; within a stated tolerance for
// floating-point reductions and products, whose order of additions differs).
#include "../common/catch.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include <xfuse/legate.hpp>

#include "../common/random.hpp"

namespace {

using xf::slice;
using xf::_;

// Whether Legate runs the GPU variants here (LEGATE_CONFIG --gpus N, N > 0).
bool on_gpus() { return legate::get_machine().count(legate::mapping::TaskTarget::GPU) > 0; }

// Whether this process has a CUDA device at all (the CPU configuration also runs where none is).
bool cuda_device_here() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

template <class T, std::size_t N>
xf::array<T, static_cast<int>(N), xf::host> host_random(const std::array<xf::index_t, N>& shape, double lo, double hi) {
  const auto values = xf_test::uniform<T>(static_cast<std::size_t>(xf::detail::product(shape)), lo, hi);
  xf::array<T, static_cast<int>(N), xf::host> a = xf::empty<T, xf::host>(shape);
  std::copy(values.begin(), values.end(), a.data());
  return a;
}

template <class T, int R>
void require_bitwise_equal(const xf::array<T, R, xf::host>& got, const xf::array<T, R, xf::host>& want) {
  REQUIRE(got.shape() == want.shape());
  const auto g = got.copy();
  const auto w = want.copy();
  std::size_t mismatches = 0;
  xf::index_t first = -1;
  for (xf::index_t i = 0; i < g.size(); ++i)
    if (std::memcmp(g.data() + i, w.data() + i, sizeof(T)) != 0 && !(std::isnan(double(g.data()[i])) && std::isnan(double(w.data()[i])))) {
      if (mismatches++ == 0) first = i;
    }
  INFO("shape " << xf::to_string(g.shape()) << ", first mismatch at flat index " << first << ": "
                << (first >= 0 ? double(g.data()[first]) : 0.0) << " instead of " << (first >= 0 ? double(w.data()[first]) : 0.0));
  CHECK(mismatches == 0);
}

// The single-array xfuse result of f on the same values, evaluated where Legate runs the variants
// (device arrays for GPU variants, host arrays for CPU variants), copied to the host.
template <class F, class... A>
auto single(F f, const A&... host_operands) {
  if (on_gpus()) {
    using E = decltype(f(xf::asarray(host_operands)...));
    xf::array<typename E::value_type, E::rank, xf::device> r = f(xf::asarray(host_operands)...);
    return xf::get(r);
  } else {
    using E = decltype(f(host_operands...));
    xf::array<typename E::value_type, E::rank, xf::host> r = f(host_operands...);
    return r;
  }
}

template <class T, int R>
void require_close(const xf::array<T, R, xf::host>& got, const xf::array<T, R, xf::host>& want, double rel) {
  REQUIRE(got.shape() == want.shape());
  const auto g = got.copy();
  const auto w = want.copy();
  std::size_t bad = 0;
  for (xf::index_t i = 0; i < g.size(); ++i) {
    const double a = double(g.data()[i]), b = double(w.data()[i]);
    if (!(std::abs(a - b) <= rel * std::max(1.0, std::abs(b))) && !(std::isnan(a) && std::isnan(b))) ++bad;
  }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("dist: import, export, fill, arange", "[dist]") {
  const auto h = host_random<float>(std::array<xf::index_t, 2>{517, 333}, -4, 4);
  auto x = xf::dist::from_local(h);
  REQUIRE(x.shape() == h.shape());
  require_bitwise_equal(x.to_local<xf::host>(), h);
  if (cuda_device_here()) require_bitwise_equal(xf::get(x.to_local<xf::device>()), h);  // export to the device

  auto z = xf::dist::full<double>({1000, 3}, 2.5);
  auto zl = z.to_local<xf::host>();
  for (xf::index_t i = 0; i < zl.size(); ++i) REQUIRE(zl.data()[i] == 2.5);

  auto r = xf::dist::arange<std::int64_t>(100003);
  const auto rl = r.to_local<xf::host>();
  for (xf::index_t i = 0; i < rl.size(); ++i) REQUIRE(rl.data()[i] == i);

  auto e = xf::dist::zeros<float>({0, 5});  // empty arrays work through every path
  e.assign(e * 2.0f + 1.0f);
  CHECK(e.to_local<xf::host>().size() == 0);
}

TEST_CASE("dist: fused statements equal single-array xfuse, bit for bit", "[dist]") {
  const std::array<xf::index_t, 2> shape{1031, 257};
  auto hx = host_random<float>(shape, -3, 3);
  auto hy = host_random<float>(shape, -3, 3);
  hx.data()[5] = NAN;
  hy.data()[9] = INFINITY;
  auto x = xf::dist::from_local(hx);
  auto y = xf::dist::from_local(hy);

  // example-begin dist_statements
  auto z = xf::dist::eval((x - y) * (x - y));  // a new distributed array: one task, one fused kernel a piece
  const xf::array<float, 2, xf::host> first = z.to_local<xf::host>();  // export: one local copy
  z.assign(xf::dist::where(x > y, x * 0.5f, -y) + 1.0f);              // into z's pieces: one more task
  const float total = xf::dist::sum((x - y) * (x - y)).item();        // one task: a fused reduction a piece
  // example-end
  require_bitwise_equal(first, single([](auto a, auto b) { return (a - b) * (a - b); }, hx, hy));
  CHECK(std::isnan(total));  // x holds a NaN: the sum is NaN in every piece's fold, as NumPy's is
  auto statement = [](auto a, auto b) { return xf::where(a > b, a * 0.5f, -b) + 1.0f; };
  require_bitwise_equal(z.to_local<xf::host>(), single(statement, hx, hy));

  z += x;  // in place: reads and writes the same pieces
  const auto before = single(statement, hx, hy);
  require_bitwise_equal(z.to_local<xf::host>(), single([](auto a, auto b) { return a + b; }, before, hx));

  // Any element-wise function through dist::fuse; promotion to double as in xfuse.
  const auto hd = host_random<double>(shape, 0, 2);
  auto d = xf::dist::from_local(hd);
  auto mix = xf::dist::fuse([](auto a, auto b, auto c) { return xf::maximum(a, b) * c - xf::minimum(a, b); });
  auto w = xf::dist::eval(mix(x, y, d));
  static_assert(std::is_same_v<decltype(w), xf::dist::array<double, 2>>);
  require_bitwise_equal(w.to_local<xf::host>(),
                        single([](auto a, auto b, auto c) { return xf::maximum(a, b) * c - xf::minimum(a, b); }, hx, hy, hd));
}

TEST_CASE("dist: broadcasting and views", "[dist]") {
  auto hm = host_random<float>(std::array<xf::index_t, 2>{700, 129}, -1, 1);
  auto hr = host_random<float>(std::array<xf::index_t, 1>{129}, -1, 1);
  auto hc = host_random<float>(std::array<xf::index_t, 2>{700, 1}, -1, 1);
  auto m = xf::dist::from_local(hm);
  auto r = xf::dist::from_local(hr);
  auto c = xf::dist::from_local(hc);
  require_bitwise_equal(xf::dist::eval(m * r - c).to_local<xf::host>(), single([](auto a, auto b, auto d) { return a * b - d; }, hm, hr, hc));

  // Slices (a view of the store, no copy) and a transpose.
  auto inner = m(slice(3, -2), slice(1, 100));
  auto hinner = hm(slice(3, -2), slice(1, 100));
  require_bitwise_equal(xf::dist::eval(inner * 2.0f).to_local<xf::host>(), single([](auto a) { return a * 2.0f; }, hinner));
  auto sq = xf::dist::from_local(host_random<double>(std::array<xf::index_t, 2>{301, 301}, -1, 1));
  const auto hsq = sq.to_local<xf::host>();
  require_bitwise_equal(xf::dist::eval(sq + sq.T()).to_local<xf::host>(), single([](auto a) { return a + a.T(); }, hsq));

  // Writing into a view.
  auto target = xf::dist::zeros<float>({700, 129});
  target(slice(10, 20), xf::all).assign(r);
  xf::array<float, 2, xf::host> want = xf::zeros<float>({700, 129});
  want(slice(10, 20), xf::all).assign(hr);
  require_bitwise_equal(target.to_local<xf::host>(), want);

  // An overlapping shifted assignment reads every value before writing, as NumPy does.
  auto shifted = xf::dist::from_local(hr);
  shifted(slice(1, _)).assign(shifted(slice(0, -1)));
  auto hs = hr.copy();
  hs(slice(1, _)).assign(hs(slice(0, -1)));
  require_bitwise_equal(shifted.to_local<xf::host>(), hs);
}

TEST_CASE("dist: a 5-point stencil step is one statement over shifted views", "[dist]") {
  const xf::index_t n = 515, m = 263;
  auto hu = host_random<float>(std::array<xf::index_t, 2>{n, m}, 0, 1);
  auto u = xf::dist::from_local(hu);
  auto next = xf::dist::zeros<float>({n, m});
  xf::array<float, 2, xf::host> hnext = xf::zeros<float>({n, m});
  for (int step = 0; step < 3; ++step) {
    // example-begin dist_stencil
    next(slice(1, -1), slice(1, -1))
        .assign(0.25f * (u(slice(0, -2), slice(1, -1)) + u(slice(2, _), slice(1, -1)) + u(slice(1, -1), slice(0, -2)) +
                         u(slice(1, -1), slice(2, _))));
    // example-end
    hnext(slice(1, -1), slice(1, -1))
        .assign(0.25f * (hu(slice(0, -2), slice(1, -1)) + hu(slice(2, _), slice(1, -1)) + hu(slice(1, -1), slice(0, -2)) +
                         hu(slice(1, -1), slice(2, _))));
    std::swap(u, next);
    std::swap(hu, hnext);
  }
  require_bitwise_equal(u.to_local<xf::host>(), hu);
}

TEST_CASE("dist: random draws equal the single-array draws bit for bit", "[dist]") {
  const std::uint64_t seed = xf_test::seed();
  xf::random::generator g(seed), g_single(seed);
  auto a = xf::dist::eval(xf::dist::generated(xf::random::normal<float>({613, 211}, g)));
  auto b = xf::dist::eval(xf::dist::generated(xf::random::uniform<double>({613, 211}, g, -2.0, 3.0)));
  // The single-array draws where Legate runs the variants (the device's math library on GPUs).
  const auto want_a = on_gpus() ? xf::get(xf::array<float, 2>(xf::random::normal<float>({613, 211}, g_single)))
                                : xf::array<float, 2, xf::host>(xf::random::normal<float>({613, 211}, g_single));
  const auto want_b = on_gpus() ? xf::get(xf::array<double, 2>(xf::random::uniform<double>({613, 211}, g_single, -2.0, 3.0)))
                                : xf::array<double, 2, xf::host>(xf::random::uniform<double>({613, 211}, g_single, -2.0, 3.0));
  require_bitwise_equal(a.to_local<xf::host>(), want_a);
  require_bitwise_equal(b.to_local<xf::host>(), want_b);
  CHECK(g.draws() == g_single.draws());

  // A draw fused into a statement: x + 0.1 * noise in one task.
  auto hx = host_random<float>(std::array<xf::index_t, 2>{613, 211}, -1, 1);
  auto x = xf::dist::from_local(hx);
  auto noisy = xf::dist::eval(x + 0.1f * xf::dist::generated(xf::random::normal<float>({613, 211}, g)));
  xf::array<float, 2, xf::host> want_noise = xf::random::normal<float>({613, 211}, g_single);
  require_bitwise_equal(noisy.to_local<xf::host>(), single([](auto a, auto n) { return a + 0.1f * n; }, hx, want_noise));
}

TEST_CASE("dist: reductions with the expression fused into each piece", "[dist]") {
  const std::array<xf::index_t, 2> shape{2049, 131};
  auto hx = host_random<float>(shape, -2, 2);
  auto hy = host_random<float>(shape, -2, 2);
  auto x = xf::dist::from_local(hx);
  auto y = xf::dist::from_local(hy);
  long double ref = 0;
  for (xf::index_t i = 0; i < hx.size(); ++i) {
    const long double d = static_cast<long double>(hx.data()[i]) - hy.data()[i];
    ref += d * d;
  }
  const float s = xf::dist::sum((x - y) * (x - y)).item();
  CHECK(std::abs(s - static_cast<double>(ref)) <= 1e-5 * static_cast<double>(ref));

  // Along an axis, with and without keepdims; max, min and prod.
  require_close(xf::dist::sum(x * y, 0).to_local<xf::host>(), xf::array<float, 1, xf::host>(xf::sum(hx * hy, 0)), 1e-4);
  auto rows = xf::dist::sum(x, 1, xf::keepdims);
  static_assert(std::is_same_v<decltype(rows), xf::dist::array<float, 2>>);
  require_close(rows.to_local<xf::host>(), xf::array<float, 2, xf::host>(xf::sum(hx, 1, xf::keepdims)), 1e-4);
  require_bitwise_equal(xf::dist::max(x - y, 0).to_local<xf::host>(), xf::array<float, 1, xf::host>(xf::max(hx - hy, 0)));
  require_bitwise_equal(xf::dist::min(x, 1).to_local<xf::host>(), xf::array<float, 1, xf::host>(xf::min(hx, 1)));
  CHECK(xf::dist::max(x).item() == xf::max(hx).item());
  CHECK(xf::dist::min(y).item() == xf::min(hy).item());
  auto small = xf::dist::from_local(host_random<double>(std::array<xf::index_t, 1>{1000}, 0.99, 1.01));
  const auto hsmall = small.to_local<xf::host>();
  long double p = 1;
  for (xf::index_t i = 0; i < hsmall.size(); ++i) p *= hsmall.data()[i];
  CHECK(std::abs(xf::dist::prod(small).item() - static_cast<double>(p)) <= 1e-12 * std::abs(static_cast<double>(p)));
  // More one-element results than a store of identity slots holds (256): each keeps its own value.
  auto ones = xf::dist::from_local(host_random<double>(std::array<xf::index_t, 1>{1000}, 1, 1.0000001));
  const double base = xf::dist::sum(ones).item();
  std::vector<xf::dist::scalar<double>> scaled;
  for (int i = 0; i < 300; ++i) scaled.push_back(xf::dist::sum(ones * double(i)));
  std::size_t off = 0;
  for (int i = 0; i < 300; ++i) off += !(std::abs(scaled[static_cast<std::size_t>(i)].item() - i * base) <= 1e-12 * std::max(1.0, i * base));
  CHECK(off == 0);
  // Integers: exact, and int32 sums in int64 as NumPy's do.
  auto ints = xf::dist::arange<std::int32_t>(100001);
  static_assert(std::is_same_v<decltype(xf::dist::sum(ints).item()), std::int64_t>);
  CHECK(xf::dist::sum(ints).item() == std::int64_t{100000} * 100001 / 2);
}

TEST_CASE("dist: softmax and log_softmax along an axis, each piece holding whole lines", "[dist]") {
  // Against a long-double reference of SciPy's formulas on the host, along both axes of a matrix
  // split into many pieces, with a NaN row (NaN throughout) and a line of -inf and finite values.
  const std::array<xf::index_t, 2> shape{517, 300};
  auto hx = host_random<float>(shape, -30, 30);
  auto hy = host_random<float>(shape, -1, 1);
  hx.data()[7 * shape[1] + 11] = std::nanf("");
  for (xf::index_t j = 0; j < shape[1]; j += 2) hx.data()[9 * shape[1] + j] = -INFINITY;
  auto x = xf::dist::from_local(hx);
  auto y = xf::dist::from_local(hy);
  for (int axis : {1, 0, -1}) {
    const int a = axis < 0 ? axis + 2 : axis;
    const auto soft = xf::dist::softmax(x - 0.5f * y, axis).to_local<xf::host>();
    const auto log_soft = xf::dist::log_softmax(x - 0.5f * y, axis).to_local<xf::host>();
    static_assert(std::is_same_v<decltype(xf::dist::softmax(x - 0.5f * y, axis)), xf::dist::array<float, 2>>);
    REQUIRE(soft.shape() == shape);
    std::size_t bad = 0, bad_log = 0;
    const xf::index_t lines = shape[1 - a], length = shape[a];
    for (xf::index_t l = 0; l < lines; ++l) {
      auto at = [&](const auto& arr, xf::index_t k) { return a == 1 ? arr(l, k).item() : arr(k, l).item(); };
      long double m = -INFINITY, total = 0;
      bool nan = false;
      std::vector<long double> v(static_cast<std::size_t>(length));
      for (xf::index_t k = 0; k < length; ++k) {
        v[k] = static_cast<long double>(at(hx, k) - 0.5f * at(hy, k));
        nan = nan || std::isnan(v[k]);
        m = std::max(m, v[k]);
      }
      for (xf::index_t k = 0; k < length; ++k) total += std::exp(v[k] - m);
      for (xf::index_t k = 0; k < length; ++k) {
        const double want = nan ? NAN : static_cast<double>(std::exp(v[k] - m) / total);
        const double want_log = nan ? NAN : static_cast<double>((v[k] - m) - std::log(total));
        const double got = at(soft, k), got_log = at(log_soft, k);
        if (!(std::abs(got - want) <= 1e-5 * std::max(want, 1e-30) + 1e-37 || (std::isnan(got) && std::isnan(want)))) ++bad;
        if (!(std::abs(got_log - want_log) <= 1e-5 * std::max(1.0, std::abs(want_log)) || got_log == want_log ||
              (std::isnan(got_log) && std::isnan(want_log))))
          ++bad_log;
      }
    }
    INFO("axis " << axis);
    CHECK(bad == 0);
    CHECK(bad_log == 0);
  }
  // Bad input throws at the caller.
  CHECK_THROWS_AS(xf::dist::softmax(x, 2), xf::shape_error);
  CHECK_THROWS_AS(xf::dist::log_softmax(x, -3), xf::shape_error);
  CHECK(xf::dist::softmax(xf::dist::empty<double>({0, 5}), 1).shape() == std::array<xf::index_t, 2>{0, 5});
}

TEST_CASE("dist: matrix products, the right operand replicated or split into column panels, k split", "[dist]") {
  auto ha = host_random<double>(std::array<xf::index_t, 2>{1003, 67}, -1, 1);
  auto hb = host_random<double>(std::array<xf::index_t, 2>{67, 45}, -1, 1);
  auto hv = host_random<double>(std::array<xf::index_t, 1>{67}, -1, 1);
  auto a = xf::dist::from_local(ha);
  auto b = xf::dist::from_local(hb);
  auto v = xf::dist::from_local(hv);
  auto c = xf::dist::matmul(a, b).to_local<xf::host>();
  auto av = xf::dist::matmul(a, v).to_local<xf::host>();
  std::size_t bad = 0;
  for (xf::index_t i = 0; i < 1003; ++i) {
    long double vi = 0;
    for (xf::index_t k = 0; k < 67; ++k) vi += static_cast<long double>(ha(i, k).item()) * hv(k).item();
    if (std::abs(av(i).item() - static_cast<double>(vi)) > 1e-12 * 67) ++bad;
    for (xf::index_t j = 0; j < 45; ++j) {
      long double cij = 0;
      for (xf::index_t k = 0; k < 67; ++k) cij += static_cast<long double>(ha(i, k).item()) * hb(k, j).item();
      if (std::abs(c(i, j).item() - static_cast<double>(cij)) > 1e-12 * 67) ++bad;
    }
  }
  CHECK(bad == 0);
  CHECK_THROWS_AS(xf::dist::matmul(a, a), xf::shape_error);

  // k split: a long k and a small result (A^T A of a tall matrix split by rows, A^T v): the tasks
  // of each tile add their partial products through Legate's sum reduction.
  CHECK(xf::dist::detail::matmul_grid::choose(7, 7, 5000, 12, false).pk > 1);
  CHECK(xf::dist::detail::matmul_grid::choose(7, 7, 5000, 3, false).pk > 1);
  CHECK(xf::dist::detail::matmul_grid::choose(1003, 45, 67, 12, false).pk == 1);
  auto htall = host_random<double>(std::array<xf::index_t, 2>{5000, 7}, -1, 1);
  auto hlong = host_random<double>(std::array<xf::index_t, 1>{5000}, -1, 1);
  auto tall = xf::dist::from_local(htall);
  const auto gram = xf::dist::matmul(tall.transpose({1, 0}), tall).to_local<xf::host>();
  const auto atv = xf::dist::matmul(tall.transpose({1, 0}), xf::dist::from_local(hlong)).to_local<xf::host>();
  bad = 0;
  for (xf::index_t i = 0; i < 7; ++i) {
    long double vi = 0;
    for (xf::index_t r = 0; r < 5000; ++r) vi += static_cast<long double>(htall(r, i).item()) * hlong(r).item();
    if (std::abs(atv(i).item() - static_cast<double>(vi)) > 1e-12 * 5000) ++bad;
    for (xf::index_t j = 0; j < 7; ++j) {
      long double gij = 0;
      for (xf::index_t r = 0; r < 5000; ++r) gij += static_cast<long double>(htall(r, i).item()) * htall(r, j).item();
      if (std::abs(gram(i, j).item() - static_cast<double>(gij)) > 1e-12 * 5000) ++bad;
    }
  }
  CHECK(bad == 0);
  // One row (m = 1): k split for a vector too, on any number of pieces.
  CHECK(xf::dist::detail::matmul_grid::choose(1, 1, 5000, 3, true).pk > 1);
  auto hrow = host_random<double>(std::array<xf::index_t, 2>{1, 5000}, -1, 1);
  const auto dot = xf::dist::matmul(xf::dist::from_local(hrow), xf::dist::from_local(hlong)).to_local<xf::host>();
  long double want_dot = 0;
  for (xf::index_t r = 0; r < 5000; ++r) want_dot += static_cast<long double>(hrow(0, r).item()) * hlong(r).item();
  CHECK(std::abs(dot(0).item() - static_cast<double>(want_dot)) <= 1e-12 * 5000);

  // Both operands split: b wide enough that the tasks read column panels of it (a grid of tiles).
  auto hs = host_random<double>(std::array<xf::index_t, 2>{203, 157}, -1, 1);
  auto hw = host_random<double>(std::array<xf::index_t, 2>{157, 611}, -1, 1);
  const auto sw = xf::dist::matmul(xf::dist::from_local(hs), xf::dist::from_local(hw)).to_local<xf::host>();
  REQUIRE(sw.shape() == (std::array<xf::index_t, 2>{203, 611}));
  bad = 0;
  for (xf::index_t i = 0; i < 203; ++i)
    for (xf::index_t j = 0; j < 611; ++j) {
      long double cij = 0;
      for (xf::index_t k = 0; k < 157; ++k) cij += static_cast<long double>(hs(i, k).item()) * hw(k, j).item();
      if (std::abs(sw(i, j).item() - static_cast<double>(cij)) > 1e-12 * 157) ++bad;
    }
  CHECK(bad == 0);
}

TEST_CASE("dist: empty and zero-size operands, views exported, stores shared by two arrays", "[dist]") {
  // Reductions of nothing: sums give their identity, max and min have none (NumPy raises).
  auto empty = xf::dist::zeros<float>({0, 5});
  CHECK(xf::dist::sum(empty).item() == 0.0f);
  CHECK(xf::dist::prod(empty).item() == 1.0f);
  CHECK_THROWS_AS(xf::dist::max(empty), xf::shape_error);
  CHECK_THROWS_AS(xf::dist::min(empty, 0), xf::shape_error);
  const auto columns = xf::dist::sum(empty, 0).to_local<xf::host>();  // five sums of nothing
  REQUIRE(columns.size() == 5);
  for (xf::index_t i = 0; i < 5; ++i) CHECK(columns.data()[i] == 0.0f);
  // The only axis of a 1-d array gives NumPy's 0-d result.
  auto ramp = xf::dist::arange<std::int64_t>(1001);
  CHECK(xf::dist::sum(ramp, 0).item() == 500500);
  // Products with an empty inner dimension are zeros; with an empty result, empty.
  auto zero = xf::dist::matmul(xf::dist::zeros<double>({7, 0}), xf::dist::zeros<double>({0, 3})).to_local<xf::host>();
  REQUIRE(zero.shape() == (std::array<xf::index_t, 2>{7, 3}));
  for (xf::index_t i = 0; i < zero.size(); ++i) CHECK(zero.data()[i] == 0.0);
  CHECK(xf::dist::matmul(xf::dist::zeros<double>({7, 4}), xf::dist::zeros<double>({4, 0})).size() == 0);

  // A view exported, and a product of views.
  auto h = host_random<double>(std::array<xf::index_t, 2>{301, 77}, -1, 1);
  auto m = xf::dist::from_local(h);
  require_bitwise_equal(m(slice(5, -7), slice(3, 50)).to_local<xf::host>(), xf::array<double, 2, xf::host>(h(slice(5, -7), slice(3, 50)).copy()));

  // Two arrays over one store: a[:-2] = b with b = a[2:] made from the store reads before writing.
  auto hv = host_random<float>(std::array<xf::index_t, 1>{50001}, -1, 1);
  auto a = xf::dist::from_local(hv);
  xf::dist::array<float, 1> b(a(slice(2, _)).store());
  a(slice(0, -2)).assign(b);
  auto want = hv.copy();
  want(slice(0, -2)).assign(hv(slice(2, _)).copy());
  require_bitwise_equal(a.to_local<xf::host>(), want);
}

TEST_CASE("dist: bad input throws at the caller and loses nothing", "[dist]") {
  auto h = host_random<std::int8_t>(std::array<xf::index_t, 1>{1000}, -100, 100);
  auto small = xf::dist::from_local(h);
  // A C++ integer that int8 cannot hold is refused as on xf::array, before any task runs.
  CHECK_THROWS_AS(small += 300, xf::error);
  CHECK_THROWS_AS(xf::dist::sum(small + 300), xf::error);
  require_bitwise_equal(small.to_local<xf::host>(), h);
  auto square = xf::dist::zeros<float>({4, 4});
  CHECK_THROWS_AS(square.transpose({0, 0}), xf::shape_error);
  using empty_handle = xf::dist::array<float, 2>;
  using vector_view = xf::dist::array<float, 1>;
  using double_view = xf::dist::array<double, 2>;
  CHECK_THROWS_AS(empty_handle().shape(), xf::error);
  CHECK_THROWS_AS(vector_view(square.store()), xf::shape_error);  // a rank-2 store
  CHECK_THROWS_AS(double_view(square.store()), xf::dtype_error);  // a float32 store
}

TEST_CASE("dist: .npy files, printing and errors", "[dist]") {
  auto h = host_random<float>(std::array<xf::index_t, 2>{37, 5}, -1, 1);
  auto x = xf::dist::from_local(h);
  const std::string path = "xfuse_dist_test_" + std::to_string(xf_test::seed()) + ".npy";
  xf::dist::save_npy(path, x);
  auto back = xf::dist::load_npy<float, 2>(path);
  std::remove(path.c_str());
  require_bitwise_equal(back.to_local<xf::host>(), h);
  CHECK(xf::dist::repr(x) == xf::repr(h));
  std::ostringstream os;
  os << x;
  std::ostringstream want;
  want << h;
  CHECK(os.str() == want.str());

  auto y = xf::dist::zeros<float>({37, 4});
  CHECK_THROWS_AS(y.assign(x * 2.0f), xf::shape_error);
  CHECK_THROWS_AS(x(slice(0, _, 2), _), xf::index_error);
  CHECK_THROWS_AS(xf::dist::sum(x, 2), xf::shape_error);
  // Nothing was lost: x still holds its values.
  require_bitwise_equal(x.to_local<xf::host>(), h);
  INFO("variants: " << (on_gpus() ? "GPU" : "CPU"));
  SUCCEED();
}

namespace {
// Whether X is an operation over operands (xf::dist::node_term), as std::true_type or std::false_type.
template <class Op, class... A>
std::true_type is_node(const xf::dist::node_term<Op, A...>*);
std::false_type is_node(const void*);
}  // namespace

TEST_CASE("dist: every element-wise function equals xfuse's of the same name, bit for bit", "[dist]") {
  const std::array<xf::index_t, 2> shape{403, 129};
  auto hx = host_random<float>(shape, 0.5, 3);
  auto hy = host_random<float>(shape, -2, 2);
  hy.data()[3] = NAN;
  hy.data()[11] = INFINITY;
  hy.data()[12] = -INFINITY;
  auto x = xf::dist::from_local(hx);
  auto y = xf::dist::from_local(hy);
  require_bitwise_equal(xf::dist::eval(xf::dist::exp(y) - xf::dist::log(x)).to_local<xf::host>(),
                        single([](auto a, auto b) { return xf::exp(b) - xf::log(a); }, hx, hy));
  require_bitwise_equal(xf::dist::eval(xf::dist::sqrt(x) + xf::dist::abs(y)).to_local<xf::host>(),
                        single([](auto a, auto b) { return xf::sqrt(a) + xf::abs(b); }, hx, hy));
  require_bitwise_equal(xf::dist::eval(xf::dist::sin(y) - xf::dist::cos(x) + xf::dist::tanh(y)).to_local<xf::host>(),
                        single([](auto a, auto b) { return xf::sin(b) - xf::cos(a) + xf::tanh(b); }, hx, hy));
  require_bitwise_equal(xf::dist::eval(xf::dist::square(y)).to_local<xf::host>(), single([](auto b) { return xf::square(b); }, hy));
  require_bitwise_equal(xf::dist::eval(xf::dist::maximum(x, y) - xf::dist::minimum(x, y)).to_local<xf::host>(),
                        single([](auto a, auto b) { return xf::maximum(a, b) - xf::minimum(a, b); }, hx, hy));
  require_bitwise_equal(xf::dist::eval(xf::dist::power(x, 1.5f)).to_local<xf::host>(), single([](auto a) { return xf::power(a, 1.5f); }, hx));
  // Division and the comparisons, as xfuse's operators.
  require_bitwise_equal(xf::dist::eval(xf::dist::where(x < y, x / y, y / x)).to_local<xf::host>(),
                        single([](auto a, auto b) { return xf::where(a < b, a / b, b / a); }, hx, hy));
  require_bitwise_equal(xf::dist::eval(x <= y).to_local<xf::host>(), single([](auto a, auto b) { return a <= b; }, hx, hy));
  require_bitwise_equal(xf::dist::eval(x >= y).to_local<xf::host>(), single([](auto a, auto b) { return a >= b; }, hx, hy));
  require_bitwise_equal(xf::dist::eval(x == xf::dist::maximum(x, y)).to_local<xf::host>(),
                        single([](auto a, auto b) { return a == xf::maximum(a, b); }, hx, hy));
  require_bitwise_equal(xf::dist::eval(y != y).to_local<xf::host>(), single([](auto b) { return b != b; }, hy));  // NaN only
  // isnan and isfinite: bool arrays; where replaces what they flag (np.where(np.isnan(y), 0, y)).
  const auto nan = xf::dist::eval(xf::dist::isnan(y)).to_local<xf::host>();
  const auto finite = xf::dist::eval(xf::dist::isfinite(y)).to_local<xf::host>();
  static_assert(std::is_same_v<xf::value_t<decltype(nan)>, bool>);
  CHECK((nan.data()[3] && !nan.data()[11] && !nan.data()[4]));
  CHECK((!finite.data()[3] && !finite.data()[11] && !finite.data()[12] && finite.data()[4]));
  require_bitwise_equal(nan, single([](auto b) { return xf::isnan(b); }, hy));
  require_bitwise_equal(finite, single([](auto b) { return xf::isfinite(b); }, hy));
  const auto cleaned = xf::dist::eval(xf::dist::where(xf::dist::isfinite(y), y, 0.0f)).to_local<xf::host>();
  CHECK((cleaned.data()[3] == 0.0f && cleaned.data()[11] == 0.0f && cleaned.data()[4] == hy.data()[4]));
}

TEST_CASE("dist: -= and /=, ones, rank, view names, typed scalars and str", "[dist]") {
  auto hx = host_random<float>(std::array<xf::index_t, 2>{301, 67}, 0.5, 4);
  auto x = xf::dist::from_local(hx);
  // (2x - x) / x is 1 exactly in every element.
  auto w = xf::dist::eval(x * 2.0f);
  w -= x;
  w /= x;
  const auto wl = w.to_local<xf::host>();
  std::size_t not_one = 0;
  for (xf::index_t i = 0; i < wl.size(); ++i) not_one += wl.data()[i] != 1.0f;
  CHECK(not_one == 0);
  const auto ones = xf::dist::ones<double>({5, 7}).to_local<xf::host>();
  REQUIRE(ones.shape() == (std::array<xf::index_t, 2>{5, 7}));
  for (xf::index_t i = 0; i < ones.size(); ++i) CHECK(ones.data()[i] == 1.0);
  static_assert(xf::dist::array<float, 2>::rank == 2 && decltype(xf::dist::ones<int>({3}))::rank == 1);
  // A view is named after its store's view and its bounds; two stores have two names.
  CHECK(x(slice(1, 3), xf::all).view() == x.view() + "[0:1:3]");
  CHECK(x(xf::all, slice(0, -7)).view() == x.view() + "[1:0:60]");
  CHECK(x.T().view() == x.view() + ".T(1,0,)");
  CHECK(xf::dist::from_local(hx).view() != x.view());
  // A reduction to one value: a one-element store.
  const xf::dist::scalar<float> top = xf::dist::max(x);
  CHECK(top.store().volume() == 1);
  CHECK(top.item() == xf::max(hx).item());
  CHECK(xf::dist::str(x) == xf::str(hx));
}

TEST_CASE("dist: the terms of distributed expressions and dist::fused_function", "[dist]") {
  auto hx = host_random<float>(std::array<xf::index_t, 1>{1001}, -1, 1);
  auto hy = host_random<float>(std::array<xf::index_t, 1>{1001}, -1, 1);
  auto x = xf::dist::from_local(hx);
  auto y = xf::dist::from_local(hy);
  const auto scaled = x * 2.5f;  // an operation over an array and a weak scalar
  static_assert(xf::dist::term<decltype(scaled)> && xf::dist::term<decltype(x)> && !xf::dist::term<float>);
  static_assert(decltype(is_node(&scaled))::value && !decltype(is_node(&x))::value);
  static_assert(std::is_same_v<std::tuple_element_t<0, decltype(scaled.operands)>, xf::dist::array<float, 1>>);
  const xf::dist::scalar_term<float> factor = std::get<1>(scaled.operands);
  CHECK(factor.value == 2.5f);
  // A generator at the statement's positions: arange gives each element its global index.
  const xf::dist::position_term ramp = xf::dist::generated(xf::arange<float>(1001));
  CHECK(ramp.shape == xf::dims<1>{1001});
  const auto shifted = xf::dist::eval(x + ramp).to_local<xf::host>();
  std::size_t bad = 0;
  for (xf::index_t i = 0; i < shifted.size(); ++i) bad += shifted.data()[i] != hx.data()[i] + static_cast<float>(i);
  CHECK(bad == 0);
  // A captureless callable over distributed operands, called as xf::fuse's result is.
  const xf::dist::fused_function larger = xf::dist::fuse([](auto a, auto b) { return xf::where(a > b, a, b); });
  require_bitwise_equal(xf::dist::eval(larger(x, y)).to_local<xf::host>(),
                        single([](auto a, auto b) { return xf::where(a > b, a, b); }, hx, hy));
}

// The statements of the sequence test on single arrays where Legate runs the variants (device
// arrays for GPU variants: the same contractions into fused multiply-adds), copied to the host.
template <class Space>
std::tuple<xf::array<float, 2, xf::host>, xf::array<float, 2, xf::host>, xf::array<float, 2, xf::host>> heat_step(
    const xf::array<float, 2, xf::host>& hu) {
  const auto in = slice(1, -1), up = slice(0, -2), down = slice(2, _);
  const xf::index_t n = hu.shape()[0], m = hu.shape()[1];
  const xf::array<float, 2, Space> u = [&] {
    if constexpr (std::is_same_v<Space, xf::device>) return xf::asarray(hu); else return hu.copy();
  }();
  auto next = u.copy();
  xf::array<float, 2, Space> lap = xf::empty<float, Space>({n - 2, m - 2}), change = xf::empty<float, Space>({n - 2, m - 2});
  lap.assign(u(up, in) + u(down, in) + u(in, up) + u(in, down) - 4.0f * u(in, in));
  next(in, in).assign(u(in, in) + 0.2f * lap);
  change.assign(next(in, in) - u(in, in));
  auto host = [](const xf::array<float, 2, Space>& a) {
    if constexpr (std::is_same_v<Space, xf::device>) return xf::get(a); else return a.copy();
  };
  return {host(lap), host(next), host(change)};
}

TEST_CASE("dist: a sequence of statements is one task with the statements' results", "[dist][sequence]") {
  // A heat step with its residuals (5 statements) inside xf::dist::sequence against the same
  // statements one by one on single arrays: bit for bit for the statements, within rounding for
  // the sums (pieces fold in another order).
  const xf::index_t n = 517, m = 263;
  auto hu = host_random<float>(std::array<xf::index_t, 2>{n, m}, 0, 1);
  hu.data()[m + 7] = NAN;  // an interior NaN travels through the stencil into the max as NumPy's does
  auto u = xf::dist::from_local(hu);
  auto next = xf::dist::from_local(hu);
  auto lap = xf::dist::empty<float>({n - 2, m - 2});
  auto change = xf::dist::empty<float>({n - 2, m - 2});
  const auto in = slice(1, -1), up = slice(0, -2), down = slice(2, _);
  const std::uint64_t before = xf::dist::detail::recorder().submitted;
  // example-begin dist_sequence
  auto [largest, energy] = xf::dist::sequence([&] {  // one Legate task: each piece runs five steps
    lap.assign(u(up, in) + u(down, in) + u(in, up) + u(in, down) - 4.0f * u(in, in));
    next(in, in).assign(u(in, in) + 0.2f * lap);
    change.assign(next(in, in) - u(in, in));
    return std::pair{xf::dist::max(xf::dist::abs(change)),  // reductions fold into the same task
                     xf::dist::sum(change * change)};
  });
  // example-end
  CHECK(xf::dist::detail::recorder().submitted == before + 1);

  auto [hlap, hnext, hchange] = on_gpus() ? heat_step<xf::device>(hu) : heat_step<xf::host>(hu);
  require_bitwise_equal(lap.to_local<xf::host>(), hlap);
  require_bitwise_equal(next.to_local<xf::host>(), hnext);
  require_bitwise_equal(change.to_local<xf::host>(), hchange);
  CHECK(std::isnan(energy.item()));  // (a NaN in max: Legate's fold across pieces decides, see the guide)

  // Without the NaN: the residuals' values.
  change.assign(xf::dist::where(xf::dist::isnan(change), 0.0f, change));
  hchange.assign(xf::where(xf::isnan(hchange), 0.0f, hchange));
  std::tie(largest, energy) = xf::dist::sequence([&] {
    return std::pair{xf::dist::max(xf::dist::abs(change)), xf::dist::sum(change * change)};
  });
  CHECK(largest.item() == xf::max(xf::abs(hchange)).item());
  long double e = 0;
  for (xf::index_t i = 0; i < hchange.size(); ++i) e += static_cast<long double>(hchange.data()[i]) * hchange.data()[i];
  CHECK(std::abs(energy.item() - static_cast<double>(e)) <= 1e-5 * static_cast<double>(e));
}

TEST_CASE("dist: a sequence ends its task where one task would give other results", "[dist][sequence]") {
  const xf::index_t n = 1031;
  auto hr = host_random<double>(std::array<xf::index_t, 1>{n}, -1, 1);
  auto& tasks = xf::dist::detail::recorder().submitted;
  auto a = xf::dist::from_local(hr);
  auto b = xf::dist::zeros<double>({n});
  auto c = xf::dist::zeros<double>({n - 1});
  auto ha = hr.copy();
  xf::array<double, 1, xf::host> hb = xf::zeros<double>({n}), hc = xf::zeros<double>({n - 1});

  // Reading a shifted view of what the task writes: b's neighbours come from other pieces, so a
  // new task starts; a statement of another shape starts one too.
  auto d = xf::dist::zeros<double>({n - 1});
  xf::array<double, 1, xf::host> hd = xf::zeros<double>({n - 1});
  std::uint64_t start = tasks;
  xf::dist::sequence([&] {
    c.assign(a(slice(1, _)) - a(slice(0, -1)));  // task 1: shifted reads of an array no step writes
    b(slice(0, -1)).assign(c * 2.0);             // task 1
    d.assign(b(slice(1, _)) + c);                // task 2: reads b shifted against task 1's write
    d.assign(d * c);                             // task 2
    b.assign(b + 1.0);                           // task 3: another shape
  });
  CHECK(tasks - start == 3);
  hc.assign(ha(slice(1, _)) - ha(slice(0, -1)));
  hb(slice(0, -1)).assign(hc * 2.0);
  hd.assign(hb(slice(1, _)) + hc);
  hd.assign(hd * hc);
  hb.assign(hb + 1.0);
  require_bitwise_equal(b.to_local<xf::host>(), hb);
  require_bitwise_equal(c.to_local<xf::host>(), hc);
  require_bitwise_equal(d.to_local<xf::host>(), hd);

  // A shifted assignment into the array it reads (NumPy reads every value first), a fill of an
  // array the open task writes, and a reduction's result read by a later statement: each keeps
  // NumPy's results.
  start = tasks;
  const auto total = xf::dist::sequence([&] {
    a(slice(1, _)).assign(a(slice(0, -1)) + 1.0);  // tasks 1 and 2: a new array, then a[1:] from it
    b.assign(a * 3.0);                              // task 3 (another shape)
    b.assign(0.5);                                  // a fill: submits task 3 first
    b.assign(b + a);                                // task 4
    const auto sum = xf::dist::sum(b);              // task 4
    b.assign(b - sum / static_cast<double>(n));     // task 5: reads the sum task 4 reduces into
    return sum;
  });
  CHECK(tasks - start == 5);
  ha(slice(1, _)).assign(xf::eval(ha(slice(0, -1)) + 1.0));
  hb.assign(0.5 + ha);
  const double htotal = xf::sum(hb).item();
  hb.assign(hb - htotal / static_cast<double>(n));
  require_bitwise_equal(a.to_local<xf::host>(), ha);
  require_close(b.to_local<xf::host>(), hb, 1e-12);
  CHECK(std::abs(total.item() - htotal) <= 1e-12 * std::max(1.0, std::abs(htotal)));

  // Sequences nest; a throw inside keeps the statements before it and loses no array.
  start = tasks;
  CHECK_THROWS_AS(xf::dist::sequence([&] {
                    b.assign(a + 1.0);
                    xf::dist::sequence([&] { c.assign(a(slice(1, _)) * 2.0); });
                    b.assign(c);  // (1030,) into (1031,): refused at the caller
                  }),
                  xf::shape_error);
  CHECK(tasks - start == 2);  // b = a + 1, then c (another shape)
  require_bitwise_equal(b.to_local<xf::host>(), xf::array<double, 1, xf::host>(ha + 1.0));
  require_bitwise_equal(c.to_local<xf::host>(), xf::array<double, 1, xf::host>(ha(slice(1, _)) * 2.0));
  b.assign(a);  // the runtime is usable after the throw
  require_bitwise_equal(b.to_local<xf::host>(), ha);
}

TEST_CASE("dist: a reduction's result is an operand of later statements, on the device", "[dist][sequence]") {
  auto hx = host_random<float>(std::array<xf::index_t, 2>{777, 95}, -2, 3);
  auto x = xf::dist::from_local(hx);
  // x - x.mean(): the sum stays a one-element store that every piece reads.
  const auto s = xf::dist::sum(x);
  auto centred = xf::dist::eval(x - s / 73815.0f);
  static_assert(std::is_same_v<decltype(centred), xf::dist::array<float, 2>>);
  const float hs = s.item();
  require_bitwise_equal(centred.to_local<xf::host>(), single([hs](auto a) { return a - hs / 73815.0f; }, hx));
  // A float64 reduction's result counts in the type, as NumPy's 0-d arrays do.
  auto hd = host_random<double>(std::array<xf::index_t, 1>{95}, 1, 2);
  auto d = xf::dist::from_local(hd);
  const auto dmax = xf::dist::max(d);
  auto scaled = xf::dist::eval(x / dmax);
  static_assert(std::is_same_v<decltype(scaled), xf::dist::array<double, 2>>);
  xf::array<double, 1, xf::host> hdmax = xf::empty<double, xf::host>({1});
  hdmax.data()[0] = dmax.item();
  CHECK(hdmax.data()[0] == xf::max(hd).item());
  require_bitwise_equal(scaled.to_local<xf::host>(), single([](auto a, auto m) { return a / m; }, hx, hdmax));
  // In a reduction of another rank.
  const double got = xf::dist::sum(x(slice(0, 5), xf::all) * dmax, 1)(slice(2, 3)).to_local<xf::host>().data()[0];
  CHECK(got == Approx(xf::sum(hx(2, xf::all) * hdmax).item()).epsilon(1e-12));
}

TEST_CASE("dist: reductions over several axes", "[dist]") {
  auto hv = host_random<float>(std::array<xf::index_t, 3>{67, 41, 29}, -1, 1);
  auto v = xf::dist::from_local(hv);
  auto s02 = xf::dist::sum(v, {0, 2});
  static_assert(std::is_same_v<decltype(s02), xf::dist::array<float, 1>>);
  require_close(s02.to_local<xf::host>(), xf::array<float, 1, xf::host>(xf::sum(hv, {0, 2})), 1e-4);
  auto k = xf::dist::max(v * 2.0f, {2, 1}, xf::keepdims);
  static_assert(std::is_same_v<decltype(k), xf::dist::array<float, 3>>);
  require_bitwise_equal(k.to_local<xf::host>(), xf::array<float, 3, xf::host>(xf::max(hv * 2.0f, {1, 2}, xf::keepdims)));
  const xf::dist::scalar<float> all = xf::dist::min(v, {0, 1, 2});
  CHECK(all.item() == xf::min(hv).item());
  CHECK_THROWS_AS(xf::dist::sum(v, {1, -2}), xf::shape_error);  // a repeated axis
  CHECK_THROWS_AS(xf::dist::sum(v, {0, 3}), xf::shape_error);
  CHECK_THROWS_AS(xf::dist::max(xf::dist::zeros<float>({0, 4, 2}), {0, 2}), xf::shape_error);  // empty, no identity
  require_bitwise_equal(xf::dist::sum(xf::dist::zeros<float>({0, 4, 2}), {0, 2}).to_local<xf::host>(),
                        xf::array<float, 1, xf::host>(xf::zeros<float>({4})));
}

TEST_CASE("dist: integer indices and newaxis", "[dist]") {
  auto hm = host_random<float>(std::array<xf::index_t, 3>{40, 30, 20}, -1, 1);
  auto m = xf::dist::from_local(hm);
  auto plane = m(3);  // a view without axis 0: NumPy's m[3]
  static_assert(std::is_same_v<decltype(plane), xf::dist::array<float, 2>>);
  require_bitwise_equal(plane.to_local<xf::host>(), xf::array<float, 2, xf::host>(hm(3)));
  require_bitwise_equal(m(-1, xf::all, 5).to_local<xf::host>(), xf::array<float, 1, xf::host>(hm(-1, xf::all, 5)));
  auto added = m(xf::newaxis, slice(2, 10), 4);  // m[None, 2:10, 4]: shape (1, 8, 20)
  static_assert(std::is_same_v<decltype(added), xf::dist::array<float, 3>>);
  REQUIRE(added.shape() == (std::array<xf::index_t, 3>{1, 8, 20}));
  require_bitwise_equal(added.to_local<xf::host>(), xf::array<float, 3, xf::host>(hm(xf::newaxis, slice(2, 10), 4)));
  // An outer product through newaxis, and a statement into an indexed plane.
  auto hc = host_random<double>(std::array<xf::index_t, 1>{37}, -1, 1), hr = host_random<double>(std::array<xf::index_t, 1>{23}, -1, 1);
  auto c = xf::dist::from_local(hc);
  auto r = xf::dist::from_local(hr);
  require_bitwise_equal(xf::dist::eval(c(xf::all, xf::newaxis) * r(xf::newaxis, xf::all)).to_local<xf::host>(),
                        single([](auto a, auto b) { return a(xf::all, xf::newaxis) * b(xf::newaxis, xf::all); }, hc, hr));
  m(5).assign(m(6) * 2.0f + m(7, 0));
  auto want = hm.copy();
  want(5).assign(xf::eval(want(6) * 2.0f + want(7, 0)));
  require_bitwise_equal(m.to_local<xf::host>(), want);
  CHECK_THROWS_AS(m(40), xf::index_error);
  CHECK_THROWS_AS(m(0, -31), xf::index_error);
  CHECK(m(2, slice(1, 3)).view() == m.view() + "[0=2][0:1:3]");
}

TEST_CASE("dist: cumsum and cumprod along any axis, the split one included", "[dist][scan]") {
  // 1-D and few long lines: the split axis (piece totals, then each piece's scan with the prefix
  // of the totals before it); many lines: whole lines a piece. Against single-array xfuse.
  auto h1 = host_random<double>(std::array<xf::index_t, 1>{100003}, -1, 1);
  auto x1 = xf::dist::from_local(h1);
  require_close(xf::dist::cumsum(x1 * 2.0).to_local<xf::host>(), single([](auto a) { return xf::cumsum(a * 2.0, 0); }, h1), 1e-9);
  auto hm = host_random<float>(std::array<xf::index_t, 2>{3, 5001}, -1, 1);
  auto m = xf::dist::from_local(hm);
  require_close(xf::dist::cumsum(m, 1).to_local<xf::host>(), single([](auto a) { return xf::cumsum(a, 1); }, hm), 2e-4);
  require_close(xf::dist::cumsum(m, 0).to_local<xf::host>(), single([](auto a) { return xf::cumsum(a, 0); }, hm), 1e-6);
  auto tall = xf::dist::from_local(host_random<float>(std::array<xf::index_t, 2>{4001, 7}, -1, 1));
  const auto htall = tall.to_local<xf::host>();
  require_close(xf::dist::cumsum(tall(slice(1, _), xf::all), 0).to_local<xf::host>(),
                single([](auto a) { return xf::cumsum(a(slice(1, _), xf::all), 0); }, htall), 2e-4);
  require_close(xf::dist::cumsum(tall, -1).to_local<xf::host>(), single([](auto a) { return xf::cumsum(a, 1); }, htall), 1e-6);
  // Products near 1 (no overflow), a NaN carried forward into every later piece, integers exact.
  auto hp = host_random<double>(std::array<xf::index_t, 1>{20000}, 0.999, 1.001);
  hp.data()[7000] = NAN;
  auto p = xf::dist::from_local(hp);
  const auto got = xf::dist::cumprod(p).to_local<xf::host>();
  const auto want = single([](auto a) { return xf::cumprod(a, 0); }, hp);
  require_close(got, want, 1e-10);
  CHECK(std::isnan(got.data()[19999]));
  CHECK(!std::isnan(got.data()[6999]));
  auto ints = xf::dist::arange<std::int32_t>(70001);
  auto running = xf::dist::cumsum(ints);
  static_assert(std::is_same_v<decltype(running), xf::dist::array<std::int64_t, 1>>);
  const auto r = running.to_local<xf::host>();
  std::size_t wrong = 0;
  for (xf::index_t i = 0; i < r.size(); ++i) wrong += r.data()[i] != i * (i + 1) / 2;
  CHECK(wrong == 0);
  // An operand broadcast along the axis, a reduction's scalar, empty arrays, bad axes.
  auto row = xf::dist::from_local(host_random<float>(std::array<xf::index_t, 1>{7}, 0, 1));
  const auto hrow = row.to_local<xf::host>();
  require_close(xf::dist::cumsum(tall + row - xf::dist::max(row), 0).to_local<xf::host>(),
                single([](auto a, auto b) { return xf::cumsum(a + b - xf::max(b).item(), 0); }, htall, hrow), 2e-4);
  CHECK(xf::dist::cumsum(xf::dist::zeros<float>({0, 5}), 0).shape() == (std::array<xf::index_t, 2>{0, 5}));
  CHECK_THROWS_AS(xf::dist::cumsum(m, 2), xf::shape_error);
}

namespace {
// A task that asks the host for more memory than any machine has (2^62 bytes), on either variant.
struct greedy_task : xf::dist::detail::xfuse_task<greedy_task> {
  template <class Space>
  static void run(const legate::TaskContext&) {
    (void)xf::detail::allocate_host(std::size_t{1} << 62);
  }
};
}  // namespace

TEST_CASE("dist: an out-of-memory inside a task is raised at the next host read", "[dist][errors]") {
  auto hx = host_random<float>(std::array<xf::index_t, 1>{5000}, -1, 1);
  auto x = xf::dist::from_local(hx);
  auto* rt = legate::Runtime::get_runtime();
  auto failed = xf::dist::zeros<float>({64});
  auto task = rt->create_task(xf::dist::detail::library(), xf::dist::detail::task_id<greedy_task>());
  task.add_output(failed.store());
  rt->submit(std::move(task));  // returns at once: the error waits for a host read
  auto y = xf::dist::eval(2.0f * x);
  try {
    (void)failed.to_local<xf::host>();  // waits for the failed task
    FAIL("the task's out-of-memory was not raised");
  } catch (const xf::out_of_memory& e) {
    CHECK(e.requested_bytes() == std::size_t{1} << 62);
    CHECK(std::string(e.what()).find("xf::out_of_memory: cannot allocate") == 0);
  }
  // Raised once; the arrays and the runtime go on.
  require_bitwise_equal(y.to_local<xf::host>(), single([](auto a) { return 2.0f * a; }, hx));
  CHECK(xf::dist::sum(x).item() == Approx(double(xf::sum(hx).item())).epsilon(1e-4));
  if (on_gpus()) {
    // The real case: xfuse's pool on the device runs out inside reductions and running sums.
    auto pool = xf::get_default_memory_pool(0);
    pool.set_limit(1);
    auto total = xf::dist::sum(x * x);
    auto running = xf::dist::cumsum(x);
    CHECK_THROWS_AS(total.item(), xf::out_of_memory);
    try {
      (void)running.to_local<xf::host>();  // the running sum's own error, where it failed after the sum's was read
    } catch (const xf::out_of_memory&) {
    }
    pool.set_limit(0);
    require_close(xf::dist::cumsum(x).to_local<xf::host>(), single([](auto a) { return xf::cumsum(a, 0); }, hx), 1e-5);
    CHECK(xf::dist::sum(x * x).item() == Approx(double(xf::sum(hx * hx).item())).epsilon(1e-4));
  }
}

namespace {
std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}
void put_file(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }
}  // namespace

TEST_CASE("dist: .npy files written and read by pieces equal xf::save_npy's, byte for byte", "[dist][npy]") {
  const std::string stem = "xfuse_dist_npy_" + std::to_string(xf_test::seed());
  const std::string mine = stem + ".npy", reference = stem + "_ref.npy";
  auto round_trip = [&](auto x, auto h) {
    using T = typename decltype(h)::value_type;
    constexpr int R = decltype(h)::rank;
    xf::dist::save_npy(mine, x);
    xf::save_npy(reference, h);
    CHECK(file_bytes(mine) == file_bytes(reference));
    require_bitwise_equal(xf::dist::load_npy<T, R>(reference).template to_local<xf::host>(), h.copy());
  };
  auto hm = host_random<double>(std::array<xf::index_t, 2>{1001, 37}, -1e6, 1e6);
  hm.data()[5] = NAN;
  hm.data()[77] = -INFINITY;
  auto m = xf::dist::from_local(hm);
  round_trip(m, hm);
  round_trip(m.transpose({1, 0}), hm.transpose());  // pieces of a view, in the file's order
  round_trip(m(slice(3, -2), slice(1, 30)), hm(slice(3, -2), slice(1, 30)));
  auto h3 = host_random<std::int16_t>(std::array<xf::index_t, 3>{9, 40, 7}, -30000, 30000);
  round_trip(xf::dist::from_local(h3), h3);
  auto hb = host_random<std::uint8_t>(std::array<xf::index_t, 1>{3001}, 0, 2);
  auto hbool = xf::empty<bool, xf::host>({3001});
  for (xf::index_t i = 0; i < 3001; ++i) hbool.data()[i] = hb.data()[i] != 0;
  round_trip(xf::dist::from_local(hbool), hbool);
  round_trip(xf::dist::zeros<float>({0, 5}), xf::empty<float, xf::host>(std::array<xf::index_t, 2>{0, 5}));

  // The other byte order goes through one local copy and gives the same values.
  auto hf = host_random<float>(std::array<xf::index_t, 2>{33, 8}, -1, 1);
  xf::save_npy(reference, hf);
  std::string big = file_bytes(reference);
  const auto descr = big.find("'<f4'");
  REQUIRE(descr != std::string::npos);
  big[descr + 1] = '>';
  const std::size_t data = big.size() - 33 * 8 * sizeof(float);
  for (std::size_t i = data; i < big.size(); i += 4) std::swap(big[i], big[i + 3]), std::swap(big[i + 1], big[i + 2]);
  put_file(reference, big);
  require_bitwise_equal(xf::dist::load_npy<float, 2>(reference).to_local<xf::host>(), hf);

  // Bytes of a bool file other than 0 and 1 read as true, as xf::load_npy reads them.
  xf::save_npy(reference, hbool);
  std::string bools = file_bytes(reference);
  const std::size_t first_bool = bools.size() - 3001;
  for (std::size_t i = first_bool; i < bools.size(); i += 3) bools[i] = static_cast<char>(bools[i] != 0 ? 0x7f : 0);
  put_file(reference, bools);
  const auto read_bools = xf::dist::load_npy<bool, 1>(reference).to_local<xf::host>();
  std::size_t wrong_bools = 0;
  for (xf::index_t i = 0; i < 3001; ++i) {
    unsigned char byte = 0;
    std::memcpy(&byte, read_bools.data() + i, 1);
    wrong_bools += byte != (hbool.data()[i] ? 1 : 0);
  }
  CHECK(wrong_bools == 0);

  // Errors, as xf::load_npy has them; a short file is refused before any task reads it.
  xf::save_npy(reference, hf);
  CHECK_THROWS_AS((xf::dist::load_npy<double, 2>(reference)), xf::dtype_error);
  CHECK_THROWS_AS((xf::dist::load_npy<float, 3>(reference)), xf::shape_error);
  put_file(reference, file_bytes(reference).substr(0, big.size() - 4));
  CHECK_THROWS_AS((xf::dist::load_npy<float, 2>(reference)), xf::error);

  // Saving keeps the file's mode and links to it, and a failure leaves the old file (and no
  // temporary) behind.
  xf::save_npy(mine, hf);
  ::chmod(mine.c_str(), 0640);
  const std::string link = stem + "_link.npy";
  ::unlink(link.c_str());
  REQUIRE(::symlink(mine.c_str(), link.c_str()) == 0);
  xf::dist::save_npy(link, m);
  struct stat st {}, lst {};
  REQUIRE(::stat(mine.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0640);
  REQUIRE(::lstat(link.c_str(), &lst) == 0);
  CHECK(S_ISLNK(lst.st_mode));
  xf::save_npy(reference, hm);
  CHECK(file_bytes(mine) == file_bytes(reference));
  CHECK_THROWS_AS(xf::dist::save_npy(stem + "_no_such_directory/x.npy", m), xf::error);
  // An array a failed task made is not written over the file: the error is thrown, the old file
  // stays, and its temporary goes.
  auto failed = xf::dist::zeros<double>({1001, 37});
  auto* rt = legate::Runtime::get_runtime();
  auto task = rt->create_task(xf::dist::detail::library(), xf::dist::detail::task_id<greedy_task>());
  task.add_output(failed.store());
  rt->submit(std::move(task));
  CHECK_THROWS_AS(xf::dist::save_npy(mine, failed), xf::out_of_memory);
  CHECK(file_bytes(mine) == file_bytes(reference));
  std::size_t temporaries = 0;
  for (const auto& entry : std::filesystem::directory_iterator("."))
    temporaries += entry.path().filename().string().rfind("." + stem, 0) == 0;
  CHECK(temporaries == 0);
  for (const auto& p : {mine, reference, link}) std::remove(p.c_str());
}
