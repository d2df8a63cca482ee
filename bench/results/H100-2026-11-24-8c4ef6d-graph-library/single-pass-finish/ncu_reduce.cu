// Kernels of one mid-size reduction (514^2 doubles into a 0-d array) and of CUB's, for Nsight Compute.
#include <cub/device/device_reduce.cuh>
#include <xfuse/random.hpp>
#include <xfuse/reduce.hpp>
int main() {
  const xf::index_t n = 514 * 514;
  xf::random::generator g(1);
  const xf::array<double, 1> x = xf::random::uniform<double>({n}, g);
  const xf::array<double, 0> out(xf::dims<0>{});
  void* temp = nullptr;
  size_t bytes = 0;
  cub::DeviceReduce::Sum(temp, bytes, x.data(), out.data(), static_cast<int>(n), xf::current_stream().handle());
  cudaMalloc(&temp, bytes);
  for (int i = 0; i < 3; ++i) {
    out.assign(xf::lazy::sum(x));
    cub::DeviceReduce::Sum(temp, bytes, x.data(), out.data(), static_cast<int>(n), xf::current_stream().handle());
  }
  cudaDeviceSynchronize();
}
