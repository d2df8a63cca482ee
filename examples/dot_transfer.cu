// dot_transfer: the CuPy tutorial's data-transfer demo: cp.dot(x, y) of 1e8 floats is fast
// when x and y already live on the GPU, and slow when each call first copies NumPy arrays up with
// cp.asarray. NumPy's np.dot on the CPU is the reference. Timed with xf::benchmark.
//
// Without a GPU only the CPU line runs.
#include <cmath>
#include <cstdio>
#include <vector>

#include <xfuse/benchmark.hpp>
#include <xfuse/linalg.hpp>  // xf::dot (for vectors, the fused reduction xf::sum(x * y))
#include <xfuse/random.hpp>

int main() {
  const xf::index_t n = 100'000'000;
  xf::random::generator g(11);
  const xf::array<float, 1, xf::host> hx = xf::random::uniform<float>({n}, g), hy = xf::random::uniform<float>({n}, g);
  // The same values as plain host vectors: what a program has before anything is on the GPU.
  const std::vector<float> vx = xf::to_host(hx), vy = xf::to_host(hy);

  std::printf("dot of two vectors of %.0e floats\n", static_cast<double>(n));
  const auto cpu = xf::benchmark("dot cpu", [&] { const auto d = xf::dot(hx, hy); }, {.n_repeat = 10, .n_warmup = 1, .gpu = false});
  std::printf("%s\n", cpu.to_string().c_str());
  const float on_cpu = xf::dot(hx, hy).item();
  if (xf::device::count() == 0) {
    std::printf("no GPU here: the GPU lines (data on the device, copy included) need one. dot = %.7g\n", on_cpu);
    return 0;
  }

  const xf::array<float, 1> x = xf::asarray(vx), y = xf::asarray(vy);
  // The result stays on the device (a 0-d array), as cp.dot returns it: no host wait inside.
  const auto resident = xf::benchmark("dot gpu", [&] { const auto d = xf::dot(x, y); }, {.n_repeat = 100});
  // Each call copies both vectors up first (staged in pinned memory), like cp.dot(cp.asarray(a), cp.asarray(b)).
  const auto with_copy = xf::benchmark("dot gpu + h2d copy", [&] { const auto d = xf::dot(xf::asarray(vx), xf::asarray(vy)); },
                                       {.n_repeat = 10, .n_warmup = 1});
  std::printf("%s\n%s\n", resident.to_string().c_str(), with_copy.to_string().c_str());
  std::printf("  copying up first makes each call %.0fx slower; with the data already there, the GPU is %.0fx faster than the CPU\n",
              with_copy.gpu().mean / resident.gpu().mean, cpu.cpu().mean / resident.gpu().mean);
  const float on_gpu = xf::dot(x, y).item();
  std::printf("check: dot cpu %.7g, gpu %.7g, relative difference %.2g\n", on_cpu, on_gpu, std::abs(on_gpu - on_cpu) / std::abs(on_cpu));
  return 0;
}
