// matmul against raw cuBLAS and the solvers against raw cuSOLVER sequences in the same run:
// counters vs_cublas / vs_cusolver are the raw time over xfuse's (CUDA-event medians). The raw
// calls use their own handles and the same operands.
#include <cublas_v2.h>
#include <cusolverDn.h>

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

// int32 C = A B (NumPy's wrapping integer product): one fused reduction, BLAS having no int32
// GEMM. The raw figure is cuBLAS's float32 SGEMM of the same size, for scale; the check is that
// float product, exact here (|values| <= 100, sums below 2^24).
void integer_square(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const xf::array<int, 2> a = xf::rint(random_matrix<double>(n, n) * 100.0).astype<int>();
  const xf::array<int, 2> b = xf::rint(random_matrix<double>(n, n) * 100.0).astype<int>();
  xf::array<int, 2> c;
  const double ms = median_ms([&] { c = xf::matmul(a, b); }, 11);
  const xf::array<float, 2> fa = a.astype<float>(), fb = b.astype<float>();
  xf::array<float, 2> r({n, n});
  const int ni = static_cast<int>(n);
  const float one = 1, zero = 0;
  const double raw = median_ms(
      [&] {
        check_blas(cublasSgemm(raw_handle(), CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, fb.data(), ni, fa.data(), ni, &zero, r.data(), ni),
                   "sgemm");
      },
      11);
  const double diff = xf::max(xf::abs(c.astype<double>() - r.astype<double>())).item();
  if (diff != 0) {
    std::fprintf(stderr, "integer matmul %lld: differs from the exact float product by %g\n", static_cast<long long>(n), diff);
    std::abort();
  }
  report_flops(state, ms, 2.0 * n * n * n, raw);
}

// einsum("bij,bjk->bik") against cuBLAS's strided-batched SGEMM of the same operands: the
// subscripts lower to that one call, so the difference is einsum's host work.
void einsum_batched(benchmark::State& state) {
  const xf::index_t nb = state.range(0), n = state.range(1);
  const xf::array<float, 3> a = random_matrix<float>(nb * n, n).reshape({nb, n, n});
  const xf::array<float, 3> b = random_matrix<float>(nb * n, n).reshape({nb, n, n});
  xf::array<float, 3> c;
  const double ms = median_ms([&] { c = xf::einsum<"bij,bjk->bik">(a, b); }, 21);
  xf::array<float, 3> r({nb, n, n});
  const int ni = static_cast<int>(n);
  const float one = 1, zero = 0;
  const double raw = median_ms(
      [&] {
        check_blas(cublasSgemmStridedBatched(raw_handle(), CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, b.data(), ni, n * n, a.data(), ni,
                                             n * n, &zero, r.data(), ni, n * n, static_cast<int>(nb)),
                   "sgemm strided batched");
      },
      21);
  const double diff = xf::max(xf::abs(c - r)).item();
  if (!(diff <= 1e-3)) {
    std::fprintf(stderr, "einsum %lld x %lld: differs from cuBLAS by %g\n", static_cast<long long>(nb), static_cast<long long>(n), diff);
    std::abort();
  }
  report_flops(state, ms, 2.0 * nb * n * n * n, raw);
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

// C = 2 A B + 0.5 C in place (C.assign): one GEMM with alpha and beta, against raw cublasSgemm
// with the same alpha and beta, and against the unfused form (a GEMM into a temporary, then an
// element-wise pass), whose time over xfuse's is `vs_unfused`.
void alpha_beta(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const auto a = random_matrix<float>(n, n), b = random_matrix<float>(n, n);
  const auto c0 = random_matrix<float>(n, n);
  xf::array<float, 2> c = c0.copy();
  const double ms = median_ms([&] { c.assign(2.0f * xf::matmul(a, b) + 0.5f * c); }, 21);
  xf::array<float, 2> unfused = c0.copy();
  const double unfused_ms = median_ms([&] {
    const xf::array<float, 2> p = xf::matmul(a, b);
    unfused.assign(2.0f * p + 0.5f * unfused);
  }, 21);
  xf::array<float, 2> r = c0.copy();
  const int ni = static_cast<int>(n);
  const float alpha = 2, beta = 0.5f;
  const double raw = median_ms([&] {
    check_blas(cublasSgemm(raw_handle(), CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &alpha, b.data(), ni, a.data(), ni, &beta, r.data(), ni), "sgemm");
  }, 21);
  // The three ran the same number of times from the same start: they agree to rounding.
  if (!(xf::max(xf::abs(c - r)).item() <= 1e-2f * static_cast<float>(n))) std::abort();
  report_flops(state, ms, 2.0 * n * n * n, raw);
  state.counters["unfused_ms"] = unfused_ms;
  state.counters["vs_unfused"] = unfused_ms / ms;
}

// act(A B + bias) into a preallocated n x n array, act = relu, gelu_tanh or none (range 1: 0, 1, 2):
// one cuBLASLt call with the bias and the activation in its store. Ratios in the same run:
// `vs_plain_gemm` the plain product into the same array (cuBLAS, no bias, no activation) over this,
// `vs_unfused` the unfused form (the product into an array, then one element-wise pass) over this;
// new_array_ms the same statement into a new array.
template <class T>
void epilogue(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const int act = static_cast<int>(state.range(1));
  const auto a = random_matrix<T>(n, n), b = random_matrix<T>(n, n);
  const xf::array<T, 1> bias = random_array<double>(n, -1, 1).astype<T>();
  xf::array<T, 2> y({n, n}), p({n, n}), fresh;
  const auto fused = [&] {
    if (act == 0) y.assign(xf::relu(xf::matmul(a, b) + bias));
    else if (act == 1) y.assign(xf::gelu_tanh(xf::matmul(a, b) + bias));
    else y.assign(xf::matmul(a, b) + bias);
  };
  const auto unfused = [&] {
    p.assign(xf::matmul(a, b));
    if (act == 0) y.assign(xf::relu(p + bias));
    else if (act == 1) y.assign(xf::gelu_tanh(p + bias));
    else y.assign(p + bias);
  };
  const auto fresh_array = [&] {
    if (act == 0) fresh = xf::relu(xf::matmul(a, b) + bias);
    else if (act == 1) fresh = xf::gelu_tanh(xf::matmul(a, b) + bias);
    else fresh = xf::matmul(a, b) + bias;
  };
  const auto plain = [&] { p.assign(xf::matmul(a, b)); };
  // Interleaved rounds (clocks drift over seconds of GEMMs): the median of each over three rounds.
  std::vector<double> f, u, pl, nw;
  for (int round = 0; round < 3; ++round) {
    f.push_back(median_ms(fused, 9));
    u.push_back(median_ms(unfused, 9));
    pl.push_back(median_ms(plain, 9));
    nw.push_back(median_ms(fresh_array, 9));
  }
  const auto mid = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const double ms = mid(f), unfused_ms = mid(u), plain_ms = mid(pl), new_ms = mid(nw);
  // The fused and unfused results agree to the product's rounding (cuBLASLt and cuBLAS may pick
  // different algorithms).
  fused();
  unfused();
  const xf::array<T, 2> again = y.copy();
  fused();
  const double diff = xf::max(xf::abs(y.template astype<float>() - again.template astype<float>())).item();
  // cuBLASLt and cuBLAS may sum in other orders: float to 2^-16 of the largest value (128 units in
  // the last place over 4096 terms), bfloat16 to 2 units in the last place of it.
  const double largest = xf::max(xf::abs(again.template astype<float>())).item();
  const double tol = largest * (std::is_same_v<T, float> ? 0x1p-16 : 0x1p-6);
  if (!(diff <= tol)) {
    std::fprintf(stderr, "epilogue %d: fused and unfused differ by %g\n", act, diff);
    std::abort();
  }
  for (auto _ : state) state.SetIterationTime(ms / 1e3);
  state.counters["ms"] = ms;
  state.counters["TFLOPs"] = 2.0 * n * n * n / (ms * 1e9);
  state.counters["plain_gemm_ms"] = plain_ms;
  state.counters["vs_plain_gemm"] = plain_ms / ms;
  state.counters["unfused_ms"] = unfused_ms;
  state.counters["vs_unfused"] = unfused_ms / ms;
  state.counters["new_array_ms"] = new_ms;
}

// 1000 products of 64 x 64: one strided-batched call.
void batched(benchmark::State& state) {
  const xf::index_t count = 1000, n = 64;
  const auto a = random_array<float>(count * n * n, -1, 1).reshape({count, n, n});
  const auto b = random_array<float>(count * n * n, -1, 1).reshape({count, n, n});
  // Into existing memory (one GEMM, no allocation), as the raw call writes; and into a new array.
  xf::array<float, 3> c({count, n, n});
  const double ms = median_ms([&] { c.assign(xf::matmul(a, b)); }, 21);
  xf::array<float, 3> fresh;
  const double new_ms = median_ms([&] { fresh = xf::matmul(a, b); }, 21);
  xf::array<float, 3> r({count, n, n});
  const float one = 1, zero = 0;
  const double raw = median_ms([&] {
    check_blas(cublasSgemmStridedBatched(raw_handle(), CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one, b.data(), 64, 64 * 64, a.data(), 64,
                                         64 * 64, &zero, r.data(), 64, 64 * 64, 1000),
               "sgemm batched");
  }, 21);
  if (!(xf::max(xf::abs(c - r)).item() <= 1e-3f) || !(xf::max(xf::abs(fresh - r)).item() <= 1e-3f)) std::abort();
  report_flops(state, ms, 2.0 * count * n * n * n, raw);
  state.counters["new_array_ms"] = new_ms;
  state.counters["new_array_vs_cublas"] = raw / new_ms;
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

// ---------------------------------------------------------------- solvers against raw cuSOLVER
void check_solver(cusolverStatus_t s, const char* what) {
  if (s != CUSOLVER_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s: cuSOLVER status %d\n", what, static_cast<int>(s));
    std::abort();
  }
}

struct raw_solver {
  cusolverDnHandle_t h;
  cusolverDnParams_t p;
  raw_solver() {
    check_solver(cusolverDnCreate(&h), "create");
    check_solver(cusolverDnCreateParams(&p), "params");
  }
};
raw_solver& raw_cusolver() {
  static raw_solver r;
  check_solver(cusolverDnSetStream(r.h, xf::current_stream().handle()), "stream");
  return r;
}

// A well-conditioned n x n matrix: random values plus n on the diagonal.
template <class T>
xf::array<T, 2> well_conditioned(xf::index_t n) {
  return random_matrix<T>(n, n) + xf::eye<T>(n) * static_cast<T>(n);
}

template <class T>
constexpr cudaDataType_t data_type() {
  return std::is_same_v<T, float> ? CUDA_R_32F : CUDA_R_64F;
}

// The raw sequence every LU-based call needs: copy A (getrf overwrites it), factor it, and for
// solve/inv the triangular solves. Pool memory for the copies and workspaces, like xfuse's.
template <class T>
double raw_lu_ms(const xf::array<T, 2>& a, xf::index_t nrhs, bool solve) {
  const xf::index_t n = a.shape(0);
  raw_solver& r = raw_cusolver();
  xf::array<T, 2> w({n, n});
  xf::array<std::int64_t, 1> piv({n});
  xf::array<int, 1> info({1});
  xf::array<T, 2> rhs({nrhs > 0 ? nrhs : 1, n});
  std::size_t dev_bytes = 0, host_bytes = 0;
  constexpr cudaDataType_t t = data_type<T>();
  check_solver(cusolverDnXgetrf_bufferSize(r.h, r.p, n, n, t, w.data(), n, t, &dev_bytes, &host_bytes), "getrf size");
  xf::array<unsigned char, 1> work({static_cast<xf::index_t>(dev_bytes + 1)});
  std::vector<unsigned char> host_work(host_bytes + 1);
  const cudaStream_t s = xf::current_stream().handle();
  return median_ms([&] {
    check(cudaMemcpyAsync(w.data(), a.data(), a.nbytes(), cudaMemcpyDeviceToDevice, s), "copy");
    check_solver(cusolverDnXgetrf(r.h, r.p, n, n, t, w.data(), n, piv.data(), t, work.data(), dev_bytes, host_work.data(), host_bytes, info.data()),
                 "getrf");
    if (solve) check_solver(cusolverDnXgetrs(r.h, r.p, CUBLAS_OP_N, n, nrhs, t, w.data(), n, piv.data(), t, rhs.data(), n, info.data()), "getrs");
  }, 11, 2);
}

template <class T>
void report_solver(benchmark::State& state, double ms, double raw_ms) {
  for (auto _ : state) state.SetIterationTime(ms / 1e3);
  state.counters["ms"] = ms;
  state.counters["raw_ms"] = raw_ms;
  state.counters["vs_cusolver"] = raw_ms / ms;
}

template <class T>
void solve_case(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const auto a = well_conditioned<T>(n);
  const auto b = random_matrix<T>(n, 1);
  xf::array<T, 2> x;
  const double ms = median_ms([&] { x = xf::linalg::solve(a, b); }, 11, 2);
  // The residual of the solution, relative: a wrong answer aborts the run.
  const double res = xf::max(xf::abs(xf::matmul(a, x) - b)).item();
  if (!(res <= (std::is_same_v<T, float> ? 1e-3 : 1e-9))) std::abort();
  report_solver<T>(state, ms, raw_lu_ms(a, 1, true));
}

template <class T>
void inv_case(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const auto a = well_conditioned<T>(n);
  xf::array<T, 2> x;
  const double ms = median_ms([&] { x = xf::linalg::inv(a); }, 7, 1);
  const double res = xf::max(xf::abs(xf::matmul(a, x) - xf::eye<T>(n))).item();
  if (!(res <= (std::is_same_v<T, float> ? 1e-3 : 1e-9))) std::abort();
  report_solver<T>(state, ms, raw_lu_ms(a, n, true));
}

template <class T>
void det_case(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const auto a = well_conditioned<T>(n);
  xf::array<T, 0> d;
  const double ms = median_ms([&] { d = xf::linalg::det(a); }, 11, 2);
  report_solver<T>(state, ms, raw_lu_ms(a, 0, false));  // raw: copy + getrf only (no diagonal product)
}

template <class T>
void cholesky_case(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const auto a = well_conditioned<T>(n);
  const xf::array<T, 2> spd = xf::matmul(a, a.T());
  xf::array<T, 2> l;
  const double ms = median_ms([&] { l = xf::linalg::cholesky(spd); }, 11, 2);
  raw_solver& r = raw_cusolver();
  xf::array<T, 2> w({n, n});
  xf::array<int, 1> info({1});
  std::size_t dev_bytes = 0, host_bytes = 0;
  constexpr cudaDataType_t t = data_type<T>();
  check_solver(cusolverDnXpotrf_bufferSize(r.h, r.p, CUBLAS_FILL_MODE_LOWER, n, t, w.data(), n, t, &dev_bytes, &host_bytes), "potrf size");
  xf::array<unsigned char, 1> work({static_cast<xf::index_t>(dev_bytes + 1)});
  std::vector<unsigned char> host_work(host_bytes + 1);
  const cudaStream_t s = xf::current_stream().handle();
  const double raw = median_ms([&] {
    check(cudaMemcpyAsync(w.data(), spd.data(), spd.nbytes(), cudaMemcpyDeviceToDevice, s), "copy");
    check_solver(cusolverDnXpotrf(r.h, r.p, CUBLAS_FILL_MODE_LOWER, n, t, w.data(), n, t, work.data(), dev_bytes, host_work.data(), host_bytes,
                                  info.data()),
                 "potrf");
  }, 11, 2);
  report_solver<T>(state, ms, raw);
}

// Where cholesky's time goes, each part timed alone (CUDA-event medians): the copy kernel that
// reads the lower triangle (xfuse's), the fused masked transpose it replaced, a plain device copy,
// and potrf after a plain copy through xfuse's cuSOLVER state against the raw handle.
template <class T>
void cholesky_parts(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const auto a = well_conditioned<T>(n);
  const xf::array<T, 2> spd = xf::matmul(a, a.T());
  xf::array<T, 3> m({1, n, n});
  const cudaStream_t s = xf::current_stream().handle();
  const double lower = median_ms([&] {
    xf::detail::lower_copy(spd.data(), xf::detail::stack_strides{n * n, n, 1}, m.data(), n, 1, s);
  }, 21);
  xf::array<T, 2> masked;
  const double fused = median_ms([&] { masked = xf::where(xf::tri<bool>(n).T(), spd.T(), T(0)); }, 21);
  // The kernel's copy and the fused one agree exactly (m is overwritten below).
  if (xf::max(xf::abs(xf::where(masked == m.reshape({n, n}), 0, 1))).item() != 0) {
    std::fprintf(stderr, "cholesky parts %lld: the copy kernel and the fused copy differ\n", static_cast<long long>(n));
    std::abort();
  }
  const double copy = median_ms([&] { check(cudaMemcpyAsync(m.data(), spd.data(), spd.nbytes(), cudaMemcpyDeviceToDevice, s), "copy"); }, 21);
  const double potrf_xf = median_ms([&] {
    check(cudaMemcpyAsync(m.data(), spd.data(), spd.nbytes(), cudaMemcpyDeviceToDevice, s), "copy");
    (void)xf::detail::cholesky_factor(m);
  }, 11, 2);
  for (auto _ : state) state.SetIterationTime(lower / 1e3);
  state.counters["lower_copy_ms"] = lower;
  state.counters["fused_copy_ms"] = fused;
  state.counters["memcpy_ms"] = copy;
  state.counters["memcpy_potrf_xf_ms"] = potrf_xf;
}

// Host cost of one 64 x 64 solve with one right-hand side: the time to enqueue it, over 20 calls
// (a few hundred launches, well inside the launch queue, so the GPU never throttles the host),
// against the raw cuSOLVER sequence (copy, getrf, getrs) enqueued the same way.
void solve_host_cost(benchmark::State& state) {
  const xf::index_t n = 64;
  const auto a = well_conditioned<float>(n);
  const auto b = random_matrix<float>(n, 1);
  xf::array<float, 2> x = xf::linalg::solve(a, b);
  xf::synchronize();
  const int reps = 20;
  std::vector<double> ours, raw;
  for (int round = 0; round < 15; ++round) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) x = xf::linalg::solve(a, b);
    ours.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / reps);
    xf::synchronize();
  }
  raw_solver& r = raw_cusolver();
  xf::array<float, 2> w({n, n}), rhs({1, n});
  xf::array<std::int64_t, 1> piv({n});
  xf::array<int, 1> info({1});
  std::size_t dev_bytes = 0, host_bytes = 0;
  check_solver(cusolverDnXgetrf_bufferSize(r.h, r.p, n, n, CUDA_R_32F, w.data(), n, CUDA_R_32F, &dev_bytes, &host_bytes), "getrf size");
  xf::array<unsigned char, 1> work({static_cast<xf::index_t>(dev_bytes + 1)});
  std::vector<unsigned char> host_work(host_bytes + 1);
  const cudaStream_t s = xf::current_stream().handle();
  for (int round = 0; round < 15; ++round) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) {
      check(cudaMemcpyAsync(w.data(), a.data(), a.nbytes(), cudaMemcpyDeviceToDevice, s), "copy");
      check(cudaMemcpyAsync(rhs.data(), b.data(), b.nbytes(), cudaMemcpyDeviceToDevice, s), "copy");
      check_solver(cusolverDnXgetrf(r.h, r.p, n, n, CUDA_R_32F, w.data(), n, piv.data(), CUDA_R_32F, work.data(), dev_bytes, host_work.data(),
                                    host_bytes, info.data()),
                   "getrf");
      check_solver(cusolverDnXgetrs(r.h, r.p, CUBLAS_OP_N, n, 1, CUDA_R_32F, w.data(), n, piv.data(), CUDA_R_32F, rhs.data(), n, info.data()),
                   "getrs");
    }
    raw.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / reps);
    xf::synchronize();
  }
  // The same with cuBLAS's batched LU (batch of one; pointer arrays prepared once): what a
  // small-matrix path could cost.
  std::vector<double> batched;
  {
    const cublasHandle_t h = raw_handle();
    xf::array<std::int64_t, 1> ptrs({2});
    const std::int64_t host_ptrs[2] = {reinterpret_cast<std::int64_t>(w.data()), reinterpret_cast<std::int64_t>(rhs.data())};
    check(cudaMemcpy(ptrs.data(), host_ptrs, sizeof(host_ptrs), cudaMemcpyHostToDevice), "pointers");
    xf::array<int, 1> piv32({n});
    float** a_array = reinterpret_cast<float**>(ptrs.data());
    float** b_array = a_array + 1;
    int host_info = 0;
    for (int round = 0; round < 15; ++round) {
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < reps; ++i) {
        check(cudaMemcpyAsync(w.data(), a.data(), a.nbytes(), cudaMemcpyDeviceToDevice, s), "copy");
        check(cudaMemcpyAsync(rhs.data(), b.data(), b.nbytes(), cudaMemcpyDeviceToDevice, s), "copy");
        check_blas(cublasSgetrfBatched(h, 64, a_array, 64, piv32.data(), info.data(), 1), "getrfBatched");
        check_blas(cublasSgetrsBatched(h, CUBLAS_OP_N, 64, 1, a_array, 64, piv32.data(), b_array, 64, &host_info, 1), "getrsBatched");
      }
      batched.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / reps);
      xf::synchronize();
    }
  }
  std::sort(ours.begin(), ours.end());
  std::sort(raw.begin(), raw.end());
  std::sort(batched.begin(), batched.end());
  const double us = ours[ours.size() / 2];
  for (auto _ : state) state.SetIterationTime(us / 1e6);
  state.counters["host_us"] = us;
  state.counters["raw_host_us"] = raw[raw.size() / 2];
  state.counters["raw_batched_lu_host_us"] = batched[batched.size() / 2];
}

// 1000 solves of 64 x 64 systems, one right-hand side each, against the raw cuBLAS batched
// sequence (copies, getrfBatched, getrsBatched; pointer arrays prepared outside the timing).
void solve_batched(benchmark::State& state) {
  const xf::index_t count = 1000, n = 64;
  const xf::array<float, 3> a = random_array<float>(count * n * n, -1, 1).reshape({count, n, n}) + xf::eye<float>(n) * float(n);
  const auto b = random_array<float>(count * n, -1, 1).reshape({count, n, 1});
  xf::array<float, 3> x;
  const double ms = median_ms([&] { x = xf::linalg::solve(a, b); }, 11, 2);
  const double res = xf::max(xf::abs(xf::matmul(a, x) - b)).item();
  if (!(res <= 1e-3)) std::abort();
  xf::array<float, 3> w({count, n, n}), rhs({count, 1, n});
  xf::array<int, 2> piv({count, n});
  xf::array<int, 1> info({count});
  std::vector<std::int64_t> host_ptrs(2 * count);
  for (xf::index_t i = 0; i < count; ++i) {
    host_ptrs[i] = reinterpret_cast<std::int64_t>(w.data() + i * n * n);
    host_ptrs[count + i] = reinterpret_cast<std::int64_t>(rhs.data() + i * n);
  }
  xf::array<std::int64_t, 1> ptrs({2 * count});
  check(cudaMemcpy(ptrs.data(), host_ptrs.data(), host_ptrs.size() * 8, cudaMemcpyHostToDevice), "pointers");
  float** a_array = reinterpret_cast<float**>(ptrs.data());
  float** b_array = a_array + count;
  const cudaStream_t s = xf::current_stream().handle();
  const cublasHandle_t h = raw_handle();
  int host_info = 0;
  const double raw = median_ms([&] {
    check(cudaMemcpyAsync(w.data(), a.data(), a.nbytes(), cudaMemcpyDeviceToDevice, s), "copy");  // (row-major: solves A^T, same work)
    check(cudaMemcpyAsync(rhs.data(), b.data(), b.nbytes(), cudaMemcpyDeviceToDevice, s), "copy");
    check_blas(cublasSgetrfBatched(h, 64, a_array, 64, piv.data(), info.data(), 1000), "getrfBatched");
    check_blas(cublasSgetrsBatched(h, CUBLAS_OP_N, 64, 1, a_array, 64, piv.data(), b_array, 64, &host_info, 1000), "getrsBatched");
  }, 11, 2);
  report_solver<float>(state, ms, raw);
}

// QR (reduced) against the raw sequence: copy A, Xgeqrf, orgqr (Q formed in place). xfuse also
// extracts R (one small kernel), which the raw sequence leaves out.
void qr_case(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const auto a = random_matrix<float>(n, n);
  xf::linalg::qr_result<float, 2, xf::device> f;
  const double ms = median_ms([&] { f = xf::linalg::qr(a); }, 7, 1);
  const double res = xf::max(xf::abs(xf::matmul(f.Q, f.R) - a)).item();
  if (!(res <= 1e-3)) std::abort();
  raw_solver& r = raw_cusolver();
  xf::array<float, 2> w({n, n});
  xf::array<float, 1> tau({n});
  xf::array<int, 1> info({1});
  std::size_t dev_bytes = 0, host_bytes = 0;
  check_solver(cusolverDnXgeqrf_bufferSize(r.h, r.p, n, n, CUDA_R_32F, w.data(), n, CUDA_R_32F, tau.data(), CUDA_R_32F, &dev_bytes, &host_bytes),
               "geqrf size");
  int lwork = 0;
  const int ni = static_cast<int>(n);
  check_solver(cusolverDnSorgqr_bufferSize(r.h, ni, ni, ni, w.data(), ni, tau.data(), &lwork), "orgqr size");
  xf::array<unsigned char, 1> work({static_cast<xf::index_t>(std::max<std::size_t>(dev_bytes, sizeof(float) * lwork) + 1)});
  std::vector<unsigned char> host_work(host_bytes + 1);
  const cudaStream_t s = xf::current_stream().handle();
  const double raw = median_ms([&] {
    check(cudaMemcpyAsync(w.data(), a.data(), a.nbytes(), cudaMemcpyDeviceToDevice, s), "copy");
    check_solver(cusolverDnXgeqrf(r.h, r.p, n, n, CUDA_R_32F, w.data(), n, CUDA_R_32F, tau.data(), CUDA_R_32F, work.data(), dev_bytes,
                                  host_work.data(), host_bytes, info.data()),
                 "geqrf");
    check_solver(cusolverDnSorgqr(r.h, ni, ni, ni, w.data(), ni, tau.data(), reinterpret_cast<float*>(work.data()), lwork, info.data()), "orgqr");
  }, 7, 1);
  report_solver<float>(state, ms, raw);
}

// eigh (values and vectors) against the raw sequence: copy A, Xsyevd.
void eigh_case(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const auto m = random_matrix<float>(n, n);
  const xf::array<float, 2> a = m + m.T();
  xf::linalg::eigh_result<float, 2, xf::device> f;
  const double ms = median_ms([&] { f = xf::linalg::eigh(a); }, 5, 1);
  const double res = xf::max(xf::abs(xf::matmul(a, f.eigenvectors) - f.eigenvectors * f.eigenvalues)).item();
  if (!(res <= 1e-3 * static_cast<double>(n))) std::abort();
  raw_solver& r = raw_cusolver();
  xf::array<float, 2> w({n, n});
  xf::array<float, 1> ev({n});
  xf::array<int, 1> info({1});
  std::size_t dev_bytes = 0, host_bytes = 0;
  check_solver(cusolverDnXsyevd_bufferSize(r.h, r.p, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_32F, w.data(), n, CUDA_R_32F,
                                           ev.data(), CUDA_R_32F, &dev_bytes, &host_bytes),
               "syevd size");
  xf::array<unsigned char, 1> work({static_cast<xf::index_t>(dev_bytes + 1)});
  std::vector<unsigned char> host_work(host_bytes + 1);
  const cudaStream_t s = xf::current_stream().handle();
  const double raw = median_ms([&] {
    check(cudaMemcpyAsync(w.data(), a.data(), a.nbytes(), cudaMemcpyDeviceToDevice, s), "copy");
    check_solver(cusolverDnXsyevd(r.h, r.p, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_32F, w.data(), n, CUDA_R_32F, ev.data(),
                                  CUDA_R_32F, work.data(), dev_bytes, host_work.data(), host_bytes, info.data()),
                 "syevd");
  }, 5, 1);
  report_solver<float>(state, ms, raw);
}

// eig (values and right vectors of a general matrix) against the raw sequence: copy A, Xgeev.
// xfuse adds the column-major copy, the finite check and the unpacking of conjugate pairs.
template <class T>
void eig_case(benchmark::State& state) {
  using C = xf::linalg::eig_complex_t<T>;
  const xf::index_t n = state.range(0);
  const auto a = random_matrix<T>(n, n);
  xf::linalg::eig_result<T, 2, xf::device> f;
  f = xf::linalg::eig(a);  // warm-up
  const xf::array<C, 2> ac = a.template astype<C>();
  const double res = xf::max(xf::abs(xf::matmul(ac, f.eigenvectors) - f.eigenvectors * f.eigenvalues)).item();
  if (!(res <= (std::is_same_v<T, float> ? 1e-3 : 1e-9) * static_cast<double>(n))) {
    std::fprintf(stderr, "eig %lld: residual %g\n", static_cast<long long>(n), res);
    std::abort();
  }
  raw_solver& r = raw_cusolver();
  constexpr cudaDataType_t t = std::is_same_v<T, float> ? CUDA_R_32F : CUDA_R_64F;
  constexpr cudaDataType_t tw = std::is_same_v<T, float> ? CUDA_C_32F : CUDA_C_64F;
  // The same matrix for both: column-major A (a C-ordered copy of A's transpose), which is what
  // xfuse hands to Xgeev (A^T has the same eigenvalues but another QR iteration count).
  const xf::array<T, 2> columns = a.T().copy();
  xf::array<T, 2> w({n, n}), vr({n, n});
  xf::array<C, 1> ev({n});
  xf::array<int, 1> info({1});
  std::size_t dev_bytes = 0, host_bytes = 0;
  check_solver(cusolverDnXgeev_bufferSize(r.h, r.p, CUSOLVER_EIG_MODE_NOVECTOR, CUSOLVER_EIG_MODE_VECTOR, n, t, w.data(), n, tw, ev.data(), t,
                                          nullptr, 1, t, vr.data(), n, t, &dev_bytes, &host_bytes),
               "geev size");
  xf::array<unsigned char, 1> work({static_cast<xf::index_t>(dev_bytes + 1)});
  std::vector<unsigned char> host_work(host_bytes + 1);
  const cudaStream_t s = xf::current_stream().handle();
  const auto raw_call = [&] {
    check(cudaMemcpyAsync(w.data(), columns.data(), columns.nbytes(), cudaMemcpyDeviceToDevice, s), "copy");
    check_solver(cusolverDnXgeev(r.h, r.p, CUSOLVER_EIG_MODE_NOVECTOR, CUSOLVER_EIG_MODE_VECTOR, n, t, w.data(), n, tw, ev.data(), t, nullptr, 1,
                                 t, vr.data(), n, t, work.data(), dev_bytes, host_work.data(), host_bytes, info.data()),
                 "geev");
  };
  raw_call();  // warm-up
  // Xgeev works on the host too, and its time drifts between calls by 10% and more: the two are
  // timed in alternation, one call each a round, and the medians compared.
  std::vector<double> mine, theirs;
  for (int round = 0; round < 9; ++round) {
    mine.push_back(median_ms([&] { f = xf::linalg::eig(a); }, 1, 0));
    theirs.push_back(median_ms(raw_call, 1, 0));
  }
  std::sort(mine.begin(), mine.end());
  std::sort(theirs.begin(), theirs.end());
  report_solver<T>(state, mine[mine.size() / 2], theirs[theirs.size() / 2]);
}

// Timings without a raw baseline, for the CuPy comparison: svd and a batch of small eigh.
void svd_case(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const auto a = random_matrix<float>(n, n);
  xf::linalg::svd_result<float, 2, xf::device> f;
  const double ms = median_ms([&] { f = xf::linalg::svd(a); }, 5, 1);
  for (auto _ : state) state.SetIterationTime(ms / 1e3);
  state.counters["ms"] = ms;
}
void eigh_batched_case(benchmark::State& state) {
  const auto m = random_array<float>(1000 * 32 * 32, -1, 1).reshape({1000, 32, 32});
  const xf::array<float, 3> a = m + m.swapaxes(1, 2);
  xf::linalg::eigh_result<float, 3, xf::device> f;
  const double ms = median_ms([&] { f = xf::linalg::eigh(a); }, 7, 1);
  const double res = xf::max(xf::abs(xf::matmul(a, f.eigenvectors) - f.eigenvectors * f.eigenvalues.reshape({1000, 1, 32}))).item();
  if (!(res <= 1e-3)) std::abort();
  for (auto _ : state) state.SetIterationTime(ms / 1e3);
  state.counters["ms"] = ms;
}

// CPU (OpenBLAS/LAPACK on the host arrays, all cores) against GPU for the same call, as the CuPy
// tutorials show: the same code on host and device arrays. Medians of host wall time / CUDA events.
template <class Call>
void cpu_vs_gpu(benchmark::State& state, xf::index_t n, int reps, const Call& call) {
  const xf::array<float, 2> ad = random_matrix<float>(n, n) + xf::eye<float>(n) * static_cast<float>(n);
  const xf::array<float, 2, xf::host> ah = xf::get(ad);
  const double gpu = median_ms([&] { call(ad); }, reps, 1);
  std::vector<double> t;
  call(ah);
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    call(ah);
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  for (auto _ : state) state.SetIterationTime(gpu / 1e3);
  state.counters["ms"] = gpu;
  state.counters["cpu_ms"] = t[t.size() / 2];
  state.counters["gpu_speedup"] = t[t.size() / 2] / gpu;
}
void qr_cpu_gpu(benchmark::State& state) {
  cpu_vs_gpu(state, state.range(0), 5, [](const auto& a) { (void)xf::linalg::qr(a); });
}
void det_cpu_gpu(benchmark::State& state) {
  cpu_vs_gpu(state, state.range(0), 5, [](const auto& a) { (void)xf::linalg::det(a); });
}
void matmul_cpu_gpu(benchmark::State& state) {
  cpu_vs_gpu(state, state.range(0), 3, [](const auto& a) { (void)xf::eval(xf::matmul(a, a)); });  // a product is lazy: run it
}

}  // namespace

BENCHMARK(square<float>)->Name("matmul/f32")->Arg(4096)->UseManualTime()->Iterations(1);
BENCHMARK(square<double>)->Name("matmul/f64")->Arg(4096)->UseManualTime()->Iterations(1);
BENCHMARK(square<xf::half>)->Name("matmul/f16")->Arg(4096)->UseManualTime()->Iterations(1);
BENCHMARK(einsum_batched)->Name("einsum/bij,bjk->bik/f32")->Args({1000, 64})->Args({64, 512})->Args({8, 2048})->UseManualTime()->Iterations(1);
BENCHMARK(integer_square)->Name("matmul/i32")->Arg(1024)->Arg(4096)->UseManualTime()->Iterations(1);
BENCHMARK(square_transposed)->Name("matmul/A.T()@B/f32")->Arg(4096)->UseManualTime()->Iterations(1);
BENCHMARK(alpha_beta)->Name("matmul/2AB+0.5C_inplace/f32")->Arg(1024)->Arg(4096)->UseManualTime()->Iterations(1);
BENCHMARK(epilogue<float>)->Name("matmul/epilogue/f32")->Args({4096, 0})->Args({4096, 1})->Args({4096, 2})->UseManualTime()->Iterations(1);
BENCHMARK(epilogue<xf::bfloat16>)->Name("matmul/epilogue/bf16")->Args({4096, 0})->Args({4096, 1})->Args({4096, 2})->Args({8192, 0})->UseManualTime()->Iterations(1);
BENCHMARK(batched)->Name("matmul/batched/1000x64x64/f32")->UseManualTime()->Iterations(1);
BENCHMARK(host_cost)->Name("matmul/host_cost/64x64/f32")->UseManualTime()->Iterations(1);
BENCHMARK(solve_case<float>)->Name("solve/f32")->Arg(512)->Arg(4096)->UseManualTime()->Iterations(1);
BENCHMARK(solve_case<double>)->Name("solve/f64")->Arg(512)->Arg(4096)->UseManualTime()->Iterations(1);
BENCHMARK(inv_case<float>)->Name("inv/f32")->Arg(512)->Arg(4096)->Arg(6000)->UseManualTime()->Iterations(1);
BENCHMARK(det_case<float>)->Name("det/f32")->Arg(512)->Arg(4096)->UseManualTime()->Iterations(1);
BENCHMARK(cholesky_case<float>)->Name("cholesky/f32")->Arg(512)->Arg(4096)->UseManualTime()->Iterations(1);
BENCHMARK(cholesky_case<double>)->Name("cholesky/f64")->Arg(512)->Arg(4096)->UseManualTime()->Iterations(1);
BENCHMARK(cholesky_parts<float>)->Name("cholesky_parts/f32")->Arg(512)->Arg(4096)->UseManualTime()->Iterations(1);
BENCHMARK(cholesky_parts<double>)->Name("cholesky_parts/f64")->Arg(512)->Arg(4096)->UseManualTime()->Iterations(1);
BENCHMARK(solve_host_cost)->Name("solve/host_cost/64x64/f32")->UseManualTime()->Iterations(1);
BENCHMARK(solve_batched)->Name("solve/batched/1000x64x64/f32")->UseManualTime()->Iterations(1);
BENCHMARK(qr_case)->Name("qr/f32")->Arg(512)->Arg(1024)->Arg(2048)->Arg(4096)->UseManualTime()->Iterations(1);
BENCHMARK(eigh_case)->Name("eigh/f32")->Arg(512)->Arg(2048)->UseManualTime()->Iterations(1);
BENCHMARK(eig_case<float>)->Name("eig/f32")->Arg(512)->Arg(2048)->UseManualTime()->Iterations(1);
BENCHMARK(eig_case<double>)->Name("eig/f64")->Arg(512)->Arg(2048)->UseManualTime()->Iterations(1);
BENCHMARK(svd_case)->Name("svd/f32")->Arg(512)->UseManualTime()->Iterations(1);
BENCHMARK(eigh_batched_case)->Name("eigh/batched/1000x32x32/f32")->UseManualTime()->Iterations(1);
BENCHMARK(qr_cpu_gpu)->Name("cpu_vs_gpu/qr/f32")->Arg(64)->Arg(128)->Arg(256)->Arg(512)->Arg(1024)->Arg(2048)->UseManualTime()->Iterations(1);
BENCHMARK(det_cpu_gpu)->Name("cpu_vs_gpu/det/f32")->Arg(512)->UseManualTime()->Iterations(1);
BENCHMARK(matmul_cpu_gpu)->Name("cpu_vs_gpu/matmul/f32")->Arg(4096)->UseManualTime()->Iterations(1);

XF_BENCH_MAIN()
