// Temporary tuning sweep (not committed): sum(x) and sum(x*y) over 1e8 floats against cub.
#include <cub/device/device_reduce.cuh>
#include <xfuse/xfuse.hpp>
#include <algorithm>
#include <cstdio>
#include <vector>
#define STR2(x) #x
#define STR(x) STR2(x)
int main() {
  const xf::index_t n = 100'000'000;
  const xf::array<float, 1> x = xf::arange<float>(n) * 1e-8f + 0.25f;
  const xf::array<float, 1> y = xf::arange<float>(n) * -1e-8f + 1.5f;
  cudaStream_t s = xf::current_stream().handle();
  float* res;
  cudaMalloc(&res, 4);
  std::size_t bytes = 0;
  cub::DeviceReduce::Sum(nullptr, bytes, x.data(), res, x.size(), s);
  void* temp;
  cudaMalloc(&temp, bytes);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> tx, txy, tc;
  xf::array<float, 0> r;
  auto time = [&](auto&& f, std::vector<float>& out) {
    cudaEventRecord(a, s);
    f();
    cudaEventRecord(b, s);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    out.push_back(ms);
  };
  for (int rep = 0; rep < 45; ++rep) {
    time([&] { r = xf::sum(x); }, tx);
    time([&] { cub::DeviceReduce::Sum(temp, bytes, x.data(), res, x.size(), s); }, tc);
    time([&] { r = xf::sum(x * y); }, txy);
  }
  auto med = [](std::vector<float> v) { v.erase(v.begin(), v.begin() + 5); std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
  const double mx = med(tx), mc = med(tc), mxy = med(txy);
  float want;
  cudaMemcpy(&want, res, 4, cudaMemcpyDeviceToHost);
  const float got = xf::sum(x).item();
  const double dxy = xf::sum(x * y).item(), wxy = xf::sum(xf::array<double, 1>(x * y)).item();
  std::printf("check sum(x) %.7g vs cub %.7g, sum(x*y) %.7g vs f64 %.7g\n", got, want, dxy, wxy);
  std::printf("variant min_blocks=%s round=%s waves=%s load=%s blocked=%s interleave=%s: sum(x) %.4f ms, cub %.4f ms, vs_cub %.3f | sum(x*y) %.4f ms, vs_cub_GBps %.3f\n",
              STR(XF_REDUCE_MIN_BLOCKS), STR(XF_REDUCE_ROUND_CHUNKS), STR(XF_REDUCE_WAVES), STR(XF_REDUCE_LOAD), STR(XF_REDUCE_BLOCKED), STR(XF_REDUCE_INTERLEAVE), mx, mc, mc / mx, mxy, 2 * mc / mxy);
  return 0;
}
