// SPDX-License-Identifier: Apache-2.0
// Index arguments for views: xf::slice(start, stop, step) with xf::_ for "None", xf::all,
// xf::newaxis, and plain integers (which remove a dimension).
#pragma once

#include <concepts>
#include <string>

#include "../base/error.hpp"

namespace xf {

// "None" inside a slice: xf::slice(xf::_, xf::_, -1) is Python's [::-1].
struct none_t {};
inline constexpr none_t _{};

struct slice_bound {
  index_t value = 0;
  bool none = true;
  constexpr slice_bound(none_t) noexcept {}
  template <std::integral I>
  constexpr slice_bound(I v) noexcept : value(static_cast<index_t>(v)), none(false) {}
};

// Python's slice: slice(stop), slice(start, stop), slice(start, stop, step).
struct slice {
  slice_bound start{_}, stop{_}, step{_};
  constexpr slice() noexcept = default;
  constexpr explicit slice(slice_bound stop_) noexcept : stop(stop_) {}
  constexpr slice(slice_bound start_, slice_bound stop_, slice_bound step_ = _) noexcept
      : start(start_), stop(stop_), step(step_) {}
};

// Every element of a dimension, like ':'.
namespace detail {
template <class E>
struct all_reduction;  // <xfuse/reduce.hpp>
}
// Every index of a dimension. Called on an expression, xf::all is NumPy's np.all reduction
// (from <xfuse/reduce.hpp>): xf::all(x), xf::all(x, axis), xf::all(x, {0, 1}), with xf::keepdims.
struct all_t : slice {
  template <class E, class... A>
  auto operator()(const E& e, const A&... a) const {
    return detail::all_reduction<E>::run(e, a...);
  }
  template <class E, std::size_t N, class... A>
  auto operator()(const E& e, const int (&axes)[N], const A&... a) const {
    return detail::all_reduction<E>::run(e, axes, a...);
  }
};
inline constexpr all_t all{};

// A new dimension of extent 1, like np.newaxis.
struct newaxis_t {};
inline constexpr newaxis_t newaxis{};

namespace detail {

// A slice resolved against an extent (CPython's PySlice_AdjustIndices).
struct resolved_slice {
  index_t start, step, length;
};

inline resolved_slice resolve(const slice& s, index_t n, int axis) {
  const index_t step = s.step.none ? 1 : s.step.value;
  if (step == 0) throw index_error("xf::slice: step cannot be zero (axis " + std::to_string(axis) + ")");
  auto clamp = [&](const slice_bound& b, index_t fallback) {
    if (b.none) return fallback;
    index_t v = b.value;
    if (v < 0) {
      v += n;
      if (v < 0) v = step < 0 ? -1 : 0;
    } else if (v >= n) {
      v = step < 0 ? n - 1 : n;
    }
    return v;
  };
  const index_t start = clamp(s.start, step < 0 ? n - 1 : 0);
  const index_t stop = clamp(s.stop, step < 0 ? -1 : n);
  index_t length = 0;
  if (step < 0) {
    if (stop < start) length = (start - stop - 1) / (-step) + 1;
  } else if (start < stop) {
    length = (stop - start - 1) / step + 1;
  }
  return {start, step, length};
}

inline index_t resolve_index(index_t i, index_t n, int axis) {
  const index_t j = i < 0 ? i + n : i;
  if (j < 0 || j >= n)
    throw index_error("xf::array: index " + std::to_string(i) + " is out of bounds for axis " +
                      std::to_string(axis) + " with size " + std::to_string(n));
  return j;
}

template <class A>
concept index_arg = std::integral<std::remove_cvref_t<A>> || std::is_base_of_v<slice, std::remove_cvref_t<A>> ||
                    std::is_same_v<std::remove_cvref_t<A>, newaxis_t>;

template <class A>
constexpr int consumes_axis = std::is_same_v<std::remove_cvref_t<A>, newaxis_t> ? 0 : 1;
template <class A>
constexpr int keeps_axis = std::integral<std::remove_cvref_t<A>> ? 0 : 1;

}  // namespace detail
}  // namespace xf
