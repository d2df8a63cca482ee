// SPDX-License-Identifier: Apache-2.0
// cuSOLVER, behind xf::linalg on device arrays: one handle per device and host thread, bound to
// the current stream, its device workspace kept between calls on that stream; cusolver_error; and
// one function a routine, each over a stack of column-major matrices (the 64-bit X routines
// where cuSOLVER has them, the typed 32-bit orgqr/ungqr where it has not).
#pragma once

#include <cusolverDn.h>

#include <array>
#include <cstdint>
#include <string>
#include <algorithm>
#include <utility>
#include <vector>

#include "cublas.hpp"

namespace xf {

// A cuSOLVER call that failed (not a numerical failure, which the info words report): the call
// and its status.
class cusolver_error : public error {
 public:
  cusolver_error(cusolverStatus_t status, const std::string& what)
      : error("xf::cusolver_error: " + what + " failed with cuSOLVER status " + std::to_string(static_cast<int>(status))),
        status_(status) {}
  cusolverStatus_t status() const noexcept { return status_; }

 private:
  cusolverStatus_t status_;
};

namespace detail {

inline void check_cusolver(cusolverStatus_t s, const char* what) {
  if (s != CUSOLVER_STATUS_SUCCESS) throw cusolver_error(s, what);
}

// The routines whose workspace sizes are remembered (asking costs host time on every call).
enum class cusolver_routine { none, getrf, potrf };

// The calling thread's cuSOLVER handle for `dev`, bound to the current stream (as cublas_handle).
struct cusolver_state {
  cusolverDnHandle_t handle = nullptr;
  cusolverDnParams_t params = nullptr;
  cudaStream_t stream = nullptr;
  std::uint64_t recording = 0;  // capture_serial() at binding (as cublas_handle)
  bool bound = false;
  std::vector<unsigned char> host_workspace;  // grows only: a call may use it after returning
  // Workspace sizes of recent queries: asking cuSOLVER again on every call costs host time.
  struct size_query {
    cusolver_routine routine = cusolver_routine::none;
    index_t n = 0;
    cudaDataType_t type{};
    std::size_t device_bytes = 0, host_bytes = 0;
  };
  std::array<size_query, 8> sizes{};
  unsigned next_size = 0;
  // The device workspace, kept between calls on the bound stream (a pool allocation and free per
  // call showed as host time in the solver benchmarks at 512); on another stream, a new one.
  buffer workspace;
  std::size_t workspace_bytes = 0;
  cudaStream_t workspace_stream = nullptr;
  std::uint64_t workspace_recording = 0;
  void release() noexcept {  // at thread exit; the context may already be gone
    if (params) (void)cusolverDnDestroyParams(params);
    if (handle) (void)cusolverDnDestroy(handle);
  }
};

// At least `bytes` of device workspace for calls on st's bound stream, in stream order.
inline void* device_workspace(cusolver_state& st, std::size_t bytes) {
  if (bytes == 0) bytes = 1;
  if (st.workspace_bytes < bytes || st.workspace_stream != st.stream || st.workspace_recording != st.recording) {
    st.workspace = allocate_device(bytes);  // the old one is freed in order on its own stream
    st.workspace_bytes = bytes;
    st.workspace_stream = st.stream;
    st.workspace_recording = st.recording;  // inside xf::capture: the graph's own
  }
  return st.workspace.get();
}

// At least `bytes` of host workspace for a call of `op`. A routine with host workspace works on
// the host during the call, which a graph cannot replay: refused inside xf::capture.
inline void* host_workspace(cusolver_state& st, std::size_t bytes, const char* op) {
  if (bytes > 0) refuse_in_capture(op, "this cuSOLVER routine works on host memory during the call, which a replay would not do");
  if (st.host_workspace.size() < bytes) st.host_workspace.resize(bytes);
  return st.host_workspace.data();
}

// The workspace (device, host bytes) of `routine` for order n and type t: `query(dev, host)` runs
// the first time only.
template <class Query>
std::pair<std::size_t, std::size_t> workspace_size(cusolver_state& st, cusolver_routine routine, index_t n, cudaDataType_t t,
                                                   const Query& query) {
  for (const auto& q : st.sizes)
    if (q.routine == routine && q.n == n && q.type == t) return {q.device_bytes, q.host_bytes};
  std::size_t dev = 0, host = 0;
  query(dev, host);
  st.sizes[st.next_size++ % st.sizes.size()] = {routine, n, t, dev, host};
  return {dev, host};
}
inline cusolver_state& cusolver_for(int dev) {
  cusolver_state& st = thread_state_for<cusolver_state>(dev, "xf::linalg");
  if (!st.handle) {
    device_guard g(dev);
    check_cusolver(cusolverDnCreate(&st.handle), "cusolverDnCreate");
    check_cusolver(cusolverDnCreateParams(&st.params), "cusolverDnCreateParams");
  }
  const cudaStream_t stream = current_stream().handle();
  const std::uint64_t recording = capture_serial();
  if (!st.bound || st.stream != stream || st.recording != recording) {
    check_cusolver(cusolverDnSetStream(st.handle, stream), "cusolverDnSetStream");
    st.stream = stream;
    st.recording = recording;
    st.bound = true;
  }
  return st;
}

// cuSOLVER has Xgeev from CUDA 12.6 (cuSOLVER 11.7) on.
#if defined(CUSOLVER_VERSION) && CUSOLVER_VERSION >= 11700
#define XF_HAS_XGEEV 1
#else
#define XF_HAS_XGEEV 0
#endif

namespace cusolver {

// LU with partial pivoting of `count` n x n matrices at a (stride n * n), pivots (count, n) int64.
template <class T>
void getrf(int dev, index_t n, index_t count, T* a, std::int64_t* pivots, int* infos) {
  cusolver_state& st = cusolver_for(dev);
  constexpr cudaDataType_t t = blas_type<T>::data;
  const auto [dev_bytes, host_bytes] = workspace_size(st, cusolver_routine::getrf, n, t, [&](std::size_t& d, std::size_t& h) {
    check_cusolver(cusolverDnXgetrf_bufferSize(st.handle, st.params, n, n, t, a, n, t, &d, &h), "cusolverDnXgetrf_bufferSize");
  });
  void* const work = device_workspace(st, dev_bytes);
  void* const host_work = host_workspace(st, host_bytes, "xf::linalg (LU, cusolverDnXgetrf)");
  for (index_t b = 0; b < count; ++b)
    check_cusolver(cusolverDnXgetrf(st.handle, st.params, n, n, t, a + b * n * n, n, pivots + b * n, t, work, dev_bytes, host_work,
                                    host_bytes, infos + b),
                   "cusolverDnXgetrf");
}

// Solves with getrf's factors, nrhs right-hand sides a matrix (b: count blocks of n x nrhs).
template <class T>
void getrs(int dev, index_t n, index_t nrhs, index_t count, const T* a, const std::int64_t* pivots, T* b) {
  cusolver_state& st = cusolver_for(dev);
  constexpr cudaDataType_t t = blas_type<T>::data;
  // getrs's own info reports bad arguments only; the factorization's is what matters.
  const buffer info = allocate_device(sizeof(int));
  for (index_t i = 0; i < count; ++i)
    check_cusolver(cusolverDnXgetrs(st.handle, st.params, CUBLAS_OP_N, n, nrhs, t, a + i * n * n, n, pivots + i * n, t, b + i * n * nrhs, n,
                                    static_cast<int*>(info.get())),
                   "cusolverDnXgetrs");
}

// Cholesky of the lower triangles of `count` n x n matrices, in place.
template <class T>
void potrf(int dev, index_t n, index_t count, T* a, int* infos) {
  cusolver_state& st = cusolver_for(dev);
  constexpr cudaDataType_t t = blas_type<T>::data;
  const auto [dev_bytes, host_bytes] = workspace_size(st, cusolver_routine::potrf, n, t, [&](std::size_t& d, std::size_t& h) {
    check_cusolver(cusolverDnXpotrf_bufferSize(st.handle, st.params, CUBLAS_FILL_MODE_LOWER, n, t, a, n, t, &d, &h),
                   "cusolverDnXpotrf_bufferSize");
  });
  void* const work = device_workspace(st, dev_bytes);
  void* const host_work = host_workspace(st, host_bytes, "xf::linalg (Cholesky, cusolverDnXpotrf)");
  for (index_t b = 0; b < count; ++b)
    check_cusolver(cusolverDnXpotrf(st.handle, st.params, CUBLAS_FILL_MODE_LOWER, n, t, a + b * n * n, n, t, work, dev_bytes, host_work,
                                    host_bytes, infos + b),
                   "cusolverDnXpotrf");
}

// Householder QR of `count` m x n matrices (stride m * n), tau at stride tau_stride.
template <class T>
void geqrf(int dev, index_t m, index_t n, index_t count, T* a, T* tau, index_t tau_stride) {
  cusolver_state& st = cusolver_for(dev);
  constexpr cudaDataType_t t = blas_type<T>::data;
  std::size_t dev_bytes = 0, host_bytes = 0;
  check_cusolver(cusolverDnXgeqrf_bufferSize(st.handle, st.params, m, n, t, a, m, t, tau, t, &dev_bytes, &host_bytes),
                 "cusolverDnXgeqrf_bufferSize");
  const buffer work = allocate_device(dev_bytes > 0 ? dev_bytes : 1);
  const buffer info = allocate_device(sizeof(int));  // argument errors only: QR has no numerical failure
  XF_CUDA_CHECK(cudaMemsetAsync(info.get(), 0, sizeof(int), current_stream().handle()));
  void* const host_work = host_workspace(st, host_bytes, "xf::linalg::qr (cusolverDnXgeqrf)");
  for (index_t b = 0; b < count; ++b)
    check_cusolver(cusolverDnXgeqrf(st.handle, st.params, m, n, t, a + b * m * n, m, t, tau + b * tau_stride, t, work.get(), dev_bytes,
                                    host_work, host_bytes, static_cast<int*>(info.get())),
                   "cusolverDnXgeqrf");
}

// The first qn columns of Q (m x qn matrices at stride m * qn) from geqrf's k reflectors, in place.
// cuSOLVER has no 64-bit orgqr: the typed 32-bit routines.
template <class T>
void orgqr(int dev, int m, int qn, int k, index_t count, T* q, const T* tau, index_t tau_stride) {
  cusolver_state& st = cusolver_for(dev);
  using C = cuda_scalar_t<T>;
  C* a = reinterpret_cast<C*>(q);
  const C* t = reinterpret_cast<const C*>(tau);
  const auto run = [&](auto size_query, auto routine, const char* name) {
    int lwork = 0;
    check_cusolver(size_query(st.handle, m, qn, k, a, m, t, &lwork), name);
    lwork = std::max(lwork, 1);
    const buffer work = allocate_device(sizeof(T) * static_cast<std::size_t>(lwork));
    const buffer info = allocate_device(sizeof(int));
    for (index_t b = 0; b < count; ++b)
      check_cusolver(routine(st.handle, m, qn, k, a + b * static_cast<index_t>(m) * qn, m, t + b * tau_stride, static_cast<C*>(work.get()), lwork,
                             static_cast<int*>(info.get())),
                     name);
  };
  if constexpr (std::is_same_v<T, float>) run(&cusolverDnSorgqr_bufferSize, &cusolverDnSorgqr, "cusolverDnSorgqr");
  else if constexpr (std::is_same_v<T, double>) run(&cusolverDnDorgqr_bufferSize, &cusolverDnDorgqr, "cusolverDnDorgqr");
  else if constexpr (std::is_same_v<T, complex64>) run(&cusolverDnCungqr_bufferSize, &cusolverDnCungqr, "cusolverDnCungqr");
  else run(&cusolverDnZungqr_bufferSize, &cusolverDnZungqr, "cusolverDnZungqr");
}

// Eigenvalues (w: count x n) and with `vectors` eigenvectors (over a) of `count` Hermitian n x n
// matrices, reading the `uplo` triangle: Xsyevd for one matrix, Xsyevbatched for a stack.
template <class T>
void heevd(int dev, bool vectors, char uplo, index_t n, index_t count, T* a, real_t<T>* w, int* infos) {
  refuse_in_capture("xf::linalg::eigh (cuSOLVER's syevd)", "cuSOLVER waits for the stream inside the call");
  cusolver_state& st = cusolver_for(dev);
  constexpr cudaDataType_t t = blas_type<T>::data, tw = blas_type<real_t<T>>::data;
  const cusolverEigMode_t job = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const cublasFillMode_t fill = uplo == 'U' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  std::size_t dev_bytes = 0, host_bytes = 0;
  if (count > 1) {
    check_cusolver(cusolverDnXsyevBatched_bufferSize(st.handle, st.params, job, fill, n, t, a, n, tw, w, t, &dev_bytes, &host_bytes, count),
                   "cusolverDnXsyevBatched_bufferSize");
    const buffer work = allocate_device(dev_bytes > 0 ? dev_bytes : 1);
    void* const host_work = host_workspace(st, host_bytes, "xf::linalg::eigh (cusolverDnXsyevBatched)");
    check_cusolver(cusolverDnXsyevBatched(st.handle, st.params, job, fill, n, t, a, n, tw, w, t, work.get(), dev_bytes, host_work, host_bytes,
                                          infos, count),
                   "cusolverDnXsyevBatched");
  } else {
    check_cusolver(cusolverDnXsyevd_bufferSize(st.handle, st.params, job, fill, n, t, a, n, tw, w, t, &dev_bytes, &host_bytes),
                   "cusolverDnXsyevd_bufferSize");
    const buffer work = allocate_device(dev_bytes > 0 ? dev_bytes : 1);
    void* const host_work = host_workspace(st, host_bytes, "xf::linalg::eigh (cusolverDnXsyevd)");
    check_cusolver(cusolverDnXsyevd(st.handle, st.params, job, fill, n, t, a, n, tw, w, t, work.get(), dev_bytes, host_work, host_bytes, infos),
                   "cusolverDnXsyevd");
  }
}

// SVD of `count` tall m x n matrices (stride m * n): job 'A', 'S' or 'N' for U (at u_stride, or
// null), V^H ('A' unless 'N', at v_stride, or null), S at stride n.
template <class T>
void gesvd(int dev, char job, index_t m, index_t n, index_t count, T* a, real_t<T>* s, T* u, index_t u_stride, T* vt, index_t v_stride,
           int* infos) {
  refuse_in_capture("xf::linalg::svd (cuSOLVER's gesvd)", "cuSOLVER waits for the stream inside the call");
  cusolver_state& st = cusolver_for(dev);
  constexpr cudaDataType_t t = blas_type<T>::data, ts = blas_type<real_t<T>>::data;
  const signed char jobu = static_cast<signed char>(job), jobvt = job == 'N' ? 'N' : 'A';
  std::size_t dev_bytes = 0, host_bytes = 0;
  check_cusolver(cusolverDnXgesvd_bufferSize(st.handle, st.params, jobu, jobvt, m, n, t, a, m, ts, s, t, u, m, t, vt, n, t, &dev_bytes,
                                             &host_bytes),
                 "cusolverDnXgesvd_bufferSize");
  const buffer work = allocate_device(dev_bytes > 0 ? dev_bytes : 1);
  void* const host_work = host_workspace(st, host_bytes, "xf::linalg::svd (cusolverDnXgesvd)");
  for (index_t b = 0; b < count; ++b)
    check_cusolver(cusolverDnXgesvd(st.handle, st.params, jobu, jobvt, m, n, t, a + b * m * n, m, ts, s + b * n, t, u ? u + b * u_stride : nullptr,
                                    m, t, vt ? vt + b * v_stride : nullptr, n, t, work.get(), dev_bytes, host_work, host_bytes, infos + b),
                   "cusolverDnXgesvd");
}

// Eigenvalues (w, n complex) and, when vr is not null, right eigenvectors of one general n x n
// matrix: Xgeev (real matrices: a conjugate pair's vectors as two real columns).
template <class T>
void geev(int dev, index_t n, T* a, complex_of_t<T>* w, T* vr, int* info) {
  static_assert(XF_HAS_XGEEV || !std::is_same_v<T, T>, "xf::linalg::eig of device arrays needs cuSOLVER's Xgeev (CUDA 12.6 or newer)");
#if XF_HAS_XGEEV
  refuse_in_capture("xf::linalg::eig (cuSOLVER's Xgeev)", "cuSOLVER works on the host inside the call");
  cusolver_state& st = cusolver_for(dev);
  constexpr cudaDataType_t t = blas_type<T>::data, tw = blas_type<complex_of_t<T>>::data;
  const cusolverEigMode_t right = vr != nullptr ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  std::size_t dev_bytes = 0, host_bytes = 0;
  check_cusolver(cusolverDnXgeev_bufferSize(st.handle, st.params, CUSOLVER_EIG_MODE_NOVECTOR, right, n, t, a, n, tw, w, t, nullptr, 1, t, vr,
                                            n, t, &dev_bytes, &host_bytes),
                 "cusolverDnXgeev_bufferSize");
  void* const work = device_workspace(st, dev_bytes);
  void* const host_work = host_workspace(st, host_bytes, "xf::linalg::eig (cusolverDnXgeev)");
  check_cusolver(cusolverDnXgeev(st.handle, st.params, CUSOLVER_EIG_MODE_NOVECTOR, right, n, t, a, n, tw, w, t, nullptr, 1, t, vr, n, t,
                                 work, dev_bytes, host_work, host_bytes, info),
                 "cusolverDnXgeev");
#else
  (void)dev, (void)n, (void)a, (void)w, (void)vr, (void)info;
#endif
}

}  // namespace cusolver
}  // namespace detail
}  // namespace xf
