// elementwise_kernels: the CuPy tutorial's element-wise kernel demo (cp.ElementwiseKernel is the
// user guide's "User-Defined Kernels"):
//   - cp.ones((1000, 1000, 200), dtype=cp.float32) materialised: one fill kernel;
//   - cp.ElementwiseKernel('float32 x, float32 y', 'float32 z', 'z = x + y') over 5e7 elements:
//     xf::map with a __host__ __device__ lambda, against the built-in x + y;
//   - `x *= 3; x *= x` (two kernels, two passes over x) against one fused kernel, x = (3x)^2, on
//     1024^3 floats (4 GiB; fewer when the GPU has less free memory).
// Timed with xf::benchmark. Without a GPU the same runs on host arrays (the in-place part on
// 128 x 1024 x 1024 floats).
#include <cstdio>

#include <xfuse/benchmark.hpp>
#include <xfuse/random.hpp>
#include <xfuse/reduce.hpp>
#include <xfuse/user/map.hpp>

namespace {

template <class A, class B>
double max_abs_diff(const A& a, const B& b) {
  return static_cast<double>(xf::max(xf::abs(a - b)).item());
}

// Planes of 1024 x 1024 floats (4 MiB each) for the in-place test: 1024 (4 GiB), halved until
// they fit in the GPU's free memory with 256 MiB to spare; 128 on the host.
template <class Space>
xf::index_t planes_that_fit() {
  if constexpr (std::is_same_v<Space, xf::host>) {
    return 128;
  } else {
    xf::get_default_memory_pool().free_all_blocks();  // cached pool blocks back to the driver first
    std::size_t free_bytes = 0, total_bytes = 0;
    XF_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    xf::index_t planes = 1024;
    while (planes > 1 && static_cast<std::size_t>(planes) * (4u << 20) + (256u << 20) > free_bytes) planes /= 2;
    std::printf("GPU memory: %.2f GiB free of %.2f GiB\n", free_bytes / double(1 << 30), total_bytes / double(1 << 30));
    return planes;
  }
}

template <class Space>
void run(const xf::benchmark_options& opt) {
  xf::random::generator g(3);
  std::printf("%s\n", xf::benchmark("ones 1000x1000x200", [] { const xf::array<float, 3, Space> a = xf::ones<float>({1000, 1000, 200}); },
                                    opt).to_string().c_str());

  // A user element-wise function: one node of a fused expression, so it runs on host arrays too.
  const xf::index_t n = 50'000'000;
  using vec = xf::array<float, 1, Space>;
  const vec x = xf::random::uniform<float>({n}, g), y = xf::random::uniform<float>({n}, g);
  vec z({n});
  const auto add = [] __host__ __device__(float a, float b) { return a + b; };
  const auto user = xf::benchmark("map(add) 5e7", [&] { z.assign(xf::map(add, x, y)); }, opt);
  const auto builtin = xf::benchmark("x + y 5e7", [&] { z.assign(x + y); }, opt);
  std::printf("%s\n%s\n  max |map(add, x, y) - (x + y)| = %g\n", user.to_string().c_str(), builtin.to_string().c_str(),
              max_abs_diff(xf::map(add, x, y), z));

  // In place: two passes, then one. The values overflow to inf after a few repeats; the speed
  // does not depend on them.
  const xf::index_t planes = planes_that_fit<Space>();
  xf::array<float, 3, Space> c = xf::random::uniform<float>({planes, 1024, 1024}, g, -1, 1);
  std::printf("in place on %lld x 1024 x 1024 floats (%.2f GiB)\n", static_cast<long long>(planes), c.nbytes() / double(1 << 30));
  const auto two = xf::benchmark("x *= 3; x *= x", [&] {
    c *= 3;
    c *= c;
  }, opt);
  const auto one = xf::benchmark("x = square(3 * x)", [&] { c.assign(xf::square(3 * c)); }, opt);  // reads what it writes: no temporary
  // The same two forms on fresh values, to compare them.
  const vec v = xf::random::uniform<float>({1'000'000}, g, -1, 1);
  vec p = v.copy(), q = v.copy();
  p *= 3;
  p *= p;
  q.assign(xf::square(3 * q));
  std::printf("%s\n%s\n  fused is %.2fx faster; max |two kernels - fused| = %g\n", two.to_string().c_str(), one.to_string().c_str(),
              (two.gpu_us.empty() ? two.cpu().mean / one.cpu().mean : two.gpu().mean / one.gpu().mean), max_abs_diff(p, q));
}

}  // namespace

int main() {
  if (xf::device::count() == 0) {
    std::printf("elementwise_kernels: no GPU here, so everything runs on host arrays.\n");
    run<xf::host>({.n_repeat = 5, .n_warmup = 1, .max_duration = 1.0, .gpu = false});
  } else {
    run<xf::device>({.n_repeat = 20, .n_warmup = 3});
  }
  return 0;
}
