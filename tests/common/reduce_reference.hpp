// Independent references for reductions: plain loops over a C-ordered std::vector in long double
// (or exact integer) arithmetic, NumPy's rules written out, no xfuse code involved.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "check.hpp"
#include "random.hpp"

namespace xf_test {

using shape_t = std::vector<xf::index_t>;

// Which axes are reduced: `axes`, or every axis when it is empty (a full reduction).
inline std::vector<bool> reduced_axes(int rank, const std::vector<int>& axes) {
  std::vector<bool> reduced(rank, axes.empty());
  for (int a : axes) reduced[a < 0 ? a + rank : a] = true;
  return reduced;
}

// Folds the elements of `x` (shape `shape`) over `axes` (empty: all): fold(acc, value, index over
// the reduced axes), results in C order over the kept axes.
template <class Acc, class T, class Fold>
std::vector<Acc> fold_axes(const std::vector<T>& x, const shape_t& shape, const std::vector<int>& axes, Acc init,
                           Fold fold) {
  const int r = static_cast<int>(shape.size());
  const std::vector<bool> reduced = reduced_axes(r, axes);
  xf::index_t n_out = 1;
  for (int d = 0; d < r; ++d)
    if (!reduced[d]) n_out *= shape[d];
  std::vector<Acc> acc(static_cast<std::size_t>(n_out), init);
  std::vector<xf::index_t> idx(r, 0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    xf::index_t o = 0, k = 0;
    for (int d = 0; d < r; ++d) {
      if (reduced[d]) k = k * shape[d] + idx[d];
      else o = o * shape[d] + idx[d];
    }
    acc[static_cast<std::size_t>(o)] = fold(acc[static_cast<std::size_t>(o)], x[i], k);
    for (int d = r - 1; d >= 0; --d) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return acc;
}

inline xf::index_t reduced_count(const shape_t& shape, const std::vector<int>& axes) {
  const std::vector<bool> reduced = reduced_axes(static_cast<int>(shape.size()), axes);
  xf::index_t n = 1;
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (reduced[d]) n *= shape[d];
  return n;
}

template <class T>
long double ld(const T& v) {
  return static_cast<long double>(as_real(v));
}

// Sum (and sum of magnitudes, for the tolerance) in long double.
struct sum_abs {
  long double sum = 0, abs = 0;
};
template <class T>
std::vector<sum_abs> ref_sum(const std::vector<T>& x, const shape_t& s, const std::vector<int>& axes, bool skip_nan = false) {
  return fold_axes(x, s, axes, sum_abs{}, [&](sum_abs a, const T& v, xf::index_t) {
    const long double f = ld(v);
    if (skip_nan && f != f) return a;
    return sum_abs{a.sum + f, a.abs + std::fabs(f)};
  });
}

// NaN-propagating (or NaN-skipping) extreme value and its first index.
struct extreme {
  long double value = 0;
  xf::index_t index = -1;
};
template <class T>
std::vector<extreme> ref_extreme(const std::vector<T>& x, const shape_t& s, const std::vector<int>& axes, bool max,
                                 bool skip_nan) {
  return fold_axes(x, s, axes, extreme{}, [&](extreme a, const T& v, xf::index_t k) {
    const long double f = ld(v);
    if (f != f) {
      if (skip_nan) return a;
      return (a.index >= 0 && a.value != a.value) ? a : extreme{f, k};
    }
    if (a.index < 0) return extreme{f, k};
    if (a.value != a.value) return a;
    if (max ? f > a.value : f < a.value) return extreme{f, k};
    return a;
  });
}

// Two-pass variance in long double.
template <class T>
std::vector<long double> ref_var(const std::vector<T>& x, const shape_t& s, const std::vector<int>& axes, double ddof) {
  const auto sums = ref_sum(x, s, axes);
  const long double n = static_cast<long double>(reduced_count(s, axes));
  std::vector<long double> means(sums.size());
  for (std::size_t i = 0; i < sums.size(); ++i) means[i] = sums[i].sum / n;
  std::vector<long double> out(sums.size(), 0);  // second pass: squared deviations per result
  {
    const int r = static_cast<int>(s.size());
    const std::vector<bool> reduced = reduced_axes(r, axes);
    std::vector<xf::index_t> idx(r, 0);
    for (std::size_t i = 0; i < x.size(); ++i) {
      xf::index_t o = 0;
      for (int d = 0; d < r; ++d)
        if (!reduced[d]) o = o * s[d] + idx[d];
      const long double dv = ld(x[i]) - means[static_cast<std::size_t>(o)];
      out[static_cast<std::size_t>(o)] += dv * dv;
      for (int d = r - 1; d >= 0; --d) {
        if (++idx[d] < s[d]) break;
        idx[d] = 0;
      }
    }
  }
  const long double dof = n - static_cast<long double>(ddof);
  for (auto& v : out) v /= dof;
  return out;
}

}  // namespace xf_test
