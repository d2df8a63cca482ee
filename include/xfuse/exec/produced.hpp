// SPDX-License-Identifier: Apache-2.0
// What a producer's description (exec/producer.hpp) holds besides its inputs: the state its copies
// share (the result once computed, the in-kernel mark, whether a destination or consumer took it),
// the end of the statement that made it (statement_end), and the array members it offers.
// Included by the producers' headers only, so that <xfuse/core.hpp> does not pay for <memory>.
#pragma once

#include <cstddef>
#include <exception>
#include <memory>
#include <optional>

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

// The members of an array that a description offers, each read from its result (computed first
// when it is not yet): `auto c = xf::cumsum(x); c.data()` reads as from the array it describes.
// Derived has eval() and result_type. Where an xf::array is asked for, the description converts
// through the array's constructor from an expression, which takes the result (no copy).
template <class Derived>
struct result_members {
  const auto& result() const { return static_cast<const Derived&>(*this).eval(); }
  auto data() const { return result().data(); }
  auto strides() const { return result().strides(); }
  int device_id() const { return result().device_id(); }
  auto item() const { return result().item(); }
  auto copy() const { return result().copy(); }
  auto T() const { return result().T(); }
  std::size_t nbytes() const { return result().nbytes(); }
  template <class D = Derived>
  static constexpr int ndim() {
    return D::rank;
  }
  template <class U>
  auto astype() const {
    return result().template astype<U>();
  }
  template <class... I>
  auto operator()(const I&... i) const {
    return result()(i...);
  }
};

}  // namespace xf::detail
