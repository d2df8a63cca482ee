// product_reduction: the CuPy tutorial's reduction demo: the product over the first axis of a
// 4096 x 512 x 512 float32 array (4 GiB; fewer planes when the GPU has less free memory), once as
// a raw kernel (cp.RawKernel; here a __global__ function run by xf::launch, which passes arrays as
// xf::view) and once as a reduction (cp.prod(a, axis=0); here xf::prod(a, 0)). Both must agree.
//
// Without a GPU, the reduction runs on a host array (512 x 512 x 512) against a plain loop.
#include <algorithm>
#include <cstdio>

#include <xfuse/benchmark.hpp>
#include <xfuse/random.hpp>
#include <xfuse/reduce.hpp>
#include <xfuse/user/launch.hpp>

// One thread per output element (j, k): walks axis 0. Neighbouring threads read neighbouring k,
// so each step of the loop is one coalesced read per warp.
__global__ void prod_axis0(xf::view<const float, 3> a, xf::view<float, 2> out) {
  const xf::index_t p = blockIdx.x * xf::index_t{blockDim.x} + threadIdx.x;
  const xf::index_t cols = a.extent(2);
  if (p >= a.extent(1) * cols) return;
  const xf::index_t j = p / cols, k = p % cols;
  float acc = 1.0f;
  for (xf::index_t i = 0; i < a.extent(0); ++i) acc *= a(i, j, k);
  out(j, k) = acc;
}

namespace {

// Values near 1, so that a product of thousands stays a normal float.
template <class Space>
xf::array<float, 3, Space> near_one(xf::index_t planes, xf::random::generator& g) {
  return xf::random::uniform<float>({planes, 512, 512}, g, 0.999, 1.001);
}

template <class A, class B>
double max_rel_diff(const A& a, const B& b) {
  return static_cast<double>(xf::max(xf::abs(a - b) / xf::abs(b)).item());
}

void host_only() {
  std::printf("product_reduction: no GPU here, so the reduction runs on a host array against a plain loop.\n");
  xf::random::generator g(17);
  const auto a = near_one<xf::host>(512, g);
  const xf::benchmark_options opt{.n_repeat = 10, .n_warmup = 1, .max_duration = 2.0, .gpu = false};
  xf::array<float, 2, xf::host> by_loop({512, 512}), by_prod;
  const auto loop = xf::benchmark("loop (host)", [&] {
    std::fill(by_loop.data(), by_loop.data() + by_loop.size(), 1.0f);
    for (xf::index_t i = 0; i < a.shape(0); ++i)
      for (xf::index_t jk = 0; jk < 512 * 512; ++jk) by_loop.data()[jk] *= a.data()[i * 512 * 512 + jk];
  }, opt);
  const auto reduce = xf::benchmark("xf::prod(a, 0) host", [&] { by_prod = xf::prod(a, 0); }, opt);
  std::printf("product over axis 0 of 512 x 512 x 512 floats\n%s\n%s\n  max relative |loop - prod| = %.3g\n",
              loop.to_string().c_str(), reduce.to_string().c_str(), max_rel_diff(by_loop, by_prod));
}

}  // namespace

int main() {
  if (xf::device::count() == 0) {
    host_only();
    return 0;
  }
  // 4096 planes of 512 x 512 floats (1 MiB each), halved until they fit with 256 MiB to spare.
  std::size_t free_bytes = 0, total_bytes = 0;
  XF_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  xf::index_t planes = 4096;
  while (planes > 1 && static_cast<std::size_t>(planes) * (1u << 20) + (256u << 20) > free_bytes) planes /= 2;

  xf::random::generator g(17);
  const auto a = near_one<xf::device>(planes, g);
  xf::array<float, 2> by_kernel({512, 512}), by_prod;
  const int block = 256;
  const auto grid = static_cast<unsigned>((by_kernel.size() + block - 1) / block);
  const xf::benchmark_options opt{.n_repeat = 20, .n_warmup = 3};
  const auto kernel = xf::benchmark("user kernel", [&] { xf::launch(grid, block, prod_axis0, a, by_kernel); }, opt);
  const auto reduce = xf::benchmark("xf::prod(a, 0)", [&] { by_prod = xf::prod(a, 0); }, opt);
  std::printf("product over axis 0 of %lld x 512 x 512 floats (%.2f GiB; %.2f GiB were free)\n%s\n%s\n",
              static_cast<long long>(planes), a.nbytes() / double(1 << 30), free_bytes / double(1 << 30),
              kernel.to_string().c_str(), reduce.to_string().c_str());
  std::printf("  effective bandwidth: kernel %.0f GB/s, reduction %.0f GB/s; max relative |kernel - prod| = %.3g\n",
              a.nbytes() / (kernel.gpu().mean * 1e3), a.nbytes() / (reduce.gpu().mean * 1e3), max_rel_diff(by_kernel, by_prod));
  return 0;
}
