// SPDX-License-Identifier: Apache-2.0
// What a transform call means before anything runs: NumPy's arguments (n / s, axis / axes, norm)
// resolved against an input shape, the scale each norm asks for, and how cuFFT can read an array
// in place (its "advanced layout": one batch stride, nested transform strides). Plain values and
// functions of shapes, unit-tested on the host.
#pragma once

#include <cmath>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "../base/error.hpp"
#include "../base/shape.hpp"
#include "../manip/views.hpp"

namespace xf {

// numpy.fft's norm: which direction carries the 1/n (backward: the inverse; forward: the forward
// transform; ortho: 1/sqrt(n) on both).
enum class fft_norm { backward, ortho, forward };

// The `s` argument of the n-dimensional transforms: lengths, or none given (NumPy's None).
struct fft_sizes {
  std::vector<index_t> values;
  bool given = false;
  fft_sizes() = default;
  fft_sizes(std::initializer_list<index_t> v) : values(v), given(true) {}
  explicit fft_sizes(std::vector<index_t> v) : values(std::move(v)), given(true) {}
};

// The `axes` argument: axes (negative counts from the end), or none given (NumPy's None).
struct fft_axes {
  std::vector<int> values;
  bool given = false;
  fft_axes() = default;
  fft_axes(std::initializer_list<int> v) : values(v), given(true) {}
  explicit fft_axes(std::vector<int> v) : values(std::move(v)), given(true) {}
};

namespace detail {

// Which library transform one step is.
enum class fft_kind { complex_to_complex, real_to_complex, complex_to_real };

// The axes a call transforms and each one's length (the output length for complex_to_real, the
// input length otherwise: numpy.fft's n), in the order given.
struct fft_request {
  std::vector<int> axes;
  std::vector<index_t> lengths;
  const char* op = "xf::fft";  // the public call, for messages
};

inline std::string fft_list(const std::vector<index_t>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

inline void check_fft_length(index_t n, const char* op) {
  if (n < 1) throw shape_error(std::string(op) + ": invalid number of data points (" + std::to_string(n) + ") specified");
}

// Throws xf::shape_error unless the array with each transformed axis at its (largest) length
// fits a 64-bit byte count in complex128: no size computed on the way can overflow.
template <std::size_t R>
void check_fft_extents(std::array<index_t, R> shape, const fft_request& r, const char* op) {
  for (std::size_t i = 0; i < r.axes.size(); ++i) {
    index_t& extent = shape[static_cast<std::size_t>(r.axes[i])];
    extent = i == 0 || extent < r.lengths[i] ? r.lengths[i] : extent;
  }
  checked_size(shape, 16, op);
}

// One axis (fft, rfft, irfft, hfft, ...). `real_output`: n defaults to 2 * (m - 1) (irfft, hfft).
template <std::size_t R>
fft_request resolve_fft_axis(const std::array<index_t, R>& shape, std::optional<index_t> n, int axis, bool real_output,
                             const char* op) {
  static_assert(R >= 1, "xf::fft: a 0-d array has no axis to transform");
  const int a = normalize_axis_of(axis, shape, op);
  const index_t length = n ? *n : real_output ? 2 * (shape[a] - 1) : shape[a];
  check_fft_length(length, op);
  fft_request r{{a}, {length}, op};
  check_fft_extents(shape, r, op);
  return r;
}

// Several axes (fftn, rfftn, irfftn, fft2, ...), as numpy.fft's _cook_nd_args: without axes, the
// last len(s) axes (all of them without s); without s, the input's extents along the axes, the last
// one 2 * (m - 1) for `real_output`; -1 in s the whole extent. `default_axes` (fft2's (-2, -1)) applies when axes are not given.
template <std::size_t R>
fft_request resolve_fft_axes(const std::array<index_t, R>& shape, const fft_sizes& s, const fft_axes& axes,
                             bool real_output, const char* op, std::vector<int> default_axes = {}) {
  constexpr int rank = static_cast<int>(R);
  fft_request r;
  r.op = op;
  std::vector<int> given = axes.given ? axes.values : default_axes;
  if (!axes.given && default_axes.empty()) {
    const int count = s.given ? static_cast<int>(s.values.size()) : rank;
    if (count > rank)
      throw shape_error(std::string(op) + ": s " + fft_list(s.values) + " has more entries than the array has axes (" +
                        std::to_string(rank) + ")");
    for (int i = rank - count; i < rank; ++i) given.push_back(i);
  }
  if (s.given && s.values.size() != given.size())
    throw shape_error(std::string(op) + ": s " + fft_list(s.values) + " and axes must have the same length");
  for (std::size_t i = 0; i < given.size(); ++i) {
    const int a = normalize_axis_of(given[i], shape, op);
    const bool last = i + 1 == given.size();
    // NumPy 2: -1 in s takes the input's whole extent along that axis.
    const index_t length = s.given ? (s.values[i] == -1 ? shape[a] : s.values[i]) : (real_output && last) ? 2 * (shape[a] - 1) : shape[a];
    check_fft_length(length, op);
    r.axes.push_back(a);
    r.lengths.push_back(length);
  }
  if (r.axes.empty() && real_output) throw shape_error(std::string(op) + ": at least one axis must be transformed");
  check_fft_extents(shape, r, op);
  return r;
}

// The number of points a request transforms (the product of its lengths), as numpy.fft scales by.
inline double fft_points(const fft_request& req) {
  double points = 1;
  for (index_t n : req.lengths) points *= static_cast<double>(n);
  return points;
}

// A norm that is none of the three (a value cast into fft_norm) is refused, as NumPy refuses
// other strings.
inline void check_fft_norm(fft_norm norm, const char* op) {
  if (norm != fft_norm::backward && norm != fft_norm::ortho && norm != fft_norm::forward)
    throw error(std::string(op) + ": invalid norm value " + std::to_string(static_cast<int>(norm)) +
                "; should be fft_norm::backward, ortho or forward");
}

// The factor a transform of `points` points multiplies by under `norm` (inverse: the inverse direction).
inline double fft_scale(fft_norm norm, double points, bool inverse) {
  if (norm == fft_norm::ortho) return 1.0 / std::sqrt(points);
  const bool scaled = inverse ? norm == fft_norm::backward : norm == fft_norm::forward;
  return scaled ? 1.0 / points : 1.0;
}
// numpy.fft's _swap_direction (hfft and ihfft).
inline fft_norm swap_direction(fft_norm norm) {
  return norm == fft_norm::backward ? fft_norm::forward : norm == fft_norm::forward ? fft_norm::backward : norm;
}

// How cuFFT reads (or writes) one operand of `rank` transformed dimensions and one batch
// dimension: element (b, x, y, z) at b * dist + ((x * embed[1] + y) * embed[2] + z) * stride.
struct fft_layout {
  int rank = 0;
  long long n[3] = {1, 1, 1};
  long long embed[3] = {1, 1, 1};
  long long stride = 1;
  long long dist = 1;
  long long batch = 1;
};

// The layout of a view whose last `rank` dimensions are transformed (extents `shape`, element
// strides `strides`), when cuFFT can read it in place: positive strides, the transformed
// dimensions nested (each stride a multiple of the next one's, at least its extent apart), and
// every other dimension of more than one element folding into one batch stride. Returns nothing
// otherwise (the caller copies). Precondition: 1 <= rank <= 3, rank <= R.
template <std::size_t R>
std::optional<fft_layout> advanced_layout(const std::array<index_t, R>& shape, const std::array<index_t, R>& strides, int rank) {
  constexpr int dims = static_cast<int>(R);
  fft_layout l;
  l.rank = rank;
  const int first = dims - rank;
  for (int d = first; d < dims; ++d)
    if (strides[d] <= 0) return std::nullopt;
  l.stride = strides[dims - 1];
  for (int j = 0; j < rank; ++j) l.n[j] = shape[first + j];
  l.embed[0] = l.n[0];
  for (int j = 1; j < rank; ++j) {
    const index_t outer = strides[first + j - 1], inner = strides[first + j];
    if (outer % inner != 0 || outer / inner < shape[first + j]) return std::nullopt;
    l.embed[j] = outer / inner;
  }
  // The batch dimensions: those of more than one element, folded from the innermost out.
  bool any = false;
  index_t next_stride = 0, span = 1;
  for (int d = first - 1; d >= 0; --d) {
    if (shape[d] == 1) continue;
    if (strides[d] <= 0) return std::nullopt;
    if (!any) {
      l.dist = strides[d];
      any = true;
    } else if (strides[d] != next_stride) {
      return std::nullopt;
    }
    span *= shape[d];
    next_stride = strides[d] * shape[d];
  }
  l.batch = span;
  if (!any) {
    long long whole = l.stride;
    for (int j = 0; j < rank; ++j) whole *= j == 0 ? l.n[0] : l.embed[j];
    l.dist = whole;
  }
  return l;
}

// The layout of a C-contiguous block whose last `rank` extents `n` are transformed, `batch` of them.
inline fft_layout contiguous_layout(const long long* n, int rank, long long batch) {
  fft_layout l;
  l.rank = rank;
  l.dist = 1;
  for (int j = 0; j < rank; ++j) {
    l.n[j] = n[j];
    l.embed[j] = n[j];
    l.dist *= n[j];
  }
  l.stride = 1;
  l.batch = batch;
  return l;
}

}  // namespace detail
}  // namespace xf
