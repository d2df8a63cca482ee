// SPDX-License-Identifier: Apache-2.0
// Lazy generators: arange, linspace, eye, tri, full, zeros, ones and the _like forms. They are
// expressions: `xf::array<float, 1> x = xf::arange<float>(n);` fills in one kernel, and
// `xf::sin(xf::arange<float>(n)) * y` fuses the generator into the same kernel as the rest.
// Alone they materialise on the device (or where the destination array lives).
#pragma once

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

  generator_node(const Desc& d, const dims<R>& shape, const dims<R>& strides) : desc_(d), shape_(shape), strides_(strides) {}
  dims<R> shape() const { return shape_; }
  index_t size() const { return product(shape_); }
  auto leaves() const { return detail::make_tuple(leaf_record<Desc, R>{desc_, shape_, strides_, 0, -1}); }
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
    return generator_node(desc_, s, st);
  }

 private:
  Desc desc_;
  dims<R> shape_, strides_;
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

  full_node(const dims<R>& shape, T value) : shape_(shape), value_(value) {
    for (index_t e : shape)
      if (e < 0) throw shape_error("xf::full: negative extent in shape " + to_string(shape));
  }
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
  const double span = (static_cast<double>(stop) - static_cast<double>(start)) / static_cast<double>(step);
  const double n_real = span > 0 ? ::ceil(span) : 0;
  const auto n = static_cast<index_t>(n_real);
  detail::arange_leaf<V> d{static_cast<double>(start), static_cast<double>(step), static_cast<index_t>(start),
                           static_cast<index_t>(step)};
  return detail::generator_node<detail::arange_leaf<V>, 1>(d, {n}, {1});
}
// np.arange(stop).
template <class T = void, class A>
  requires std::is_arithmetic_v<A>
auto arange(A stop) {
  return arange<T>(A(0), stop, 1);
}

// np.linspace(start, stop, num, endpoint).
template <class T = double>
auto linspace(double start, double stop, index_t num = 50, bool endpoint = true) {
  static_assert(element<T> && !is_complex<T> && !is_bool<T>, "xf::linspace: the element type must be real");
  if (num < 0) throw error("xf::linspace: num must be non-negative, got " + std::to_string(num));
  const index_t div = endpoint ? num - 1 : num;
  const double step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
  detail::linspace_leaf<T> d{start, step, stop, endpoint && num > 0 ? num - 1 : -1};
  return detail::generator_node<detail::linspace_leaf<T>, 1>(d, {num}, {1});
}

// np.eye(n, m, k): ones on diagonal k.
template <class T = double>
auto eye(index_t n, index_t m = -1, index_t k = 0) {
  if (m < 0) m = n;
  if (n < 0) throw shape_error("xf::eye: negative size " + std::to_string(n));
  // Position = column - row: the value is 1 where it equals k.
  return detail::generator_node<detail::eye_leaf<T>, 2>(detail::eye_leaf<T>{k}, {n, m}, {-1, 1});
}
// np.tri(n, m, k): ones on and below diagonal k, zeros above (the mask of np.tril).
template <class T = double>
auto tri(index_t n, index_t m = -1, index_t k = 0) {
  if (m < 0) m = n;
  if (n < 0) throw shape_error("xf::tri: negative size " + std::to_string(n));
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
