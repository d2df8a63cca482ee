// SPDX-License-Identifier: Apache-2.0
// cuBLASLt, behind the products whose consumer cuBLASLt can run in its store: a bias row added,
// then relu or GELU (tanh form) applied, as cuBLASLt's epilogues. One handle per device and host
// thread; the algorithm cuBLASLt's heuristic picks is kept per call shape (asking costs tens of
// microseconds of host time); the workspace the algorithm wants comes from the memory pool.
// A call cuBLASLt has no algorithm for is refused before anything runs (lt_gemm::found()), so the
// caller can take its plain path.
#pragma once

#include <cublasLt.h>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "cublas.hpp"

namespace xf::detail {

// What cuBLASLt applies to alpha * (a @ b) + beta * c (+ bias) before it stores.
enum class gemm_activation { none, relu, gelu_tanh };

// One row-major product for cuBLASLt: d = act(alpha * a @ b + beta * d + bias), a m x k, b k x n,
// d C-contiguous m x n, bias (optional) n elements broadcast along the rows.
struct lt_product {
  index_t m = 0, n = 0, k = 0;
  blas_operand a{}, b{};
  void* d = nullptr;
  const void* bias = nullptr;
  gemm_activation activation = gemm_activation::none;
  bool tf32 = false;
  bool reads_d = false;  // beta != 0
};

// The largest power of two up to 256 that divides the address: cuBLASLt's heuristic assumes
// 256-byte alignment unless told, and views start anywhere.
inline std::uint32_t pointer_alignment(const void* p) {
  const auto v = reinterpret_cast<std::uintptr_t>(p);
  std::uint32_t a = 256;
  while (a > 1 && v % a != 0) a /= 2;
  return a;
}

// A call shape as the heuristic sees it: types, sizes, layouts, epilogue, alignments.
using shape_key_t = std::array<std::int64_t, 15>;

// The heuristic's answer for one call shape.
struct lt_algorithm {
  shape_key_t key{};
  bool found = false;
  cublasLtMatmulAlgo_t algo{};
  std::size_t workspace = 0;
};

struct cublaslt_state {
  cublasLtHandle_t handle = nullptr;
  std::vector<lt_algorithm> algorithms;  // the few call shapes a program makes
  void release() noexcept {
    if (handle) (void)cublasLtDestroy(handle);
  }
};

// Owns one cuBLASLt descriptor.
template <class H, cublasStatus_t (*Destroy)(H)>
struct lt_descriptor {
  H h = nullptr;
  lt_descriptor() = default;
  lt_descriptor(const lt_descriptor&) = delete;
  lt_descriptor& operator=(const lt_descriptor&) = delete;
  ~lt_descriptor() {
    if (h) (void)Destroy(h);
  }
};

// A product described to cuBLASLt, its algorithm chosen (or none found); run() enqueues it on the
// current stream.
template <class T>
class lt_gemm {
 public:
  using scalar = typename blas_type<T>::scalar;

  lt_gemm(int dev, const lt_product& p) : p_(p) {
    cublaslt_state& st = thread_state_for<cublaslt_state>(dev, "xf::matmul");
    if (!st.handle) {
      device_guard g(dev);
      check_cublas(cublasLtCreate(&st.handle), "cublasLtCreate");
    }
    handle_ = st.handle;
    describe();
    const shape_key_t key = shape_key();
    for (const lt_algorithm& a : st.algorithms)
      if (a.key == key) {
        chosen_ = a;
        return;
      }
    chosen_ = ask_heuristic(key);
    if (st.algorithms.size() >= 64) st.algorithms.erase(st.algorithms.begin());  // bounded: the oldest shape goes
    st.algorithms.push_back(chosen_);
  }

  bool found() const noexcept { return chosen_.found; }

  void run(scalar alpha, scalar beta) const {
    std::optional<buffer> workspace;
    if (chosen_.workspace > 0) workspace.emplace(allocate_device(chosen_.workspace));
    // Lt's A is our b and its B our a: row-major d is column-major d^T = b^T a^T (as gemm_device).
    check_cublas(cublasLtMatmul(handle_, desc_.h, &alpha, p_.b.ptr, b_.h, p_.a.ptr, a_.h, &beta, p_.d, d_.h, p_.d, d_.h, &chosen_.algo,
                                workspace ? workspace->get() : nullptr, chosen_.workspace, current_stream().handle()),
                 "cublasLtMatmul");
  }

 private:
  template <class V>
  void set(cublasLtMatmulDescAttributes_t what, const V& value) {
    check_cublas(cublasLtMatmulDescSetAttribute(desc_.h, what, &value, sizeof(value)), "cublasLtMatmulDescSetAttribute");
  }

  void describe() {
    cublasComputeType_t compute = blas_type<T>::compute;
    if (p_.tf32 && std::is_same_v<T, float>) compute = CUBLAS_COMPUTE_32F_FAST_TF32;
    constexpr cudaDataType_t scale = std::is_same_v<scalar, double> ? CUDA_R_64F : CUDA_R_32F;
    check_cublas(cublasLtMatmulDescCreate(&desc_.h, compute, scale), "cublasLtMatmulDescCreate");
    const cublasOperation_t op_b = p_.b.transposed ? CUBLAS_OP_T : CUBLAS_OP_N, op_a = p_.a.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
    set(CUBLASLT_MATMUL_DESC_TRANSA, op_b);
    set(CUBLASLT_MATMUL_DESC_TRANSB, op_a);
    set(CUBLASLT_MATMUL_DESC_EPILOGUE, epilogue());
    if (p_.bias) {
      set(CUBLASLT_MATMUL_DESC_BIAS_POINTER, p_.bias);
      set(CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, blas_type<T>::data);
    }
    constexpr cudaDataType_t t = blas_type<T>::data;
    const auto layout = [&](lt_descriptor<cublasLtMatrixLayout_t, cublasLtMatrixLayoutDestroy>& l, index_t rows, index_t cols, index_t ld) {
      check_cublas(cublasLtMatrixLayoutCreate(&l.h, t, static_cast<std::uint64_t>(rows), static_cast<std::uint64_t>(cols), ld),
                   "cublasLtMatrixLayoutCreate");
    };
    // Column-major as stored: b (k x n row-major) is n x k, or k x n when transposed; a likewise.
    if (p_.b.transposed) layout(b_, p_.k, p_.n, p_.b.ld);
    else layout(b_, p_.n, p_.k, p_.b.ld);
    if (p_.a.transposed) layout(a_, p_.m, p_.k, p_.a.ld);
    else layout(a_, p_.k, p_.m, p_.a.ld);
    layout(d_, p_.n, p_.m, p_.n);
  }

  cublasLtEpilogue_t epilogue() const {
    const bool bias = p_.bias != nullptr;
    switch (p_.activation) {
      case gemm_activation::relu: return bias ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_RELU;
      case gemm_activation::gelu_tanh: return bias ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_GELU;
      default: return bias ? CUBLASLT_EPILOGUE_BIAS : CUBLASLT_EPILOGUE_DEFAULT;
    }
  }

  shape_key_t shape_key() const {
    return {static_cast<std::int64_t>(blas_type<T>::data), p_.m, p_.n, p_.k, p_.a.ld, p_.b.ld, p_.a.transposed, p_.b.transposed,
            static_cast<std::int64_t>(epilogue()), p_.tf32, p_.reads_d, pointer_alignment(p_.a.ptr), pointer_alignment(p_.b.ptr),
            pointer_alignment(p_.d), p_.bias ? pointer_alignment(p_.bias) : 0};
  }

  lt_algorithm ask_heuristic(const shape_key_t& key) const {
    lt_algorithm r;
    r.key = key;
    lt_descriptor<cublasLtMatmulPreference_t, cublasLtMatmulPreferenceDestroy> pref;
    check_cublas(cublasLtMatmulPreferenceCreate(&pref.h), "cublasLtMatmulPreferenceCreate");
    const auto prefer = [&](cublasLtMatmulPreferenceAttributes_t what, auto value) {
      check_cublas(cublasLtMatmulPreferenceSetAttribute(pref.h, what, &value, sizeof(value)), "cublasLtMatmulPreferenceSetAttribute");
    };
    prefer(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, static_cast<std::uint64_t>(cublas_workspace_bytes));
    prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, pointer_alignment(p_.b.ptr));
    prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, pointer_alignment(p_.a.ptr));
    prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, pointer_alignment(p_.d));
    prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, pointer_alignment(p_.d));
    cublasLtMatmulHeuristicResult_t result{};
    int count = 0;
    const cublasStatus_t s =
        cublasLtMatmulAlgoGetHeuristic(handle_, desc_.h, b_.h, a_.h, d_.h, d_.h, pref.h, 1, &result, &count);
    if (s == CUBLAS_STATUS_NOT_SUPPORTED || (s == CUBLAS_STATUS_SUCCESS && count == 0)) return r;  // no algorithm: the plain path
    check_cublas(s, "cublasLtMatmulAlgoGetHeuristic");
    r.found = result.state == CUBLAS_STATUS_SUCCESS;
    r.algo = result.algo;
    r.workspace = result.workspaceSize;
    return r;
  }

  lt_product p_;
  cublasLtHandle_t handle_ = nullptr;
  lt_descriptor<cublasLtMatmulDesc_t, cublasLtMatmulDescDestroy> desc_;
  lt_descriptor<cublasLtMatrixLayout_t, cublasLtMatrixLayoutDestroy> a_, b_, d_;
  lt_algorithm chosen_;
};

}  // namespace xf::detail
