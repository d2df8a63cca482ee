// Reduction cases shared by the host suite (host arrays) and the GPU suite (device arrays): every
// reduction on every element type it takes, over all axes, one axis, several axes and keepdims, on
// plain arrays, views and expressions, against the long double references of reduce_reference.hpp.
#pragma once

#include <string>
#include <vector>

#include <xfuse/reduce.hpp>

#include "reduce_reference.hpp"

namespace xf_test {

// The reductions of a rank-3 input, each listed with its axes (empty: all of them).
inline const std::vector<std::vector<int>> axis_sets = {{}, {0}, {1}, {2}, {0, 2}, {1, 2}, {-1, 0}};

// Calls reduction `R` of `x` over `axes` and returns its values on the host.
template <class Reduce, class X>
auto reduced_values(const Reduce& reduce, const X& x, const std::vector<int>& axes) {
  switch (axes.size()) {
    case 0: return xf::to_host(reduce(x));
    case 1: return xf::to_host(reduce(x, axes[0]));
    default: {
      const int two[2] = {axes[0], axes[1]};
      return xf::to_host(reduce(x, two));
    }
  }
}

template <class Got>
void require_sums(const std::vector<Got>& got, const std::vector<sum_abs>& want, long double divisor, double rel,
                  const std::string& what) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const long double w = want[i].sum / divisor, g = ld(got[i]);
    if (std::isinf(w)) {  // an infinite element: the sum is that infinity exactly
      INFO(what << " at " << i);
      REQUIRE(g == w);
      continue;
    }
    const long double tol = rel * (want[i].abs / divisor + std::fabs(w)) + 1e-30L;
    if (!(std::fabs(g - w) <= tol)) {
      INFO(what << " at " << i << ": got " << static_cast<double>(g) << ", want " << static_cast<double>(w));
      REQUIRE(std::fabs(g - w) <= tol);
    }
  }
}

// Relative tolerance of a float reduction's result against long double.
template <class T>
double reduce_rtol() {
  if constexpr (xf::is_low_precision<T>) return 8e-3;
  else if constexpr (std::is_same_v<xf::real_t<T>, float>) return 2e-5;
  else return 1e-12;
}

#define XF_REDUCER(NAME) [](const auto& a, const auto&... rest) { return xf::NAME(a, rest...); }

template <class Space, class T>
void sums_and_means(const shape_t& s) {
  const std::size_t n = static_cast<std::size_t>(s[0] * s[1] * s[2]);
  const bool is_int = xf::is_integer<T> || xf::is_bool<T>;
  const auto v = is_int ? full_range<T>(n) : uniform<T>(n, -10, 10);
  const auto x = xf::asarray<T, Space>(v, {s[0], s[1], s[2]});
  using Sum = xf::value_t<decltype(xf::sum(x))>;
  const double rt = is_int ? 0 : reduce_rtol<Sum>();
  for (const auto& axes : axis_sets) {
    const std::string what = std::string(xf::dtype_name<T>) + " over " + std::to_string(axes.size()) + " axes";
    if constexpr (xf::is_integer<T> || xf::is_bool<T>) {
      // Integer sums are exact (int64 accumulation): compare with wrapped 64-bit arithmetic.
      const auto want = fold_axes(v, s, axes, std::uint64_t{0}, [](std::uint64_t a, const T& e, xf::index_t) {
        return a + static_cast<std::uint64_t>(static_cast<std::int64_t>(e));
      });
      const auto got = reduced_values(XF_REDUCER(sum), x, axes);
      REQUIRE(got.size() == want.size());
      for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(static_cast<std::uint64_t>(got[i]) == want[i]);
    } else {
      require_sums(reduced_values(XF_REDUCER(sum), x, axes), ref_sum(v, s, axes), 1, rt, "sum " + what);
    }
    require_sums(reduced_values(XF_REDUCER(mean), x, axes), ref_sum(v, s, axes),
                 static_cast<long double>(reduced_count(s, axes)), is_int ? 1e-14 : rt, "mean " + what);
  }
}

template <class Space, class T>
void variances(const shape_t& s) {
  const std::size_t n = static_cast<std::size_t>(s[0] * s[1] * s[2]);
  const auto v = uniform<T>(n, -3, 50);
  const auto x = xf::asarray<T, Space>(v, {s[0], s[1], s[2]});
  using Out = xf::value_t<decltype(xf::var(x))>;
  const double rt = std::is_same_v<Out, double> ? 1e-10 : xf::is_low_precision<Out> ? 1e-2 : 1e-4;
  for (const auto& axes : axis_sets) {
    for (const double dd : {0.0, 1.0}) {
      const auto want = ref_var(v, s, axes, dd);
      const auto var_got = reduced_values([&](const auto& a, const auto&... r) { return xf::var(a, r..., xf::ddof(dd)); }, x, axes);
      const auto std_got = reduced_values([&](const auto& a, const auto&... r) { return xf::std(a, r..., xf::ddof(dd)); }, x, axes);
      REQUIRE(var_got.size() == want.size());
      for (std::size_t i = 0; i < want.size(); ++i) {
        INFO(xf::dtype_name<T> << " var, ddof " << dd << ", " << axes.size() << " axes, result " << i);
        REQUIRE(std::fabs(ld(var_got[i]) - want[i]) <= rt * want[i]);
        REQUIRE(std::fabs(ld(std_got[i]) - std::sqrt(want[i])) <= rt * std::sqrt(want[i]));
      }
    }
  }
}

template <class Space, class T>
void extremes(const shape_t& s, bool with_nans) {
  const std::size_t n = static_cast<std::size_t>(s[0] * s[1] * s[2]);
  auto v = xf::is_integer<T> || xf::is_bool<T> ? full_range<T>(n) : uniform<T>(n, -1000, 1000);
  if constexpr (!xf::is_integer<T> && !xf::is_bool<T>) {
    if (with_nans)
      for (std::size_t i = 5; i < n; i += 97) v[i] = xf::detail::convert<T>(NAN);
    v[n / 3] = v[n / 2];  // a tie: the first index wins
  }
  const auto x = xf::asarray<T, Space>(v, {s[0], s[1], s[2]});
  for (const auto& axes : axis_sets) {
    for (const bool max : {false, true}) {
      const std::string what = std::string(xf::dtype_name<T>) + (max ? " max" : " min") + " over " +
                               std::to_string(axes.size()) + " axes";
      const auto want = ref_extreme(v, s, axes, max, false);
      const auto got = max ? reduced_values(XF_REDUCER(max), x, axes) : reduced_values(XF_REDUCER(min), x, axes);
      REQUIRE(got.size() == want.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        INFO(what << " at " << i);
        const long double g = ld(got[i]);
        REQUIRE(((g == want[i].value) || (g != g && want[i].value != want[i].value)));
      }
      if (axes.size() <= 1) {
        const auto arg = max ? reduced_values(XF_REDUCER(argmax), x, axes) : reduced_values(XF_REDUCER(argmin), x, axes);
        for (std::size_t i = 0; i < arg.size(); ++i) {
          INFO("arg" << what << " at " << i);
          REQUIRE(arg[i] == want[i].index);
        }
      }
      if constexpr (!xf::is_integer<T> && !xf::is_bool<T>) {
        const auto skip = ref_extreme(v, s, axes, max, true);
        const auto nan_got = max ? reduced_values(XF_REDUCER(nanmax), x, axes) : reduced_values(XF_REDUCER(nanmin), x, axes);
        for (std::size_t i = 0; i < nan_got.size(); ++i) {
          INFO("nan" << what << " at " << i);
          REQUIRE(ld(nan_got[i]) == skip[i].value);
        }
      }
    }
  }
}

template <class Space, class T>
void nan_skipping(const shape_t& s) {
  const std::size_t n = static_cast<std::size_t>(s[0] * s[1] * s[2]);
  auto v = uniform<T>(n, -10, 10);
  for (std::size_t i = 3; i < n; i += 11) v[i] = xf::detail::convert<T>(NAN);
  const auto x = xf::asarray<T, Space>(v, {s[0], s[1], s[2]});
  for (const auto& axes : axis_sets) {
    const auto want = ref_sum(v, s, axes, true);
    require_sums(reduced_values(XF_REDUCER(nansum), x, axes), want, 1, reduce_rtol<T>(), "nansum");
    const auto counts = fold_axes(v, s, axes, xf::index_t{0}, [](xf::index_t c, const T& e, xf::index_t) {
      return c + (ld(e) == ld(e) ? 1 : 0);
    });
    const auto mean = reduced_values(XF_REDUCER(nanmean), x, axes);
    for (std::size_t i = 0; i < mean.size(); ++i) {
      const long double w = want[i].sum / counts[i];
      REQUIRE(std::fabs(ld(mean[i]) - w) <= reduce_rtol<T>() * (want[i].abs / counts[i] + std::fabs(w)));
    }
    const auto plain = reduced_values(XF_REDUCER(sum), x, axes);  // NaN propagates without nan*
    for (const auto& p : plain) REQUIRE(ld(p) != ld(p));
  }
}

template <class Space, class T>
void logicals(const shape_t& s) {
  const std::size_t n = static_cast<std::size_t>(s[0] * s[1] * s[2]);
  // Mostly non-zero with a few zeros, so that all() varies between results.
  auto v = uniform<T>(n, 1, 3);
  for (std::size_t i = 0; i < n; i += 13 + i % 7) v[i] = T(0);
  const auto x = xf::asarray<T, Space>(v, {s[0], s[1], s[2]});
  for (const auto& axes : axis_sets) {
    const auto nz = fold_axes(v, s, axes, std::int64_t{0}, [](std::int64_t c, const T& e, xf::index_t) {
      return c + (ld(e) != 0 ? 1 : 0);
    });
    const auto count = reduced_values(XF_REDUCER(count_nonzero), x, axes);
    const auto any = reduced_values(XF_REDUCER(any), x, axes);
    const auto all = reduced_values([](const auto& a, const auto&... r) { return xf::all(a, r...); }, x, axes);
    const auto total = reduced_count(s, axes);
    for (std::size_t i = 0; i < nz.size(); ++i) {
      REQUIRE(count[i] == nz[i]);
      REQUIRE(static_cast<bool>(any[i]) == (nz[i] > 0));
      REQUIRE(static_cast<bool>(all[i]) == (nz[i] == total));
    }
  }
}

template <class Space, class T>
void products(const shape_t& s) {
  const std::size_t n = static_cast<std::size_t>(s[0] * s[1] * s[2]);
  const auto v = xf::is_integer<T> ? uniform<T>(n, std::is_signed_v<T> ? -3 : 0, 3) : uniform<T>(n, 0.5, 1.6);
  const auto x = xf::asarray<T, Space>(v, {s[0], s[1], s[2]});
  for (const std::vector<int> axes : {std::vector<int>{0}, std::vector<int>{1}, std::vector<int>{2}}) {
    const auto got = reduced_values(XF_REDUCER(prod), x, axes);
    if constexpr (xf::is_integer<T>) {  // int64 products wrap modulo 2^64, as NumPy's do
      const auto want = fold_axes(v, s, axes, std::uint64_t{1}, [](std::uint64_t a, const T& e, xf::index_t) {
        return a * static_cast<std::uint64_t>(static_cast<std::int64_t>(e));
      });
      for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(static_cast<std::uint64_t>(got[i]) == want[i]);
    } else {
      const auto want = fold_axes(v, s, axes, 1.0L, [](long double a, const T& e, xf::index_t) { return a * ld(e); });
      for (std::size_t i = 0; i < got.size(); ++i)
        REQUIRE(std::fabs(ld(got[i]) - want[i]) <= 4 * s[axes[0]] * eps<T>() * std::fabs(want[i]));
    }
  }
}

// Complex sums, means and variances (variance is real).
template <class Space, class C>
void complex_reductions(const shape_t& s) {
  using R = xf::real_t<C>;
  const std::size_t n = static_cast<std::size_t>(s[0] * s[1] * s[2]);
  const auto re = uniform<R>(n, -5, 5), im = uniform<R>(n, -5, 5);
  std::vector<C> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = C(re[i], im[i]);
  const auto x = xf::asarray<C, Space>(v, {s[0], s[1], s[2]});
  for (const auto& axes : axis_sets) {
    const auto got = reduced_values(XF_REDUCER(sum), x, axes);
    const auto want_re = ref_sum(re, s, axes), want_im = ref_sum(im, s, axes);
    std::vector<R> got_re, got_im;
    for (const auto& g : got) {
      got_re.push_back(g.real());
      got_im.push_back(g.imag());
    }
    require_sums(got_re, want_re, 1, reduce_rtol<R>(), "complex sum (real)");
    require_sums(got_im, want_im, 1, reduce_rtol<R>(), "complex sum (imag)");
    const auto var = reduced_values(XF_REDUCER(var), x, axes);
    const auto vr = ref_var(re, s, axes, 0), vi = ref_var(im, s, axes, 0);
    for (std::size_t i = 0; i < var.size(); ++i)
      REQUIRE(std::fabs(ld(var[i]) - (vr[i] + vi[i])) <= 1e-4 * (vr[i] + vi[i]));
  }
}

// Views and expressions as arguments: one pass over the leaves, no temporary.
template <class Space>
void expressions_and_views() {
  const shape_t s = {40, 77, 1};
  const auto a = uniform<float>(40 * 77, -2, 2), b = uniform<float>(77, -2, 2);
  const auto x = xf::asarray<float, Space>(a, {40, 77});
  const auto y = xf::asarray<float, Space>(b, {77});
  // sum(x * y) over axis 1 and over everything, y broadcast along axis 0.
  std::vector<float> prod(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) prod[i] = a[i] * b[i % 77];
  require_sums(xf::to_host(xf::sum(x * y, 1)), ref_sum(prod, s, {1}), 1, 2e-5, "sum(x * y, 1)");
  require_sums(xf::to_host(xf::sum(x * y)), ref_sum(prod, s, {}), 1, 2e-5, "sum(x * y)");
  // The transpose, reduced along its axis 1 (x's axis 0), and a reversed view.
  require_sums(xf::to_host(xf::sum(x.T(), 1)), ref_sum(a, s, {0}), 1, 2e-5, "sum(x.T(), 1)");
  std::vector<float> rev(a.size());
  for (std::size_t r = 0; r < 40; ++r)
    for (std::size_t c = 0; c < 77; ++c) rev[r * 77 + c] = a[r * 77 + (76 - c)];
  const auto rv = x(xf::all, xf::slice(xf::_, xf::_, -1));
  const auto want = ref_extreme(rev, s, {1}, true, false);
  const auto arg = xf::to_host(xf::argmax(rv, 1));
  for (std::size_t i = 0; i < arg.size(); ++i) REQUIRE(arg[i] == want[i].index);
  // keepdims keeps the rank, so the result broadcasts against the input (x - mean(x, 0)).
  const auto m = xf::mean(x, 0, xf::keepdims);
  STATIC_REQUIRE(decltype(m)::rank == 2);
  REQUIRE(m.shape() == xf::dims<2>{1, 77});
  const auto centred = xf::to_host(xf::eval(x - xf::mean(x, 0)));
  const auto col = ref_sum(a, s, {0});
  for (std::size_t i = 0; i < centred.size(); ++i)
    REQUIRE(std::fabs(centred[i] - (a[i] - static_cast<double>(col[i % 77].sum / 40))) <= 1e-5);
  const int both[2] = {0, 1};
  const auto k = xf::sum(x, both, xf::keepdims);
  REQUIRE(k.shape() == xf::dims<2>{1, 1});
  const auto full = xf::sum(x, xf::keepdims);
  REQUIRE(full.shape() == xf::dims<2>{1, 1});
  // A generator fuses into the reduction: sum of arange(n) is n(n-1)/2 (plus a zero array that
  // sets the space).
  const auto zero = xf::asarray<std::int32_t, Space>(std::vector<std::int32_t>{0});
  REQUIRE(xf::sum<std::int64_t>(xf::arange<std::int32_t>(100000) + zero).item() == std::int64_t{100000} * 99999 / 2);
}

// Empty inputs: identities, NaN for mean, errors where NumPy has no identity.
template <class Space>
void empty_inputs() {
  const xf::array<float, 2, Space> e({0, 5});
  REQUIRE(xf::sum(e).item() == 0.0f);
  REQUIRE(xf::prod(e).item() == 1.0f);
  REQUIRE(std::isnan(xf::mean(e).item()));
  REQUIRE_THROWS_AS(xf::min(e), xf::shape_error);
  REQUIRE_THROWS_AS(xf::argmax(e), xf::shape_error);
  REQUIRE_THROWS_WITH(xf::max(e, 0), XF_CONTAINS("xf::max") && XF_CONTAINS("(0, 5)"));
  REQUIRE(xf::min(e, 1).size() == 0);  // no results: nothing to reduce, no error
  const auto s0 = xf::to_host(xf::sum(e, 0));
  REQUIRE(s0 == std::vector<float>(5, 0.0f));
  REQUIRE_THROWS_AS(xf::sum(e, 2), xf::shape_error);
  const int twice[2] = {1, -1};
  REQUIRE_THROWS_WITH(xf::sum(e, twice), XF_CONTAINS("repeated"));
  // The arrays stay usable after the errors.
  const xf::array<float, 1, Space> ok = xf::asarray<float, Space>(std::vector<float>{1, 2, 3});
  REQUIRE(xf::sum(ok).item() == 6.0f);
}

#undef XF_REDUCER

// Split in two so that the GPU suite compiles them in parallel (each instantiates many kernels).
template <class Space>
void sum_mean_var_cases(const shape_t& s) {
  sums_and_means<Space, bool>(s);
  sums_and_means<Space, std::int8_t>(s);
  sums_and_means<Space, std::uint8_t>(s);
  sums_and_means<Space, std::int32_t>(s);
  sums_and_means<Space, std::int64_t>(s);
  sums_and_means<Space, std::uint64_t>(s);
  sums_and_means<Space, xf::half>(s);
  sums_and_means<Space, xf::bfloat16>(s);
  sums_and_means<Space, float>(s);
  sums_and_means<Space, double>(s);
  variances<Space, float>(s);
  variances<Space, double>(s);
  variances<Space, std::int32_t>(s);
  variances<Space, xf::half>(s);
  products<Space, std::int32_t>(s);
  products<Space, std::uint8_t>(s);
  products<Space, float>(s);
  products<Space, double>(s);
  complex_reductions<Space, xf::complex64>(s);
  complex_reductions<Space, xf::complex128>(s);
}

template <class Space>
void order_and_logic_cases(const shape_t& s) {
  extremes<Space, std::int8_t>(s, false);
  extremes<Space, std::uint16_t>(s, false);
  extremes<Space, std::int64_t>(s, false);
  extremes<Space, bool>(s, false);
  extremes<Space, float>(s, false);
  extremes<Space, float>(s, true);
  extremes<Space, double>(s, true);
  extremes<Space, xf::half>(s, true);
  nan_skipping<Space, float>(s);
  nan_skipping<Space, double>(s);
  logicals<Space, float>(s);
  logicals<Space, std::int16_t>(s);
  logicals<Space, std::uint8_t>(s);
  expressions_and_views<Space>();
  empty_inputs<Space>();
}

// A user reducer: root mean square, accumulating floats in double (Map, Combine and Finish are
// whatever callables the space needs: __host__ __device__ lambdas for device arrays).
template <class Space, class Map, class Combine, class Finish>
void user_reducer_case(Map map, Combine combine, Finish finish) {
  const auto v = uniform<float>(37 * 401, -3, 3);
  const auto x = xf::asarray<float, Space>(v, {37, 401});
  const xf::reducer rms{0.0, map, combine, finish};
  const auto full = xf::reduce(x, rms).item();
  const auto rows = xf::to_host(xf::reduce(x, rms, 1));
  const int both[2] = {1, 0};
  const auto again = xf::reduce(x * 1, rms, both).item();
  const auto sq = fold_axes(v, {37, 401, 1}, {1}, 0.0L, [](long double a, float e, xf::index_t) { return a + ld(e) * ld(e); });
  long double all = 0;
  for (const auto q : sq) all += q;
  REQUIRE(std::fabs(full - std::sqrt(all / v.size())) <= 1e-12 * std::sqrt(all / v.size()));
  REQUIRE(std::fabs(again - full) <= 1e-12 * full);
  REQUIRE(rows.size() == 37);
  for (std::size_t i = 0; i < rows.size(); ++i) REQUIRE(std::fabs(rows[i] - std::sqrt(sq[i] / 401)) <= 1e-12 * rows[i]);
}

template <class Space>
void all_reduction_cases(const shape_t& s) {
  sum_mean_var_cases<Space>(s);
  order_and_logic_cases<Space>(s);
}

}  // namespace xf_test
