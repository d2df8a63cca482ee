// gaussian_pdf: the CuPy tutorial's ElementwiseKernel examples, the Gaussian density and the
// distance between points in polar coordinates, over 1e6 floats, written as fused expressions
// (xf::fuse) and, for comparison, as scalar functions in xf::map (the ElementwiseKernel body).
// Then the memory pool as cp.get_default_memory_pool() shows it (the user guide's "Memory
// Management"): used and total bytes, a limit, the out-of-memory error, free_all_blocks.
//
// Without a GPU the kernels run on host arrays; the pool (device memory) is skipped.
#include <cmath>
#include <cstdio>
#include <string>

#include <xfuse/benchmark.hpp>
#include <xfuse/random.hpp>
#include <xfuse/reduce.hpp>
#include <xfuse/user/fuse.hpp>
#include <xfuse/user/map.hpp>

namespace {

// exp(-(x - mean)^2 / (2 sigma^2)) / (sigma sqrt(2 pi)); mean and sigma are scalars.
const auto gaussian_pdf = xf::fuse([](const auto& x, float mean, float sigma) {
  const auto z = (x - mean) / sigma;
  return xf::exp(-0.5f * z * z) / (sigma * 2.5066282746310002f);
}, "gaussian_pdf");

// |p1 - p2| for points given as (r, theta): the law of cosines.
const auto polar_distance = xf::fuse([](const auto& r1, const auto& t1, const auto& r2, const auto& t2) {
  return xf::sqrt(r1 * r1 + r2 * r2 - 2 * r1 * r2 * xf::cos(t1 - t2));
}, "polar_distance");

template <class A, class B>
double max_abs_diff(const A& a, const B& b) {
  return static_cast<double>(xf::max(xf::abs(a - b)).item());
}

std::string mib(std::size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / double(1 << 20));
  return buf;
}

template <class Space>
void kernels(xf::index_t n, const xf::benchmark_options& opt) {
  using vec = xf::array<float, 1, Space>;
  xf::random::generator g(8);
  const vec x = xf::random::normal<float>({n}, g, 1.0, 2.0);
  const vec r1 = xf::random::uniform<float>({n}, g, 0, 10), t1 = xf::random::uniform<float>({n}, g, 0, 6.2831853);
  const vec r2 = xf::random::uniform<float>({n}, g, 0, 10), t2 = xf::random::uniform<float>({n}, g, 0, 6.2831853);
  vec out({n});

  // The ElementwiseKernel way: scalar bodies, called per element (scalars broadcast).
  const auto pdf_body = [] __host__ __device__(float x, float mean, float sigma) {
    const float z = (x - mean) / sigma;
    return expf(-0.5f * z * z) / (sigma * 2.5066282746310002f);
  };
  const auto dist_body = [] __host__ __device__(float r1, float t1, float r2, float t2) {
    return sqrtf(r1 * r1 + r2 * r2 - 2 * r1 * r2 * cosf(t1 - t2));
  };

  const auto pdf = xf::benchmark("gaussian_pdf", [&] { out.assign(gaussian_pdf.expr(x, 1.0f, 2.0f)); }, opt);
  const auto dist = xf::benchmark("polar_distance", [&] { out.assign(polar_distance.expr(r1, t1, r2, t2)); }, opt);
  std::printf("%s\n%s\n", pdf.to_string().c_str(), dist.to_string().c_str());
  std::printf("check: max |fused - map| gaussian_pdf %.3g, polar_distance %.3g\n",
              max_abs_diff(gaussian_pdf(x, 1.0f, 2.0f), xf::map(pdf_body, x, 1.0f, 2.0f)),
              max_abs_diff(polar_distance(r1, t1, r2, t2), xf::map(dist_body, r1, t1, r2, t2)));
}

void pool_demo() {
  auto pool = xf::get_default_memory_pool();  // cp.get_default_memory_pool()
  const auto show = [&](const char* when) {
    std::printf("  %-34s used %10s, total %10s, limit %s\n", when, mib(pool.used_bytes()).c_str(), mib(pool.total_bytes()).c_str(),
                pool.get_limit() ? mib(pool.get_limit()).c_str() : "none");
  };
  std::printf("\nmemory pool of device %d\n", pool.device_id());
  show("after the kernels");
  {
    xf::random::generator g(1);
    const xf::array<float, 1> a = xf::random::uniform<float>({100'000'000}, g);  // 400 MB
    show("with a 400 MB array");
    pool.set_limit(pool.used_bytes() + (64u << 20));  // 64 MiB more than in use; or XFUSE_GPU_MEMORY_LIMIT=...
    show("after set_limit(used + 64 MiB)");
    try {
      const xf::array<float, 1> b({100'000'000});
      std::printf("  (no error?)\n");
    } catch (const xf::out_of_memory& e) {
      std::printf("  caught: %s\n", e.what());
    }
    pool.set_limit(0);  // no limit
  }
  show("the array freed (cached)");
  pool.free_all_blocks();  // cached blocks back to the driver
  show("after free_all_blocks()");
}

}  // namespace

int main() {
  const xf::index_t n = 1'000'000;
  std::printf("gaussian_pdf and polar_distance over %.0e floats\n", static_cast<double>(n));
  if (xf::device::count() == 0) {
    std::printf("no GPU here: the kernels run on host arrays, and the (device) memory pool part is skipped.\n");
    kernels<xf::host>(n, {.n_repeat = 100, .n_warmup = 2, .max_duration = 1.0, .gpu = false});
    return 0;
  }
  kernels<xf::device>(n, {.n_repeat = 1000, .n_warmup = 10});
  pool_demo();
  return 0;
}
