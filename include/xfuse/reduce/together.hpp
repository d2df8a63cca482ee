// SPDX-License-Identifier: Apache-2.0
// Several reductions in one pass: `auto [s, q, m] = xf::eval(xf::lazy::sum(x), xf::lazy::sum(x * x),
// xf::lazy::max(x));` reads x once. The expressions are zipped into one whose value is the tuple of
// theirs (expr/zip.hpp), the reducers into one whose accumulator is the tuple of theirs, and the ordinary
// reduction plan and kernel run it; a leaf that several expressions read is loaded once (the
// plan's aliases). Reductions over different shapes or axes run one after another.
#pragma once

#include <tuple>
#include <utility>

#include "reductions.hpp"
#include "../exec/outputs.hpp"
#include "../expr/zip.hpp"
#include "pending.hpp"
#include "plan.hpp"
#include "reducers.hpp"

namespace xf {
namespace detail {

// Reducers side by side: reducer I folds component I of the zipped value into component I of the
// accumulator (reducers.hpp's four functions, component-wise).
template <class... Ops>
struct reducers_together {
  using acc_type = tuple<typename Ops::acc_type...>;
  using out_type = tuple<typename Ops::out_type...>;
  using out_pointer = output_set<typename Ops::out_type...>;  // one result array each, same positions
  static constexpr bool needs_elements = (needs_elements_v<Ops> || ...);
  static constexpr auto each = std::make_integer_sequence<int, sizeof...(Ops)>{};
  tuple<Ops...> ops;

  // A tuple of type T whose component I is f(std::integral_constant<int, I>).
  template <class T, class F>
  XF_HD XF_FORCEINLINE static T build(const F& f) {
    return [&]<int... I>(std::integer_sequence<int, I...>) {
      return T{{tuple_leaf<I, tuple_element_t<I, T>>{f(std::integral_constant<int, I>{})}...}};
    }(each);
  }

  XF_HD acc_type identity() const {
    return build<acc_type>([&](auto i) {
      constexpr int K = decltype(i)::value;
      return get<K>(ops).identity();
    });
  }
  template <class Values>
  XF_HD XF_FORCEINLINE acc_type map(const Values& v, index_t r) const {
    return build<acc_type>([&](auto i) {
      constexpr int K = decltype(i)::value;
      return get<K>(ops).map(get<K>(v), r);
    });
  }
  XF_HD XF_FORCEINLINE acc_type combine(const acc_type& a, const acc_type& b) const {
    return build<acc_type>([&](auto i) {
      constexpr int K = decltype(i)::value;
      return get<K>(ops).combine(get<K>(a), get<K>(b));
    });
  }
  // b's elements all follow a's (a thread's own walk): each reducer's cheaper append where it has one.
  XF_HD XF_FORCEINLINE acc_type append(const acc_type& a, const acc_type& b) const {
    return build<acc_type>([&](auto i) {
      constexpr int K = decltype(i)::value;
      const auto& op = get<K>(ops);
      if constexpr (requires { op.append(get<K>(a), get<K>(b)); }) return op.append(get<K>(a), get<K>(b));
      else return op.combine(get<K>(a), get<K>(b));
    });
  }
  XF_HD out_type finish(const acc_type& a, index_t n) const {
    return build<out_type>([&](auto i) {
      constexpr int K = decltype(i)::value;
      return get<K>(ops).finish(get<K>(a), n);
    });
  }
};

// Whether the reductions walk the same elements the same way: equal shapes and equal axes.
template <class P0, class... P>
bool share_one_walk(const P0& first, const P&... rest) {
  return ((rest.expr.shape() == first.expr.shape() && rest.axes == first.axes) && ...);
}

// The reductions in one pass (they share one walk: share_one_walk).
template <class P0, class... P>
auto reduce_together(const P0& first, const P&... rest) {
  constexpr std::size_t N = P0::axis_count;
  constexpr int RK = rank_v<typename P0::expression_type> - static_cast<int>(N);
  using S = resolved_space_t<common_space_t<space_t<typename P0::expression_type>, space_t<typename P::expression_type>...>>;
  const auto shape = shape_of_reduction(first.expr.shape(), first.axes);
  auto results = std::make_tuple(array<typename P0::op_type::out_type, RK, S>(shape.kept),
                                 array<typename P::op_type::out_type, RK, S>(shape.kept)...);
  const index_t count = std::get<0>(results).size();
  check_has_elements<typename P0::op_type>(shape.reduced_count, count, first.expr.shape(), first.name);
  (check_has_elements<typename P::op_type>(shape.reduced_count, count, rest.expr.shape(), rest.name), ...);
  if (count > 0) {
    const zipped<void, typename P0::expression_type, typename P::expression_type...> all(first.expr, rest.expr...);
    using Op = reducers_together<typename P0::op_type, typename P::op_type...>;
    const Op op{detail::make_tuple(first.op, rest.op...)};
    const auto out = std::apply([](auto&... r) { return typename Op::out_pointer{detail::make_tuple(r.data()...)}; }, results);
    run_reduce_plan(make_reduce_plan(all, first.axes, op, out), all, "xf::eval");
  }
  // Each result as its own reduction gives it: with the reduced axes as 1 where it asked keepdims.
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::make_tuple([&]<std::size_t K>(std::integral_constant<std::size_t, K>) {
      if constexpr (std::tuple_element_t<K, std::tuple<P0, P...>>::keep) return std::get<K>(results).reshape(shape.with_ones);
      else return std::get<K>(results);
    }(std::integral_constant<std::size_t, I>{})...);
  }(std::index_sequence_for<P0, P...>{});
}

}  // namespace detail

// Runs several described reductions (xf::lazy::sum, xf::lazy::max, ...) and returns their results
// as a std::tuple, in order. Reductions of expressions of one shape over the same axes run in one
// pass that reads each input once; otherwise each runs as its own pass.
//
//   auto [s, q, m] = xf::eval(xf::lazy::sum(x), xf::lazy::sum(x * x), xf::lazy::max(x));
//   auto [mu, var] = xf::eval(xf::lazy::mean(A, 0), xf::lazy::var(A, 0));
template <class P0, class... P>
  requires(detail::is_pending_reduction<P0> && (detail::is_pending_reduction<P> && ...))
auto eval(const P0& first, const P&... rest) {
  XF_SPACES_MATCH(space_t<typename P0::expression_type>, space_t<typename P::expression_type>...);
  constexpr bool same_kind = ((rank_v<typename P::expression_type> == rank_v<typename P0::expression_type> &&
                               P::axis_count == P0::axis_count) && ...);
  if constexpr (same_kind && sizeof...(P) > 0) {
    if (detail::share_one_walk(first, rest...)) return detail::reduce_together(first, rest...);
  }
  // Separate passes, each into the descriptions' common space (a generator's reduction beside host
  // arrays runs on the host).
  using S = resolved_space_t<common_space_t<space_t<typename P0::expression_type>, space_t<typename P::expression_type>...>>;
  return std::make_tuple(first.template run<S>(), rest.template run<S>()...);
}

}  // namespace xf
