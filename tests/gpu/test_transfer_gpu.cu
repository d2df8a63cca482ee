// Transfers: a round trip of every element type, from vectors, spans and initializer lists,
// strided views to the host, asynchronous copies through pinned memory, host arrays <-> device
// arrays, .item(), .copy(), and copies between devices when there are two.
#include <span>

#include "../common/device_check.hpp"

using namespace xf_test;

namespace {
template <class T>
void round_trip() {
  const auto v = uniform<T>(3 * 5 * 7 * 11, -100, 100);
  const auto d = xf::asarray<T>(v, {3, 5, 7, 11});
  const auto back = xf::to_host(d);
  REQUIRE(back.size() == v.size());
  for (std::size_t i = 0; i < v.size(); ++i) REQUIRE(close(back[i], v[i], 0, 0));
  const auto h = d.get();  // device -> host array
  const auto d2 = xf::asarray(h);  // host array -> device
  const auto c = d2.copy();
  const auto back2 = xf::to_host(c);
  for (std::size_t i = 0; i < v.size(); ++i) REQUIRE(close(back2[i], v[i], 0, 0));
  // A strided view back to the host: logical (C) order.
  const auto view = d(xf::slice(xf::_, xf::_, -1), 2, xf::slice(1, 7, 3));
  const auto hv = xf::to_host(view);
  REQUIRE(hv.size() == 3 * 2 * 11);
  std::size_t k = 0;
  for (int i = 2; i >= 0; --i)
    for (int j = 1; j < 7; j += 3)
      for (int l = 0; l < 11; ++l) REQUIRE(close(hv[k++], v[((i * 5 + 2) * 7 + j) * 11 + l], 0, 0));
}
}  // namespace

TEMPLATE_TEST_CASE("every element type survives a round trip", "[gpu][transfer]", bool, std::int8_t, std::int16_t,
                   std::int32_t, std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, xf::half,
                   xf::bfloat16, float, double, xf::complex64, xf::complex128) {
  round_trip<TestType>();
}

TEST_CASE("arrays from vectors, spans and initializer lists; item()", "[gpu][transfer]") {
  const std::vector<double> v{1, 2, 3, 4, 5, 6};
  const auto a = xf::asarray(v);
  CHECK(a.shape() == xf::dims<1>{6});
  const auto b = xf::asarray<double>(std::span<const double>(v), {2, 3});
  CHECK(xf::to_host(b.T()) == std::vector<double>{1, 4, 2, 5, 3, 6});
  const auto c = xf::asarray<int>({7, 8, 9});
  CHECK(c(1).item() == 8);
  CHECK(xf::asarray<int>({42}, {1}).item() == 42);
  CHECK_THROWS_AS(c.item(), xf::error);
  const xf::array<bool, 1> flags = c > 7;
  CHECK(xf::to_host(flags) == std::vector<bool>{false, true, true});
}

TEST_CASE("asynchronous device-to-host copies through pinned memory", "[gpu][transfer]") {
  const auto v = uniform<float>(1 << 22, -1, 1);
  const auto d = xf::asarray<float>(v);
  auto t = xf::to_host_async(d * 2);  // the product is a temporary: the copy keeps ordering
  const auto got = t.get();
  CHECK(t.ready());
  for (std::size_t i = 0; i < v.size(); i += 997) REQUIRE(got[i] == v[i] * 2);
  auto t2 = xf::to_host_async(d(xf::slice(xf::_, xf::_, -2)));
  t2.wait();
  CHECK(t2.pinned()[0] == v.back() * 1);
}

TEST_CASE("wrapping device memory the caller owns", "[gpu][transfer]") {
  float* raw = nullptr;
  REQUIRE(cudaMalloc(&raw, 1024 * sizeof(float)) == cudaSuccess);
  {
    auto w = xf::array<float, 2>::wrap(raw, {32, 32});
    w.assign(xf::eye<float>(32));
    CHECK(xf::to_host(w.diagonal()) == std::vector<float>(32, 1.f));
    std::vector<float> host(1024);
    REQUIRE(cudaMemcpy(host.data(), raw, 4096, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(host[33] == 1.f);
    CHECK(host[34] == 0.f);
  }
  REQUIRE(cudaFree(raw) == cudaSuccess);
  std::vector<float> h(4);
  CHECK_THROWS_AS((xf::array<float, 1>::wrap(h.data(), {4})), xf::device_error);
}

