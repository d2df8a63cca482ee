// SPDX-License-Identifier: Apache-2.0
// xf::linalg::svd and svdvals: A = U diag(S) Vh for a matrix or a stack, on cuSOLVER's Xgesvd
// (device arrays) and LAPACK's ?gesvd (host arrays). gesvd takes tall matrices (m >= n) on the
// GPU, so a wide A is factored as its conjugate transpose, A^H = U' S V'^H, and A = V' S U'^H:
// the factors come back transposed for free (see svd()). A failure to converge surfaces like the
// solvers' errors (xf::linalg_error at the next host read, or in check()).
#pragma once

#include "factor.hpp"
#include "matmul.hpp"
#include "../base/nvtx_emit.hpp"

namespace xf::linalg {

template <class T, int N, class Space>
struct svd_result {
  array<T, N, Space> U;                 // (..., m, m) full, (..., m, k) reduced
  array<real_t<T>, N - 1, Space> S;     // (..., k), descending, k = min(m, n)
  array<T, N, Space> Vh;                // (..., n, n) full, (..., k, n) reduced
};

namespace detail {
using namespace ::xf::detail;

// SVD of each tall (m >= n) column-major matrix of `cols` (count, n, m), which it overwrites.
// job 'A': u (count, m, m) holds U column-major; 'S': u (count, n, m); 'N': values only. vt
// (count, n, n) holds V^H column-major unless job is 'N'. Returns S (count, n).
template <class T, class Space>
array<real_t<T>, 2, Space> tall_svd(array<T, 3, Space>& cols, index_t m, index_t n, char job, array<T, 3, Space>& u, array<T, 3, Space>& vt,
                                    const buffer& info) {
  using Re = real_t<T>;
  const index_t count = cols.shape(0);
  const index_t ucols = job == 'A' ? m : n;
  array<Re, 2, Space> s(dims<2>{count, n});
  if (job != 'N') {
    u = array<T, 3, Space>(dims<3>{count, ucols, m});
    vt = array<T, 3, Space>(dims<3>{count, n, n});
  }
  if (count == 0 || n == 0) return s;
  T* up = job == 'N' ? nullptr : u.data();
  T* vp = job == 'N' ? nullptr : vt.data();
  const index_t u_stride = job == 'N' ? 0 : ucols * m, v_stride = job == 'N' ? 0 : n * n;
  int* const infos = static_cast<int*>(info.get());
  if constexpr (std::is_same_v<Space, device>) {
    cusolver::gesvd(cols.device_id(), job, m, n, count, cols.data(), s.data(), up, u_stride, vp, v_stride, infos);
  } else {
    const int mi = lapack_int(m, "xf::linalg::svd"), ni = lapack_int(n, "xf::linalg::svd");
    const char jobvt = job == 'N' ? 'N' : 'A';
    T unused{};
    for (index_t b = 0; b < count; ++b)
      lapack::gesvd(job, jobvt, mi, ni, cols.data() + b * m * n, s.data() + b * n, up ? up + b * u_stride : &unused, mi,
                    vp ? vp + b * v_stride : &unused, ni, infos + b);
  }
  return s;
}

// The tall matrix that gesvd factors: A column-major when m >= n, else A^H column-major, which
// is conj(A) in C order (for values only, A in C order: A^T has A's singular values).
template <class T, int N, class Space>
array<T, 3, Space> tall_stack(const array<T, N, Space>& a, bool conjugate_wide) {
  const index_t m = a.shape(N - 2), n = a.shape(N - 1);
  if (m >= n) return column_major_matrices(a);
  index_t count = 1;
  for (int i = 0; i < N - 2; ++i) count *= a.shape(i);
  array<T, N, Space> c;
  if constexpr (is_complex<T>) c = conjugate_wide ? array<T, N, Space>(conj(a)) : a.copy();
  else c = a.copy();
  return c.reshape(std::array<index_t, 3>{count, m, n});
}

template <class T, int N, class Space>
void svd_requires(const array<T, N, Space>&) {
  static_assert(N >= 2, "xf::linalg::svd: needs a matrix or a stack of matrices");
  static_assert(lapack_element<T>, "xf::linalg::svd: float, double, complex64 or complex128 matrices");
}

// The SVD of each matrix of a, as tall_svd leaves it (u and vt only when job is not 'N'), with
// the matrices' count and info words.
template <class T, class Space>
struct svd_parts {
  array<real_t<T>, 2, Space> s;
  array<T, 3, Space> u, vt;
  buffer info;
  index_t count;
};
template <class T, int N, class Space>
svd_parts<T, Space> run_svd(const array<T, N, Space>& a, char job) {
  svd_requires(a);
  const index_t m = a.shape(N - 2), n = a.shape(N - 1);
  array<T, 3, Space> cols = tall_stack(a, job != 'N');
  svd_parts<T, Space> r;
  r.count = cols.shape(0);
  r.info = new_info<Space>(r.count);
  r.s = tall_svd(cols, std::max(m, n), std::min(m, n), job, r.u, r.vt, r.info);
  return r;
}

}  // namespace detail

// np.linalg.svd(a, full_matrices): U, S (descending) and Vh with a = U diag(S) Vh. U and Vh are
// column-major views when m >= n (copies, conjugated, for complex wide matrices).
template <expression A>
auto svd(const A& a_in, bool full_matrices = true) {
  const detail::nvtx_range range("xf::linalg::svd");
  using T = value_t<A>;
  constexpr int N = rank_v<A>;
  using Space = resolved_space_t<space_t<A>>;
  const auto a = ::xf::detail::as_array(a_in);
  const index_t m = a.shape(N - 2), n = a.shape(N - 1), k = std::min(m, n);
  const bool tall = m >= n;
  const index_t big = tall ? m : n;
  auto [s, u, vt, info, count] = detail::run_svd(a, full_matrices ? 'A' : 'S');
  const index_t ucols = full_matrices ? big : k;
  if (k == 0) {  // no singular values: U and V are identities (full) or empty (reduced)
    const array<T, 2, Space> identity = eye<T>(ucols, big);
    u = identity.reshape(std::array<index_t, 3>{1, ucols, big}).broadcast_to(std::array<index_t, 3>{count, ucols, big}).copy();
  }
  svd_result<T, N, Space> out;
  out.S = s.reshape(detail::batch_then<N - 1>(a.shape(), {k}));
  if (tall) {
    out.U = u.reshape(detail::batch_then<N>(a.shape(), {ucols, m})).swapaxes(N - 1, N - 2);
    out.Vh = vt.reshape(detail::batch_then<N>(a.shape(), {n, n})).swapaxes(N - 1, N - 2);
  } else {
    // a^H = U' S V'^H with U' in u (column-major: its C-order reading is U'^T) and V'^H in vt
    // (C-order reading V'^H^T): U = V' = conj(vt's C-order reading), Vh = U'^H = conj(u's).
    const auto uc = u.reshape(detail::batch_then<N>(a.shape(), {ucols, n}));
    const auto vc = vt.reshape(detail::batch_then<N>(a.shape(), {m, m}));
    if constexpr (is_complex<T>) {
      out.U = conj(vc);
      out.Vh = conj(uc);
    } else {
      out.U = vc;
      out.Vh = uc;
    }
  }
  const detail::factored<T, Space> f{.info = info, .count = count};
  detail::attach_info_check(out.S, f, "xf::linalg::svd", "the SVD did not converge");
  detail::attach_info_check(out.U, f, "xf::linalg::svd", "the SVD did not converge");
  detail::attach_info_check(out.Vh, f, "xf::linalg::svd", "the SVD did not converge");
  return out;
}

// np.linalg.svdvals (np.linalg.svd with compute_uv=False): the singular values, descending.
template <expression A>
auto svdvals(const A& a_in) {
  const detail::nvtx_range range("xf::linalg::svdvals");
  using T = value_t<A>;
  constexpr int N = rank_v<A>;
  using Space = resolved_space_t<space_t<A>>;
  const auto a = ::xf::detail::as_array(a_in);
  const index_t k = std::min(a.shape(N - 2), a.shape(N - 1));
  const auto r = detail::run_svd(a, 'N');
  const auto out = r.s.reshape(detail::batch_then<N - 1>(a.shape(), {k}));
  detail::attach_info_check(out, detail::factored<T, Space>{.info = r.info, .count = r.count}, "xf::linalg::svdvals", "the SVD did not converge");
  return out;
}

}  // namespace xf::linalg
