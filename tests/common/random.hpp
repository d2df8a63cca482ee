// Fresh random inputs for every run: the seed comes from XFUSE_TEST_SEED or std::random_device
// and is printed by the test runner, so a failure can be replayed.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include <xfuse/complex.hpp>
#include <xfuse/half.hpp>

namespace xf_test {

inline std::uint64_t seed() {
  static const std::uint64_t s = [] {
    if (const char* e = std::getenv("XFUSE_TEST_SEED")) return static_cast<std::uint64_t>(std::strtoull(e, nullptr, 10));
    std::random_device rd;
    return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
  }();
  return s;
}

inline std::mt19937_64& rng() {
  static std::mt19937_64 g(seed());
  return g;
}

// Uniform values in [lo, hi] converted to T (bool: fair coin; complex: both parts).
template <class T>
std::vector<T> uniform(std::size_t n, double lo, double hi) {
  std::vector<T> v(n);
  if constexpr (std::is_same_v<T, bool>) {
    std::bernoulli_distribution d(0.5);
    for (auto&& x : v) x = d(rng());
  } else if constexpr (xf::is_integer<T>) {
    using W = std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>;
    const W a = static_cast<W>(lo < static_cast<double>(std::numeric_limits<T>::min()) ? static_cast<double>(std::numeric_limits<T>::min()) : lo);
    const W b = static_cast<W>(hi > static_cast<double>(std::numeric_limits<T>::max()) ? static_cast<double>(std::numeric_limits<T>::max()) : hi);
    std::uniform_int_distribution<W> d(a, b);
    for (auto& x : v) x = static_cast<T>(d(rng()));
  } else if constexpr (xf::is_complex<T>) {
    std::uniform_real_distribution<double> d(lo, hi);
    for (auto& x : v) x = T(static_cast<xf::real_t<T>>(d(rng())), static_cast<xf::real_t<T>>(d(rng())));
  } else {
    std::uniform_real_distribution<double> d(lo, hi);
    for (auto& x : v) x = xf::detail::convert<T>(d(rng()));
  }
  return v;
}

// Integers over their whole range (for wrap-around arithmetic).
template <class T>
std::vector<T> full_range(std::size_t n) {
  std::vector<T> v(n);
  if constexpr (std::is_same_v<T, bool>) {
    return uniform<T>(n, 0, 1);
  } else {
    std::uniform_int_distribution<std::uint64_t> d;
    for (auto& x : v) x = static_cast<T>(d(rng()));
  }
  return v;
}

}  // namespace xf_test
