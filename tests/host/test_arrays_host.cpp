// Host arrays: handles, views (slicing, transpose, reshape, diagonal, flip, squeeze, expand_dims,
// broadcast_to), in-place assignment with NumPy's overlap semantics, generators, broadcasting and
// promotion rules, and the errors bad input gets.
#include <numeric>

#include "../common/elementwise.hpp"

using namespace xf_test;

namespace {
template <class T, int R>
using harray = xf::array<T, R, xf::host>;

// An independent reference: the element at a multi-index, read through shape and strides.
template <class T, int R>
T at(const harray<T, R>& a, const std::array<xf::index_t, R>& idx) {
  xf::index_t off = 0;
  for (int d = 0; d < R; ++d) off += idx[d] * a.strides()[d];
  return a.data()[off];
}

harray<int, 2> iota2(xf::index_t m, xf::index_t n) {
  harray<int, 2> a({m, n});
  std::iota(a.data(), a.data() + a.size(), 0);
  return a;
}
}  // namespace

TEST_CASE("handles share buffers; copy() copies", "[array][host]") {
  auto a = iota2(3, 4);
  auto b = a;  // shares
  b.at(1, 2) = 100;
  CHECK(a.at(1, 2) == 100);
  auto c = a.copy();
  c.at(1, 2) = -1;
  CHECK(a.at(1, 2) == 100);
  CHECK(a.size() == 12);
  CHECK(a.nbytes() == 48);
  CHECK(a.ndim() == 2);
  CHECK(a.itemsize() == 4);
  CHECK(a.strides() == xf::dims<2>{4, 1});
  CHECK(a.is_contiguous());
  CHECK(a.device_id() == -1);
  CHECK(std::string(a.dtype_name()) == "int32");
}

TEST_CASE("views keep the buffer alive", "[array][host]") {
  harray<int, 1> v;
  {
    auto a = iota2(4, 5);
    v = a(2);  // row 2
  }
  CHECK(xf::to_host(v) == std::vector<int>{10, 11, 12, 13, 14});
}

TEST_CASE("basic indexing follows NumPy", "[array][views][host]") {
  const auto a = iota2(6, 7);
  SECTION("negative steps and indices") {
    auto r = a(xf::slice(xf::_, xf::_, -1), -1);  // a[::-1, -1]
    CHECK(r.shape() == xf::dims<1>{6});
    CHECK(xf::to_host(r) == std::vector<int>{41, 34, 27, 20, 13, 6});
    auto s = a(xf::slice(-2, 1, -2), xf::slice(1, 6, 2));  // a[-2:1:-2, 1:6:2]
    CHECK(s.shape() == xf::dims<2>{2, 3});
    CHECK(xf::to_host(s) == std::vector<int>{29, 31, 33, 15, 17, 19});
    CHECK(s.offset() == 29);
  }
  SECTION("clamping, empty slices and newaxis") {
    CHECK(a(xf::slice(4, 100)).shape() == xf::dims<2>{2, 7});
    CHECK(a(xf::slice(5, 2)).shape() == xf::dims<2>{0, 7});
    CHECK(a(xf::slice(-100, 2)).shape() == xf::dims<2>{2, 7});
    auto n = a(xf::newaxis, xf::all, 3, xf::newaxis);
    CHECK(n.shape() == xf::dims<3>{1, 6, 1});
    CHECK(xf::to_host(n) == std::vector<int>{3, 10, 17, 24, 31, 38});
    auto e = a(2, 3);
    static_assert(decltype(e)::rank == 0);
    CHECK(e.item() == 17);
  }
  SECTION("out of range indices throw index_error") {
    CHECK_THROWS_AS(a(6), xf::index_error);
    CHECK_THROWS_AS(a(-7), xf::index_error);
    CHECK_THROWS_AS((a(0, xf::slice(0, 5, 0))), xf::index_error);
  }
}

TEST_CASE("transpose, flip, diagonal, squeeze, expand_dims, broadcast_to are views", "[array][views][host]") {
  auto a = iota2(3, 4);
  auto t = a.T();
  CHECK(t.shape() == xf::dims<2>{4, 3});
  CHECK(at<int, 2>(t, {3, 1}) == a.at(1, 3));
  CHECK(t.data() == a.data());
  harray<int, 3> c({2, 3, 4});
  std::iota(c.data(), c.data() + c.size(), 0);
  auto p = c.transpose({2, 0, 1});
  CHECK(p.shape() == xf::dims<3>{4, 2, 3});
  CHECK(at<int, 3>(p, {3, 1, 2}) == 1 * 12 + 2 * 4 + 3);
  CHECK_THROWS_AS((c.transpose({0, 0, 1})), xf::shape_error);
  CHECK(xf::to_host(a.flip(1)) == std::vector<int>{3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8});
  CHECK(xf::to_host(a.flip()) == std::vector<int>{11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
  CHECK(xf::to_host(a.diagonal()) == std::vector<int>{0, 5, 10});
  CHECK(xf::to_host(a.diagonal(1)) == std::vector<int>{1, 6, 11});
  CHECK(xf::to_host(a.diagonal(-1)) == std::vector<int>{4, 9});
  CHECK(xf::to_host(c.diagonal(0, 1, 2)) == std::vector<int>{0, 5, 10, 12, 17, 22});
  auto s = a(xf::slice(1, 2)).squeeze(0);
  CHECK(xf::to_host(s) == std::vector<int>{4, 5, 6, 7});
  CHECK_THROWS_AS(a.squeeze(1), xf::shape_error);
  auto x = a.expand_dims(1);
  CHECK(x.shape() == xf::dims<3>{3, 1, 4});
  auto b = a(xf::all, 1).broadcast_to({2, 3});  // column 1 has shape (3,)
  CHECK(b.shape() == xf::dims<2>{2, 3});
  CHECK(b.strides()[0] == 0);
  CHECK(xf::to_host(b) == std::vector<int>{1, 5, 9, 1, 5, 9});
  CHECK_THROWS_AS((a.broadcast_to({4, 4})), xf::shape_error);
}

TEST_CASE("reshape is a view when the strides allow, a copy otherwise", "[array][views][host]") {
  auto a = iota2(4, 6);
  auto r = a.reshape({2, 3, 4});
  CHECK(r.data() == a.data());
  CHECK(at<int, 3>(r, {1, 2, 3}) == 23);
  auto u = a.reshape({-1, 8});
  CHECK(u.shape() == xf::dims<2>{3, 8});
  // A column slice of rows can still be split without copying: (4, 3) with row stride 6.
  auto cols = a(xf::all, xf::slice(0, 6, 2));
  auto v = cols.reshape({2, 2, 3});
  CHECK(v.data() == cols.data());
  CHECK(xf::to_host(v) == xf::to_host(cols));
  // The transpose cannot be flattened in place: a copy with the right order.
  auto f = a.T().ravel();
  CHECK(f.data() != a.data());
  std::vector<int> want;
  for (int j = 0; j < 6; ++j)
    for (int i = 0; i < 4; ++i) want.push_back(i * 6 + j);
  CHECK(xf::to_host(f) == want);
  CHECK(a.ravel().data() == a.data());
  CHECK(a.flatten().data() != a.data());
  CHECK_THROWS_AS((a.reshape({5, 5})), xf::shape_error);
  CHECK_THROWS_AS((a.reshape({-1, -1})), xf::shape_error);
}

TEST_CASE("assignment: rebinding, in place, broadcasting, NumPy's overlap semantics", "[array][assign][host]") {
  SECTION("a = expr rebinds, a.assign(expr) writes") {
    auto a = iota2(2, 3);
    auto alias = a;
    a = a + 1;  // rebinds a; alias keeps the old values
    CHECK(xf::to_host(alias) == std::vector<int>{0, 1, 2, 3, 4, 5});
    CHECK(xf::to_host(a) == std::vector<int>{1, 2, 3, 4, 5, 6});
    alias.assign(alias * 10);
    CHECK(xf::to_host(alias) == std::vector<int>{0, 10, 20, 30, 40, 50});
  }
  SECTION("a(view) = expr broadcasts the right side") {
    auto a = iota2(3, 4);
    a(xf::slice(1, xf::_)) = xf::asarray<int, xf::host>({-1, -2, -3, -4});
    CHECK(xf::to_host(a) == std::vector<int>{0, 1, 2, 3, -1, -2, -3, -4, -1, -2, -3, -4});
    a(xf::all, 0) = 7;
    CHECK(xf::to_host(a(xf::all, 0)) == std::vector<int>{7, 7, 7});
    CHECK_THROWS_AS((a(xf::all, 0) = xf::asarray<int, xf::host>({1, 2})), xf::shape_error);
  }
  SECTION("overlapping shifts give NumPy's result") {
    auto a = xf::asarray<int, xf::host>({0, 1, 2, 3, 4, 5, 6, 7});
    a(xf::slice(1, xf::_)) = a(xf::slice(xf::_, -1));  // a[1:] = a[:-1]
    CHECK(xf::to_host(a) == std::vector<int>{0, 0, 1, 2, 3, 4, 5, 6});
    auto b = xf::asarray<int, xf::host>({0, 1, 2, 3, 4, 5, 6, 7});
    b(xf::slice(xf::_, -1)) = b(xf::slice(1, xf::_));  // b[:-1] = b[1:]
    CHECK(xf::to_host(b) == std::vector<int>{1, 2, 3, 4, 5, 6, 7, 7});
    auto c = xf::asarray<int, xf::host>({0, 1, 2, 3, 4, 5});
    c.assign(c.flip(0));  // c[:] = c[::-1]
    CHECK(xf::to_host(c) == std::vector<int>{5, 4, 3, 2, 1, 0});
    auto m = iota2(3, 3);
    m.assign(m.T() + m);  // reads the transpose of what it writes
    CHECK(xf::to_host(m) == std::vector<int>{0, 4, 8, 4, 8, 12, 8, 12, 16});
  }
  SECTION("compound assignment in place") {
    auto a = xf::asarray<float, xf::host>({1, 2, 3});
    auto alias = a;
    a += 1;
    a *= a;
    a -= xf::asarray<float, xf::host>({1, 1, 1});
    a /= 2;
    CHECK(xf::to_host(alias) == std::vector<float>{1.5f, 4, 7.5f});
  }
  SECTION("writing into a broadcast view is refused") {
    auto row = xf::asarray<int, xf::host>({1, 2, 3});
    auto b = row.broadcast_to({4, 3});
    CHECK_THROWS_AS(b.assign(b * 2), xf::shape_error);
  }
}

TEST_CASE("broadcasting follows NumPy and errors name both shapes", "[broadcast][host]") {
  harray<float, 2> col({4, 1}), row({1, 5});
  for (int i = 0; i < 4; ++i) col.at(i, 0) = static_cast<float>(i);
  for (int j = 0; j < 5; ++j) row.at(0, j) = static_cast<float>(10 * j);
  const harray<float, 2> s = col + row;
  CHECK(s.shape() == xf::dims<2>{4, 5});
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j) CHECK(s.at(i, j) == static_cast<float>(i + 10 * j));
  harray<float, 3> c3({2, 1, 5});
  for (xf::index_t i = 0; i < c3.size(); ++i) c3.data()[i] = static_cast<float>(i);
  const auto t = xf::eval(c3 + col);  // (2,1,5) + (4,1) -> (2,4,5)
  CHECK(t.shape() == xf::dims<3>{2, 4, 5});
  CHECK(t.at(1, 3, 2) == c3.at(1, 0, 2) + col.at(3, 0));
  harray<float, 2> bad({3, 4});
  harray<float, 1> v({5});
  try {
    (void)(bad + v);
    FAIL("no exception");
  } catch (const xf::shape_error& e) {
    CHECK(std::string(e.what()) == "xf::add: cannot broadcast (3, 4) with (5,)");
  }
}

TEST_CASE("promotion follows NumPy 2 (NEP 50) at compile time", "[promotion][host]") {
  using xf::promote_t;
  using xf::promote_weak_t;
  static_assert(std::is_same_v<promote_t<std::int8_t, std::uint8_t>, std::int16_t>);
  static_assert(std::is_same_v<promote_t<std::int16_t, std::uint16_t>, std::int32_t>);
  static_assert(std::is_same_v<promote_t<std::int32_t, std::uint32_t>, std::int64_t>);
  static_assert(std::is_same_v<promote_t<std::int64_t, std::uint64_t>, double>);
  static_assert(std::is_same_v<promote_t<std::uint8_t, std::int32_t>, std::int32_t>);
  static_assert(std::is_same_v<promote_t<std::uint32_t, std::int16_t>, std::int64_t>);
  static_assert(std::is_same_v<promote_t<bool, std::int8_t>, std::int8_t>);
  static_assert(std::is_same_v<promote_t<std::int8_t, xf::half>, xf::half>);
  static_assert(std::is_same_v<promote_t<std::int16_t, xf::half>, float>);
  static_assert(std::is_same_v<promote_t<std::int32_t, float>, double>);
  static_assert(std::is_same_v<promote_t<std::uint16_t, float>, float>);
  static_assert(std::is_same_v<promote_t<xf::half, xf::bfloat16>, float>);
  static_assert(std::is_same_v<promote_t<xf::bfloat16, float>, float>);
  static_assert(std::is_same_v<promote_t<float, double>, double>);
  static_assert(std::is_same_v<promote_t<xf::complex64, double>, xf::complex128>);
  static_assert(std::is_same_v<promote_t<xf::complex64, std::int16_t>, xf::complex64>);
  static_assert(std::is_same_v<promote_t<xf::complex64, std::int32_t>, xf::complex128>);
  static_assert(std::is_same_v<promote_t<xf::half, xf::complex64>, xf::complex64>);
  // Weak C++ scalars: the array's type wins unless the scalar's kind is higher.
  static_assert(std::is_same_v<promote_weak_t<float, double>, float>);
  static_assert(std::is_same_v<promote_weak_t<std::int8_t, int>, std::int8_t>);
  static_assert(std::is_same_v<promote_weak_t<std::int32_t, double>, double>);
  static_assert(std::is_same_v<promote_weak_t<std::uint8_t, float>, double>);
  static_assert(std::is_same_v<promote_weak_t<bool, int>, std::int64_t>);
  static_assert(std::is_same_v<promote_weak_t<xf::half, double>, xf::half>);
  static_assert(std::is_same_v<promote_weak_t<float, xf::complex128>, xf::complex64>);
  static_assert(std::is_same_v<promote_weak_t<std::int16_t, xf::complex64>, xf::complex128>);

  const auto f = xf::asarray<float, xf::host>({1.5f});
  static_assert(std::is_same_v<xf::value_t<decltype(f * 2.0)>, float>);
  static_assert(std::is_same_v<xf::value_t<decltype(f / 3)>, float>);
  const auto i8 = xf::asarray<std::int8_t, xf::host>({100});
  const auto u8 = xf::asarray<std::uint8_t, xf::host>({200});
  static_assert(std::is_same_v<xf::value_t<decltype(i8 + 1)>, std::int8_t>);
  static_assert(std::is_same_v<xf::value_t<decltype(i8 * 2.5)>, double>);
  static_assert(std::is_same_v<xf::value_t<decltype(i8 / i8)>, double>);
  static_assert(std::is_same_v<xf::value_t<decltype(xf::sqrt(i8))>, xf::half>);
  static_assert(std::is_same_v<xf::value_t<decltype(i8 < u8)>, bool>);
  CHECK(xf::eval(i8 + u8).item() == 300);  // int16: no wrap
  CHECK(xf::eval(i8 + 100).item() == -56);  // int8 wraps, like NumPy
  CHECK_THROWS_AS(i8 + 300, xf::dtype_error);  // NumPy: OverflowError
  CHECK_THROWS_WITH(i8 + 300, "xf::add: the scalar 300 is out of bounds for int8");
}

TEST_CASE("generators: arange, linspace, eye, tri, full, zeros, ones, _like", "[generators][host]") {
  const harray<std::int32_t, 1> r = xf::arange<std::int32_t>(2, 11, 3);
  CHECK(xf::to_host(r) == std::vector<std::int32_t>{2, 5, 8});
  const harray<double, 1> rf = xf::arange(0.0, 1.0, 0.25);
  CHECK(xf::to_host(rf) == std::vector<double>{0, 0.25, 0.5, 0.75});
  CHECK(xf::arange(5, 0).size() == 0);
  CHECK(xf::to_host(harray<std::int64_t, 1>(xf::arange(10, 0, -3))) == std::vector<std::int64_t>{10, 7, 4, 1});
  const harray<double, 1> l = xf::linspace(0.0, 1.0, 5);
  CHECK(xf::to_host(l) == std::vector<double>{0, 0.25, 0.5, 0.75, 1.0});
  const harray<float, 1> l2 = xf::linspace<float>(1.0, 2.0, 4, false);
  CHECK(xf::to_host(l2) == std::vector<float>{1.f, 1.25f, 1.5f, 1.75f});
  const harray<int, 2> e = xf::eye<int>(3, 4, 1);
  CHECK(xf::to_host(e) == std::vector<int>{0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
  const harray<int, 2> t = xf::tri<int>(3, 4, 1);  // np.tri(3, 4, 1)
  CHECK(xf::to_host(t) == std::vector<int>{1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1});
  const harray<int, 2> tt = xf::tri<int>(3, 4, -1).T();  // np.tri(3, 4, -1).T
  CHECK(xf::to_host(tt) == std::vector<int>{0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0});
  const harray<float, 2> f = xf::full<float>({2, 2}, 2.5f);
  CHECK(xf::to_host(f) == std::vector<float>{2.5f, 2.5f, 2.5f, 2.5f});
  const harray<float, 2> z = xf::zeros<float>({2, 3}) + xf::ones<float>({3});
  CHECK(xf::to_host(z) == std::vector<float>(6, 1.f));
  // Generators fuse with arrays: one evaluation, no temporary.
  const auto x = xf::asarray<float, xf::host>({1, 2, 3, 4});
  const harray<float, 1> g = x * xf::arange<float>(4) + xf::ones_like(x);
  CHECK(xf::to_host(g) == std::vector<float>{1, 3, 7, 13});
  const harray<float, 2> w = xf::eye<float>(2) * 3 + xf::zeros_like(xf::eye<float>(2));
  CHECK(xf::to_host(w) == std::vector<float>{3, 0, 0, 3});
  CHECK(xf::to_host(harray<float, 1>(xf::full_like(x, 7))) == std::vector<float>(4, 7.f));
  CHECK_THROWS_AS((xf::arange(0, 10, 0)), xf::error);
}

TEST_CASE("round trip of every element type through host arrays", "[dtype][host]") {
  auto round_trip = []<class T>(T) {
    const auto v = uniform<T>(1001, -100, 100);
    const auto a = xf::asarray<T, xf::host>(v, {7, 11, 13});
    CHECK(xf::to_host(a) == v);
    CHECK(xf::to_host(a.copy()) == v);
    CHECK(std::string(xf::dtype_name<T>) == xf::name_of(xf::dtype_of<T>));
  };
  round_trip(bool{});
  round_trip(std::int8_t{});
  round_trip(std::int16_t{});
  round_trip(std::int32_t{});
  round_trip(std::int64_t{});
  round_trip(std::uint8_t{});
  round_trip(std::uint16_t{});
  round_trip(std::uint32_t{});
  round_trip(std::uint64_t{});
  round_trip(float{});
  round_trip(double{});
  round_trip(xf::complex64{});
  round_trip(xf::complex128{});
  // 16-bit floats have no operator== that vectors can use: compare their bits.
  const auto h = uniform<xf::half>(1001, -100, 100);
  const auto ha = xf::to_host(xf::asarray<xf::half, xf::host>(h).copy());
  for (std::size_t i = 0; i < h.size(); ++i) CHECK(static_cast<float>(ha[i]) == static_cast<float>(h[i]));
  const auto b = uniform<xf::bfloat16>(1001, -100, 100);
  const auto ba = xf::to_host(xf::asarray<xf::bfloat16, xf::host>(b).copy());
  for (std::size_t i = 0; i < b.size(); ++i) CHECK(static_cast<float>(ba[i]) == static_cast<float>(b[i]));
}

TEST_CASE("errors are clear and leave arrays intact", "[errors][host]") {
  auto a = xf::asarray<int, xf::host>({1, 2, 3});
  CHECK_THROWS_WITH(a.item(), "xf::array::item: can only convert an array of size 1 to a scalar, this one has shape (3,)");
  CHECK_THROWS_AS((xf::asarray<int, xf::host>({1, 2, 3}, {2, 2})), xf::shape_error);
  CHECK_THROWS_AS((harray<int, 2>({-1, 2})), xf::shape_error);
  CHECK_THROWS_AS((a(xf::slice(0, 2)) = xf::asarray<int, xf::host>({1, 2, 3})), xf::shape_error);
  CHECK(xf::to_host(a) == std::vector<int>{1, 2, 3});
  CHECK_THROWS_WITH(a.shape(3), "xf::array::shape: axis 3 is out of bounds for an array of shape (3,)");
}

TEST_CASE("memory the caller owns can be wrapped without a copy", "[array][host]") {
  std::vector<double> mine{1, 2, 3, 4, 5, 6};
  auto a = harray<double, 2>::wrap(mine.data(), {2, 3});
  a += 1;
  CHECK(mine == std::vector<double>{2, 3, 4, 5, 6, 7});
  auto t = harray<double, 2>::wrap(mine.data(), {3, 2}, {1, 3});  // Fortran order view
  CHECK(xf::to_host(t) == std::vector<double>{2, 5, 3, 6, 4, 7});
}
