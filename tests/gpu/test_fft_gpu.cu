// Fourier transforms of device arrays on cuFFT (tests/common/fft_cases.hpp): NumPy's values, the
// definitions in long double, device against host for long transforms, the plan cache, streams
// and recorded graphs.
#include <xfuse/graph.hpp>

#include "../common/fft_cases.hpp"

using namespace xf_test;

TEST_CASE("fft, rfft, irfft, hfft, fftn, fftfreq, fftshift give NumPy's values on device arrays", "[gpu][fft]") {
  fft_known_values<xf::device>();
}

TEST_CASE("device transforms of random inputs equal the definitions: lengths, norms, n", "[gpu][fft]") {
  for (xf::index_t m : {1, 2, 3, 5, 7, 8, 12, 17, 30, 64, 97, 128, 210, 257}) {
    fft_one_axis<xf::device, double>(m, std::nullopt);
    fft_one_axis<xf::device, float>(m, std::nullopt);
  }
  fft_one_axis<xf::device, double>(8, 12);
  fft_one_axis<xf::device, double>(12, 5);
  fft_one_axis<xf::device, float>(1000, 1331);
}

TEST_CASE("device transforms over axes, several axes, views and expressions", "[gpu][fft]") {
  fft_axes_and_views<xf::device, double>();
  fft_axes_and_views<xf::device, float>();
}

TEST_CASE("device transforms of NaN, inf, empty inputs, and bad arguments", "[gpu][fft]") {
  fft_special_inputs<xf::device>();
}

// Long transforms: the device against the host transform (itself checked against the definition).
template <class T, int R>
void device_equals_host(const xf::dims<R>& shape, const std::string& what) {
  using C = xf::detail::fft_complex_of<T>;
  using Re = xf::real_t<C>;
  const auto values = uniform<Re>(static_cast<std::size_t>(xf::detail::product(shape)), -1, 1);
  const auto d = xf::asarray<Re>(values, shape);
  const auto h = xf::asarray<Re, xf::host>(values, shape);
  const double tol = fft_tol<T>();
  const auto spectrum = xf::rfftn(d);
  require_fft_close(spectrum, ref_of(xf::rfftn(h)), tol, "rfftn " + what);
  require_fft_close(xf::irfftn(spectrum, xf::fft_sizes(std::vector<xf::index_t>(shape.begin(), shape.end()))), ref_of(h), tol,
                    "irfftn(rfftn(x)) " + what);
  require_fft_close(xf::fft(d), ref_of(xf::fft(h)), tol, "fft " + what);
}

TEST_CASE("long and multi-dimensional device transforms equal the host transform", "[gpu][fft]") {
  device_equals_host<double, 1>({1 << 20}, "2^20 float64");
  device_equals_host<float, 1>({1 << 18}, "2^18 float32");
  device_equals_host<double, 1>({100003}, "a prime length");
  device_equals_host<double, 2>({300, 512}, "300 x 512");
  device_equals_host<float, 3>({17, 30, 64}, "17 x 30 x 64");
  device_equals_host<double, 2>({4, 3 * 5 * 7 * 11 * 13}, "15015 points, odd factors");
}

TEST_CASE("the plan cache keeps plans per shape and stream, counts hits, honours its size limit", "[gpu][fft]") {
  xf::set_fft_line_kernels(false);  // cuFFT's plans: transforms of 256 points would run in xfuse's own kernel
  auto cache = xf::fft_plan_cache();
  cache.clear();
  const auto before = cache.stats();
  const auto x = xf::asarray<float>(uniform<float>(4096, -1, 1), xf::dims<2>{16, 256});
  const auto first = xf::to_host(xf::rfft(x));
  const auto second = xf::to_host(xf::rfft(x));
  CHECK(first == second);
  auto s = cache.stats();
  CHECK(s.misses == before.misses + 1);
  CHECK(s.hits == before.hits + 1);
  CHECK(cache.size() == 1);
  {  // another stream: another plan
    const xf::stream other(xf::stream::non_blocking);
    const xf::stream_guard on(other);
    (void)xf::rfft(x);
    other.synchronize();
  }
  CHECK(cache.stats().misses == before.misses + 2);
  CHECK(cache.size() == 2);
  cache.set_size_limit(2);
  (void)xf::rfft(x, 100);
  (void)xf::fft(x);
  s = cache.stats();
  CHECK(cache.size() == 2);
  CHECK(s.evictions == before.evictions + 2);
  cache.set_size_limit(0);  // keeps none: each call plans again
  CHECK(cache.size() == 0);
  (void)xf::rfft(x);
  CHECK(cache.size() == 0);
  CHECK(xf::to_host(xf::rfft(x)) == first);
  cache.set_size_limit(16);
  cache.clear();
  xf::set_fft_line_kernels(true);
}

TEST_CASE("transforms run on the current stream and record into graphs", "[gpu][fft]") {
  const xf::index_t n = 1 << 16;
  const auto v = uniform<double>(static_cast<std::size_t>(n), -1, 1);
  const auto x = xf::asarray<double>(v);
  const auto want = xf::to_host(xf::irfft(xf::rfft(x) * 2.0));
  xf::array<double, 1> y({n});
  xf::fft_plan_cache().clear();  // the recording makes its plans (cuFFT's tables outside the graph)
  const xf::graph g = xf::capture([&] { y.assign(xf::irfft(xf::rfft(x) * 2.0)); });
  g.launch();
  g.launch();
  const auto got = xf::to_host(y);
  for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(std::abs(got[i] - want[i]) <= 1e-12);
  // With the product in cuFFT's loads: the plan (and its callback's pointer block) made while recording.
  xf::set_fft_callbacks(true);
  xf::array<double, 1> fused({n});
  const xf::graph with_callbacks = xf::capture([&] { fused.assign(xf::irfft(xf::rfft(x) * 2.0)); });
  xf::set_fft_callbacks(false);
  with_callbacks.launch();
  const auto got_fused = xf::to_host(fused);
  for (std::size_t i = 0; i < got_fused.size(); ++i) REQUIRE(std::abs(got_fused[i] - want[i]) <= 1e-12);
  // A graph keeps the plans it replays: clearing the cache, or keeping no plans at all, leaves it intact.
  xf::array<xf::complex128, 1> spectrum({n / 2 + 1});
  const xf::graph forward = xf::capture([&] { spectrum.assign(xf::rfft(x)); });
  xf::fft_plan_cache().clear();
  forward.launch();
  const auto want_spectrum = xf::to_host(xf::rfft(x));
  const auto replayed = xf::to_host(spectrum);
  for (std::size_t i = 0; i < replayed.size(); ++i) REQUIRE(cuda::std::abs(replayed[i] - want_spectrum[i]) <= 1e-9);
  xf::fft_plan_cache().set_size_limit(0);
  const xf::graph unkept = xf::capture([&] { spectrum.assign(xf::rfft(x) * 3.0); });
  xf::fft_plan_cache().set_size_limit(16);
  unkept.launch();
  const auto tripled = xf::to_host(spectrum);
  for (std::size_t i = 0; i < tripled.size(); ++i) REQUIRE(cuda::std::abs(tripled[i] - want_spectrum[i] * 3.0) <= 1e-9);
  const xf::stream other(xf::stream::non_blocking);
  {
    const xf::stream_guard on(other);
    const auto z = xf::irfft(xf::rfft(x) * 2.0);
    const auto back = xf::to_host(z);
    for (std::size_t i = 0; i < back.size(); ++i) REQUIRE(std::abs(back[i] - want[i]) <= 1e-12);
  }
}

// A fused operand (evaluated in cuFFT's loads) against the same transform of the evaluated operand.
// Three ways: in cuFFT's loads (callbacks on), written by one kernel into cuFFT's input (the
// default), and the operand evaluated into an array first.
template <class Transform, class Operand>
void fused_equals_unfused(const Transform& transform, const Operand& operand, double tol, const std::string& what) {
  xf::set_fft_callbacks(true);
  const auto in_loads = transform(operand);
  xf::set_fft_callbacks(false);
  const auto in_one_kernel = transform(operand);
  const auto evaluated = transform(xf::eval(operand));
  require_fft_close(in_loads, ref_of(evaluated), tol, what + " (callbacks)");
  require_fft_close(in_one_kernel, ref_of(evaluated), tol, what + " (one kernel)");
}

TEST_CASE("element-wise operands fused into cuFFT's loads equal the unfused transforms", "[gpu][fft]") {
  REQUIRE(!xf::fft_callbacks());  // off by default
  const auto x = xf::asarray<float>(uniform<float>(64 * 96, -1, 1), xf::dims<2>{64, 96});
  const auto w = xf::asarray<float>(uniform<float>(96, 0, 1));
  const auto column = xf::asarray<float>(uniform<float>(64, 0, 1), xf::dims<2>{64, 1});
  const auto spectrum = xf::rfft(x);
  const auto H = xf::asarray<xf::complex64>(uniform<xf::complex64>(49, -1, 1));
  const auto full_H = xf::asarray<xf::complex64>(uniform<xf::complex64>(64 * 49, -1, 1), xf::dims<2>{64, 49});
  const auto rfft_of = [](const auto& e) { return xf::rfft(e); };
  const auto irfft_of = [](const auto& e) { return xf::irfft(e); };
  fused_equals_unfused(rfft_of, x * w, 2e-5, "rfft(x * w), w broadcast over rows");
  fused_equals_unfused(irfft_of, spectrum * H, 2e-5, "irfft(rfft(x) * H), H broadcast");
  fused_equals_unfused(irfft_of, spectrum * full_H, 2e-5, "irfft(rfft(x) * H), H full");
  fused_equals_unfused([](const auto& e) { return xf::fft(e); }, x * column - 0.5f, 2e-5, "fft(x * column - 0.5)");
  fused_equals_unfused([](const auto& e) { return xf::fft(e, 128, 0, xf::fft_norm::ortho); }, x.T() * 2.0f, 2e-5,
                       "fft of a transposed expression along axis 0, padded, ortho");
  fused_equals_unfused([](const auto& e) { return xf::rfft2(e, {50, 100}); }, xf::abs(x) + xf::square(x), 2e-5, "rfft2 with s, abs and square");
  fused_equals_unfused([](const auto& e) { return xf::irfft2(e, {64, 96}); }, xf::conj(xf::rfft2(x)) * 0.5f, 2e-5, "irfft2(conj(X) * 0.5)");
  fused_equals_unfused([](const auto& e) { return xf::ifft(e, 40); }, xf::exp(x(xf::all, xf::slice(0, xf::_, 2))).astype<xf::complex64>(),
                       2e-5, "ifft truncated, of exp of a strided view cast to complex");
  const auto d = xf::asarray<double>(uniform<double>(3 * 1000, -1, 1), xf::dims<2>{3, 1000});
  const auto i = xf::asarray<std::int32_t>(uniform<std::int32_t>(1000, -50, 50));
  fused_equals_unfused([](const auto& e) { return xf::rfft(e); }, d * i + 3, 1e-12, "rfft of double times int32 plus 3");
  fused_equals_unfused([](const auto& e) { return xf::hfft(e, 1998); }, xf::rfft(d) * (1.0 / 7), 1e-12, "hfft of a product (its conj fused)");
  fused_equals_unfused([](const auto& e) { return xf::ifft(e); }, xf::fft(d) / 7.0, 1e-12, "ifft of a complex quotient (not fused)");
  fused_equals_unfused([](const auto& e) { return xf::fftn(e); }, xf::real(xf::fft(d)) - xf::imag(xf::fft(d)), 1e-12, "fftn of real - imag");
  fused_equals_unfused([](const auto& e) { return xf::rfft(e); }, d * 1e-18 + std::numeric_limits<std::int64_t>::min(), 1e-12,
                       "rfft with the scalar -2^63");
  fused_equals_unfused([](const auto& e) { return xf::rfft(e); }, d * 3ull, 1e-12, "rfft with an unsigned 64-bit scalar (not fused)");
  // NaN in an operand reaches the transform as in the unfused form.
  auto with_nan = uniform<float>(96, 0, 1);
  with_nan[5] = std::numeric_limits<float>::quiet_NaN();
  const auto wn = xf::asarray<float>(with_nan);
  xf::set_fft_callbacks(true);
  const auto r = xf::to_host(xf::rfft(x * wn));
  xf::set_fft_callbacks(false);
  for (const auto& v : r) CHECK((std::isnan(v.real()) || std::isnan(v.imag())));
  // fftconvolve with its padding and product in cuFFT's loads.
  xf::set_fft_callbacks(true);
  fftconvolve_case<xf::device, double, 2>({40, 33}, {9, 12});
  xf::set_fft_callbacks(false);
}

TEST_CASE("fftconvolve of device arrays equals the definition in every mode and method", "[gpu][fft]") {
  fftconvolve_cases<xf::device>();
}
