// User kernels: xf::fuse (one kernel for a lambda's expression), xf::map (a user function as a
// node of a fused expression, on host and device), xf::launch (a raw __global__ with views).
#include <xfuse/xfuse.hpp>

#include "../common/device_check.hpp"

using namespace xf_test;

namespace {
__global__ void scale_rows(xf::view<float, 2> a, xf::view<const float, 1> s) {
  const auto i = static_cast<xf::index_t>(blockIdx.x);
  for (xf::index_t j = threadIdx.x; j < a.extent(1); j += blockDim.x) a(i, j) *= s(i);
}
}  // namespace

TEST_CASE("xf::fuse evaluates a lambda's expression in one kernel", "[gpu][user]") {
  static auto squared_diff = xf::fuse([](const auto& x, const auto& y) { return (x - y) * (x - y); }, "squared_diff");
  CHECK(std::string(squared_diff.name()) == "squared_diff");
  const auto xv = uniform<float>(1 << 20, -1, 1), yv = uniform<float>(1 << 20, -1, 1);
  const auto d = squared_diff(xf::asarray<float>(xv), xf::asarray<float>(yv));
  const auto h = squared_diff(xf::asarray<float, xf::host>(xv), xf::asarray<float, xf::host>(yv));
  static_assert(std::is_same_v<decltype(d), const xf::array<float, 1>>);
  require_equal(xf::to_host(d), xf::to_host(h), "fused squared_diff");
  // A scalar argument, and the lazy form inside a larger expression.
  const xf::array<float, 1> e = squared_diff.expr(xf::asarray<float>(xv), 0.5f) + 1;
  std::vector<float> want(xv.size());
  for (std::size_t i = 0; i < xv.size(); ++i) want[i] = (xv[i] - 0.5f) * (xv[i] - 0.5f) + 1;
  require_all_close(xf::to_host(e), want, 1e-6, 1e-6, "fused expr inside an expression");
}

TEST_CASE("xf::map runs a user function inside a fused expression, on host and device", "[gpu][user]") {
  auto relu_diff = [] __host__ __device__(float a, double b) { return a > b ? static_cast<float>(a - b) : 0.f; };
  const auto xv = uniform<float>(100003, -1, 1);
  const auto yv = uniform<double>(100003, -1, 1);
  device_matches_host("map", [&](const auto& a, const auto& b) { return xf::map(relu_diff, a, b) * 2 + a; }, 1e-6, 1e-6, xv, yv);
  const xf::array<float, 1, xf::host> h = xf::map(relu_diff, xf::asarray<float, xf::host>(xv), 0.25);
  const auto hv = xf::to_host(h);
  for (std::size_t i = 0; i < xv.size(); ++i) REQUIRE(hv[i] == (xv[i] > 0.25 ? static_cast<float>(xv[i] - 0.25) : 0.f));
}

TEST_CASE("xf::launch passes arrays as views to a raw kernel", "[gpu][user]") {
  const auto av = uniform<float>(64 * 300, -1, 1), sv = uniform<float>(64, 1, 2);
  auto a = xf::asarray<float>(av, {64, 300});
  const auto s = xf::asarray<float>(sv);
  xf::launch(dim3(64), dim3(128), scale_rows, a, xf::make_view(s));
  const auto h = xf::to_host(a);
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 300; ++j) REQUIRE(h[i * 300 + j] == av[i * 300 + j] * sv[i]);
  // A strided view is passed with its strides: scale every other row of the transpose.
  auto t = xf::asarray<float>(av, {64, 300});
  xf::launch(dim3(64), dim3(64), scale_rows, t(xf::all, xf::slice(0, 300, 2)), xf::make_view(s));
  const auto ht = xf::to_host(t);
  CHECK(ht[2] == av[2] * sv[0]);
  CHECK(ht[3] == av[3]);
}
