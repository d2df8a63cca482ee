// SPDX-License-Identifier: Apache-2.0
// The producer protocol. A library function that runs a kernel of its own (the row functions, the
// scans) returns a description of that work, not an array. The description
// - written into an array (construction, assign, operator=, xf::eval, +=) writes straight into the
//   array's memory when its kernel can address it;
// - used as an operand of an element-wise expression of its shape, written into an array, runs that
//   expression in its own store: the expression is the kernel's epilogue (row_epilogue below, the
//   scans' consumer_point), and the produced values never reach memory;
// - otherwise is computed once, into an array that every later use reads (produced_state).
// Both are asked through one hook: `producer.xf_feed(dst, e, op)` writes e, an expression that uses
// the producer (or the producer itself), into dst in the producer's kernel, or returns false having
// run nothing; evaluation (evaluate.hpp) asks the first producer of every expression it writes.
//
// A description made by an eager function (xf::softmax, xf::cumsum) is computed by the end of the
// statement that made it unless a destination or a consumer took it there (statement_end): after
// `auto y = xf::softmax(x, 1);` y holds the softmax of x as of that statement, as NumPy's would,
// whatever later statements write into x.
#pragma once

#include <exception>
#include <memory>
#include <optional>
#include <type_traits>

#include "../expr/leaf.hpp"
#include "../expr/node.hpp"
#include "point.hpp"
#include "positions.hpp"

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

// A producer's description, and an expression that holds one among its operands.
template <class E>
inline constexpr bool is_producer = requires { std::remove_cvref_t<E>::xf_producer; };
template <class E>
inline constexpr bool holds_producer = is_producer<E>;
template <class Op, class... Cs>
inline constexpr bool holds_producer<node<Op, Cs...>> = (holds_producer<Cs> || ...);

// The index of the first of Children that holds a producer.
template <class Children, int I = 0>
constexpr int first_holding_producer() {
  if constexpr (holds_producer<tuple_element_t<I, Children>>) return I;
  else return first_holding_producer<Children, I + 1>();
}

// The first producer among e's operands, depth first, left to right (e holds one).
template <class E>
const auto& first_producer(const E& e) {
  if constexpr (is_producer<E>) return e;
  else return first_producer(get<first_holding_producer<std::remove_cvref_t<decltype(e.children())>>()>(e.children()));
}

// Writes e into dst in the kernel of e's first producer when it can; false, having run nothing,
// otherwise.
template <class Dst, class E>
bool feed_producer(const Dst& dst, const E& e, const char* op) {
  if constexpr (holds_producer<E>) return first_producer(e).xf_feed(dst, e, op);
  else return false;
}

// How many distinct producers' values e uses (a producer used twice shares its state).
template <class E>
bool one_producer(const E& e) {
  const void* state = nullptr;
  bool one = true;
  const auto visit = [&](const auto& self, const auto& x) -> void {
    using X = std::remove_cvref_t<decltype(x)>;
    if constexpr (is_producer<X>) {
      const void* s = x.state.get();
      one = one && (state == nullptr || state == s);
      state = s;
    } else if constexpr (holds_producer<X>) {
      [&]<int... I>(std::integer_sequence<int, I...>) {
        (self(self, get<I>(x.children())), ...);
      }(std::make_integer_sequence<int, std::remove_cvref_t<decltype(x.children())>::size>{});
    }
  };
  visit(visit, e);
  return one;
}

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

// ---------------------------------------------------------------- epilogues

// A producer's store with nothing after it: the value converted to the destination's type.
struct no_epilogue {
  static constexpr int leaves_in_memory = 0;
  struct row_type {};
  XF_HD XF_FORCEINLINE row_type row(index_t) const { return {}; }
  template <class Out, class C>
  XF_HD XF_FORCEINLINE Out apply(const row_type&, C value, index_t) const {
    return convert<Out>(value);
  }
};

// The consumer's expression run in a producer's store, for producers that write lines along one
// axis (the row functions): Fn is the consumer's evaluator over Leaves, in which every produced
// leaf takes the producer's value (converted to the producer's element type, as its result would
// hold it) and every other leaf reads its position: the line's (`lines`, the same shape and
// destination strides as the producer's lines, so line o is the same line for both) plus r times
// its step along the line.
template <class Fn, class Leaves, int RK>
struct row_epilogue {
  using leaves_type = Leaves;
  static constexpr int L = Leaves::size;
  static constexpr int slots = L > 0 ? L : 1;
  // Leaves read from memory (the produced one aside): rows that each block reads again.
  static constexpr int leaves_in_memory = []<int... K>(std::integer_sequence<int, K...>) {
    return ((tuple_element_t<K, Leaves>::in_memory && !is_produced_leaf<tuple_element_t<K, Leaves>> ? 1 : 0) + ... + 0);
  }(std::make_integer_sequence<int, L>{});
  Fn fn;
  Leaves leaves;
  layout<RK, L> lines;
  bool narrow;
  index_t step[slots];

  struct row_type {
    index_t pos[slots];
  };
  XF_HD XF_FORCEINLINE row_type row(index_t o) const {
    row_type r;
    index_t unused;
    layout_positions(lines, narrow, o, r.pos, unused);
    return r;
  }
  template <class Out, class C>
  XF_HD XF_FORCEINLINE Out apply(const row_type& row, C value, index_t r) const {
    return convert<Out>(point_value<Leaves>(
        fn,
        [&](auto k) {
          constexpr int K = decltype(k)::value;
          using Leaf = tuple_element_t<K, Leaves>;
          if constexpr (is_produced_leaf<Leaf>) return convert<typename Leaf::value_type>(value);
          else return get<K>(leaves).at(row.pos[K] + r * step[K]);
        },
        std::make_integer_sequence<int, L>{}));
  }
};

}  // namespace xf::detail
