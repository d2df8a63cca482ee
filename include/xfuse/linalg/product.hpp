// SPDX-License-Identifier: Apache-2.0
// The lazy matrix product that xf::matmul returns: alpha * (a @ b), optionally + beta * c, run as
// one BLAS call (GEMM's alpha and beta) the first time its value is needed, then kept.
//
//   xf::array<float, 2> d = 2.0f * xf::matmul(a, b) + 0.5f * c;  // c copied into d, one GEMM (beta = 0.5)
//   c += xf::matmul(a, b);                                       // one GEMM into c's memory (beta = 1)
//   c.assign(xf::matmul(a, b) - c);                              // the same, beta = -1
//
// On device arrays, a bias row and an activation run in cuBLASLt's store (one call, written
// straight into the destination):
//
//   xf::array<float, 2> y = xf::relu(xf::matmul(x, w) + bias);    // RELU_BIAS epilogue
//   y.assign(xf::gelu_tanh(xf::matmul(x, w) + bias));             // GELU_BIAS (PyTorch's tanh form)
//   y.assign(xf::matmul(x, w) + bias);                            // BIAS: no broadcast copy of bias
//
// Otherwise a product is an expression like any other: inside a larger expression
// (`xf::matmul(a, b) + 1`, `xf::sum(xf::matmul(a, b))`) it is evaluated once into a temporary,
// which the element-wise kernel then reads. Its operands are taken when the product is created (expressions among them are
// evaluated then); the product runs when it is first used and keeps its result, so a product
// held in `auto p = xf::matmul(a, b)` runs once however often it is read.
#pragma once

#include <concepts>
#include <memory>

#include "gemm.hpp"

namespace xf {
namespace detail {
template <class E>
struct lt_consumer;  // below: the consumers cuBLASLt runs in a product's store
}  // namespace detail

template <class T, int RA, int RB, class Space, bool WithC = false>
class matmul_expr {
 public:
  using xf_expression_tag = void;
  // A producer (exec/producer.hpp) whose kernel is a library call: it takes the consumers that
  // cuBLASLt runs in its store (xf_feed), and is a leaf, its result, to everything else.
  static constexpr bool xf_producer = true;
  static constexpr bool xf_library_producer = true;
  using value_type = T;
  using space = Space;
  static constexpr int rank = detail::matmul_rank(RA, RB);
  static constexpr int leaf_count = 1;
  using result_type = array<T, rank, Space>;
  using scalar_type = compute_t<T>;  // GEMM's alpha and beta: float for 16-bit floats

  matmul_expr(array<T, RA, Space> a, array<T, RB, Space> b, const matmul_options& opt, bool conj_a, bool conj_b)
      : a_(std::move(a)), b_(std::move(b)), opt_(opt), conj_a_(conj_a), conj_b_(conj_b), plan_(detail::plan_matmul(a_, b_)),
        shape_(plan_.out), state_(std::make_shared<state>()) {}

  const dims<rank>& shape() const noexcept { return shape_; }
  index_t shape(int axis) const {
    return shape_[static_cast<std::size_t>(detail::normalize_axis_of(axis, shape_, "xf::matmul"))];
  }
  index_t size() const noexcept { return detail::product(shape_); }
  static constexpr int ndim() noexcept { return rank; }

  // The values: the BLAS call runs the first time (on the operands' device, on its current
  // stream, asynchronously), and every later use reads the same array.
  const result_type& eval() const {
    if (!state_->done) {
      state_->value = compute();
      state_->done = true;
    }
    return state_->value;
  }
  operator result_type() const { return eval(); }  // NOLINT: implicit, like an array
  T item() const { return eval().item(); }
  template <std::integral... I>
    requires(sizeof...(I) == rank && std::is_same_v<Space, host>)
  T& at(I... i) const {
    return eval().at(i...);
  }
  array<T, rank, host> get() const
    requires std::is_same_v<Space, device>
  {
    return eval().get();
  }

  // Expression protocol: inside a larger expression the product is one leaf, its result.
  auto leaves() const { return eval().leaves(); }
  template <int First>
  detail::slot<First, T> evaluator() const {
    return {};
  }

  // What xf::array does with a product (array.hpp's `deferred`): take its result, or write it
  // straight into an existing array when BLAS can (C-contiguous, not overlapping the operands),
  // with the addend as GEMM's beta term.
  result_type xf_materialize() const { return eval(); }
  template <int RD>
  void xf_assign_into(const array<T, RD, Space>& dst) const {
    if constexpr (RD == rank) {
      if (bias_row() != nullptr && run_in_store(dst, detail::gemm_activation::none)) return;
      if (!state_->done && writable_in_place(dst)) {
        [[maybe_unused]] const auto on_device = guard();
        if constexpr (WithC) {
          if (!same_view(c_, dst)) dst.assign(c_);
          run_into(dst, beta_);
        } else {
          run_into(dst, scalar_type(0));
        }
        return;
      }
    }
    detail::assign_into(dst, eval(), "xf::array::assign");
  }

  // The producer protocol: e, this product under an activation cuBLASLt applies in its store
  // (relu, gelu_tanh, maximum with 0), written into dst by one cuBLASLt call. False, having run
  // nothing, for any other expression or where cuBLASLt cannot.
  template <class Dst, class E>
  bool xf_feed(const Dst& dst, const E& e, const char*) const {
    using C = detail::lt_consumer<E>;
    if constexpr (C::ok && std::is_same_v<typename C::product, matmul_expr> && std::is_same_v<Dst, result_type>) {
      const detail::gemm_activation act = C::activation(e);
      return act != detail::gemm_activation::none && run_in_store(dst, act);
    } else {
      return false;
    }
  }

  // s * (a @ b) [+ beta * c]: a new product (it never shares a result with this one).
  matmul_expr scaled(scalar_type s) const {
    matmul_expr r = *this;
    r.state_ = std::make_shared<state>();
    r.alpha_ *= s;
    r.beta_ *= s;
    return r;
  }
  // alpha * (a @ b) + beta * c, c broadcasting against the product.
  template <int RC>
    requires(!WithC && RC <= rank)
  matmul_expr<T, RA, RB, Space, true> plus(const array<T, RC, Space>& c, scalar_type beta) const {
    matmul_expr<T, RA, RB, Space, true> r(a_, b_, opt_, conj_a_, conj_b_);
    r.alpha_ = alpha_;
    r.beta_ = beta;
    std::array<index_t, rank> shape{};  // c's shape with leading 1s: a view, no copy
    for (int i = 0; i < rank; ++i) {
      const int j = i - (rank - RC);
      shape[static_cast<std::size_t>(i)] = j >= 0 ? c.shape(j) : 1;
    }
    r.c_ = c.reshape(shape);
    r.shape_ = detail::broadcast_shapes(r.shape_, shape, "xf::matmul(a, b) + c");
    return r;
  }

 private:
  template <class, int, int, class, bool>
  friend class matmul_expr;

  struct state {
    result_type value;
    bool done = false;
  };

  auto guard() const {
    struct no_guard {};
    if constexpr (std::is_same_v<Space, device>) return device_guard(a_.device_id());
    else return no_guard{};
  }

  void run_into(const result_type& c, scalar_type beta) const {
    detail::matmul_into(a_, b_, plan_, opt_, conj_a_, conj_b_, alpha_, beta, c);
  }

  result_type compute() const {
    [[maybe_unused]] const auto on_device = guard();
    if constexpr (WithC) {
      if (bias_row() != nullptr) {  // + a bias row: cuBLASLt adds it in its store
        result_type d(shape_);
        if (run_in_store(d, detail::gemm_activation::none)) return d;
      }
      if (shape_ != plan_.out) {  // c makes the result larger than the product: add it after
        result_type p(plan_.out);
        run_into(p, scalar_type(0));
        return result_type(p + c_ * beta_);
      }
    }
    result_type c(shape_);
    if constexpr (WithC) {
      c.assign(c_);
      run_into(c, beta_);
    } else {
      run_into(c, scalar_type(0));
    }
    return c;
  }

  // The addend as cuBLASLt's bias: one row of n contiguous elements added once (beta 1) to a
  // product of rank 2 or more whose rows have n elements. Null otherwise.
  const T* bias_row() const {
    if constexpr (!WithC || rank < 2 || RB == 1 || !std::is_same_v<Space, device> || is_complex<T>) {
      return nullptr;
    } else {
      if (beta_ != scalar_type(1) || c_.shape(rank - 1) != plan_.n || (plan_.n > 1 && c_.strides()[rank - 1] != 1)) return nullptr;
      for (int i = 0; i + 1 < rank; ++i)
        if (c_.shape(i) != 1) return nullptr;
      return detail::pointer_alignment(c_.data()) >= 16 ? c_.data() : nullptr;
    }
  }

  // act(this) into dst by one cuBLASLt call: the bias row added in its store, or a full addend
  // copied into dst first and read as beta * c. False, having changed nothing, where cuBLASLt
  // cannot: host or complex products, batches, an empty sum, a destination BLAS cannot write, the
  // bias inside the destination, no cuBLASLt algorithm.
  bool run_in_store(const result_type& dst, detail::gemm_activation act) const {
    if constexpr (!std::is_same_v<Space, device> || is_complex<T>) {
      return false;
    } else {
      if (state_->done || plan_.k == 0 || dst.size() == 0 || !writable_in_place(dst)) return false;
      for (const index_t e : plan_.batch)
        if (e != 1) return false;
      const T* bias = bias_row();
      // A bare product, or one with an addend and no activation, is a plain GEMM: no epilogue to run.
      if (bias == nullptr && act == detail::gemm_activation::none) return false;
      if (bias != nullptr && dst.buffer().get() == c_.buffer().get()) return false;  // read while written
      [[maybe_unused]] const auto on_device = guard();
      const detail::nvtx_range range("xf::matmul (cuBLASLt epilogue)");
      array<T, RA, Space> a = a_;
      array<T, RB, Space> b = b_;
      detail::lt_product call = detail::place_single_product(a, b, plan_);
      call.d = dst.data();
      call.bias = bias;
      call.activation = act;
      call.tf32 = opt_.allow_tf32;
      call.reads_d = WithC && bias == nullptr && beta_ != scalar_type(0);
      const detail::lt_gemm<T> gemm(a_.device_id(), call);
      if (!gemm.found()) return false;
      if constexpr (WithC)
        if (bias == nullptr && !same_view(c_, dst)) dst.assign(c_);
      gemm.run(alpha_, call.reads_d ? beta_ : scalar_type(0));
      return true;
    }
  }

  bool writable_in_place(const array<T, rank, Space>& dst) const {
    if (dst.shape() != shape_ || shape_ != plan_.out || !dst.is_contiguous()) return false;
    if (dst.buffer().get() == a_.buffer().get() || dst.buffer().get() == b_.buffer().get()) return false;
    if constexpr (std::is_same_v<Space, device>) return dst.device_id() == a_.device_id();
    return true;
  }
  static bool same_view(const array<T, rank, Space>& x, const array<T, rank, Space>& y) {
    return x.data() == y.data() && x.shape() == y.shape() && x.strides() == y.strides();
  }

  array<T, RA, Space> a_;
  array<T, RB, Space> b_;
  matmul_options opt_;
  bool conj_a_, conj_b_;
  detail::matmul_shapes<RA, RB> plan_;
  dims<rank> shape_;
  scalar_type alpha_ = scalar_type(1), beta_ = scalar_type(0);
  array<T, rank, Space> c_;  // the addend, as a view of rank `rank` (WithC)
  std::shared_ptr<state> state_;
};

namespace detail {

template <class P>
inline constexpr bool is_matmul_expr = false;
template <class T, int RA, int RB, class S, bool W>
inline constexpr bool is_matmul_expr<matmul_expr<T, RA, RB, S, W>> = true;

// The consumers cuBLASLt runs in a product's store: relu(p), gelu_tanh(p), maximum(p, 0) and
// maximum(0, p), p a product. activation(e) is none where the scalar is not 0.
template <class E>
struct lt_consumer {
  static constexpr bool ok = false;
  using product = void;
};
template <class Op, class P, gemm_activation A>
struct lt_unary_consumer {
  static constexpr bool ok = is_matmul_expr<P>;
  using product = P;
  static gemm_activation activation(const node<Op, P>&) { return A; }
};
template <class P>
struct lt_consumer<node<ops::relu, P>> : lt_unary_consumer<ops::relu, P, gemm_activation::relu> {};
template <class P>
struct lt_consumer<node<ops::gelu_tanh, P>> : lt_unary_consumer<ops::gelu_tanh, P, gemm_activation::gelu_tanh> {};
// maximum of p and the scalar child Scalar (0 or 1): relu where the scalar is 0.
template <class E, class P, int Scalar>
struct lt_maximum_consumer {
  static constexpr bool ok = is_matmul_expr<P>;
  using product = P;
  static gemm_activation activation(const E& e) {
    const auto s = get<Scalar>(e.children()).value();
    return s == decltype(s)(0) ? gemm_activation::relu : gemm_activation::none;
  }
};
template <class P, class S>
struct lt_consumer<node<ops::maximum, P, scalar_node<S>>> : lt_maximum_consumer<node<ops::maximum, P, scalar_node<S>>, P, 1> {};
template <class S, class P>
struct lt_consumer<node<ops::maximum, scalar_node<S>, P>> : lt_maximum_consumer<node<ops::maximum, scalar_node<S>, P>, P, 0> {};

// A C++ scalar that scales a product of T without changing its element type (NEP 50).
template <class S, class T>
concept product_scale = weak_scalar<S> && std::is_same_v<promote_weak_t<T, S>, T>;

// What GEMM can take as its beta * C term: c, s * c or c * s, c an array of the product's type.
template <class X, class T, class Space>
struct gemm_addend {
  static constexpr bool ok = false;
  static constexpr int rank = 0;
};
template <class T, int R, class Space>
struct gemm_addend<array<T, R, Space>, T, Space> {
  static constexpr bool ok = true;
  static constexpr int rank = R;
  static const array<T, R, Space>& c(const array<T, R, Space>& x) { return x; }
  static compute_t<T> beta(const array<T, R, Space>&) { return compute_t<T>(1); }
};
template <class S, class T, int R, class Space>
struct gemm_addend<node<ops::multiply, scalar_node<S>, array<T, R, Space>>, T, Space> {
  using X = node<ops::multiply, scalar_node<S>, array<T, R, Space>>;
  static constexpr bool ok = product_scale<S, T>;
  static constexpr int rank = R;
  static const array<T, R, Space>& c(const X& x) { return get<1>(x.children()); }
  static compute_t<T> beta(const X& x) { return static_cast<compute_t<T>>(get<0>(x.children()).value()); }
};
template <class S, class T, int R, class Space>
struct gemm_addend<node<ops::multiply, array<T, R, Space>, scalar_node<S>>, T, Space> {
  using X = node<ops::multiply, array<T, R, Space>, scalar_node<S>>;
  static constexpr bool ok = product_scale<S, T>;
  static constexpr int rank = R;
  static const array<T, R, Space>& c(const X& x) { return get<0>(x.children()); }
  static compute_t<T> beta(const X& x) { return static_cast<compute_t<T>>(get<1>(x.children()).value()); }
};

template <class X, class T, class Space, int R>
concept addend_of = gemm_addend<X, T, Space>::ok && gemm_addend<X, T, Space>::rank <= R;

}  // namespace detail

// ---------------------------------------------------------------- GEMM's alpha and beta
template <class S, class T, int RA, int RB, class Sp, bool W>
  requires detail::product_scale<S, T>
auto operator*(const S& s, const matmul_expr<T, RA, RB, Sp, W>& p) {
  return p.scaled(static_cast<compute_t<T>>(s));
}
template <class S, class T, int RA, int RB, class Sp, bool W>
  requires detail::product_scale<S, T>
auto operator*(const matmul_expr<T, RA, RB, Sp, W>& p, const S& s) {
  return p.scaled(static_cast<compute_t<T>>(s));
}
template <class T, int RA, int RB, class Sp, bool W>
auto operator-(const matmul_expr<T, RA, RB, Sp, W>& p) {
  return p.scaled(compute_t<T>(-1));
}

#define XF_GEMM_ADDEND(X) detail::addend_of<X, T, Sp, detail::matmul_rank(RA, RB)>
template <class T, int RA, int RB, class Sp, class X>
  requires XF_GEMM_ADDEND(X)
auto operator+(const matmul_expr<T, RA, RB, Sp>& p, const X& x) {
  using A = detail::gemm_addend<X, T, Sp>;
  return p.plus(A::c(x), A::beta(x));
}
template <class T, int RA, int RB, class Sp, class X>
  requires XF_GEMM_ADDEND(X)
auto operator+(const X& x, const matmul_expr<T, RA, RB, Sp>& p) {
  using A = detail::gemm_addend<X, T, Sp>;
  return p.plus(A::c(x), A::beta(x));
}
template <class T, int RA, int RB, class Sp, class X>
  requires XF_GEMM_ADDEND(X)
auto operator-(const matmul_expr<T, RA, RB, Sp>& p, const X& x) {
  using A = detail::gemm_addend<X, T, Sp>;
  return p.plus(A::c(x), -A::beta(x));
}
template <class T, int RA, int RB, class Sp, class X>
  requires XF_GEMM_ADDEND(X)
auto operator-(const X& x, const matmul_expr<T, RA, RB, Sp>& p) {
  using A = detail::gemm_addend<X, T, Sp>;
  return p.scaled(compute_t<T>(-1)).plus(A::c(x), A::beta(x));
}
#undef XF_GEMM_ADDEND

}  // namespace xf
