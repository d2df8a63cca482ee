// SPDX-License-Identifier: Apache-2.0
// Several assignments in one kernel: `xf::assign(xf::into(z1) = f(x, y), xf::into(z2) = g(x, y));`
// reads x and y once and writes z1 and z2 in the same walk. The result is always that of the
// assignments run one after another (z1.assign(f) then z2.assign(g)); they share one kernel when
// that cannot change it: destinations of one shape and layout on one device, none overlapping
// another, and no expression reading a destination other than at the element it writes, or one
// that an earlier assignment writes.
#pragma once

#include <tuple>
#include <type_traits>

#include "../expr/zip.hpp"
#include "evaluate.hpp"

namespace xf {
namespace detail {

// `into(z) = e`: an assignment described, run by xf::assign.
template <class T, int R, class Space, class E>
struct pending_assignment {
  array<T, R, Space> dst;  // a handle: shares the destination's memory
  E expr;
};

template <class A>
inline constexpr bool is_pending_assignment = false;
template <class T, int R, class Space, class E>
inline constexpr bool is_pending_assignment<pending_assignment<T, R, Space, E>> = true;

template <class T, int R, class Space>
struct destination {
  array<T, R, Space> dst;

  template <class E>
    requires operand<E>
  auto operator=(const E& e) const {
    using X = operand_t<E>;
    static_assert(std::is_same_v<space_t<X>, any_space> || std::is_same_v<space_t<X>, Space>,
                  "xf::into: the expression lives in another space (host vs device) than the array");
    static_assert(same_kind_castable<value_t<X>, T>,
                  "xf::into: this conversion goes down a kind (NumPy's same_kind rule, e.g. float to int); "
                  "write .astype<T>() to ask for it");
    static_assert(rank_v<X> <= R, "xf::into: the right side has a higher rank than the array");
    return pending_assignment<T, R, Space, X>{dst, as_operand(e)};
  }
};

// Whether some memory leaf of `e` reads any byte of `dst`.
template <class T, int R, class Space, class E>
bool reads_any_of(const array<T, R, Space>& dst, const E& e) {
  const byte_range written = range_of<R>(dst.data(), sizeof(T), dst.shape(), dst.strides().data(), 0);
  bool reads = false;
  for_each_memory_record(e, [&](const auto& rec) {
    using Record = std::remove_cvref_t<decltype(rec)>;
    const byte_range read = range_of<Record::rank>(rec.desc.ptr, sizeof(typename Record::desc_type::value_type), rec.shape,
                                                    rec.strides.data(), rec.base);
    reads = reads || read.overlaps(written);
  });
  return reads;
}

// Whether the assignments, in order, give the same result in one kernel (see the file's comment).
template <class A0, class... A>
bool assign_in_one_kernel(const A0& first, const A&... rest) {
  if constexpr ((deferred<decltype(first.expr)> || ... || deferred<decltype(rest.expr)>)) {
    return false;  // a matrix product or solve writes through its own library call
  } else if constexpr ((holds_pending_reduction<decltype(first.expr)> || ... || holds_pending_reduction<decltype(rest.expr)>) ||
                       (holds_producer<decltype(first.expr)> || ... || holds_producer<decltype(rest.expr)>)) {
    return false;  // a described reduction, scan or row function runs when its assignment runs, after the earlier ones
  } else {
    const auto& d0 = first.dst;
    if (((rest.dst.shape() != d0.shape() || rest.dst.strides() != d0.strides() || rest.dst.device_id() != d0.device_id()) || ...))
      return false;
    const auto dsts = std::tie(first.dst, rest.dst...);
    const auto exprs = std::tie(first.expr, rest.expr...);
    constexpr std::size_t n = 1 + sizeof...(A);
    bool ok = true;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (
          [&] {
            constexpr std::size_t i = I;
            [&]<std::size_t... J>(std::index_sequence<J...>) {
              (
                  [&] {
                    const auto& dst = std::get<J>(dsts);
                    if constexpr (J < i) {
                      // Destinations apart; an earlier assignment's destination is not read.
                      const byte_range a = range_of<rank_v<decltype(dst)>>(dst.data(), sizeof(*dst.data()), dst.shape(), dst.strides().data(), 0);
                      const auto& other = std::get<i>(dsts);
                      const byte_range b = range_of<rank_v<decltype(other)>>(other.data(), sizeof(*other.data()), other.shape(), other.strides().data(), 0);
                      ok = ok && !a.overlaps(b) && !reads_any_of(dst, std::get<i>(exprs));
                    } else {
                      // This or a later destination only at the element written (as a += b).
                      ok = ok && !reads_written_memory(dst.data(), dst.shape(), dst.strides(), std::get<i>(exprs));
                    }
                  }(),
                  ...);
            }(std::make_index_sequence<n>{});
          }(),
          ...);
    }(std::make_index_sequence<n>{});
    return ok;
  }
}

template <class A0, class... A>
void assign_together(const A0& first, const A&... rest) {
  using Space = typename decltype(first.dst)::space;
  using Out = tuple<typename decltype(first.dst)::value_type, typename decltype(rest.dst)::value_type...>;
  const zipped<Out, decltype(first.expr), decltype(rest.expr)...> all(first.expr, rest.expr...);
  const output_set<typename decltype(first.dst)::value_type, typename decltype(rest.dst)::value_type...> out{
      detail::make_tuple(first.dst.data(), rest.dst.data()...)};
  if constexpr (std::is_same_v<Space, device>) {
    const int cur = device::current_id();
    (require_access(rest.dst.device_id(), cur, "xf::assign"), ...);
  }
  run_expression<Space>(out, first.dst.device_id(), first.dst.shape(), first.dst.strides(), all, "xf::assign");
}

}  // namespace detail

// The destination of an assignment run by xf::assign: `xf::into(z) = expression`.
template <class T, int R, class Space>
detail::destination<T, R, Space> into(const array<T, R, Space>& dst) {
  return {dst};
}

// Runs assignments `xf::into(z) = e` as if one after another, in one kernel that reads every
// input once where that gives the same result (exec/assign_together.hpp says when).
//
//   xf::assign(xf::into(sum) = x + y, xf::into(difference) = x - y);
template <class A0, class... A>
  requires(detail::is_pending_assignment<A0> && (detail::is_pending_assignment<A> && ...))
void assign(const A0& first, const A&... rest) {
  // Each destination accepts its right side (shapes broadcast into it), or nothing runs.
  detail::check_assignable(first.dst, first.expr, "xf::assign");
  (detail::check_assignable(rest.dst, rest.expr, "xf::assign"), ...);
  constexpr bool one_rank_and_space =
      ((rank_v<decltype(rest.dst)> == rank_v<decltype(first.dst)> &&
        std::is_same_v<typename decltype(rest.dst)::space, typename decltype(first.dst)::space>) && ...);
  if constexpr (one_rank_and_space && sizeof...(A) > 0) {
    if (detail::assign_in_one_kernel(first, rest...)) {
      detail::assign_together(first, rest...);
      return;
    }
  }
  first.dst.assign(first.expr);
  (rest.dst.assign(rest.expr), ...);
}

}  // namespace xf
