// SPDX-License-Identifier: Apache-2.0
// Expressions over distributed arrays. They are xfuse expressions whose leaves are Legate stores:
// a term records the operation as a type (which becomes the task's identity) and its operands;
// inside the task the same operations are applied to the local pieces, seen as xf::array views,
// which gives an ordinary xfuse expression and so the fused kernel or the host loop.
//
//   (x - y) * (x - y)                      operators and the functions below, as on xf::array
//   xf::dist::fuse([](auto a, auto b) {    any element-wise xfuse function of its operands
//     return xf::where(a > b, a, b * b); })(x, y)
//   xf::dist::generated(xf::random::normal<float>({n}, g))   a generator (draws, arange,
//                                          linspace) evaluated at each piece's global positions
#pragma once

#include <cstring>
#include <tuple>
#include <type_traits>
#include <vector>

#include "../random.hpp"
#include "array.hpp"

namespace xf::dist {

// The terms of distributed expressions (in xf::dist, so that operators are found for them).
// A C++ scalar operand (weak, as in xfuse).
template <class S>
struct scalar_term {
  S value;
};

// A generator (random draw, arange, linspace) of the statement's shape: its descriptor and its
// global shape; each piece reads it at the piece's global positions.
template <class Desc, int R>
struct position_term {
  Desc desc;
  dims<R> shape;
  dims<R> strides;  // of the position function: p = base + sum(index_d * strides_d)
  index_t base;
};

// An operation (a stateless callable applying xfuse operations) over operands.
template <class Op, class... A>
struct node_term {
  std::tuple<A...> operands;
};

namespace detail {

template <class X>
inline constexpr bool is_term = false;
template <class T, int R>
inline constexpr bool is_term<array<T, R>> = true;
template <class Desc, int R>
inline constexpr bool is_term<position_term<Desc, R>> = true;
template <class Op, class... A>
inline constexpr bool is_term<node_term<Op, A...>> = true;
template <class T>
inline constexpr bool is_term<scalar<T>> = true;

// An operand as stored in a node: terms as they are, C++ scalars as scalar terms.
template <class X>
auto as_operand(const X& x) {
  if constexpr (is_term<X>) {
    return x;
  } else {
    static_assert(std::is_arithmetic_v<X> || is_complex<X>, "xf::dist: operands are distributed arrays, their expressions or C++ scalars");
    return scalar_term<X>{x};
  }
}

template <class Op, class... X>
auto make_term(const X&... x) {
  return node_term<Op, decltype(::xf::dist::detail::as_operand(x))...>{{::xf::dist::detail::as_operand(x)...}};
}

// ---------------------------------------------------------------- the local form of a term
// The xfuse type a term becomes inside a task whose output has rank RO on Space: arrays are
// broadcast to the output's shape before the launch, so every array piece has rank RO.
template <class Space, int RO, class X>
struct local;
template <class Space, int RO, class T, int R>
struct local<Space, RO, array<T, R>> {
  using type = xf::array<T, RO, Space>;
};
template <class Space, int RO, class S>
struct local<Space, RO, scalar_term<S>> {
  using type = S;
};
template <class Space, int RO, class T>
struct local<Space, RO, scalar<T>> {  // a 0-d array: strong, as NumPy's 0-d arrays are
  using type = xf::array<T, RO, Space>;
};
template <class Space, int RO, class Desc, int R>
struct local<Space, RO, position_term<Desc, R>> {
  using type = generator_node<Desc, RO>;
};
template <class Space, int RO, class Op, class... A>
struct local<Space, RO, node_term<Op, A...>> {
  using type = decltype(Op{}(std::declval<typename local<Space, RO, A>::type>()...));
};

// The element type and rank of an expression's result.
template <class T, int R>
constexpr int term_rank(const array<T, R>*) { return R; }
template <class Desc, int R>
constexpr int term_rank(const position_term<Desc, R>*) { return R; }
template <class S>
constexpr int term_rank(const scalar_term<S>*) { return 0; }
template <class T>
constexpr int term_rank(const scalar<T>*) { return 0; }
template <class Op, class... A>
constexpr int term_rank(const node_term<Op, A...>*) { return max_of(term_rank(static_cast<const A*>(nullptr))...); }
template <class X>
inline constexpr int term_rank_v = term_rank(static_cast<const X*>(nullptr));

template <class X>
using result_value_t = typename std::remove_cvref_t<typename local<xf::host, (term_rank_v<X> > 0 ? term_rank_v<X> : 1), X>::type>::value_type;

// ---------------------------------------------------------------- shapes (launch side)
template <std::size_t A>
std::array<index_t, A> broadcast_all(const char*, const std::array<index_t, A>& a) {
  return a;
}
template <std::size_t A, std::size_t B, class... Rest>
auto broadcast_all(const char* op, const std::array<index_t, A>& a, const std::array<index_t, B>& b, const Rest&... rest) {
  return broadcast_all(op, broadcast_shapes(a, b, op), rest...);
}

template <class T, int R>
dims<R> shape_of(const array<T, R>& a, const char*) { return a.shape(); }
template <class Desc, int R>
dims<R> shape_of(const position_term<Desc, R>& p, const char*) { return p.shape; }
template <class S>
dims<0> shape_of(const scalar_term<S>&, const char*) { return {}; }
template <class T>
dims<0> shape_of(const scalar<T>&, const char*) { return {}; }
template <class Op, class... A>
auto shape_of(const node_term<Op, A...>& n, const char* op) {
  return std::apply([op](const auto&... a) {
    dims<0> none{};
    return broadcast_all(op, none, shape_of(a, op)...);
  }, n.operands);
}

// ---------------------------------------------------------------- operands of a launch
// The stores a statement reads (each broadcast to the output's shape, in depth-first order) and
// its scalars and generator descriptors as one block of bytes.
struct launch_operands {
  std::vector<legate::LogicalStore> stores;
  std::vector<std::string> views;
  std::vector<std::byte> bytes;

  template <class V>
  void append(const V& v) {
    static_assert(std::is_trivially_copyable_v<V>);
    const auto* p = reinterpret_cast<const std::byte*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof(V));
  }
};

// The store of an array of rank R seen with the output's shape (RO dimensions): new leading
// dimensions and size-1 dimensions broadcast, as NumPy broadcasts.
template <int R, int RO>
legate::LogicalStore broadcast_store(legate::LogicalStore s, const dims<R>& shape, const dims<RO>& out) {
  static_assert(R <= RO);
  for (int d = 0; d < RO - R; ++d) s = s.promote(d, static_cast<std::size_t>(out[static_cast<std::size_t>(d)]));
  for (int d = 0; d < R; ++d) {
    const auto od = static_cast<std::size_t>(RO - R + d);
    if (shape[static_cast<std::size_t>(d)] == 1 && out[od] != 1) s = s.broadcast(RO - R + d, static_cast<std::size_t>(out[od]));
  }
  return s;
}

template <std::size_t NO, class T, int R>
void collect(const array<T, R>& a, const std::array<index_t, NO>& out, launch_operands& ops) {
  ops.stores.push_back(broadcast_store<R, static_cast<int>(NO)>(a.store(), a.shape(), out));
  ops.views.push_back(a.view());
}
template <std::size_t NO, class S>
void collect(const scalar_term<S>& s, const std::array<index_t, NO>&, launch_operands& ops) {
  ops.append(s.value);
}
// A reduction's result (a one-element store of the reduced expression's rank) seen with the
// output's shape: its dimensions dropped or added, then stretched, so every piece reads the value.
template <std::size_t NO, class T>
void collect(const scalar<T>& v, const std::array<index_t, NO>& out, launch_operands& ops) {
  legate::LogicalStore s = v.store();
  while (s.dim() > NO) s = s.project(0, 0);
  for (std::uint32_t d = 0; s.dim() < NO; ++d) s = s.promote(d, static_cast<std::size_t>(out[d]));
  for (std::uint32_t d = 0; d < NO; ++d)
    if (s.extents()[d] == 1 && out[d] != 1) s = s.broadcast(d, static_cast<std::size_t>(out[d]));
  ops.stores.push_back(std::move(s));
  ops.views.push_back(v.view());
}
template <std::size_t NO, class Desc, int R>
void collect(const position_term<Desc, R>& p, const std::array<index_t, NO>& out, launch_operands& ops) {
  if constexpr (R != static_cast<int>(NO)) {
    throw shape_error("xf::dist: a generated operand of shape " + to_string(p.shape) + " in a statement of shape " + to_string(out) +
                      ": generators take the statement's shape");
  } else {
    if (p.shape != out)
      throw shape_error("xf::dist: a generated operand of shape " + to_string(p.shape) + " in a statement of shape " +
                        to_string(out) + ": generators take the statement's shape");
    ops.append(p.desc);
    ops.append(p.strides);
    ops.append(p.base);
  }
}
template <std::size_t NO, class Op, class... A>
void collect(const node_term<Op, A...>& n, const std::array<index_t, NO>& out, launch_operands& ops) {
  std::apply([&](const auto&... a) { (collect(a, out, ops), ...); }, n.operands);
}

// ---------------------------------------------------------------- checks at the caller
// The expression built once on the caller's side over empty host pieces: every check xfuse makes
// while building an expression (a C++ scalar out of an integer type's range, types an operation
// refuses) throws here, naming the operation, instead of inside a task.
template <int RO, class T, int R>
auto probe(const array<T, R>&) {
  return xf::array<T, RO, xf::host>::wrap(nullptr, dims<RO>{}, dims<RO>{});
}
template <int RO, class S>
S probe(const scalar_term<S>& s) {
  return s.value;
}
template <int RO, class T>
auto probe(const scalar<T>&) {
  return xf::array<T, RO, xf::host>::wrap(nullptr, dims<RO>{}, dims<RO>{});
}
template <int RO, class Desc, int R>
auto probe(const position_term<Desc, R>& p) {
  static_assert(R == RO, "xf::dist: a generated operand takes the statement's rank");
  return generator_node<Desc, RO>(p.desc, dims<RO>{}, p.strides, p.base);
}
template <int RO, class Op, class... A>
auto probe(const node_term<Op, A...>& n) {
  return std::apply([](const auto&... a) { return Op{}(probe<RO>(a)...); }, n.operands);
}

// ---------------------------------------------------------------- the local expression (in a task)
// Reads a task's operands in the order collect() wrote them.
template <int RO>
struct piece_reader {
  const legate::TaskContext& ctx;
  const std::byte* bytes;
  legate::Rect<RO> rect;  // the piece: every operand is read over it (common_rect)
  const std::uint32_t* inputs = nullptr;  // where each array operand is (step_args); none: inputs 0, 1, 2, ...
  std::uint32_t next_operand = 0;
  std::size_t offset = 0;

  legate::PhysicalStore next_input() {
    const std::uint32_t i = inputs != nullptr ? inputs[next_operand] : next_operand;
    ++next_operand;
    return (i & from_output) != 0 ? ctx.output(i & ~from_output).data() : ctx.input(i).data();
  }
  template <class V>
  V read() {
    V v;
    std::memcpy(&v, bytes + offset, sizeof(V));
    offset += sizeof(V);
    return v;
  }
};

template <class X>
struct type_tag {};

template <class Space, int RO, class T, int R>
auto rebuild(type_tag<array<T, R>>, piece_reader<RO>& in) {
  return local_piece<T, RO, Space>(in.next_input(), in.rect, false);
}
template <class Space, int RO, class T>
auto rebuild(type_tag<scalar<T>>, piece_reader<RO>& in) {
  return local_piece<T, RO, Space>(in.next_input(), in.rect, false);  // zero strides: one value
}
template <class Space, int RO, class S>
auto rebuild(type_tag<scalar_term<S>>, piece_reader<RO>& in) {
  return in.template read<S>();
}
template <class Space, int RO, class Desc, int R>
auto rebuild(type_tag<position_term<Desc, R>>, piece_reader<RO>& in) {
  static_assert(R == RO, "xf::dist: a generated operand takes the statement's rank");
  const auto desc = in.template read<Desc>();
  const auto strides = in.template read<dims<R>>();
  index_t base = in.template read<index_t>();
  for (int d = 0; d < R; ++d) base += static_cast<index_t>(in.rect.lo[d]) * strides[static_cast<std::size_t>(d)];
  return generator_node<Desc, RO>(desc, extents_of<RO>(in.rect), strides, base);
}
template <class Space, int RO, class Op, class... A>
auto rebuild(type_tag<node_term<Op, A...>>, piece_reader<RO>& in) {
  // A braced list evaluates left to right: operands are read in collect()'s order.
  std::tuple<typename local<Space, RO, A>::type...> operands{rebuild<Space, RO>(type_tag<A>{}, in)...};
  return std::apply(Op{}, std::move(operands));
}

}  // namespace detail

// ---------------------------------------------------------------- user-facing construction
template <class X>
concept term = detail::is_term<std::remove_cvref_t<X>>;

// A generator expression of xfuse (xf::random::uniform/normal/integers..., xf::arange,
// xf::linspace) as an operand of distributed statements: each piece evaluates it at its own
// global positions, so the values equal the single-array ones bit for bit.
template <class Desc, int R>
position_term<Desc, R> generated(const xf::detail::generator_node<Desc, R>& g) {
  const auto leaves = g.leaves();
  const auto& leaf = xf::detail::get<0>(leaves);
  if constexpr (requires { leaf.desc.key.recorded_start; }) {
    if (leaf.desc.key.recorded_start != nullptr)
      throw error("xf::dist::generated: a draw made inside xf::capture reads a device word of that graph; "
                  "make distributed draws outside a capture");
  }
  return {leaf.desc, leaf.shape, leaf.strides, leaf.base};
}

// Like xf::fuse: a captureless callable of xfuse operands becomes an operation on distributed
// operands. Its type is the task's identity, so it must be default-constructible (no captures).
template <class F>
struct fused_function {
  static_assert(std::is_empty_v<F> && std::is_default_constructible_v<F>,
                "xf::dist::fuse: a callable without captures (pass values as operands)");
  template <class... X>
  auto operator()(const X&... x) const {
    return detail::make_term<F>(x...);
  }
};
template <class F>
fused_function<F> fuse(F) {
  return {};
}

namespace detail::ops {
#define XF_DIST_OP_TYPE(NAME, EXPR)                 \
  struct NAME {                                     \
    template <class A, class B>                     \
    auto operator()(const A& a, const B& b) const { \
      return EXPR;                                  \
    }                                               \
  };
XF_DIST_OP_TYPE(plus, a + b)
XF_DIST_OP_TYPE(minus, a - b)
XF_DIST_OP_TYPE(multiplies, a * b)
XF_DIST_OP_TYPE(divides, a / b)
XF_DIST_OP_TYPE(less, a < b)
XF_DIST_OP_TYPE(less_equal, a <= b)
XF_DIST_OP_TYPE(greater, a > b)
XF_DIST_OP_TYPE(greater_equal, a >= b)
XF_DIST_OP_TYPE(equal_to, a == b)
XF_DIST_OP_TYPE(not_equal_to, a != b)
#undef XF_DIST_OP_TYPE
struct negate {
  template <class A>
  auto operator()(const A& a) const {
    return -a;
  }
};
}  // namespace detail::ops

#define XF_DIST_BINARY_OPERATOR(SYMBOL, OP)                                                              \
  template <class A, class B>                                                                            \
    requires(term<A> || term<B>)                                                                         \
  auto operator SYMBOL(const A& a, const B& b) {                                                         \
    return detail::make_term<detail::ops::OP>(a, b);                                                     \
  }
XF_DIST_BINARY_OPERATOR(+, plus)
XF_DIST_BINARY_OPERATOR(-, minus)
XF_DIST_BINARY_OPERATOR(*, multiplies)
XF_DIST_BINARY_OPERATOR(/, divides)
XF_DIST_BINARY_OPERATOR(<, less)
XF_DIST_BINARY_OPERATOR(<=, less_equal)
XF_DIST_BINARY_OPERATOR(>, greater)
XF_DIST_BINARY_OPERATOR(>=, greater_equal)
XF_DIST_BINARY_OPERATOR(==, equal_to)
XF_DIST_BINARY_OPERATOR(!=, not_equal_to)
#undef XF_DIST_BINARY_OPERATOR
template <term A>
auto operator-(const A& a) {
  return detail::make_term<detail::ops::negate>(a);
}

// Element-wise functions of distributed operands: xfuse's functions of the same names.
#define XF_DIST_FUNCTION(NAME)                                                  \
  namespace detail::ops {                                                       \
  struct NAME##_op {                                                            \
    template <class... A>                                                       \
    auto operator()(const A&... a) const {                                      \
      return ::xf::NAME(a...);                                                  \
    }                                                                           \
  };                                                                            \
  }                                                                             \
  template <class... A>                                                         \
    requires((term<A> || ...))                                                  \
  auto NAME(const A&... a) {                                                    \
    return detail::make_term<detail::ops::NAME##_op>(a...);                     \
  }
XF_DIST_FUNCTION(exp)
XF_DIST_FUNCTION(log)
XF_DIST_FUNCTION(sqrt)
XF_DIST_FUNCTION(abs)
XF_DIST_FUNCTION(sin)
XF_DIST_FUNCTION(cos)
XF_DIST_FUNCTION(tanh)
XF_DIST_FUNCTION(square)
XF_DIST_FUNCTION(maximum)
XF_DIST_FUNCTION(minimum)
XF_DIST_FUNCTION(power)
XF_DIST_FUNCTION(where)
XF_DIST_FUNCTION(isnan)
XF_DIST_FUNCTION(isfinite)
#undef XF_DIST_FUNCTION

}  // namespace xf::dist
