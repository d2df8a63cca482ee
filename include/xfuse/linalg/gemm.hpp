// SPDX-License-Identifier: Apache-2.0
// Driving BLAS for a matrix product with NumPy's rules: 1-D operands gain a dimension that the
// result drops, N-d operands are stacks of matrices whose batch dimensions broadcast. Transposed
// views reach BLAS as operation flags and leading dimensions (conj of a transposed view as the
// conjugate transpose); a layout BLAS cannot read (a broadcast or negatively strided matrix) is
// copied once, into pool memory. Batches run as strided-batched products: one call for every run
// of batch dimensions whose strides collapse to one.
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "blas.hpp"
#include "../base/nvtx_emit.hpp"

namespace xf {

struct matmul_options {
  bool allow_tf32 = false;  // float products on TF32 tensor cores (10-bit mantissa inputs)
};
// xf::matmul(a, b, xf::tf32): the explicit opt-in for TF32.
inline constexpr matmul_options tf32{true};

namespace detail {

constexpr int matmul_rank(int ra, int rb) {
  if (ra == 1 && rb == 1) return 0;
  if (ra == 1) return rb - 1;
  if (rb == 1) return ra - 1;
  return ra > rb ? ra : rb;
}

// Whether BLAS reads this rows x cols matrix in place; sets op.ld and op.transposed. A conjugated
// operand must be read transposed (BLAS conjugates only with a transpose).
inline bool blas_layout(index_t rows, index_t cols, index_t row_stride, index_t col_stride, blas_operand& op) {
  const index_t least_row = cols > 1 ? cols : 1, least_col = rows > 1 ? rows : 1;
  if (!op.conjugate && (cols == 1 || col_stride == 1) && (rows == 1 || row_stride >= least_row)) {
    op.transposed = false;
    op.ld = rows == 1 ? least_row : row_stride;
    return true;
  }
  if ((rows == 1 || row_stride == 1) && (cols == 1 || col_stride >= least_col)) {
    op.transposed = true;
    op.ld = cols == 1 ? least_col : col_stride;
    return true;
  }
  return false;
}

// The shapes of a product: 1-D operands promoted (a (k) -> (1, k), b (k) -> (k, 1)), batch
// dimensions broadcast from the right. Fixed-size arrays: a call allocates nothing on the host.
template <int RA, int RB>
struct matmul_shapes {
  static constexpr int NA = RA > 2 ? RA : 2, NB = RB > 2 ? RB : 2;
  static constexpr int batch_rank = (NA > NB ? NA : NB) - 2;
  static constexpr int out_rank = matmul_rank(RA, RB);
  std::array<index_t, batch_rank> batch{};
  index_t m = 0, k = 0, n = 0;
  dims<out_rank> out{};
};

template <class T, int RA, int RB, class Space>
matmul_shapes<RA, RB> plan_matmul(const array<T, RA, Space>& a, const array<T, RB, Space>& b) {
  static_assert(RA >= 1 && RB >= 1, "xf::matmul: operands must have at least one dimension (use * for scalars)");
  using P = matmul_shapes<RA, RB>;
  const auto mismatch = [&](const std::string& why) {
    return shape_error("xf::matmul: " + std::string(dtype_name<T>) + " operands of shapes " + to_string(a.shape()) + " and " +
                       to_string(b.shape()) + ": " + why);
  };
  if constexpr (std::is_same_v<Space, device>) {
    if (a.device_id() != b.device_id())
      throw device_error("xf::matmul: operands on devices " + std::to_string(a.device_id()) + " and " + std::to_string(b.device_id()));
  }
  P p;
  p.m = RA == 1 ? 1 : a.shape(RA - 2);
  p.k = a.shape(RA - 1);
  p.n = RB == 1 ? 1 : b.shape(RB - 1);
  const index_t kb = RB == 1 ? b.shape(0) : b.shape(RB - 2);
  if (kb != p.k) throw mismatch("the contracted dimensions differ (" + std::to_string(p.k) + " != " + std::to_string(kb) + ")");
  for (int i = 0; i < P::batch_rank; ++i) {
    const int ia = i - (P::batch_rank - (P::NA - 2)), ib = i - (P::batch_rank - (P::NB - 2));
    const index_t ea = ia >= 0 && RA > 2 ? a.shape(ia) : 1, eb = ib >= 0 && RB > 2 ? b.shape(ib) : 1;
    if (ea != eb && ea != 1 && eb != 1) throw mismatch("the batch dimensions do not broadcast");
    p.batch[static_cast<std::size_t>(i)] = ea == 1 ? eb : ea;
  }
  // The result: batch + (m, n), less the dimensions of 1-D operands.
  int o = 0;
  for (int i = 0; i < P::batch_rank; ++i) p.out[static_cast<std::size_t>(o++)] = p.batch[static_cast<std::size_t>(i)];
  if constexpr (RA != 1) p.out[static_cast<std::size_t>(o++)] = p.m;
  if constexpr (RB != 1) p.out[static_cast<std::size_t>(o++)] = p.n;
  return p;
}

// Where BLAS reads one operand: its matrix layout (op) and its batch strides. A layout BLAS cannot
// read (a broadcast or reversed matrix, a negative batch stride) is copied once, in C order; the
// copy takes the conjugate, so it is read as it is.
template <int NB, class T, int R, class Space>
void place_operand(array<T, R, Space>& x, bool is_a, index_t rows, index_t cols, std::array<index_t, NB>& batch_strides,
                   blas_operand& op) {
  constexpr int N = R > 2 ? R : 2;
  for (int attempt = 0; attempt < 2; ++attempt) {
    std::array<index_t, N> st{};
    if constexpr (R == 1) {
      st[is_a ? 1 : 0] = x.strides()[0];
    } else {
      for (int i = 0; i < R; ++i) st[static_cast<std::size_t>(i)] = x.strides()[static_cast<std::size_t>(i)];
    }
    bool ok = blas_layout(rows, cols, st[N - 2], st[N - 1], op);
    for (int i = 0; i < NB; ++i) {
      const int j = i - (NB - (N - 2));
      const bool real_dim = j >= 0 && R > 2 && x.shape(j) != 1;
      batch_strides[static_cast<std::size_t>(i)] = real_dim ? st[static_cast<std::size_t>(j)] : 0;
      ok = ok && batch_strides[static_cast<std::size_t>(i)] >= 0;
    }
    op.ptr = x.data();
    if (ok) return;
    if (op.conjugate) x = eval(conj(x));
    else x = x.copy();
    op.conjugate = false;
  }
  throw error("xf::matmul: internal error: a C-ordered copy has no BLAS layout");
}

// c = alpha * (a @ b) + beta * c, c a C-contiguous array of the product's shape (its values are
// read only when beta != 0). Batches run as strided-batched calls: one for every run of batch
// dimensions whose strides collapse to one.
template <class T, int RA, int RB, class Space, class S>
void matmul_into(array<T, RA, Space> a, array<T, RB, Space> b, const matmul_shapes<RA, RB>& p, const matmul_options& opt,
                 bool conj_a, bool conj_b, S alpha, S beta, const array<T, matmul_rank(RA, RB), Space>& c) {
  const nvtx_range range("xf::matmul");
  constexpr int NB = matmul_shapes<RA, RB>::batch_rank;
  const index_t m = p.m, k = p.k, n = p.n;
  if (c.size() == 0) return;
  if (k == 0) {  // a sum of nothing: beta * c
    if (beta != S(0)) {
      c.assign(c * beta);  // beta is a weak scalar: c keeps its type
    } else if constexpr (std::is_same_v<Space, device>) {
      XF_CUDA_CHECK(cudaMemsetAsync(c.data(), 0, c.nbytes(), current_stream().handle()));
    } else {
      std::fill(c.data(), c.data() + c.size(), T(0));
    }
    return;
  }
  blas_operand oa{}, ob{};
  oa.conjugate = conj_a;
  ob.conjugate = conj_b;
  std::array<index_t, NB> sa{}, sb{}, sc{};
  place_operand<NB>(a, true, m, k, sa, oa);
  place_operand<NB>(b, false, k, n, sb, ob);
  {
    index_t s = m * n;
    for (int i = NB; i-- > 0;) {
      sc[static_cast<std::size_t>(i)] = s;
      s *= p.batch[static_cast<std::size_t>(i)];
    }
  }
  // Collapse batch dimensions from the innermost while every operand's strides allow it.
  index_t inner = 1, inner_a = 0, inner_b = 0, inner_c = m * n;
  int split = NB;  // batch dimensions [split, NB) form the strided batch
  while (split > 0) {
    const auto d = static_cast<std::size_t>(split - 1);
    if (p.batch[d] == 1) {
      --split;
      continue;
    }
    if (inner == 1) {
      inner_a = sa[d];
      inner_b = sb[d];
      inner_c = sc[d];
    } else if (sa[d] != inner_a * inner || sb[d] != inner_b * inner || sc[d] != inner_c * inner) {
      break;
    }
    inner *= p.batch[d];
    --split;
  }
  std::array<index_t, NB> outer{};
  index_t outer_count = 1;
  for (int i = 0; i < split; ++i) outer_count *= p.batch[static_cast<std::size_t>(i)];
  for (index_t o = 0; o < outer_count; ++o) {
    index_t off_a = 0, off_b = 0, off_c = 0;
    for (int i = 0; i < split; ++i) {
      const auto d = static_cast<std::size_t>(i);
      off_a += outer[d] * sa[d];
      off_b += outer[d] * sb[d];
      off_c += outer[d] * sc[d];
    }
    blas_operand pa = oa, pb = ob;
    pa.ptr = static_cast<const T*>(oa.ptr) + off_a;
    pb.ptr = static_cast<const T*>(ob.ptr) + off_b;
    if constexpr (std::is_same_v<Space, device>) {
      gemm_device<T>(c.device_id(), m, n, k, pa, inner_a, pb, inner_b, c.data() + off_c, inner_c, inner, opt.allow_tf32, alpha, beta);
    } else {
      gemm_host<T>(m, n, k, pa, inner_a, pb, inner_b, c.data() + off_c, inner_c, inner, alpha, beta);
    }
    for (int i = split; i-- > 0;) {
      const auto d = static_cast<std::size_t>(i);
      if (++outer[d] < p.batch[d]) break;
      outer[d] = 0;
    }
  }
}

// The single product of a plan without batches, as cuBLASLt takes it (backend/cublaslt.hpp): the
// operands placed as for BLAS (a copy where one cannot be read in place; a and b then hold it).
template <class T, int RA, int RB, class Space>
lt_product place_single_product(array<T, RA, Space>& a, array<T, RB, Space>& b, const matmul_shapes<RA, RB>& p) {
  constexpr int NB = matmul_shapes<RA, RB>::batch_rank;
  std::array<index_t, NB> sa{}, sb{};
  lt_product call;
  call.m = p.m;
  call.n = p.n;
  call.k = p.k;
  place_operand<NB>(a, true, p.m, p.k, sa, call.a);
  place_operand<NB>(b, false, p.k, p.n, sb, call.b);
  return call;
}

// a @ b into a new C-contiguous array (device: on a's device and its current stream).
template <class T, int RA, int RB, class Space>
array<T, matmul_rank(RA, RB), Space> matmul_arrays(const array<T, RA, Space>& a, const array<T, RB, Space>& b, const matmul_options& opt,
                                                   bool conj_a = false, bool conj_b = false) {
  const auto p = plan_matmul(a, b);
  using S = compute_t<T>;
  std::optional<device_guard> on_device;  // device operands: their device, for the result and the GEMM
  if constexpr (std::is_same_v<Space, device>) on_device.emplace(a.device_id());
  array<T, matmul_rank(RA, RB), Space> c(p.out);
  matmul_into(a, b, p, opt, conj_a, conj_b, S(1), S(0), c);
  return c;
}

}  // namespace detail
}  // namespace xf
