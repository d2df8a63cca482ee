// Layouts on the device: views with negative and zero strides, transposes, broadcasting of
// size-1 dimensions, unaligned offsets (no vector loads), odd extents (the per-element path),
// in-place and overlapping assignment, leaves used twice, 0-d and empty arrays.
#include "../common/device_check.hpp"

using namespace xf_test;

namespace {
template <class T, std::size_t N>
auto both(const std::vector<T>& v, const std::array<xf::index_t, N>& shape) {
  return std::pair{xf::asarray<T, xf::host>(v, shape), xf::asarray<T>(v, shape)};
}

// Builds the same expression from host and device operands and compares the results.
template <class T, class Make, class... A>
void same_on_both(const std::string& what, Make make, double tol, const A&... pairs) {
  const auto h = xf::eval(make(pairs.first...));
  const auto d = xf::eval(make(pairs.second...));
  CHECK(h.shape() == d.shape());
  require_all_close(xf::to_host(d), xf::to_host(h), tol, tol, what);
}
}  // namespace

TEST_CASE("strided, reversed and transposed views evaluate like the host", "[gpu][views]") {
  const auto a = both(uniform<float>(37 * 53, -1, 1), xf::dims<2>{37, 53});
  const auto b = both(uniform<float>(53 * 37, -1, 1), xf::dims<2>{53, 37});
  auto tr = [](const auto& x, const auto& y) { return x.T() + y; };
  same_on_both<float>("A.T() + B", tr, 0, a, b);
  auto rev = [](const auto& x) { return x(xf::slice(xf::_, xf::_, -1), xf::slice(xf::_, xf::_, -3)) * 2; };
  same_on_both<float>("x[::-1, ::-3] * 2", rev, 0, a);
  auto step = [](const auto& x) { return xf::sin(x(xf::slice(1, xf::_, 2), xf::slice(3, 40))); };
  same_on_both<float>("sin(x[1::2, 3:40])", step, 1e-6, a);
  auto diag = [](const auto& x) { return x.diagonal(2) + x(xf::slice(0, 37), 0); };
  same_on_both<float>("diagonal + column", diag, 0, a);
  const auto c = both(uniform<double>(4 * 5 * 6 * 7, -1, 1), xf::dims<4>{4, 5, 6, 7});
  auto perm = [](const auto& x) { return x.transpose({3, 1, 0, 2}) - x.transpose({3, 1, 0, 2}).flip(2); };
  same_on_both<double>("4-d permutation and flip", perm, 0, c);
  // Batched transposes with many tiles across both dimensions, neither a multiple of the tile
  // band: full bands, a narrow last band and ragged edge tiles, for every matrix of the batch.
  for (auto [n, m] : {std::pair<xf::index_t, xf::index_t>{1100, 700}, {700, 1100}}) {
    const auto x = both(uniform<float>(static_cast<std::size_t>(3 * n * m), -1, 1), xf::dims<3>{3, n, m});
    const auto y = both(uniform<float>(static_cast<std::size_t>(3 * n * m), -1, 1), xf::dims<3>{3, m, n});
    auto batch_tr = [](const auto& u, const auto& v) { return u.transpose({0, 2, 1}) * 2 + v; };
    same_on_both<float>("batched transpose " + std::to_string(n) + "x" + std::to_string(m), batch_tr, 1e-6, x, y);
  }
}

TEST_CASE("broadcasting of size-1 and missing dimensions on the device", "[gpu][views][broadcast]") {
  const auto col = both(uniform<float>(513, -1, 1), xf::dims<2>{513, 1});
  const auto row = both(uniform<float>(1031, -1, 1), xf::dims<2>{1, 1031});
  const auto vec = both(uniform<float>(1031, -1, 1), xf::dims<1>{1031});
  same_on_both<float>("outer (n,1) + (1,m)", [](const auto& x, const auto& y) { return x + y; }, 0, col, row);
  same_on_both<float>("(n,1) * (m,)", [](const auto& x, const auto& y) { return x * y; }, 0, col, vec);
  const auto cube = both(uniform<std::int32_t>(3 * 1 * 8, -50, 50), xf::dims<3>{3, 1, 8});
  const auto mat = both(uniform<std::int32_t>(5 * 8, -50, 50), xf::dims<2>{5, 8});
  same_on_both<std::int32_t>("(3,1,8) - (5,8)", [](const auto& x, const auto& y) { return x - y; }, 0, cube, mat);
  // Rows long enough for the rows walk's whole chunks: a thread's chunks stay in one row (positions
  // advance), cross into the next row, or cross two dimensions at once (rank 3).
  for (xf::index_t n : {1024, 4096, 6144}) {
    const auto c = both(uniform<float>(300, -1, 1), xf::dims<2>{300, 1});
    const auto r = both(uniform<float>(static_cast<std::size_t>(n), -1, 1), xf::dims<2>{1, n});
    same_on_both<float>("(300,1) + (1," + std::to_string(n) + ")", [](const auto& x, const auto& y) { return x + y; }, 0, c, r);
  }
  const auto c3 = both(uniform<std::int8_t>(7, -50, 50), xf::dims<3>{7, 1, 1});
  const auto r3 = both(uniform<std::int8_t>(33 * 2048, -50, 50), xf::dims<3>{1, 33, 2048});
  same_on_both<std::int8_t>("(7,1,1) - (1,33,2048) int8", [](const auto& x, const auto& y) { return x - y; }, 0, c3, r3);
  const auto single = both(uniform<float>(1, -1, 1), xf::dims<1>{1});
  same_on_both<float>("(1,) + (n,1)", [](const auto& x, const auto& y) { return x + y; }, 0, single, col);
}

TEST_CASE("unaligned and odd layouts take the scalar paths correctly", "[gpu][views]") {
  for (xf::index_t n : {1, 3, 4, 5, 1023, 1024, 1025, 65537}) {
    const auto x = both(uniform<float>(static_cast<std::size_t>(n) + 3, -1, 1), xf::dims<1>{n + 3});
    // Offsets 1..3 floats: not 16-byte aligned, so no vector loads for that leaf.
    auto shifted = [n](const auto& v) { return v(xf::slice(1, n + 1)) + v(xf::slice(3, n + 3)) * v(xf::slice(0, n)); };
    same_on_both<float>("shifted views, n = " + std::to_string(n), shifted, 1e-6, x);
  }
  // Rows whose extent is not a multiple of the chunk: per-element positions.
  const auto m = both(uniform<std::int8_t>(77 * 131, -100, 100), xf::dims<2>{77, 131});
  same_on_both<std::int8_t>("int8 (77,131) transposed", [](const auto& x) { return x.T() * 3; }, 0, m);
  const auto h = both(uniform<xf::half>(64 * 48, -4, 4), xf::dims<2>{64, 48});
  same_on_both<xf::half>("half sliced columns", [](const auto& x) { return x(xf::all, xf::slice(8, 40)) + x(xf::all, xf::slice(16, 48)); }, 0, h);
}

TEST_CASE("sizes around the launch's tile and wave boundaries evaluate like the host", "[gpu][views][small]") {
  // Under a wave of full tiles the rows walk takes fewer chunks a thread (down to one); the bulk
  // walk starts at a wave of its tiles. Sizes on either side of each step, for this device.
  const xf::index_t sms = xf::device().multiprocessor_count();
  std::vector<xf::index_t> sizes{1, 3, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097, 10000};
  for (const xf::index_t tile : {1024, 2048, 4096, 8192, 16384})
    for (const xf::index_t d : {-1, 0, 1, 5}) sizes.push_back(sms * tile + d);
  for (const xf::index_t n : sizes) {
    const auto x = both(uniform<float>(static_cast<std::size_t>(n), -1, 1), xf::dims<1>{n});
    const auto y = both(uniform<float>(static_cast<std::size_t>(n), -1, 1), xf::dims<1>{n});
    same_on_both<float>("(x - y) * (x - y), n = " + std::to_string(n), [](const auto& a, const auto& b) { return (a - b) * (a - b); }, 0, x, y);
    same_on_both<float>("x[::-1] + y, n = " + std::to_string(n),
                        [](const auto& a, const auto& b) { return a(xf::slice(xf::_, xf::_, -1)) + b; }, 0, x, y);
    // Rows of 7 of 8 (no collapse, rows not a whole number of chunks: the element path).
    const xf::index_t rows = n / 7 + 1;
    const auto m = both(uniform<double>(static_cast<std::size_t>(rows * 8), -1, 1), xf::dims<2>{rows, 8});
    same_on_both<double>("2 * m[:, :7] + 1, n = " + std::to_string(n),
                         [](const auto& a) { return 2.0 * a(xf::slice(xf::_, xf::_), xf::slice(0, 7)) + 1.0; }, 0, m);
  }
}

TEST_CASE("in-place and overlapping assignment on the device give NumPy's result", "[gpu][assign]") {
  std::vector<int> v(1000);
  for (int i = 0; i < 1000; ++i) v[i] = i;
  auto a = xf::asarray<int>(v);
  a(xf::slice(1, xf::_)) = a(xf::slice(xf::_, -1));  // a[1:] = a[:-1]
  auto h = xf::to_host(a);
  CHECK(h[0] == 0);
  for (int i = 1; i < 1000; ++i) CHECK(h[i] == i - 1);
  auto b = xf::asarray<int>(v);
  b.assign(b.flip(0) + b);  // b[:] = b[::-1] + b
  h = xf::to_host(b);
  for (int i = 0; i < 1000; ++i) REQUIRE(h[i] == 999);
  auto m = xf::asarray<float>(uniform<float>(64 * 64, -1, 1), {64, 64});
  const auto before = xf::to_host(m);
  m.assign(m.T() - m);
  const auto after = xf::to_host(m);
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) REQUIRE(after[i * 64 + j] == before[j * 64 + i] - before[i * 64 + j]);
  auto x = xf::asarray<float>({1.f, 2.f, 3.f, 4.f});
  auto alias = x;
  x += 1;
  x *= x;
  x(xf::slice(0, 2)) -= 1;
  CHECK(xf::to_host(alias) == std::vector<float>{3, 8, 16, 25});
  auto col = xf::asarray<float>({0.f, 0.f, 0.f, 0.f, 0.f, 0.f}, {2, 3});
  col(xf::all, 1) = xf::asarray<float>({5.f, 6.f});
  CHECK(xf::to_host(col) == std::vector<float>{0, 5, 0, 0, 6, 0});
  col.assign(7.f);
  CHECK(xf::to_host(col) == std::vector<float>(6, 7.f));
}

TEST_CASE("a leaf used twice is read once and gives the right values", "[gpu][fusion]") {
  const auto x = both(uniform<float>(1 << 20, -1, 1), xf::dims<1>{1 << 20});
  const auto y = both(uniform<float>(1 << 20, -1, 1), xf::dims<1>{1 << 20});
  auto sq = [](const auto& a, const auto& b) { return (a - b) * (a - b); };
  same_on_both<float>("squared_diff", sq, 0, x, y);
  auto many = [](const auto& a) { return a * a + a * 3 - a / (a * a + 1); };
  same_on_both<float>("x used five times", many, 1e-6, x);
}

TEST_CASE("0-d, size-1 and empty arrays", "[gpu][views]") {
  auto s = xf::asarray<double>({2.5}, {1}).reshape(std::array<xf::index_t, 0>{});
  const xf::array<double, 0> t = s * 2 + 1;
  CHECK(t.item() == 6.0);
  xf::array<float, 2> e({0, 5});
  const xf::array<float, 2> r = xf::sin(e) + 1;
  CHECK(r.shape() == xf::dims<2>{0, 5});
  CHECK(xf::to_host(r).empty());
  const xf::array<int, 1> one = xf::arange<int>(1) + 41;
  CHECK(one.item() == 41);
}

TEST_CASE("generators fuse on the device", "[gpu][generators]") {
  const xf::array<std::int64_t, 1> r = xf::arange<std::int64_t>(-5, 1000001, 7);
  const auto hr = xf::to_host(r);
  for (std::size_t i = 0; i < hr.size(); ++i) REQUIRE(hr[i] == -5 + 7 * static_cast<std::int64_t>(i));
  const xf::array<double, 1> l = xf::linspace(-1.0, 1.0, 100001);
  const xf::array<double, 1, xf::host> lh = xf::linspace(-1.0, 1.0, 100001);
  require_equal(xf::to_host(l), xf::to_host(lh), "linspace");
  const xf::array<float, 2> e = xf::eye<float>(300, 200, -3) * 2 + xf::ones<float>({300, 200});
  const xf::array<float, 2, xf::host> eh = xf::eye<float>(300, 200, -3) * 2 + xf::ones<float>({300, 200});
  require_equal(xf::to_host(e), xf::to_host(eh), "eye * 2 + ones");
  const auto x = xf::asarray<float>(uniform<float>(4096, -1, 1));
  const xf::array<float, 1> g = x * xf::arange<float>(4096) - xf::full_like(x, 0.5f);
  std::vector<float> want(4096);
  const auto hx = xf::to_host(x);
  for (int i = 0; i < 4096; ++i) want[i] = hx[i] * static_cast<float>(i) - 0.5f;
  require_all_close(xf::to_host(g), want, 1e-6, 1e-6, "x * arange - full_like");
  const xf::array<std::uint8_t, 3> z = xf::zeros<std::uint8_t>({7, 9, 11});
  CHECK(xf::to_host(z) == std::vector<std::uint8_t>(7 * 9 * 11, 0));
}

// The tiled walk (a transposed leaf) with generators beside it: generators are evaluated as each
// element is computed, not held from the start. Extents across the 64- and 32-wide tiles, f32 and
// f64, a batch dimension, diagonal offsets on both sides.
TEST_CASE("generators next to transposed leaves (the tiled walk) on the device", "[gpu][generators][views]") {
  const auto a = both(uniform<double>(70 * 131, -1, 1), xf::dims<2>{70, 131});
  const auto af = both(uniform<float>(131 * 70, -1, 1), xf::dims<2>{131, 70});
  for (const xf::index_t k : {xf::index_t{-5}, xf::index_t{0}, xf::index_t{9}}) {
    auto lower_t = [k](const auto& x) { return xf::where(xf::tri<bool>(70, 131, k).T(), x.T(), 0.0); };
    same_on_both<double>("where(tri(70, 131, k).T(), A.T(), 0), k = " + std::to_string(k), lower_t, 0, a);
    auto eye_t = [k](const auto& x) { return x.T() * 2.0f + xf::eye<float>(70, 131, k) * xf::tri<float>(70, 131, k); };
    same_on_both<float>("A.T() * 2 + eye(70, 131, k) * tri(70, 131, k), k = " + std::to_string(k), eye_t, 1e-6, af);
  }
  const auto s = both(uniform<double>(3 * 65 * 97, -1, 1), xf::dims<3>{3, 65, 97});
  auto batch_t = [](const auto& x) { return x.swapaxes(1, 2) * xf::arange<double>(65) + xf::linspace(0.0, 1.0, 65); };
  same_on_both<double>("swapaxes(1, 2) * arange + linspace over a batch", batch_t, 1e-12, s);  // FMA on the device
}
