// Public names that no other test calls by name, shared by the host suite (host arrays) and the
// GPU suite (device arrays): NumPy's named spellings of the operators, the free-function views,
// the deferred and NaN-skipping reductions, creation and slicing tags, the random generator's
// aliases, ifft2, dsplit, unique_all's result, stat_length, and the linear-algebra result types
// and errors. Values are NumPy 2.4's printed answers (the call in a comment) or closed forms;
// scripts/api_coverage.py keeps every name of docs/api.md used by some test.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <xfuse/fft.hpp>
#include <xfuse/linalg.hpp>
#include <xfuse/xfuse.hpp>

#include "check.hpp"
#include "random.hpp"

namespace xf_test::api_coverage {

// Every value of `e` equals `want` exactly (NaN matches NaN), in C order, with element type T.
template <class T, class E>
void exactly(const E& e, const std::vector<T>& want, const std::string& what) {
  static_assert(std::is_same_v<xf::value_t<E>, T>, "the element type NumPy gives");
  require_all_close<T>(xf::to_host(e), want, 0, 0, what);
}

// ---------------------------------------------------------------- named operator functions
// np.subtract(a, b) and the rest on a = [-7, -3, 0, 2, 5, 9], b = [2, -3, 3, 2, -4, 4] (int32),
// s = [1, 2, 0, 3, 1, 2].
template <class Space>
void named_operator_functions() {
  using B = std::vector<bool>;
  using I = std::vector<int>;
  const auto a = xf::asarray<int, Space>({-7, -3, 0, 2, 5, 9});
  const auto b = xf::asarray<int, Space>({2, -3, 3, 2, -4, 4});
  const auto s = xf::asarray<int, Space>({1, 2, 0, 3, 1, 2});
  exactly(xf::add(a, b), I{-5, -6, 3, 4, 1, 13}, "add");
  exactly(xf::subtract(a, b), I{-9, 0, -3, 0, 9, 5}, "subtract");
  exactly(xf::multiply(a, b), I{-14, 9, 0, 4, -20, 36}, "multiply");
  exactly(xf::divide(a, b), std::vector<double>{-3.5, 1.0, 0.0, 1.0, -1.25, 2.25}, "divide");
  exactly(xf::true_divide(a, b), std::vector<double>{-3.5, 1.0, 0.0, 1.0, -1.25, 2.25}, "true_divide");
  exactly(xf::remainder(a, b), I{1, 0, 0, 0, -3, 1}, "remainder");  // the divisor's sign, as Python's %
  exactly(xf::mod(a, b), I{1, 0, 0, 0, -3, 1}, "mod");
  exactly(xf::equal(a, b), B{false, true, false, true, false, false}, "equal");
  exactly(xf::not_equal(a, b), B{true, false, true, false, true, true}, "not_equal");
  exactly(xf::less(a, b), B{true, false, true, false, false, false}, "less");
  exactly(xf::less_equal(a, b), B{true, true, true, true, false, false}, "less_equal");
  exactly(xf::greater(a, b), B{false, false, false, false, true, true}, "greater");
  exactly(xf::greater_equal(a, b), B{false, true, false, true, true, true}, "greater_equal");
  exactly(xf::logical_and(a, b), B{true, true, false, true, true, true}, "logical_and");
  exactly(xf::logical_or(a - 2, b - 2), B{true, true, true, false, true, true}, "logical_or");
  exactly(xf::bitwise_and(a, b), I{0, -3, 0, 2, 4, 0}, "bitwise_and");
  exactly(xf::bitwise_or(a, b), I{-5, -3, 3, 2, -3, 13}, "bitwise_or");
  exactly(xf::bitwise_xor(a, b), I{-5, 0, 3, 0, -7, 13}, "bitwise_xor");
  exactly(xf::left_shift(a, s), I{-14, -12, 0, 16, 10, 36}, "left_shift");
  exactly(xf::right_shift(a, s), I{-4, -1, 0, 0, 2, 2}, "right_shift");  // arithmetic: -7 >> 1 is -4
  exactly(xf::negative(a), I{7, 3, 0, -2, -5, -9}, "negative");
  exactly(xf::logical_not(a), B{false, false, true, false, false, false}, "logical_not");
  exactly(xf::invert(a), I{6, 2, -1, -3, -6, -10}, "invert");
  exactly(xf::bitwise_not(xf::asarray<std::uint8_t, Space>({0, 1, 200, 255})), std::vector<std::uint8_t>{255, 254, 55, 0},
          "bitwise_not of uint8");
  // np.absolute([-0., -2.5, 3., -inf, nan]): +0, no sign bit.
  const auto f = xf::to_host(xf::absolute(xf::asarray<double, Space>({-0.0, -2.5, 3.0, -INFINITY, NAN})));
  CHECK((f[0] == 0.0 && !std::signbit(f[0]) && f[1] == 2.5 && f[2] == 3.0 && f[3] == INFINITY && std::isnan(f[4])));
  // np.radians([0., 90., 180., -45., 1.]).
  require_all_close<double>(xf::to_host(xf::radians(xf::asarray<double, Space>({0, 90, 180, -45, 1}))),
                            {0.0, 1.5707963267948966, 3.141592653589793, -0.7853981633974483, 0.017453292519943295}, 2e-16, 0,
                            "radians");
  // np.conjugate([1+2j, -3.5-0.5j]).
  exactly(xf::conjugate(xf::asarray<xf::complex128, Space>({{1, 2}, {-3.5, -0.5}})),
          std::vector<xf::complex128>{{1, -2}, {-3.5, 0.5}}, "conjugate");
}

// ---------------------------------------------------------------- free-function views
// m = np.arange(24).reshape(2, 3, 4).
template <class Space>
void view_functions() {
  using I = std::vector<int>;
  const xf::array<int, 1, Space> flat = xf::arange<int>(24);
  const auto m = flat.reshape({2, 3, 4});
  const I transposed{0, 12, 4, 16, 8, 20, 1, 13, 5, 17, 9, 21, 2, 14, 6, 18, 10, 22, 3, 15, 7, 19, 11, 23};
  const auto t = xf::transpose(m);  // np.transpose(m): a view, shape (4, 3, 2)
  CHECK(t.shape() == xf::dims<3>{4, 3, 2});
  CHECK(t.data() == m.data());
  exactly(t, transposed, "transpose");
  exactly(xf::transpose(m, {1, 0, 2}), I{0, 1, 2, 3, 12, 13, 14, 15, 4, 5, 6, 7, 16, 17, 18, 19, 8, 9, 10, 11, 20, 21, 22, 23},
          "transpose(m, (1, 0, 2))");
  const auto p = m.permute({2, 0, 1});  // np.transpose(m, (2, 0, 1))
  CHECK(p.shape() == xf::dims<3>{4, 2, 3});
  exactly(p, I{0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23}, "permute");
  const auto r = xf::ravel(t);  // np.ravel(m.T): C order of the view, a copy
  CHECK(r.shape() == xf::dims<1>{24});
  exactly(r, transposed, "ravel of a transposed view");
  CHECK(xf::ravel(m).data() == m.data());  // contiguous: a view
  exactly(xf::flip(m, 1), I{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 20, 21, 22, 23, 16, 17, 18, 19, 12, 13, 14, 15}, "flip(m, 1)");
  exactly(xf::flip(m), I{23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, "flip(m)");
  const auto mm = flat(xf::slice(0, 12)).reshape({3, 4});
  exactly(xf::diagonal(mm, 1), I{1, 6, 11}, "diagonal(mm, 1)");
  exactly(xf::diagonal(mm, -1), I{4, 9}, "diagonal(mm, -1)");
  const auto d = xf::diagonal(m, 0, 1, 2);  // np.diagonal(m, 0, 1, 2): shape (2, 3)
  CHECK(d.shape() == xf::dims<2>{2, 3});
  exactly(d, I{0, 5, 10, 12, 17, 22}, "diagonal(m, 0, 1, 2)");
  exactly(xf::diagonal(m, 1, 0, 2), I{1, 14, 5, 18, 9, 22}, "diagonal(m, 1, 0, 2)");
  const auto sq = xf::squeeze(flat(xf::slice(0, 6)).reshape({3, 1, 2}), 1);  // np.squeeze(s, 1)
  CHECK(sq.shape() == xf::dims<2>{3, 2});
  exactly(sq, I{0, 1, 2, 3, 4, 5}, "squeeze");
  const auto sw = xf::swapaxes(m, 1, 2);  // np.swapaxes(m, 1, 2): shape (2, 4, 3)
  CHECK(sw.shape() == xf::dims<3>{2, 4, 3});
  exactly(sw, I{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, 12, 16, 20, 13, 17, 21, 14, 18, 22, 15, 19, 23}, "swapaxes");
  const auto r46 = xf::reshape(m, {4, 6});  // np.reshape(m, (4, 6)): a view of the same memory
  CHECK(r46.shape() == xf::dims<2>{4, 6});
  CHECK(r46.data() == m.data());
  exactly(xf::reshape(t, {-1}), transposed, "reshape of a transposed view: a copy in its C order");
  const auto first = flat(xf::slice(0, 3));
  CHECK(xf::expand_dims(first, 0).shape() == xf::dims<2>{1, 3});  // np.expand_dims(a, 0)
  const auto column = xf::expand_dims(first, -1);                  // np.expand_dims(a, -1)
  CHECK(column.shape() == xf::dims<2>{3, 1});
  exactly(column, I{0, 1, 2}, "expand_dims");
  const auto rows = xf::broadcast_to(first, {2, 3});  // np.broadcast_to(a, (2, 3)): zero strides
  CHECK(rows.strides() == xf::dims<2>{0, 1});
  exactly(rows, I{0, 1, 2, 0, 1, 2}, "broadcast_to");
  const auto halves = xf::dsplit(m, 2);  // np.dsplit(m, 2): two (2, 3, 2) views
  REQUIRE(halves.size() == 2);
  CHECK(halves[1].shape() == xf::dims<3>{2, 3, 2});
  exactly(halves[0], I{0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21}, "dsplit, first");
  exactly(halves[1], I{2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23}, "dsplit, second");
  CHECK_THROWS_AS(xf::dsplit(m, 3), xf::shape_error);  // 4 does not split in 3
}

// ---------------------------------------------------------------- deferred and NaN-skipping reductions
// x = [[1.5, nan, -2, 4], [nan, 3, 0.5, -1], [2, 2, nan, 8]] and y (no NaN):
// [[1.5, 2, -2, 4], [0.5, 3, 0.5, -1], [2, 2, -3, 8]].
template <class Space>
void deferred_and_nan_reductions() {
  using D = std::vector<double>;
  using L = std::vector<std::int64_t>;
  const auto x = xf::asarray<double, Space>({1.5, NAN, -2, 4, NAN, 3, 0.5, -1, 2, 2, NAN, 8}, {3, 4});
  const auto y = xf::asarray<double, Space>({1.5, 2, -2, 4, 0.5, 3, 0.5, -1, 2, 2, -3, 8}, {3, 4});
  const auto [prod, nanprod, nanmean, nanvar] =
      xf::eval(xf::lazy::prod(y, 1), xf::lazy::nanprod(x, 1), xf::lazy::nanmean(x, 1), xf::lazy::nanvar(x, 0));
  exactly(prod, D{-24, -0.75, -96}, "lazy::prod: np.prod(y, 1)");
  exactly(nanprod, D{-12, -1.5, 32}, "lazy::nanprod: np.nanprod(x, 1)");
  require_all_close<double>(xf::to_host(nanmean), {1.1666666666666667, 0.8333333333333334, 4.0}, 2e-16, 0, "lazy::nanmean");
  require_all_close<double>(xf::to_host(nanvar), {0.0625, 0.25, 1.5625, 13.555555555555555}, 4e-16, 0, "lazy::nanvar: axis 0");
  const auto [nanstd, nanmin, nanmax, ptp] =
      xf::eval(xf::lazy::nanstd(x, 1, xf::ddof(1)), xf::lazy::nanmin(x, 0), xf::lazy::nanmax(x, 1), xf::lazy::ptp(y, 0));
  require_all_close<double>(xf::to_host(nanstd), {3.013856886670854, 2.0207259421636903, 3.4641016151377544}, 4e-16, 0,
                            "lazy::nanstd: np.nanstd(x, 1, ddof=1)");
  exactly(nanmin, D{1.5, 2, -2, -1}, "lazy::nanmin: axis 0");
  exactly(nanmax, D{4, 3, 8}, "lazy::nanmax: axis 1");
  exactly(ptp, D{1.5, 1, 3.5, 9}, "lazy::ptp: np.ptp(y, 0)");
  const auto [argmin, argmax, any, all] =
      xf::eval(xf::lazy::nanargmin(x, 1), xf::lazy::nanargmax(x, 0), xf::lazy::any(x > 3, 1), xf::lazy::all(y > 0, 0));
  exactly(argmin, L{2, 3, 0}, "lazy::nanargmin: axis 1");
  exactly(argmax, L{2, 1, 1, 2}, "lazy::nanargmax: axis 0");
  exactly(any, std::vector<bool>{true, false, true}, "lazy::any: np.any(x > 3, 1)");
  exactly(all, std::vector<bool>{true, true, false, false}, "lazy::all: np.all(y > 0, 0)");
  // The same reductions run at once: nanmean, nanmin, nanmax, any; all through the xf::all tag.
  CHECK(xf::nanmean(x).item() == 2.0);
  exactly(xf::nanmean(x, 0, xf::keepdims), D{1.75, 2.5, -0.75, 3.6666666666666665}, "nanmean keepdims");
  CHECK(xf::nanmin(x).item() == -2.0);
  exactly(xf::nanmin(x, 1), D{-2, -1, 2}, "nanmin(x, 1)");
  CHECK(xf::nanmax(x).item() == 8.0);
  CHECK(xf::any(x).item());  // NaN is true
  CHECK_FALSE(xf::any(y > 8).item());
  exactly(xf::any(x > 3, 0), std::vector<bool>{false, false, false, true}, "any(x > 3, 0)");
  const xf::all_t every{};  // the type of xf::all: an index and the np.all reduction
  CHECK(every(y > -5).item());
  exactly(xf::all(y > 0, 0), std::vector<bool>{true, true, false, false}, "all(y > 0, 0)");
  exactly(y(1, every), D{0.5, 3, 0.5, -1}, "y[1, :]");
}

// ---------------------------------------------------------------- creation, tags and slicing types
template <class Space>
void creation_and_tags() {
  using D = std::vector<double>;
  const auto x = xf::asarray<float, Space>({1, 2, 3, 4, 5, 6}, {2, 3});
  auto e = xf::empty_like(x * 2.0f);  // np.empty_like: shape, type and space of the expression
  static_assert(std::is_same_v<decltype(e), xf::array<float, 2, Space>>);
  CHECK(e.shape() == x.shape());
  CHECK(e.data() != x.data());
  e.assign(x * 2.0f);
  exactly(e, std::vector<float>{2, 4, 6, 8, 10, 12}, "empty_like, then assign");
  // A generator has no space of its own: empty_like of one is a device array.
  static_assert(std::is_same_v<decltype(xf::empty_like(xf::arange<float>(3))), xf::array<float, 1, xf::device>>);
  const xf::array<int, 2, Space> eye = xf::identity<int>(3);  // np.identity(3, dtype=int)
  exactly(eye, std::vector<int>{1, 0, 0, 0, 1, 0, 0, 0, 1}, "identity<int>(3)");
  const xf::array<double, 2, Space> eye2 = xf::identity(2);  // float64 by default
  exactly(eye2, D{1, 0, 0, 1}, "identity(2)");
  // keepdims_t: the type of xf::keepdims (np.sum(x, 1, keepdims=True)).
  const auto rows = xf::sum(x, 1, xf::keepdims_t{});
  CHECK(rows.shape() == xf::dims<2>{2, 1});
  exactly(rows, std::vector<float>{6, 15}, "sum(x, 1, keepdims_t{})");
  // Slices built from slice_bound and none_t values: x[:, ::-1], x[1:, 1:], x[np.newaxis, 0].
  const xf::none_t none{};
  const xf::slice_bound from_one = 1, open = none, back = -1;
  CHECK((from_one.value == 1 && !from_one.none && open.none && back.value == -1));
  exactly(x(xf::all, xf::slice(open, open, back)), std::vector<float>{3, 2, 1, 6, 5, 4}, "x[:, ::-1]");
  exactly(x(xf::slice(from_one, open), xf::slice(from_one, open)), std::vector<float>{5, 6}, "x[1:, 1:]");
  const xf::newaxis_t add{};
  const auto row = x(add, 0);
  CHECK(row.shape() == xf::dims<2>{1, 3});
  exactly(row, std::vector<float>{1, 2, 3}, "x[np.newaxis, 0]");
  // fused_function: what xf::fuse returns, called on arrays.
  const xf::fused_function square_minus = xf::fuse([](auto a, auto b) { return a * a - b; }, "square_minus");
  const xf::array<float, 2, Space> fused = square_minus(x, x);
  exactly(fused, std::vector<float>{0, 2, 6, 12, 20, 30}, "fused_function");
  // stat_length: np.pad(v, 1, "maximum") reads all of the axis, as stat_length=None does.
  const auto v = xf::asarray<int, Space>({1, 5, 2, 4});
  exactly(xf::pad(v, 1, "maximum", xf::stat_length::all()), std::vector<int>{5, 1, 5, 2, 4, 5}, "pad maximum, stat_length all");
  exactly(xf::pad(v, 1, "mean", xf::stat_length::all()), std::vector<int>{3, 1, 5, 2, 4, 3}, "pad mean, stat_length all");
  CHECK(xf::stat_length::all().of(0, 1, 1, "xf::pad") == -1);
  CHECK(xf::stat_length(3).of(0, 0, 1, "xf::pad") == 3);
  const xf::index_t per_side[2][2] = {{1, 2}, {3, 4}};
  const xf::stat_length lengths(per_side);
  CHECK(lengths.of(0, 1, 2, "xf::pad") == 2);
  CHECK(lengths.of(1, 0, 2, "xf::pad") == 3);
  CHECK_THROWS_WITH(lengths.of(0, 0, 3, "xf::pad"), XF_CONTAINS("xf::pad: stat_length has 2 axes for an array of rank 3"));
}

// ---------------------------------------------------------------- unique_all's result type
template <class Space>
void unique_all_result_type() {
  // np.unique_all([3, 1, 3, 2, 1, 3]).
  const xf::unique_all_result<int, 1, Space> r = xf::unique_all(xf::asarray<int, Space>({3, 1, 3, 2, 1, 3}));
  exactly(r.values, std::vector<int>{1, 2, 3}, "values");
  exactly(r.indices, std::vector<std::int64_t>{1, 3, 0}, "indices");
  exactly(r.inverse_indices, std::vector<std::int64_t>{2, 0, 2, 1, 0, 2}, "inverse_indices");
  exactly(r.counts, std::vector<std::int64_t>{2, 1, 3}, "counts");
}

// ---------------------------------------------------------------- the random generator's aliases
// Each alias draws what the name it stands for draws from a generator in the same state (same
// seed, same draw count), and its mean is within 5 standard errors of the distribution's.
template <class Space>
void random_aliases() {
  const std::uint64_t s = seed();
  const xf::index_t n = 100000;
  xf::random::generator g(s), h(s);
  CHECK(g.seed() == s);
  const auto same_draw = [](const auto& alias, const auto& named, const char* what) {
    const auto a = xf::to_host(alias);
    INFO(what);
    CHECK(a == xf::to_host(named));
    long double total = 0;
    for (const auto v : a) total += v;
    return static_cast<double>(total / static_cast<long double>(a.size()));
  };
  const xf::array<double, 1, Space> unit = xf::random::rand({n}, g);
  const double m_unit = same_draw(unit, xf::array<double, 1, Space>(xf::random::uniform({n}, h)), "rand");
  CHECK(std::abs(m_unit - 0.5) <= 5 * std::sqrt(1.0 / 12 / n));
  CHECK(xf::min(unit).item() >= 0.0);
  CHECK(xf::max(unit).item() < 1.0);
  const xf::array<float, 1, Space> sample = xf::random::random_sample<float>({n}, g);
  same_draw(sample, xf::array<float, 1, Space>(xf::random::uniform<float>({n}, h)), "random_sample");
  const xf::array<double, 1, Space> randn = xf::random::randn({n}, g);
  CHECK(std::abs(same_draw(randn, xf::array<double, 1, Space>(xf::random::normal({n}, h)), "randn")) <= 5 / std::sqrt(n));
  const xf::array<double, 1, Space> z = xf::random::standard_normal({n}, g);
  CHECK(std::abs(same_draw(z, xf::array<double, 1, Space>(xf::random::normal({n}, h)), "standard_normal")) <= 5 / std::sqrt(n));
  const xf::array<double, 1, Space> ex = xf::random::standard_exponential({n}, g);
  const double m_ex = same_draw(ex, xf::array<double, 1, Space>(xf::random::exponential({n}, h)), "standard_exponential");
  CHECK(std::abs(m_ex - 1) <= 5 / std::sqrt(n));
  const xf::array<double, 1, Space> ga = xf::random::standard_gamma({n}, g, 2.5);
  const double m_ga = same_draw(ga, xf::array<double, 1, Space>(xf::random::gamma({n}, h, 2.5)), "standard_gamma");
  CHECK(std::abs(m_ga - 2.5) <= 5 * std::sqrt(2.5 / n));
  CHECK(g.draws() == 6);
  // next_key: the seed's two halves and the draw count, which it advances as a draw does.
  xf::random::generator k(0x0000000500000007ull), drawn(0x0000000500000007ull);
  const auto first = k.next_key();
  CHECK((first.seed_lo == 7 && first.seed_hi == 5 && first.draw_lo == 0 && first.draw_hi == 0));
  CHECK(k.next_key().draw_lo == 1);
  CHECK(k.draws() == 2);
  (void)xf::random::uniform({4}, drawn);
  (void)xf::random::uniform({4}, drawn);
  const xf::array<double, 1, Space> after_keys = xf::random::rand({8}, k);
  const xf::array<double, 1, Space> after_draws = xf::random::uniform({8}, drawn);
  CHECK(xf::to_host(after_keys) == xf::to_host(after_draws));
}

// ---------------------------------------------------------------- ifft2
template <class Space>
void ifft2_values() {
  using C = xf::complex128;
  // z = [[1+2j, 3, 0], [-1j, 2, 5]].
  const auto z = xf::asarray<C, Space>(std::vector<C>{{1, 2}, {3, 0}, {0, 0}, {0, -1}, {2, 0}, {5, 0}}, {2, 3});
  // np.fft.ifft2(z).
  require_all_close<C>(xf::to_host(xf::ifft2(z)),
                       {{1.833333333333333, 0.16666666666666666}, {-0.6666666666666666, 0.16666666666666674},
                        {-0.6666666666666666, 0.16666666666666669}, {-0.4999999999999999, 0.5},
                        {0.49999999999999994, 1.3660254037844386}, {0.49999999999999994, -0.36602540378443865}},
                       1e-15, 1e-15, "ifft2");
  // np.fft.ifft2(z, s=(2, 2)) and np.fft.ifft2(z, norm="ortho").
  require_all_close<C>(xf::to_host(xf::ifft2(z, {2, 2})), {{1.5, 0.25}, {-1, 0.25}, {0.5, 0.75}, {0, 0.75}}, 1e-15, 1e-15,
                       "ifft2 s=(2, 2)");
  require_all_close<C>(xf::to_host(xf::ifft2(z, {}, {-2, -1}, xf::fft_norm::ortho)),
                       {{4.4907311951024935, 0.408248290463863}, {-1.632993161855452, 0.40824829046386296},
                        {-1.632993161855452, 0.408248290463863}, {-1.224744871391589, 1.2247448713915892},
                        {1.224744871391589, 3.346065214951232}, {1.224744871391589, -0.8965754721680536}},
                       1e-15, 1e-15, "ifft2 ortho");
  // The inverse of fft2.
  require_all_close<C>(xf::to_host(xf::ifft2(xf::fft2(z))), xf::to_host(z), 1e-15, 1e-15, "ifft2(fft2(z))");
}

// ---------------------------------------------------------------- linear algebra names
template <class Space>
void linalg_names() {
  using D = std::vector<double>;
  // a = [[1, 2, 3], [4, 5, 6]], b = [[1, 0], [0, 1], [2, -1]], c = [10, 20]: a @ b and 2 (a @ b) + 0.5 c.
  const auto a = xf::asarray<double, Space>({1, 2, 3, 4, 5, 6}, {2, 3});
  const auto b = xf::asarray<double, Space>({1, 0, 0, 1, 2, -1}, {3, 2});
  const auto c = xf::asarray<double, Space>({10, 20});
  const xf::matmul_expr product = xf::matmul(a, b);
  static_assert(std::is_same_v<typename decltype(product)::result_type, xf::array<double, 2, Space>>);
  const xf::array<double, 2, Space> ab = xf::matmul(a, b);  // converts: the GEMM runs
  exactly(ab, D{7, -1, 16, -1}, "a @ b");
  const xf::array<double, 2, Space> scaled = product.scaled(2.0).plus(c, 0.5);
  exactly(scaled, D{19, 8, 37, 8}, "2 (a @ b) + 0.5 c");
  exactly(product.eval(), D{7, -1, 16, -1}, "scaled() made a new product");
  // matmul_options: TF32 inputs of a few bits give exact float products.
  xf::matmul_options tf32;
  tf32.allow_tf32 = true;
  exactly(xf::matmul(a.template astype<float>(), b.template astype<float>(), tf32), std::vector<float>{7, -1, 16, -1},
          "matmul with allow_tf32");
  // The result types of the factorizations, named: NumPy's answers or closed forms.
  const auto m = xf::asarray<double, Space>({1, 2, 3, 4}, {2, 2});
  const xf::linalg::qr_result<double, 2, Space> qr = xf::linalg::qr(m);  // |R| = [[sqrt(10), 14/sqrt(10)], [0, 2/sqrt(10)]]
  const auto r = xf::to_host(qr.R);
  CHECK(std::abs(std::abs(r[0]) - std::sqrt(10.0)) < 1e-14);
  CHECK(std::abs(std::abs(r[1]) - 14 / std::sqrt(10.0)) < 1e-14);
  CHECK(r[2] == 0);
  CHECK(std::abs(std::abs(r[3]) - 2 / std::sqrt(10.0)) < 1e-14);
  require_all_close<double>(xf::to_host(xf::matmul(qr.Q, qr.R)), {1, 2, 3, 4}, 1e-14, 1e-14, "Q R");
  const xf::linalg::slogdet_result<double, 0, Space> sd = xf::linalg::slogdet(m);  // det = -2
  CHECK(sd.sign.item() == -1.0);
  CHECK(std::abs(sd.logabsdet.item() - std::log(2.0)) < 1e-15);
  const xf::linalg::eigh_result<double, 2, Space> eh = xf::linalg::eigh(xf::asarray<double, Space>({2, 1, 1, 2}, {2, 2}));
  require_all_close<double>(xf::to_host(eh.eigenvalues), {1, 3}, 1e-15, 1e-15, "eigh: eigenvalues 1 and 3");
  const double h = std::sqrt(0.5);
  const auto ev = xf::to_host(eh.eigenvectors);  // columns +-[-1, 1] / sqrt(2) and +-[1, 1] / sqrt(2)
  CHECK((std::abs(std::abs(ev[0]) - h) < 1e-15 && std::abs(ev[0] + ev[2]) < 1e-15 && std::abs(ev[1] - ev[3]) < 1e-15));
  const xf::linalg::eig_result<double, 2, Space> eg = xf::linalg::eig(xf::asarray<double, Space>({2, 0, 0, 3}, {2, 2}));
  exactly(eg.eigenvalues, std::vector<xf::complex128>{{2, 0}, {3, 0}}, "eig of diag(2, 3)");
  const xf::linalg::svd_result<double, 2, Space> sv = xf::linalg::svd(xf::asarray<double, Space>({3, 0, 0, -4}, {2, 2}));
  exactly(sv.S, D{4, 3}, "svd of diag(3, -4)");
  require_all_close<double>(xf::to_host(xf::matmul(sv.U * sv.S(xf::newaxis, xf::all), sv.Vh)), {3, 0, 0, -4}, 1e-15, 1e-15,
                            "U S Vh");
  // np.linalg.lstsq([[1, 0], [0, 1], [1, 1]], [1, 2, 4]): x = [4/3, 7/3], residual 1/3, rank 2, sqrt(3) and 1.
  const xf::linalg::lstsq_result<double, 1, Space> ls =
      xf::linalg::lstsq(xf::asarray<double, Space>({1, 0, 0, 1, 1, 1}, {3, 2}), xf::asarray<double, Space>({1, 2, 4}));
  require_all_close<double>(xf::to_host(ls.x), {4.0 / 3, 7.0 / 3}, 1e-15, 0, "lstsq x");
  require_all_close<double>(xf::to_host(ls.residuals), {1.0 / 3}, 1e-14, 0, "lstsq residuals");
  CHECK(ls.rank.item() == 2);
  require_all_close<double>(xf::to_host(ls.singular_values), {std::sqrt(3.0), 1}, 1e-15, 0, "lstsq singular values");
  // norm_order's kinds: 'fro', 'nuc' and a number; [[1, 2], [3, 4]] has singular values with
  // s1^2 + s2^2 = 30 and s1 s2 = 2, so its nuclear norm is sqrt(34).
  const xf::linalg::norm_order fro("fro"), nuc("nuc"), two(2);
  const xf::linalg::norm_order::kind_t kinds[3] = {fro.kind, nuc.kind, two.kind};
  CHECK((kinds[0] == xf::linalg::norm_order::frobenius && kinds[1] == xf::linalg::norm_order::nuclear &&
         kinds[2] == xf::linalg::norm_order::number));
  CHECK(std::abs(xf::linalg::norm(m, fro).item() - std::sqrt(30.0)) < 1e-14);
  CHECK(std::abs(xf::linalg::norm(m, nuc).item() - std::sqrt(34.0)) < 1e-14);
  CHECK(std::abs(xf::linalg::norm(m, two).item() - std::sqrt(15 + std::sqrt(221.0))) < 1e-14);
  // linalg_error: which matrix of the batch, and LAPACK's info (the 1-based zero pivot).
  const auto stack = xf::asarray<double, Space>({1, 2, 3, 4, 1, 0, 0, 0}, {2, 2, 2});
  try {
    (void)xf::to_host(xf::linalg::inv(stack));
    FAIL("no xf::linalg_error for a singular matrix");
  } catch (const xf::linalg_error& e) {
    CHECK(e.batch_index() == 1);
    CHECK(e.info() == 2);
    CHECK_THAT(e.what(), XF_CONTAINS("matrix 1 of the batch, LAPACK info 2"));
  }
}

}  // namespace xf_test::api_coverage
