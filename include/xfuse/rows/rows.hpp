// SPDX-License-Identifier: Apache-2.0
// The dispatcher of the fused row kinds (row_plan.hpp): softmax, log_softmax, logsumexp, layer
// norm and RMS norm along one axis of any expression. On device arrays a row (the elements along
// the axis) is read once and kept on chip while its statistics are folded (row_launch.cuh chooses
// the walk: one kernel, one read and one write) when it is contiguous in memory and at most 16384
// floats (8192 doubles) long, or strided with its neighbouring rows adjacent in memory and at most
// 512 floats long (on sm_90, 4096 for softmax's kinds, held by a thread-block cluster); on sm_90
// longer contiguous rows of softmax's kinds are split over blocks that exchange their pieces'
// statistics (split_row_kernel.cuh), still one read and one write. Other rows take two passes and no
// full-size temporary: one reduction folds each row's statistics in one read (online_row_reducer,
// norm_row_reducer), one fused element-wise pass writes the outputs. Host arrays walk each row once
// (run_rows_host).
#pragma once

#include <string>
#include <type_traits>

#include "../reduce.hpp"
#include "row_launch.cuh"
#include "../reduce/row_plan.hpp"
#include "../base/nvtx_emit.hpp"

namespace xf::detail {

// An absent weight or bias.
struct no_operand {};

template <class E>
constexpr void check_row_operand() {
  static_assert(rank_v<E> >= 1, "xf::softmax, log_softmax, logsumexp, layer_norm, rms_norm: a 0-d array has no axis");
  static_assert(is_floating<value_t<E>>,
                "xf::softmax, log_softmax, logsumexp, layer_norm and rms_norm take floating values (float, double, "
                "half, bfloat16); convert integers with .astype<float>() or .astype<double>()");
}

// A weight or bias must be a 1-D array of e's element type and space, as long as the axis, and
// readable from the current device.
template <class W, class E>
void check_along_axis(const W& w, const E& e, int axis, const char* op, const char* role) {
  if constexpr (!std::is_same_v<W, no_operand>) {
    static_assert(rank_v<W> == 1 && std::is_same_v<value_t<W>, value_t<E>> &&
                      std::is_same_v<resolved_space_t<space_t<W>>, resolved_space_t<space_t<E>>>,
                  "xf::layer_norm, rms_norm: weight and bias are 1-D arrays of the input's element type and space");
    if (w.shape()[0] != e.shape()[axis])
      throw shape_error(std::string(op) + ": " + role + " of shape " + to_string(w.shape()) + " does not match axis " +
                        std::to_string(axis) + " of the input's shape " + to_string(e.shape()) + " (" +
                        dtype_name<value_t<E>> + ")");
    if constexpr (std::is_same_v<resolved_space_t<space_t<W>>, device>) require_access(w.device_id(), op);
  }
}

template <class V, class C, class W, class B, class Epilogue = no_epilogue>
row_finish<V, C, Epilogue> make_finish(double eps, const W& weight, const B& bias, const Epilogue& epilogue = {}) {
  row_finish<V, C, Epilogue> a;
  a.eps = static_cast<C>(eps);
  if constexpr (!std::is_same_v<W, no_operand>) {
    a.weight = weight.data();
    a.weight_step = weight.strides()[0];
  }
  if constexpr (!std::is_same_v<B, no_operand>) {
    a.bias = bias.data();
    a.bias_step = bias.strides()[0];
  }
  a.epilogue = epilogue;
  return a;
}

// w (1-D, along `axis`) as an array of `shape`'s rank broadcast over every other axis.
template <class W, std::size_t N>
auto along_axis(const W& w, int axis, const std::array<index_t, N>& shape) {
  constexpr int R = static_cast<int>(N);
  dims<R> s{}, st{};
  for (int d = 0; d < R; ++d) s[d] = d == axis ? shape[d] : 1;
  st[axis] = w.strides()[0];
  return array<value_t<W>, R, resolved_space_t<space_t<W>>>::wrap(const_cast<value_t<W>*>(w.data()), s, st, w);
}

#if XF_CUDA_TU
// The statistics of each row of e along `axis` (a keepdims shape), folded in one read by the
// reduction `op`, as two arrays viewing one temporary of two values per row.
template <class C, class Stats, class E, class Op>
auto row_statistics(const E& e, int axis, const Op& op, const char* name) {
  static_assert(sizeof(Stats) == 2 * sizeof(C), "xf: row statistics are two values of the compute type");
  constexpr int R = rank_v<E>;
  auto keep_shape = e.shape();
  keep_shape[axis] = 1;
  dims<R + 1> stats_shape{};
  for (int d = 0; d < R; ++d) stats_shape[d] = keep_shape[d];
  stats_shape[R] = 2;
  array<C, R + 1, device> stats(stats_shape);
  const std::array<int, 1> axes{axis};
  const auto p = make_reduce_plan(e, axes, op, reinterpret_cast<Stats*>(stats.data()));
  const int cur = device::current_id();
  require_leaf_access(p, e, cur, name);
  reduce_axes_device(p, cur, current_slot(cur).handle);
  dims<R> every_second{};
  for (int d = 0; d < R; ++d) every_second[d] = stats.strides()[d];
  return std::pair{array<C, R, device>::wrap(stats.data(), keep_shape, every_second, stats),
                   array<C, R, device>::wrap(stats.data() + 1, keep_shape, every_second, stats)};
}

// result = normalised * weight + bias, the weight and bias (when present) broadcast along the axis.
template <class Result, class N, class W, class B>
void assign_affine(Result& result, const N& normalised, int axis, const W& weight, const B& bias) {
  const auto shape = result.shape();
  if constexpr (std::is_same_v<W, no_operand> && std::is_same_v<B, no_operand>) result.assign(normalised);
  else if constexpr (std::is_same_v<B, no_operand>) result.assign(normalised * along_axis(weight, axis, shape));
  else if constexpr (std::is_same_v<W, no_operand>) result.assign(normalised + along_axis(bias, axis, shape));
  else result.assign(normalised * along_axis(weight, axis, shape) + along_axis(bias, axis, shape));
}

// The two-pass form on the device, for rows that do not stay on chip.
template <row_result What, class E, class Result, class W, class B>
void rows_in_two_passes(const E& e, int axis, Result& result, const char* name, double eps, const W& weight, const B& bias) {
  using V = value_t<E>;
  using C = compute_t<V>;
  if constexpr (is_softmax_kind<What>) {
    const auto [shift, sum] = row_statistics<C, row_stats<C>>(e, axis, online_row_reducer<What, V, C>{}, name);
    if constexpr (What == row_result::softmax) result.assign(exp(e - shift) / sum);
    else if constexpr (What == row_result::log_softmax) result.assign((e - shift) - log(sum));
    else result.assign(log(sum) + shift);
  } else {
    const auto [mean, inverse_std] =
        row_statistics<C, norm_stats<C>>(e, axis, norm_row_reducer<What, V, C>{static_cast<C>(eps)}, name);
    if constexpr (What == row_result::rms_norm) assign_affine(result, e * inverse_std, axis, weight, bias);
    else assign_affine(result, (e - mean) * inverse_std, axis, weight, bias);
  }
}
#endif

// softmax and log_softmax along an empty axis have no maximum to shift by: SciPy raises, and so
// does xfuse (logsumexp of nothing is -inf; the norms of nothing are NaN, as NumPy's mean).
template <row_result What, class Shape>
void check_row_extent(const Shape& shape, int axis, const char* name) {
  if constexpr (What == row_result::softmax || What == row_result::log_softmax) {
    if (shape[static_cast<std::size_t>(axis)] == 0)
      throw shape_error(std::string(name) + ": axis " + std::to_string(axis) + " of shape " + to_string(shape) +
                        " is empty (a zero-size axis has no maximum; SciPy raises too)");
  }
}

// Checks a row function's call: e's axis (normalised and returned), the axis's extent, the weight
// and bias. Throws before anything runs.
template <row_result What, class E, class W = no_operand, class B = no_operand>
int check_rows_call(const E& e, int axis_in, const char* name, const W& weight = {}, const B& bias = {}) {
  check_row_operand<E>();
  const int one_axis[1] = {axis_in};
  const int axis = normalize_axes(one_axis, e.shape(), name)[0];
  check_row_extent<What>(e.shape(), axis, name);
  check_along_axis(weight, e, axis, name, "weight");
  check_along_axis(bias, e, axis, name, "bias");
  return axis;
}

// Runs `What` along `axis` (checked) of e into dst (of e's shape, for logsumexp extent 1 along the
// axis; any strides, non-negative along the axis; not empty; on the current device), each output
// stored through `epilogue` (exec/producer.hpp). False, having run nothing, when the rows take two
// passes and an epilogue is given (the two-pass form has no store to run it in).
template <row_result What, class E, class Out, int R, class S, class W, class B, class Epilogue = no_epilogue>
bool run_rows(const E& e, int axis, const array<Out, R, S>& dst, const char* name, double eps, const W& weight,
              const B& bias, const Epilogue& epilogue = {}) {
  using V = value_t<E>;
  using C = compute_t<V>;
  const nvtx_range range(name);
  const auto p = make_row_plan(e, axis, row_values<V, C, Out>{}, dst.data(), dst.strides());
  const auto finish = make_finish<V, C>(eps, weight, bias, epilogue);
  if constexpr (std::is_same_v<S, device>) {
    static_assert(cuda_tu || always_false<E>, "xfuse: fused rows of device arrays launch CUDA kernels; compile this file with nvcc");
#if XF_CUDA_TU
    const int cur = device::current_id();
    require_leaf_access(p, e, cur, name);
    const row_launch launch = choose_row_launch<What, std::remove_cvref_t<decltype(p)>, std::remove_cvref_t<decltype(finish)>>(p, cur);
    if (launch.walk != row_walk::two_passes) {
      rows_device<What>(p, launch, finish, cur, current_slot(cur).handle);
    } else if constexpr (std::is_same_v<Epilogue, no_epilogue> && std::is_same_v<Out, V>) {
      auto result = dst;
      rows_in_two_passes<What>(e, axis, result, name, eps, weight, bias);
    } else {
      return false;
    }
#endif
  } else {
    run_rows_host<What>(p, finish);
  }
  return true;
}

// Writes `What` along `axis` of e into result, an array of e's shape (for logsumexp, extent 1
// along the axis) in e's space that e does not read: any strides (non-negative along the axis), so
// a piece of a larger array (a distributed array's, say) is written in place.
template <row_result What, class E, class Result, class W = no_operand, class B = no_operand>
void rows_into(const E& e, int axis_in, Result& result, const char* name, double eps = 0, const W& weight = {},
               const B& bias = {}) {
  using V = value_t<E>;
  using S = resolved_space_t<space_t<E>>;
  static_assert(std::is_same_v<value_t<Result>, V> && std::is_same_v<space_t<Result>, S>,
                "xfuse: rows are written into an array of the operand's element type and space");
  const int axis = check_rows_call<What>(e, axis_in, name, weight, bias);
  auto expected = e.shape();
  if constexpr (What == row_result::logsumexp) expected[axis] = 1;
  if (result.shape() != expected)
    throw shape_error(std::string(name) + ": the result array has shape " + to_string(result.shape()) + ", not " + to_string(expected));
  if constexpr (std::is_same_v<S, device>) {
    if (result.size() > 0 && result.device_id() != device::current_id())
      throw device_error(std::string(name) + ": the result array is on device " + std::to_string(result.device_id()) +
                         ", not the current device " + std::to_string(device::current_id()));
  }
  if (result.size() == 0) return;
  run_rows<What>(e, axis, result, name, eps, weight, bias);
}

}  // namespace xf::detail
