// SPDX-License-Identifier: Apache-2.0
// What a producer's description (exec/producer.hpp) holds besides its inputs: the state its copies
// share (the result once computed, the in-kernel mark, whether a destination or consumer took it),
// the end of the statement that made it (statement_end), and the base that gives a description
// everything but its kernel (produced_result).
// Included by the producers' headers only, so that <xfuse/core.hpp> does not pay for <memory>.
#pragma once

#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <utility>

#include "../expr/leaf.hpp"
#include "evaluate.hpp"
#include "producer.hpp"

namespace xf::detail {

// What copies of a description share: its result once computed, and whether its kernel is being
// planned as the producer of a consumer (its leaf then reads nothing) or has already written its
// values where they were wanted.
template <class Result>
struct produced_state {
  std::optional<Result> value;
  int in_kernel_on = -1;  // the device of the consumer kernel being planned, -1 otherwise
  bool consumed = false;  // written into a destination or a consumer: nothing is left to compute
};

// Marks a producer's leaf as made in the kernel being planned, until the launch returns or throws.
template <class State>
class in_kernel_mark {
 public:
  in_kernel_mark(State& s, int device) : state_(s) { state_.in_kernel_on = device; }
  ~in_kernel_mark() { state_.in_kernel_on = -1; }
  in_kernel_mark(const in_kernel_mark&) = delete;
  in_kernel_mark& operator=(const in_kernel_mark&) = delete;

 private:
  State& state_;
};

// The end of the statement that called an eager producer. It is a default argument bound to a
// reference parameter, so the temporary lives until the end of the caller's full-expression
// ([class.temporary]); its destructor then computes the description unless a destination or
// consumer took it. Nothing is computed while an exception unwinds the statement.
class statement_end {
 public:
  statement_end() noexcept : exceptions_(std::uncaught_exceptions()) {}
  statement_end(const statement_end&) = delete;
  statement_end& operator=(const statement_end&) = delete;
  ~statement_end() noexcept(false) {
    if (settle_ && std::uncaught_exceptions() == exceptions_) settle_(what_.get());
  }

  // Returns d, computed at the end of the statement unless it is taken first.
  template <class Description>
  Description bind(const Description& d) const {
    what_ = std::make_shared<const Description>(d);
    settle_ = [](const void* p) { static_cast<const Description*>(p)->xf_settle(); };
    return d;
  }

 private:
  mutable std::shared_ptr<const void> what_;
  mutable void (*settle_)(const void*) = nullptr;
  int exceptions_;
};

// The one base of the producers' descriptions (computed on first use, then kept). Derived holds
// `state` (a shared produced_state), gives shape(), value_type, rank, space, result_type,
// `compute(result_type&)` (its kernel into a fresh array; or, with `xf_fresh_result`,
// `compute_fresh()`, a result whose layout it chooses) and `xf_feed` (exec/producer.hpp); the
// base gives the rest of the expression protocol (one produced leaf), what xf::array does with a
// description alone (`xf_materialize`, `xf_assign_into`), the statement end's `xf_settle`, and the
// members of the array it describes, each read from its result: `auto c = xf::cumsum(x);
// c.data()`. Where an xf::array is asked for, the array's constructor takes the result (no copy).
template <class Derived>
struct produced_result {
  using xf_expression_tag = void;
  static constexpr bool xf_producer = true;
  static constexpr int leaf_count = 1;

  const Derived& self() const { return static_cast<const Derived&>(*this); }
  index_t size() const { return product(self().shape()); }

  // The result: computed the first time (asynchronously on the current stream for device arrays),
  // then kept.
  const auto& eval() const {
    const auto& state = *self().state;
    if (!state.value) {
      if constexpr (requires { Derived::xf_fresh_result; }) {  // a result in a layout of its own choosing
        self().state->value.emplace(self().compute_fresh());
      } else {
        typename Derived::result_type r(self().shape());
        self().compute(r);
        self().state->value.emplace(std::move(r));
      }
    }
    return *state.value;
  }
  // The end of the statement that described it: computed unless a destination or consumer took it.
  void xf_settle() const {
    if (!self().state->consumed) eval();
  }
  // One leaf: the result, or, while a consumer's kernel that makes the values is being planned,
  // a leaf that reads nothing.
  auto leaves() const {
    using D = Derived;
    using record = leaf_record<produced_leaf<typename D::value_type>, D::rank>;
    const auto& state = *self().state;
    if (state.in_kernel_on >= 0 && !state.value)
      return detail::make_tuple(record{{nullptr}, self().shape(), c_strides(self().shape()), 0, state.in_kernel_on});
    const auto& r = eval();
    return detail::make_tuple(record{{r.data()}, r.shape(), r.strides(), 0, r.device_id()});
  }
  template <int First, class D = Derived>
  slot<First, typename D::value_type> evaluator() const {
    return {};
  }
  auto xf_materialize() const { return eval(); }
  // Written into an array of its element type: straight from the producer's kernel when it can,
  // otherwise through the result.
  template <class T, int R, class S>
  void xf_assign_into(const array<T, R, S>& dst) const {
    check_assignable(dst, self(), "xf::array::assign");
    if (self().xf_feed(dst, self(), "xf::array::assign")) return;
    assign_into(dst, eval(), "xf::array::assign");
  }

  auto data() const { return eval().data(); }
  auto strides() const { return eval().strides(); }
  int device_id() const { return eval().device_id(); }
  auto item() const { return eval().item(); }
  auto copy() const { return eval().copy(); }
  auto T() const { return eval().T(); }
  std::size_t nbytes() const { return eval().nbytes(); }
  template <class D = Derived>
  static constexpr int ndim() {
    return D::rank;
  }
  template <class U>
  auto astype() const {
    return eval().template astype<U>();
  }
  template <class... I>
  auto operator()(const I&... i) const {
    return eval()(i...);
  }
};

}  // namespace xf::detail
