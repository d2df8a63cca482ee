// Helpers for element-wise tests: evaluate an expression built by a lambda on host arrays and
// compare with an independent scalar reference (host suite), or on device arrays and compare
// with the host evaluator on the same inputs (GPU suite).
#pragma once

#include <complex>
#include <string>
#include <vector>

#include "check.hpp"
#include "random.hpp"

namespace xf_test {

using ld = long double;

template <class T>
ld to_ld(const T& v) {
  return static_cast<ld>(as_real(v));
}

// A long double (or std::complex<long double>) result rounded to element type R.
template <class R, class V>
R from_ld(const V& v) {
  if constexpr (xf::is_complex<R>) {
    using P = xf::real_t<R>;
    return R(static_cast<P>(v.real()), static_cast<P>(v.imag()));
  } else if constexpr (std::is_same_v<R, bool>) {
    return static_cast<bool>(v);
  } else if constexpr (xf::is_low_precision<R>) {
    return xf::detail::convert<R>(static_cast<double>(v));
  } else {
    return static_cast<R>(v);
  }
}

template <class T>
std::complex<ld> to_cld(const T& v) {
  return {static_cast<ld>(as_real(v)), static_cast<ld>(as_imag(v))};
}

// Tolerance for a result of type R that came through math functions.
template <class R>
double fn_rtol(double ulps = 4) {
  if constexpr (xf::is_low_precision<xf::real_t<R>>) return eps<R>();  // computed in float, rounded once
  else return ulps * eps<R>();
}

inline constexpr std::size_t default_n = 4099;  // not a multiple of any vector width

// Host evaluation of make(a) against ref(x) for each input x.
template <class T, class Make, class Ref>
void host_unary(const std::string& name, const std::vector<T>& in, Make make, Ref ref, double rtol, double atol) {
  const auto a = xf::asarray<T, xf::host>(in);
  const auto result = xf::eval(make(a));
  using R = xf::value_t<decltype(result)>;
  std::vector<R> want(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) want[i] = ref(in[i]);
  require_all_close(xf::to_host(result), want, rtol, atol, name + " on " + xf::dtype_name<T>);
}

template <class A, class B, class Make, class Ref>
void host_binary(const std::string& name, const std::vector<A>& x, const std::vector<B>& y, Make make, Ref ref,
                 double rtol, double atol) {
  const auto a = xf::asarray<A, xf::host>(x);
  const auto b = xf::asarray<B, xf::host>(y);
  const auto result = xf::eval(make(a, b));
  using R = xf::value_t<decltype(result)>;
  std::vector<R> want(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) want[i] = ref(x[i], y[i]);
  require_all_close(xf::to_host(result), want, rtol, atol, name + " on " + xf::dtype_name<A> + ", " + xf::dtype_name<B>);
}

}  // namespace xf_test
