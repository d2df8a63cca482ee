// Temporary: sum(x*y) and cub sum against the distance between x and y (not committed).
#include <cub/device/device_reduce.cuh>
#include <xfuse/xfuse.hpp>
#include <algorithm>
#include <cstdio>
#include <vector>
#include "../bench/bench_util.cuh"
int main() {
  const xf::index_t n = 100'000'000;
  cudaStream_t s = xf::current_stream().handle();
  char* big;
  cudaMalloc(&big, std::size_t{3} << 30);
  cudaMemset(big, 0, std::size_t{3} << 30);
  float* res;
  cudaMalloc(&res, 4);
  auto time_pair = [&](const xf::array<float, 1>& x, const xf::array<float, 1>& y, const char* what) {
    std::size_t bytes = 0;
    cub::DeviceReduce::Sum(nullptr, bytes, x.data(), res, x.size(), s);
    void* temp;
    cudaMalloc(&temp, bytes);
    xf::array<float, 0> r;
    const double xy = xf_bench::median_ms([&] { r = xf::sum(x * y); }, 31);
    const double sx = xf_bench::median_ms([&] { r = xf::sum(x); }, 31);
    const double cb = xf_bench::median_ms([&] { cub::DeviceReduce::Sum(temp, bytes, x.data(), res, x.size(), s); }, 31);
    std::printf("%-28s y-x = %+14lld B (mod 2^21 %7lld): sum(x*y) %.4f ms vs_cub_GBps %.3f | sum(x) %.4f cub %.4f vs_cub %.3f\n", what,
                (long long)((const char*)y.data() - (const char*)x.data()), (long long)(((const char*)y.data() - (const char*)x.data()) % (1 << 21)),
                xy, 2 * cb / xy, sx, cb, cb / sx);
    cudaFree(temp);
  };
  {
    const auto x = xf_bench::random_array<float>(n, 0, 1);
    const auto y = xf_bench::random_array<float>(n, 0, 1);
    time_pair(x, y, "bench random_array");
  }
  {
    const xf::array<float, 1> x = xf::arange<float>(n) * 1e-8f, y = xf::arange<float>(n) * 2e-8f;
    time_pair(x, y, "back to back");
  }
  for (long long d : {400000000LL, 1LL << 29, (1LL << 29) + 4096, (1LL << 29) + (1 << 20), 1LL << 30, (1LL << 30) + 65536, 600000000LL, 3LL << 28}) {
    auto x = xf::array<float, 1>::wrap(reinterpret_cast<float*>(big), {n});
    auto y = xf::array<float, 1>::wrap(reinterpret_cast<float*>(big + d), {n});
    x.assign(xf::arange<float>(n) * 1e-8f);
    y.assign(xf::arange<float>(n) * 2e-8f);
    char name[64];
    std::snprintf(name, sizeof name, "offset %lld", d);
    time_pair(x, y, name);
  }
  return 0;
}
