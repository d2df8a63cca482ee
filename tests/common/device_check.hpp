// GPU tests: the same expression on device arrays and on host arrays built from the same random
// values; the device result must match the host evaluator's.
#pragma once

#include <string>
#include <vector>

#include "check.hpp"
#include "random.hpp"

namespace xf_test {

template <class Make, class... T>
void device_matches_host(const std::string& name, Make make, double rtol, double atol, const std::vector<T>&... in) {
  const auto host_result = xf::eval(make(xf::asarray<T, xf::host>(in)...));
  const auto device_result = xf::eval(make(xf::asarray<T>(in)...));
  static_assert(std::is_same_v<xf::space_t<decltype(device_result)>, xf::device>);
  using R = xf::value_t<decltype(device_result)>;
  std::string types;
  ((types += std::string(types.empty() ? "" : ", ") + xf::dtype_name<T>), ...);
  require_all_close<R>(xf::to_host(device_result), xf::to_host(host_result), rtol, atol, name + " on " + types);
}

// Tolerance between CUDA's and glibc's math functions (each within a few ulp of the truth).
template <class R>
double math_rtol() {
  if constexpr (xf::is_low_precision<xf::real_t<R>>) return eps<R>();
  else return 8 * eps<R>();
}

}  // namespace xf_test
