// Comparing results: exact, or within a tolerance scaled to the element type's precision.
// NaN matches NaN and infinities match infinities of the same sign.
#pragma once

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include <xfuse/complex.hpp>
#include <xfuse/half.hpp>

namespace xf_test {

// Machine epsilon of an element type (of its real part for complex).
template <class T>
constexpr double eps() {
  using R = xf::real_t<T>;
  if constexpr (std::is_same_v<R, xf::half>) return 9.765625e-4;  // 2^-10
  else if constexpr (std::is_same_v<R, xf::bfloat16>) return 7.8125e-3;  // 2^-7
  else if constexpr (std::is_same_v<R, float>) return 1.1920928955078125e-7;
  else if constexpr (std::is_same_v<R, double>) return 2.220446049250313e-16;
  else return 0;  // integers and bool: exact
}

template <class T>
double as_real(const T& v) {
  if constexpr (xf::is_complex<T>) return static_cast<double>(v.real());
  else return static_cast<double>(xf::detail::convert<double>(v));
}
template <class T>
double as_imag(const T& v) {
  if constexpr (xf::is_complex<T>) return static_cast<double>(v.imag());
  else return 0.0;
}

inline bool close_double(double got, double want, double rtol, double atol) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  if (std::isnan(got) || std::isinf(got)) return false;
  return std::fabs(got - want) <= atol + rtol * std::fabs(want);
}

template <class T>
bool close(const T& got, const T& want, double rtol, double atol) {
  if constexpr (xf::is_integer<T> || std::is_same_v<T, bool>) {
    return got == want;
  } else if constexpr (xf::is_complex<T>) {
    // Complex results are compared as numbers, |got - want| <= atol + rtol |want|: near a branch
    // point one component can be tiny and carry the other's rounding error (arcsin at z ~ 1).
    const double gr = as_real(got), gi = as_imag(got), wr = as_real(want), wi = as_imag(want);
    if (!std::isfinite(wr) || !std::isfinite(wi) || !std::isfinite(gr) || !std::isfinite(gi))
      return close_double(gr, wr, rtol, atol) && close_double(gi, wi, rtol, atol);
    return std::hypot(gr - wr, gi - wi) <= atol + rtol * std::hypot(wr, wi);
  } else {
    return close_double(as_real(got), as_real(want), rtol, atol) && close_double(as_imag(got), as_imag(want), rtol, atol);
  }
}

template <class T>
std::string show(const T& v) {
  std::ostringstream os;
  os.precision(17);
  if constexpr (xf::is_complex<T>) os << "(" << as_real(v) << "," << as_imag(v) << ")";
  else if constexpr (std::is_same_v<T, bool>) os << (v ? "true" : "false");
  else if constexpr (xf::is_integer<T>) os << static_cast<long long>(v) << (std::is_unsigned_v<T> ? "u" : "");
  else os << as_real(v);
  return os.str();
}

// Every element within tolerance; on failure reports the first few mismatches and their count.
template <class T>
void require_all_close(const std::vector<T>& got, const std::vector<T>& want, double rtol, double atol,
                       const std::string& what) {
  REQUIRE(got.size() == want.size());
  std::size_t bad = 0;
  std::ostringstream first;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!close(got[i], want[i], rtol, atol)) {
      if (bad < 5) first << "  [" << i << "] got " << show(got[i]) << " want " << show(want[i]) << "\n";
      ++bad;
    }
  }
  INFO(what << ": " << bad << " of " << got.size() << " elements differ (rtol " << rtol << ", atol " << atol
            << ")\n" << first.str());
  CHECK(bad == 0);
}

template <class T>
void require_equal(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  require_all_close(got, want, 0.0, 0.0, what);
}

}  // namespace xf_test
