// SPDX-License-Identifier: Apache-2.0
// LAPACK and CBLAS (OpenBLAS, the reference CBLAS, MKL: only names every cblas.h declares),
// behind xf::linalg and xf::matmul on host arrays: the Fortran entry points (LP64, column-major;
// complex arguments as void*, std::complex's layout; trailing size_t arguments are gfortran's
// hidden lengths of the character arguments), and one typed dispatcher a routine (the s/d/c/z
// choice in one place), each for one column-major matrix.
#pragma once

#include <cblas.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "../../complex.hpp"
#include "../../core.hpp"
#include "common.hpp"

extern "C" {
// LU and Cholesky.
void sgetrf_(const int*, const int*, float*, const int*, int*, int*);
void dgetrf_(const int*, const int*, double*, const int*, int*, int*);
void cgetrf_(const int*, const int*, void*, const int*, int*, int*);
void zgetrf_(const int*, const int*, void*, const int*, int*, int*);
void sgetrs_(const char*, const int*, const int*, const float*, const int*, const int*, float*, const int*, int*, std::size_t);
void dgetrs_(const char*, const int*, const int*, const double*, const int*, const int*, double*, const int*, int*, std::size_t);
void cgetrs_(const char*, const int*, const int*, const void*, const int*, const int*, void*, const int*, int*, std::size_t);
void zgetrs_(const char*, const int*, const int*, const void*, const int*, const int*, void*, const int*, int*, std::size_t);
void spotrf_(const char*, const int*, float*, const int*, int*, std::size_t);
void dpotrf_(const char*, const int*, double*, const int*, int*, std::size_t);
void cpotrf_(const char*, const int*, void*, const int*, int*, std::size_t);
void zpotrf_(const char*, const int*, void*, const int*, int*, std::size_t);
// QR: geqrf (m, n, a, lda, tau, work, lwork, info), then orgqr / ungqr (m, n, k, a, lda, tau, ...).
void sgeqrf_(const int*, const int*, float*, const int*, float*, float*, const int*, int*);
void dgeqrf_(const int*, const int*, double*, const int*, double*, double*, const int*, int*);
void cgeqrf_(const int*, const int*, void*, const int*, void*, void*, const int*, int*);
void zgeqrf_(const int*, const int*, void*, const int*, void*, void*, const int*, int*);
void sorgqr_(const int*, const int*, const int*, float*, const int*, const float*, float*, const int*, int*);
void dorgqr_(const int*, const int*, const int*, double*, const int*, const double*, double*, const int*, int*);
void cungqr_(const int*, const int*, const int*, void*, const int*, const void*, void*, const int*, int*);
void zungqr_(const int*, const int*, const int*, void*, const int*, const void*, void*, const int*, int*);
// Hermitian eigenproblems, divide and conquer: (jobz, uplo, n, a, lda, w, work, lwork, [rwork,
// lrwork,] iwork, liwork, info).
void ssyevd_(const char*, const char*, const int*, float*, const int*, float*, float*, const int*, int*, const int*, int*, std::size_t,
             std::size_t);
void dsyevd_(const char*, const char*, const int*, double*, const int*, double*, double*, const int*, int*, const int*, int*, std::size_t,
             std::size_t);
void cheevd_(const char*, const char*, const int*, void*, const int*, float*, void*, const int*, float*, const int*, int*, const int*, int*,
             std::size_t, std::size_t);
void zheevd_(const char*, const char*, const int*, void*, const int*, double*, void*, const int*, double*, const int*, int*, const int*,
             int*, std::size_t, std::size_t);
// Singular values: (jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, [rwork,] info).
void sgesvd_(const char*, const char*, const int*, const int*, float*, const int*, float*, float*, const int*, float*, const int*, float*,
             const int*, int*, std::size_t, std::size_t);
void dgesvd_(const char*, const char*, const int*, const int*, double*, const int*, double*, double*, const int*, double*, const int*,
             double*, const int*, int*, std::size_t, std::size_t);
void cgesvd_(const char*, const char*, const int*, const int*, void*, const int*, float*, void*, const int*, void*, const int*, void*,
             const int*, float*, int*, std::size_t, std::size_t);
void zgesvd_(const char*, const char*, const int*, const int*, void*, const int*, double*, void*, const int*, void*, const int*, void*,
             const int*, double*, int*, std::size_t, std::size_t);
}

extern "C" {
// General eigenproblems: (jobvl, jobvr, n, a, lda, wr, wi | w, vl, ldvl, vr, ldvr, work, lwork,
// [rwork,] info).
void sgeev_(const char*, const char*, const int*, float*, const int*, float*, float*, float*, const int*, float*, const int*, float*,
            const int*, int*, std::size_t, std::size_t);
void dgeev_(const char*, const char*, const int*, double*, const int*, double*, double*, double*, const int*, double*, const int*,
            double*, const int*, int*, std::size_t, std::size_t);
void cgeev_(const char*, const char*, const int*, void*, const int*, void*, void*, const int*, void*, const int*, void*, const int*,
            float*, int*, std::size_t, std::size_t);
void zgeev_(const char*, const char*, const int*, void*, const int*, void*, void*, const int*, void*, const int*, void*, const int*,
            double*, int*, std::size_t, std::size_t);
}

namespace xf::detail {

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

// The same on the host with CBLAS (row-major, so the flags apply as written), a product per batch.
template <class T>
void gemm_host(index_t m, index_t n, index_t k, const blas_operand& a, index_t stride_a, const blas_operand& b,
               index_t stride_b, T* c, index_t stride_c, index_t count, T alpha, T beta) {
  refuse_in_capture("xf::matmul", "products of host arrays run on the host now, not in the graph");
  constexpr index_t most = 2147483647;
  if (m > most || n > most || k > most || a.ld > most || b.ld > most)
    throw shape_error("xf::matmul: host BLAS takes 32-bit sizes; got m " + std::to_string(m) + ", n " + std::to_string(n) +
                      ", k " + std::to_string(k));
  const auto op = [](const blas_operand& x) { return !x.transposed ? CblasNoTrans : x.conjugate ? CblasConjTrans : CblasTrans; };
  const auto ta = op(a), tb = op(b);
  // int: CBLAS's own size type in every header (OpenBLAS's blasint, the reference CBLAS_INT, MKL's
  // MKL_INT) is int or wider, and the sizes were checked against 2^31 - 1 above.
  const int M = static_cast<int>(m), N = static_cast<int>(n), K = static_cast<int>(k);
  const int lda = static_cast<int>(a.ld), ldb = static_cast<int>(b.ld);
  for (index_t i = 0; i < count; ++i) {
    const T* pa = static_cast<const T*>(a.ptr) + i * stride_a;
    const T* pb = static_cast<const T*>(b.ptr) + i * stride_b;
    T* pc = c + i * stride_c;
    if constexpr (std::is_same_v<T, float>) {
      cblas_sgemm(CblasRowMajor, ta, tb, M, N, K, alpha, pa, lda, pb, ldb, beta, pc, N);
    } else if constexpr (std::is_same_v<T, double>) {
      cblas_dgemm(CblasRowMajor, ta, tb, M, N, K, alpha, pa, lda, pb, ldb, beta, pc, N);
    } else if constexpr (std::is_same_v<T, complex64>) {
      cblas_cgemm(CblasRowMajor, ta, tb, M, N, K, &alpha, pa, lda, pb, ldb, &beta, pc, N);
    } else {
      static_assert(std::is_same_v<T, complex128>, "gemm_host: float, double, complex64 or complex128");
      cblas_zgemm(CblasRowMajor, ta, tb, M, N, K, &alpha, pa, lda, pb, ldb, &beta, pc, N);
    }
  }
}

namespace lapack {

// LU with partial pivoting of one n x n matrix (pivots 1-based).
template <class T>
void getrf(int n, T* a, int* pivots, int* info) {
  if constexpr (std::is_same_v<T, float>) sgetrf_(&n, &n, a, &n, pivots, info);
  else if constexpr (std::is_same_v<T, double>) dgetrf_(&n, &n, a, &n, pivots, info);
  else if constexpr (std::is_same_v<T, complex64>) cgetrf_(&n, &n, a, &n, pivots, info);
  else zgetrf_(&n, &n, a, &n, pivots, info);
}

// Solves with getrf's factors, in place in b (n x nrhs).
template <class T>
void getrs(int n, int nrhs, const T* a, const int* pivots, T* b, int* info) {
  if constexpr (std::is_same_v<T, float>) sgetrs_("N", &n, &nrhs, a, &n, pivots, b, &n, info, 1);
  else if constexpr (std::is_same_v<T, double>) dgetrs_("N", &n, &nrhs, a, &n, pivots, b, &n, info, 1);
  else if constexpr (std::is_same_v<T, complex64>) cgetrs_("N", &n, &nrhs, a, &n, pivots, b, &n, info, 1);
  else zgetrs_("N", &n, &nrhs, a, &n, pivots, b, &n, info, 1);
}

// Cholesky of one matrix's lower triangle, in place.
template <class T>
void potrf(int n, T* a, int* info) {
  if constexpr (std::is_same_v<T, float>) spotrf_("L", &n, a, &n, info, 1);
  else if constexpr (std::is_same_v<T, double>) dpotrf_("L", &n, a, &n, info, 1);
  else if constexpr (std::is_same_v<T, complex64>) cpotrf_("L", &n, a, &n, info, 1);
  else zpotrf_("L", &n, a, &n, info, 1);
}

// Householder QR of one m x n matrix, in place (reflectors below R, their scales in tau).
template <class T>
void geqrf(int m, int n, T* a, T* tau) {
  int info = 0;
  lapack_with_workspace<T>([&](T* work, int lwork) {
    if constexpr (std::is_same_v<T, float>) sgeqrf_(&m, &n, a, &m, tau, work, &lwork, &info);
    else if constexpr (std::is_same_v<T, double>) dgeqrf_(&m, &n, a, &m, tau, work, &lwork, &info);
    else if constexpr (std::is_same_v<T, complex64>) cgeqrf_(&m, &n, a, &m, tau, work, &lwork, &info);
    else zgeqrf_(&m, &n, a, &m, tau, work, &lwork, &info);
  });
}

// The first n columns of Q from geqrf's k reflectors, in place (orgqr / ungqr).
template <class T>
void orgqr(int m, int n, int k, T* a, const T* tau) {
  int info = 0;
  lapack_with_workspace<T>([&](T* work, int lwork) {
    if constexpr (std::is_same_v<T, float>) sorgqr_(&m, &n, &k, a, &m, tau, work, &lwork, &info);
    else if constexpr (std::is_same_v<T, double>) dorgqr_(&m, &n, &k, a, &m, tau, work, &lwork, &info);
    else if constexpr (std::is_same_v<T, complex64>) cungqr_(&m, &n, &k, a, &m, tau, work, &lwork, &info);
    else zungqr_(&m, &n, &k, a, &m, tau, work, &lwork, &info);
  });
}

// Eigenvalues (ascending, into w) and with jobz 'V' eigenvectors (over a) of one Hermitian
// matrix, divide and conquer (syevd / heevd), reading the `uplo` triangle.
template <class T>
void heevd(char jobz, char uplo, int n, T* a, real_t<T>* w, int* info) {
  using Re = real_t<T>;
  T work_q{};
  Re rwork_q{};
  int iwork_q = 0, lwork = -1, lrwork = -1, liwork = -1;
  const auto call = [&](T* work, Re* rwork, int* iwork) {
    if constexpr (std::is_same_v<T, float>) ssyevd_(&jobz, &uplo, &n, a, &n, w, work, &lwork, iwork, &liwork, info, 1, 1);
    else if constexpr (std::is_same_v<T, double>) dsyevd_(&jobz, &uplo, &n, a, &n, w, work, &lwork, iwork, &liwork, info, 1, 1);
    else if constexpr (std::is_same_v<T, complex64>) cheevd_(&jobz, &uplo, &n, a, &n, w, work, &lwork, rwork, &lrwork, iwork, &liwork, info, 1, 1);
    else zheevd_(&jobz, &uplo, &n, a, &n, w, work, &lwork, rwork, &lrwork, iwork, &liwork, info, 1, 1);
  };
  call(&work_q, &rwork_q, &iwork_q);  // workspace query (-1 sizes)
  if constexpr (is_complex<T>) lwork = std::max(1, static_cast<int>(work_q.real()));
  else lwork = std::max(1, static_cast<int>(work_q));
  lrwork = std::max(1, static_cast<int>(rwork_q));
  liwork = std::max(1, iwork_q);
  std::vector<T> work(static_cast<std::size_t>(lwork));
  std::vector<Re> rwork(static_cast<std::size_t>(lrwork));
  std::vector<int> iwork(static_cast<std::size_t>(liwork));
  call(work.data(), rwork.data(), iwork.data());
}

// Singular values (s) and vectors of one m x n matrix (gesvd: jobu, jobvt 'A', 'S' or 'N'; u and
// vt may point at a dummy when not computed).
template <class T>
void gesvd(char jobu, char jobvt, int m, int n, T* a, real_t<T>* s, T* u, int ldu, T* vt, int ldvt, int* info) {
  std::vector<real_t<T>> rwork(is_complex<T> ? static_cast<std::size_t>(5 * std::max(1, std::min(m, n))) : 1);
  lapack_with_workspace<T>([&](T* work, int lwork) {
    if constexpr (std::is_same_v<T, float>) sgesvd_(&jobu, &jobvt, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work, &lwork, info, 1, 1);
    else if constexpr (std::is_same_v<T, double>) dgesvd_(&jobu, &jobvt, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work, &lwork, info, 1, 1);
    else if constexpr (std::is_same_v<T, complex64>)
      cgesvd_(&jobu, &jobvt, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work, &lwork, rwork.data(), info, 1, 1);
    else zgesvd_(&jobu, &jobvt, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work, &lwork, rwork.data(), info, 1, 1);
  });
}

// Eigenvalues (w, n complex) and, when vr is not null, right eigenvectors of one general matrix
// (geev; real matrices store a conjugate pair's vectors as two real columns).
template <class T>
void geev(int n, T* a, complex_of_t<T>* w, T* vr, int* info) {
  using Re = real_t<T>;
  const int one = 1;
  const char jobvl = 'N', jobvr = vr != nullptr ? 'V' : 'N';
  T unused{};
  T* const vr_or_unused = vr != nullptr ? vr : &unused;
  const int ldvr = vr != nullptr ? n : 1;
  if constexpr (is_complex<T>) {
    std::vector<Re> rwork(static_cast<std::size_t>(2 * std::max(1, n)));
    lapack_with_workspace<T>([&](T* work, int lwork) {
      if constexpr (std::is_same_v<T, complex64>)
        cgeev_(&jobvl, &jobvr, &n, a, &n, w, &unused, &one, vr_or_unused, &ldvr, work, &lwork, rwork.data(), info, 1, 1);
      else zgeev_(&jobvl, &jobvr, &n, a, &n, w, &unused, &one, vr_or_unused, &ldvr, work, &lwork, rwork.data(), info, 1, 1);
    });
  } else {
    std::vector<T> wr(static_cast<std::size_t>(n)), wi(static_cast<std::size_t>(n));
    lapack_with_workspace<T>([&](T* work, int lwork) {
      if constexpr (std::is_same_v<T, float>)
        sgeev_(&jobvl, &jobvr, &n, a, &n, wr.data(), wi.data(), &unused, &one, vr_or_unused, &ldvr, work, &lwork, info, 1, 1);
      else dgeev_(&jobvl, &jobvr, &n, a, &n, wr.data(), wi.data(), &unused, &one, vr_or_unused, &ldvr, work, &lwork, info, 1, 1);
    });
    for (int i = 0; i < n; ++i) w[i] = complex_of_t<T>(wr[static_cast<std::size_t>(i)], wi[static_cast<std::size_t>(i)]);
  }
}

}  // namespace lapack
}  // namespace xf::detail
