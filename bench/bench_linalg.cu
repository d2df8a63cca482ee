// matmul against raw cuBLAS in the same run (issue 5's products): counter vs_cublas is the raw
// call's time over xfuse's (CUDA-event medians). The raw calls use their own handle, the default
// workspace, and the same operands.
#include <cublas_v2.h>

#include <xfuse/half.hpp>
#include <xfuse/linalg.hpp>

#include "bench_util.cuh"

using namespace xf_bench;

namespace {

void check_blas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s: %s\n", what, cublasGetStatusString(s));
    std::abort();
  }
}

cublasHandle_t raw_handle() {
  static const cublasHandle_t h = [] {
    cublasHandle_t x;
    check_blas(cublasCreate(&x), "cublasCreate");
    return x;
  }();
  check_blas(cublasSetStream(h, xf::current_stream().handle()), "cublasSetStream");
  return h;
}

template <class T>
xf::array<T, 2> random_matrix(xf::index_t rows, xf::index_t cols) {
  const xf::array<T, 1> v = random_array<double>(rows * cols, -1, 1).astype<T>();
  return v.reshape({rows, cols});
}

void report_flops(benchmark::State& state, double ms, double flops, double raw_ms) {
  for (auto _ : state) state.SetIterationTime(ms / 1e3);
  state.counters["ms"] = ms;
  state.counters["TFLOPs"] = flops / (ms * 1e9);
  state.counters["raw_ms"] = raw_ms;
  state.counters["vs_cublas"] = raw_ms / ms;
}

// C = A B, n x n, row-major: the raw call is the column-major C^T = B^T A^T that xfuse makes.
template <class T>
void square(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const auto a = random_matrix<T>(n, n), b = random_matrix<T>(n, n);
  xf::array<T, 2> c;
  const double ms = median_ms([&] { c = xf::matmul(a, b); }, 21);
  xf::array<T, 2> r({n, n});
  const int ni = static_cast<int>(n);
  const double raw = median_ms(
      [&] {
        const cublasHandle_t h = raw_handle();
        if constexpr (std::is_same_v<T, float>) {
          const float one = 1, zero = 0;
          check_blas(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, b.data(), ni, a.data(), ni, &zero, r.data(), ni), "sgemm");
        } else if constexpr (std::is_same_v<T, double>) {
          const double one = 1, zero = 0;
          check_blas(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, b.data(), ni, a.data(), ni, &zero, r.data(), ni), "dgemm");
        } else {
          const float one = 1, zero = 0;
          check_blas(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, b.data(), CUDA_R_16F, ni, a.data(), CUDA_R_16F, ni, &zero,
                                  r.data(), CUDA_R_16F, ni, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                     "gemmex");
        }
      },
      21);
  // Same operands, same library: the results agree to rounding.
  const double diff = xf::max(xf::abs(c.template astype<double>() - r.template astype<double>())).item();
  if (!(diff <= (std::is_same_v<T, double> ? 1e-9 : 0.5))) {
    std::fprintf(stderr, "matmul %lld: xfuse and raw cuBLAS differ by %g\n", static_cast<long long>(n), diff);
    std::abort();
  }
  report_flops(state, ms, 2.0 * n * n * n, raw);
}

// C = A^T B with A stored n x n: the transpose is an operation flag, not a copy.
void square_transposed(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const auto a = random_matrix<float>(n, n), b = random_matrix<float>(n, n);
  xf::array<float, 2> c;
  const double ms = median_ms([&] { c = xf::matmul(a.T(), b); }, 21);
  xf::array<float, 2> r({n, n});
  const int ni = static_cast<int>(n);
  const float one = 1, zero = 0;
  const double raw = median_ms([&] {
    check_blas(cublasSgemm(raw_handle(), CUBLAS_OP_N, CUBLAS_OP_T, ni, ni, ni, &one, b.data(), ni, a.data(), ni, &zero, r.data(), ni), "sgemm");
  }, 21);
  report_flops(state, ms, 2.0 * n * n * n, raw);
}

// 1000 products of 64 x 64: one strided-batched call.
void batched(benchmark::State& state) {
  const xf::index_t count = 1000, n = 64;
  const auto a = random_array<float>(count * n * n, -1, 1).reshape({count, n, n});
  const auto b = random_array<float>(count * n * n, -1, 1).reshape({count, n, n});
  xf::array<float, 3> c;
  const double ms = median_ms([&] { c = xf::matmul(a, b); }, 21);
  xf::array<float, 3> r({count, n, n});
  const float one = 1, zero = 0;
  const double raw = median_ms([&] {
    check_blas(cublasSgemmStridedBatched(raw_handle(), CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one, b.data(), 64, 64 * 64, a.data(), 64,
                                         64 * 64, &zero, r.data(), 64, 64 * 64, 1000),
               "sgemm batched");
  }, 21);
  if (!(xf::max(xf::abs(c - r)).item() <= 1e-3f)) std::abort();
  report_flops(state, ms, 2.0 * count * n * n * n, raw);
}

// Host cost of one small product (64 x 64, already on the device): the time to enqueue it.
void host_cost(benchmark::State& state) {
  const auto a = random_matrix<float>(64, 64), b = random_matrix<float>(64, 64);
  xf::array<float, 2> c = xf::matmul(a, b);
  xf::synchronize();
  const int reps = 2000;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) c = xf::matmul(a, b);
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / reps;
  xf::synchronize();
  const float one = 1, zero = 0;
  const cublasHandle_t h = raw_handle();
  const auto t1 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) check_blas(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one, b.data(), 64, a.data(), 64, &zero, c.data(), 64), "sgemm");
  const double raw_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t1).count() / reps;
  xf::synchronize();
  for (auto _ : state) state.SetIterationTime(us / 1e6);
  state.counters["host_us"] = us;
  state.counters["raw_host_us"] = raw_us;
}

}  // namespace

BENCHMARK(square<float>)->Name("matmul/f32")->Arg(4096)->UseManualTime()->Iterations(1);
BENCHMARK(square<double>)->Name("matmul/f64")->Arg(4096)->UseManualTime()->Iterations(1);
BENCHMARK(square<xf::half>)->Name("matmul/f16")->Arg(4096)->UseManualTime()->Iterations(1);
BENCHMARK(square_transposed)->Name("matmul/A.T()@B/f32")->Arg(4096)->UseManualTime()->Iterations(1);
BENCHMARK(batched)->Name("matmul/batched/1000x64x64/f32")->UseManualTime()->Iterations(1);
BENCHMARK(host_cost)->Name("matmul/host_cost/64x64/f32")->UseManualTime()->Iterations(1);

XF_BENCH_MAIN()
