// SPDX-License-Identifier: Apache-2.0
// Shapes and strides: plain std::array of signed 64-bit extents, strides counted in elements.
#pragma once

#include <array>
#include <string>

#include "config.hpp"

namespace xf {

template <int R>
using dims = std::array<index_t, static_cast<std::size_t>(R)>;

namespace detail {

// NumPy's spelling of a shape: "()", "(5,)", "(3, 4)".
inline std::string format_dims(const index_t* d, int n) {
  std::string s = "(";
  for (int i = 0; i < n; ++i) {
    if (i) s += ", ";
    s += std::to_string(d[i]);
  }
  if (n == 1) s += ",";
  return s + ")";
}

template <std::size_t N>
index_t product(const std::array<index_t, N>& d) {
  index_t n = 1;
  for (index_t e : d) n *= e;
  return n;
}

// A shape written as a braced list ({3, 4}) as a std::array.
template <std::size_t N>
std::array<index_t, N> to_dims(const index_t (&s)[N]) {
  std::array<index_t, N> d{};
  for (std::size_t i = 0; i < N; ++i) d[i] = s[i];
  return d;
}

// Row-major (C order) strides for a shape.
template <std::size_t N>
std::array<index_t, N> c_strides(const std::array<index_t, N>& shape) {
  std::array<index_t, N> s{};
  index_t acc = 1;
  for (std::size_t i = N; i-- > 0;) {
    s[i] = acc;
    acc *= shape[i] > 0 ? shape[i] : 1;
  }
  return s;
}

// NumPy's C-contiguity: strides of size-1 dimensions do not matter; an empty array is contiguous.
template <std::size_t N>
bool is_c_contiguous(const std::array<index_t, N>& shape, const std::array<index_t, N>& strides) {
  index_t expected = 1;
  for (std::size_t i = N; i-- > 0;) {
    if (shape[i] == 0) return true;
    if (shape[i] != 1 && strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

}  // namespace detail

template <std::size_t N>
std::string to_string(const std::array<index_t, N>& d) {
  return detail::format_dims(d.data(), static_cast<int>(N));
}

}  // namespace xf
