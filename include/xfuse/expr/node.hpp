// SPDX-License-Identifier: Apache-2.0
// Expression nodes (host side: they hold their operands and the broadcast shape) and their
// evaluators (device side: plain functors that compute one element from the leaves' values).
#pragma once

#include <string>
#include <type_traits>

#include "../base/error.hpp"
#include "../base/shape.hpp"
#include "leaf.hpp"
#include "promotion.hpp"
#include "traits.hpp"

namespace xf {
namespace detail {

// ---------------------------------------------------------------- broadcasting
template <std::size_t A, std::size_t B>
constexpr std::size_t max_rank = A > B ? A : B;

template <class... I>
constexpr int max_of(I... v) {
  int m = 0;
  ((m = v > m ? v : m), ...);
  return m;
}

// NumPy broadcasting of two shapes, right-aligned; throws shape_error naming the operation.
template <std::size_t A, std::size_t B>
std::array<index_t, max_rank<A, B>> broadcast_shapes(const std::array<index_t, A>& a,
                                                     const std::array<index_t, B>& b, const char* op) {
  constexpr std::size_t R = max_rank<A, B>;
  std::array<index_t, R> out{};
  for (std::size_t i = 0; i < R; ++i) {
    const index_t ea = (A != 0 && i < A) ? a[A - 1 - i] : 1;
    const index_t eb = (B != 0 && i < B) ? b[B - 1 - i] : 1;
    if (ea != eb && ea != 1 && eb != 1)
      throw shape_error(std::string(op) + ": cannot broadcast " + to_string(a) + " with " + to_string(b));
    out[R - 1 - i] = ea == 1 ? eb : ea;
  }
  checked_size(out, 1, op);  // (2^32, 1) with (1, 2^32) has 2^64 elements
  return out;
}

// ---------------------------------------------------------------- operand typing
// An operand's element type and whether it is a weak C++ scalar.
template <class T, bool Weak>
struct wtype {
  using type = T;
  static constexpr bool weak = Weak;
};

template <class T>
using default_of = std::conditional_t<is_bool<T>, bool,
                   std::conditional_t<std::is_integral_v<T>, std::int64_t,
                   std::conditional_t<is_complex<T>, complex128, double>>>;

template <class A, class B>
constexpr auto combine_wtypes() {
  using TA = typename A::type;
  using TB = typename B::type;
  if constexpr (!A::weak && !B::weak) return wtype<promote_t<TA, TB>, false>{};
  else if constexpr (!A::weak) return wtype<promote_weak_t<TA, TB>, false>{};
  else if constexpr (!B::weak) return wtype<promote_weak_t<TB, TA>, false>{};
  else return wtype<promote_t<default_of<TA>, default_of<TB>>, true>{};
}

template <class... W>
struct promote_all;
template <class W>
struct promote_all<W> {
  using type = W;
};
template <class A, class B, class... Rest>
struct promote_all<A, B, Rest...> {
  using type = typename promote_all<decltype(combine_wtypes<A, B>()), Rest...>::type;
};

// The element type operands meet in: NumPy's result_type with weak scalars.
template <class... W>
using promoted_t = typename promote_all<W...>::type::type;

// ---------------------------------------------------------------- evaluators
// Leaf k's value for the current element.
template <int K, class T>
struct slot {
  template <class V>
  XF_HD XF_FORCEINLINE T operator()(const V& v) const {
    return get<K>(v);
  }
};

template <class T>
struct constant {
  T value;
  template <class V>
  XF_HD XF_FORCEINLINE T operator()(const V&) const {
    return value;
  }
};

template <class Op, class In, class Out, class... Evals>
struct nary_eval {
  Op op;
  tuple<Evals...> evals;

  template <class V>
  XF_HD XF_FORCEINLINE Out operator()(const V& v) const {
    return call(v, std::make_integer_sequence<int, sizeof...(Evals)>{});
  }

 private:
  template <class V, int... I>
  XF_HD XF_FORCEINLINE Out call(const V& v, std::integer_sequence<int, I...>) const {
    return Op::template eval<In, Out>(op, get<I>(evals)(v)...);
  }
};

// ---------------------------------------------------------------- scalar node
// A C++ scalar inside an expression: rank 0, no leaf, weak for NEP 50.
template <class S>
class scalar_node {
 public:
  using xf_expression_tag = void;
  using value_type = S;
  using space = any_space;
  static constexpr int rank = 0;
  static constexpr int leaf_count = 0;
  static constexpr bool weak = true;

  explicit scalar_node(S v) : value_(v) {}
  dims<0> shape() const { return {}; }
  auto leaves() const { return tuple<>{}; }
  template <int First>
  constant<S> evaluator() const {
    return {value_};
  }
  S value() const { return value_; }

 private:
  S value_;
};

template <class E>
struct is_weak : std::false_type {};
template <class S>
struct is_weak<scalar_node<S>> : std::true_type {};

template <class E>
using wtype_of = wtype<value_t<E>, is_weak<E>::value>;

// Operands are stored by value: arrays as shared handles, nodes as they are, scalars wrapped.
template <class X>
auto as_operand(const X& x) {
  if constexpr (expression<X>) return x;
  else return scalar_node<std::remove_cvref_t<X>>(x);
}
template <class X>
using operand_t = decltype(as_operand(std::declval<const X&>()));

template <class C>
constexpr int leaf_count_of = std::remove_cvref_t<C>::leaf_count;

// Throws when a weak integer scalar does not fit the integer type it joins (NumPy raises
// OverflowError for int8_array + 300).
template <class In, class C>
void check_weak_fits(const C& c, const char* op) {
  if constexpr (is_weak<C>::value && is_integer<In> && std::is_integral_v<value_t<C>> && !is_bool<value_t<C>>) {
    const auto v = c.value();
    bool fits;
    if constexpr (std::is_signed_v<decltype(v)>)
      fits = v >= 0 ? static_cast<std::uint64_t>(v) <= static_cast<std::uint64_t>(std::numeric_limits<In>::max())
                    : static_cast<std::int64_t>(v) >= static_cast<std::int64_t>(std::numeric_limits<In>::min());
    else
      fits = static_cast<std::uint64_t>(v) <= static_cast<std::uint64_t>(std::numeric_limits<In>::max());
    if (!fits)
      throw dtype_error(std::string(op) + ": the scalar " + std::to_string(v) + " is out of bounds for " +
                        dtype_name<In>);
  }
}

// ---------------------------------------------------------------- the n-ary node
template <class Op, class... Cs>
class node {
 public:
  using xf_expression_tag = void;
  using signature = typename Op::template signature<wtype_of<Cs>...>;
  using input_type = typename signature::in;
  using value_type = typename signature::out;
  using space = common_space_t<space_t<Cs>...>;
  static constexpr int rank = max_of(rank_v<Cs>...);
  static constexpr int leaf_count = (leaf_count_of<Cs> + ...);
  XF_SPACES_MATCH(space_t<Cs>...);

  // The operands arrive by value (as_operand's copies) and move in: one reference count taken an
  // array operand a node, not two.
  explicit node(const Op& op, Cs... cs) : op_(op), shape_(checked_shape(cs...)), children_{moved_in(std::move(cs)...)} {}

  dims<rank> shape() const { return shape_; }
  index_t size() const { return product(shape_); }

  auto leaves() const { return leaves_impl(std::make_integer_sequence<int, sizeof...(Cs)>{}); }

  template <int First>
  auto evaluator() const {
    return evaluator_impl<First>(std::make_integer_sequence<int, sizeof...(Cs)>{});
  }

  const Op& op() const { return op_; }
  const tuple<Cs...>& children() const { return children_; }

  // NumPy's astype, lazily: one more node of the same fused kernel.
  template <element To>
  auto astype() const;

 private:
  static dims<rank> checked_shape(const Cs&... cs) {
    (check_weak_fits<input_type>(cs, Op::name), ...);
    return fold_shapes(cs...);
  }
  static tuple<Cs...> moved_in(Cs&&... cs) {
    return [&]<int... I>(std::integer_sequence<int, I...>) {
      return tuple<Cs...>{{tuple_leaf<I, Cs>{std::move(cs)}...}};
    }(std::make_integer_sequence<int, sizeof...(Cs)>{});
  }

  template <class C0, class... Rest>
  static dims<rank> fold_shapes(const C0& c0, const Rest&... rest) {
    auto s = c0.shape();
    if constexpr (sizeof...(Rest) == 0) {
      dims<rank> out{};
      for (int i = 0; i < rank; ++i) out[i] = s[i];  // rank == rank of c0
      return out;
    } else {
      return fold_rest(s, rest...);
    }
  }
  template <std::size_t A, class C1, class... Rest>
  static dims<rank> fold_rest(const std::array<index_t, A>& s, const C1& c1, const Rest&... rest) {
    auto b = broadcast_shapes(s, c1.shape(), Op::name);
    if constexpr (sizeof...(Rest) == 0) return b;
    else return fold_rest(b, rest...);
  }

  template <int... I>
  auto leaves_impl(std::integer_sequence<int, I...>) const {
    return detail::tuple_cat(tuple<>{}, get<I>(children_).leaves()...);
  }

  template <int I>
  static constexpr int offset_of() {
    constexpr int counts[] = {leaf_count_of<Cs>..., 0};
    int o = 0;
    for (int i = 0; i < I; ++i) o += counts[i];
    return o;
  }

  template <int First, int... I>
  auto evaluator_impl(std::integer_sequence<int, I...>) const {
    using E = nary_eval<Op, input_type, value_type,
                        decltype(get<I>(children_).template evaluator<First + offset_of<I>()>())...>;
    return E{op_, detail::make_tuple(get<I>(children_).template evaluator<First + offset_of<I>()>()...)};
  }

  Op op_;
  dims<rank> shape_{};
  tuple<Cs...> children_;
};

template <class Op, class... X>
auto make_node(const Op& op, const X&... x) {
  return node<Op, operand_t<X>...>(op, as_operand(x)...);
}

}  // namespace detail

namespace detail {

// Whether E is an operand of a kind (Kind<E>::value), or has one among its operands at any depth
// of nodes: the described reductions, scans and producers that evaluation looks for.
template <template <class> class Kind, class E>
inline constexpr bool holds_kind = Kind<std::remove_cvref_t<E>>::value;
template <template <class> class Kind, class Op, class... Cs>
inline constexpr bool holds_kind<Kind, node<Op, Cs...>> = (holds_kind<Kind, Cs> || ...);

}  // namespace detail

// Something that may stand beside an expression in an operator: an expression or a C++ scalar.
template <class X>
concept operand = expression<X> || weak_scalar<X>;

}  // namespace xf
