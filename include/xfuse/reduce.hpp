// SPDX-License-Identifier: Apache-2.0
// Reductions of any expression, in one pass with no temporary: sum, prod, mean, var, std, min, max,
// argmin, argmax, any, all, count_nonzero, nansum, nanmean, nanmin, nanmax, and user reducers
// (xf::reduce). Over all elements (a 0-d array), one axis or several, with keepdims; NumPy's result
// types, or a `Dtype` given as the first template argument (NumPy's dtype=). Results are arrays of
// the expression's space, computed in stream order: no synchronisation until `.item()`.
#pragma once

#include <algorithm>
#include <array>
#include <string>

#include "core.hpp"
#include "reduce/kernel.cuh"
#include "reduce/plan.hpp"

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
  constexpr int R = static_cast<int>(RS);
  std::array<int, N> a{};
  for (std::size_t i = 0; i < N; ++i) {
    const int x = axes[i];
    if (x < -R || x >= R)
      throw shape_error(std::string(op) + ": axis " + std::to_string(x) + " is out of bounds for an array of shape " +
                        to_string(shape));
    a[i] = x < 0 ? x + R : x;
  }
  std::sort(a.begin(), a.end());
  for (std::size_t i = 1; i < N; ++i)
    if (a[i] == a[i - 1])
      throw shape_error(std::string(op) + ": axis " + std::to_string(a[i]) + " is repeated (array of shape " +
                        to_string(shape) + ")");
  return a;
}

template <bool Keep, std::size_t N, class Op, class E>
auto reduce_over(const E& e, const std::array<int, N>& axes, const Op& op, const char* name) {
  constexpr int R = rank_v<E>, RK = R - static_cast<int>(N);
  using S = resolved_space_t<space_t<E>>;
  using Out = typename Op::out_type;
  const auto shape = e.shape();
  bool reduced[R > 0 ? R : 1] = {};
  for (const int a : axes) reduced[a] = true;
  dims<RK> kept_shape{};
  dims<R> keep_shape{};
  index_t n_red = 1;
  for (int d = 0, i = 0; d < R; ++d) {
    keep_shape[d] = reduced[d] ? 1 : shape[d];
    if (reduced[d]) n_red *= shape[d];
    else kept_shape[i++] = shape[d];
  }
  array<Out, RK, S> result(kept_shape);
  if (needs_elements_v<Op> && n_red == 0 && result.size() > 0)
    throw shape_error(std::string(name) + ": zero-size reduction (shape " + to_string(shape) +
                      ") has no identity; the result would be undefined");
  if (result.size() > 0) {
    const auto p = make_reduce_plan(e, axes, op, result.data());
    if constexpr (std::is_same_v<S, device>) {
      static_assert(cuda_tu || always_false<E>,
                    "xfuse: a reduction of device arrays launches CUDA kernels; compile this file with nvcc");
#if XF_CUDA_TU
      const int cur = device::current_id();
      require_leaf_access(p, e, cur, name);
      const cudaStream_t stream = current_slot(cur).handle;
      reduce_axes_device(p, cur, stream);
#endif
    } else {
      run_reduce_host(p);
    }
  }
  if constexpr (Keep) return result.reshape(keep_shape);
  else return result;
}

template <bool Keep, class Op, class E>
auto reduce_all(const E& e, const Op& op, const char* name) {
  constexpr int R = rank_v<E>;
  std::array<int, static_cast<std::size_t>(R)> axes{};
  for (int d = 0; d < R; ++d) axes[d] = d;
  return reduce_over<Keep>(e, axes, op, name);
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
struct prod_maker {
  template <class Dtype, class In>
  static auto make() {
    using Out = dtype_or<Dtype, sum_result_t<In>>;
    return prod_reducer<In, accumulate_t<Out>, Out>{};
  }
};
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
template <bool Sqrt>
struct var_maker {
  template <class Dtype, class In>
  static auto make(ddof d) {
    using Out = dtype_or<Dtype, mean_result_t<In>>;
    using Op = var_reducer<In, accumulate_t<Out>, Sqrt>;
    return Op{static_cast<typename Op::Real>(d.value)};
  }
};
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
// keepdims. EXTRA is a trailing parameter (var and std's ddof), ARG its name.
#define XF_REDUCTION(NAME, MAKER, EXTRA, ARG)                                                              \
  template <class Dtype = void, expression E>                                                              \
  auto NAME(const E& e EXTRA) {                                                                            \
    return detail::reduce_all<false>(e, MAKER::template make<Dtype, value_t<E>>(ARG), "xf::" #NAME);        \
  }                                                                                                        \
  template <class Dtype = void, expression E>                                                              \
  auto NAME(const E& e, keepdims_t EXTRA) {                                                                \
    return detail::reduce_all<true>(e, MAKER::template make<Dtype, value_t<E>>(ARG), "xf::" #NAME);         \
  }                                                                                                        \
  template <class Dtype = void, expression E, std::size_t N>                                               \
  auto NAME(const E& e, const int (&axes)[N] EXTRA) {                                                      \
    return detail::reduce_over<false>(e, detail::normalize_axes(axes, e.shape(), "xf::" #NAME),            \
                                      MAKER::template make<Dtype, value_t<E>>(ARG), "xf::" #NAME);          \
  }                                                                                                        \
  template <class Dtype = void, expression E, std::size_t N>                                               \
  auto NAME(const E& e, const int (&axes)[N], keepdims_t EXTRA) {                                          \
    return detail::reduce_over<true>(e, detail::normalize_axes(axes, e.shape(), "xf::" #NAME),             \
                                     MAKER::template make<Dtype, value_t<E>>(ARG), "xf::" #NAME);           \
  }                                                                                                        \
  template <class Dtype = void, expression E>                                                              \
  auto NAME(const E& e, int axis EXTRA) {                                                                  \
    const int axes[1] = {axis};                                                                            \
    return NAME<Dtype>(e, axes ARG_COMMA(ARG));                                                            \
  }                                                                                                        \
  template <class Dtype = void, expression E>                                                              \
  auto NAME(const E& e, int axis, keepdims_t k EXTRA) {                                                    \
    const int axes[1] = {axis};                                                                            \
    return NAME<Dtype>(e, axes, k ARG_COMMA(ARG));                                                         \
  }
#define ARG_COMMA(...) __VA_OPT__(, __VA_ARGS__)
#define XF_COMMA ,

XF_REDUCTION(sum, detail::sum_maker, , )
XF_REDUCTION(nansum, detail::nansum_maker, , )
XF_REDUCTION(prod, detail::prod_maker, , )
XF_REDUCTION(mean, detail::mean_maker, , )
XF_REDUCTION(nanmean, detail::nanmean_maker, , )
XF_REDUCTION(var, detail::var_maker<false>, XF_COMMA ddof dd = ddof(), dd)
XF_REDUCTION(std, detail::var_maker<true>, XF_COMMA ddof dd = ddof(), dd)
XF_REDUCTION(min, detail::min_maker, , )
XF_REDUCTION(max, detail::max_maker, , )
XF_REDUCTION(nanmin, detail::nanmin_maker, , )
XF_REDUCTION(nanmax, detail::nanmax_maker, , )
XF_REDUCTION(argmin, detail::arg_maker<false>, , )
XF_REDUCTION(argmax, detail::arg_maker<true>, , )
XF_REDUCTION(any, detail::any_maker, , )
XF_REDUCTION(count_nonzero, detail::count_nonzero_maker, , )

// xf::all is also the slice tag "every index" (array/slice.hpp); calling it reduces.
namespace detail {
namespace named {
XF_REDUCTION(all, detail::all_maker, , )
}
template <class E>
struct all_reduction {
  template <class... A>
  static auto run(const E& e, const A&... a) {
    return named::all(e, a...);
  }
};
}  // namespace detail

#undef XF_REDUCTION
#undef ARG_COMMA
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

}  // namespace xf
