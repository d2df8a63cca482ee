// Casts, where/clip, fused chains and bad input on the device.
#include "../common/bad_input_cases.hpp"
#include "../common/device_check.hpp"

using namespace xf_test;

namespace {
constexpr std::size_t n = 100003;
}

TEST_CASE("float to integer casts saturate on the device exactly as on the host", "[gpu][cast]") {
  auto v = uniform<double>(n, -1e10, 1e10);
  const double specials[] = {NAN, INFINITY, -INFINITY, 127.5, -128.5, 255.9, 2147483647.5, -2147483649.0, 0.0, -0.0};
  for (std::size_t i = 0; i < n; i += 3) v[i] = specials[(i / 3) % 10];
  device_matches_host("astype int8", [](const auto& a) { return a.template astype<std::int8_t>(); }, 0, 0, v);
  device_matches_host("astype uint8", [](const auto& a) { return a.template astype<std::uint8_t>(); }, 0, 0, v);
  device_matches_host("astype int32", [](const auto& a) { return a.template astype<std::int32_t>(); }, 0, 0, v);
  device_matches_host("astype uint64", [](const auto& a) { return a.template astype<std::uint64_t>(); }, 0, 0, v);
  device_matches_host("astype int64 via float", [](const auto& a) { return a.template astype<float>().template astype<std::int64_t>(); }, 0, 0, v);
  device_matches_host("astype half", [](const auto& a) { return a.template astype<xf::half>(); }, 0, 0, v);
  device_matches_host("astype bfloat16", [](const auto& a) { return a.template astype<xf::bfloat16>(); }, 0, 0, v);
  device_matches_host("astype bool", [](const auto& a) { return a.template astype<bool>(); }, 0, 0, v);
  device_matches_host("astype complex64", [](const auto& a) { return a.template astype<xf::complex64>(); }, 0, 0, v);
  const auto w = full_range<std::int64_t>(n);
  device_matches_host("int64 -> int16 wraps", [](const auto& a) { return a.template astype<std::int16_t>(); }, 0, 0, w);
  device_matches_host("int64 -> float", [](const auto& a) { return a.template astype<float>(); }, 0, 0, w);
  device_matches_host("int64 -> half", [](const auto& a) { return a.template astype<xf::half>(); }, 0, 0, uniform<std::int64_t>(n, -70000, 70000));
}

TEST_CASE("where, clip and long fused chains on the device", "[gpu][elementwise]") {
  const auto c = uniform<bool>(n, 0, 1);
  const auto x = uniform<float>(n, -10, 10), y = uniform<float>(n, 0.5, 10), z = uniform<float>(n, 0.5, 10);
  device_matches_host("where", [](const auto& k, const auto& a, const auto& b) { return xf::where(k, a, b); }, 0, 0, c, x, y);
  device_matches_host("clip", [](const auto& a) { return xf::clip(a, -2.5f, 3); }, 0, 0, x);
  device_matches_host("sin(x) + cos(y) / sqrt(z)", [](const auto& a, const auto& b, const auto& d) {
    return xf::sin(a) + xf::cos(b) / xf::sqrt(d);
  }, 8 * eps<float>(), 8 * eps<float>(), x, y, z);
  const auto xd = uniform<double>(n, -30, 30);
  device_matches_host("softplus", [](const auto& a) { return xf::maximum(0, a) + xf::log1p(xf::exp(-xf::abs(a))); },
                      8 * eps<double>(), 8 * eps<double>(), xd);
  const auto h = uniform<xf::half>(n, -4, 4);
  device_matches_host("half chain", [](const auto& a) { return xf::tanh(a * a - 1) * 0.5f + a; }, eps<xf::half>(),
                      eps<xf::half>(), h);
  const auto b = uniform<xf::bfloat16>(n, -4, 4);
  device_matches_host("bfloat16 chain", [](const auto& a) { return xf::exp(-a * a) + xf::abs(a); }, eps<xf::bfloat16>(),
                      eps<xf::bfloat16>(), b);
}

TEST_CASE("bad input on the device throws clearly and leaks nothing", "[gpu][errors]") {
  auto pool = xf::get_default_memory_pool();
  const std::size_t used0 = pool.used_bytes();
  const auto a = xf::asarray<float>(uniform<float>(12, -1, 1), {3, 4});
  const auto v = xf::asarray<float>(uniform<float>(5, -1, 1));
  const std::size_t used1 = pool.used_bytes();
  CHECK_THROWS_WITH(a + v, "xf::add: cannot broadcast (3, 4) with (5,)");
  CHECK_THROWS_AS((xf::where(a > 0, a, v)), xf::shape_error);
  CHECK_THROWS_AS((a.reshape({5, 3})), xf::shape_error);
  CHECK_THROWS_AS(a(3), xf::index_error);
  CHECK_THROWS_AS(xf::device(9999), xf::device_error);
  CHECK_THROWS_AS((xf::asarray<std::int8_t>({1, 2}) + 1000), xf::dtype_error);
  CHECK(pool.used_bytes() == used1);
  CHECK(xf::to_host(xf::eval(a * 0 + 1)) == std::vector<float>(12, 1.f));
  (void)used0;
}

// ---------------------------------------------------------------- bad input (shared cases)

TEST_CASE("shapes too big or negative are refused where they are made: device arrays", "[gpu][errors]") {
  xf_test::bad_input::creation<xf::device>();
  xf_test::bad_input::views<xf::device>();
}

TEST_CASE("manipulation results too big are refused, or out_of_memory at once: device arrays", "[gpu][errors][oom]") {
  xf_test::bad_input::manipulation<xf::device>();
}

TEST_CASE("wrap and from_dlpack refuse null pointers and overflowing layouts: device arrays", "[gpu][errors]") {
  xf_test::bad_input::foreign_memory<xf::device>();
}

TEST_CASE("device memory exhausted is xf::out_of_memory with the bytes asked for", "[gpu][errors][oom]") {
  xf_test::bad_input::out_of_memory<xf::device>();
}

TEST_CASE("integer sums, products and scans wrap as NumPy's do: device arrays", "[gpu][reduce]") {
  xf_test::bad_input::wrapping_reductions<xf::device>();
}
