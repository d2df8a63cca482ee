// Device results against references computed on the host from the input values alone (long
// double math, brute-force positions from shape and strides, std::stable_sort), never through
// xfuse's host evaluator, which shares the plan and layout code with the kernels: element-wise
// functions, expressions over random views of ranks 0 to 6 (tests/common/layout_cases.hpp), the
// kernels' walks over large contiguous, transposed, broadcast and strided operands, and
// reductions, scans and sorts of views.
#include <cmath>
#include <complex>

#include "../common/elementwise.hpp"
#include "../common/layout_cases.hpp"

using namespace xf_test;
using xf::index_t;

namespace {

constexpr std::size_t n = 100003;  // odd: the vector body and the scalar tail

#define UNARY(NAME) [](const auto& a) { return xf::NAME(a); }
#define BINARY(EXPR) [](const auto& a, const auto& b) { return EXPR; }

// CUDA's math functions are within a few ulps of the truth (2 to 4 for sin, exp, pow, erfc in
// float); 16-bit floats compute in float and round once.
template <class T>
double device_rtol() {
  if constexpr (xf::is_low_precision<xf::real_t<T>>) return eps<T>();
  else return 8 * eps<T>();
}

template <class T, class Make, class Ref>
void device_unary(const std::string& name, const std::vector<T>& in, Make make, Ref ref, double rtol, double atol) {
  const auto result = xf::eval(make(xf::asarray<T>(in)));
  static_assert(std::is_same_v<xf::space_t<decltype(result)>, xf::device>);
  using R = xf::value_t<decltype(result)>;
  std::vector<R> want(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) want[i] = ref(in[i]);
  require_all_close(xf::to_host(result), want, rtol, atol, name + " on the device, " + xf::dtype_name<T>);
}

template <class A, class B, class Make, class Ref>
void device_binary(const std::string& name, const std::vector<A>& x, const std::vector<B>& y, Make make, Ref ref, double rtol,
                   double atol) {
  const auto result = xf::eval(make(xf::asarray<A>(x), xf::asarray<B>(y)));
  using R = xf::value_t<decltype(result)>;
  std::vector<R> want(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) want[i] = ref(x[i], y[i]);
  require_all_close(xf::to_host(result), want, rtol, atol, name + " on the device, " + xf::dtype_name<A> + ", " + xf::dtype_name<B>);
}

template <class T>
void real_functions() {
  const double rt = device_rtol<T>();
  auto ref = [](auto f) { return [f](const T& x) { return from_ld<T>(f(to_ld(x))); }; };
  auto ref2 = [](auto f) { return [f](const T& a, const T& b) { return from_ld<T>(f(to_ld(a), to_ld(b))); }; };
  device_unary<T>("sqrt", uniform<T>(n, 0, 100), UNARY(sqrt), ref([](ld x) { return sqrtl(x); }), rt, 0);
  device_unary<T>("exp", uniform<T>(n, -10, 10), UNARY(exp), ref([](ld x) { return expl(x); }), rt, 0);
  device_unary<T>("log", uniform<T>(n, 0.01, 100), UNARY(log), ref([](ld x) { return logl(x); }), rt, rt);
  device_unary<T>("sin", uniform<T>(n, -10, 10), UNARY(sin), ref([](ld x) { return sinl(x); }), rt, rt);
  device_unary<T>("tanh", uniform<T>(n, -5, 5), UNARY(tanh), ref([](ld x) { return tanhl(x); }), rt, rt);
  device_unary<T>("erfc", uniform<T>(n, -3, 3), UNARY(erfc), ref([](ld x) { return erfcl(x); }), rt, rt);
  device_unary<T>("relu", uniform<T>(n, -10, 10), UNARY(relu), ref([](ld x) { return x < 0 ? 0.0L : x; }), 0, 0);
  device_unary<T>("gelu", uniform<T>(n, -6, 6), UNARY(gelu), ref([](ld x) { return x / 2 * (1 + erfl(x / sqrtl(2.0L))); }), rt, rt);
  device_unary<T>("gelu_tanh", uniform<T>(n, -6, 6), UNARY(gelu_tanh),
                  ref([](ld x) { return x / 2 * (1 + tanhl(sqrtl(2 / acosl(-1.0L)) * (x + 0.044715L * x * x * x))); }), rt, rt);
  device_unary<T>("arctan", uniform<T>(n, -10, 10), UNARY(arctan), ref([](ld x) { return atanl(x); }), rt, rt);
  device_unary<T>("floor", uniform<T>(n, -10, 10), UNARY(floor), ref([](ld x) { return floorl(x); }), 0, 0);
  const auto x = uniform<T>(n, -100, 100), y = uniform<T>(n, -100, 100), nz = uniform<T>(n, 0.5, 9);
  // Arithmetic is correctly rounded; the reference rounds twice (to long double, then to T), and
  // 16-bit floats compute in float, then round: one ulp apart at most.
  const double at = eps<T>();
  device_binary<T, T>("add", x, y, BINARY(a + b), ref2([](ld a, ld b) { return a + b; }), at, 0);
  device_binary<T, T>("multiply", x, y, BINARY(a * b), ref2([](ld a, ld b) { return a * b; }), at, 0);
  device_binary<T, T>("divide", x, nz, BINARY(a / b), ref2([](ld a, ld b) { return a / b; }), at, 0);
  device_binary<T, T>("remainder", x, nz, BINARY(a % b), ref2([](ld a, ld b) { return a - b * floorl(a / b); }), 4 * eps<T>(), 40 * eps<T>());
  device_binary<T, T>("power", uniform<T>(n, 0.1, 4), uniform<T>(n, -3, 3), BINARY(xf::power(a, b)), ref2([](ld a, ld b) { return powl(a, b); }),
                      rt, 0);
  device_binary<T, T>("arctan2", x, y, BINARY(xf::arctan2(a, b)), ref2([](ld a, ld b) { return atan2l(a, b); }), rt, rt);
  const auto near_x = uniform<T>(n, -6, 6), near_y = uniform<T>(n, -6, 6);
  device_binary<T, T>("logaddexp", near_x, near_y, BINARY(xf::logaddexp(a, b)), ref2([](ld a, ld b) { return logl(expl(a) + expl(b)); }), rt,
                      2 * eps<T>());
  // Comparisons and classification with NaN and infinities, ties at every third place.
  auto xs = x, ys = y;
  const double specials[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0};
  for (std::size_t i = 0; i < n; i += 7) xs[i] = xf::detail::convert<T>(specials[(i / 7) % 5]);
  for (std::size_t i = 0; i < n; i += 3) ys[i] = xs[i];
  device_binary<T, T>("less_equal", xs, ys, BINARY(a <= b), [](const T& a, const T& b) { return to_ld(a) <= to_ld(b); }, 0, 0);
  device_binary<T, T>("not_equal", xs, ys, BINARY(a != b), [](const T& a, const T& b) { return to_ld(a) != to_ld(b); }, 0, 0);
  device_binary<T, T>("maximum", xs, ys, BINARY(xf::maximum(a, b)), [](const T& a, const T& b) {
    const ld p = to_ld(a), q = to_ld(b);
    return from_ld<T>(std::isnan(p) || std::isnan(q) ? NAN : (p >= q ? p : q));
  }, 0, 0);
  device_unary<T>("isfinite", xs, UNARY(isfinite), [](const T& a) { return std::isfinite(to_ld(a)); }, 0, 0);
}

// Python's floor division and modulo of integers, in 128 bits.
template <class T>
void integer_functions() {
  const auto x = full_range<T>(n), d = uniform<T>(n, -7, 7);
  device_binary<T, T>("floor_divide", x, d, BINARY(xf::floor_divide(a, b)), [](T a, T b) {
    if (b == 0) return T(0);
    const __int128 p = a, q = b;
    __int128 r = p / q;
    if (p % q != 0 && ((p < 0) != (q < 0))) --r;
    return static_cast<T>(r);
  }, 0, 0);
  device_binary<T, T>("remainder", x, d, BINARY(a % b), [](T a, T b) {
    if (b == 0) return T(0);
    const __int128 p = a, q = b;
    __int128 m = p % q;
    if (m != 0 && ((m < 0) != (q < 0))) m += q;
    return static_cast<T>(m);
  }, 0, 0);
  device_binary<T, T>("multiply", x, full_range<T>(n), BINARY(a * b), [](T a, T b) {
    return static_cast<T>(static_cast<unsigned __int128>(a) * static_cast<unsigned __int128>(b));
  }, 0, 0);
  device_binary<T, T>("right_shift", x, uniform<T>(n, -2, 8 * sizeof(T) + 2), BINARY(a >> b), [](T a, T b) {
    if (b < 0 || b >= static_cast<T>(8 * sizeof(T))) return static_cast<T>(a < 0 ? -1 : 0);
    return static_cast<T>(a >> b);
  }, 0, 0);
}

template <class T>
void complex_functions() {
  const double rt = 16 * eps<T>();
  auto cref = [](auto f) { return [f](const T& x) { return from_ld<T>(f(to_cld(x))); }; };
  const auto in = uniform<T>(n, -2, 2), other = uniform<T>(n, -2, 2);
  device_unary<T>("exp", in, UNARY(exp), cref([](std::complex<ld> z) { return std::exp(z); }), rt, rt);
  device_unary<T>("log", in, UNARY(log), cref([](std::complex<ld> z) { return std::log(z); }), rt, rt);
  device_unary<T>("sqrt", in, UNARY(sqrt), cref([](std::complex<ld> z) { return std::sqrt(z); }), rt, rt);
  device_binary<T, T>("multiply", in, other, BINARY(a * b), [](const T& x, const T& y) { return from_ld<T>(to_cld(x) * to_cld(y)); }, rt, rt);
  device_binary<T, T>("divide", in, other, BINARY(a / b), [](const T& x, const T& y) { return from_ld<T>(to_cld(x) / to_cld(y)); }, rt, rt);
  auto tied = other;
  for (std::size_t i = 0; i < n; i += 3) tied[i] = in[i];
  for (std::size_t i = 1; i < n; i += 6) tied[i] = T(in[i].real(), other[i].imag());
  device_binary<T, T>("equal", in, tied, BINARY(a == b), [](const T& x, const T& y) { return to_cld(x) == to_cld(y); }, 0, 0);
}

std::vector<std::int32_t> ints(std::size_t count) { return uniform<std::int32_t>(count, -1000, 1000); }

// The kernels' walks at sizes where they differ: bulk copies of contiguous operands, tiles
// transposed through shared memory, broadcast rows and columns, reversed and stepped views, a
// strided destination. int32 values: every answer exact.
void walks() {
  {  // contiguous: 3 M elements, an odd count
    const std::size_t m = 3'000'001;
    const auto xv = ints(m), yv = ints(m);
    std::vector<std::int32_t> want(m);
    for (std::size_t i = 0; i < m; ++i) want[i] = xv[i] * 3 - yv[i];
    require_equal(xf::to_host(xf::eval(xf::asarray<std::int32_t>(xv) * 3 - xf::asarray<std::int32_t>(yv))), want, "x * 3 - y, 3000001 elements");
  }
  {  // A + B.T(): B's rows are A's columns
    const index_t r = 1000, c = 1201;
    const auto av = ints(static_cast<std::size_t>(r * c)), bv = ints(static_cast<std::size_t>(r * c));
    const auto a = xf::asarray<std::int32_t>(av, {r, c}), b = xf::asarray<std::int32_t>(bv, {c, r});
    std::vector<std::int32_t> want(av.size());
    for (index_t i = 0; i < r; ++i)
      for (index_t j = 0; j < c; ++j) want[static_cast<std::size_t>(i * c + j)] = av[static_cast<std::size_t>(i * c + j)] + 2 * bv[static_cast<std::size_t>(j * r + i)];
    require_equal(xf::to_host(xf::eval(a + 2 * b.T())), want, "A + 2 B.T(), (1000, 1201)");
    // Into a destination walked backwards along its rows: out[:, ::-1] = A - B.T()
    const xf::array<std::int32_t, 2> out({r, c});
    out(xf::all, xf::slice(xf::_, xf::_, -1)).assign(a - b.T());
    for (index_t i = 0; i < r; ++i)
      for (index_t j = 0; j < c; ++j)
        want[static_cast<std::size_t>(i * c + (c - 1 - j))] = av[static_cast<std::size_t>(i * c + j)] - bv[static_cast<std::size_t>(j * r + i)];
    require_equal(xf::to_host(out), want, "out[:, ::-1] = A - B.T()");
  }
  {  // a column and a row broadcast against each other
    const index_t r = 2000, c = 3001;
    const auto colv = ints(static_cast<std::size_t>(r)), rowv = ints(static_cast<std::size_t>(c));
    const auto col = xf::asarray<std::int32_t>(colv, {r, 1});
    const auto row = xf::asarray<std::int32_t>(rowv, {c});
    std::vector<std::int32_t> want(static_cast<std::size_t>(r * c));
    for (index_t i = 0; i < r; ++i)
      for (index_t j = 0; j < c; ++j) want[static_cast<std::size_t>(i * c + j)] = colv[static_cast<std::size_t>(i)] * 7 + rowv[static_cast<std::size_t>(j)];
    require_equal(xf::to_host(xf::eval(col * 7 + row)), want, "column * 7 + row, (2000, 3001)");
  }
  {  // X[::-1, ::2] * X[:, 1::2]: reversed rows, every other column
    const index_t r = 1500, c = 4002;
    const auto xv = ints(static_cast<std::size_t>(r * c));
    const auto x = xf::asarray<std::int32_t>(xv, {r, c});
    std::vector<std::int32_t> want;
    for (index_t i = 0; i < r; ++i)
      for (index_t j = 0; j < c / 2; ++j)
        want.push_back(xv[static_cast<std::size_t>((r - 1 - i) * c + 2 * j)] * xv[static_cast<std::size_t>(i * c + 2 * j + 1)]);
    require_equal(xf::to_host(xf::eval(x(xf::slice(xf::_, xf::_, -1), xf::slice(xf::_, xf::_, 2)) * x(xf::all, xf::slice(1, xf::_, 2)))), want,
                  "X[::-1, ::2] * X[:, 1::2], (1500, 4002)");
  }
}

// Reductions, scans and sorts of a large view: every other row of a (600, 4100) double array,
// columns reversed, transposed (shape (4100, 300), neither axis contiguous).
void large_view_reductions() {
  const index_t rows = 600, cols = 4100;
  auto v = uniform<double>(static_cast<std::size_t>(rows * cols), -10, 10);
  for (std::size_t i = 0; i < v.size(); i += 5) v[i] = std::round(v[i]);  // ties for argmax and the sort
  const auto base = xf::asarray<double>(v, {rows, cols});
  const auto x = base(xf::slice(xf::_, xf::_, 2), xf::slice(xf::_, xf::_, -1)).T();  // x[i, j] = v[2 j, cols - 1 - i]
  const index_t s0 = cols, s1 = rows / 2;
  REQUIRE(x.shape() == xf::dims<2>{s0, s1});
  auto at = [&](index_t i, index_t j) { return static_cast<long double>(v[static_cast<std::size_t>(2 * j * cols + (cols - 1 - i))]); };
  const long double eps = 2.220446049250313e-16L;
  for (const int axis : {0, 1}) {
    const index_t outer = axis == 0 ? s1 : s0, inner = axis == 0 ? s0 : s1;
    const auto sum = xf::to_host(xf::sum(x, axis)), var = xf::to_host(xf::var(x, axis));
    const auto low = xf::to_host(xf::min(x, axis));
    const auto arg = xf::to_host(xf::argmax(x, axis));
    std::size_t bad = 0;
    for (index_t o = 0; o < outer; ++o) {
      long double s = 0, a = 0, sq = 0, lo = INFINITY, hi = -INFINITY;
      index_t hi_at = -1;
      for (index_t k = 0; k < inner; ++k) {
        const long double e = axis == 0 ? at(k, o) : at(o, k);
        s += e;
        a += std::fabs(e);
        sq += e * e;
        lo = std::min(lo, e);
        if (e > hi) {
          hi = e;
          hi_at = k;
        }
      }
      const long double nd = static_cast<long double>(inner), mu = s / nd;
      bad += !(std::fabs(sum[static_cast<std::size_t>(o)] - s) <= nd * eps * a);
      bad += !(std::fabs(var[static_cast<std::size_t>(o)] - (sq / nd - mu * mu)) <= 1e-9L * sq / nd);
      bad += low[static_cast<std::size_t>(o)] != lo;
      bad += arg[static_cast<std::size_t>(o)] != hi_at;
    }
    INFO("sum, var, min, argmax of the (4100, 300) view along axis " << axis << ": " << bad << " differ");
    CHECK(bad == 0);
  }
  {
    long double s = 0, a = 0;
    for (index_t i = 0; i < s0; ++i)
      for (index_t j = 0; j < s1; ++j) {
        s += at(i, j);
        a += std::fabs(at(i, j));
      }
    const long double total = static_cast<long double>(s0 * s1);
    CHECK(std::fabs(xf::sum(x).item() - s) <= total * eps * a);
    CHECK(std::fabs(xf::mean(x).item() - s / total) <= (total + 1) * eps * a / total);
  }
  {  // cumsum along each axis: prefix k errs by at most k u times its sum of magnitudes
    for (const int axis : {0, 1}) {
      const auto got = xf::to_host(xf::cumsum(x, axis));
      REQUIRE(got.size() == static_cast<std::size_t>(s0 * s1));
      std::size_t bad = 0;
      const index_t outer = axis == 0 ? s1 : s0, inner = axis == 0 ? s0 : s1;
      for (index_t o = 0; o < outer; ++o) {
        long double s = 0, a = 0;
        for (index_t k = 0; k < inner; ++k) {
          const index_t i = axis == 0 ? k : o, j = axis == 0 ? o : k;
          s += at(i, j);
          a += std::fabs(at(i, j));
          bad += !(std::fabs(got[static_cast<std::size_t>(i * s1 + j)] - s) <= static_cast<long double>(k + 1) * eps * a);
        }
      }
      INFO("cumsum of the (4100, 300) view along axis " << axis << ": " << bad << " differ");
      CHECK(bad == 0);
    }
  }
  {  // sort and argsort along the last axis (rows of 300 with ties), and of the view's transpose
    for (const bool transposed : {false, true}) {
      const auto y = transposed ? x.T() : x;
      const index_t lines = transposed ? s1 : s0, len = transposed ? s0 : s1;
      const auto sorted = xf::to_host(xf::sort(y));
      const auto order = xf::to_host(xf::argsort(y));
      std::size_t bad = 0;
      for (index_t l = 0; l < lines; ++l) {
        std::vector<std::pair<long double, std::int64_t>> line;
        for (index_t k = 0; k < len; ++k) line.emplace_back(transposed ? at(k, l) : at(l, k), k);
        std::stable_sort(line.begin(), line.end(), [](const auto& p, const auto& q) { return p.first < q.first; });
        for (index_t k = 0; k < len; ++k) {
          const auto g = static_cast<std::size_t>(l * len + k);
          bad += sorted[g] != line[static_cast<std::size_t>(k)].first || order[g] != line[static_cast<std::size_t>(k)].second;
        }
      }
      INFO("sort and argsort of the " << (transposed ? "(300, 4100)" : "(4100, 300)") << " view: " << bad << " differ");
      CHECK(bad == 0);
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("device math against long double", "[gpu][independent]", xf::half, float, double) {
  real_functions<TestType>();
}

TEMPLATE_TEST_CASE("device integer division, products and shifts against 128-bit arithmetic", "[gpu][independent]", std::int32_t, std::int64_t) {
  integer_functions<TestType>();
}

TEMPLATE_TEST_CASE("device complex functions against std::complex<long double>", "[gpu][independent][complex]", xf::complex64, xf::complex128) {
  complex_functions<TestType>();
}

TEST_CASE("expressions over random views on the device write what brute force says", "[gpu][independent][layout]") {
  layouts::expressions_of_every_rank<xf::device, std::int64_t>(60);
  layouts::expressions_of_every_rank<xf::device, std::int32_t>(30);
  layouts::public_views<xf::device>(100);
}

TEST_CASE("the device's walks over large operands against brute force", "[gpu][independent][layout]") {
  walks();
}

TEST_CASE("device reductions, scans and sorts of views against long double", "[gpu][independent][reduce]") {
  layouts::reductions_of_views<xf::device>(40, 8);
  large_view_reductions();
}
