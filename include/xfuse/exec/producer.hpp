// SPDX-License-Identifier: Apache-2.0
// The producer protocol. A library function that runs a kernel of its own (the row functions, the
// scans) returns a description of that work, not an array. The description
// - written into an array (construction, assign, operator=, xf::eval, +=) writes straight into the
//   array's memory when its kernel can address it;
// - used as an operand of an element-wise expression of its shape, written into an array, runs that
//   expression in its own store: the expression is the kernel's epilogue (row_epilogue below, the
//   scans' consumer_point), and the produced values never reach memory;
// - otherwise is computed once, into an array that every later use reads (produced_state).
// Every producer is asked through one hook: `producer.xf_feed(dst, e, op)` writes e, an expression
// that uses the producer (or the producer itself), into dst in the producer's kernel, or returns
// false having run nothing; evaluation (evaluate.hpp) asks the producers of every expression it
// writes (feed_producer). Producers: the row functions (reduce/produced_rows.hpp), the scans
// (scan/pending.hpp), the described reductions (reduce/pending.hpp) and sort (sort/sorted.hpp).
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
#include <typeinfo>
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

// Writes e into dst in the kernel of one of its producers, asked in order (depth first, left to
// right; one of each type: a type's answer covers its kind, e.g. every described reduction of e
// folds in one kernel or none); false, having run nothing, when none can.
template <class Dst, class E>
bool feed_producer(const Dst& dst, const E& e, const char* op) {
  bool done = false;
  const std::type_info* asked[8] = {};
  int count = 0;
  const auto ask = [&](const auto& self, const auto& x) -> void {
    using X = std::remove_cvref_t<decltype(x)>;
    if (done) return;
    if constexpr (is_producer<X>) {
      for (int i = 0; i < count; ++i)
        if (*asked[i] == typeid(X)) return;
      if (count < 8) asked[count++] = &typeid(X);
      done = x.xf_feed(dst, e, op);
    } else if constexpr (holds_producer<X>) {
      [&]<int... I>(std::integer_sequence<int, I...>) {
        (self(self, get<I>(x.children())), ...);
      }(std::make_integer_sequence<int, std::remove_cvref_t<decltype(x.children())>::size>{});
    }
  };
  ask(ask, e);
  return done;
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
