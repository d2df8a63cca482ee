// SPDX-License-Identifier: Apache-2.0
// xf::linalg::qr: A = Q R for a matrix or a stack of matrices, on cuSOLVER (Xgeqrf, then orgqr /
// ungqr to form Q) for device arrays and on LAPACK for host arrays. Householder QR cannot fail on
// finite input, so nothing is checked. The factorization runs in a column-major copy of A; Q is
// formed in place in that copy where its shape allows (reduced mode, m >= n) and returned as a
// column-major view; R is C-ordered.
#pragma once

#include "factor.hpp"
#include "matmul.hpp"
#include "../base/nvtx_emit.hpp"

namespace xf::linalg {

// np.linalg.qr's modes: reduced Q (m, k) and R (k, n) with k = min(m, n); complete Q (m, m) and
// R (m, n); r: R (k, n) only (Q is left empty).
enum class qr_mode { reduced, complete, r };

template <class T, int N, class Space>
struct qr_result {
  array<T, N, Space> Q;
  array<T, N, Space> R;
};

namespace detail {
using namespace ::xf::detail;

// Householder QR of every m x n column-major matrix of `cols` (count, n, m), in place: R in the
// upper triangle, the reflectors below it and in `tau` (count, max(k, 1)).
template <class T, class Space>
void geqrf(array<T, 3, Space>& cols, index_t m, index_t n, array<T, 2, Space>& tau) {
  const index_t count = cols.shape(0), k = std::min(m, n);
  if (count == 0 || k == 0) return;
  const index_t tau_stride = tau.shape(1);
  if constexpr (std::is_same_v<Space, device>) {
    cusolver::geqrf(cols.device_id(), m, n, count, cols.data(), tau.data(), tau_stride);
  } else {
    const int mi = lapack_int(m, "xf::linalg::qr"), ni = lapack_int(n, "xf::linalg::qr");
    for (index_t b = 0; b < count; ++b) lapack::geqrf(mi, ni, cols.data() + b * m * n, tau.data() + b * tau_stride);
  }
}

// Forms the first `qn` columns of Q (m x qn, column-major, in `q` (count, qn, m)) from the k
// reflectors that geqrf left in the same place, in place.
template <class T, class Space>
void orgqr(array<T, 3, Space>& q, index_t m, index_t qn, index_t k, const array<T, 2, Space>& tau) {
  const index_t count = q.shape(0);
  if (count == 0 || qn == 0) return;
  const index_t tau_stride = tau.shape(1);
  const int mi = lapack_int(m, "xf::linalg::qr"), ni = lapack_int(qn, "xf::linalg::qr"), ki = lapack_int(k, "xf::linalg::qr");
  if constexpr (std::is_same_v<Space, device>) {
    cusolver::orgqr(q.device_id(), mi, ni, ki, count, q.data(), tau.data(), tau_stride);
  } else {
    for (index_t b = 0; b < count; ++b) lapack::orgqr(mi, ni, ki, q.data() + b * m * qn, tau.data() + b * tau_stride);
  }
}

// The upper triangle (i <= j) of the first `rows` rows of each (count, m, n) matrix.
template <class T, class Space, class V>
array<T, 3, Space> upper_rows(const V& matrices, index_t rows, index_t n) {
  const array<index_t, 1, Space> i = arange<index_t>(rows), j = arange<index_t>(n);
  const auto upper = i.reshape(std::array<index_t, 2>{rows, 1}) <= j.reshape(std::array<index_t, 2>{1, n});
  return where(upper, matrices(all, slice(0, rows), all), T(0));
}

}  // namespace detail

// np.linalg.qr(a, mode): Q with orthonormal columns and upper-triangular R with Q R = a, for a
// matrix (m, n) or a stack (..., m, n). Host arrays run LAPACK's geqrf and orgqr.
template <expression A>
auto qr(const A& a_in, qr_mode mode = qr_mode::reduced) {
  const detail::nvtx_range range("xf::linalg::qr");
  using T = value_t<A>;
  constexpr int N = rank_v<A>;
  using Space = resolved_space_t<space_t<A>>;
  static_assert(N >= 2, "xf::linalg::qr: needs a matrix or a stack of matrices");
  static_assert(detail::lapack_element<T>, "xf::linalg::qr: float, double, complex64 or complex128 matrices");
  const auto a = ::xf::detail::as_array(a_in);
  const index_t m = a.shape(N - 2), n = a.shape(N - 1), k = std::min(m, n);
  array<T, 3, Space> cols = detail::column_major_matrices(a);
  const index_t count = cols.shape(0);
  array<T, 2, Space> tau(dims<2>{count, std::max<index_t>(k, 1)});
  detail::geqrf(cols, m, n, tau);

  qr_result<T, N, Space> out;
  const index_t r_rows = mode == qr_mode::complete ? m : k;
  out.R = detail::upper_rows<T, Space>(cols.swapaxes(1, 2), r_rows, n).reshape(detail::batch_then<N>(a.shape(), {r_rows, n}));
  if (mode == qr_mode::r) return out;

  // Q's first columns come from the reflectors in place; R was read out of them first (in
  // stream order on the device).
  const index_t qn = mode == qr_mode::complete ? m : k;
  array<T, 3, Space> q;
  if (k == 0) {
    const array<T, 2, Space> identity = eye<T>(qn, m);  // Q^T: Q is m x qn with no reflectors
    q = identity.reshape(std::array<index_t, 3>{1, qn, m}).broadcast_to(std::array<index_t, 3>{count, qn, m}).copy();
  } else if (qn == n) {
    q = cols;
  } else if (qn < n) {
    q = cols(all, slice(0, qn), all).copy();
  } else {
    q = array<T, 3, Space>(dims<3>{count, qn, m});
    q(all, slice(0, n), all) = cols;
  }
  if (k > 0) detail::orgqr(q, m, qn, k, tau);
  out.Q = q.reshape(detail::batch_then<N>(a.shape(), {qn, m})).swapaxes(N - 1, N - 2);
  return out;
}

}  // namespace xf::linalg
