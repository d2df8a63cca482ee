// SPDX-License-Identifier: Apache-2.0
// cuBLAS, behind xf::matmul and the small-matrix LU of xf::linalg: one handle per device and host
// thread, bound to the current stream, its workspace from the memory pool; the general matrix
// product (strided-batched, every element type) and the batched LU of small matrices.
#pragma once

#include <cublas_v2.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "../../complex.hpp"
#include "../../core.hpp"
#include "common.hpp"

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

// The element type of the typed cuBLAS and cuSOLVER routines (cuComplex for complex64, ...).
template <class T>
using cuda_scalar_t = std::conditional_t<
    std::is_same_v<T, complex64>, cuComplex,
    std::conditional_t<std::is_same_v<T, complex128>, cuDoubleComplex, T>>;


inline void check_cublas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw cublas_error(s, what);
}

// cuBLAS's recommended workspace on Hopper.
inline constexpr std::size_t cublas_workspace_bytes = std::size_t{32} << 20;

// The calling thread's cuBLAS handle for `dev`, bound to the current stream. A handle lives until
// its thread ends (creating one costs milliseconds; no call creates or destroys one). Its
// workspace comes from the pool on the stream it is bound to; binding to another stream takes a
// new one there and frees the old in order on its own stream, so streams never share one. Same
// stream as the last call: nothing to do (rebinding every call cost 5 us of host time).
// Inside xf::capture the binding is to that recording: its workspace is the graph's own (cuBLAS
// needs one set for its calls to be recorded), never used outside it.
struct cublas_state {
  cublasHandle_t handle = nullptr;
  cudaStream_t stream = nullptr;
  std::uint64_t recording = 0;  // capture_serial() at binding: 0 outside a recording
  std::unique_ptr<buffer> workspace;
  void release() noexcept {
    if (handle) (void)cublasDestroy(handle);  // at thread exit; the context may already be gone
  }
};

inline cublasHandle_t cublas_handle(int dev) {
  cublas_state& st = thread_state_for<cublas_state>(dev, "xf::matmul");
  if (!st.handle) {
    device_guard g(dev);
    check_cublas(cublasCreate(&st.handle), "cublasCreate");
  }
  const cudaStream_t stream = current_stream().handle();
  const std::uint64_t recording = capture_serial();
  if (!st.workspace || st.stream != stream || st.recording != recording) {
    check_cublas(cublasSetStream(st.handle, stream), "cublasSetStream");  // resets the workspace: set it after
    auto workspace = std::make_unique<buffer>(allocate_device(cublas_workspace_bytes));
    check_cublas(cublasSetWorkspace(st.handle, workspace->get(), cublas_workspace_bytes), "cublasSetWorkspace");
    st.workspace = std::move(workspace);
    st.stream = stream;
    st.recording = recording;
  }
  return st.handle;
}

// How cuBLAS takes element type T: its data type, the compute type of a product and the type of
// alpha and beta. 16-bit floats: tensor cores, float accumulation and float alpha/beta.
template <cudaDataType_t Data, cublasComputeType_t Compute, class Scalar>
struct blas_type_of {
  static constexpr cudaDataType_t data = Data;
  static constexpr cublasComputeType_t compute = Compute;
  using scalar = Scalar;
};
template <class T>
struct blas_type;
template <>
struct blas_type<float> : blas_type_of<CUDA_R_32F, CUBLAS_COMPUTE_32F, float> {};
template <>
struct blas_type<double> : blas_type_of<CUDA_R_64F, CUBLAS_COMPUTE_64F, double> {};
template <>
struct blas_type<complex64> : blas_type_of<CUDA_C_32F, CUBLAS_COMPUTE_32F, complex64> {};
template <>
struct blas_type<complex128> : blas_type_of<CUDA_C_64F, CUBLAS_COMPUTE_64F, complex128> {};
template <>
struct blas_type<half> : blas_type_of<CUDA_R_16F, CUBLAS_COMPUTE_32F, float> {};
template <>
struct blas_type<bfloat16> : blas_type_of<CUDA_R_16BF, CUBLAS_COMPUTE_32F, float> {};

template <class T>
inline constexpr bool blas_element = requires { blas_type<T>::data; };

// C = alpha A B + beta C for `count` products at the given batch strides (elements): A is m x k,
// B is k x n, C is m x n, row-major with leading dimension n. cuBLAS is column-major: it computes
// C^T = B^T A^T, where a row-major matrix is its column-major transpose, so no data moves.
template <class T>
void gemm_device(int dev, index_t m, index_t n, index_t k, const blas_operand& a, index_t stride_a, const blas_operand& b,
                 index_t stride_b, T* c, index_t stride_c, index_t count, bool tf32, typename blas_type<T>::scalar alpha_value,
                 typename blas_type<T>::scalar beta_value) {
  using S = typename blas_type<T>::scalar;
  const S alpha_s = alpha_value, beta_s = beta_value;
  cublasComputeType_t compute = blas_type<T>::compute;
  if (tf32 && (std::is_same_v<T, float> || std::is_same_v<T, complex64>)) compute = CUBLAS_COMPUTE_32F_FAST_TF32;
  const cublasHandle_t h = cublas_handle(dev);
  const auto op = [](const blas_operand& x) { return !x.transposed ? CUBLAS_OP_N : x.conjugate ? CUBLAS_OP_C : CUBLAS_OP_T; };
  const cublasOperation_t op_b = op(b), op_a = op(a);
  const auto n64 = static_cast<int64_t>(n), m64 = static_cast<int64_t>(m), k64 = static_cast<int64_t>(k);
  // float, double and complex: the typed calls (GemmEx costs about 1 us more host time a call).
  if constexpr (!is_low_precision<T>) {
    if (compute == blas_type<T>::compute) {
      using B = std::conditional_t<std::is_same_v<T, complex64>, cuComplex,
                                   std::conditional_t<std::is_same_v<T, complex128>, cuDoubleComplex, T>>;
      const B* pa = static_cast<const B*>(a.ptr);
      const B* pb = static_cast<const B*>(b.ptr);
      B* pc = reinterpret_cast<B*>(c);
      const B* alpha = reinterpret_cast<const B*>(&alpha_s);
      const B* beta = reinterpret_cast<const B*>(&beta_s);
      // The 32-bit API where every size fits (1-2 us less host time a call than the _64 one).
      constexpr index_t most = 2147483647;
      const bool fits = n <= most && m <= most && k <= most && a.ld <= most && b.ld <= most && count <= most;
      const auto typed = [&](auto gemm, auto batched, auto gemm64, auto batched64, const char* name) {
        if (fits && count == 1)
          check_cublas(gemm(h, op_b, op_a, int(n), int(m), int(k), alpha, pb, int(b.ld), pa, int(a.ld), beta, pc, int(n)), name);
        else if (fits)
          check_cublas(batched(h, op_b, op_a, int(n), int(m), int(k), alpha, pb, int(b.ld), static_cast<long long>(stride_b), pa,
                               int(a.ld), static_cast<long long>(stride_a), beta, pc, int(n), static_cast<long long>(stride_c), int(count)),
                       name);
        else if (count == 1)
          check_cublas(gemm64(h, op_b, op_a, n64, m64, k64, alpha, pb, b.ld, pa, a.ld, beta, pc, n64), name);
        else
          check_cublas(batched64(h, op_b, op_a, n64, m64, k64, alpha, pb, b.ld, stride_b, pa, a.ld, stride_a, beta, pc, n64, stride_c,
                                 static_cast<int64_t>(count)),
                       name);
      };
      if constexpr (std::is_same_v<T, float>)
        typed(cublasSgemm, cublasSgemmStridedBatched, cublasSgemm_64, cublasSgemmStridedBatched_64, "cublasSgemm");
      else if constexpr (std::is_same_v<T, double>)
        typed(cublasDgemm, cublasDgemmStridedBatched, cublasDgemm_64, cublasDgemmStridedBatched_64, "cublasDgemm");
      else if constexpr (std::is_same_v<T, complex64>)
        typed(cublasCgemm, cublasCgemmStridedBatched, cublasCgemm_64, cublasCgemmStridedBatched_64, "cublasCgemm");
      else
        typed(cublasZgemm, cublasZgemmStridedBatched, cublasZgemm_64, cublasZgemmStridedBatched_64, "cublasZgemm");
      return;
    }
  }
  constexpr cudaDataType_t t = blas_type<T>::data;
  if (count == 1) {
    check_cublas(cublasGemmEx_64(h, op_b, op_a, n64, m64, k64, &alpha_s, b.ptr, t, b.ld, a.ptr, t, a.ld, &beta_s, c, t, n64, compute,
                                 CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx_64");
  } else {
    check_cublas(cublasGemmStridedBatchedEx_64(h, op_b, op_a, n64, m64, k64, &alpha_s, b.ptr, t, b.ld, stride_b, a.ptr, t, a.ld, stride_a,
                                               &beta_s, c, t, n64, stride_c, static_cast<int64_t>(count), compute, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmStridedBatchedEx_64");
  }
}

// Device pointers to the `count` matrices of a stack (base + i * stride elements), on the device,
// as the batched routines take them. One fused kernel; no host-to-device copy.
template <class T>
array<std::uint64_t, 1, device> matrix_pointers(T* base, index_t count, index_t stride) {
  const auto start = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(base));
  return arange<std::uint64_t>(count) * static_cast<std::uint64_t>(stride * static_cast<index_t>(sizeof(T))) + start;
}

// cuBLAS's batched LU of `count` n x n column-major matrices (n <= 32-bit), in place.
template <class T>
void getrf_batched(cublasHandle_t h, int n, T* a, int* pivots, int* info, index_t count) {
  const auto ptrs = matrix_pointers(a, count, static_cast<index_t>(n) * n);
  using C = cuda_scalar_t<T>;
  C* const* arr = reinterpret_cast<C* const*>(ptrs.data());
  const int batch = lapack_int(count, "xf::linalg: batched LU");
  if constexpr (std::is_same_v<T, float>) check_cublas(cublasSgetrfBatched(h, n, const_cast<C**>(arr), n, pivots, info, batch), "cublasSgetrfBatched");
  else if constexpr (std::is_same_v<T, double>) check_cublas(cublasDgetrfBatched(h, n, const_cast<C**>(arr), n, pivots, info, batch), "cublasDgetrfBatched");
  else if constexpr (std::is_same_v<T, complex64>) check_cublas(cublasCgetrfBatched(h, n, const_cast<C**>(arr), n, pivots, info, batch), "cublasCgetrfBatched");
  else check_cublas(cublasZgetrfBatched(h, n, const_cast<C**>(arr), n, pivots, info, batch), "cublasZgetrfBatched");
}

// Solves with getrf_batched's factors, nrhs right-hand sides a matrix, in place.
template <class T>
void getrs_batched(cublasHandle_t h, int n, int nrhs, const T* a, const int* pivots, T* b, index_t count) {
  const auto a_ptrs = matrix_pointers(const_cast<T*>(a), count, static_cast<index_t>(n) * n);
  const auto b_ptrs = matrix_pointers(b, count, static_cast<index_t>(n) * nrhs);
  using C = cuda_scalar_t<T>;
  const C* const* aa = reinterpret_cast<const C* const*>(a_ptrs.data());
  C* const* bb = reinterpret_cast<C* const*>(b_ptrs.data());
  const int batch = lapack_int(count, "xf::linalg: batched LU");
  int arg_info = 0;  // argument errors only, reported at once on the host
  if constexpr (std::is_same_v<T, float>)
    check_cublas(cublasSgetrsBatched(h, CUBLAS_OP_N, n, nrhs, aa, n, pivots, bb, n, &arg_info, batch), "cublasSgetrsBatched");
  else if constexpr (std::is_same_v<T, double>)
    check_cublas(cublasDgetrsBatched(h, CUBLAS_OP_N, n, nrhs, aa, n, pivots, bb, n, &arg_info, batch), "cublasDgetrsBatched");
  else if constexpr (std::is_same_v<T, complex64>)
    check_cublas(cublasCgetrsBatched(h, CUBLAS_OP_N, n, nrhs, aa, n, pivots, bb, n, &arg_info, batch), "cublasCgetrsBatched");
  else check_cublas(cublasZgetrsBatched(h, CUBLAS_OP_N, n, nrhs, aa, n, pivots, bb, n, &arg_info, batch), "cublasZgetrsBatched");
}

}  // namespace detail
}  // namespace xf
