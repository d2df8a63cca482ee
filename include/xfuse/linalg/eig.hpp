// SPDX-License-Identifier: Apache-2.0
// xf::linalg::eig and eigvals: eigenvalues and right eigenvectors of general square matrices, a
// matrix or a stack. Device arrays run cuSOLVER's Xgeev, host arrays LAPACK's ?geev, one matrix
// at a time. Results are complex whatever the input (NumPy returns real arrays when every
// eigenvalue happens to be real: a type that depends on the values, which C++ cannot have).
// For real matrices Xgeev and ?geev store a conjugate pair's eigenvectors as the real and
// imaginary parts in two columns; one kernel unpacks them into complex columns. A matrix holding
// inf or NaN is not given to the solver (LAPACK's iterations need not end on one): it is zeroed,
// and its results throw xf::linalg_error at the next host read, as a failure to converge does.
#pragma once

#include <vector>

#include "../manip/views.hpp"
#include "../user/map.hpp"
#include "factor.hpp"
#include "../base/nvtx_emit.hpp"

namespace xf::linalg {

// The element type of eig's results: complex64 for float and complex64 input, complex128 otherwise.
template <class T>
using eig_complex_t = detail::complex_of_t<T>;

template <class T, int N, class Space>
struct eig_result {
  array<eig_complex_t<T>, N - 1, Space> eigenvalues;  // (..., n), in the solver's order
  array<eig_complex_t<T>, N, Space> eigenvectors;     // (..., n, n): column j belongs to eigenvalue j, unit norm
};

namespace detail {
using namespace ::xf::detail;

// Element (b, row, col) of the complex eigenvectors from LAPACK's packing for real matrices:
// a real eigenvalue's vector is its column; a pair (w[j] with positive imaginary part first)
// shares columns j and j + 1 as real and imaginary parts, the second vector being the conjugate.
template <class Re>
struct unpacked_eigenvector {
  const Re* vr;                       // (count, n, n), column-major matrices
  const eig_complex_t<Re>* w;         // (count, n)
  index_t n;
  template <class B, class I, class J>
  XF_HD XF_FORCEINLINE eig_complex_t<Re> operator()(B b_in, I row_in, J col_in) const {
    const index_t b = static_cast<index_t>(b_in), row = static_cast<index_t>(row_in), col = static_cast<index_t>(col_in);
    const Re* m = vr + b * n * n;
    const Re imaginary = w[b * n + col].imag();
    // The pair's other column must exist: a failed solve (its results raise at the next read)
    // can leave any values in w.
    if (imaginary > Re(0) && col + 1 < n) return {m[col * n + row], m[(col + 1) * n + row]};
    if (imaginary < Re(0) && col > 0) return {m[(col - 1) * n + row], -m[col * n + row]};
    return {m[col * n + row], Re(0)};
  }
};

// Eigenvalues (count, n) of the column-major matrices of `cols` (count, n, n), and with `vectors`
// the right eigenvectors (count, n, n) as complex matrices in C order (column j for w[j]).
template <class T, class Space>
std::pair<array<eig_complex_t<T>, 2, Space>, array<eig_complex_t<T>, 3, Space>> general_eigen(array<T, 3, Space>& cols, bool vectors,
                                                                                            const buffer& info, const char* op) {
  using C = eig_complex_t<T>;
  const index_t count = cols.shape(0), n = cols.shape(1);
  array<C, 2, Space> w(dims<2>{count, n});
  array<C, 3, Space> v(dims<3>{count, vectors ? n : 0, vectors ? n : 0});
  if (count == 0 || n == 0) return {w, v};
  // Matrices with inf or NaN: zeroed for the solver, then marked failed (info n + 1).
  w.assign(C(0));  // defined values wherever a failed solve leaves none
  const array<bool, 1, Space> finite = ::xf::all(::xf::isfinite(cols), {1, 2});
  cols.assign(::xf::where(::xf::isfinite(cols), cols, T(0)));
  array<T, 3, Space> vr(dims<3>{count, vectors ? n : 0, vectors ? n : 0});
  int* const infos = static_cast<int*>(info.get());
  if constexpr (std::is_same_v<Space, device>) {
    for (index_t b = 0; b < count; ++b)
      cusolver::geev(cols.device_id(), n, cols.data() + b * n * n, w.data() + b * n, vectors ? vr.data() + b * n * n : nullptr, infos + b);
  } else {
    const int ni = lapack_int(n, op);
    for (index_t b = 0; b < count; ++b)
      lapack::geev(ni, cols.data() + b * n * n, w.data() + b * n, vectors ? vr.data() + b * n * n : nullptr, infos + b);
  }
  auto info_words = array<int, 1, Space>::wrap(infos, dims<1>{count});
  info_words.assign(::xf::where(finite, info_words, static_cast<int>(std::min<index_t>(n + 1, index_t{1} << 30))));
  if (vectors) {
    if constexpr (is_complex<T>) {
      v.assign(vr.swapaxes(1, 2));  // column-major matrices to C order
    } else {
      require_access(vr.device_id(), op);
      const unpacked_eigenvector<T> f{vr.data(), w.data(), n};
      const dims<3> shape = v.shape();
      evaluate_into(v, ::xf::map(f, coordinate<3>(shape, 0), coordinate<3>(shape, 1), coordinate<3>(shape, 2)), op);
    }
  }
  return {w, v};
}

template <class A>
auto general_stack(const A& a_in, const char* op) {
  using V = value_t<A>;
  using T = std::conditional_t<std::is_integral_v<V>, double, V>;  // NumPy: integers as float64
  static_assert(lapack_element<T>, "xf::linalg::eig: float, double, complex64, complex128 or integer matrices");
  const auto a = ::xf::detail::as_array(a_in);
  if constexpr (std::is_same_v<V, T>) return column_major_stack(a, op);
  else return column_major_stack(eval(a.template astype<T>()), op);
}

// eig's and eigvals' results, with or without the eigenvectors, carrying the failure check.
template <bool Vectors, class A>
auto general_eigen_results(const A& a, const char* op) {
  constexpr int N = rank_v<A>;
  using Space = resolved_space_t<space_t<A>>;
  auto cols = general_stack(a, op);
  using T = typename decltype(cols)::value_type;
  const index_t count = cols.shape(0), n = cols.shape(1);
  const buffer info = new_info<Space>(count);
  const auto [w, v] = general_eigen(cols, Vectors, info, op);
  const factored<T, Space> f{.info = info, .count = count};
  const char* why = "the QR algorithm did not compute every eigenvalue, or the matrix holds inf or NaN";
  const auto values = w.reshape(batch_then<N - 1>(a.shape(), {n}));
  attach_info_check(values, f, op, why);
  if constexpr (Vectors) {
    const auto vectors = v.reshape(batch_then<N>(a.shape(), {n, n}));
    attach_info_check(vectors, f, op, why);
    return eig_result<T, N, Space>{values, vectors};
  } else {
    return values;
  }
}

}  // namespace detail

// np.linalg.eig(a): eigenvalues and unit-norm right eigenvectors (column j for eigenvalue j) of
// each square matrix, complex (complex64 for float and complex64 input, complex128 otherwise),
// in the solver's order (unsorted, as NumPy's).
template <expression A>
auto eig(const A& a) {
  const detail::nvtx_range range("xf::linalg::eig");
  return detail::general_eigen_results<true>(a, "xf::linalg::eig");
}

// np.linalg.eigvals(a): the eigenvalues only (complex, in the solver's order).
template <expression A>
auto eigvals(const A& a) {
  const detail::nvtx_range range("xf::linalg::eigvals");
  return detail::general_eigen_results<false>(a, "xf::linalg::eigvals");
}

}  // namespace xf::linalg
