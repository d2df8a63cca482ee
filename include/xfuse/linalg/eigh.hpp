// SPDX-License-Identifier: Apache-2.0
// xf::linalg::eigh and eigvalsh: eigenvalues (ascending) and eigenvectors of Hermitian (real
// symmetric) matrices, for a matrix or a stack. Device arrays run cuSOLVER's divide-and-conquer
// Xsyevd for one matrix and its batched Xsyevbatched for a stack; host arrays run LAPACK's
// ?syevd / ?heevd. Only the triangle named by `uplo` is read, as in NumPy. A failure to converge
// surfaces like the solvers' errors (xf::linalg_error at the next host read, or in check()).
#pragma once

#include "factor.hpp"
#include "matmul.hpp"
#include "../base/nvtx_emit.hpp"

namespace xf::linalg {

template <class T, int N, class Space>
struct eigh_result {
  array<real_t<T>, N - 1, Space> eigenvalues;  // (..., n), ascending
  array<T, N, Space> eigenvectors;            // (..., n, n): column j belongs to eigenvalue j
};

namespace detail {
using namespace ::xf::detail;

// Eigenvalues (count, n) of the column-major Hermitian matrices of `cols` (count, n, n); with
// `vectors`, cols is overwritten by the eigenvectors, column-major. `info` gets count words.
template <class T, class Space>
array<real_t<T>, 2, Space> hermitian_eigen(array<T, 3, Space>& cols, bool vectors, char uplo, const buffer& info) {
  using Re = real_t<T>;
  const index_t count = cols.shape(0), n = cols.shape(1);
  array<Re, 2, Space> w(dims<2>{count, n});
  if (count == 0 || n == 0) return w;
  int* const infos = static_cast<int*>(info.get());
  if constexpr (std::is_same_v<Space, device>) {
    cusolver::heevd(cols.device_id(), vectors, uplo, n, count, cols.data(), w.data(), infos);
  } else {
    const int ni = lapack_int(n, "xf::linalg::eigh");
    for (index_t b = 0; b < count; ++b) lapack::heevd(vectors ? 'V' : 'N', uplo, ni, cols.data() + b * n * n, w.data() + b * n, infos + b);
  }
  return w;
}

template <class T, int N, class Space>
array<T, 3, Space> hermitian_stack(const array<T, N, Space>& a, char uplo, const char* op) {
  static_assert(N >= 2, "xf::linalg: needs a matrix or a stack of matrices");
  static_assert(lapack_element<T>, "xf::linalg: float, double, complex64 or complex128 matrices");
  if (uplo != 'L' && uplo != 'U') throw error(std::string(op) + ": uplo is 'L' or 'U', not '" + uplo + "'");
  return column_major_stack(a, op);
}

// The eigenvalues w (count x n) of each Hermitian matrix of a and, with `vectors`, its
// eigenvectors in cols (column-major); info holds each matrix's LAPACK info word.
template <class T, class Space>
struct hermitian_solution {
  array<real_t<T>, 2, Space> w;
  array<T, 3, Space> cols;
  buffer info;
  index_t count, n;
};
template <class T, int N, class Space>
hermitian_solution<T, Space> solve_hermitian(const array<T, N, Space>& a, char uplo, bool vectors, const char* op) {
  array<T, 3, Space> cols = hermitian_stack(a, uplo, op);
  const index_t count = cols.shape(0), n = cols.shape(1);
  buffer info = new_info<Space>(count);
  auto w = hermitian_eigen(cols, vectors, uplo, info);
  return {std::move(w), std::move(cols), std::move(info), count, n};
}

}  // namespace detail

// np.linalg.eigh(a, UPLO): eigenvalues in ascending order and orthonormal eigenvectors (as
// columns; a column-major view) of each Hermitian matrix.
template <expression A>
auto eigh(const A& a_in, char uplo = 'L') {
  const detail::nvtx_range range("xf::linalg::eigh");
  using T = value_t<A>;
  constexpr int N = rank_v<A>;
  using Space = resolved_space_t<space_t<A>>;
  const auto a = ::xf::detail::as_array(a_in);
  const auto h = detail::solve_hermitian(a, uplo, true, "xf::linalg::eigh");
  const index_t n = h.n;
  eigh_result<T, N, Space> out{h.w.reshape(detail::batch_then<N - 1>(a.shape(), {n})),
                               h.cols.reshape(detail::batch_then<N>(a.shape(), {n, n})).swapaxes(N - 1, N - 2)};
  const detail::factored<T, Space> f{.info = h.info, .count = h.count};
  detail::attach_info_check(out.eigenvalues, f, "xf::linalg::eigh", "the eigenvalue algorithm did not converge");
  detail::attach_info_check(out.eigenvectors, f, "xf::linalg::eigh", "the eigenvalue algorithm did not converge");
  return out;
}

// np.linalg.eigvalsh(a, UPLO): the eigenvalues only, ascending.
template <expression A>
auto eigvalsh(const A& a_in, char uplo = 'L') {
  const detail::nvtx_range range("xf::linalg::eigvalsh");
  using T = value_t<A>;
  constexpr int N = rank_v<A>;
  using Space = resolved_space_t<space_t<A>>;
  const auto a = ::xf::detail::as_array(a_in);
  const auto h = detail::solve_hermitian(a, uplo, false, "xf::linalg::eigvalsh");
  const auto out = h.w.reshape(detail::batch_then<N - 1>(a.shape(), {h.n}));
  detail::attach_info_check(out, detail::factored<T, Space>{.info = h.info, .count = h.count}, "xf::linalg::eigvalsh",
                            "the eigenvalue algorithm did not converge");
  return out;
}

}  // namespace xf::linalg
