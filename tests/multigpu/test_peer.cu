// Arrays on two devices: peer copies, and expressions reading another device's memory (peer
// access) or refusing with device_error. This suite needs two GPUs; with fewer it exits 77
// ("Skipped" in CTest).
#include "../common/device_check.hpp"

using namespace xf_test;

TEST_CASE("copies between devices", "[multigpu][transfer]") {
  const auto v = uniform<double>(1 << 20, -1, 1);
  xf::array<double, 1> a;
  {
    xf::device_guard g(0);
    a = xf::asarray<double>(v);
  }
  xf::device_guard g(1);
  const auto b = a.to(xf::device(1));
  CHECK(b.device_id() == 1);
  CHECK(xf::to_host(b) == v);
}

TEST_CASE("an expression on device 1 reading device 0's array works or names both devices", "[multigpu][errors]") {
  const auto v = uniform<float>(1 << 16, -1, 1);
  xf::array<float, 1> a;
  {
    xf::device_guard g(0);
    a = xf::asarray<float>(v);
  }
  xf::device_guard g(1);
  int can = 0;
  REQUIRE(cudaDeviceCanAccessPeer(&can, 1, 0) == cudaSuccess);
  if (can) {
    const xf::array<float, 1> b = a * 2;
    CHECK(b.device_id() == 1);
    const auto h = xf::to_host(b);
    for (std::size_t i = 0; i < v.size(); ++i) REQUIRE(h[i] == v[i] * 2);
  } else {
    CHECK_THROWS_WITH(xf::eval(a * 2), XF_CONTAINS("device 0") && XF_CONTAINS("current device is 1"));
  }
}
