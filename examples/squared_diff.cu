// squared_diff: CuPy's user guide, "Kernel Fusion" (the @cp.fuse squared_diff, fused against
// unfused) and "Basics" (cp.get_array_module: softplus written once for NumPy and CuPy arrays),
// timed with xf::benchmark like cupyx.profiler.benchmark.
//
// Unfused means what CuPy does without cp.fuse: one kernel and one temporary per operation.
// In xfuse every expression fuses; the unfused form materialises each step into an array.
// Without a GPU the same comparisons run on host arrays.
#include <cstdio>

#include <xfuse/benchmark.hpp>
#include <xfuse/random.hpp>
#include <xfuse/reduce.hpp>
#include <xfuse/user/fuse.hpp>

namespace {

// @cp.fuse(kernel_name='squared_diff'): calling it evaluates the expression in one kernel.
const auto squared_diff = xf::fuse([](const auto& x, const auto& y) { return (x - y) * (x - y); }, "squared_diff");

// softplus(x) = log(1 + e^x), written once: the argument's type says host or device, the role
// cp.get_array_module(x) plays in Python.
template <class X>
auto softplus(const X& x) {
  return xf::maximum(0, x) + xf::log1p(xf::exp(-xf::abs(x)));
}

template <class A, class B>
double max_abs_diff(const A& a, const B& b) {
  return static_cast<double>(xf::max(xf::abs(a - b)).item());
}

// Mean time in microseconds: GPU events when there are any, otherwise the host clock.
double mean_us(const xf::benchmark_result& r) { return r.gpu_us.empty() ? r.cpu().mean : r.gpu().mean; }

void show(const xf::benchmark_result& fused, const xf::benchmark_result& unfused, double diff) {
  std::printf("%s\n%s\n  fused is %.1fx faster; max |fused - unfused| = %g\n", fused.to_string().c_str(),
              unfused.to_string().c_str(), mean_us(unfused) / mean_us(fused), diff);
}

// Both forms write into a preallocated `out`, so the difference is the passes over memory and the
// temporaries (device temporaries come from the memory pool, as in CuPy).
template <class Space>
void fused_against_unfused(xf::random::generator& g, const xf::benchmark_options& opt, xf::index_t trig_n) {
  using vec = xf::array<float, 1, Space>;
  for (const xf::index_t n : {xf::index_t{1'000'000}, xf::index_t{10'000'000}, xf::index_t{100'000'000}}) {
    const vec x = xf::random::uniform<float>({n}, g, -1, 1), y = xf::random::uniform<float>({n}, g, -1, 1);
    vec out({n});
    std::printf("\nsquared_diff, n = %.0e floats\n", static_cast<double>(n));
    const auto fused = xf::benchmark("fused", [&] { out.assign(squared_diff.expr(x, y)); }, opt);
    const auto unfused = xf::benchmark("unfused", [&] {
      const vec d1 = x - y, d2 = x - y;  // three kernels, two temporaries
      out.assign(d1 * d2);
    }, opt);
    show(fused, unfused, max_abs_diff(squared_diff(x, y), out));  // squared_diff(x, y): a new array, like CuPy's call
  }

  const xf::index_t n = trig_n;
  const vec x = xf::random::uniform<float>({n}, g, -3, 3), y = xf::random::uniform<float>({n}, g, -3, 3),
            z = xf::random::uniform<float>({n}, g, 0.5, 2);
  vec out({n});
  std::printf("\nsin(x) + cos(y) / sqrt(z), n = %.0e floats\n", static_cast<double>(n));
  const auto fused = xf::benchmark("fused", [&] { out.assign(xf::sin(x) + xf::cos(y) / xf::sqrt(z)); }, opt);
  const auto unfused = xf::benchmark("unfused", [&] {
    const vec s = xf::sin(x), c = xf::cos(y), r = xf::sqrt(z), q = c / r;  // five kernels, four temporaries
    out.assign(s + q);
  }, opt);
  show(fused, unfused, max_abs_diff(xf::sin(x) + xf::cos(y) / xf::sqrt(z), out));
}

}  // namespace

int main() {
  xf::random::generator g(2024);
  const xf::benchmark_options host_opt{.n_repeat = 20, .n_warmup = 1, .max_duration = 1.0, .gpu = false};
  const bool gpu = xf::device::count() > 0;
  if (!gpu) {
    std::printf("squared_diff: no GPU here, so everything runs on host arrays (sin/cos at 1e7 floats).\n");
    fused_against_unfused<xf::host>(g, host_opt, 10'000'000);
  } else {
    fused_against_unfused<xf::device>(g, {.n_repeat = 100, .n_warmup = 10}, 100'000'000);
  }

  // One softplus for both kinds of array, on the same values.
  const xf::index_t n = 10'000'000;
  const xf::array<float, 1, xf::host> xh = xf::random::normal<float>({n}, g, 0, 4);
  std::printf("\nsoftplus, n = %.0e floats: one template for host and device arrays%s\n", static_cast<double>(n),
              gpu ? "" : " (no GPU here: host only)");
  xf::array<float, 1, xf::host> yh({n});
  const auto cpu = xf::benchmark("softplus host", [&] { yh.assign(softplus(xh)); }, host_opt);
  std::printf("%s\n", cpu.to_string().c_str());
  if (gpu) {
    const xf::array<float, 1> xd = xf::asarray(xh);  // cp.asarray(numpy_array)
    xf::array<float, 1> yd({n});
    const auto dev = xf::benchmark("softplus device", [&] { yd.assign(softplus(xd)); }, {.n_repeat = 100});
    std::printf("%s\n  GPU is %.1fx faster; max |host - device| = %g\n", dev.to_string().c_str(), mean_us(cpu) / mean_us(dev),
                max_abs_diff(yh, yd.get()));
  }
  return 0;
}
