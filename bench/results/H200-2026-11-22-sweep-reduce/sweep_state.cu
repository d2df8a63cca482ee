// Temporary: does the pool's history change sum(x*y)? (not committed)
#include <cub/device/device_reduce.cuh>
#include <xfuse/xfuse.hpp>
#include <cstdio>
#include "../bench/bench_util.cuh"
int main() {
  const xf::index_t n = 100'000'000;
  cudaStream_t s = xf::current_stream().handle();
  float* res;
  cudaMalloc(&res, 4);
  std::size_t bytes = 1 << 20;
  void* temp;
  cudaMalloc(&temp, bytes);
  auto measure = [&](const char* what) {
    const auto x = xf_bench::random_array<float>(n, 0, 1);
    const auto y = xf_bench::random_array<float>(n, 0, 1);
    xf::array<float, 0> r;
    const double xy = xf_bench::median_ms([&] { r = xf::sum(x * y); }, 21);
    const double yx = xf_bench::median_ms([&] { r = xf::sum(y * x); }, 21);
    const double sx = xf_bench::median_ms([&] { r = xf::sum(x); }, 21);
    const double sy = xf_bench::median_ms([&] { r = xf::sum(y); }, 21);
    const double cx = xf_bench::median_ms([&] { cub::DeviceReduce::Sum(temp, bytes, x.data(), res, n, s); }, 21);
    const double cy = xf_bench::median_ms([&] { cub::DeviceReduce::Sum(temp, bytes, y.data(), res, n, s); }, 21);
    const double xy2 = xf_bench::median_ms([&] { r = xf::sum(x * y); }, 21);
    std::printf("%-34s x %p y %p: sum(x*y) %.4f (again %.4f) sum(y*x) %.4f | sum(x) %.4f sum(y) %.4f | cub(x) %.4f cub(y) %.4f | pool %zu MB\n",
                what, (const void*)x.data(), (const void*)y.data(), xy, xy2, yx, sx, sy, cx, cy, xf::get_default_memory_pool().total_bytes() >> 20);
  };
  measure("fresh");
  measure("second");
  {
    const auto x0 = xf_bench::random_array<float>(n, 0, 1);
    xf::array<float, 0> r;
    for (int i = 0; i < 20; ++i) r = xf::sum(x0);
    r.item();
  }
  measure("after a sum_plain-like case");
  xf::get_default_memory_pool().free_all_blocks();
  measure("after free_all_blocks");
  std::printf("copy %.0f GB/s\n", xf_bench::copy_gbps());
  measure("after copy_gbps (cudaMalloc/cudaFree 2 GB)");
  measure("again");
  xf::get_default_memory_pool().free_all_blocks();
  measure("after copy_gbps and free_all_blocks");
  return 0;
}
