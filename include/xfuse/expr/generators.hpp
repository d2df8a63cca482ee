// SPDX-License-Identifier: Apache-2.0
// Lazy generators: arange, linspace, eye, tri, full, zeros, ones and the _like forms. They are
// expressions: `xf::array<float, 1> x = xf::arange<float>(n);` fills in one kernel, and
// `xf::sin(xf::arange<float>(n)) * y` fuses the generator into the same kernel as the rest.
// Alone they materialise on the device (or where the destination array lives).
#pragma once

#include <cmath>
#include <string>

#include "functions.hpp"

namespace xf {
namespace detail {

// A positional generator (arange, linspace, eye): one leaf with its own position function.
template <class Desc, int R>
class generator_node {
 public:
  using xf_expression_tag = void;
  using value_type = typename Desc::value_type;
  using space = any_space;
  static constexpr int rank = R;
  static constexpr int leaf_count = 1;

  // `base` is the position of the first element: 0, or a tile's offset in a larger generated
  // array (a distributed array's local piece draws the values of its global positions).
  generator_node(const Desc& d, const dims<R>& shape, const dims<R>& strides, index_t base = 0)
      : desc_(d), shape_(shape), strides_(strides), base_(base) {}
  dims<R> shape() const { return shape_; }
  index_t size() const { return product(shape_); }
  auto leaves() const { return detail::make_tuple(leaf_record<Desc, R>{desc_, shape_, strides_, base_, -1}); }
  template <int First>
  slot<First, value_type> evaluator() const {
    return {};
  }
  template <element To>
  auto astype() const {
    return make_node(ops::cast<To>{}, *this);
  }
  // The axes reversed: the same position function read the other way (xf::tri<bool>(n).T()).
  generator_node T() const {
    dims<R> s{}, st{};
    for (int d = 0; d < R; ++d) s[d] = shape_[R - 1 - d], st[d] = strides_[R - 1 - d];
    return generator_node(desc_, s, st, base_);
  }

 private:
  Desc desc_;
  dims<R> shape_, strides_;
  index_t base_ = 0;
};

// A constant of a given shape and (strong) type: full, zeros, ones. No leaf, no memory read.
template <class T, int R, class Space = any_space>
class full_node {
 public:
  using xf_expression_tag = void;
  using value_type = T;
  using space = Space;
  static constexpr int rank = R;
  static constexpr int leaf_count = 0;

  full_node(const dims<R>& shape, T value) : shape_(shape), value_(value) { checked_size(shape, sizeof(T), "xf::full"); }
  dims<R> shape() const { return shape_; }
  index_t size() const { return product(shape_); }
  T value() const { return value_; }
  auto leaves() const { return tuple<>{}; }
  template <int First>
  constant<T> evaluator() const {
    return {value_};
  }
  template <element To>
  auto astype() const {
    return make_node(ops::cast<To>{}, *this);
  }

 private:
  dims<R> shape_;
  T value_;
};

template <class T, class A>
using arange_type = std::conditional_t<!std::is_void_v<T>, T, std::conditional_t<std::is_integral_v<A>, std::int64_t, double>>;

}  // namespace detail

// np.arange(start, stop, step): values start + i * step for i in [0, ceil((stop - start) / step)).
template <class T = void, class A, class B, class C = int>
  requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B> && std::is_arithmetic_v<C>
auto arange(A start, B stop, C step = 1) {
  using V = detail::arange_type<T, std::common_type_t<A, B, C>>;
  static_assert(element<V> && !is_complex<V> && !is_bool<V>, "xf::arange: the element type must be real");
  if (step == 0) throw error("xf::arange: step cannot be zero");
  const double delta = static_cast<double>(stop) - static_cast<double>(start);
  const double span = delta / static_cast<double>(step);
  if (span != span)  // a NaN bound or step, or inf - inf
    throw error("xf::arange: cannot compute the length of (" + std::to_string(static_cast<double>(stop)) + " - " +
                std::to_string(static_cast<double>(start)) + ") / " + std::to_string(static_cast<double>(step)));
  // NumPy's rule: a quotient that underflows to +0 (an infinite step) still holds start.
  const double n_real = span > 0 ? ::ceil(span) : (span == 0 && delta != 0 && !std::signbit(span) ? 1 : 0);
  // 2^63 as a double: a count at or past it (or NaN, from infinite bounds) converts to nothing.
  if (!(n_real < 9223372036854775808.0))
    throw shape_error("xf::arange: array is too big: (" + std::to_string(static_cast<double>(stop)) + " - " +
                      std::to_string(static_cast<double>(start)) + ") / " + std::to_string(static_cast<double>(step)) +
                      " elements do not fit a signed 64-bit count");
  const auto n = static_cast<index_t>(n_real);
  detail::checked_size(dims<1>{n}, sizeof(V), "xf::arange");
  // Integer results count from integer start and step; a floating bound past int64 has none.
  auto as_index = [](auto x) -> index_t {
    if constexpr (std::is_integral_v<decltype(x)>) {
      return static_cast<index_t>(x);  // modular for uint64 past 2^63, as the integer walk is
    } else {
      const double v = ::trunc(static_cast<double>(x));
      if (!is_integer<V>) return 0;
      if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
        throw error("xf::arange: " + std::to_string(static_cast<double>(x)) + " is outside the range of int64");
      return static_cast<index_t>(v);
    }
  };
  // One element is start itself, whatever the step (an infinite one would make 0 * step NaN).
  const double step_between = n > 1 ? static_cast<double>(step) : 0.0;
  detail::arange_leaf<V> d{static_cast<double>(start), step_between, as_index(start), n > 1 ? as_index(step) : 0};
  return detail::generator_node<detail::arange_leaf<V>, 1>(d, {n}, {1});
}
// np.arange(stop).
template <class T = void, class A>
  requires std::is_arithmetic_v<A>
auto arange(A stop) {
  return arange<T>(A(0), stop, 1);
}

// np.linspace(start, stop, num, endpoint): start + i * step with step = (stop - start) / div, div
// = num - 1 (endpoint) or num; the last sample is exactly stop when endpoint and num > 1. One sample
// is start (0 * (stop - start) + start, as NumPy computes it). Computed in double; integer types
// take the floor, as NumPy 2 does.
template <class T = double>
auto linspace(double start, double stop, index_t num = 50, bool endpoint = true) {
  static_assert(element<T> && !is_complex<T> && !is_bool<T>, "xf::linspace: the element type must be real");
  if (num < 0) throw error("xf::linspace: num must be non-negative, got " + std::to_string(num));
  detail::checked_size(dims<1>{num}, sizeof(T), "xf::linspace");
  const index_t div = endpoint ? num - 1 : num;
  const double delta = stop - start;
  double step = div > 0 ? delta / static_cast<double>(div) : delta;
  double tiny_div = 0;
  if (div > 0 && step == 0 && delta != 0) step = delta, tiny_div = static_cast<double>(div);  // a subnormal span
  detail::linspace_leaf<T> d{start, step, stop, tiny_div, endpoint && num > 1 ? num - 1 : -1};
  return detail::generator_node<detail::linspace_leaf<T>, 1>(d, {num}, {1});
}

// np.eye(n, m, k): ones on diagonal k.
template <class T = double>
auto eye(index_t n, index_t m = -1, index_t k = 0) {
  if (m < 0) m = n;
  if (n < 0) throw shape_error("xf::eye: negative size " + std::to_string(n));
  detail::checked_size(dims<2>{n, m}, sizeof(T), "xf::eye");
  // Position = column - row: the value is 1 where it equals k.
  return detail::generator_node<detail::eye_leaf<T>, 2>(detail::eye_leaf<T>{k}, {n, m}, {-1, 1});
}
// np.tri(n, m, k): ones on and below diagonal k, zeros above (the mask of np.tril).
template <class T = double>
auto tri(index_t n, index_t m = -1, index_t k = 0) {
  if (m < 0) m = n;
  if (n < 0) throw shape_error("xf::tri: negative size " + std::to_string(n));
  detail::checked_size(dims<2>{n, m}, sizeof(T), "xf::tri");
  return detail::generator_node<detail::tri_leaf<T>, 2>(detail::tri_leaf<T>{k}, {n, m}, {-1, 1});
}
template <class T = double>
auto identity(index_t n) {
  return eye<T>(n);
}

// np.full(shape, value), np.zeros, np.ones: constants of a shape.
template <element T = double, std::size_t N>
auto full(const index_t (&shape)[N], T value) {
  return detail::full_node<T, static_cast<int>(N)>(detail::to_dims(shape), value);
}
template <element T = double, std::size_t N>
auto full(const std::array<index_t, N>& shape, T value) {
  return detail::full_node<T, static_cast<int>(N)>(shape, value);
}
template <element T = double, std::size_t N>
auto zeros(const index_t (&shape)[N]) {
  return full<T>(shape, detail::convert<T>(0));
}
template <element T = double, std::size_t N>
auto zeros(const std::array<index_t, N>& shape) {
  return full<T>(shape, detail::convert<T>(0));
}
template <element T = double, std::size_t N>
auto ones(const index_t (&shape)[N]) {
  return full<T>(shape, detail::convert<T>(1));
}
template <element T = double, std::size_t N>
auto ones(const std::array<index_t, N>& shape) {
  return full<T>(shape, detail::convert<T>(1));
}

// The _like forms take shape, type and space from an expression or array.
template <expression E, class V>
auto full_like(const E& e, V value) {
  return detail::full_node<value_t<E>, rank_v<E>, space_t<E>>(e.shape(), detail::convert<value_t<E>>(value));
}
template <expression E>
auto zeros_like(const E& e) {
  return full_like(e, 0);
}
template <expression E>
auto ones_like(const E& e) {
  return full_like(e, 1);
}

}  // namespace xf
