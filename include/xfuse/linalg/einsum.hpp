// SPDX-License-Identifier: Apache-2.0
// xf::einsum<"bij,bjk->bik">(a, b): NumPy's einsum with the subscripts as a template argument, so
// that they are parsed and checked by the compiler and the result's rank is known. Lowering, the
// operands taken left to right:
//  - a label repeated in one operand is its diagonal (a strided view); a label found in no other
//    operand and not in the output is summed out first (one reduction);
//  - two operands with no label to contract multiply as one fused, broadcast element-wise kernel
//    (outer products, Hadamard products, scaling by a vector);
//  - otherwise they become one (batched) matrix product: (batch, left, contracted) @ (batch,
//    contracted, right), transposed and reshaped as views where the strides allow it (a copy
//    otherwise), on cuBLAS (device) or BLAS (host); integers through xf::matmul's integer path;
//  - the result is a view of the last product in the output's order.
// Labels are letters; the output (after "->") may be omitted (NumPy's implicit mode: the labels
// used once, in alphabetical order). Operands are cast to the result type first, as NumPy's; an
// extent of 1 broadcasts against the same label's extent elsewhere. Broadcast dimensions ("...")
// are not supported.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "../reduce/reductions.hpp"
#include "matmul.hpp"
#include "../base/nvtx_emit.hpp"

namespace xf {
namespace detail::einsum {

inline constexpr int max_labels = 26 * 2;
inline constexpr int max_operands = 16;

// NumPy's result type of all the operands.
template <class T, class... Rest>
struct promote_all {
  using type = T;
};
template <class T, class U, class... Rest>
struct promote_all<T, U, Rest...> : promote_all<promote_t<T, U>, Rest...> {};

// A string literal as a template argument.
template <std::size_t N>
struct subscripts_text {
  char text[N]{};
  constexpr subscripts_text(const char (&s)[N]) {  // NOLINT: implicit, for einsum<"ij,jk">
    for (std::size_t i = 0; i < N; ++i) text[i] = s[i];
  }
  constexpr std::string_view view() const { return {text, N - 1}; }
};

// The labels of one operand or of the output, in order.
struct labels {
  char name[max_labels]{};
  int count = 0;
  constexpr int find(char c) const {
    for (int i = 0; i < count; ++i)
      if (name[i] == c) return i;
    return -1;
  }
  constexpr bool has(char c) const { return find(c) >= 0; }
  constexpr void add(char c) { name[count++] = c; }
};

// What is wrong with a subscripts string (einsum names each in a static assertion of its own).
enum class mistake { none, too_many_operands, dash_without_arrow, ellipsis, not_a_letter, too_many_labels,
                     output_not_a_letter, output_repeated, output_unknown };

struct spec {
  labels in[max_operands]{};
  int operands = 0;
  labels out{};
  mistake error = mistake::none;  // parsing stops at the first
};

constexpr bool is_label(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

constexpr spec parse(std::string_view s) {
  spec p{};
  std::size_t i = 0;
  bool explicit_output = false;
  p.operands = 1;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c == ' ') continue;
    if (c == ',') {
      if (++p.operands > max_operands) return p.error = mistake::too_many_operands, p;
      continue;
    }
    if (c == '-') {
      if (i + 1 >= s.size() || s[i + 1] != '>') return p.error = mistake::dash_without_arrow, p;
      explicit_output = true;
      i += 2;
      break;
    }
    if (c == '.') return p.error = mistake::ellipsis, p;
    if (!is_label(c)) return p.error = mistake::not_a_letter, p;
    labels& l = p.in[p.operands - 1];
    if (l.count == max_labels) return p.error = mistake::too_many_labels, p;
    l.add(c);
  }
  if (explicit_output) {
    for (; i < s.size(); ++i) {
      const char c = s[i];
      if (c == ' ') continue;
      if (!is_label(c)) return p.error = mistake::output_not_a_letter, p;
      if (p.out.has(c)) return p.error = mistake::output_repeated, p;
      bool found = false;
      for (int k = 0; k < p.operands; ++k) found = found || p.in[k].has(c);
      if (!found) return p.error = mistake::output_unknown, p;
      p.out.add(c);
    }
  } else {  // implicit: the labels used exactly once, in alphabetical (character) order
    for (char c = 'A'; c <= 'z'; ++c) {
      if (!is_label(c)) continue;
      int uses = 0;
      for (int k = 0; k < p.operands; ++k)
        for (int j = 0; j < p.in[k].count; ++j) uses += p.in[k].name[j] == c;
      if (uses == 1) p.out.add(c);
    }
  }
  return p;
}

// Labels in order of first appearance, without repeats.
constexpr labels distinct(const labels& l) {
  labels r{};
  for (int i = 0; i < l.count; ++i)
    if (!r.has(l.name[i])) r.add(l.name[i]);
  return r;
}
constexpr labels keep_only(const labels& l, const labels& keep) {
  labels r{};
  for (int i = 0; i < l.count; ++i)
    if (keep.has(l.name[i])) r.add(l.name[i]);
  return r;
}
constexpr labels joined(const labels& a, const labels& b) {
  labels r = a;
  for (int i = 0; i < b.count; ++i)
    if (!r.has(b.name[i])) r.add(b.name[i]);
  return r;
}
// The labels operands after `k` and the output still need.
constexpr labels needed_after(const spec& p, int k) {
  labels r = p.out;
  for (int j = k + 1; j < p.operands; ++j) r = joined(r, p.in[j]);
  return r;
}

// The roles of the labels of a pair (a with la, b with lb), the rest needing `keep`.
struct pair_plan {
  labels batch, left, contracted, right, result;  // result: batch, left, right
};
constexpr pair_plan plan_pair(const labels& la, const labels& lb, const labels& keep) {
  pair_plan p{};
  for (int i = 0; i < la.count; ++i) {
    const char c = la.name[i];
    if (lb.has(c)) (keep.has(c) ? p.batch : p.contracted).add(c);
    else p.left.add(c);
  }
  for (int i = 0; i < lb.count; ++i)
    if (!la.has(lb.name[i])) p.right.add(lb.name[i]);
  p.result = joined(joined(p.batch, p.left), p.right);
  return p;
}

[[noreturn]] inline void extent_mismatch(char label, index_t x, index_t y) {
  throw shape_error(std::string("xf::einsum: label '") + label + "' has extents " + std::to_string(x) + " and " + std::to_string(y));
}

template <labels L, labels To, class T, int R, class S>
array<T, To.count, S> relabel_strided(const array<T, R, S>& a);

// A view of `a`, whose axes carry labels L (repeats allowed), with the axes of labels `To`: a
// label repeated in L becomes its diagonal (the strides added), a label of To absent from L an
// axis of extent 1. Every label of L is in To (or its axis has extent 1).
// To orders L's labels differently: L without repeats, To with the same labels.
constexpr bool is_permutation_of(const labels& l, const labels& to) {
  if (l.count != to.count || distinct(l).count != l.count) return false;
  for (int j = 0; j < to.count; ++j)
    if (!l.has(to.name[j])) return false;
  return true;
}

constexpr bool same_labels(const labels& x, const labels& y) {
  if (x.count != y.count) return false;
  for (int i = 0; i < x.count; ++i)
    if (x.name[i] != y.name[i]) return false;
  return true;
}

template <labels L, labels To, class T, int R, class S>
array<T, To.count, S> relabel(const array<T, R, S>& a) {
  if constexpr (same_labels(L, To)) {
    return a;  // nothing to change: the array itself
  } else if constexpr (is_permutation_of(L, To)) {
    dims<R> axes{};  // a transposed view (wrap would ask the driver about the pointer)
    for (int j = 0; j < R; ++j) axes[static_cast<std::size_t>(j)] = L.find(To.name[j]);
    return a.transpose(axes);
  } else {
    return relabel_strided<L, To>(a);
  }
}

// relabel's general case: diagonals (strides added) and new axes of extent 1, a view by wrap.
template <labels L, labels To, class T, int R, class S>
array<T, To.count, S> relabel_strided(const array<T, R, S>& a) {
  dims<To.count> shape{}, strides{};
  for (int j = 0; j < To.count; ++j) {
    const auto jj = static_cast<std::size_t>(j);
    shape[jj] = 1;
    bool seen = false;
    for (int i = 0; i < R; ++i) {
      if (L.name[i] != To.name[j]) continue;
      const index_t n = a.shape()[static_cast<std::size_t>(i)];
      if (seen && n != shape[jj]) extent_mismatch(L.name[i], shape[jj], n);
      shape[jj] = n;
      strides[jj] += a.strides()[static_cast<std::size_t>(i)];
      seen = true;
    }
  }
  return array<T, To.count, S>::wrap(const_cast<T*>(a.data()), shape, strides, a);
}

// Sums out the axes of `a` (distinct labels L) whose labels `keep` lacks, in a's element type
// (NumPy's einsum keeps the operands' type: int32 sums wrap in int32).
template <labels L, labels Keep, class T, int R, class S>
auto sum_out(const array<T, R, S>& a) {
  constexpr labels kept = keep_only(L, Keep);
  if constexpr (kept.count == L.count) {
    return a;
  } else {
    int axes[L.count - kept.count]{};
    for (int i = 0, k = 0; i < L.count; ++i)
      if (!Keep.has(L.name[i])) axes[k++] = i;
    return array<T, kept.count, S>(eval(::xf::sum(a, axes).template astype<T>()));
  }
}

// The extents of the labels of `group` in a (labels LA) or b (labels LB), equal where both have them.
template <labels Group, labels LA, labels LB, class A, class B>
dims<Group.count> group_extents(const A& a, const B& b) {
  dims<Group.count> e{};
  for (int j = 0; j < Group.count; ++j) {
    const char c = Group.name[j];
    const int ia = LA.find(c), ib = LB.find(c);
    const index_t x = ia >= 0 ? a.shape()[static_cast<std::size_t>(ia)] : -1;
    const index_t y = ib >= 0 ? b.shape()[static_cast<std::size_t>(ib)] : -1;
    if (x >= 0 && y >= 0 && x != y && x != 1 && y != 1) extent_mismatch(c, x, y);  // 1 broadcasts, as NumPy's
    e[static_cast<std::size_t>(j)] = x < 0 || x == 1 ? (y >= 0 ? y : x) : x;
  }
  return e;
}

template <std::size_t A, std::size_t B, std::size_t C>
std::array<index_t, A + B + C> concatenated(const std::array<index_t, A>& a, const std::array<index_t, B>& b, const std::array<index_t, C>& c) {
  std::array<index_t, A + B + C> r{};
  std::size_t at = 0;
  for (const index_t e : a) r[at++] = e;
  for (const index_t e : b) r[at++] = e;
  for (const index_t e : c) r[at++] = e;
  return r;
}

template <std::size_t N>
index_t volume(const std::array<index_t, N>& d) {
  index_t v = 1;
  for (const index_t x : d) v *= x;
  return v;
}

// The product of two operands with distinct labels LA and LB (labels that neither the other nor
// `Keep` has already summed out), with labels plan_pair(LA, LB, Keep).result.
template <labels LA, labels LB, labels Keep, class TA, int RA, class TB, int RB, class S>
auto contract_pair(const array<TA, RA, S>& a, const array<TB, RB, S>& b) {
  constexpr pair_plan p = plan_pair(LA, LB, Keep);
  const auto batch = group_extents<p.batch, LA, LB>(a, b);
  const auto left = group_extents<p.left, LA, LB>(a, b);
  const auto right = group_extents<p.right, LA, LB>(a, b);
  const auto contracted = group_extents<p.contracted, LA, LB>(a, b);
  if constexpr (p.contracted.count == 0) {
    // Nothing to sum: one broadcast element-wise product in the result's order.
    return eval(relabel<LA, p.result>(a) * relabel<LB, p.result>(b));
  } else {
    constexpr labels a_order = joined(joined(p.batch, p.left), p.contracted);
    constexpr labels b_order = joined(joined(p.batch, p.contracted), p.right);
    const index_t nb = volume(batch), m = volume(left), n = volume(right), k = volume(contracted);
    // Extents of 1 broadcast against the other operand's (a view; reshape copies it if needed).
    const auto x = relabel<LA, a_order>(a).broadcast_to(concatenated(batch, left, contracted)).reshape(std::array<index_t, 3>{nb, m, k});
    const auto y = relabel<LB, b_order>(b).broadcast_to(concatenated(batch, contracted, right)).reshape(std::array<index_t, 3>{nb, k, n});
    const auto c = eval(matmul(x, y));
    return c.reshape(concatenated(batch, left, right));
  }
}

// Takes the operands after K into `current` (distinct labels LC) left to right, then returns
// the result in the output's order.
template <spec P, int K, labels LC, class T, int R, class S, class... Rest>
auto fold(const array<T, R, S>& current, const Rest&... rest) {
  if constexpr (K == P.operands) {
    return relabel<LC, P.out>(current);
  } else {
    return [&](const auto& next, const auto&... later) {
      constexpr labels keep = needed_after(P, K);
      constexpr labels lb = distinct(P.in[K]);
      const auto b = relabel<P.in[K], lb>(next);
      constexpr labels lb_kept = keep_only(lb, joined(keep, LC));
      constexpr labels lc_kept = keep_only(LC, joined(keep, lb_kept));
      const auto r = contract_pair<lc_kept, lb_kept, keep>(sum_out<LC, joined(keep, lb_kept)>(current), sum_out<lb, joined(keep, LC)>(b));
      return fold<P, K + 1, plan_pair(lc_kept, lb_kept, keep).result>(r, later...);
    }(rest...);
  }
}

template <spec P, class T, int R, class S, class... Rest>
auto run(const array<T, R, S>& first, const Rest&... rest) {
  constexpr labels l0 = distinct(P.in[0]);
  const auto a = relabel<P.in[0], l0>(first);
  return fold<P, 1, keep_only(l0, needed_after(P, 0))>(sum_out<l0, needed_after(P, 0)>(a), rest...);
}

// One operand's rank against its subscripts. The failing instantiation names the subscripts, the
// operand's position (from 0), how many subscripts it has and its rank.
template <subscripts_text Text, int Operand, int Subscripts, int Rank>
constexpr bool operand_rank_matches() {
  static_assert(Subscripts == Rank,
                "xf::einsum: an operand's rank differs from the number of its subscripts (the instantiation names the "
                "subscripts Text, the Operand's position from 0, its Subscripts and its Rank)");
  return Subscripts == Rank;
}
template <subscripts_text Text, spec P, class... E, std::size_t... I>
constexpr bool ranks_match(std::index_sequence<I...>) {
  return (operand_rank_matches<Text, static_cast<int>(I), P.in[I].count, rank_v<E>>() && ...);
}

// The subscripts' mistakes, each a static assertion with its own message.
template <spec P>
constexpr bool well_formed() {
  static_assert(P.error != mistake::too_many_operands, "xf::einsum: more than 16 operands");
  static_assert(P.error != mistake::dash_without_arrow, "xf::einsum: '-' not followed by '>'");
  static_assert(P.error != mistake::ellipsis, "xf::einsum: '...' (broadcast dimensions) is not supported; name every dimension");
  static_assert(P.error != mistake::not_a_letter, "xf::einsum: subscripts are letters");
  static_assert(P.error != mistake::too_many_labels, "xf::einsum: too many labels in one operand");
  static_assert(P.error != mistake::output_not_a_letter, "xf::einsum: the output's subscripts are letters");
  static_assert(P.error != mistake::output_repeated, "xf::einsum: a label repeated in the output");
  static_assert(P.error != mistake::output_unknown, "xf::einsum: an output label that no operand has");
  return P.error == mistake::none;
}

}  // namespace detail::einsum

// np.einsum(subscripts, *operands) with the subscripts as a template argument:
// xf::einsum<"bij,bjk->bik">(a, b), xf::einsum<"ii">(a) (the trace), xf::einsum<"ij->ji">(a).
// Operands are device or host arrays or expressions (evaluated once); the result type is NumPy's
// (the operands' promoted type; sums of integers wrap in it).
template <detail::einsum::subscripts_text Text, expression... E>
auto einsum(const E&... operands) {
  static constexpr detail::einsum::spec subscripts = detail::einsum::parse(Text.view());
  constexpr bool parsed = detail::einsum::well_formed<subscripts>();
  static_assert(!parsed || sizeof...(E) == static_cast<std::size_t>(subscripts.operands),
                "xf::einsum: the number of operands differs from the number of comma-separated subscripts");
  if constexpr (parsed && sizeof...(E) == static_cast<std::size_t>(subscripts.operands)) {
    if constexpr (detail::einsum::ranks_match<Text, subscripts, E...>(std::index_sequence_for<E...>{})) {
      using S = detail::operands_space_t<E...>;
      const detail::nvtx_range range("xf::einsum");
      using T = typename detail::einsum::promote_all<value_t<E>...>::type;  // NumPy casts every operand to it first
      const auto as_result_type = [](const auto& e) { return detail::as_array_of<T, S>(e); };
      return detail::einsum::run<subscripts>(as_result_type(operands)...);
    }
  }
}

}  // namespace xf
