// SPDX-License-Identifier: Apache-2.0
// xf::linalg::lstsq and pinv, on the SVD (svd.hpp): singular values below rcond times the largest
// count as zero. Everything stays on the device and asynchronous, rank included (a 0-d array), so
// lstsq differs from NumPy in one place: NumPy returns empty residuals when rank < n, which needs
// the rank on the host; here residuals depend on the shapes only (see lstsq_result).
#pragma once

#include <limits>

#include "../reduce/reductions.hpp"
#include "svd.hpp"
#include "../base/nvtx_emit.hpp"

namespace xf::linalg {

template <class T, int RX, class Space>
struct lstsq_result {
  array<T, RX, Space> x;                        // (n) or (n, k): the minimum-norm least-squares solution
  array<real_t<T>, 1, Space> residuals;         // m > n: |b - a x|^2 per column, (k) or (1); else (0)
  array<std::int64_t, 0, Space> rank;           // singular values above the cutoff
  array<real_t<T>, 1, Space> singular_values;   // (min(m, n)), descending
};

// np.linalg.lstsq(a, b, rcond): x minimizing |b - a x| (2-norm), the minimum-norm one when a is
// rank-deficient. a (m, n); b (m) or (m, k). rcond < 0 (the default) is NumPy's: machine epsilon
// times max(m, n).
template <expression A, expression B>
auto lstsq(const A& a_in, const B& b_in, double rcond = -1) {
  const detail::nvtx_range range("xf::linalg::lstsq");
  using T = promote_t<value_t<A>, value_t<B>>;
  using Re = real_t<T>;
  using Space = ::xf::detail::operands_space_t<A, B>;
  constexpr int RB = rank_v<B>;
  static_assert(rank_v<A> == 2, "xf::linalg::lstsq: a is a matrix (m, n)");
  static_assert(RB == 1 || RB == 2, "xf::linalg::lstsq: b is (m) or (m, k)");
  const array<T, 2, Space> a = ::xf::detail::as_array_of<T, Space>(a_in);
  const array<T, RB, Space> bv = ::xf::detail::as_array_of<T, Space>(b_in);
  const index_t m = a.shape(0), n = a.shape(1), k = std::min(m, n);
  if (bv.shape(0) != m)
    throw shape_error("xf::linalg::lstsq: " + std::string(dtype_name<T>) + " a " + to_string(a.shape()) + " and b " + to_string(bv.shape()) +
                      " do not fit (b has a's m rows)");
  const index_t nrhs = RB == 1 ? 1 : bv.shape(RB - 1);
  const array<T, 2, Space> b = bv.reshape(std::array<index_t, 2>{m, nrhs});
  const Re factor = rcond < 0 ? std::numeric_limits<Re>::epsilon() * static_cast<Re>(std::max(m, n)) : static_cast<Re>(rcond);

  lstsq_result<T, RB, Space> out;
  array<T, 2, Space> x;
  if (k == 0) {
    x = zeros<T>(std::array<index_t, 2>{n, nrhs});
    out.rank = zeros<std::int64_t>(std::array<index_t, 0>{});
    out.singular_values = array<Re, 1, Space>(dims<1>{0});
  } else {
    const auto f = svd(a, false);  // U (m, k), S (k), Vh (k, n)
    const auto keep = f.S > factor * max(f.S, keepdims);
    const array<Re, 1, Space> s_inv = where(keep, Re(1) / f.S, Re(0));
    out.rank = count_nonzero(keep);
    out.singular_values = f.S;
    // x = V diag(s_inv) U^H b: two products, the scaling fused into the second's operand.
    const array<T, 2, Space> uhb = matmul(conj(f.U.T()), b);
    const array<T, 2, Space> scaled = s_inv.reshape(std::array<index_t, 2>{k, 1}).template astype<T>() * uhb;
    x = matmul(conj(f.Vh.T()), scaled);
  }
  if (m > n) out.residuals = sum(square(abs(b - matmul(a, x))), 0);
  else out.residuals = array<Re, 1, Space>(dims<1>{0});
  if constexpr (RB == 1) out.x = x.reshape(std::array<index_t, 1>{n});
  else out.x = x;
  return out;
}

// np.linalg.pinv(a, rcond): the Moore-Penrose pseudo-inverse (..., n, m) of a (..., m, n), from the
// reduced SVD: V diag(1/s) U^H over the singular values above rcond times the largest.
template <expression A>
auto pinv(const A& a_in, double rcond = 1e-15) {
  const detail::nvtx_range range("xf::linalg::pinv");
  using T = value_t<A>;
  using Re = real_t<T>;
  constexpr int N = rank_v<A>;
  using Space = resolved_space_t<space_t<A>>;
  const auto a = ::xf::detail::as_array(a_in);
  const index_t m = a.shape(N - 2), n = a.shape(N - 1), k = std::min(m, n);
  if (k == 0) return array<T, N, Space>(zeros<T>(detail::batch_then<N>(a.shape(), {n, m})));
  const auto f = svd(a, false);  // U (..., m, k), S (..., k), Vh (..., k, n)
  const auto cutoff = static_cast<Re>(rcond) * max(f.S, -1, keepdims);
  const array<Re, N - 1, Space> s_inv = where(f.S > cutoff, Re(1) / f.S, Re(0));
  // V diag(s_inv): V's columns scaled, one fused kernel; then one (batched) product with U^H.
  const array<T, N, Space> v_scaled = conj(f.Vh.swapaxes(N - 1, N - 2)) * s_inv.reshape(detail::batch_then<N>(a.shape(), {1, k})).template astype<T>();
  return array<T, N, Space>(matmul(v_scaled, conj(f.U.swapaxes(N - 1, N - 2))));
}

}  // namespace xf::linalg
