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
//
// This header is what evaluation needs (finding and asking producers); a description's shared
// state and statement end are in produced.hpp, the stores in epilogue.hpp.
#pragma once

#include <type_traits>
#include <utility>

#include "../expr/node.hpp"

namespace xf::detail {

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

}  // namespace xf::detail
