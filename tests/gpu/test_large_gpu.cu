// More than 2^31 elements: 64-bit positions everywhere, on the device and in transfers.
#include "../common/device_check.hpp"

using namespace xf_test;

TEST_CASE("an expression over more than 2^31 int8 elements", "[gpu][large]") {
  const xf::index_t n = (xf::index_t{1} << 31) + 4099;  // 2.1 GB per array
  const std::int8_t k = static_cast<std::int8_t>(uniform<std::int32_t>(1, 1, 100)[0]);
  xf::array<std::int8_t, 1> x = xf::arange<std::int8_t>(n) + k;  // wraps every 256
  xf::array<std::int8_t, 1> y = x * 3 - x(xf::slice(xf::_, xf::_, -1));
  const auto hy = xf::to_host(y);
  REQUIRE(static_cast<xf::index_t>(hy.size()) == n);
  auto xi = [&](xf::index_t i) { return static_cast<std::int8_t>(static_cast<std::int8_t>(i) + k); };
  std::size_t bad = 0;
  for (xf::index_t i = 0; i < n; i += 1) {
    const auto want = static_cast<std::int8_t>(3 * xi(i) - xi(n - 1 - i));
    bad += hy[static_cast<std::size_t>(i)] != want;
  }
  CHECK(bad == 0);
  // A 2-d view across the 2^31 boundary.
  auto m = x(xf::slice(0, (xf::index_t{1} << 31) + 4096)).reshape({(xf::index_t{1} << 20) + 2, 2048});
  const xf::array<std::int8_t, 2> t = m(xf::slice((xf::index_t{1} << 20) - 1, xf::_), xf::slice(xf::_, xf::_, 511)) + 1;
  const auto ht = xf::to_host(t);
  REQUIRE(ht.size() == 3 * 5);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 5; ++c) {
      const xf::index_t i = (((xf::index_t{1} << 20) - 1 + r) * 2048) + c * 511;
      REQUIRE(ht[r * 5 + c] == static_cast<std::int8_t>(xi(i) + 1));
    }
}
