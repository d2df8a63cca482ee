// The BLAS libraries behind xf::matmul: cuBLAS for device arrays (one handle per device and host
// thread, created on first use, bound to the current stream at each call, its workspace from the
// memory pool) and OpenBLAS's CBLAS for host arrays. One general matrix product, strided-batched,
// per element type: gemm() below.
#pragma once

#include <cblas.h>
#include <cublas_v2.h>

#include <array>
#include <string>

#include "../complex.hpp"
#include "../core.hpp"

namespace xf {

// A cuBLAS call that failed: the call and its status.
class cublas_error : public error {
 public:
  cublas_error(cublasStatus_t status, const std::string& what)
      : error("xf::cublas_error: " + what + " failed with " + cublasGetStatusName(status) + " (" +
              cublasGetStatusString(status) + ")"),
        status_(status) {}
  cublasStatus_t status() const noexcept { return status_; }

 private:
  cublasStatus_t status_;
};

namespace detail {

inline void check_cublas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw cublas_error(s, what);
}

// The calling thread's cuBLAS handle for `dev`, bound to the current stream. Handles live until
// the thread ends; creating one costs milliseconds, so no call creates or destroys any.
inline cublasHandle_t cublas_handle(int dev) {
  struct handles {
    std::array<cublasHandle_t, 64> h{};
    ~handles() {
      for (cublasHandle_t x : h)
        if (x) (void)cublasDestroy(x);  // at thread exit; the context may already be gone
    }
  };
  thread_local handles cache;
  if (dev < 0 || dev >= static_cast<int>(cache.h.size())) throw device_error("xf::matmul: device " + std::to_string(dev) + " out of range");
  cublasHandle_t& h = cache.h[static_cast<std::size_t>(dev)];
  if (!h) {
    device_guard g(dev);
    check_cublas(cublasCreate(&h), "cublasCreate");
  }
  check_cublas(cublasSetStream(h, current_stream().handle()), "cublasSetStream");
  return h;
}

// cuBLAS's recommended workspace on Hopper; taken from the pool for each call, on its stream, so
// calls on different streams never share one.
inline constexpr std::size_t cublas_workspace_bytes = std::size_t{32} << 20;

template <class T>
struct blas_type;
template <>
struct blas_type<float> {
  static constexpr cudaDataType_t data = CUDA_R_32F;
  static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  using scalar = float;
};
template <>
struct blas_type<double> {
  static constexpr cudaDataType_t data = CUDA_R_64F;
  static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_64F;
  using scalar = double;
};
template <>
struct blas_type<complex64> {
  static constexpr cudaDataType_t data = CUDA_C_32F;
  static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  using scalar = complex64;
};
template <>
struct blas_type<complex128> {
  static constexpr cudaDataType_t data = CUDA_C_64F;
  static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_64F;
  using scalar = complex128;
};
// 16-bit floats: tensor cores, float accumulation and float alpha/beta.
template <>
struct blas_type<half> {
  static constexpr cudaDataType_t data = CUDA_R_16F;
  static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  using scalar = float;
};
template <>
struct blas_type<bfloat16> {
  static constexpr cudaDataType_t data = CUDA_R_16BF;
  static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  using scalar = float;
};

template <class T>
inline constexpr bool blas_element = requires { blas_type<T>::data; };

// One matrix of a product as BLAS reads it: row-major with leading dimension `ld` (element (i, j)
// at i * ld + j), or, when `transposed`, column-major (at i + j * ld): a transposed view.
struct blas_operand {
  const void* ptr;
  index_t ld;
  bool transposed;
};

// C = A B for `count` products at the given batch strides (elements): A is m x k, B is k x n,
// C is m x n, row-major with leading dimension n. cuBLAS is column-major: it computes
// C^T = B^T A^T, where a row-major matrix is its column-major transpose, so no data moves.
template <class T>
void gemm_device(int dev, index_t m, index_t n, index_t k, const blas_operand& a, index_t stride_a, const blas_operand& b,
                 index_t stride_b, T* c, index_t stride_c, index_t count, bool tf32) {
  using S = typename blas_type<T>::scalar;
  const S one = S(1), zero = S(0);
  cublasComputeType_t compute = blas_type<T>::compute;
  if (tf32 && (std::is_same_v<T, float> || std::is_same_v<T, complex64>)) compute = CUBLAS_COMPUTE_32F_FAST_TF32;
  const cublasHandle_t h = cublas_handle(dev);
  const buffer workspace = allocate_device(cublas_workspace_bytes);
  check_cublas(cublasSetWorkspace(h, workspace.get(), cublas_workspace_bytes), "cublasSetWorkspace");
  const cublasOperation_t op_b = b.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_a = a.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  constexpr cudaDataType_t t = blas_type<T>::data;
  if (count == 1) {
    check_cublas(cublasGemmEx_64(h, op_b, op_a, n, m, k, &one, b.ptr, t, b.ld, a.ptr, t, a.ld, &zero, c, t, n, compute,
                                 CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx_64");
  } else {
    check_cublas(cublasGemmStridedBatchedEx_64(h, op_b, op_a, n, m, k, &one, b.ptr, t, b.ld, stride_b, a.ptr, t, a.ld, stride_a,
                                               &zero, c, t, n, stride_c, count, compute, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmStridedBatchedEx_64");
  }
}

// The same on the host with CBLAS (row-major, so the flags apply as written), a product per batch.
template <class T>
void gemm_host(index_t m, index_t n, index_t k, const blas_operand& a, index_t stride_a, const blas_operand& b,
               index_t stride_b, T* c, index_t stride_c, index_t count) {
  constexpr index_t most = 2147483647;
  if (m > most || n > most || k > most || a.ld > most || b.ld > most)
    throw shape_error("xf::matmul: host BLAS takes 32-bit sizes; got m " + std::to_string(m) + ", n " + std::to_string(n) +
                      ", k " + std::to_string(k));
  const auto ta = a.transposed ? CblasTrans : CblasNoTrans, tb = b.transposed ? CblasTrans : CblasNoTrans;
  const auto M = static_cast<blasint>(m), N = static_cast<blasint>(n), K = static_cast<blasint>(k);
  const auto lda = static_cast<blasint>(a.ld), ldb = static_cast<blasint>(b.ld);
  for (index_t i = 0; i < count; ++i) {
    const T* pa = static_cast<const T*>(a.ptr) + i * stride_a;
    const T* pb = static_cast<const T*>(b.ptr) + i * stride_b;
    T* pc = c + i * stride_c;
    if constexpr (std::is_same_v<T, float>) {
      cblas_sgemm(CblasRowMajor, ta, tb, M, N, K, 1.0f, pa, lda, pb, ldb, 0.0f, pc, N);
    } else if constexpr (std::is_same_v<T, double>) {
      cblas_dgemm(CblasRowMajor, ta, tb, M, N, K, 1.0, pa, lda, pb, ldb, 0.0, pc, N);
    } else if constexpr (std::is_same_v<T, complex64>) {
      const complex64 one(1), zero(0);
      cblas_cgemm(CblasRowMajor, ta, tb, M, N, K, &one, pa, lda, pb, ldb, &zero, pc, N);
    } else {
      static_assert(std::is_same_v<T, complex128>, "gemm_host: float, double, complex64 or complex128");
      const complex128 one(1), zero(0);
      cblas_zgemm(CblasRowMajor, ta, tb, M, N, K, &one, pa, lda, pb, ldb, &zero, pc, N);
    }
  }
}

}  // namespace detail
}  // namespace xf
