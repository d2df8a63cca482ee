// SPDX-License-Identifier: Apache-2.0
// Shapes and strides: plain std::array of signed 64-bit extents, strides counted in elements.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "error.hpp"

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

// Checked extent arithmetic: false when the exact result does not fit index_t.
inline bool checked_add(index_t a, index_t b, index_t& out) noexcept { return !__builtin_add_overflow(a, b, &out); }
inline bool checked_mul(index_t a, index_t b, index_t& out) noexcept { return !__builtin_mul_overflow(a, b, &out); }

// An extent an operation computes (tile's reps * n, pad's before + n + after, ...), or
// xf::shape_error "array is too big" naming `op` when it does not fit index_t.
inline index_t checked_extent(bool fits, index_t r, index_t a, const char* symbol, index_t b, const char* op) {
  if (!fits)
    throw shape_error(std::string(op) + ": array is too big: an extent of " + std::to_string(a) + symbol + std::to_string(b) +
                      " elements does not fit a signed 64-bit count");
  return r;
}
inline index_t extent_product(index_t a, index_t b, const char* op) {
  index_t r;
  const bool fits = checked_mul(a, b, r);
  return checked_extent(fits, r, a, " * ", b, op);
}
inline index_t extent_sum(index_t a, index_t b, const char* op) {
  index_t r;
  const bool fits = checked_add(a, b, r);
  return checked_extent(fits, r, a, " + ", b, op);
}

// The one check every shape passes where it is made (arrays, views, generators, files, DLPack):
// no negative extent, and the product of the non-zero extents times the element size fits a
// signed 64-bit byte count. That is NumPy's rule ("array is too big"); leaving zero extents out
// of the product means C-order strides, offsets and byte counts of a checked shape cannot
// overflow either. Returns the element count; otherwise throws xf::shape_error naming `op`.
inline index_t checked_size(const index_t* shape, int n, std::size_t itemsize, const char* op) {
  for (int i = 0; i < n; ++i)
    if (shape[i] < 0)
      throw shape_error(std::string(op) + ": negative extent in shape " + format_dims(shape, n) +
                        " (negative dimensions are not allowed)");
  index_t bytes = static_cast<index_t>(itemsize > 0 ? itemsize : 1);
  bool empty = false, fits = itemsize <= static_cast<std::size_t>(INT64_MAX);
  for (int i = 0; i < n && fits; ++i) {
    if (shape[i] == 0) empty = true;
    else fits = checked_mul(bytes, shape[i], bytes);
  }
  if (!fits)
    throw shape_error(std::string(op) + ": array is too big: shape " + format_dims(shape, n) + " of " +
                      std::to_string(itemsize) + "-byte elements spans more than 2^63 - 1 bytes");
  if (empty) return 0;
  return itemsize > 0 ? bytes / static_cast<index_t>(itemsize) : bytes;
}
template <std::size_t N>
index_t checked_size(const std::array<index_t, N>& shape, std::size_t itemsize, const char* op) {
  return checked_size(shape.data(), static_cast<int>(N), itemsize, op);
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

// C-order strides of a shape that passes checked_size (which is what keeps them from overflowing).
template <std::size_t N>
std::array<index_t, N> checked_c_strides(const std::array<index_t, N>& shape, std::size_t itemsize, const char* op) {
  checked_size(shape, itemsize, op);
  return c_strides(shape);
}

// For memory described by someone else (wrap, DLPack): the offsets a non-empty view reaches from
// its first element, sum of (extent - 1) * |stride|, must fit a signed 64-bit byte count, or every
// index computation on the view could overflow. Throws xf::shape_error naming `op`.
template <std::size_t N>
void check_span(const std::array<index_t, N>& shape, const std::array<index_t, N>& strides, std::size_t itemsize,
                const char* op) {
  for (index_t e : shape)
    if (e == 0) return;  // nothing is ever read
  index_t span = 0, term = 0;
  bool fits = true;
  for (std::size_t d = 0; d < N && fits; ++d) {
    const index_t stride = strides[d];
    fits = stride != INT64_MIN && checked_mul(shape[d] - 1, stride < 0 ? -stride : stride, term) &&
           checked_add(span, term, span);
  }
  if (fits) fits = checked_mul(span, static_cast<index_t>(itemsize), term);
  if (!fits)
    throw shape_error(std::string(op) + ": strides " + format_dims(strides.data(), static_cast<int>(N)) +
                      " over shape " + format_dims(shape.data(), static_cast<int>(N)) +
                      " reach offsets past 2^63 - 1 bytes");
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

namespace detail {

// The one axis check: an axis in [-rank, rank) as an index in [0, rank); throws naming the
// operation and the shape.
template <std::size_t N>
int normalize_axis_of(int axis, const std::array<index_t, N>& shape, const char* op) {
  constexpr int R = static_cast<int>(N);
  if (axis < -R || axis >= R)
    throw shape_error(std::string(op) + ": axis " + std::to_string(axis) + " is out of bounds for an array of shape " +
                      to_string(shape));
  return axis < 0 ? axis + R : axis;
}

}  // namespace detail

}  // namespace xf
