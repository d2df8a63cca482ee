// SPDX-License-Identifier: Apache-2.0
// xf::linalg: solve, inv, det, slogdet, cholesky and check, for a matrix or a stack of matrices
// (leading batch dimensions), on the factorizations of factor.hpp. Device calls are asynchronous:
// a singular matrix (solve, inv) or one that is not positive definite (cholesky) surfaces as
// xf::linalg_error at the next host read of the result or a view of it (.item(), to_host, get),
// or at xf::linalg::check(result). Host arrays throw at the call. det of a singular matrix is 0.
// Results of solve, inv and cholesky are column-major views (transposes of the factorization's
// storage, no copy).
#pragma once

#include "../reduce/reductions.hpp"
#include "factor.hpp"
#include "matmul.hpp"
#include "lower_copy.cuh"
#include "small_lu.cuh"
#include "../base/nvtx_emit.hpp"

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

namespace detail {

// The failure record of one-launch solves, read by attach_info_check.
struct small_solve_info {
  buffer info;
  index_t count;
};

// x (count, n, k) in C order with a x = b for the (count, n, n) stack `a` (any strides) and
// b (count, n, k) (any strides, batch stride 0 to share one), or the identity when b is null.
template <class T>
array<T, 3, device> small_solve(const array<T, 3, device>& a, const T* b, stack_strides bs, index_t k, small_solve_info& failures) {
  const index_t count = a.shape(0), n = a.shape(1);
  array<T, 3, device> x(dims<3>{count, n, k});
  failures = {allocate_device(sizeof(int) * static_cast<std::size_t>(count > 0 ? count : 1)), count};
  if (n == 0 || k == 0 || count == 0) {
    XF_CUDA_CHECK(cudaMemsetAsync(failures.info.get(), 0, sizeof(int) * static_cast<std::size_t>(count > 0 ? count : 1),
                                  current_stream().handle()));
    return x;
  }
  small_lu_solve(a.data(), stack_strides{a.strides()[0], a.strides()[1], a.strides()[2]}, b, bs, x.data(), count, static_cast<int>(n),
                 static_cast<int>(k), static_cast<int*>(failures.info.get()), current_stream().handle());
  return x;
}

}  // namespace detail

// np.linalg.solve: x with a x = b. a (..., n, n); b (n) for one right-hand side shared by every
// matrix, or b (..., n, k) with a's batch dimensions (or none, for one matrix). Device stacks of
// matrices up to 64 x 64 are solved in one launch (small_lu.cuh); larger ones by cuSOLVER's LU.
template <expression A, expression B>
auto solve(const A& a_in, const B& b_in) {
  const detail::nvtx_range range("xf::linalg::solve");
  using T = promote_t<value_t<A>, value_t<B>>;
  using Space = ::xf::detail::operands_space_t<A, B>;
  const array<T, rank_v<A>, Space> av = ::xf::detail::as_array_of<T, Space>(a_in);
  const array<T, rank_v<B>, Space> bv = ::xf::detail::as_array_of<T, Space>(b_in);
  constexpr int RA = rank_v<A>, RB = rank_v<B>;
  static_assert(RA >= 2, "xf::linalg::solve: a is a matrix or a stack of matrices");
  detail::require_square(av, "xf::linalg::solve");
  const index_t n = av.shape(RA - 1);
  index_t count = 1;
  for (int i = 0; i < RA - 2; ++i) count *= av.shape(i);
  const auto mismatch = [&] {
    return shape_error("xf::linalg::solve: " + std::string(dtype_name<T>) + " a " + to_string(av.shape()) + " and b " + to_string(bv.shape()) +
                       " do not fit (b is (n) or (..., n, k) with a's batch dimensions)");
  };
  if constexpr (RB == 1) {
    if (bv.shape(0) != n) throw mismatch();
  } else {
    static_assert(RB == RA, "xf::linalg::solve: b is (n), or (..., n, k) with a's batch dimensions");
    for (int i = 0; i < RA - 2; ++i)
      if (bv.shape(i) != av.shape(i)) throw mismatch();
    if (bv.shape(RB - 2) != n) throw mismatch();
  }
  const index_t k = RB == 1 ? 1 : bv.shape(RB - 1);
  if constexpr (std::is_same_v<Space, device>) {
    if (detail::small_lu_fits<T>(n, k, count)) {
      const device_guard on_device(av.device_id());
      const auto a3 = av.reshape(std::array<index_t, 3>{count, n, n});
      detail::small_solve_info failures;
      if constexpr (RB == 1) {
        const auto x = detail::small_solve(a3, bv.data(), detail::stack_strides{0, bv.strides()[0], 0}, 1, failures)
                           .reshape(detail::batch_then<RA - 1>(av.shape(), {n}));
        detail::attach_info_check(x, failures, "xf::linalg::solve", "the matrix is singular");
        return x;
      } else {
        const auto b3 = bv.reshape(std::array<index_t, 3>{count, n, k});
        const auto x = detail::small_solve(a3, b3.data(), detail::stack_strides{b3.strides()[0], b3.strides()[1], b3.strides()[2]}, k, failures)
                           .reshape(bv.shape());
        detail::attach_info_check(x, failures, "xf::linalg::solve", "the matrix is singular");
        return x;
      }
    }
  }
  auto f = detail::lu_factor(detail::column_major_stack(av, "xf::linalg::solve"));
  if constexpr (RB == 1) {
    array<T, 3, Space> rhs = bv.reshape(std::array<index_t, 3>{1, 1, n}).broadcast_to(std::array<index_t, 3>{f.count, 1, n}).copy();
    detail::lu_solve(f, rhs);
    const auto x = rhs.reshape(detail::batch_then<RA - 1>(av.shape(), {n}));
    detail::attach_info_check(x, f, "xf::linalg::solve", "the matrix is singular");
    return x;
  } else {
    // Each right-hand side block column-major: the transposes, evaluated C-ordered.
    const array<T, RB, Space> bt = bv.swapaxes(RB - 1, RB - 2).copy();
    array<T, 3, Space> rhs = bt.reshape(std::array<index_t, 3>{f.count, k, n});
    detail::lu_solve(f, rhs);
    const array<T, RB, Space> x = rhs.reshape(detail::batch_then<RB>(av.shape(), {k, n})).swapaxes(RB - 1, RB - 2);
    detail::attach_info_check(x, f, "xf::linalg::solve", "the matrix is singular");
    return x;
  }
}

namespace detail {

// The inverses of a matrix or a stack, and the factorization's failure record (info > 0 for a
// singular matrix, whose inverse holds inf or NaN), with no check attached.
template <class T, int R, class Space>
struct inverses {
  array<T, R, Space> x;
  buffer info;  // `count` ints, on x's side
  index_t count = 0;
};
template <class T, int R, class Space>
inverses<T, R, Space> invert(const array<T, R, Space>& a) {
  static_assert(R >= 2, "xf::linalg::inv: needs a matrix or a stack of matrices");
  require_square(a, "xf::linalg::inv");
  if constexpr (std::is_same_v<Space, device>) {
    const index_t n = a.shape(R - 1);
    index_t count = 1;
    for (int i = 0; i < R - 2; ++i) count *= a.shape(i);
    if (small_lu_fits<T>(n, n, count)) {
      const device_guard on_device(a.device_id());
      small_solve_info failures;
      const array<T, R, Space> x =
          small_solve(a.reshape(std::array<index_t, 3>{count, n, n}), static_cast<const T*>(nullptr), stack_strides{0, 0, 0}, n, failures)
              .reshape(a.shape());
      return {x, failures.info, failures.count};
    }
  }
  auto f = lu_factor(column_major_stack(a, "xf::linalg::inv"));
  const index_t n = f.n;
  const array<T, 2, Space> identity = eye<T>(n);
  array<T, 3, Space> rhs = identity.reshape(std::array<index_t, 3>{1, n, n}).broadcast_to(std::array<index_t, 3>{f.count, n, n}).copy();
  lu_solve(f, rhs);
  const array<T, R, Space> x = rhs.reshape(batch_then<R>(a.shape(), {n, n})).swapaxes(R - 1, R - 2);
  return {x, f.info, f.count};
}

}  // namespace detail

// np.linalg.inv, for a matrix or a stack: LU, then solves against the identity (one launch for
// device matrices up to 64 x 64).
template <expression A>
auto inv(const A& a_in) {
  const detail::nvtx_range range("xf::linalg::inv");
  const auto r = detail::invert(::xf::detail::as_array(a_in));
  detail::attach_info_check(r.x, r, "xf::linalg::inv", "the matrix is singular");
  return r.x;
}

// np.linalg.det: the product of U's diagonal, its sign flipped once per row swap. 0 for a
// singular matrix (no error); 1 for 0 x 0. A 0-d array for one matrix.
template <expression A>
auto det(const A& a_in) {
  const detail::nvtx_range range("xf::linalg::det");
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
  const detail::nvtx_range range("xf::linalg::slogdet");
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
// it is returned as a column-major view. On the device the copy reads only a's lower triangle
// (lower_copy.cuh); on the host it is one fused expression.
template <expression A>
auto cholesky(const A& a_in) {
  const detail::nvtx_range range("xf::linalg::cholesky");
  using T = value_t<A>;
  constexpr int R = rank_v<A>;
  using Space = resolved_space_t<space_t<A>>;
  static_assert(R >= 2, "xf::linalg::cholesky: needs a matrix or a stack of matrices");
  const auto a = ::xf::detail::as_array(a_in);
  detail::require_square(a, "xf::linalg::cholesky");
  const index_t n = a.shape(R - 1);
  index_t count = 1;
  for (int i = 0; i < R - 2; ++i) count *= a.shape(i);
  const auto lower_t = [&] {
    if constexpr (std::is_same_v<Space, device>) {
      const auto a3 = a.reshape(std::array<index_t, 3>{count, n, n});
      array<T, 3, Space> m(dims<3>{count, n, n});
      detail::lower_copy(a3.data(), detail::stack_strides{a3.strides()[0], a3.strides()[1], a3.strides()[2]}, m.data(), n, count,
                         current_stream().handle());
      return m;
    } else {
      // Element (r, c) of the copy is a(c, r): keep c >= r, the lower triangle of a. The mask is
      // np.tri's transpose, a generator: one fused kernel, nothing else materialised.
      const array<T, R, Space> m = where(tri<bool>(n).T(), a.swapaxes(R - 1, R - 2), T(0));
      return m.reshape(std::array<index_t, 3>{count, n, n});
    }
  }();
  const auto f = detail::cholesky_factor(lower_t);
  const auto out = f.cols.reshape(detail::batch_then<R>(a.shape(), {n, n})).swapaxes(R - 1, R - 2);
  detail::attach_info_check(out, f, "xf::linalg::cholesky", "the matrix is not positive definite");
  return out;
}

// np.linalg.cholesky(a, upper=True): U = L^H with a = U^H U: the factor's own C-ordered memory
// (L is its transposed view), conjugated in place for complex types (one kernel). The factor's
// error check stays with it.
template <expression A>
auto cholesky(const A& a, bool upper) {
  const auto lower = cholesky(a);
  if (!upper) return lower;
  constexpr int R = std::remove_cvref_t<decltype(lower)>::rank;
  if constexpr (is_complex<value_t<A>>) lower.assign(conj(lower));
  return lower.swapaxes(R - 1, R - 2);
}

}  // namespace xf::linalg
