// SPDX-License-Identifier: Apache-2.0
// Random numbers that fuse into expressions (NumPy's Generator API on a counter-based Philox):
//
//   xf::random::generator g(42);
//   xf::array<float, 1> y = x + 0.1f * xf::random::normal<float>(x.shape(), g);  // one kernel, no random buffer
//
// A draw is a lazy expression node whose element p depends only on (seed, draw number, p): the
// same values on the host and the device, whatever the launch configuration, and the same values
// each time the node is evaluated. Each call that makes a draw advances its generator, so two
// calls give independent draws. Uniform and integer draws are exact conversions of Philox's bits;
// normal draws use Box-Muller with a log and sine written in IEEE operations only
// (random/exact_math.hpp), so they too are bit-identical on both sides; so are exponential and
// Poisson draws.
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include "core.hpp"
#include "random/draws.hpp"
#include "random/rejection.hpp"
#include "random/recorded.hpp"

namespace xf::random {

// NumPy's np.random.default_rng(seed): a seed and the number of draws made so far.
class generator {
 public:
  explicit generator(std::uint64_t seed = 0) noexcept : seed_(seed) {}
  std::uint64_t seed() const noexcept { return seed_; }
  std::uint64_t draws() const noexcept { return draws_; }
  // The key of the next draw; advances the generator. Inside xf::capture, the key of a recorded
  // draw: each launch of the graph draws what the statements would draw then, and advances the
  // generator as they would (so the generator must outlive the graph's launches).
  detail::philox_key next_key() {
    if (auto* recording = ::xf::detail::active_capture()) return ::xf::detail::recorded_key(*recording, seed_, &draws_);
    const std::uint64_t d = draws_++;
    return {static_cast<std::uint32_t>(seed_), static_cast<std::uint32_t>(seed_ >> 32), static_cast<std::uint32_t>(d),
            static_cast<std::uint32_t>(d >> 32)};
  }

 private:
  std::uint64_t seed_;
  std::uint64_t draws_ = 0;
};

namespace detail {
using namespace ::xf::detail;

template <class Draw, std::size_t N>
auto draw_node(const Draw& d, const std::array<index_t, N>& shape, const char* op) {
  checked_size(shape, sizeof(typename Draw::value_type), op);
  // Element positions count in C order, so a value belongs to its index, not to a kernel's walk.
  return generator_node<Draw, static_cast<int>(N)>(d, shape, c_strides(shape));
}

// Draws whose elements read streams of their own (random/rejection.hpp): 2^20 Philox blocks an
// element, so at most 2^44 elements.
template <std::size_t N>
void check_rejection_size(const std::array<index_t, N>& shape, std::size_t itemsize, const char* op) {
  const index_t count = checked_size(shape, itemsize, op);
  if (count > (index_t{1} << 44)) throw error(std::string(op) + ": at most 2^44 values per draw, not " + std::to_string(count));
}

template <class T>
inline constexpr bool float_draw = std::is_same_v<T, float> || std::is_same_v<T, double> || is_low_precision<T>;
}  // namespace detail

// Uniform on [low, high), like Generator.uniform(low, high, size).
template <element T = double, std::size_t N>
auto uniform(const std::array<index_t, N>& shape, generator& g, double low = 0.0, double high = 1.0) {
  static_assert(detail::float_draw<T>, "xf::random::uniform: a floating element type (float, double, half, bfloat16)");
  using C = detail::draw_compute_t<T>;
  if (!(low <= high)) throw error("xf::random::uniform: low (" + std::to_string(low) + ") must not exceed high (" + std::to_string(high) + ")");
  if (!std::isfinite(high - low))  // NumPy's OverflowError: no finite value spans the range
    throw error("xf::random::uniform: high - low (" + std::to_string(high) + " - " + std::to_string(low) + ") exceeds the valid range");
  detail::uniform_draw<T> d{};
  d.key = g.next_key();
  d.low = static_cast<C>(low);
  d.span = static_cast<C>(high - low);
  return detail::draw_node(d, shape, "xf::random::uniform");
}
template <element T = double, std::size_t N>
auto uniform(const index_t (&shape)[N], generator& g, double low = 0.0, double high = 1.0) {
  return uniform<T>(detail::to_dims(shape), g, low, high);
}

// Uniform on [0, 1): Generator.random(size), np.random.random_sample and np.random.rand.
template <element T = double, std::size_t N>
auto random_sample(const std::array<index_t, N>& shape, generator& g) {
  return uniform<T>(shape, g);
}
template <element T = double, std::size_t N>
auto random_sample(const index_t (&shape)[N], generator& g) {
  return uniform<T>(detail::to_dims(shape), g);
}
template <element T = double, std::size_t N>
auto rand(const std::array<index_t, N>& shape, generator& g) {
  return uniform<T>(shape, g);
}
template <element T = double, std::size_t N>
auto rand(const index_t (&shape)[N], generator& g) {
  return uniform<T>(detail::to_dims(shape), g);
}

// Normal with the given mean and standard deviation, like Generator.normal(loc, scale, size).
template <element T = double, std::size_t N>
auto normal(const std::array<index_t, N>& shape, generator& g, double mean = 0.0, double stddev = 1.0) {
  static_assert(detail::float_draw<T>, "xf::random::normal: a floating element type (float, double, half, bfloat16)");
  using C = detail::draw_compute_t<T>;
  if (!(stddev >= 0)) throw error("xf::random::normal: the standard deviation must be >= 0, not " + std::to_string(stddev));
  detail::normal_draw<T> d{};
  d.key = g.next_key();
  d.mean = static_cast<C>(mean);
  d.stddev = static_cast<C>(stddev);
  return detail::draw_node(d, shape, "xf::random::normal");
}
template <element T = double, std::size_t N>
auto normal(const index_t (&shape)[N], generator& g, double mean = 0.0, double stddev = 1.0) {
  return normal<T>(detail::to_dims(shape), g, mean, stddev);
}
// Standard normal: Generator.standard_normal(size), np.random.randn.
template <element T = double, std::size_t N>
auto standard_normal(const std::array<index_t, N>& shape, generator& g) {
  return normal<T>(shape, g);
}
template <element T = double, std::size_t N>
auto standard_normal(const index_t (&shape)[N], generator& g) {
  return normal<T>(detail::to_dims(shape), g);
}
template <element T = double, std::size_t N>
auto randn(const std::array<index_t, N>& shape, generator& g) {
  return normal<T>(shape, g);
}
template <element T = double, std::size_t N>
auto randn(const index_t (&shape)[N], generator& g) {
  return normal<T>(detail::to_dims(shape), g);
}

// Exponential with the given scale (the mean), like Generator.exponential(scale, size).
template <element T = double, std::size_t N>
auto exponential(const std::array<index_t, N>& shape, generator& g, double scale = 1.0) {
  static_assert(detail::float_draw<T>, "xf::random::exponential: a floating element type (float, double, half, bfloat16)");
  if (!(scale >= 0)) throw error("xf::random::exponential: the scale must be >= 0, not " + std::to_string(scale));
  detail::exponential_draw<T> d{};
  d.key = g.next_key();
  d.scale = static_cast<detail::draw_compute_t<T>>(scale);
  return detail::draw_node(d, shape, "xf::random::exponential");
}
template <element T = double, std::size_t N>
auto exponential(const index_t (&shape)[N], generator& g, double scale = 1.0) {
  return exponential<T>(detail::to_dims(shape), g, scale);
}
// Generator.standard_exponential(size).
template <element T = double, std::size_t N>
auto standard_exponential(const index_t (&shape)[N], generator& g) {
  return exponential<T>(detail::to_dims(shape), g);
}

// Poisson counts with mean lam (int64 by default), like Generator.poisson(lam, size): NumPy's
// algorithms (random/draws.hpp), on xfuse's Philox stream, so the values differ from NumPy's and
// the distribution does not; bit-identical on host and device.
template <element T = std::int64_t, std::size_t N>
auto poisson(const std::array<index_t, N>& shape, generator& g, double lam = 1.0) {
  static_assert(is_integer<T>, "xf::random::poisson: an integer element type (counts)");
  // Above 1e13 the rejection test's terms (lam log lam) lose the precision it needs.
  if (!(lam >= 0) || lam > 1e13 || lam > static_cast<double>(std::numeric_limits<T>::max()) / 2 - 100)
    throw error(std::string("xf::random::poisson: lam must be in [0, 1e13] and far enough below ") + dtype_name<T> +
                "'s maximum, not " + std::to_string(lam));
  detail::check_rejection_size(shape, sizeof(T), "xf::random::poisson");
  detail::poisson_draw<T> d{};
  d.key = g.next_key();
  d.lam = lam;
  d.exp_minus_lam = std::exp(-lam);
  if (lam >= 10) {  // PTRS's constants (NumPy's random_poisson_ptrs)
    d.transformed_rejection = true;
    const double slam = std::sqrt(lam);
    d.log_lam = std::log(lam);
    d.b = 0.931 + 2.53 * slam;
    d.a = -0.059 + 0.02483 * d.b;
    d.log_inv_alpha = std::log(1.1239 + 1.1328 / (d.b - 3.4));
    d.vr = 0.9277 - 3.6224 / (d.b - 2);
  }
  return detail::draw_node(d, shape, "xf::random::poisson");
}
template <element T = std::int64_t, std::size_t N>
auto poisson(const index_t (&shape)[N], generator& g, double lam = 1.0) {
  return poisson<T>(detail::to_dims(shape), g, lam);
}

// Gamma with a shape and scale (float types, double by default), like Generator.gamma(shape,
// scale, size): Marsaglia and Tsang's method (random/rejection.hpp).
template <element T = double, std::size_t N>
auto gamma(const std::array<index_t, N>& shape, generator& g, double shape_parameter, double scale = 1.0) {
  static_assert(detail::float_draw<T>, "xf::random::gamma: a floating element type (float, double, half, bfloat16)");
  if (!(shape_parameter >= 0) || !(scale >= 0) || shape_parameter > 1e300)
    throw error("xf::random::gamma: the shape must be in [0, 1e300] and the scale >= 0, not " + std::to_string(shape_parameter) +
                " and " + std::to_string(scale));
  detail::check_rejection_size(shape, sizeof(T), "xf::random::gamma");
  detail::gamma_draw<T> d{};
  d.key = g.next_key();
  d.k = detail::gamma_constants::of(shape_parameter);
  d.scale = scale;
  return detail::draw_node(d, shape, "xf::random::gamma");
}
template <element T = double, std::size_t N>
auto gamma(const index_t (&shape)[N], generator& g, double shape_parameter, double scale = 1.0) {
  return gamma<T>(detail::to_dims(shape), g, shape_parameter, scale);
}
// Generator.standard_gamma(shape, size).
template <element T = double, std::size_t N>
auto standard_gamma(const index_t (&shape)[N], generator& g, double shape_parameter) {
  return gamma<T>(detail::to_dims(shape), g, shape_parameter);
}

// Beta(a, b) (float types, double by default), like Generator.beta(a, b, size).
template <element T = double, std::size_t N>
auto beta(const std::array<index_t, N>& shape, generator& g, double a, double b) {
  static_assert(detail::float_draw<T>, "xf::random::beta: a floating element type (float, double, half, bfloat16)");
  if (!(a >= 1e-300) || !(b >= 1e-300) || a > 1e300 || b > 1e300)
    throw error("xf::random::beta: a and b must be in [1e-300, 1e300], not " + std::to_string(a) + " and " + std::to_string(b));
  detail::check_rejection_size(shape, sizeof(T), "xf::random::beta");
  detail::beta_draw<T> d{};
  d.key = g.next_key();
  d.a = a;
  d.b = b;
  d.ka = detail::gamma_constants::of(a);
  d.kb = detail::gamma_constants::of(b);
  return detail::draw_node(d, shape, "xf::random::beta");
}
template <element T = double, std::size_t N>
auto beta(const index_t (&shape)[N], generator& g, double a, double b) {
  return beta<T>(detail::to_dims(shape), g, a, b);
}

// Binomial counts of n trials of probability p (int64 by default), like Generator.binomial(n, p, size).
template <element T = std::int64_t, std::size_t N>
auto binomial(const std::array<index_t, N>& shape, generator& g, std::int64_t n, double p) {
  static_assert(is_integer<T>, "xf::random::binomial: an integer element type (counts)");
  if (n < 0 || n > (std::int64_t{1} << 61) || static_cast<std::uint64_t>(n) > static_cast<std::uint64_t>(std::numeric_limits<T>::max()) ||
      !(p >= 0 && p <= 1))
    throw error(std::string("xf::random::binomial: n must be in [0, 2^61] and at most ") + dtype_name<T> +
                "'s maximum, and p in [0, 1], not " + std::to_string(n) + " and " + std::to_string(p));
  detail::check_rejection_size(shape, sizeof(T), "xf::random::binomial");
  detail::binomial_draw<T> d{};
  d.key = g.next_key();
  d.n = n;
  d.p = p;
  return detail::draw_node(d, shape, "xf::random::binomial");
}
template <element T = std::int64_t, std::size_t N>
auto binomial(const index_t (&shape)[N], generator& g, std::int64_t n, double p) {
  return binomial<T>(detail::to_dims(shape), g, n, p);
}

// Integers on [low, high), like Generator.integers(low, high, size).
template <element T = std::int64_t, std::size_t N>
auto integers(const std::array<index_t, N>& shape, generator& g, std::int64_t low, std::int64_t high) {
  static_assert(is_integer<T>, "xf::random::integers: an integer element type");
  const bool fits = std::is_signed_v<T> ? low >= static_cast<std::int64_t>(std::numeric_limits<T>::min())
                                        : low >= 0;
  const bool fits_high = std::is_signed_v<T> || sizeof(T) < 8
                             ? high - 1 <= static_cast<std::int64_t>(std::numeric_limits<T>::max())
                             : true;
  if (!(low < high) || !fits || !fits_high)
    throw error(std::string("xf::random::integers: [") + std::to_string(low) + ", " + std::to_string(high) + ") is empty or outside " +
                dtype_name<T>);
  detail::integers_draw<T> d{};
  d.key = g.next_key();
  d.low = static_cast<std::uint64_t>(low);
  d.range = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low);
  return detail::draw_node(d, shape, "xf::random::integers");
}
template <element T = std::int64_t, std::size_t N>
auto integers(const index_t (&shape)[N], generator& g, std::int64_t low, std::int64_t high) {
  return integers<T>(detail::to_dims(shape), g, low, high);
}

}  // namespace xf::random
