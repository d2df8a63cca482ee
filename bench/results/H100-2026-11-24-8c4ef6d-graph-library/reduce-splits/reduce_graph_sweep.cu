// Sweep: full reductions of mid-size arrays replayed from a graph (no host cost per launch), 100
// back to back per replay, against CUB's DeviceReduce::Sum recorded the same way.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cub/device/device_reduce.cuh>
#include <xfuse/graph.hpp>
#include <xfuse/random.hpp>
#include <xfuse/reduce.hpp>

constexpr int per_graph = 100;

template <class F>
double per_call_us(F&& f) {
  const xf::graph g = xf::capture([&] { for (int i = 0; i < per_graph; ++i) f(); });
  cudaStream_t s = xf::current_stream().handle();
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<double> t;
  g.launch();
  for (int k = 0; k < 9; ++k) {
    cudaEventRecord(a, s);
    g.launch();
    cudaEventRecord(b, s);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(1e3 * ms / per_graph);
  }
  std::sort(t.begin(), t.end());
  return t[4];
}

template <class T>
void run(const char* type) {
  for (xf::index_t n : {1 << 14, 66049, 1 << 17, 264196, 1 << 20, 1 << 22, 1 << 24}) {
    xf::random::generator g(1);
    const xf::array<T, 1> x = xf::random::uniform<T>({n}, g), y = xf::random::uniform<T>({n}, g);
    const xf::array<T, 0> out(xf::dims<0>{});
    void* temp = nullptr;
    size_t bytes = 0;
    cub::DeviceReduce::Sum(temp, bytes, x.data(), out.data(), static_cast<int>(n), xf::current_stream().handle());
    cudaMalloc(&temp, bytes);
    const double cub_us = per_call_us([&] { cub::DeviceReduce::Sum(temp, bytes, x.data(), out.data(), static_cast<int>(n), xf::current_stream().handle()); });
    const double sum_us = per_call_us([&] { out.assign(xf::sum(x)); });
    const double dot_us = per_call_us([&] { out.assign(xf::sum(x * y)); });
#ifdef INTO
    const double into_us = per_call_us([&] { out.assign(xf::lazy::sum(x)); });
    const double dot_into_us = per_call_us([&] { out.assign(xf::lazy::sum(x * y)); });
    std::printf("%s n=%lld cub %.2f us | out.assign(sum(x)) %.2f us (%.2fx cub), out.assign(lazy::sum(x)) %.2f us (%.2fx cub) | sum(x*y) %.2f us, lazy %.2f us\n",
                type, (long long)n, cub_us, sum_us, sum_us / cub_us, into_us, into_us / cub_us, dot_us, dot_into_us);
#else
    std::printf("%s n=%lld cub %.2f us, sum(x) %.2f us (%.2fx cub), sum(x*y) %.2f us\n", type, (long long)n, cub_us, sum_us, sum_us / cub_us, dot_us);
#endif
    cudaFree(temp);
  }
}

int main() {
  run<float>("f32");
  run<double>("f64");
}
