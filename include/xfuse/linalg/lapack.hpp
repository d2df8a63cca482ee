// SPDX-License-Identifier: Apache-2.0
// LAPACK's Fortran entry points (LP64, column-major), as OpenBLAS exports them, for xf::linalg on
// host arrays. Complex arguments are passed as void* (std::complex layout). Trailing size_t
// arguments are the lengths of the character arguments (gfortran's hidden ones).
#pragma once

#include <cstddef>

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
