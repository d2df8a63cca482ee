// SPDX-License-Identifier: Apache-2.0
// The factorizations behind xf::linalg's solvers: LU with partial pivoting (getrf/getrs) and
// Cholesky (potrf), on cuSOLVER for device arrays and on LAPACK (OpenBLAS) for host arrays.
// Both libraries are column-major: a matrix is factored in a column-major copy (the evaluation of
// its transpose, one fused kernel), which the factorization overwrites.
//
// Failures stay on the device: each factorization writes an `info` per matrix there, and the
// arrays made from it carry a read check (xf::detail::buffer::read_check) that throws
// xf::linalg_error on the next host read of that array (or of a view of it), or in
// xf::linalg::check. Host arrays throw at once.
#pragma once

#include <cusolverDn.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>
#include <initializer_list>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "../reduce.hpp"
#include "blas.hpp"
#include "lapack.hpp"


namespace xf {

// A factorization that failed: a singular matrix (solve, inv) or one that is not positive definite
// (cholesky). Names the operation and the batch index (C order over the batch dimensions).
class linalg_error : public error {
 public:
  linalg_error(const std::string& op, index_t batch_index, int info, const std::string& why)
      : error(op + ": " + why + " (matrix " + std::to_string(batch_index) + " of the batch, LAPACK info " + std::to_string(info) + ")"),
        batch_index_(batch_index),
        info_(info) {}
  index_t batch_index() const noexcept { return batch_index_; }
  int info() const noexcept { return info_; }

 private:
  index_t batch_index_;
  int info_;
};

namespace detail {

inline void check_cusolver(cusolverStatus_t s, const char* what) {
  if (s != CUSOLVER_STATUS_SUCCESS) throw error(std::string("xf::linalg: ") + what + " failed with cuSOLVER status " + std::to_string(static_cast<int>(s)));
}

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
    int routine = -1;
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

// The workspace (device, host bytes) of `routine` (any tag) for order n and type t: `query(dev,
// host)` runs the first time only.
template <class Query>
std::pair<std::size_t, std::size_t> workspace_size(cusolver_state& st, int routine, index_t n, cudaDataType_t t, const Query& query) {
  for (const auto& q : st.sizes)
    if (q.routine == routine && q.n == n && q.type == t) return {q.device_bytes, q.host_bytes};
  std::size_t dev = 0, host = 0;
  query(dev, host);
  st.sizes[st.next_size++ % st.sizes.size()] = {routine, n, t, dev, host};
  return {dev, host};
}
inline cusolver_state& cusolver_for(int dev) {
  struct states {
    std::array<cusolver_state, 64> s;
    ~states() {
      for (cusolver_state& x : s) {
        if (x.params) (void)cusolverDnDestroyParams(x.params);
        if (x.handle) (void)cusolverDnDestroy(x.handle);
      }
    }
  };
  thread_local states cache;
  if (dev < 0 || dev >= static_cast<int>(cache.s.size())) throw device_error("xf::linalg: device " + std::to_string(dev) + " out of range");
  cusolver_state& st = cache.s[static_cast<std::size_t>(dev)];
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

// Throws linalg_error for the first matrix whose info is positive. Reads `info` (device or host).
class info_check final : public buffer::read_check {
 public:
  info_check(std::string op, std::string why, buffer info, index_t count, bool on_device)
      : op_(std::move(op)), why_(std::move(why)), info_(std::move(info)), count_(count), on_device_(on_device) {}
  void run() const override {
    std::vector<int> h(static_cast<std::size_t>(count_));
    if (on_device_) copy_device_to_host(h.data(), info_.get(), h.size() * sizeof(int));
    else std::memcpy(h.data(), info_.get(), h.size() * sizeof(int));
    for (index_t i = 0; i < count_; ++i)
      if (h[static_cast<std::size_t>(i)] > 0) throw linalg_error(op_, i, h[static_cast<std::size_t>(i)], why_);
  }

 private:
  std::string op_, why_;
  buffer info_;
  index_t count_;
  bool on_device_;
};

// A stack of n x n matrices in column-major order, each factored in place, with its infos (and
// pivots for LU), all on the array's side (device or host).
template <class T, class Space>
struct factored {
  array<T, 3, Space> cols;  // cols(b) holds matrix b transposed: column-major storage of matrix b
  array<std::int64_t, 2, Space> pivots;  // LU only; 1-based, LAPACK's convention
  array<int, 2, Space> pivots32;          // instead, when cuBLAS's batched LU factored small matrices
  bool batched_lu = false;
  buffer info;               // `count` ints
  index_t count = 0, n = 0;
};

// The element type of cuSOLVER's typed (32-bit) routines.
template <class T>
using cusolver_scalar = std::conditional_t<
    std::is_same_v<T, complex64>, cuComplex,
    std::conditional_t<std::is_same_v<T, complex128>, cuDoubleComplex, T>>;

// The shape (batch dimensions of `shape`, then `tail`), for results of rank N.
template <std::size_t N>
std::array<index_t, N> batch_then(const auto& shape, std::initializer_list<index_t> tail) {
  std::array<index_t, N> out{};
  std::size_t i = 0;
  for (; i + tail.size() < N; ++i) out[i] = shape[i];
  for (const index_t t : tail) out[i++] = t;
  return out;
}

template <class T>
inline constexpr bool lapack_element = std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, complex64> ||
                                       std::is_same_v<T, complex128>;

// Column-major copies of the m x n matrices of `a` (rank >= 2), as a (count, n, m) stack: row b
// of the stack holds matrix b transposed, which is matrix b in column-major order (lda = m).
template <class T, int R, class Space>
array<T, 3, Space> column_major_matrices(const array<T, R, Space>& a) {
  static_assert(R >= 2, "xf::linalg: needs a matrix or a stack of matrices");
  index_t count = 1;
  for (int i = 0; i < R - 2; ++i) count *= a.shape(i);
  // The transpose of each matrix, evaluated C-ordered: one kernel, or one host loop.
  const array<T, R, Space> t = a.swapaxes(R - 1, R - 2).copy();
  return t.reshape(std::array<index_t, 3>{count, a.shape(R - 1), a.shape(R - 2)});
}

template <class T, int R, class Space>
void require_square(const array<T, R, Space>& a, const char* op) {
  if (a.shape(R - 2) != a.shape(R - 1))
    throw shape_error(std::string(op) + ": the matrices must be square, not " + to_string(a.shape()) + " (" + dtype_name<T> + ")");
}

// Column-major copies of the n x n matrices of `a`, as a (count, n, n) stack.
template <class T, int R, class Space>
array<T, 3, Space> column_major_stack(const array<T, R, Space>& a, const char* op) {
  static_assert(R >= 2, "xf::linalg: needs a matrix or a stack of matrices");
  require_square(a, op);
  return column_major_matrices(a);
}

// `count` zeroed LAPACK info words on the side of Space (device: ordered on the current stream).
template <class Space>
buffer new_info(index_t count) {
  const std::size_t bytes = sizeof(int) * static_cast<std::size_t>(count > 0 ? count : 1);
  if constexpr (std::is_same_v<Space, device>) {
    buffer info = allocate_device(bytes);
    XF_CUDA_CHECK(cudaMemsetAsync(info.get(), 0, bytes, current_stream().handle()));
    return info;
  } else {
    buffer info = allocate_host(bytes);
    std::memset(info.get(), 0, bytes);
    return info;
  }
}

// A dimension passed to LAPACK or to cuSOLVER's 32-bit routines.
inline int lapack_int(index_t v, const char* op) {
  if (v > std::numeric_limits<int>::max())
    throw shape_error(std::string(op) + ": a dimension of " + std::to_string(v) + " exceeds the 32-bit LAPACK interface");
  return static_cast<int>(v);
}

// Runs a LAPACK routine twice: a workspace query (lwork = -1), then the call with the size it
// asked for. `call(work, lwork)`; the query writes the optimal size into work[0].
template <class T, class Call>
void lapack_with_workspace(const Call& call) {
  T query{};
  call(&query, -1);
  double size = 0;
  if constexpr (is_complex<T>) size = static_cast<double>(query.real());
  else size = static_cast<double>(query);
  const int lwork = std::max(1, static_cast<int>(size));
  std::vector<T> work(static_cast<std::size_t>(lwork));
  call(work.data(), lwork);
}

// Small matrices go to cuBLAS's batched LU (getrfBatched / getrsBatched: one launch for the whole
// stack, and a third of cuSOLVER's host cost for one 64 x 64 matrix); larger ones to cuSOLVER's
// Xgetrf per matrix.
inline constexpr index_t batched_lu_max_n = 64;

// Device pointers to the `count` matrices of a stack (base + i * stride elements), on the device,
// as the batched routines take them. One fused kernel; no host-to-device copy.
template <class T>
array<std::uint64_t, 1, device> matrix_pointers(T* base, index_t count, index_t stride) {
  const auto start = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(base));
  return arange<std::uint64_t>(count) * static_cast<std::uint64_t>(stride * static_cast<index_t>(sizeof(T))) + start;
}

template <class T>
void getrf_batched(cublasHandle_t h, int n, T* a, int* pivots, int* info, index_t count) {
  const auto ptrs = matrix_pointers(a, count, static_cast<index_t>(n) * n);
  using C = cusolver_scalar<T>;
  C* const* arr = reinterpret_cast<C* const*>(ptrs.data());
  const int batch = lapack_int(count, "xf::linalg: batched LU");
  if constexpr (std::is_same_v<T, float>) check_cublas(cublasSgetrfBatched(h, n, const_cast<C**>(arr), n, pivots, info, batch), "cublasSgetrfBatched");
  else if constexpr (std::is_same_v<T, double>) check_cublas(cublasDgetrfBatched(h, n, const_cast<C**>(arr), n, pivots, info, batch), "cublasDgetrfBatched");
  else if constexpr (std::is_same_v<T, complex64>) check_cublas(cublasCgetrfBatched(h, n, const_cast<C**>(arr), n, pivots, info, batch), "cublasCgetrfBatched");
  else check_cublas(cublasZgetrfBatched(h, n, const_cast<C**>(arr), n, pivots, info, batch), "cublasZgetrfBatched");
}

template <class T>
void getrs_batched(cublasHandle_t h, int n, int nrhs, const T* a, const int* pivots, T* b, index_t count) {
  const auto a_ptrs = matrix_pointers(const_cast<T*>(a), count, static_cast<index_t>(n) * n);
  const auto b_ptrs = matrix_pointers(b, count, static_cast<index_t>(n) * nrhs);
  using C = cusolver_scalar<T>;
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

// LU-factors every matrix of the stack in place.
template <class T, class Space>
factored<T, Space> lu_factor(array<T, 3, Space> cols) {
  static_assert(lapack_element<T>, "xf::linalg: float, double, complex64 or complex128 matrices");
  factored<T, Space> f;
  f.count = cols.shape(0);
  f.n = cols.shape(1);
  f.cols = cols;
  const index_t n = f.n;
  if constexpr (std::is_same_v<Space, device>) {
    // Every factorization call writes its matrices' info: zeroed here only when none runs.
    f.info = n == 0 || f.count == 0 ? new_info<device>(f.count) : allocate_device(sizeof(int) * static_cast<std::size_t>(f.count));
    if (n <= batched_lu_max_n) {
      f.batched_lu = true;
      f.pivots32 = array<int, 2, Space>(dims<2>{f.count, f.n});
      if (n == 0 || f.count == 0) return f;
      getrf_batched(cublas_handle(cols.device_id()), static_cast<int>(n), cols.data(), f.pivots32.data(), static_cast<int*>(f.info.get()), f.count);
      return f;
    }
    f.pivots = array<std::int64_t, 2, Space>(dims<2>{f.count, f.n});
    cusolver_state& st = cusolver_for(cols.device_id());
    constexpr cudaDataType_t t = blas_type<T>::data;
    const auto [dev_bytes, host_bytes] = workspace_size(st, 0, n, t, [&](std::size_t& d, std::size_t& h) {
      check_cusolver(cusolverDnXgetrf_bufferSize(st.handle, st.params, n, n, t, cols.data(), n, t, &d, &h), "cusolverDnXgetrf_bufferSize");
    });
    void* const work = device_workspace(st, dev_bytes);
    void* const host_work = host_workspace(st, host_bytes, "xf::linalg (LU, cusolverDnXgetrf)");
    for (index_t b = 0; b < f.count; ++b)
      check_cusolver(cusolverDnXgetrf(st.handle, st.params, n, n, t, cols.data() + b * n * n, n, f.pivots.data() + b * n, t, work,
                                      dev_bytes, host_work, host_bytes, static_cast<int*>(f.info.get()) + b),
                     "cusolverDnXgetrf");
  } else {
    f.pivots = array<std::int64_t, 2, Space>(dims<2>{f.count, f.n});
    f.info = allocate_host(sizeof(int) * static_cast<std::size_t>(f.count > 0 ? f.count : 1));
    const int ni = static_cast<int>(n);
    std::vector<int> piv(static_cast<std::size_t>(n));
    for (index_t b = 0; b < f.count; ++b) {
      int* info = static_cast<int*>(f.info.get()) + b;
      *info = 0;
      if (n == 0) continue;
      T* m = cols.data() + b * n * n;
      if constexpr (std::is_same_v<T, float>) sgetrf_(&ni, &ni, m, &ni, piv.data(), info);
      else if constexpr (std::is_same_v<T, double>) dgetrf_(&ni, &ni, m, &ni, piv.data(), info);
      else if constexpr (std::is_same_v<T, complex64>) cgetrf_(&ni, &ni, m, &ni, piv.data(), info);
      else zgetrf_(&ni, &ni, m, &ni, piv.data(), info);
      for (index_t i = 0; i < n; ++i) f.pivots.data()[b * n + i] = piv[static_cast<std::size_t>(i)];
    }
  }
  return f;
}

// Solves A X = B for every matrix of the stack, B (count, nrhs, n) holding each right-hand side
// block column-major, in place.
template <class T, class Space>
void lu_solve(const factored<T, Space>& f, array<T, 3, Space>& b_cols) {
  const index_t n = f.n, nrhs = b_cols.shape(1);
  if (n == 0 || nrhs == 0 || f.count == 0) return;
  if constexpr (std::is_same_v<Space, device>) {
    if (f.batched_lu) {
      getrs_batched(cublas_handle(b_cols.device_id()), static_cast<int>(n), lapack_int(nrhs, "xf::linalg::solve"), f.cols.data(), f.pivots32.data(),
                    b_cols.data(), f.count);
      return;
    }
    cusolver_state& st = cusolver_for(b_cols.device_id());
    constexpr cudaDataType_t t = blas_type<T>::data;
    // getrs's own info reports bad arguments only; the factorization's is what matters.
    const buffer info = allocate_device(sizeof(int));
    for (index_t b = 0; b < f.count; ++b)
      check_cusolver(cusolverDnXgetrs(st.handle, st.params, CUBLAS_OP_N, n, nrhs, t, f.cols.data() + b * n * n, n, f.pivots.data() + b * n,
                                      t, b_cols.data() + b * n * nrhs, n, static_cast<int*>(info.get())),
                     "cusolverDnXgetrs");
  } else {
    const int ni = static_cast<int>(n), nr = static_cast<int>(nrhs);
    std::vector<int> piv(static_cast<std::size_t>(n));
    for (index_t b = 0; b < f.count; ++b) {
      if (static_cast<const int*>(f.info.get())[b] > 0) continue;  // singular: reported by the caller
      for (index_t i = 0; i < n; ++i) piv[static_cast<std::size_t>(i)] = static_cast<int>(f.pivots.data()[b * n + i]);
      int info = 0;
      const T* m = f.cols.data() + b * n * n;
      T* x = b_cols.data() + b * n * nrhs;
      if constexpr (std::is_same_v<T, float>) sgetrs_("N", &ni, &nr, m, &ni, piv.data(), x, &ni, &info, 1);
      else if constexpr (std::is_same_v<T, double>) dgetrs_("N", &ni, &nr, m, &ni, piv.data(), x, &ni, &info, 1);
      else if constexpr (std::is_same_v<T, complex64>) cgetrs_("N", &ni, &nr, m, &ni, piv.data(), x, &ni, &info, 1);
      else zgetrs_("N", &ni, &nr, m, &ni, piv.data(), x, &ni, &info, 1);
    }
  }
}

// The number of row interchanges of each LU factorization, (count): det's sign.
template <class T, class Space>
array<std::int64_t, 1, Space> row_swaps(const factored<T, Space>& f) {
  if (f.batched_lu) return count_nonzero(f.pivots32 != arange<int>(1, static_cast<int>(f.n) + 1), 1);
  return count_nonzero(f.pivots != arange<std::int64_t>(1, f.n + 1), 1);
}

// Cholesky-factors every matrix of the stack in place (lower triangle of each column-major matrix).
template <class T, class Space>
factored<T, Space> cholesky_factor(array<T, 3, Space> cols) {
  static_assert(lapack_element<T>, "xf::linalg: float, double, complex64 or complex128 matrices");
  factored<T, Space> f;
  f.count = cols.shape(0);
  f.n = cols.shape(1);
  f.cols = cols;
  const index_t n = f.n;
  if constexpr (std::is_same_v<Space, device>) {
    // potrf writes every matrix's info: zeroed here only when no call runs.
    f.info = n == 0 || f.count == 0 ? new_info<device>(f.count) : allocate_device(sizeof(int) * static_cast<std::size_t>(f.count));
    if (n == 0 || f.count == 0) return f;
    cusolver_state& st = cusolver_for(cols.device_id());
    constexpr cudaDataType_t t = blas_type<T>::data;
    const auto [dev_bytes, host_bytes] = workspace_size(st, 1, n, t, [&](std::size_t& d, std::size_t& h) {
      check_cusolver(cusolverDnXpotrf_bufferSize(st.handle, st.params, CUBLAS_FILL_MODE_LOWER, n, t, cols.data(), n, t, &d, &h),
                     "cusolverDnXpotrf_bufferSize");
    });
    void* const work = device_workspace(st, dev_bytes);
    void* const host_work = host_workspace(st, host_bytes, "xf::linalg (Cholesky, cusolverDnXpotrf)");
    for (index_t b = 0; b < f.count; ++b)
      check_cusolver(cusolverDnXpotrf(st.handle, st.params, CUBLAS_FILL_MODE_LOWER, n, t, cols.data() + b * n * n, n, t, work, dev_bytes,
                                      host_work, host_bytes, static_cast<int*>(f.info.get()) + b),
                     "cusolverDnXpotrf");
  } else {
    f.info = allocate_host(sizeof(int) * static_cast<std::size_t>(f.count > 0 ? f.count : 1));
    const int ni = static_cast<int>(n);
    for (index_t b = 0; b < f.count; ++b) {
      int* info = static_cast<int*>(f.info.get()) + b;
      *info = 0;
      if (n == 0) continue;
      T* m = cols.data() + b * n * n;
      if constexpr (std::is_same_v<T, float>) spotrf_("L", &ni, m, &ni, info, 1);
      else if constexpr (std::is_same_v<T, double>) dpotrf_("L", &ni, m, &ni, info, 1);
      else if constexpr (std::is_same_v<T, complex64>) cpotrf_("L", &ni, m, &ni, info, 1);
      else zpotrf_("L", &ni, m, &ni, info, 1);
    }
  }
  return f;
}

// Attaches the factorization's failure check to a result; host results check at once.
template <class T, int R, class Space, class F>
void attach_info_check(const array<T, R, Space>& result, const F& f, const char* op, const char* why) {
  auto* check = new info_check(op, why, f.info, f.count, std::is_same_v<Space, device>);
  if constexpr (std::is_same_v<Space, host>) {
    const std::unique_ptr<info_check> owned(check);
    owned->run();
  } else {
    const_cast<buffer&>(result.buffer()).attach_read_check(check);
  }
}

}  // namespace detail
}  // namespace xf
