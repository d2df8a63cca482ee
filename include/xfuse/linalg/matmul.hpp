// xf::matmul with NumPy's rules: 1-D operands gain a dimension that the result drops, N-d operands
// are stacks of matrices whose batch dimensions broadcast. Transposed views reach BLAS as operation
// flags and leading dimensions (conj of a transposed view as the conjugate transpose); a layout
// BLAS cannot read (a broadcast or negatively strided matrix) is copied once, into pool memory.
// Batches run as strided-batched products: one call for every run of batch dimensions whose
// strides collapse to one.
#pragma once

#include <algorithm>
#include <vector>

#include "blas.hpp"

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

template <class T, int RA, int RB, class Space>
array<T, matmul_rank(RA, RB), Space> matmul_arrays(array<T, RA, Space> a, array<T, RB, Space> b, const matmul_options& opt,
                                                   bool conj_a = false, bool conj_b = false) {
  static_assert(RA >= 1 && RB >= 1, "xf::matmul: operands must have at least one dimension (use * for scalars)");
  constexpr int RO = matmul_rank(RA, RB);
  const auto mismatch = [&](const std::string& why) {
    return shape_error("xf::matmul: " + std::string(dtype_name<T>) + " operands of shapes " + to_string(a.shape()) + " and " +
                       to_string(b.shape()) + ": " + why);
  };
  if constexpr (std::is_same_v<Space, device>) {
    if (a.device_id() != b.device_id())
      throw device_error("xf::matmul: operands on devices " + std::to_string(a.device_id()) + " and " + std::to_string(b.device_id()));
  }
  // Device work (the result, copies, cuBLAS) on the operands' device and its current stream.
  struct no_guard {
    explicit no_guard(int) {}
  };
  const std::conditional_t<std::is_same_v<Space, device>, device_guard, no_guard> on_device(a.device_id());
  // Shapes and strides with the 1-D operands promoted: a (k) -> (1, k), b (k) -> (k, 1).
  std::vector<index_t> as(a.shape().begin(), a.shape().end()), bs(b.shape().begin(), b.shape().end());
  if (RA == 1) as.insert(as.begin(), 1);
  if (RB == 1) bs.push_back(1);
  const index_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  if (bs[bs.size() - 2] != k)
    throw mismatch("the contracted dimensions differ (" + std::to_string(k) + " != " + std::to_string(bs[bs.size() - 2]) + ")");
  // Batch dimensions, broadcast from the right.
  const std::size_t nb = std::max(as.size(), bs.size()) - 2;
  std::vector<index_t> batch(nb), sa(nb, 0), sb(nb, 0);
  for (std::size_t i = 0; i < nb; ++i) {
    const std::ptrdiff_t ia = static_cast<std::ptrdiff_t>(i) - static_cast<std::ptrdiff_t>(nb - (as.size() - 2));
    const std::ptrdiff_t ib = static_cast<std::ptrdiff_t>(i) - static_cast<std::ptrdiff_t>(nb - (bs.size() - 2));
    const index_t ea = ia >= 0 ? as[static_cast<std::size_t>(ia)] : 1, eb = ib >= 0 ? bs[static_cast<std::size_t>(ib)] : 1;
    if (ea != eb && ea != 1 && eb != 1) throw mismatch("the batch dimensions do not broadcast");
    batch[i] = ea == 1 ? eb : ea;
  }
  // The result: batch + (m, n), less the dimensions of 1-D operands; C-contiguous either way.
  dims<RO> out_shape{};
  {
    std::vector<index_t> full(batch);
    if (RA != 1) full.push_back(m);
    if (RB != 1) full.push_back(n);
    for (int i = 0; i < RO; ++i) out_shape[static_cast<std::size_t>(i)] = full[static_cast<std::size_t>(i)];
  }
  array<T, RO, Space> c(out_shape);
  if (c.size() == 0) return c;
  if (k == 0) {
    if constexpr (std::is_same_v<Space, device>) {
      XF_CUDA_CHECK(cudaMemsetAsync(c.data(), 0, c.nbytes(), current_stream().handle()));
    } else {
      std::fill(c.data(), c.data() + c.size(), T(0));
    }
    return c;
  }
  // Operands BLAS cannot read in place (a broadcast or reversed matrix, a negative batch stride)
  // are copied once, in C order.
  blas_operand oa{}, ob{};
  oa.conjugate = conj_a;
  ob.conjugate = conj_b;
  const auto place = [&](auto& x, bool is_a, const std::vector<index_t>& shape, std::vector<index_t>& batch_strides,
                         blas_operand& op) {
    const std::size_t r = shape.size();
    for (int attempt = 0; attempt < 2; ++attempt) {
      std::vector<index_t> st(x.strides().begin(), x.strides().end());
      if (x.ndim() == 1) st.insert(is_a ? st.begin() : st.end(), 0);
      bool ok = blas_layout(shape[r - 2], shape[r - 1], st[r - 2], st[r - 1], op);
      for (std::size_t i = 0; i < nb; ++i) {
        const std::ptrdiff_t j = static_cast<std::ptrdiff_t>(i) - static_cast<std::ptrdiff_t>(nb - (r - 2));
        batch_strides[i] = j >= 0 && shape[static_cast<std::size_t>(j)] != 1 ? st[static_cast<std::size_t>(j)] : 0;
        ok = ok && batch_strides[i] >= 0;
      }
      op.ptr = x.data();
      if (ok) return;
      // The copy takes the conjugates, so it is read as it is.
      if (op.conjugate) x = eval(conj(x));
      else x = x.copy();
      op.conjugate = false;
    }
    throw error("xf::matmul: internal error: a C-ordered copy has no BLAS layout");
  };
  place(a, true, as, sa, oa);
  place(b, false, bs, sb, ob);
  // Collapse batch dimensions from the innermost while every operand's strides allow it: one
  // strided-batched call per index of the rest.
  std::vector<index_t> sc(nb);
  {
    index_t s = m * n;
    for (std::size_t i = nb; i-- > 0;) {
      sc[i] = s;
      s *= batch[i];
    }
  }
  index_t inner = 1, inner_a = 0, inner_b = 0, inner_c = m * n;
  std::size_t split = nb;  // batch dimensions [split, nb) form the strided batch
  while (split > 0) {
    const std::size_t d = split - 1;
    if (batch[d] == 1) {
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
    inner *= batch[d];
    --split;
  }
  std::vector<index_t> outer(split, 0);
  index_t outer_count = 1;
  for (std::size_t i = 0; i < split; ++i) outer_count *= batch[i];
  for (index_t o = 0; o < outer_count; ++o) {
    index_t off_a = 0, off_b = 0, off_c = 0;
    for (std::size_t i = 0; i < split; ++i) {
      off_a += outer[i] * sa[i];
      off_b += outer[i] * sb[i];
      off_c += outer[i] * sc[i];
    }
    blas_operand pa = oa, pb = ob;
    pa.ptr = static_cast<const T*>(oa.ptr) + off_a;
    pb.ptr = static_cast<const T*>(ob.ptr) + off_b;
    if constexpr (std::is_same_v<Space, device>) {
      gemm_device<T>(c.device_id(), m, n, k, pa, inner_a, pb, inner_b, c.data() + off_c, inner_c, inner, opt.allow_tf32);
    } else {
      gemm_host<T>(m, n, k, pa, inner_a, pb, inner_b, c.data() + off_c, inner_c, inner);
    }
    for (std::size_t i = split; i-- > 0;) {
      if (++outer[i] < batch[i]) break;
      outer[i] = 0;
    }
  }
  return c;
}

// conj(x) of a complex array x of element type T.
template <class E, class T>
inline constexpr bool conj_of_array = false;
template <class V, int R, class Space, class T>
inline constexpr bool conj_of_array<node<ops::conj, array<V, R, Space>>, T> = is_complex<V> && std::is_same_v<V, T>;

template <class E>
auto as_array(const E& e) {
  if constexpr (requires { e.data(); }) return e;
  else return eval(e);
}

}  // namespace detail

// NumPy's matmul (the @ operator) on device or host arrays, or on expressions, which are evaluated
// once into a temporary first. Mixed element types meet in NumPy's result type. Float, double,
// complex64/128 and (device) half/bfloat16 with float accumulation; integers are refused.
template <expression A, expression B>
auto matmul(const A& a, const B& b, const matmul_options& opt = {}) {
  using T = promote_t<value_t<A>, value_t<B>>;
  static_assert(is_floating<T> || is_complex<T>,
                "xf::matmul: BLAS multiplies float, double, complex, half and bfloat16 matrices; cast integer "
                "operands with .astype<double>() first");
  using S = resolved_space_t<space_t<A>>;
  static_assert(std::is_same_v<S, resolved_space_t<space_t<B>>>, "xf::matmul: one operand is on the host, the other on the device");
  const auto cast = [](const auto& e) {
    using V = value_t<decltype(e)>;
    if constexpr (std::is_same_v<V, T>) return detail::as_array(e);
    else return eval(e.template astype<T>());
  };
  if constexpr (std::is_same_v<S, device> || !is_low_precision<T>) {
    // conj(a view) of the result's type: BLAS conjugates (with a transpose) as it reads.
    constexpr bool ca = detail::conj_of_array<A, T>, cb = detail::conj_of_array<B, T>;
    if constexpr (ca || cb) {
      const auto x = [&] {
        if constexpr (ca) return get<0>(a.children());
        else return cast(a);
      }();
      const auto y = [&] {
        if constexpr (cb) return get<0>(b.children());
        else return cast(b);
      }();
      return detail::matmul_arrays(x, y, opt, ca, cb);
    }
  }
  const auto x = cast(a);
  const auto y = cast(b);
  if constexpr (std::is_same_v<S, host> && is_low_precision<T>) {
    // No 16-bit host BLAS: multiply in float, round once.
    return eval(detail::matmul_arrays(eval(x.template astype<float>()), eval(y.template astype<float>()), opt).template astype<T>());
  } else {
    return detail::matmul_arrays(x, y, opt);
  }
}

}  // namespace xf
