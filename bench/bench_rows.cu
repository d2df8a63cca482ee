// SPDX-License-Identifier: Apache-2.0
// Reductions fused with their consumers (softmax, log_softmax, logsumexp, layer norm, RMS norm)
// against the copy ceiling and against the same result composed from xfuse's reduction and
// element-wise kernels (the unfused form: for softmax a maximum, a sum of exponentials and an
// element-wise pass; for layer norm a mean, a variance and an element-wise pass), in one run:
// CUDA-event medians. vs_copy counts the bytes a fused kernel must move: the input read once and the output
// written once. Each case checks its answer against the composed one before timing.
//
// Several reductions in one pass (xf::eval of xf::lazy reductions) against the same reductions run
// one after another (composed_ms), and for a full reduction against the read bandwidth of
// cub::DeviceReduce::Sum over the same array (vs_read); several assignments in one kernel against
// the same assignments one after another. An expression using a running sum (xf::lazy::cumsum) in
// the scan's kernel against the same expression over the running sums made into an array first (composed_ms), and for one
// line against cub::DeviceScan::InclusiveSum of the same array (vs_cub_scan: the same bytes moved).
// Row functions and scans as users compose them (compose/): into preallocated arrays and inside
// expressions, against the same statements written in two.
#include <cstdio>
#include <cstdlib>
#include <map>

#include <cub/cub.cuh>
#include <xfuse/norm.hpp>
#include <xfuse/reduce.hpp>
#include <xfuse/scan.hpp>
#include <xfuse/softmax.hpp>

#include "bench_util.cuh"

using namespace xf_bench;

namespace {

constexpr xf::index_t two20 = xf::index_t{1} << 20;

enum class which { softmax, log_softmax, logsumexp, layer_norm, rms_norm };

// Weight and bias along rows of `n`, made once per length.
const xf::array<float, 1>& weight(xf::index_t n) {
  static std::map<xf::index_t, xf::array<float, 1>> made;
  auto it = made.find(n);
  if (it == made.end()) it = made.emplace(n, random_array<float>(n, 0.5, 2)).first;
  return it->second;
}
const xf::array<float, 1>& bias(xf::index_t n) {
  static std::map<xf::index_t, xf::array<float, 1>> made;
  auto it = made.find(n);
  if (it == made.end()) it = made.emplace(n, random_array<float>(n, -1, 1)).first;
  return it->second;
}

// The composed form: what a user writes without xf::softmax.
template <which W>
xf::array<float, 2> composed(const xf::array<float, 2>& a, int axis) {
  const xf::index_t n = a.shape()[axis];
  const xf::dims<2> along = axis == 1 ? xf::dims<2>{1, n} : xf::dims<2>{n, 1};  // a weight along the axis
  if constexpr (W == which::layer_norm) {
    const auto w = weight(n).reshape(along);
    const auto b = bias(n).reshape(along);
    return (a - xf::mean(a, axis, xf::keepdims)) / xf::sqrt(xf::var(a, axis, xf::keepdims) + 1e-5f) * w + b;
  } else if constexpr (W == which::rms_norm) {
    const auto w = weight(n).reshape(along);
    return a / xf::sqrt(xf::mean(a * a, axis, xf::keepdims) + 1e-6f) * w;
  }
  const auto max = xf::max(a, axis, xf::keepdims);
  if constexpr (W == which::softmax) {
    const auto sum = xf::sum(xf::exp(a - max), axis, xf::keepdims);
    return xf::exp(a - max) / sum;
  } else {
    const auto sum = xf::sum(xf::exp(a - max), axis, xf::keepdims);
    if constexpr (W == which::log_softmax) return (a - max) - xf::log(sum);
    else return xf::log(sum) + max;
  }
}

template <which W>
xf::array<float, 2> fused(const xf::array<float, 2>& a, int axis) {
  if constexpr (W == which::softmax) return xf::softmax(a, axis);
  else if constexpr (W == which::log_softmax) return xf::log_softmax(a, axis);
  else if constexpr (W == which::logsumexp) return xf::logsumexp(a, axis, xf::keepdims);
  else if constexpr (W == which::layer_norm) return xf::layer_norm(a, axis, 1e-5, weight(a.shape()[axis]), bias(a.shape()[axis]));
  else return xf::rms_norm(a, axis, 1e-6, weight(a.shape()[axis]));
}

// The two-pass form every walk falls back to (a reduction of each row's statistics, then a fused
// element-wise pass), forced: what the one-pass walks are measured against.
template <which W>
void two_passes(const xf::array<float, 2>& a, int axis, xf::array<float, 2>& out) {
  using xf::detail::row_result;
  constexpr row_result what = W == which::softmax       ? row_result::softmax
                              : W == which::log_softmax ? row_result::log_softmax
                              : W == which::logsumexp   ? row_result::logsumexp
                              : W == which::layer_norm  ? row_result::layer_norm
                                                        : row_result::rms_norm;
  const xf::index_t n = a.shape()[axis];
  if constexpr (W == which::layer_norm) xf::detail::rows_in_two_passes<what>(a, axis, out, "bench", 1e-5, weight(n), bias(n));
  else if constexpr (W == which::rms_norm) xf::detail::rows_in_two_passes<what>(a, axis, out, "bench", 1e-6, weight(n), xf::detail::no_operand{});
  else xf::detail::rows_in_two_passes<what>(a, axis, out, "bench", 0, xf::detail::no_operand{}, xf::detail::no_operand{});
}

template <which W, xf::index_t rows_count, xf::index_t row_length, int axis>
void rows(benchmark::State& state) {
  const auto a = random_array<float>(rows_count * row_length, -8, 8).reshape({rows_count, row_length});
  xf::array<float, 2> r, c;
  const double ms = median_ms([&] { r = fused<W>(a, axis); });
  const double composed_ms = median_ms([&] { c = composed<W>(a, axis); });
  const float diff = xf::max(xf::abs(r - c)).item();
  xf::array<float, 2> t(r.shape());
  const double two_pass_ms = median_ms([&] { two_passes<W>(a, axis, t); });
  const float two_pass_diff = xf::max(xf::abs(t - c)).item();
  if (!(diff <= 1e-4f) || !(two_pass_diff <= 1e-4f)) {
    std::fprintf(stderr, "(%lld, %lld) along axis %d: xfuse differs from the composed form by %g (two passes: %g)\n",
                 static_cast<long long>(rows_count), static_cast<long long>(row_length), axis, static_cast<double>(diff),
                 static_cast<double>(two_pass_diff));
    std::abort();
  }
  const double in = static_cast<double>(a.size()) * 4, out = static_cast<double>(r.size()) * 4;
  report(state, ms, in + out);
  state.counters["composed_ms"] = composed_ms;
  state.counters["vs_composed"] = composed_ms / ms;
  state.counters["two_pass_ms"] = two_pass_ms;
}

void require_equal(double got, double want, const char* what) {
  if (!(std::abs(got - want) <= 1e-4 * std::abs(want) + 1e-5)) {
    std::fprintf(stderr, "%s: one pass gives %.9g, separate passes %.9g\n", what, got, want);
    std::abort();
  }
}

void require_small(double difference, double limit, const char* what) {
  if (!(difference <= limit)) {
    std::fprintf(stderr, "%s: one pass and separate passes differ by %.9g\n", what, difference);
    std::abort();
  }
}

// sum(x), sum(x * x) and max(x) of 1e8 floats in one pass.
void together_full(benchmark::State& state) {
  constexpr xf::index_t n = 100'000'000;
  const auto x = random_array<float>(n, -1, 1);
  xf::array<float, 0> s, q, m, s1, q1, m1;
  const double ms = median_ms([&] { std::tie(s, q, m) = xf::eval(xf::lazy::sum(x), xf::lazy::sum(x * x), xf::lazy::max(x)); });
  const double separate_ms = median_ms([&] {
    s1 = xf::sum(x);
    q1 = xf::sum(x * x);
    m1 = xf::max(x);
  });
  require_equal(s.item(), s1.item(), "sum");
  require_equal(q.item(), q1.item(), "sum of squares");
  require_equal(m.item(), m1.item(), "max");
  const xf::array<float, 0> c(xf::dims<0>{});
  const cudaStream_t stream = xf::current_stream().handle();
  std::size_t bytes = 0;
  check(cub::DeviceReduce::Sum(nullptr, bytes, x.data(), c.data(), n, stream), "cub sum size");
  const xf::array<unsigned char, 1> temp({static_cast<xf::index_t>(bytes)});
  const double cub_ms = median_ms([&] { check(cub::DeviceReduce::Sum(temp.data(), bytes, x.data(), c.data(), n, stream), "cub sum"); });
  report(state, ms, static_cast<double>(n) * 4);
  state.counters["composed_ms"] = separate_ms;
  state.counters["vs_composed"] = separate_ms / ms;
  state.counters["cub_sum_ms"] = cub_ms;
  state.counters["vs_read"] = cub_ms / ms;
}

// Two reductions of an 8192^2 matrix along one axis in one pass: sum and max of each row
// (Axis 1), or mean and variance of each column (Axis 0).
template <int Axis>
void together_axis(benchmark::State& state) {
  constexpr xf::index_t side = 8192;
  const auto a = random_array<float>(side * side, -1, 1).reshape({side, side});
  xf::array<float, 1> r0, r1, c0, c1;
  const auto first = [&] {
    if constexpr (Axis == 1) return xf::lazy::sum(a, 1);
    else return xf::lazy::mean(a, 0);
  };
  const auto second = [&] {
    if constexpr (Axis == 1) return xf::lazy::max(a, 1);
    else return xf::lazy::var(a, 0);
  };
  const double ms = median_ms([&] { std::tie(r0, r1) = xf::eval(first(), second()); });
  const double separate_ms = median_ms([&] {
    c0 = first().run();
    c1 = second().run();
  });
  // Sums of 8192 floats in another order: within a few units of 1e-5 of the magnitude.
  require_small(xf::max(xf::abs(r0 - c0) / (xf::abs(c0) + 1)).item(), 1e-4, "first result");
  require_small(xf::max(xf::abs(r1 - c1) / (xf::abs(c1) + 1)).item(), 1e-4, "second result");
  report(state, ms, static_cast<double>(side) * side * 4);
  state.counters["composed_ms"] = separate_ms;
  state.counters["vs_composed"] = separate_ms / ms;
}

// Two assignments sharing two inputs, 2^28 floats each: one kernel moving 16 bytes an element
// (two reads, two writes) against two kernels moving 24.
void together_assign(benchmark::State& state) {
  constexpr xf::index_t n = xf::index_t{1} << 28;
  const auto x = random_array<float>(n, -1, 1), y = random_array<float>(n, -1, 1);
  const xf::array<float, 1> z1({n}), z2({n}), c1({n}), c2({n});
  const double ms = median_ms([&] { xf::assign(xf::into(z1) = x + y, xf::into(z2) = x * y - 1); });
  const double separate_ms = median_ms([&] {
    c1.assign(x + y);
    c2.assign(x * y - 1);
  });
  require_small(xf::max(xf::abs(z1 - c1) + xf::abs(z2 - c2)).item(), 1e-6, "assignments together");
  report(state, ms, static_cast<double>(n) * 16);
  state.counters["composed_ms"] = separate_ms;
  state.counters["vs_composed"] = separate_ms / ms;
}

enum class general { divide_by_sum, subtract_mean, subtract_column_mean, standardise, weighted_standardise };

// The general form: an expression that uses reductions of its own rows, described with xf::lazy
// (one kernel), against the same expression with eager reductions (a reduction kernel each, then
// the element-wise kernel: the NumPy-style composition).
template <general G, xf::index_t rows_count, xf::index_t row_length>
void statistics_in_rows(benchmark::State& state) {
  const auto a = random_array<float>(rows_count * row_length, 0.5, 8).reshape({rows_count, row_length});
  // A weight and a bias of a's type (layer norm written out): arrays of one type beside a.
  const auto w = random_array<float>(row_length, 0.5, 2).reshape({1, row_length});
  const auto b = random_array<float>(row_length, -1, 1).reshape({1, row_length});
  const xf::array<float, 2> r(a.shape()), c(a.shape());
  const double ms = median_ms([&] {
    if constexpr (G == general::divide_by_sum) r.assign(a / xf::lazy::sum(a, 1, xf::keepdims));
    else if constexpr (G == general::subtract_mean) r.assign(a - xf::lazy::mean(a, 1, xf::keepdims));
    else if constexpr (G == general::subtract_column_mean) r.assign(a - xf::lazy::mean(a, 0, xf::keepdims));
    else if constexpr (G == general::standardise)
      r.assign((a - xf::lazy::mean(a, 1, xf::keepdims)) / xf::sqrt(xf::lazy::var(a, 1, xf::keepdims) + 1e-5f));
    else r.assign((a - xf::lazy::mean(a, 1, xf::keepdims)) / xf::sqrt(xf::lazy::var(a, 1, xf::keepdims) + 1e-5f) * w + b);
  });
  const double composed_ms = median_ms([&] {
    if constexpr (G == general::divide_by_sum) c.assign(a / xf::sum(a, 1, xf::keepdims));
    else if constexpr (G == general::subtract_mean) c.assign(a - xf::mean(a, 1, xf::keepdims));
    else if constexpr (G == general::subtract_column_mean) c.assign(a - xf::mean(a, 0, xf::keepdims));
    else if constexpr (G == general::standardise) c.assign((a - xf::mean(a, 1, xf::keepdims)) / xf::sqrt(xf::var(a, 1, xf::keepdims) + 1e-5f));
    else c.assign((a - xf::mean(a, 1, xf::keepdims)) / xf::sqrt(xf::var(a, 1, xf::keepdims) + 1e-5f) * w + b);
  });
  require_small(xf::max(xf::abs(r - c) / (xf::abs(c) + 1)).item(), 1e-4, "statistics in rows");
  report(state, ms, static_cast<double>(a.size()) * 8);
  state.counters["composed_ms"] = composed_ms;
  state.counters["vs_composed"] = composed_ms / ms;
}

// Median ms of cub::DeviceScan::InclusiveSum of x into out (the baseline of the 1-D scans).
double cub_scan_ms(const xf::array<float, 1>& x, const xf::array<float, 1>& out) {
  const cudaStream_t s = xf::current_stream().handle();
  std::size_t bytes = 0;
  check(cub::DeviceScan::InclusiveSum(nullptr, bytes, x.data(), out.data(), x.size(), s), "scan size");
  const xf::array<unsigned char, 1> temp({static_cast<xf::index_t>(bytes)});
  return median_ms([&] { check(cub::DeviceScan::InclusiveSum(temp.data(), bytes, x.data(), out.data(), x.size(), s), "scan"); });
}

// y = x - cumsum(x) / n over 1e8 floats (Axis -1), or y = A - cumsum(A, Axis) / n of an 8192^2 A.
template <int Axis>
void consumer_of_scan(benchmark::State& state) {
  constexpr xf::index_t side = 8192, count = Axis < 0 ? 100'000'000 : side * side;
  // Values in {-1, 0, 1}: running sums stay far below 2^24, exact in float in any order.
  const xf::array<float, 1> x = xf::rint(random_array<float>(count));
  const auto a = x.reshape({Axis < 0 ? 1 : side, Axis < 0 ? count : side});  // the matrix cases only
  const xf::array<float, 1> r(x.shape()), c(x.shape());
  const auto r2 = r.reshape(a.shape()), c2 = c.reshape(a.shape());
  const float n = Axis < 0 ? static_cast<float>(count) : static_cast<float>(side);
  double ms = 0, composed_ms = 0;
  // The composed form: the running sums as an array first (xf::cumsum in an expression is fused
  // like xf::lazy::cumsum, so it is named here).
  if constexpr (Axis < 0) {
    ms = median_ms([&] { r.assign(x - xf::lazy::cumsum(x) / n); });
    composed_ms = median_ms([&] {
      const xf::array<float, 1> sums = xf::cumsum(x);
      c.assign(x - sums / n);
    });
  } else {
    ms = median_ms([&] { r2.assign(a - xf::lazy::cumsum(a, Axis) / n); });
    composed_ms = median_ms([&] {
      const xf::array<float, 2> sums = xf::cumsum(a, Axis);
      c2.assign(a - sums / n);
    });
  }
  require_small(xf::max(xf::abs(r - c)).item(), 0, "x - cumsum(x) / n");
  report(state, ms, static_cast<double>(count) * 8);
  state.counters["composed_ms"] = composed_ms;
  state.counters["vs_composed"] = composed_ms / ms;
  if constexpr (Axis < 0) state.counters["vs_cub_scan"] = cub_scan_ms(x, c) / ms;
}

// A row function's result as users compose it, 8192^2 floats: into a preallocated array, inside an
// element-wise expression, against the same statement written in two (the result as a fresh
// array, then the copy or the expression: what composing cost before results were described).
enum class statement { softmax_into, softmax_affine, layer_norm_into, weighted_norm_into };

template <statement S, xf::index_t rows_count = 8192, xf::index_t row_length = 8192>
void composed_rows(benchmark::State& state) {
  const auto a = random_array<float>(rows_count * row_length, -8, 8).reshape({rows_count, row_length});
  const auto b = bias(row_length).reshape({1, row_length}), w = weight(row_length).reshape({1, row_length});
  xf::array<float, 2> out(a.shape()), c(a.shape());
  const auto one = [&](const xf::array<float, 2>& into) {
    if constexpr (S == statement::softmax_into) into.assign(xf::softmax(a, 1));
    else if constexpr (S == statement::softmax_affine) into.assign(2.0f * xf::softmax(a, 1) + b);
    else if constexpr (S == statement::layer_norm_into) into.assign(xf::layer_norm(a, 1, 1e-5));
    else into.assign(w * xf::layer_norm(a, 1, 1e-5) + b);
  };
  const auto two = [&](const xf::array<float, 2>& into) {
    if constexpr (S == statement::softmax_into || S == statement::softmax_affine) {
      const xf::array<float, 2> s = xf::softmax(a, 1);
      if constexpr (S == statement::softmax_into) into.assign(s);
      else into.assign(2.0f * s + b);
    } else {
      const xf::array<float, 2> n = xf::layer_norm(a, 1, 1e-5);
      if constexpr (S == statement::layer_norm_into) into.assign(n);
      else into.assign(w * n + b);
    }
  };
  const double ms = S == statement::softmax_affine ? median_ms([&] { out = xf::eval(2.0f * xf::softmax(a, 1) + b); })
                                                    : median_ms([&] { one(out); });
  const double composed_ms = median_ms([&] { two(c); });
  one(out);
  require_small(xf::max(xf::abs(out - c)).item(), 1e-6, "a composed row function");
  report(state, ms, static_cast<double>(a.size()) * 8);
  state.counters["composed_ms"] = composed_ms;
  state.counters["vs_composed"] = composed_ms / ms;
}

// A running sum of 1e8 floats into a preallocated array (Kind 0: xf::cumsum, 1: xf::lazy::cumsum)
// or as a fresh array (2), against cub::DeviceScan::InclusiveSum of the same array into the same
// destination (vs_cub_scan) and the two-statement form (a fresh result, then the copy).
template <int Kind>
void scan_into(benchmark::State& state) {
  constexpr xf::index_t count = 100'000'000;
  const xf::array<float, 1> x = xf::rint(random_array<float>(count));  // exact in any order
  xf::array<float, 1> out({count}), c({count});
  double ms = 0;
  if constexpr (Kind == 0) ms = median_ms([&] { out.assign(xf::cumsum(x)); });
  else if constexpr (Kind == 1) ms = median_ms([&] { out.assign(xf::lazy::cumsum(x)); });
  else ms = median_ms([&] { out = xf::cumsum(x); });
  const double composed_ms = median_ms([&] {
    const xf::array<float, 1> fresh = xf::cumsum(x);
    c.assign(fresh);
  });
  require_small(xf::max(xf::abs(out - c)).item(), 0, "cumsum into an array");
  report(state, ms, static_cast<double>(count) * 8);
  state.counters["composed_ms"] = composed_ms;
  state.counters["vs_cub_scan"] = cub_scan_ms(x, c) / ms;
}

}  // namespace

BENCHMARK_TEMPLATE(consumer_of_scan, -1)->Name("general/x-cumsum(x)/n/f32/1e8")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(consumer_of_scan, 1)->Name("general/A-cumsum(A,1)/n/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(consumer_of_scan, 0)->Name("general/A-cumsum(A,0)/n/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(statistics_in_rows, general::divide_by_sum, 8192, 8192)->Name("general/x/sum(x,1,kd)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(statistics_in_rows, general::subtract_mean, 8192, 8192)->Name("general/x-mean(x,1,kd)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(statistics_in_rows, general::subtract_column_mean, 8192, 8192)->Name("general/x-mean(x,0,kd)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(statistics_in_rows, general::standardise, 8192, 8192)->Name("general/(x-mean)/sqrt(var+eps)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(statistics_in_rows, general::weighted_standardise, 8192, 8192)->Name("general/(x-mean)/sqrt(var+eps)*w+b/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(statistics_in_rows, general::standardise, 65536, 1024)->Name("general/(x-mean)/sqrt(var+eps)/f32/65536x1024")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(statistics_in_rows, general::weighted_standardise, 65536, 1024)->Name("general/(x-mean)/sqrt(var+eps)*w+b/f32/65536x1024")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(statistics_in_rows, general::subtract_mean, two20, 64)->Name("general/x-mean(x,1,kd)/f32/2^20x64")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(statistics_in_rows, general::divide_by_sum, 65536, 1024)->Name("general/x/sum(x,1,kd)/f32/65536x1024")->UseManualTime()->Iterations(1);
BENCHMARK(together_assign)->Name("together/z1=x+y,z2=x*y-1/f32/2^28")->UseManualTime()->Iterations(1);
BENCHMARK(together_full)->Name("together/sum,sum(x*x),max/f32/1e8")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(together_axis, 1)->Name("together/sum(A,1),max(A,1)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(together_axis, 0)->Name("together/mean(A,0),var(A,0)/f32/8192^2")->UseManualTime()->Iterations(1);


BENCHMARK_TEMPLATE(rows, which::softmax, 8192, 8192, 1)->Name("rows/softmax(A,1)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(rows, which::softmax, 8192, 8192, 0)->Name("rows/softmax(A,0)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(rows, which::softmax, 4096, 16384, 0)->Name("rows/softmax(A,0)/f32/4096x16384")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(rows, which::softmax, 2048, 32768, 0)->Name("rows/softmax(A,0)/f32/2048x32768")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(rows, which::softmax, 512, 131072, 0)->Name("rows/softmax(A,0)/f32/512x131072")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(rows, which::log_softmax, 8192, 8192, 1)->Name("rows/log_softmax(A,1)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(rows, which::logsumexp, 8192, 8192, 1)->Name("rows/logsumexp(A,1)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(rows, which::softmax, 64, two20, 1)->Name("rows/softmax(A,1)/f32/64x2^20")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(rows, which::layer_norm, 64, two20, 1)->Name("rows/layer_norm(A,1,w,b)/f32/64x2^20")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(rows, which::softmax, 1024, 32768, 1)->Name("rows/softmax(A,1)/f32/1024x32768")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(rows, which::softmax, two20, 64, 1)->Name("rows/softmax(A,1)/f32/2^20x64")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(rows, which::softmax, 65536, 1024, 1)->Name("rows/softmax(A,1)/f32/65536x1024")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(rows, which::layer_norm, 8192, 8192, 1)->Name("rows/layer_norm(A,1,w,b)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(rows, which::layer_norm, 8192, 8192, 0)->Name("rows/layer_norm(A,0,w,b)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(rows, which::layer_norm, 4096, 16384, 0)->Name("rows/layer_norm(A,0,w,b)/f32/4096x16384")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(rows, which::layer_norm, 65536, 1024, 1)->Name("rows/layer_norm(A,1,w,b)/f32/65536x1024")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(rows, which::rms_norm, 8192, 8192, 1)->Name("rows/rms_norm(A,1,w)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(composed_rows, statement::softmax_into)->Name("compose/out.assign(softmax(A,1))/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(composed_rows, statement::softmax_affine)->Name("compose/eval(2*softmax(A,1)+b)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(composed_rows, statement::softmax_into, 64, two20)->Name("compose/out.assign(softmax(A,1))/f32/64x2^20")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(composed_rows, statement::softmax_affine, 64, two20)->Name("compose/eval(2*softmax(A,1)+b)/f32/64x2^20")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(composed_rows, statement::layer_norm_into)->Name("compose/out.assign(layer_norm(A,1))/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(composed_rows, statement::weighted_norm_into)->Name("compose/out.assign(w*layer_norm(A,1)+b)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(scan_into, 0)->Name("compose/out.assign(cumsum(x))/f32/1e8")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(scan_into, 1)->Name("compose/out.assign(lazy::cumsum(x))/f32/1e8")->UseManualTime()->Iterations(1);
BENCHMARK_TEMPLATE(scan_into, 2)->Name("compose/c=cumsum(x)/f32/1e8")->UseManualTime()->Iterations(1);

XF_BENCH_MAIN()
