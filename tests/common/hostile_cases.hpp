// Hostile and degenerate arguments to the functions added since the first audit, shared by the
// host suite (host arrays) and the GPU suite (device arrays): empty axes, NaN and infinite bounds,
// zero spacings, empty lists of quantiles, lengths whose arithmetic overflows, section counts
// whose bookkeeping cannot fit. Each used to give a wrong or empty answer, crash (SIGFPE), hang or
// run out of memory; each must give NumPy's answer or refuse at once with an xf:: exception that
// names the operation, and leave the memory pool as it was.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <xfuse/fft.hpp>
#include <xfuse/linalg.hpp>
#include <xfuse/xfuse.hpp>

#include "bad_input_cases.hpp"

namespace xf_test::hostile {

using bad_input::pool_in_use;
using bad_input::require_refused;
using bad_input::two_32;
using bad_input::two_62;
using xf::index_t;

inline constexpr double inf = std::numeric_limits<double>::infinity();
inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// scipy.special.softmax and log_softmax raise along an empty axis (no maximum); logsumexp of
// nothing is -inf; an empty array with a non-empty axis is an empty result.
template <class S>
void rows_along_empty_axes() {
  const std::size_t before = pool_in_use<S>();
  const xf::array<float, 2, S> none_in_rows(xf::dims<2>{3, 0}), no_rows(xf::dims<2>{0, 5});
  require_refused<xf::shape_error>([&] { (void)xf::softmax(none_in_rows, 1); }, "xf::softmax", "is empty");
  require_refused<xf::shape_error>([&] { (void)xf::log_softmax(none_in_rows, -1); }, "xf::log_softmax", "is empty");
  require_refused<xf::shape_error>([&] { (void)xf::softmax(no_rows, 0); }, "xf::softmax", "is empty");
  require_refused<xf::shape_error>([&] { (void)xf::softmax(xf::array<double, 1, S>(xf::dims<1>{0}), 0); }, "xf::softmax", "is empty");
  CHECK(xf::softmax(no_rows, 1).shape() == xf::dims<2>{0, 5});
  CHECK(xf::log_softmax(no_rows, 1).shape() == xf::dims<2>{0, 5});
  // scipy.special.logsumexp(np.empty((3, 0)), axis=1) -> [-inf, -inf, -inf]
  CHECK(xf::to_host(xf::logsumexp(none_in_rows, 1)) == std::vector<float>(3, -std::numeric_limits<float>::infinity()));
  CHECK(pool_in_use<S>() == before);
}

// np.arange's length rule (NaN: "cannot compute length"; a quotient that underflows to +0 still
// holds start), Generator.uniform's finite range, fftfreq's division, fft's norm.
template <class S>
void bounds_and_spacings() {
  const std::size_t before = pool_in_use<S>();
  using D1 = xf::array<double, 1, S>;
  require_refused<xf::error>([] { (void)D1(xf::arange(0.0, 10.0, nan)); }, "xf::arange", "cannot compute the length");
  require_refused<xf::error>([] { (void)D1(xf::arange(inf, inf, 1)); }, "xf::arange", "cannot compute the length");
  require_refused<xf::error>([] { (void)D1(xf::arange(nan, 1.0, 1)); }, "xf::arange", "cannot compute the length");
  // np.arange(0.0, 1.0, np.inf) -> [0.]; np.arange(0, 1, -np.inf), (1.0, 0.0, np.inf) -> []
  CHECK(xf::to_host(D1(xf::arange(0.0, 1.0, inf))) == std::vector<double>{0.0});
  CHECK(xf::to_host(D1(xf::arange(-2.5, 7.0, inf))) == std::vector<double>{-2.5});
  CHECK(D1(xf::arange(0.0, 1.0, -inf)).size() == 0);
  CHECK(D1(xf::arange(1.0, 0.0, inf)).size() == 0);
  require_refused<xf::shape_error>([] { (void)D1(xf::arange(0.0, inf, 1.0)); }, "xf::arange", "array is too big");

  // rng.uniform(0, np.inf) and rng.uniform(-1e308, 1e308): OverflowError "high - low range exceeds valid bounds"
  xf::random::generator g(7);
  require_refused<xf::error>([&] { (void)D1(xf::random::uniform({3}, g, 0.0, inf)); }, "xf::random::uniform", "exceeds the valid range");
  require_refused<xf::error>([&] { (void)D1(xf::random::uniform({3}, g, -inf, 0.0)); }, "xf::random::uniform", "exceeds the valid range");
  require_refused<xf::error>([&] { (void)D1(xf::random::uniform({3}, g, -1e308, 1e308)); }, "xf::random::uniform", "exceeds the valid range");
  const auto u = xf::to_host(D1(xf::random::uniform({1000}, g, -1e307, 1e307)));  // a wide but finite range
  CHECK(std::all_of(u.begin(), u.end(), [](double v) { return v >= -1e307 && v < 1e307; }));

  // np.fft.fftfreq(4, 0.0) and rfftfreq(4, -0.0): ZeroDivisionError; np.fft.fftfreq(4, np.inf) -> [0, 0, -0, -0]
  require_refused<xf::error>([] { (void)D1(xf::fftfreq(4, 0.0)); }, "xf::fftfreq", "division by zero");
  require_refused<xf::error>([] { (void)D1(xf::rfftfreq(4, -0.0)); }, "xf::rfftfreq", "division by zero");
  const auto f = xf::to_host(D1(xf::fftfreq(4, inf)));
  CHECK((f.size() == 4 && f[0] == 0 && f[3] == 0 && std::signbit(f[3])));

  {  // A norm that is none of backward, ortho and forward: NumPy's ValueError "Invalid norm value".
    const auto x = xf::array<double, 1, S>(xf::arange<double>(8));
    const auto bad = static_cast<xf::fft_norm>(7);
    require_refused<xf::error>([&] { (void)xf::fft(x, std::nullopt, -1, bad); }, "xf::fft", "invalid norm value 7");
    require_refused<xf::error>([&] { (void)xf::irfft(xf::rfft(x), std::nullopt, -1, bad); }, "xf::irfft", "invalid norm value");
    require_refused<xf::error>([&] { (void)xf::hfft(xf::rfft(x), std::nullopt, -1, bad); }, "xf::hfft", "invalid norm value");
    require_refused<xf::error>([&] { (void)xf::rfft2(x.reshape({2, 4}), {}, {-2, -1}, bad); }, "xf::rfftn", "invalid norm value");
  }
  if constexpr (std::is_same_v<S, xf::device>) xf::fft_plan_cache().clear();  // the rffts above keep plans and work areas
  CHECK(pool_in_use<S>() == before);
}

// np.quantile(x, []) is empty (shape (0,) + the kept axes); it used to divide by zero (SIGFPE).
template <class S>
void empty_quantile_lists() {
  const auto x = xf::array<double, 1, S>(xf::arange<double>(6)).reshape({2, 3});
  const std::vector<double> none;
  CHECK(xf::quantile(x, none).shape() == xf::dims<1>{0});
  CHECK(xf::percentile(x, none).shape() == xf::dims<1>{0});
  // np.quantile(np.ones((2, 3)), [], axis=1).shape -> (0, 2); with keepdims (0, 2, 1)
  CHECK(xf::quantile(x, none, 1).shape() == xf::dims<2>{0, 2});
  CHECK(xf::quantile(x, none, 1, xf::keepdims).shape() == xf::dims<3>{0, 2, 1});
}

// Lengths whose arithmetic passes 2^63: broadcast views need no memory, so only the checks stop
// them. fftconvolve's padded lengths used to overflow and loop for ever.
template <class S>
void overflowing_lengths() {
  const xf::array<std::int8_t, 1, S> one = xf::full<std::int8_t>({1}, 3);
  const std::size_t before = pool_in_use<S>();  // with `one`, which stays
  const auto long_view = one.broadcast_to(xf::dims<1>{two_62});
  const auto half_view = one.broadcast_to(xf::dims<1>{two_62 / 2});
  require_refused<xf::shape_error>([&] { (void)xf::fftconvolve(long_view, long_view); }, "xf::fftconvolve", "array is too big");
  require_refused<xf::shape_error>([&] { (void)xf::fftconvolve(half_view, half_view); }, "xf::fftconvolve", "array is too big");
  require_refused<xf::shape_error>([&] { (void)xf::fftconvolve(long_view, one, xf::conv_mode::same); }, "xf::fftconvolve", "array is too big");
  // kron's extents are products of the operands' (here 2^32 * 2^32): checked, not overflowed.
  const auto wide = one.broadcast_to(xf::dims<1>{two_32});
  require_refused<xf::shape_error>([&] { (void)xf::kron(wide, wide); }, "xf::kron", "array is too big");
  // Draws of (2^32, 2^32) values: "array is too big" before any arithmetic on the count.
  xf::random::generator g(3);
  require_refused<xf::shape_error>([&] { (void)xf::random::gamma<double>({two_32, two_32}, g, 2.0); }, "xf::random::gamma", "array is too big");
  require_refused<xf::shape_error>([&] { (void)xf::random::poisson({two_32, two_32}, g, 2.0); }, "xf::random::poisson", "array is too big");
  require_refused<xf::shape_error>([&] { (void)xf::random::binomial({two_32, two_32}, g, 10, 0.5); }, "xf::random::binomial", "array is too big");
  require_refused<xf::shape_error>([&] { (void)xf::random::beta<double>({two_32, two_32}, g, 2.0, 3.0); }, "xf::random::beta", "array is too big");
  CHECK(pool_in_use<S>() == before);
}

// array_split(x, 2^62) used to allocate views until the allocator gave up (the whole machine
// without a limit): refused at once as xf::out_of_memory with the bytes asked for.
template <class S>
void section_counts() {
  const auto x = xf::array<float, 1, S>(xf::arange<float>(3));
  std::string what;
  std::size_t requested = 0;
  try {
    (void)xf::array_split(x, two_62);
  } catch (const xf::out_of_memory& e) {
    what = e.what();
    requested = e.requested_bytes();
  }
  INFO(what);
  CHECK(what.find("xf::array_split") != std::string::npos);
  CHECK(requested >= static_cast<std::size_t>(two_62));
  require_refused<xf::out_of_memory>([&] { (void)xf::array_split(x, std::numeric_limits<index_t>::max()); }, "xf::array_split", "parts need");
  // Far more sections than elements but a list that fits: NumPy's empty parts.
  const auto parts = xf::array_split(x, 5);
  REQUIRE(parts.size() == 5);
  CHECK((parts[0].size() == 1 && parts[2].size() == 1 && parts[3].size() == 0 && parts[4].size() == 0));
  CHECK(xf::to_host(parts[2]) == std::vector<float>{2});
}

}  // namespace xf_test::hostile
