// Distributed arrays on Legate: every result equals the single-array xfuse result on the same
// values (bit for bit for element-wise statements and random draws; within a stated tolerance for
// floating-point reductions and products, whose order of additions differs).
#include "../common/catch.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

#include <xfuse/legate.hpp>

#include "../common/random.hpp"

namespace {

using xf::slice;
using xf::_;

// Whether Legate runs the GPU variants here (LEGATE_CONFIG --gpus N, N > 0).
bool on_gpus() { return legate::get_machine().count(legate::mapping::TaskTarget::GPU) > 0; }

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
  require_bitwise_equal(xf::get(x.to_local<xf::device>()), h);  // export to the device

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
  xf::array<float, 2> want_a = xf::random::normal<float>({613, 211}, g_single);
  xf::array<double, 2> want_b = xf::random::uniform<double>({613, 211}, g_single, -2.0, 3.0);
  require_bitwise_equal(a.to_local<xf::host>(), xf::get(want_a));
  require_bitwise_equal(b.to_local<xf::host>(), xf::get(want_b));
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

TEST_CASE("dist: matrix products with a replicated right operand", "[dist]") {
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
