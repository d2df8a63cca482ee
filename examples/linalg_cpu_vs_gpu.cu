// linalg_cpu_vs_gpu: the CuPy tutorial's NumPy-against-CuPy linear algebra comparison
// (np.linalg.qr against cp.linalg.qr as n grows, a 4096 x 4096 matmul, det of 512 x 512), and
// its warning about the first call: it creates the cuBLAS/cuSOLVER handles and loads kernels,
// which is why cupyx.profiler.benchmark runs warm-ups first.
//
// Host arrays run on OpenBLAS (NumPy's side), device arrays on cuBLAS and cuSOLVER; float64, as
// np.random gives. Without a GPU only the CPU side runs.
#include <chrono>
#include <cmath>
#include <cstdio>

#include <xfuse/benchmark.hpp>
#include <xfuse/linalg.hpp>
#include <xfuse/random.hpp>

namespace {

using matrix = xf::array<double, 2, xf::host>;
const bool gpu = xf::device::count() > 0;

double mean_us(const xf::benchmark_result& r) { return r.gpu_us.empty() ? r.cpu().mean : r.gpu().mean; }

// The first call alone, on the host clock, waiting for the device's work.
template <class F>
double first_call_ms(F&& fn) {
  const auto t0 = std::chrono::steady_clock::now();
  fn();
  if (gpu) xf::synchronize();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Times op on the host array a and, with a GPU, on a copy of it on the device.
template <class Op>
void compare(const char* name, const matrix& a, Op op) {
  const xf::benchmark_options cpu_opt{.n_repeat = 10, .n_warmup = 1, .max_duration = 2.0, .gpu = false};
  const xf::benchmark_options gpu_opt{.n_repeat = 20, .n_warmup = 2, .max_duration = 2.0};
  char label[32];
  std::snprintf(label, sizeof label, "%s cpu", name);
  const double cpu_first = first_call_ms([&] { op(a); });
  const auto cpu = xf::benchmark(label, [&] { op(a); }, cpu_opt);
  std::printf("%s\n", cpu.to_string().c_str());
  if (!gpu) {
    std::printf("  first call %.3f ms\n", cpu_first);
    return;
  }
  const xf::array<double, 2> d = xf::asarray(a);
  std::snprintf(label, sizeof label, "%s gpu", name);
  const double gpu_first = first_call_ms([&] { op(d); });
  const auto dev = xf::benchmark(label, [&] { op(d); }, gpu_opt);
  std::printf("%s\n  first call: cpu %.3f ms, gpu %.3f ms; later calls: GPU %.1fx faster than CPU\n", dev.to_string().c_str(),
              cpu_first, gpu_first, mean_us(cpu) / mean_us(dev));
}

template <class A, class B>
double max_abs_diff(const A& a, const B& b) {
  return xf::max(xf::abs(a - b)).item();
}

}  // namespace

int main() {
  if (!gpu) std::printf("linalg_cpu_vs_gpu: no GPU here, so only the CPU (host arrays, OpenBLAS) side runs.\n");
  xf::random::generator g(7);
  // Entries of variance 1/n keep det(a) inside float64's range.
  const auto random_matrix = [&](xf::index_t n) { return matrix(xf::random::normal<double>({n, n}, g, 0.0, 1.0 / std::sqrt(double(n)))); };
  const auto qr = [](const auto& x) { const auto f = xf::linalg::qr(x); };  // f.Q, f.R

  std::printf("\nQR (np.linalg.qr / cp.linalg.qr), reduced, float64\n");
  for (const xf::index_t n : {64, 128, 256, 512, 1024, 2048}) {
    char name[16];
    std::snprintf(name, sizeof name, "qr %lld", static_cast<long long>(n));
    compare(name, random_matrix(n), qr);
  }

  std::printf("\nmatmul 4096 x 4096 @ 4096 x 4096, float64\n");
  const matrix a = random_matrix(4096);
  compare("matmul 4096", a, [](const auto& x) { const auto c = xf::eval(xf::matmul(x, x)); });  // matmul is lazy: eval runs it

  std::printf("\ndet 512 x 512, float64\n");
  const matrix m = random_matrix(512);
  compare("det 512", m, [](const auto& x) { const auto d = xf::linalg::det(x); });

  // Checks: Q R = a on both sides, and CPU against GPU for matmul and det.
  const matrix q512 = random_matrix(512);
  const auto [q, r] = xf::linalg::qr(q512);
  std::printf("\ncheck: max |Q R - a| (512, cpu) = %.3g\n", max_abs_diff(xf::matmul(q, r), q512));
  if (gpu) {
    const xf::array<double, 2> dq = xf::asarray(q512);
    const auto [qd, rd] = xf::linalg::qr(dq);
    std::printf("check: max |Q R - a| (512, gpu) = %.3g\n", max_abs_diff(xf::matmul(qd, rd), dq));
    const xf::array<double, 2> da = xf::asarray(a);
    std::printf("check: max |a a (gpu) - a a (cpu)| (4096) = %.3g\n", max_abs_diff(xf::eval(xf::matmul(da, da)).get(), xf::matmul(a, a)));
    const double dc = xf::linalg::det(m).item(), dg = xf::linalg::det(xf::asarray(m)).item();
    std::printf("check: det 512: cpu %.6g, gpu %.6g, relative difference %.3g\n", dc, dg, std::abs(dg - dc) / std::abs(dc));
  }
  return 0;
}
