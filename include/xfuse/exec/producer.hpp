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
// writes (feed_producer). Producers: the row functions (rows/produced_rows.hpp), the scans
// (scan/pending.hpp), the described reductions (reduce/pending.hpp), sort (sort/sorted.hpp) and
// the matrix product (linalg/product.hpp: cuBLASLt's bias and activation epilogues).
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
struct producer_kind : std::bool_constant<requires { E::xf_producer; }> {};
template <class E>
inline constexpr bool is_producer = producer_kind<std::remove_cvref_t<E>>::value;
template <class E>
inline constexpr bool holds_producer = holds_kind<producer_kind, E>;

// Calls f(p) for each producer p among e's operands, depth first, left to right.
template <class E, class F>
void for_each_producer(const E& e, F&& f) {
  if constexpr (is_producer<E>) {
    f(e);
  } else if constexpr (holds_producer<E>) {
    [&]<int... I>(std::integer_sequence<int, I...>) {
      (for_each_producer(get<I>(e.children()), f), ...);
    }(std::make_integer_sequence<int, std::remove_cvref_t<decltype(e.children())>::size>{});
  }
}

// Writes e into dst in the kernel of one of its producers, asked in order (one of each type: a
// type's answer covers its kind, e.g. every described reduction of e folds in one kernel or none);
// false, having run nothing, when none can.
template <class Dst, class E>
bool feed_producer(const Dst& dst, const E& e, const char* op) {
  bool done = false;
  const std::type_info* asked[8] = {};
  int count = 0;
  for_each_producer(e, [&](const auto& p) {
    const std::type_info& type = typeid(p);
    for (int i = 0; i < count; ++i)
      if (*asked[i] == type) return;
    if (done) return;
    if (count < 8) asked[count++] = &type;
    done = p.xf_feed(dst, e, op);
  });
  return done;
}

// A producer whose kernel is a library call (a matrix product on cuBLASLt): it takes only the
// consumers that library runs in its store; to another producer's kernel it is a leaf, its result.
template <class E>
inline constexpr bool is_library_producer = requires { std::remove_cvref_t<E>::xf_library_producer; };

// Whether e uses one producer's values only (a producer used twice shares its state); library
// producers are read as leaves.
template <class E>
bool one_producer(const E& e) {
  const void* state = nullptr;
  bool one = true;
  for_each_producer(e, [&](const auto& p) {
    if constexpr (!is_library_producer<decltype(p)>) {
      const void* s = p.state.get();
      one = one && (state == nullptr || state == s);
      state = s;
    }
  });
  return one;
}

}  // namespace xf::detail
