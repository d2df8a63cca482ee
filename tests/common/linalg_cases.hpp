// matmul and NumPy's products, shared by the host suite (OpenBLAS) and the GPU suite (cuBLAS):
// every element type, transposed, sliced, reversed and broadcast operands, 1-D rules, batches
// that collapse into one strided-batched call and batches that do not, empty dimensions, and bad
// shapes, against plain triple loops in complex<double> on the host (no xfuse code involved).
#pragma once

#include <complex>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <xfuse/linalg.hpp>

#include "check.hpp"
#include "random.hpp"

namespace xf_test {

using cd = std::complex<double>;

template <class T>
cd as_cd(const T& x) {
  if constexpr (xf::is_complex<T>) return {static_cast<double>(x.real()), static_cast<double>(x.imag())};
  else return {xf::detail::convert<double>(x), 0.0};
}

// C (m x n) = A (m x k) B (k x n), row-major vectors; also sum |a||b| per element, the error scale.
template <class T>
void ref_matmul(const std::vector<T>& a, const std::vector<T>& b, std::size_t m, std::size_t k, std::size_t n,
                std::vector<cd>& c, std::vector<double>& scale) {
  c.assign(m * n, cd(0));
  scale.assign(m * n, 0.0);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t p = 0; p < k; ++p)
      for (std::size_t j = 0; j < n; ++j) {
        const cd x = as_cd(a[i * k + p]), y = as_cd(b[p * n + j]);
        c[i * n + j] += x * y;
        scale[i * n + j] += std::abs(x) * std::abs(y);
      }
}

// Unit roundoff of the products' accumulation (float for the 16-bit types) and of the result.
template <class T>
double accumulation_eps() {
  using R = xf::real_t<T>;
  return std::is_same_v<R, double> ? 1.2e-16 : 6e-8;
}

template <class T>
void require_product(const std::vector<T>& got, const std::vector<cd>& want, const std::vector<double>& scale, std::size_t k,
                     const std::string& what, double extra_eps = 0) {
  REQUIRE(got.size() == want.size());
  const double acc = accumulation_eps<T>() * static_cast<double>(k + 2) + extra_eps;
  const double out = std::is_same_v<T, xf::half> ? 9.8e-4 : std::is_same_v<T, xf::bfloat16> ? 7.9e-3 : 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO(what << " element " << i << ": got " << as_cd(got[i]) << ", want " << want[i]);
    REQUIRE(std::abs(as_cd(got[i]) - want[i]) <= acc * scale[i] + out * std::abs(want[i]) + 1e-300);
  }
}

enum class layout { c_order, transposed, sliced, reversed };

// An m x k matrix with the given C-ordered values, stored as `how` says.
template <class T, class Space>
xf::array<T, 2, Space> make_matrix(const std::vector<T>& v, xf::index_t m, xf::index_t k, layout how) {
  const auto um = static_cast<std::size_t>(m), uk = static_cast<std::size_t>(k);
  if (how == layout::transposed) {
    std::vector<T> s(v.size());
    for (std::size_t i = 0; i < um; ++i)
      for (std::size_t j = 0; j < uk; ++j) s[j * um + i] = v[i * uk + j];
    return xf::asarray<T, Space>(s, {k, m}).T();
  }
  if (how == layout::sliced) {  // columns 2 .. k+1 of an m x (k + 3) matrix: leading dimension k + 3
    std::vector<T> s(um * (uk + 3), T(7));
    for (std::size_t i = 0; i < um; ++i)
      for (std::size_t j = 0; j < uk; ++j) s[i * (uk + 3) + j + 2] = v[i * uk + j];
    return xf::asarray<T, Space>(s, {m, k + 3})(xf::all, xf::slice(2, k + 2));
  }
  if (how == layout::reversed) {  // columns stored right to left: BLAS cannot read it, copied once
    std::vector<T> s(v.size());
    for (std::size_t i = 0; i < um; ++i)
      for (std::size_t j = 0; j < uk; ++j) s[i * uk + (uk - 1 - j)] = v[i * uk + j];
    return xf::asarray<T, Space>(s, {m, k})(xf::all, xf::slice(xf::_, xf::_, -1));
  }
  return xf::asarray<T, Space>(v, {m, k});
}

template <class Space, class T>
void matmul_layouts() {
  const xf::index_t shapes[][3] = {{1, 1, 1}, {7, 5, 3}, {33, 64, 17}, {2, 130, 1}, {1, 40, 9}};
  for (const auto& s : shapes) {
    const xf::index_t m = s[0], k = s[1], n = s[2];
    const auto av = uniform<T>(static_cast<std::size_t>(m * k), -1, 1), bv = uniform<T>(static_cast<std::size_t>(k * n), -1, 1);
    std::vector<cd> want;
    std::vector<double> scale;
    ref_matmul(av, bv, static_cast<std::size_t>(m), static_cast<std::size_t>(k), static_cast<std::size_t>(n), want, scale);
    for (const layout la : {layout::c_order, layout::transposed, layout::sliced, layout::reversed})
      for (const layout lb : {layout::c_order, layout::transposed, layout::sliced}) {
        const auto a = make_matrix<T, Space>(av, m, k, la);
        const auto b = make_matrix<T, Space>(bv, k, n, lb);
        const auto c = xf::matmul(a, b);
        STATIC_REQUIRE(decltype(c)::ndim() == 2);
        REQUIRE(c.shape() == xf::dims<2>{m, n});
        require_product(xf::to_host(c), want, scale, static_cast<std::size_t>(k),
                        std::string(xf::dtype_name<T>) + " matmul " + xf::to_string(c.shape()) + " layouts " +
                            std::to_string(static_cast<int>(la)) + "," + std::to_string(static_cast<int>(lb)));
      }
  }
}

template <class Space, class T>
void matmul_rules() {
  const xf::index_t m = 6, k = 5, n = 4;
  const auto av = uniform<T>(static_cast<std::size_t>(4 * m * k), -1, 1), bv = uniform<T>(static_cast<std::size_t>(4 * k * n), -1, 1);
  const auto a3 = xf::asarray<T, Space>(av, {4, m, k});
  const auto b3 = xf::asarray<T, Space>(bv, {4, k, n});
  std::vector<cd> want;
  std::vector<double> scale;
  const auto slice_of = [](const std::vector<T>& v, std::size_t at, std::size_t len) {
    return std::vector<T>(v.begin() + static_cast<std::ptrdiff_t>(at), v.begin() + static_cast<std::ptrdiff_t>(at + len));
  };
  const std::size_t mk = static_cast<std::size_t>(m * k), kn = static_cast<std::size_t>(k * n), mn = static_cast<std::size_t>(m * n);
  // A batch of four products: one strided-batched call.
  {
    const auto c = xf::to_host(xf::matmul(a3, b3));
    for (std::size_t q = 0; q < 4; ++q) {
      ref_matmul(slice_of(av, q * mk, mk), slice_of(bv, q * kn, kn), 6, 5, 4, want, scale);
      require_product(slice_of(c, q * mn, mn), want, scale, 5, "batched matmul, batch " + std::to_string(q));
    }
  }
  // A matrix broadcast against a batch, and a batch of 2 x 1 against 3: a (2, 3) batch whose
  // operands' batch strides do not collapse, so one call per outer index.
  {
    const auto b2 = xf::asarray<T, Space>(slice_of(bv, 0, kn), {k, n});
    const auto c = xf::to_host(xf::matmul(a3, b2));
    for (std::size_t q = 0; q < 4; ++q) {
      ref_matmul(slice_of(av, q * mk, mk), slice_of(bv, 0, kn), 6, 5, 4, want, scale);
      require_product(slice_of(c, q * mn, mn), want, scale, 5, "matrix broadcast over a batch, batch " + std::to_string(q));
    }
    const auto a4 = xf::asarray<T, Space>(slice_of(av, 0, 2 * mk), {2, 1, m, k});
    const auto b33 = xf::asarray<T, Space>(slice_of(bv, 0, 3 * kn), {3, k, n});
    const auto c4 = xf::matmul(a4, b33);
    REQUIRE(c4.shape() == xf::dims<4>{2, 3, m, n});
    const auto h = xf::to_host(c4);
    for (std::size_t i = 0; i < 2; ++i)
      for (std::size_t j = 0; j < 3; ++j) {
        ref_matmul(slice_of(av, i * mk, mk), slice_of(bv, j * kn, kn), 6, 5, 4, want, scale);
        require_product(slice_of(h, (i * 3 + j) * mn, mn), want, scale, 5, "broadcast batches (2,1) x (3)");
      }
    // Batch dimensions stored out of order (a transposed stack): strides that do not collapse.
    const auto at = xf::asarray<T, Space>(slice_of(av, 0, 4 * mk), {2, 2, m, k}).transpose({1, 0, 2, 3});
    const auto ct = xf::to_host(xf::matmul(at, b2));
    for (std::size_t i = 0; i < 2; ++i)
      for (std::size_t j = 0; j < 2; ++j) {
        ref_matmul(slice_of(av, (j * 2 + i) * mk, mk), slice_of(bv, 0, kn), 6, 5, 4, want, scale);
        require_product(slice_of(ct, (i * 2 + j) * mn, mn), want, scale, 5, "transposed batch dimensions");
      }
  }
  // 1-D operands: a row vector, a column vector, and the inner product (0-d).
  {
    const auto x = xf::asarray<T, Space>(slice_of(av, 0, static_cast<std::size_t>(m)), {m});
    const auto y = xf::asarray<T, Space>(slice_of(bv, 0, static_cast<std::size_t>(k)), {k});
    const auto a2 = xf::asarray<T, Space>(slice_of(av, 0, mk), {m, k});
    const auto xa = xf::matmul(x, a2);  // (m) @ (m, k) -> (k)
    STATIC_REQUIRE(decltype(xa)::ndim() == 1);
    ref_matmul(slice_of(av, 0, static_cast<std::size_t>(m)), slice_of(av, 0, mk), 1, 6, 5, want, scale);
    require_product(xf::to_host(xa), want, scale, 6, "vector @ matrix");
    const auto ay = xf::matmul(a2, y);  // (m, k) @ (k) -> (m)
    STATIC_REQUIRE(decltype(ay)::ndim() == 1);
    ref_matmul(slice_of(av, 0, mk), slice_of(bv, 0, static_cast<std::size_t>(k)), 6, 5, 1, want, scale);
    require_product(xf::to_host(ay), want, scale, 5, "matrix @ vector");
    const auto yy = xf::matmul(y, y);
    STATIC_REQUIRE(decltype(yy)::ndim() == 0);
    ref_matmul(slice_of(bv, 0, static_cast<std::size_t>(k)), slice_of(bv, 0, static_cast<std::size_t>(k)), 1, 5, 1, want, scale);
    require_product(std::vector<T>{yy.item()}, want, scale, 5, "vector @ vector");
  }
  // Empty dimensions: an empty result, and k = 0 (zeros, as in NumPy).
  {
    const auto e = xf::matmul(xf::asarray<T, Space>(std::vector<T>{}, {0, 3}), xf::asarray<T, Space>(slice_of(bv, 0, 12), {3, 4}));
    REQUIRE(e.shape() == xf::dims<2>{0, 4});
    const auto z = xf::to_host(xf::matmul(xf::asarray<T, Space>(std::vector<T>{}, {3, 0}), xf::asarray<T, Space>(std::vector<T>{}, {0, 2})));
    REQUIRE(z.size() == 6);
    for (const T& v : z) REQUIRE(as_cd(v) == cd(0));
  }
  // Shape mistakes name the operation and the shapes; the operands stay usable.
  {
    const auto a2 = xf::asarray<T, Space>(slice_of(av, 0, mk), {m, k});
    REQUIRE_THROWS_WITH(xf::matmul(a2, a2), XF_CONTAINS("xf::matmul") && XF_CONTAINS("(6, 5)"));
    REQUIRE_THROWS_AS(xf::matmul(a3, xf::asarray<T, Space>(slice_of(bv, 0, 3 * kn), {3, k, n})), xf::shape_error);
    REQUIRE(xf::to_host(a2).size() == mk);
  }
}

// Conjugate transposes: conj(S.T()) reaches BLAS as its conjugate-transpose flag (no copy);
// conj of a C-ordered matrix cannot, and is evaluated once.
template <class Space, class T>
void matmul_conjugate() {
  const std::size_t m = 5, k = 7, n = 3;
  const auto sv = uniform<T>(k * m, -1, 1), bv = uniform<T>(k * n, -1, 1), rv = uniform<T>(m * k, -1, 1);
  const auto s = xf::asarray<T, Space>(sv, {7, 5});  // A = conj(s.T()) is 5 x 7
  const auto b = xf::asarray<T, Space>(bv, {7, 3});
  const auto r = xf::asarray<T, Space>(rv, {5, 7});
  static_assert(xf::detail::conj_of_array<decltype(xf::conj(s.T())), T>, "conj(view) must reach BLAS as a flag");
  std::vector<T> a(m * k), rc(m * k);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t p = 0; p < k; ++p) {
      a[i * k + p] = T(std::conj(as_cd(sv[p * m + i])).real(), std::conj(as_cd(sv[p * m + i])).imag());
      rc[i * k + p] = T(std::conj(as_cd(rv[i * k + p])).real(), std::conj(as_cd(rv[i * k + p])).imag());
    }
  std::vector<cd> want;
  std::vector<double> scale;
  ref_matmul(a, bv, m, k, n, want, scale);
  require_product(xf::to_host(xf::matmul(xf::conj(s.T()), b)), want, scale, k, "conj(S.T()) @ B");
  ref_matmul(rc, bv, m, k, n, want, scale);
  require_product(xf::to_host(xf::matmul(xf::conj(r), b)), want, scale, k, "conj(R) @ B (evaluated)");
  // On the right: R @ conj(Q.T()) with Q stored 3 x 7.
  const auto qv = uniform<T>(n * k, -1, 1);
  const auto q = xf::asarray<T, Space>(qv, {3, 7});
  std::vector<T> qh(k * n);
  for (std::size_t p = 0; p < k; ++p)
    for (std::size_t j = 0; j < n; ++j) qh[p * n + j] = T(std::conj(as_cd(qv[j * k + p])).real(), std::conj(as_cd(qv[j * k + p])).imag());
  ref_matmul(rv, qh, m, k, n, want, scale);
  require_product(xf::to_host(xf::matmul(r, xf::conj(q.T()))), want, scale, k, "R @ conj(Q.T())");
}

// alpha * matmul(a, b) + beta * c as one GEMM (new result, in place through assign and +=, the
// addend broadcast or larger than the product), a product inside element-wise expressions, and
// destinations that overlap an operand (evaluated first, then copied).
template <class Space, class T>
void matmul_alpha_beta() {
  const xf::index_t m = 9, k = 7, n = 5;
  const auto um = static_cast<std::size_t>(m), uk = static_cast<std::size_t>(k), un = static_cast<std::size_t>(n);
  const auto av = uniform<T>(um * uk, -1, 1), bv = uniform<T>(uk * un, -1, 1), cv = uniform<T>(um * un, -1, 1);
  const auto biasv = uniform<T>(un, -1, 1);
  const auto a = xf::asarray<T, Space>(av, {m, k});
  const auto b = xf::asarray<T, Space>(bv, {k, n});
  const auto c = xf::asarray<T, Space>(cv, {m, n});
  const auto bias = xf::asarray<T, Space>(biasv, {n});
  std::vector<cd> ab;
  std::vector<double> ab_scale;
  ref_matmul(av, bv, um, uk, un, ab, ab_scale);
  // want = alpha * ab + beta * addend(i, j); scale grows by |beta * addend|.
  const auto expect = [&](cd alpha, cd beta, auto addend, std::vector<cd>& want, std::vector<double>& scale) {
    want.resize(um * un);
    scale.resize(um * un);
    for (std::size_t i = 0; i < um; ++i)
      for (std::size_t j = 0; j < un; ++j) {
        const cd x = addend(i, j);
        want[i * un + j] = alpha * ab[i * un + j] + beta * x;
        scale[i * un + j] = std::abs(alpha) * ab_scale[i * un + j] + 2 * std::abs(beta * x);
      }
  };
  const auto c_at = [&](std::size_t i, std::size_t j) { return as_cd(cv[i * un + j]); };
  const auto bias_at = [&](std::size_t, std::size_t j) { return as_cd(biasv[j]); };
  const std::string name = xf::dtype_name<T>;
  std::vector<cd> want;
  std::vector<double> scale;

  // These forms are GEMM products (not element-wise nodes over a product).
  STATIC_REQUIRE(xf::detail::is_matmul_expr<decltype(T(2) * xf::matmul(a, b) + c * T(0.5))>);
  STATIC_REQUIRE(xf::detail::is_matmul_expr<decltype(c - xf::matmul(a, b) * T(3))>);
  STATIC_REQUIRE(xf::detail::is_matmul_expr<decltype(-xf::matmul(a, b) + T(4) * c)>);
  STATIC_REQUIRE(xf::detail::is_matmul_expr<decltype(c + xf::matmul(a, b))>);
  STATIC_REQUIRE(!xf::detail::is_matmul_expr<decltype(xf::matmul(a, b) + xf::matmul(a, b))>);
  const xf::array<T, 2, Space> d = T(2) * xf::matmul(a, b) + c * T(0.5);
  expect(2, 0.5, c_at, want, scale);
  require_product(xf::to_host(d), want, scale, uk, name + " 2 * (a @ b) + c * 0.5");
  require_product(xf::to_host(xf::eval(c - xf::matmul(a, b) * T(3))), (expect(-3, 1, c_at, want, scale), want), scale, uk,
                  name + " c - (a @ b) * 3");
  require_product(xf::to_host(xf::matmul(a, b) + bias), (expect(1, 1, bias_at, want, scale), want), scale, uk,
                  name + " (a @ b) + bias, the bias broadcast");

  // In place: += and assign write c's own memory through GEMM's beta.
  xf::array<T, 2, Space> acc = c.copy();
  const T* before = acc.data();
  acc += xf::matmul(a, b);
  REQUIRE(acc.data() == before);
  require_product(xf::to_host(acc), (expect(1, 1, c_at, want, scale), want), scale, uk, name + " c += a @ b");
  acc.assign(c);
  acc -= T(2) * xf::matmul(a, b);
  require_product(xf::to_host(acc), (expect(-2, 1, c_at, want, scale), want), scale, uk, name + " c -= 2 * (a @ b)");
  acc.assign(-xf::matmul(a, b) + T(4) * c);
  require_product(xf::to_host(acc), (expect(-1, 4, c_at, want, scale), want), scale, uk, name + " assign -(a @ b) + 4 * c");

  // A product held in a variable runs once and reads the same values in every use; inside an
  // element-wise expression it is one leaf.
  const auto p = xf::matmul(a, b);
  const xf::array<T, 2, Space> twice = p + p;
  require_product(xf::to_host(twice), (expect(2, 0, c_at, want, scale), want), scale, uk, name + " p + p");
  require_product(xf::to_host(p), (expect(1, 0, c_at, want, scale), want), scale, uk, name + " p");

  // The addend makes the result larger than the product: (1, n) product, (m, n) addend.
  const auto row = xf::asarray<T, Space>(std::vector<T>(av.begin(), av.begin() + static_cast<std::ptrdiff_t>(uk)), {1, k});
  const xf::array<T, 2, Space> wide = xf::matmul(row, b) + c;
  REQUIRE(wide.shape() == xf::dims<2>{m, n});
  expect(1, 1, c_at, want, scale);
  for (std::size_t i = 0; i < um; ++i)
    for (std::size_t j = 0; j < un; ++j) {
      want[i * un + j] = ab[j] + c_at(i, j);
      scale[i * un + j] = ab_scale[j] + 2 * std::abs(c_at(i, j));
    }
  require_product(xf::to_host(wide), want, scale, uk, name + " (1, n) product + (m, n) addend");

  // A destination that is also an operand: square matrices, q.assign(q @ b2 + q).
  const auto qv = uniform<T>(un * un, -1, 1), b2v = uniform<T>(un * un, -1, 1);
  xf::array<T, 2, Space> q = xf::asarray<T, Space>(qv, {n, n});
  const auto b2 = xf::asarray<T, Space>(b2v, {n, n});
  q.assign(xf::matmul(q, b2) + q);
  std::vector<cd> qq;
  std::vector<double> qs;
  ref_matmul(qv, b2v, un, un, un, qq, qs);
  for (std::size_t i = 0; i < qq.size(); ++i) qq[i] += as_cd(qv[i]), qs[i] += 2 * std::abs(as_cd(qv[i]));
  require_product(xf::to_host(q), qq, qs, un, name + " q = q @ b + q, q an operand");

  // A batch: (3, m, k) @ (k, n) * 2 + (3, m, n), one strided-batched GEMM with beta.
  const auto a3v = uniform<T>(3 * um * uk, -1, 1), c3v = uniform<T>(3 * um * un, -1, 1);
  const auto a3 = xf::asarray<T, Space>(a3v, {3, m, k});
  const auto c3 = xf::asarray<T, Space>(c3v, {3, m, n});
  const xf::array<T, 3, Space> d3 = xf::matmul(a3, b) * T(2) + c3;
  const auto d3h = xf::to_host(d3);
  for (std::size_t q3 = 0; q3 < 3; ++q3) {
    ref_matmul(std::vector<T>(a3v.begin() + static_cast<std::ptrdiff_t>(q3 * um * uk), a3v.begin() + static_cast<std::ptrdiff_t>((q3 + 1) * um * uk)),
               bv, um, uk, un, want, scale);
    std::vector<T> got(d3h.begin() + static_cast<std::ptrdiff_t>(q3 * um * un), d3h.begin() + static_cast<std::ptrdiff_t>((q3 + 1) * um * un));
    for (std::size_t i = 0; i < want.size(); ++i) {
      const cd x = as_cd(c3v[q3 * um * un + i]);
      want[i] = 2.0 * want[i] + x;
      scale[i] = 2 * scale[i] + 2 * std::abs(x);
    }
    require_product(got, want, scale, uk, name + " batched 2 * (a3 @ b) + c3");
  }
}

// The names of the NVTX ranges a statement opens (through the hooks of base/nvtx.hpp): which
// library calls and fused evaluations ran.
struct range_log {
  static std::vector<std::string>& names() {
    static std::vector<std::string> n;
    return n;
  }
  range_log() : saved_(xf::detail::nvtx_api) {
    names().clear();
    xf::detail::nvtx_api.push = [](const char* name) { names().emplace_back(name); };
    xf::detail::nvtx_api.pop = [] {};
  }
  ~range_log() { xf::detail::nvtx_api = saved_; }
  range_log(const range_log&) = delete;
  range_log& operator=(const range_log&) = delete;

 private:
  xf::detail::nvtx_hooks saved_;
};

// relu(p), gelu_tanh(p) and maximum(p, 0) of a product p = a @ b [+ bias row | * alpha + beta * c]
// (device arrays: one cuBLASLt call with the bias and the activation in its store), against
// act(reference) from the triple loop: new arrays, preallocated destinations, transposed and
// copied operands, a destination that is an operand, a bias that is not aligned, and NaN rows
// (relu keeps NaN, as torch.relu). `fused`: require that the forms cuBLASLt takes ran as that one
// call and nothing else, or only report what ran.
enum class epilogue_check { none, required, reported };
template <class Space, class T>
void matmul_epilogues(xf::index_t m, xf::index_t k, xf::index_t n, epilogue_check fused) {
  const auto um = static_cast<std::size_t>(m), uk = static_cast<std::size_t>(k), un = static_cast<std::size_t>(n);
  auto av = uniform<T>(um * uk, -1, 1);
  av[0] = T(std::numeric_limits<float>::quiet_NaN());  // row 0 of the product is NaN
  const auto bv = uniform<T>(uk * un, -1, 1), cv = uniform<T>(um * un, -1, 1);
  const auto biasv = uniform<T>(un + 1, -1, 1);  // [1:] is a bias 2 or 4 bytes past an aligned start
  const auto a = xf::asarray<T, Space>(av, {m, k});
  const auto b = xf::asarray<T, Space>(bv, {k, n});
  const auto c = xf::asarray<T, Space>(cv, {m, n});
  const auto bias_all = xf::asarray<T, Space>(biasv, {n + 1});
  const auto bias = bias_all(xf::slice(0, n)), bias_late = bias_all(xf::slice(1, n + 1));
  std::vector<cd> ab;
  std::vector<double> ab_scale;
  ref_matmul(av, bv, um, uk, un, ab, ab_scale);
  const std::string name = std::string(xf::dtype_name<T>) + " " + std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n);
  const double gelu_slack = 1.2;  // |gelu'| <= 1.13: the product's error grows by at most that
  // act(alpha * ab + beta * addend(i, j)), checked element by element; NaN where the product is.
  const auto check = [&](const xf::array<T, 2, Space>& got_array, auto act, double alpha, double beta, auto addend, const std::string& what) {
    const auto got = xf::to_host(got_array);
    REQUIRE(got.size() == um * un);
    const double acc = accumulation_eps<T>() * static_cast<double>(uk + 2);
    const double out = std::is_same_v<T, xf::half> ? 9.8e-4 : std::is_same_v<T, xf::bfloat16> ? 7.9e-3 : 0;
    for (std::size_t i = 0; i < um; ++i)
      for (std::size_t j = 0; j < un; ++j) {
        const std::size_t e = i * un + j;
        const double pre = alpha * ab[e].real() + beta * addend(i, j);
        const double want = act(pre), g = xf::detail::convert<double>(got[e]);
        INFO(name << " " << what << " element (" << i << ", " << j << "): got " << g << ", want " << want);
        if (std::isnan(want)) {
          REQUIRE(std::isnan(g));
          continue;
        }
        // The tanh form may evaluate tanh to about 2^-11 (cuBLASLt's GELU): a relative term.
        const double fn = what.find("gelu") != std::string::npos ? 1e-3 : 0;
        const double scale = std::abs(alpha) * ab_scale[e] + 2 * std::abs(beta * addend(i, j));
        // 16-bit types round the product, then the sum with the addend, then the activation.
        REQUIRE(std::abs(g - want) <= gelu_slack * (acc * scale + out * (std::abs(alpha * ab[e].real()) + std::abs(beta * addend(i, j)) + std::abs(pre))) + (out + fn) * std::abs(want) + 1e-300);
      }
  };
  const auto relu = [](double x) { return std::isnan(x) ? x : x < 0 ? 0.0 : x; };
  const auto gelu_tanh = [](double x) { return 0.5 * x * (1 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); };
  const auto bias_at = [&](std::size_t, std::size_t j) { return xf::detail::convert<double>(biasv[j]); };
  const auto late_at = [&](std::size_t, std::size_t j) { return xf::detail::convert<double>(biasv[j + 1]); };
  const auto c_at = [&](std::size_t i, std::size_t j) { return xf::detail::convert<double>(cv[i * un + j]); };
  const auto none = [](std::size_t, std::size_t) { return 0.0; };
  // One cuBLASLt call and nothing else (device), or whatever the plain path runs (host).
  const auto one_call = [&](const std::vector<std::string>& ran, const std::string& what) {
    const bool one = ran == std::vector<std::string>{"xf::matmul (cuBLASLt epilogue)"};
    if (fused == epilogue_check::reported) WARN(name << " " << what << (one ? ": one cuBLASLt call" : ": the plain path"));
    if (fused != epilogue_check::required) return;
    INFO(name << " " << what << ": " << ran.size() << " ranges, the first " << (ran.empty() ? "" : ran[0]));
    REQUIRE(one);
  };

  xf::array<T, 2, Space> y({m, n});
  {
    const range_log log;
    const xf::array<T, 2, Space> r = xf::relu(xf::matmul(a, b) + bias);
    one_call(range_log::names(), "new relu(a @ b + bias)");
    check(r, relu, 1, 1, bias_at, "relu(a @ b + bias)");
  }
  {
    const range_log log;
    y.assign(xf::relu(xf::matmul(a, b) + bias));
    one_call(range_log::names(), "y.assign(relu(a @ b + bias))");
    check(y, relu, 1, 1, bias_at, "y.assign(relu(a @ b + bias))");
  }
  {
    const range_log log;
    y.assign(xf::gelu_tanh(xf::matmul(a, b) + bias));
    one_call(range_log::names(), "y.assign(gelu_tanh(a @ b + bias))");
    check(y, gelu_tanh, 1, 1, bias_at, "gelu_tanh(a @ b + bias)");
  }
  {
    const range_log log;
    const auto r = xf::eval(xf::maximum(2.0f * xf::matmul(a, b) + bias, 0));
    one_call(range_log::names(), "eval(maximum(2 * a @ b + bias, 0))");
    check(r, relu, 2, 1, bias_at, "maximum(2 * a @ b + bias, 0)");
  }
  {
    const range_log log;
    y.assign(xf::maximum(0.0, xf::matmul(a, b)));
    one_call(range_log::names(), "y.assign(maximum(0, a @ b))");
    check(y, relu, 1, 0, none, "maximum(0, a @ b)");
  }
  {
    const range_log log;
    y.assign(xf::gelu_tanh(0.5f * xf::matmul(a, b)));
    one_call(range_log::names(), "y.assign(gelu_tanh(0.5 * a @ b))");
    check(y, gelu_tanh, 0.5, 0, none, "gelu_tanh(0.5 * a @ b)");
  }
  {
    const range_log log;
    y.assign(xf::matmul(a, b) + bias);
    one_call(range_log::names(), "y.assign(a @ b + bias)");
    check(y, [](double x) { return x; }, 1, 1, bias_at, "a @ b + bias");
  }
  // A full addend: copied into y, then read as beta * c in the same call.
  y.assign(xf::relu(xf::matmul(a, b) * 0.5f + -2.0f * c));
  check(y, relu, 0.5, -2, c_at, "relu(0.5 * a @ b - 2 * c)");
  // maximum with another scalar is not relu: the plain path.
  y.assign(xf::maximum(xf::matmul(a, b) + bias, 0.25f));
  check(y, [&](double x) { return std::isnan(x) ? x : x < 0.25 ? 0.25 : x; }, 1, 1, bias_at, "maximum(a @ b + bias, 0.25)");
  // Operands transposed (BLAS flags) and reversed (copied once); a bias 2 or 4 bytes off alignment.
  const auto at = xf::eval(a.T()).T();
  const auto b_rev = xf::eval(b(xf::all, xf::slice(xf::_, xf::_, -1)))(xf::all, xf::slice(xf::_, xf::_, -1));
  y.assign(xf::relu(xf::matmul(at, b_rev) + bias_late));
  check(y, relu, 1, 1, late_at, "relu(a.T().T() @ reversed b + unaligned bias)");
  // A destination that is an operand: square, q.assign(relu(q @ w + bias)) reads q while writing it.
  if (m == k && k == n) {
    xf::array<T, 2, Space> q = a.copy();
    q.assign(xf::relu(xf::matmul(q, b) + bias));
    check(q, relu, 1, 1, bias_at, "q.assign(relu(q @ b + bias)), q an operand");
  }
  // Empty products: no rows (an empty result), and k = 0 (a sum of nothing: relu(bias) in each row).
  const auto no_rows = xf::asarray<T, Space>(std::vector<T>{}, {0, k});
  const xf::array<T, 2, Space> empty = xf::relu(xf::matmul(no_rows, b) + bias);
  REQUIRE(empty.shape() == xf::dims<2>{0, n});
  const auto a_k0 = xf::asarray<T, Space>(std::vector<T>{}, {m, 0});
  const auto b_k0 = xf::asarray<T, Space>(std::vector<T>{}, {0, n});
  y.assign(xf::relu(xf::matmul(a_k0, b_k0) + bias));
  const auto yk0 = xf::to_host(y);
  for (std::size_t e = 0; e < um * un; ++e) {
    INFO(name << " relu(a @ b + bias) with k = 0, element " << e);
    REQUIRE(xf::detail::convert<double>(yk0[e]) == relu(bias_at(0, e % un)));
  }
  // A product held in a variable: used after a fused statement, it is computed then (same values).
  const auto p = xf::matmul(a, b) + bias;
  y.assign(xf::relu(p));
  check(y, relu, 1, 1, bias_at, "relu(p), p held");
  check(xf::eval(p + 0.0f), [](double x) { return x; }, 1, 1, bias_at, "p + 0 after relu(p)");
}

// np.dot and np.vdot of two integer vectors of type T: [max, max, 3, min] . [2, max, 5, -1]
// (unsigned: [max, max, 3, 7] . [2, max, 5, 3]), in T, wrapped as NumPy's integers wrap.
template <class Space, class T>
void integer_dot(long long numpy_value) {
  using L = std::numeric_limits<T>;
  const bool s = std::is_signed_v<T>;
  const auto a = xf::asarray<T, Space>({L::max(), L::max(), T(3), s ? L::min() : T(7)});
  const auto b = xf::asarray<T, Space>({T(2), L::max(), T(5), s ? T(-1) : T(3)});
  const auto d = xf::dot(a, b);
  const auto v = xf::vdot(a, b);
  static_assert(std::is_same_v<xf::value_t<decltype(d)>, T> && std::is_same_v<xf::value_t<decltype(v)>, T>,
                "np.dot of two integer vectors keeps their type");
  INFO("dot of " << xf::dtype_name<T> << " vectors");
  CHECK(static_cast<long long>(d.item()) == numpy_value);
  CHECK(static_cast<long long>(v.item()) == numpy_value);
}

// np.dot and np.vdot of vectors return the operands' promoted type (np.sum widens, np.dot does
// not), with NumPy's integer wrapping; bool vectors give "any a and b"; float16 multiplies and
// adds in float and rounds once. Expected values: NumPy 2.4.6.
template <class Space>
void dot_types_follow_numpy() {
  // [np.dot(a, b) for each type]: int8 -114, uint8 35, int16 -32754, uint16 35, int32 -2147483634,
  // uint32 35, int64 -9223372036854775794, uint64 35 (results of the same type as the inputs).
  integer_dot<Space, std::int8_t>(-114);
  integer_dot<Space, std::uint8_t>(35);
  integer_dot<Space, std::int16_t>(-32754);
  integer_dot<Space, std::uint16_t>(35);
  integer_dot<Space, std::int32_t>(-2147483634);
  integer_dot<Space, std::uint32_t>(35);
  integer_dot<Space, std::int64_t>(-9223372036854775807LL - 1 + 14);
  integer_dot<Space, std::uint64_t>(35);
  // np.dot(np.array([True, False, True]), np.array([False, True, False])) is np.False_ (bool), with
  // [False, True, True] np.True_; np.vdot the same; np.dot of two empty bool vectors np.False_.
  const auto t = xf::asarray<bool, Space>({true, false, true});
  const auto f = xf::asarray<bool, Space>({false, true, false});
  const auto g = xf::asarray<bool, Space>({false, true, true});
  static_assert(std::is_same_v<xf::value_t<decltype(xf::dot(t, f))>, bool>);
  static_assert(std::is_same_v<xf::value_t<decltype(xf::vdot(t, f))>, bool>);
  CHECK(xf::dot(t, f).item() == false);
  CHECK(xf::dot(t, g).item() == true);
  CHECK(xf::vdot(t, g).item() == true);
  CHECK(xf::dot(t(xf::slice(0, 0)), f(xf::slice(0, 0))).item() == false);
  // np.dot(np.array([-128, 127, 100], np.int8), np.array([255, 255, 200], np.uint8)) is np.int16(19745)
  const auto dm = xf::dot(xf::asarray<std::int8_t, Space>({-128, 127, 100}), xf::asarray<std::uint8_t, Space>({255, 255, 200}));
  static_assert(std::is_same_v<xf::value_t<decltype(dm)>, std::int16_t>);
  CHECK(dm.item() == 19745);
  // np.dot(np.array([True, True]), np.array([100, 100], np.int8)) is np.int8(-56)
  const auto db = xf::dot(xf::asarray<bool, Space>({true, true}), xf::asarray<std::int8_t, Space>({100, 100}));
  static_assert(std::is_same_v<xf::value_t<decltype(db)>, std::int8_t>);
  CHECK(db.item() == -56);
  // np.dot(np.array([2**62, 3], np.int64), np.array([4, 5], np.uint64)) is np.float64(1.8446744073709552e+19)
  const auto df = xf::dot(xf::asarray<std::int64_t, Space>({std::int64_t{1} << 62, 3}), xf::asarray<std::uint64_t, Space>({4, 5}));
  static_assert(std::is_same_v<xf::value_t<decltype(df)>, double>);
  CHECK(df.item() == 1.8446744073709552e+19);
  // np.dot of two empty int8 vectors is np.int8(0)
  const auto e8 = xf::asarray<std::int8_t, Space>({1});
  CHECK(xf::dot(e8(xf::slice(0, 0)), e8(xf::slice(0, 0))).item() == 0);
  // float16: np.dot(np.array([300, 300], np.float16), np.array([300, -300], np.float16)) is
  // np.float16(0.0) (each product 90000 overflows float16, not float); np.vdot the same;
  // np.dot(h, h) with h = np.array([0.1, 0.2, 0.3], np.float16) is np.float16(0.14) = 0.1400146484375.
  const auto h1 = xf::asarray<xf::half, Space>({xf::half(300.0f), xf::half(300.0f)});
  const auto h2 = xf::asarray<xf::half, Space>({xf::half(300.0f), xf::half(-300.0f)});
  static_assert(std::is_same_v<xf::value_t<decltype(xf::dot(h1, h2))>, xf::half>);
  CHECK(static_cast<float>(xf::dot(h1, h2).item()) == 0.0f);
  CHECK(static_cast<float>(xf::vdot(h1, h2).item()) == 0.0f);
  const auto h3 = xf::asarray<xf::half, Space>({xf::half(0.1f), xf::half(0.2f), xf::half(0.3f)});
  CHECK(static_cast<float>(xf::dot(h3, h3).item()) == 0.1400146484375f);
}

template <class Space>
void products_and_mixed_types() {
  const auto av = uniform<double>(60, -1, 1), bv = uniform<double>(60, -1, 1);
  std::vector<cd> want;
  std::vector<double> scale;
  // Expressions as operands (evaluated once) and mixed types (float @ double is double).
  const auto a = xf::asarray<double, Space>(av, {6, 10});
  const auto bf = xf::asarray<float, Space>(std::vector<float>(bv.begin(), bv.end()), {10, 6});
  const auto c = xf::matmul(a * 2.0, bf + 1.0f);
  static_assert(std::is_same_v<xf::value_t<decltype(c)>, double>);
  std::vector<double> a2(av), b1(bv.size());
  for (auto& x : a2) x *= 2;
  for (std::size_t i = 0; i < bv.size(); ++i) b1[i] = static_cast<double>(static_cast<float>(static_cast<float>(bv[i]) + 1.0f));
  ref_matmul(a2, b1, 6, 10, 6, want, scale);
  require_product(xf::to_host(c), want, scale, 10, "matmul of expressions, float and double");
  // dot of vectors (a fused reduction), of a matrix and a vector, and of N-d operands.
  const auto x = xf::asarray<double, Space>(av, {60});
  const auto y = xf::asarray<double, Space>(bv, {60});
  double d = 0, ds = 0;
  for (std::size_t i = 0; i < 60; ++i) d += av[i] * bv[i], ds += std::abs(av[i] * bv[i]);
  REQUIRE(std::abs(xf::dot(x, y).item() - d) <= 1e-14 * ds);
  REQUIRE(std::abs(xf::vdot(a, xf::asarray<double, Space>(bv, {6, 10})).item() - d) <= 1e-14 * ds);
  REQUIRE(std::abs(xf::inner(x, y).item() - d) <= 1e-14 * ds);
  const auto a3 = xf::asarray<double, Space>(av, {2, 3, 10});
  const auto b3 = xf::asarray<double, Space>(bv, {3, 10, 2});
  const auto t = xf::dot(a3, b3);  // (2, 3) x (3, 2): sum over a's last, b's second-to-last axis
  REQUIRE(t.shape() == xf::dims<4>{2, 3, 3, 2});
  const auto th = xf::to_host(t);
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t l = 0; l < 2; ++l) {
        double s = 0, sa = 0;
        for (std::size_t p = 0; p < 10; ++p) s += av[i * 10 + p] * bv[j * 20 + p * 2 + l], sa += std::abs(av[i * 10 + p] * bv[j * 20 + p * 2 + l]);
        REQUIRE(std::abs(th[(i * 3 + j) * 2 + l] - s) <= 1e-14 * sa);
      }
  const auto in = xf::to_host(xf::inner(a, xf::asarray<double, Space>(bv, {6, 10})));  // (6, 6)
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 6; ++j) {
      double s = 0, sa = 0;
      for (std::size_t p = 0; p < 10; ++p) s += av[i * 10 + p] * bv[j * 10 + p], sa += std::abs(av[i * 10 + p] * bv[j * 10 + p]);
      REQUIRE(std::abs(in[i * 6 + j] - s) <= 1e-14 * sa);
    }
  // outer is lazy; trace sums a diagonal (with an offset).
  const xf::array<double, 2, Space> o = xf::outer(x, y);
  const auto oh = xf::to_host(o);
  REQUIRE(oh.size() == 3600);
  for (std::size_t i = 0; i < 60; i += 7)
    for (std::size_t j = 0; j < 60; j += 5) REQUIRE(oh[i * 60 + j] == av[i] * bv[j]);
  double tr = 0, tr1 = 0;
  for (std::size_t i = 0; i < 6; ++i) tr += av[i * 10 + i], tr1 += av[i * 10 + i + 1];
  REQUIRE(std::abs(xf::trace(a).item() - tr) <= 1e-14 * 6);
  REQUIRE(std::abs(xf::trace(a, 1).item() - tr1) <= 1e-14 * 6);
  // Complex vdot conjugates its first operand; dot does not.
  const auto zv = uniform<xf::complex128>(8, -1, 1), wv = uniform<xf::complex128>(8, -1, 1);
  cd vd = 0, dd = 0;
  for (std::size_t i = 0; i < 8; ++i) vd += std::conj(as_cd(zv[i])) * as_cd(wv[i]), dd += as_cd(zv[i]) * as_cd(wv[i]);
  const auto z = xf::asarray<xf::complex128, Space>(zv, {8});
  const auto w = xf::asarray<xf::complex128, Space>(wv, {8});
  REQUIRE(std::abs(as_cd(xf::vdot(z, w).item()) - vd) <= 1e-13);
  REQUIRE(std::abs(as_cd(xf::dot(z, w).item()) - dd) <= 1e-13);
  dot_types_follow_numpy<Space>();
}

}  // namespace xf_test
