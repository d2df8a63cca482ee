// xf::linalg: solve, inv, det, slogdet, cholesky and check, for a matrix or a stack of matrices
// (leading batch dimensions), on the factorizations of factor.hpp. Device calls are asynchronous:
// a singular matrix (solve, inv) or one that is not positive definite (cholesky) surfaces as
// xf::linalg_error at the next host read of the result or a view of it (.item(), to_host, get),
// or at xf::linalg::check(result). Host arrays throw at the call. det of a singular matrix is 0.
// Results of solve, inv and cholesky are column-major views (transposes of the factorization's
// storage, no copy).
#pragma once

#include "../reduce.hpp"
#include "factor.hpp"
#include "matmul.hpp"

namespace xf::linalg {

namespace detail {
using namespace ::xf::detail;
}  // namespace detail

// Waits for `a` and throws the linalg_error its factorization left, if any.
template <class T, int R, class Space>
void check(const array<T, R, Space>& a) {
  if constexpr (std::is_same_v<Space, device>) {
    device_guard g(a.device_id());
    synchronize();
  }
  a.buffer().run_read_check();
}

// np.linalg.solve: x with a x = b. a (..., n, n); b (n) for one right-hand side shared by every
// matrix, or b (..., n, k) with a's batch dimensions (or none, for one matrix).
template <expression A, expression B>
auto solve(const A& a_in, const B& b_in) {
  using T = promote_t<value_t<A>, value_t<B>>;
  const array<T, rank_v<A>, resolved_space_t<space_t<A>>> av = ::xf::detail::as_array(a_in).template astype<T>();
  const array<T, rank_v<B>, resolved_space_t<space_t<B>>> bv = ::xf::detail::as_array(b_in).template astype<T>();
  constexpr int RA = rank_v<A>, RB = rank_v<B>;
  using Space = resolved_space_t<space_t<A>>;
  const index_t n = av.shape(RA - 1);
  const auto mismatch = [&] {
    return shape_error("xf::linalg::solve: " + std::string(dtype_name<T>) + " a " + to_string(av.shape()) + " and b " + to_string(bv.shape()) +
                       " do not fit (b is (n) or (..., n, k) with a's batch dimensions)");
  };
  auto f = detail::lu_factor(detail::column_major_stack(av, "xf::linalg::solve"));
  if constexpr (RB == 1) {
    if (bv.shape(0) != n) throw mismatch();
    array<T, 3, Space> rhs = bv.reshape(std::array<index_t, 3>{1, 1, n}).broadcast_to(std::array<index_t, 3>{f.count, 1, n}).copy();
    detail::lu_solve(f, rhs);
    const auto x = rhs.reshape(detail::batch_then<RA - 1>(av.shape(), {n}));
    detail::attach_info_check(x, f, "xf::linalg::solve", "the matrix is singular");
    return x;
  } else {
    static_assert(RB == RA, "xf::linalg::solve: b is (n), or (..., n, k) with a's batch dimensions");
    for (int i = 0; i < RA - 2; ++i)
      if (bv.shape(i) != av.shape(i)) throw mismatch();
    if (bv.shape(RB - 2) != n) throw mismatch();
    const index_t k = bv.shape(RB - 1);
    // Each right-hand side block column-major: the transposes, evaluated C-ordered.
    const array<T, RB, Space> bt = bv.swapaxes(RB - 1, RB - 2).copy();
    array<T, 3, Space> rhs = bt.reshape(std::array<index_t, 3>{f.count, k, n});
    detail::lu_solve(f, rhs);
    const auto x = rhs.reshape(detail::batch_then<RB>(av.shape(), {k, n})).swapaxes(RB - 1, RB - 2);
    detail::attach_info_check(x, f, "xf::linalg::solve", "the matrix is singular");
    return x;
  }
}

// np.linalg.inv, for a matrix or a stack: LU, then solves against the identity.
template <expression A>
auto inv(const A& a_in) {
  using T = value_t<A>;
  constexpr int R = rank_v<A>;
  using Space = resolved_space_t<space_t<A>>;
  const auto a = ::xf::detail::as_array(a_in);
  auto f = detail::lu_factor(detail::column_major_stack(a, "xf::linalg::inv"));
  const index_t n = f.n;
  const array<T, 2, Space> identity = eye<T>(n);
  array<T, 3, Space> rhs = identity.reshape(std::array<index_t, 3>{1, n, n}).broadcast_to(std::array<index_t, 3>{f.count, n, n}).copy();
  detail::lu_solve(f, rhs);
  const auto x = rhs.reshape(detail::batch_then<R>(a.shape(), {n, n})).swapaxes(R - 1, R - 2);
  detail::attach_info_check(x, f, "xf::linalg::inv", "the matrix is singular");
  return x;
}

// np.linalg.det: the product of U's diagonal, its sign flipped once per row swap. 0 for a
// singular matrix (no error); 1 for 0 x 0. A 0-d array for one matrix.
template <expression A>
auto det(const A& a_in) {
  using T = value_t<A>;
  constexpr int R = rank_v<A>;
  const auto a = ::xf::detail::as_array(a_in);
  const auto f = detail::lu_factor(detail::column_major_stack(a, "xf::linalg::det"));
  const auto u = f.cols.diagonal(0, 1, 2);  // (count, n)
  const auto swaps = detail::row_swaps(f);
  const auto d = eval(prod(u, 1) * (1 - 2 * (swaps % 2)).template astype<T>());
  return d.reshape(detail::batch_then<R - 2>(a.shape(), {}));
}

template <class T, int R, class Space>
struct slogdet_result {
  array<T, R, Space> sign;               // +-1 (real), a unit complex number, or 0 if singular
  array<real_t<T>, R, Space> logabsdet;  // log |det|, -inf if singular
};

// np.linalg.slogdet: the sign and the log of |det| (no overflow for large matrices).
template <expression A>
auto slogdet(const A& a_in) {
  using T = value_t<A>;
  using Re = real_t<T>;
  constexpr int R = rank_v<A>;
  using Space = resolved_space_t<space_t<A>>;
  const auto a = ::xf::detail::as_array(a_in);
  const auto f = detail::lu_factor(detail::column_major_stack(a, "xf::linalg::slogdet"));
  const auto u = f.cols.diagonal(0, 1, 2);
  const auto swaps = detail::row_swaps(f);
  const auto flip = (1 - 2 * (swaps % 2)).template astype<T>();
  const auto unit = [&] {
    if constexpr (is_complex<T>) return eval(prod(where(u == T(0), T(0), u / abs(u).template astype<T>()), 1));
    else return eval(prod(sign(u), 1));
  }();
  const auto shape = detail::batch_then<R - 2>(a.shape(), {});
  const array<T, 1, Space> s = unit * flip;
  const array<Re, 1, Space> l = sum(log(abs(u)), 1);
  return slogdet_result<T, R - 2, Space>{s.reshape(shape), l.reshape(shape)};
}

// np.linalg.cholesky: lower-triangular L with a = L L^H, for Hermitian positive-definite matrices
// (only the lower triangle of a is read, as in NumPy). The column-major copy that potrf factors is
// made with its upper triangle already zero (potrf leaves it untouched), so L needs no extra pass;
// it is returned as a column-major view.
template <expression A>
auto cholesky(const A& a_in) {
  using T = value_t<A>;
  constexpr int R = rank_v<A>;
  using Space = resolved_space_t<space_t<A>>;
  static_assert(R >= 2, "xf::linalg::cholesky: needs a matrix or a stack of matrices");
  const auto a = ::xf::detail::as_array(a_in);
  detail::require_square(a, "xf::linalg::cholesky");
  const index_t n = a.shape(R - 1);
  index_t count = 1;
  for (int i = 0; i < R - 2; ++i) count *= a.shape(i);
  // Element (r, c) of the copy is a(c, r): keep c >= r, the lower triangle of a.
  const array<index_t, 1, Space> i = arange<index_t>(n);
  const auto keep = i.reshape(std::array<index_t, 2>{n, 1}) <= i.reshape(std::array<index_t, 2>{1, n});
  const array<T, R, Space> lower_t = where(keep, a.swapaxes(R - 1, R - 2), T(0));
  const auto f = detail::cholesky_factor(lower_t.reshape(std::array<index_t, 3>{count, n, n}));
  const auto out = f.cols.reshape(detail::batch_then<R>(a.shape(), {n, n})).swapaxes(R - 1, R - 2);
  detail::attach_info_check(out, f, "xf::linalg::cholesky", "the matrix is not positive definite");
  return out;
}

}  // namespace xf::linalg
