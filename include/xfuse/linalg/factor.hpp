// SPDX-License-Identifier: Apache-2.0
// The factorizations behind xf::linalg's solvers: LU with partial pivoting (getrf/getrs) and
// Cholesky (potrf), on cuSOLVER (backend/cusolver.hpp) or cuBLAS's batched LU for small matrices
// (backend/cublas.hpp) for device arrays, on LAPACK (backend/lapack.hpp) for host arrays.
// Both libraries are column-major: a matrix is factored in a column-major copy (the evaluation of
// its transpose, one fused kernel), which the factorization overwrites.
//
// Failures stay on the device: each factorization writes an `info` per matrix there, and the
// arrays made from it carry a read check (xf::detail::buffer::read_check) that throws
// xf::linalg_error on the next host read of that array (or of a view of it), or in
// xf::linalg::check. Host arrays throw at once.
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>
#include <initializer_list>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "../reduce/reductions.hpp"
#include "backend/cublas.hpp"
#include "backend/cusolver.hpp"
#include "backend/lapack.hpp"

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

// Small matrices go to cuBLAS's batched LU (getrfBatched / getrsBatched: one launch for the whole
// stack, and a third of cuSOLVER's host cost for one 64 x 64 matrix); larger ones to cuSOLVER's
// Xgetrf per matrix.
inline constexpr index_t batched_lu_max_n = 64;

// The factors of a stack about to be factored in place: its matrices and, on the device, the info
// words (every factorization call writes its matrices' words: zeroed here only when none runs).
template <class T, class Space>
factored<T, Space> factors_of(const array<T, 3, Space>& cols) {
  static_assert(lapack_element<T>, "xf::linalg: float, double, complex64 or complex128 matrices");
  factored<T, Space> f;
  f.count = cols.shape(0);
  f.n = cols.shape(1);
  f.cols = cols;
  if constexpr (std::is_same_v<Space, device>)
    f.info = f.n == 0 || f.count == 0 ? new_info<device>(f.count) : allocate_device(sizeof(int) * static_cast<std::size_t>(f.count));
  return f;
}

// LU-factors every matrix of the stack in place.
template <class T, class Space>
factored<T, Space> lu_factor(array<T, 3, Space> cols) {
  factored<T, Space> f = factors_of(cols);
  const index_t n = f.n;
  if constexpr (std::is_same_v<Space, device>) {
    if (n <= batched_lu_max_n) {
      f.batched_lu = true;
      f.pivots32 = array<int, 2, Space>(dims<2>{f.count, f.n});
      if (n == 0 || f.count == 0) return f;
      getrf_batched(cublas_handle(cols.device_id()), static_cast<int>(n), cols.data(), f.pivots32.data(), static_cast<int*>(f.info.get()), f.count);
      return f;
    }
    f.pivots = array<std::int64_t, 2, Space>(dims<2>{f.count, f.n});
    cusolver::getrf(cols.device_id(), n, f.count, cols.data(), f.pivots.data(), static_cast<int*>(f.info.get()));
  } else {
    f.pivots = array<std::int64_t, 2, Space>(dims<2>{f.count, f.n});
    f.info = allocate_host(sizeof(int) * static_cast<std::size_t>(f.count > 0 ? f.count : 1));
    const int ni = lapack_int(n, "xf::linalg (LU)");
    std::vector<int> piv(static_cast<std::size_t>(n));
    for (index_t b = 0; b < f.count; ++b) {
      int* info = static_cast<int*>(f.info.get()) + b;
      *info = 0;
      if (n == 0) continue;
      lapack::getrf(ni, cols.data() + b * n * n, piv.data(), info);
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
    cusolver::getrs(b_cols.device_id(), n, nrhs, f.count, f.cols.data(), f.pivots.data(), b_cols.data());
  } else {
    const int ni = lapack_int(n, "xf::linalg::solve"), nr = lapack_int(nrhs, "xf::linalg::solve");
    std::vector<int> piv(static_cast<std::size_t>(n));
    for (index_t b = 0; b < f.count; ++b) {
      if (static_cast<const int*>(f.info.get())[b] > 0) continue;  // singular: reported by the caller
      for (index_t i = 0; i < n; ++i) piv[static_cast<std::size_t>(i)] = static_cast<int>(f.pivots.data()[b * n + i]);
      int info = 0;
      lapack::getrs(ni, nr, f.cols.data() + b * n * n, piv.data(), b_cols.data() + b * n * nrhs, &info);
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
  factored<T, Space> f = factors_of(cols);
  const index_t n = f.n;
  if constexpr (std::is_same_v<Space, device>) {
    if (n == 0 || f.count == 0) return f;
    cusolver::potrf(cols.device_id(), n, f.count, cols.data(), static_cast<int*>(f.info.get()));
  } else {
    f.info = allocate_host(sizeof(int) * static_cast<std::size_t>(f.count > 0 ? f.count : 1));
    const int ni = lapack_int(n, "xf::linalg::cholesky");
    for (index_t b = 0; b < f.count; ++b) {
      int* info = static_cast<int*>(f.info.get()) + b;
      *info = 0;
      if (n > 0) lapack::potrf(ni, cols.data() + b * n * n, info);
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
