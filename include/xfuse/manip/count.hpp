// SPDX-License-Identifier: Apache-2.0
// Counting values: NumPy's bincount and histogram (equal bins). The result's length comes from
// the data (bincount: the largest value; histogram without a range: the smallest and largest), so
// those read two numbers on the host, the only wait for the device; histogram with a range waits
// for nothing. The counts run on manip/count_kernel.cuh on the device, a loop on the host.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "../exec/as_array.hpp"
#include "../reduce/reductions.hpp"
#include "../reduce/row_statistics.hpp"
#include "../reduce/together.hpp"
#include "../user/map.hpp"
#include "count_kernel.cuh"
#include "views.hpp"

namespace xf {
namespace detail {

// out[bin] += weight (or 1) for every bin in [0, out.size()), in out's space.
template <class Bins, class Out, class Weights>
void count_into(const Bins& bins, const Weights* weights, const Out& out, const char* op) {
  using O = value_t<Out>;
  const index_t n = bins.size(), length = out.size();
  if constexpr (std::is_same_v<typename Out::space, device>) {
    static_assert(cuda_tu || always_false<Out>, "xfuse: counting into bins of device arrays launches CUDA kernels; compile this file with nvcc");
#if XF_CUDA_TU
    require_access(out.device_id(), op);
    using Counter = std::conditional_t<std::is_integral_v<O>, unsigned long long, O>;
    const auto* weight_data = weights == nullptr ? static_cast<const value_t<Weights>*>(nullptr) : weights->data();
    count_bins(bins.data(), weight_data, n, reinterpret_cast<Counter*>(out.data()), length, current_slot(out.device_id()).handle);
#endif
  } else {
    (void)op;
    for (index_t i = 0; i < n; ++i) {
      const index_t b = static_cast<index_t>(bins.data()[i]);
      if (b >= 0 && b < length) out.data()[b] += weights == nullptr ? O(1) : static_cast<O>(weights->data()[i]);
    }
  }
}

// NumPy's histogram bin of one value (numpy/lib/_histograms_impl.py): the scaled offset from the
// first edge, in the edges' type, then corrected by one against the edges themselves; -1 outside
// [first, last] (NaN too).
template <class E>
struct histogram_bin {
  const E* edges;
  index_t bins;
  E first, last;
  template <class V>
  XF_HD XF_FORCEINLINE int operator()(const V& value) const {
    const E x = convert<E>(value);
    if (!(x >= first && x <= last)) return -1;
    const double scaled = static_cast<double>(x - first) / (static_cast<double>(last) - first) * static_cast<double>(bins);
    index_t at = scaled >= static_cast<double>(bins) ? bins - 1 : scaled > 0 ? static_cast<index_t>(scaled) : 0;  // NaN: 0
    if (x < edges[at]) --at;
    else if (at != bins - 1 && x >= edges[at + 1]) ++at;
    return static_cast<int>(at);
  }
};

// The number of bins of bincount: at least minlength, past the largest value (read on the host);
// negative values are refused.
template <class Values>
index_t bincount_length(const Values& values, index_t minlength) {
  if (minlength < 0) throw error("xf::bincount: minlength must be non-negative (got " + std::to_string(minlength) + ")");
  if (values.size() == 0) return minlength;
  auto [low, high] = eval(lazy::min(values), lazy::max(values));
  if (static_cast<long double>(low.item()) < 0)
    throw error("xf::bincount: x must have no negative elements (its minimum is " +
                std::to_string(static_cast<long long>(low.item())) + ")");
  const auto largest = static_cast<long double>(high.item());
  if (largest >= static_cast<long double>(std::numeric_limits<index_t>::max()))
    throw error("xf::bincount: the largest value " + std::to_string(static_cast<long long>(high.item())) + " asks for too many bins");
  return std::max<index_t>(minlength, static_cast<index_t>(high.item()) + 1);
}

template <class V>
using histogram_edge_t = std::conditional_t<std::is_floating_point_v<V>, V, double>;

}  // namespace detail

// NumPy's bincount(x, minlength): how often each value 0, 1, ... max(x) occurs in the 1-D
// non-negative integer x, as int64 (at least minlength bins). Reads min and max on the host.
template <expression X>
auto bincount(const X& x, index_t minlength = 0) {
  using T = value_t<X>;
  static_assert(rank_v<X> == 1, "xf::bincount: x must be 1-D");
  static_assert((is_integer<T> && !std::is_same_v<T, std::uint64_t>) || is_bool<T>,
                "xf::bincount: x must hold integers that convert safely to int64 (NumPy's intp): not uint64");
  using S = resolved_space_t<space_t<X>>;
  const auto values = ascontiguousarray(detail::as_array(x));
  array<std::int64_t, 1, S> out = zeros<std::int64_t>({detail::bincount_length(values, minlength)});
  detail::count_into(values, static_cast<const array<double, 1, S>*>(nullptr), out, "xf::bincount");
  return out;
}

// np.bincount(x, weights, minlength): the sum of the weights of each value, as float64.
template <expression X, expression W>
auto bincount(const X& x, const W& weights, index_t minlength = 0) {
  static_assert(rank_v<X> == 1 && rank_v<W> == 1, "xf::bincount: x and the weights must be 1-D");
  static_assert((is_integer<value_t<X>> && !std::is_same_v<value_t<X>, std::uint64_t>) || is_bool<value_t<X>>,
                "xf::bincount: x must hold integers that convert safely to int64 (NumPy's intp): not uint64");
  using S = detail::operands_space_t<X, W>;
  if (weights.shape()[0] != x.shape()[0])
    throw shape_error("xf::bincount: weights of length " + std::to_string(weights.shape()[0]) + " for x of length " +
                      std::to_string(x.shape()[0]));
  const auto values = ascontiguousarray(detail::as_array<S>(x));
  const array<double, 1, S> w = detail::as_array_of<double, S>(weights);
  array<double, 1, S> out = zeros<double>({detail::bincount_length(values, minlength)});
  detail::count_into(values, &w, out, "xf::bincount");
  return out;
}

// NumPy's histogram(a, bins, range): counts of the flattened a in `bins` equal bins over [low,
// high] (the last bin includes high; values outside, and NaN, are left out), and the bins + 1
// edges. The edges are float64, or a's type for float and double arrays (as NumPy's; float for
// half and bfloat16, where NumPy keeps float16). A range too narrow or too wide for bins of
// finite, positive width is an xf::error, as NumPy's ValueError.
template <expression A>
auto histogram(const A& a, index_t bins, double low, double high) {
  using V = value_t<A>;
  static_assert(!is_complex<V> && !is_bool<V>, "xf::histogram: takes real numbers (NumPy refuses bool and orders no complex)");
  using Edge = detail::histogram_edge_t<compute_t<V>>;
  using S = resolved_space_t<space_t<A>>;
  if (bins < 1) throw error("xf::histogram: bins must be at least 1 (got " + std::to_string(bins) + ")");
  if (bins >= (index_t{1} << 31)) throw error("xf::histogram: at most 2^31 - 1 bins (got " + std::to_string(bins) + ")");
  if (!(low <= high) || !std::isfinite(low) || !std::isfinite(high))
    throw error("xf::histogram: the range must be finite with low <= high (got [" + std::to_string(low) + ", " +
                std::to_string(high) + "])");
  if (low == high) low -= 0.5, high += 0.5;
  // NumPy's check: every bin of finite, positive width in the edges' type (the edges are computed
  // once more on the host for it, bit for bit as on the device).
  const array<Edge, 1, host> host_edges = linspace(low, high, bins + 1).template astype<Edge>();
  const Edge* e = host_edges.data();
  bool finite_bins = std::isfinite(static_cast<double>(e[bins]) - static_cast<double>(e[0])) &&
                     std::isfinite(static_cast<double>(e[bins] - e[0]));
  for (index_t i = 0; finite_bins && i < bins; ++i) finite_bins = e[i] < e[i + 1];
  if (!finite_bins)
    throw error("xf::histogram: too many bins for data range: cannot create " + std::to_string(bins) +
                " finite-sized bins over [" + std::to_string(low) + ", " + std::to_string(high) + "] in " + dtype_name<Edge>);
  const array<Edge, 1, S> edges = [&] {
    if constexpr (std::is_same_v<S, host>) return host_edges;  // host arrays: the checked edges themselves
    else return array<Edge, 1, S>(linspace(low, high, bins + 1).template astype<Edge>());
  }();
  detail::require_access(edges.device_id(), "xf::histogram");
  const auto flat = ascontiguousarray(detail::as_array(a)).ravel();
  const array<int, 1, S> at = eval(map(detail::histogram_bin<Edge>{edges.data(), bins, static_cast<Edge>(low), static_cast<Edge>(high)}, flat));
  array<std::int64_t, 1, S> counts = zeros<std::int64_t>({bins});
  detail::count_into(at, static_cast<const array<double, 1, S>*>(nullptr), counts, "xf::histogram");
  return std::pair{counts, edges};
}

// np.histogram(a, bins) without a range: over [min(a), max(a)] (read on the host).
template <expression A>
auto histogram(const A& a, index_t bins = 10) {
  double low = 0, high = 1;
  if (a.size() > 0) {
    auto [smallest, largest] = eval(lazy::min(a), lazy::max(a));
    low = static_cast<double>(detail::convert<detail::histogram_edge_t<compute_t<value_t<A>>>>(smallest.item()));
    high = static_cast<double>(detail::convert<detail::histogram_edge_t<compute_t<value_t<A>>>>(largest.item()));
    if (!std::isfinite(low) || !std::isfinite(high))
      throw error("xf::histogram: autodetected range of [" + std::to_string(low) + ", " + std::to_string(high) + "] is not finite");
  }
  return histogram(a, bins, low, high);
}

}  // namespace xf
