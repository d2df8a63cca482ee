// SPDX-License-Identifier: Apache-2.0
// A reduction along one axis whose result feeds element-wise work over the same axis: softmax,
// log-softmax, logsumexp, layer norm and RMS norm, read once. A "row" is the elements of the expression along the axis.
// The plan is a reduce_plan (reduce/plan.hpp) whose `kept` layout walks the rows (its output
// positions are the rows' first outputs) and whose `reduced` layout walks one row (its output
// stride is the step between a row's outputs). A row's values stay on chip (row_kernel.cuh) or in
// a buffer (the host loop) while its maximum and its sum of exponentials are folded; the outputs
// are then computed from them. The formulas are SciPy's (scipy.special.softmax, log_softmax,
// logsumexp) and PyTorch's (layer_norm, rms_norm), the same on the host and the device.
#pragma once

#include <limits>
#include <vector>

#include "../exec/operands.hpp"
#include "../exec/epilogue.hpp"
#include "plan.hpp"

namespace xf::detail {

// What a row becomes.
enum class row_result {
  softmax,      // exp(x - max) / sum(exp(x - max))
  log_softmax,  // (x - shift) - log(sum(exp(x - shift))), shift = max where finite, else 0
  logsumexp,    // log(sum(exp(x - shift))) + shift, one value per row
  layer_norm,   // (x - mean) / sqrt(var + eps) * weight + bias, var the mean squared deviation
  rms_norm,     // x / sqrt(mean(x * x) + eps) * weight
};

template <row_result What>
inline constexpr bool is_softmax_kind = What == row_result::softmax || What == row_result::log_softmax || What == row_result::logsumexp;

// What a row's outputs go through after the row function: for the norms, eps and the optional
// weight and bias along the row (null when absent), each with its step in elements; then the
// epilogue (exec/producer.hpp): the expression that uses the row function's result, run in its
// store, or nothing.
template <class V, class C, class Epilogue = no_epilogue>
struct row_finish {
  C eps = C(0);
  const V* weight = nullptr;
  index_t weight_step = 0;
  const V* bias = nullptr;
  index_t bias_step = 0;
  Epilogue epilogue;

  // The norm's output of an element at position r of its row, normalised as `normalised`.
  XF_HD XF_FORCEINLINE C apply(C normalised, index_t r) const {
    if (weight) normalised *= convert<C>(weight[r * weight_step]);
    if (bias) normalised += convert<C>(bias[r * bias_step]);
    return normalised;
  }
  // What is stored for a value of the row function at position r of row `row` (the epilogue's
  // row_type for that row), as type Out.
  template <class Out>
  XF_HD XF_FORCEINLINE Out store(const typename Epilogue::row_type& row, C value, index_t r) const {
    return epilogue.template apply<Out>(row, value, r);
  }
};

// The reducer type the row plan carries: each element converted to the compute type C.
template <class In, class C, class Out>
struct row_values {
  using acc_type = C;
  using out_type = Out;
  XF_HD XF_FORCEINLINE C map(const In& v, index_t) const { return convert<C>(v); }
};

// max that propagates NaN, as np.max does (a NaN anywhere in a row makes every output NaN).
template <class C>
XF_HD XF_FORCEINLINE C nan_max(C a, C b) {
  if (a != a) return a;
  if (b != b) return b;
  return a > b ? a : b;
}

// What is subtracted before the exponentials: SciPy's softmax takes the maximum as it is, its
// log_softmax and logsumexp take 0 where the maximum is not finite (a row of -inf then gives -inf).
template <row_result What, class C>
XF_HD XF_FORCEINLINE C row_shift(C max) {
  if constexpr (What == row_result::softmax) return max;
  else return max - max == C(0) ? max : C(0);  // finite
}

// The value written for an element whose shifted value is `shifted` (x - shift) and whose
// exponential is `e`, in a row whose sum of exponentials is `sum`.
template <row_result What, class C>
XF_HD XF_FORCEINLINE C row_output(C shifted, C e, C sum) {
  if constexpr (What == row_result::softmax) return e / sum;
  else return shifted - math::r_log(sum);
}

// A row's shift (what is subtracted before the exponentials) and sum of exponentials: all that
// its outputs need besides its own values.
template <class C>
struct row_stats {
  C shift;
  C sum;
};

// The online form of a row's statistics (Milakov and Gimelshein, 2018), for rows that do not stay
// on chip: a running maximum and the sum of exp(x - running maximum), rescaled when the maximum
// grows, so the row is read once. A row whose maximum is not finite gets SciPy's answers in
// `finish`: softmax NaN; log_softmax and logsumexp shift by 0 and sum exp(x) directly (0 for a row
// of -inf, inf when +inf is present, NaN with a NaN).
template <row_result What, class In, class C>
struct online_row_reducer {
  struct acc_type {
    C max;
    C sum;
  };
  using out_type = row_stats<C>;
  XF_HD static acc_type identity() { return {-limits<C>::infinity(), C(0)}; }
  XF_HD XF_FORCEINLINE acc_type map(const In& v, index_t) const { return {convert<C>(v), C(1)}; }
  XF_HD XF_FORCEINLINE acc_type combine(const acc_type& a, const acc_type& b) const {
    const C max = nan_max(a.max, b.max);
    if (!(max - max == C(0))) return {max, C(0)};  // not finite: the sum is decided in finish
    const C a_scale = a.max == max ? C(1) : math::r_exp(a.max - max);
    const C b_scale = b.max == max ? C(1) : math::r_exp(b.max - max);
    return {max, a.sum * a_scale + b.sum * b_scale};
  }
  XF_HD out_type finish(const acc_type& a, index_t) const {
    if (a.max - a.max == C(0)) return {a.max, a.sum};
    const C inf = limits<C>::infinity(), nan = limits<C>::quiet_NaN();
    if constexpr (What == row_result::softmax) return {a.max, nan};
    else return {C(0), a.max == inf ? inf : a.max == -inf ? C(0) : nan};
  }
};

// A normalising row's mean (0 for RMS norm) and 1 / sqrt(variance + eps) (of the mean square for
// RMS norm): all that its outputs need besides its values and the weight and bias.
template <class C>
struct norm_stats {
  C mean;
  C inverse_std;
};

// The one-read form of a normalising row's statistics, for rows that do not stay on chip. Layer
// norm merges counts, means and summed squared deviations pairwise (Chan et al.: no cancellation);
// RMS norm sums squares (a pairwise mean of squares would turn two infinite parts into NaN).
template <row_result What, class In, class C>
struct norm_row_reducer {
  struct acc_type {
    index_t count;
    C mean;  // RMS norm: the sum of squares
    C m2;
  };
  using out_type = norm_stats<C>;
  C eps = C(0);
  XF_HD static acc_type identity() { return {0, C(0), C(0)}; }
  XF_HD XF_FORCEINLINE acc_type map(const In& v, index_t) const {
    const C x = convert<C>(v);
    return {1, What == row_result::rms_norm ? x * x : x, C(0)};
  }
  XF_HD XF_FORCEINLINE acc_type combine(const acc_type& a, const acc_type& b) const {
    if constexpr (What == row_result::rms_norm) {
      return {a.count + b.count, a.mean + b.mean, C(0)};
    } else {
      if (a.count == 0) return b;
      if (b.count == 0) return a;
      const index_t n = a.count + b.count;
      const C b_share = static_cast<C>(b.count) / static_cast<C>(n);
      const C delta = b.mean - a.mean;
      return {n, a.mean + delta * b_share, a.m2 + b.m2 + delta * delta * static_cast<C>(a.count) * b_share};
    }
  }
  XF_HD out_type finish(const acc_type& a, index_t) const {
    if constexpr (What == row_result::rms_norm) return {C(0), C(1) / math::r_sqrt(a.mean / static_cast<C>(a.count) + eps)};
    else return {a.mean, C(1) / math::r_sqrt(a.m2 / static_cast<C>(a.count) + eps)};
  }
};

// The layout that walks the rows of `shape` along `axis` (every dimension but the axis), for the
// operands `ops` and a destination of strides `out_strides`: row o is the same row for every plan
// built from the same shape and destination (the row plan's `kept`, a row epilogue's `lines`).
template <class Ops, std::size_t N>
auto rows_layout(const Ops& ops, const std::array<index_t, N>& shape, int axis, const std::array<index_t, N>& out_strides) {
  constexpr int R = static_cast<int>(N), L = Ops::L;
  dims<R - 1> rows_shape{}, rows_out{};
  int map_rows[R > 1 ? R - 1 : 1] = {};
  for (int d = 0, i = 0; d < R; ++d) {
    if (d == axis) continue;
    rows_shape[i] = shape[d];
    rows_out[i] = out_strides[d];
    map_rows[i++] = d;
  }
  index_t rows_strides[layout<R - 1, L>::leaves][layout<R - 1, L>::max_rank] = {};
  select_strides<R - 1, L>(ops.strides, map_rows, rows_strides);
  return make_layout<R - 1, L>(rows_shape, rows_out, rows_strides, ops.base);
}

// The consumer e (an expression of `shape`) run in the store of a producer that writes lines along
// `axis` (exec/epilogue.hpp's row_epilogue): its lines are those of a destination of `out_strides`,
// its steps each leaf's stride along the axis. The row functions and the transforms build theirs here.
template <class E, std::size_t N>
auto make_row_epilogue(const E& e, const std::array<index_t, N>& shape, int axis, const std::array<index_t, N>& out_strides,
                       int device, const char* name) {
  constexpr int R = static_cast<int>(N);
  const auto records = e.leaves();
  using Records = std::remove_cvref_t<decltype(records)>;
  constexpr int L = Records::size;
  using Fn = decltype(e.template evaluator<0>());
  row_epilogue<Fn, typename descs_of<Records>::type, R - 1> epi{};
  const auto ops = gather_operands<R>(records, shape);
  epi.fn = e.template evaluator<0>();
  epi.leaves = ops.descs;
  epi.lines = rows_layout(ops, shape, axis, out_strides);
  epi.narrow = fits_32_bits(epi.lines);
  for (int k = 0; k < L; ++k) epi.step[k] = ops.strides[k][axis];
  require_leaf_access(epi, e, device, name);
  return epi;
}

// The plan of walking `e` row by row along `axis` into `out`, whose strides are `out_strides`
// (of e's shape, or of the keepdims result for logsumexp: the stride along the axis then unused).
template <class Op, class E>
auto make_row_plan(const E& e, int axis, const Op& op, typename Op::out_type* out, const dims<rank_v<E>>& out_strides) {
  constexpr int R = rank_v<E>;
  static_assert(R >= 1, "xf::softmax and friends: a 0-d array has no axis");
  const auto records = e.leaves();
  using Records = std::remove_cvref_t<decltype(records)>;
  constexpr int L = Records::size;
  using Fn = decltype(e.template evaluator<0>());
  using Plan = reduce_plan<Fn, typename descs_of<Records>::type, Op, R - 1, 1>;
  const auto shape = e.shape();

  const auto ops = gather_operands<R>(records, shape);
  index_t row_strides[layout<1, L>::leaves][layout<1, L>::max_rank] = {};
  const index_t row_base[layout<1, L>::leaves] = {};
  select_strides<1, L>(ops.strides, &axis, row_strides);
  Plan p{e.template evaluator<0>(), ops.descs, op, out, {}, {}, false, false, false, false, {}};
  p.kept = rows_layout(ops, shape, axis, out_strides);
  p.reduced = make_layout<1, L>(dims<1>{shape[axis]}, dims<1>{out_strides[axis]}, row_strides, row_base);
  p.kept_narrow = fits_32_bits(p.kept);
  p.reduced_narrow = fits_32_bits(p.reduced);
  set_aliases(p);
  return p;
}

// Whether every leaf held in memory steps by 0 or +-1 along the layout's dimension `d` (of the
// reduced layout: along the row; of the kept layout's innermost: across neighbouring rows).
template <class Plan, class Layout>
bool leaves_adjacent(const Layout& lay, int d) {
  bool adjacent = true;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          if constexpr (tuple_element_t<K, typename Plan::leaves_type>::in_memory) {
            const index_t s = lay.stride[K][d];
            adjacent = adjacent && s >= -1 && s <= 1;
          }
        }(),
        ...);
  }(std::make_integer_sequence<int, Plan::L>{});
  return adjacent;
}

// Host rows: each row's values into a buffer, then its statistics (in the compute type, in
// order), then its outputs.
template <row_result What, class Plan, class Finish>
void run_rows_host(const Plan& p, const Finish& finish) {
  using C = typename Plan::acc_type;
  using Out = typename Plan::out_type;
  const index_t n = p.reduced.size, step = p.reduced.out_stride[0];
  std::vector<C> v(static_cast<std::size_t>(n));
  for (index_t o = 0; o < p.kept.size; ++o) {
    index_t kept_pos[Plan::slots], out_pos;
    layout_positions(p.kept, false, o, kept_pos, out_pos);
    const auto row = finish.epilogue.row(o);
    for (index_t r = 0; r < n; ++r) v[static_cast<std::size_t>(r)] = mapped_element(p, kept_pos, r);
    if constexpr (is_softmax_kind<What>) {
      C max = -limits<C>::infinity();
      for (const C x : v) max = nan_max(max, x);
      const C shift = row_shift<What>(max);
      C sum = 0;
      for (const C x : v) sum += math::r_exp(x - shift);
      if constexpr (What == row_result::logsumexp) {
        p.out[out_pos] = finish.template store<Out>(row, math::r_log(sum) + shift, 0);
      } else {
        for (index_t r = 0; r < n; ++r) {
          const C shifted = v[static_cast<std::size_t>(r)] - shift;
          p.out[out_pos + r * step] = finish.template store<Out>(row, row_output<What>(shifted, math::r_exp(shifted), sum), r);
        }
      }
    } else {
      C mean = 0, squares = 0;
      if constexpr (What == row_result::layer_norm) {
        for (const C x : v) mean += x;
        mean /= static_cast<C>(n);
        for (const C x : v) squares += (x - mean) * (x - mean);
      } else {
        for (const C x : v) squares += x * x;
      }
      const C inverse_std = C(1) / math::r_sqrt(squares / static_cast<C>(n) + finish.eps);
      for (index_t r = 0; r < n; ++r)
        p.out[out_pos + r * step] = finish.template store<Out>(row, finish.apply((v[static_cast<std::size_t>(r)] - mean) * inverse_std, r), r);
    }
  }
}

}  // namespace xf::detail
