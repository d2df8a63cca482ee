// SPDX-License-Identifier: Apache-2.0
// The reduction functions and their described forms (xf::lazy), public through
// <xfuse/reduce.hpp>, whose comment says what they compute.
#pragma once

#include <algorithm>
#include <array>
#include <string>

#include "../base/nvtx_emit.hpp"
#include "../core.hpp"
#include "dispatch.cuh"
#include "pending.hpp"
#include "plan.hpp"

namespace xf {

// Keep the reduced axes as extent-1 dimensions (NumPy's keepdims=True).
struct keepdims_t {
  explicit constexpr keepdims_t() = default;
};
inline constexpr keepdims_t keepdims{};

// Delta degrees of freedom of var and std: the divisor is count - ddof.
struct ddof {
  double value = 0;
  constexpr ddof() = default;
  constexpr explicit ddof(double v) : value(v) {}
};

namespace detail {

template <std::size_t RS, std::size_t N>
std::array<int, N> normalize_axes(const int (&axes)[N], const std::array<index_t, RS>& shape, const char* op) {
  std::array<int, N> a{};
  for (std::size_t i = 0; i < N; ++i) a[i] = normalize_axis_of(axes[i], shape, op);
  std::sort(a.begin(), a.end());
  for (std::size_t i = 1; i < N; ++i)
    if (a[i] == a[i - 1])
      throw shape_error(std::string(op) + ": axis " + std::to_string(a[i]) + " is repeated (array of shape " +
                        to_string(shape) + ")");
  return a;
}

// The result's extents (kept axes only, and with the reduced axes as 1: keepdims) and the count of
// elements folded into each result, for a reduction of `shape` over `axes`.
template <int R, std::size_t N>
struct reduction_shape {
  dims<R - static_cast<int>(N)> kept{};
  dims<R> with_ones{};
  index_t reduced_count = 1;
};
template <std::size_t N, std::size_t RS>
reduction_shape<static_cast<int>(RS), N> shape_of_reduction(const std::array<index_t, RS>& shape, const std::array<int, N>& axes) {
  constexpr int R = static_cast<int>(RS);
  bool reduced[R > 0 ? R : 1] = {};
  for (const int a : axes) reduced[a] = true;
  reduction_shape<R, N> s;
  for (int d = 0, i = 0; d < R; ++d) {
    s.with_ones[d] = reduced[d] ? 1 : shape[d];
    if (reduced[d]) s.reduced_count *= shape[d];
    else s.kept[i++] = shape[d];
  }
  return s;
}

// NumPy refuses an empty reduction for min, max, argmin and argmax: they have no identity.
template <class Op, std::size_t RS>
void check_has_elements(index_t reduced_count, index_t results, const std::array<index_t, RS>& shape, const char* name) {
  if (needs_elements_v<Op> && reduced_count == 0 && results > 0)
    throw shape_error(std::string(name) + ": zero-size reduction (shape " + to_string(shape) +
                      ") has no identity; the result would be undefined");
}

// Runs the reduction plan `p` of expression `e` (device: on the current stream).
template <class Plan, class E>
void run_reduce_plan(const Plan& p, const E& e, const char* name) {
  using S = resolved_space_t<space_t<E>>;
  const nvtx_range range(name);
  if constexpr (std::is_same_v<S, device>) {
    static_assert(cuda_tu || always_false<E>,
                  "xfuse: a reduction of device arrays launches CUDA kernels; compile this file with nvcc");
#if XF_CUDA_TU
    const int cur = device::current_id();
    require_leaf_access(p, e, cur, name);
    reduce_axes_device(p, cur, current_slot(cur).handle);
#endif
  } else {
    refuse_in_capture(name, "reductions of host arrays run on the host now, not in the graph");
    run_reduce_host(p);
  }
}

// The result lives in Space: e's own by default, or the space of the other operands of a call
// that reduces a generator beside them (xf::eval of several descriptions, xf::average).
template <bool Keep, class Space, std::size_t N, class Op, class E>
auto reduce_over(const E& e, const std::array<int, N>& axes, const Op& op, const char* name) {
  constexpr int RK = rank_v<E> - static_cast<int>(N);
  using S = std::conditional_t<std::is_void_v<Space>, resolved_space_t<space_t<E>>, Space>;
  const auto shape = shape_of_reduction(e.shape(), axes);
  array<typename Op::out_type, RK, S> result(shape.kept);
  check_has_elements<Op>(shape.reduced_count, result.size(), e.shape(), name);
  if (result.size() > 0) run_reduce_plan(make_reduce_plan(e, axes, op, result.data()), e, name);
  if constexpr (Keep) return result.reshape(shape.with_ones);
  else return result;
}

// `dst.assign(xf::lazy::sum(x, ...))` and the like: the reduction writes its results straight into
// dst, as it would into a new array (the same kernels, the same values), when dst is C-ordered
// with the result's shape and element type and reads none of its own memory: no result array and
// no copy kernel. The description's result stays unset (a later use computes it).
template <class T, int R, class Space, class P>
bool reduce_into(const array<T, R, Space>& dst, const P& pending, const char* op) {
  if constexpr (!std::is_same_v<T, typename P::value_type> || P::rank != R) {
    return false;
  } else {
    (void)op;
    if (pending.state->value || !dst.is_contiguous()) return false;
    const auto shape = shape_of_reduction(pending.expr.shape(), pending.axes);
    if constexpr (P::keep) {
      if (dst.shape() != shape.with_ones) return false;
    } else {
      if (dst.shape() != shape.kept) return false;
    }
    if (reads_any_of(range_of<R>(dst.data(), sizeof(T), dst.shape(), dst.strides().data(), 0), pending.expr)) return false;
    check_has_elements<typename P::op_type>(shape.reduced_count, dst.size(), pending.expr.shape(), pending.name);
    if (dst.size() > 0) run_reduce_plan(make_reduce_plan(pending.expr, pending.axes, pending.op, dst.data()), pending.expr, pending.name);
    return true;
  }
}

template <bool Keep, class Op, class E>
auto reduce_all(const E& e, const Op& op, const char* name) {
  return reduce_over<Keep>(e, every_axis<rank_v<E>>(), op, name);
}

template <class Dtype, class Natural>
using dtype_or = std::conditional_t<std::is_void_v<Dtype>, Natural, Dtype>;

// What each reduction builds from the element type In and the requested Dtype.
struct sum_maker {
  template <class Dtype, class In>
  static auto make() {
    using Out = dtype_or<Dtype, sum_result_t<In>>;
    return sum_reducer<In, accumulate_t<Out>, Out, false>{};
  }
};
struct nansum_maker {
  template <class Dtype, class In>
  static auto make() {
    using Out = dtype_or<Dtype, sum_result_t<In>>;
    return sum_reducer<In, accumulate_t<Out>, Out, true>{};
  }
};
template <bool SkipNan>
struct product_maker {
  template <class Dtype, class In>
  static auto make() {
    using Out = dtype_or<Dtype, sum_result_t<In>>;
    return prod_reducer<In, accumulate_t<Out>, Out, SkipNan>{};
  }
};
using prod_maker = product_maker<false>;
using nanprod_maker = product_maker<true>;
struct mean_maker {
  template <class Dtype, class In>
  static auto make() {
    using Out = dtype_or<Dtype, mean_result_t<In>>;
    return mean_reducer<In, accumulate_t<Out>, Out>{};
  }
};
struct nanmean_maker {
  template <class Dtype, class In>
  static auto make() {
    using Out = dtype_or<Dtype, mean_result_t<In>>;
    return nanmean_reducer<In, accumulate_t<Out>, Out>{};
  }
};
template <bool Sqrt, bool SkipNan = false>
struct var_maker {
  template <class Dtype, class In>
  static auto make(ddof d) {
    using Out = dtype_or<Dtype, mean_result_t<In>>;
    using Op = var_reducer<In, accumulate_t<Out>, Sqrt, SkipNan>;
    return Op{static_cast<typename Op::Real>(d.value)};
  }
};
using nanvar_maker = var_maker<false, true>;
using nanstd_maker = var_maker<true, true>;
template <bool Max, bool SkipNan>
struct extreme_maker {
  template <class Dtype, class In>
  static auto make() {
    static_assert(std::is_void_v<Dtype>, "xf::min/max: the result has the input's type (no Dtype)");
    static_assert(!is_complex<In>, "xf::min/max/argmin/argmax: complex values have no order here");
    return extreme_reducer<In, Max, SkipNan>{};
  }
};
template <bool Max>
struct arg_maker {
  template <class Dtype, class In>
  static auto make() {
    static_assert(std::is_void_v<Dtype>, "xf::argmin/argmax: the result is int64 (no Dtype)");
    static_assert(!is_complex<In>, "xf::min/max/argmin/argmax: complex values have no order here");
    return arg_reducer<In, Max>{};
  }
};
template <bool Max>
struct nanarg_maker {
  template <class Dtype, class In>
  static auto make() {
    static_assert(std::is_void_v<Dtype>, "xf::nanargmin/nanargmax: the result is int64 (no Dtype)");
    static_assert(!is_complex<In>, "xf::nanargmin/nanargmax: complex values have no order here");
    if constexpr (std::is_floating_point_v<compute_t<In>>) return nanarg_reducer<In, Max>{};
    else return arg_reducer<In, Max>{};  // no NaN to skip
  }
};
struct ptp_maker {
  template <class Dtype, class In>
  static auto make() {
    static_assert(std::is_void_v<Dtype>, "xf::ptp: the result has the input's type (no Dtype)");
    static_assert(!is_complex<In>, "xf::ptp: complex values have no order here");
    static_assert(!is_bool<In>, "xf::ptp: booleans have no subtraction (NumPy raises TypeError)");
    return ptp_reducer<In>{};
  }
};
template <bool All>
struct logical_maker {
  template <class Dtype, class In>
  static auto make() {
    return logical_reducer<In, All>{};
  }
};
using min_maker = extreme_maker<false, false>;
using max_maker = extreme_maker<true, false>;
using nanmin_maker = extreme_maker<false, true>;
using nanmax_maker = extreme_maker<true, true>;
using any_maker = logical_maker<false>;
using all_maker = logical_maker<true>;

struct count_nonzero_maker {
  template <class Dtype, class In>
  static auto make() {
    return count_nonzero_reducer<In>{};
  }
};

}  // namespace detail

// Six overloads per reduction: all elements, one axis, several axes ({0, 2}), each with or without
// keepdims. EXTRA is a trailing parameter (var and std's ddof), ARG its name. RUN is `reduce` (run
// now: xf::sum) or `defer` (describe it for xf::eval: xf::lazy::sum); LABEL names it in errors.
#define XF_REDUCTION(NAME, MAKER, EXTRA, ARG, RUN, LABEL)                                                  \
  template <class Dtype = void, expression E>                                                              \
  auto NAME(const E& e EXTRA) {                                                                            \
    return detail::RUN##_all<false>(e, MAKER::template make<Dtype, value_t<E>>(ARG), LABEL #NAME);          \
  }                                                                                                        \
  template <class Dtype = void, expression E>                                                              \
  auto NAME(const E& e, keepdims_t EXTRA) {                                                                \
    return detail::RUN##_all<true>(e, MAKER::template make<Dtype, value_t<E>>(ARG), LABEL #NAME);           \
  }                                                                                                        \
  template <class Dtype = void, expression E, std::size_t N>                                               \
  auto NAME(const E& e, const int (&axes)[N] EXTRA) {                                                      \
    return detail::RUN##_over<false>(e, detail::normalize_axes(axes, e.shape(), LABEL #NAME),              \
                                     MAKER::template make<Dtype, value_t<E>>(ARG), LABEL #NAME);            \
  }                                                                                                        \
  template <class Dtype = void, expression E, std::size_t N>                                               \
  auto NAME(const E& e, const int (&axes)[N], keepdims_t EXTRA) {                                          \
    return detail::RUN##_over<true>(e, detail::normalize_axes(axes, e.shape(), LABEL #NAME),               \
                                    MAKER::template make<Dtype, value_t<E>>(ARG), LABEL #NAME);             \
  }                                                                                                        \
  template <class Dtype = void, expression E>                                                              \
  auto NAME(const E& e, int axis EXTRA) {                                                                  \
    const int axes[1] = {axis};                                                                            \
    return detail::RUN##_over<false>(e, detail::normalize_axes(axes, e.shape(), LABEL #NAME),              \
                                     MAKER::template make<Dtype, value_t<E>>(ARG), LABEL #NAME);            \
  }                                                                                                        \
  template <class Dtype = void, expression E>                                                              \
  auto NAME(const E& e, int axis, keepdims_t EXTRA) {                                                      \
    const int axes[1] = {axis};                                                                            \
    return detail::RUN##_over<true>(e, detail::normalize_axes(axes, e.shape(), LABEL #NAME),               \
                                    MAKER::template make<Dtype, value_t<E>>(ARG), LABEL #NAME);             \
  }
#define XF_COMMA ,

// Every built-in reduction but `all` (below), as F(NAME, MAKER, EXTRA, ARG).
#define XF_REDUCTIONS(F, RUN, LABEL)                                                       \
  F(sum, detail::sum_maker, , , RUN, LABEL)                                                \
  F(nansum, detail::nansum_maker, , , RUN, LABEL)                                          \
  F(prod, detail::prod_maker, , , RUN, LABEL)                                              \
  F(nanprod, detail::nanprod_maker, , , RUN, LABEL)                                        \
  F(mean, detail::mean_maker, , , RUN, LABEL)                                              \
  F(nanmean, detail::nanmean_maker, , , RUN, LABEL)                                        \
  F(var, detail::var_maker<false>, XF_COMMA ddof dd = ddof(), dd, RUN, LABEL)              \
  F(std, detail::var_maker<true>, XF_COMMA ddof dd = ddof(), dd, RUN, LABEL)               \
  F(nanvar, detail::nanvar_maker, XF_COMMA ddof dd = ddof(), dd, RUN, LABEL)               \
  F(nanstd, detail::nanstd_maker, XF_COMMA ddof dd = ddof(), dd, RUN, LABEL)               \
  F(min, detail::min_maker, , , RUN, LABEL)                                                \
  F(max, detail::max_maker, , , RUN, LABEL)                                                \
  F(nanmin, detail::nanmin_maker, , , RUN, LABEL)                                          \
  F(nanmax, detail::nanmax_maker, , , RUN, LABEL)                                          \
  F(argmin, detail::arg_maker<false>, , , RUN, LABEL)                                      \
  F(argmax, detail::arg_maker<true>, , , RUN, LABEL)                                       \
  F(nanargmin, detail::nanarg_maker<false>, , , RUN, LABEL)                                \
  F(nanargmax, detail::nanarg_maker<true>, , , RUN, LABEL)                                 \
  F(ptp, detail::ptp_maker, , , RUN, LABEL)                                                \
  F(any, detail::any_maker, , , RUN, LABEL)                                                \
  F(count_nonzero, detail::count_nonzero_maker, , , RUN, LABEL)

XF_REDUCTIONS(XF_REDUCTION, reduce, "xf::")

// xf::all is also the slice tag "every index" (array/slice.hpp); calling it reduces.
namespace detail {
namespace named {
XF_REDUCTION(all, detail::all_maker, , , reduce, "xf::")
}
template <class E>
struct all_reduction {
  template <class... A>
  static auto run(const E& e, const A&... a) {
    return named::all(e, a...);
  }
};
}  // namespace detail

// The same reductions described, not run: xf::eval runs several of them in one pass
// (reduce/together.hpp). `auto [s, m] = xf::eval(xf::lazy::sum(x, 1), xf::lazy::max(x, 1));`
namespace lazy {
XF_REDUCTIONS(XF_REDUCTION, defer, "xf::lazy::")
XF_REDUCTION(all, detail::all_maker, , , defer, "xf::lazy::")
}  // namespace lazy

#undef XF_REDUCTION
#undef XF_REDUCTIONS
#undef XF_COMMA

// A user reduction (CuPy's ReductionKernel) of any expression, over all elements, one axis or
// several: xf::reduce(x * y, xf::reducer{identity, map, combine, finish}, 1). On device arrays the
// functions must be __host__ __device__ (extended lambdas).
template <expression E, class Acc, class Map, class Combine, class Finish>
auto reduce(const E& e, const reducer<Acc, Map, Combine, Finish>& r) {
  return detail::reduce_all<false>(e, detail::user_reducer<value_t<E>, reducer<Acc, Map, Combine, Finish>>{r}, "xf::reduce");
}
template <expression E, class Acc, class Map, class Combine, class Finish, std::size_t N>
auto reduce(const E& e, const reducer<Acc, Map, Combine, Finish>& r, const int (&axes)[N]) {
  return detail::reduce_over<false>(e, detail::normalize_axes(axes, e.shape(), "xf::reduce"),
                                    detail::user_reducer<value_t<E>, reducer<Acc, Map, Combine, Finish>>{r}, "xf::reduce");
}
template <expression E, class Acc, class Map, class Combine, class Finish>
auto reduce(const E& e, const reducer<Acc, Map, Combine, Finish>& r, int axis) {
  const int axes[1] = {axis};
  return reduce(e, r, axes);
}

// np.allclose(a, b, rtol, atol, equal_nan): whether every pair is close (xf::isclose), read to
// the host: like .item(), it waits for the result.
template <class A, class B>
  requires detail::binary_operands<A, B>
bool allclose(const A& a, const B& b, double rtol = 1e-5, double atol = 1e-8, bool equal_nan = false) {
  return all(isclose(a, b, rtol, atol, equal_nan)).item();
}

// np.array_equal(a, b, equal_nan): the same shape (no broadcasting) and equal elements, NaN equal
// to NaN with equal_nan; read to the host.
template <expression A, expression B>
bool array_equal(const A& a, const B& b, bool equal_nan = false) {
  if constexpr (A::rank != B::rank) {
    return false;
  } else {
    if (a.shape() != b.shape()) return false;
    if (equal_nan) return all(logical_or(a == b, logical_and(isnan(a), isnan(b)))).item();
    return all(a == b).item();
  }
}

}  // namespace xf
