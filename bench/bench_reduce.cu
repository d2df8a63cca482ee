// Reductions, scans, sorts, quantiles and selections against CUB and the copy ceiling, in one run (the reduction targets):
// CUDA-event medians, counters GBps / vs_copy / vs_cub as in bench_elementwise.cu.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <xfuse/manip.hpp>
#include <xfuse/quantile.hpp>
#include <xfuse/scan.hpp>
#include <xfuse/sort.hpp>

#include "bench_util.cuh"

using namespace xf_bench;

namespace {

constexpr xf::index_t n8 = 100'000'000;
constexpr xf::index_t side = 8192;

// cub::DeviceReduce::Sum over a plain array: the baseline of the full reductions.
template <class T>
double cub_sum_ms(const xf::array<T, 1>& x, T* result) {
  const cudaStream_t s = xf::current_stream().handle();
  std::size_t bytes = 0;
  check(cub::DeviceReduce::Sum(nullptr, bytes, x.data(), result, x.size(), s), "cub sum size");
  const xf::array<unsigned char, 1> temp({static_cast<xf::index_t>(bytes)});
  return median_ms([&] { check(cub::DeviceReduce::Sum(temp.data(), bytes, x.data(), result, x.size(), s), "cub sum"); });
}

void require_close(double got, double want, const char* what) {
  if (std::abs(got - want) > 1e-3 * std::abs(want) + 1e-3) {
    std::fprintf(stderr, "%s: xfuse %.9g against the baseline's %.9g\n", what, got, want);
    std::abort();
  }
}

void sum_plain(benchmark::State& state) {
  const auto x = random_array<float>(n8, 0, 1);
  xf::array<float, 0> r;
  const double ms = median_ms([&] { r = xf::sum(x); });
  const xf::array<float, 0> c(xf::dims<0>{});
  const double cub = cub_sum_ms(x, c.data());
  require_close(r.item(), c.item(), "sum(x)");
  report(state, ms, static_cast<double>(n8) * 4);
  state.counters["vs_cub"] = cub / ms;
}

// int64 sums accumulate in uint64 (NumPy's wrapping, defined in C++): CUB's plain signed sum is
// the baseline, on values whose sum does not wrap so that both must agree exactly.
void sum_int64(benchmark::State& state) {
  const auto x = random_array<std::int64_t>(n8 / 2, -1e12, 1e12);
  xf::array<std::int64_t, 0> r;
  const double ms = median_ms([&] { r = xf::sum(x); });
  const xf::array<std::int64_t, 0> c(xf::dims<0>{});
  const double cub = cub_sum_ms(x, c.data());
  if (r.item() != c.item()) {
    std::fprintf(stderr, "sum(x) int64: xfuse %lld against cub's %lld\n", static_cast<long long>(r.item()),
                 static_cast<long long>(c.item()));
    std::abort();
  }
  report(state, ms, static_cast<double>(n8 / 2) * 8);
  state.counters["vs_cub"] = cub / ms;
}

void sum_product(benchmark::State& state) {
  const auto x = random_array<float>(n8, 0, 1), y = random_array<float>(n8, 0, 1);
  xf::array<float, 0> r;
  const double ms = median_ms([&] { r = xf::sum(x * y); });
  const xf::array<float, 1> p = x * y;
  require_close(r.item(), xf::sum(p).item(), "sum(x * y)");
  const xf::array<float, 0> c(xf::dims<0>{});
  const double cub = cub_sum_ms(x, c.data());
  report(state, ms, static_cast<double>(n8) * 8);
  // Bandwidth against cub's sum over one array: both inputs count as bytes moved.
  state.counters["vs_cub_GBps"] = (static_cast<double>(n8) * 8 / ms) / (static_cast<double>(n8) * 4 / cub);
}

void row_sums(benchmark::State& state) {
  const auto a = random_array<float>(side * side).reshape({side, side});
  xf::array<float, 1> r;
  const double ms = median_ms([&] { r = xf::sum(a, 1); });
  // cub::DeviceSegmentedReduce::Sum with one segment per row.
  const xf::array<std::int64_t, 1> offsets = xf::arange<std::int64_t>(side + 1) * side;
  const xf::array<float, 1> c({side});
  const cudaStream_t s = xf::current_stream().handle();
  std::size_t bytes = 0;
  check(cub::DeviceSegmentedReduce::Sum(nullptr, bytes, a.data(), c.data(), side, offsets.data(), offsets.data() + 1, s), "seg size");
  const xf::array<unsigned char, 1> temp({static_cast<xf::index_t>(bytes)});
  const double cub = median_ms([&] {
    check(cub::DeviceSegmentedReduce::Sum(temp.data(), bytes, a.data(), c.data(), side, offsets.data(), offsets.data() + 1, s), "seg");
  });
  require_close(xf::max(xf::abs(r - c)).item(), 0, "row sums");
  report(state, ms, static_cast<double>(side) * side * 4);
  state.counters["vs_cub"] = cub / ms;
}

void column_sums(benchmark::State& state) {
  const auto a = random_array<float>(side * side).reshape({side, side});
  xf::array<float, 1> r;
  const double ms = median_ms([&] { r = xf::sum(a, 0); });
  require_close(xf::max(xf::abs(r - xf::sum(a.T(), 1))).item(), 0, "column sums");
  report(state, ms, static_cast<double>(side) * side * 4);
}

// x - mean(x, 0): one reduction, then one fused kernel reading the small mean. Target: at most
// 1.1x the time of the reduction pass plus an element-wise pass of the same shape.
void centre_columns(benchmark::State& state) {
  const auto a = random_array<float>(side * side).reshape({side, side});
  xf::array<float, 2> r;
  const double ms = median_ms([&] { r = a - xf::mean(a, 0); });
  xf::array<float, 1> m;
  const double reduce_ms = median_ms([&] { m = xf::mean(a, 0); });
  xf::array<float, 2> out({side, side});
  const double ew_ms = median_ms([&] { out.assign(a - m); });
  report(state, ms, static_cast<double>(side) * side * 4 * 3);  // read twice, write once
  state.counters["reduce_ms"] = reduce_ms;
  state.counters["elementwise_ms"] = ew_ms;
  state.counters["vs_parts"] = ms / (reduce_ms + ew_ms);
}

// Other reductions over 1e8 floats, each against the copy ceiling.
template <int Which>
void full_other(benchmark::State& state) {
  const auto x = random_array<float>(n8);
  double ms = 0;
  if constexpr (Which == 0) {
    xf::array<float, 0> r;
    ms = median_ms([&] { r = xf::max(x); });
  } else if constexpr (Which == 1) {
    xf::array<std::int64_t, 0> r;
    ms = median_ms([&] { r = xf::argmax(x); });
  } else {
    xf::array<float, 0> r;
    ms = median_ms([&] { r = xf::var(x); });
  }
  report(state, ms, static_cast<double>(n8) * 4);
}

// cumsum of a plain array against cub::DeviceScan::InclusiveSum on its pointer.
void cumsum_plain(benchmark::State& state) {
  // Values in {-1, 0, 1}: running sums stay far below 2^24, exact in float in any order.
  const xf::array<float, 1> x = xf::rint(random_array<float>(n8));
  xf::array<float, 1> r;
  const double ms = median_ms([&] { r = xf::cumsum(x); });
  const xf::array<float, 1> c({n8});
  const cudaStream_t s = xf::current_stream().handle();
  std::size_t bytes = 0;
  check(cub::DeviceScan::InclusiveSum(nullptr, bytes, x.data(), c.data(), n8, s), "scan size");
  const xf::array<unsigned char, 1> temp({static_cast<xf::index_t>(bytes)});
  const double cub = median_ms([&] { check(cub::DeviceScan::InclusiveSum(temp.data(), bytes, x.data(), c.data(), n8, s), "scan"); });
  require_close(xf::max(xf::abs(r - c)).item(), 0, "cumsum(x)");
  // The same line as an axis scan (one line of a (1, n) matrix): the keyed scan.
  const auto line = x.reshape({1, n8});
  xf::array<float, 2> keyed;
  const double keyed_ms = median_ms([&] { keyed = xf::cumsum(line, 1); });
  require_close(xf::max(xf::abs(keyed.reshape({n8}) - c)).item(), 0, "cumsum(x.reshape(1, n), 1)");
  report(state, ms, static_cast<double>(n8) * 8);
  state.counters["vs_cub"] = cub / ms;
  state.counters["keyed_ms"] = keyed_ms;
}

// Running sums along rows (axis 1) or columns (axis 0) of a matrix.
template <int Axis>
void cumsum_matrix(benchmark::State& state) {
  const auto a = random_array<float>(side * side).reshape({side, side});
  xf::array<float, 2> r;
  const double ms = median_ms([&] { r = xf::cumsum(a, Axis); });
  report(state, ms, static_cast<double>(side) * side * 8);
}

// sort / argsort of 1e8 floats against cub::DeviceRadixSort on float keys (int64 positions).
template <bool Positions>
void sort_plain(benchmark::State& state) {
  const auto x = random_array<float>(n8);
  const xf::array<float, 1> keys_out({n8});
  const xf::array<std::int64_t, 1> iota = xf::arange<std::int64_t>(n8), values_out({n8});
  const cudaStream_t s = xf::current_stream().handle();
  std::size_t bytes = 0;
  auto cub_sort = [&](void* temp) {
    if constexpr (Positions)
      return cub::DeviceRadixSort::SortPairs(temp, bytes, x.data(), keys_out.data(), iota.data(), values_out.data(), n8, 0, 32, s);
    else
      return cub::DeviceRadixSort::SortKeys(temp, bytes, x.data(), keys_out.data(), n8, 0, 32, s);
  };
  check(cub_sort(nullptr), "sort size");
  const xf::array<unsigned char, 1> temp({static_cast<xf::index_t>(bytes)});
  const double cub = median_ms([&] { check(cub_sort(temp.data()), "sort"); }, 7, 1);
  double ms = 0;
  if constexpr (Positions) {
    xf::array<std::int64_t, 1> r;
    ms = median_ms([&] { r = xf::argsort(x); }, 7, 1);
    require_close(static_cast<double>(xf::count_nonzero(r != values_out).item()), 0, "argsort(x)");
  } else {
    xf::array<float, 1> r;
    ms = median_ms([&] { r = xf::sort(x); }, 7, 1);
    require_close(static_cast<double>(xf::count_nonzero(r != keys_out).item()), 0, "sort(x)");
    // As users compose it: into a preallocated array, and inside an element-wise expression.
    const xf::array<float, 1> out({n8});
    const double into_ms = median_ms([&] { out.assign(xf::sort(x)); }, 7, 1);
    require_close(static_cast<double>(xf::count_nonzero(out != keys_out).item()), 0, "out.assign(sort(x))");
    const double where_ms = median_ms([&] { out.assign(xf::where(xf::sort(x) > 0.5f, x, 0.0f)); }, 7, 1);
    state.counters["into_ms"] = into_ms;
    state.counters["into_vs_cub"] = cub / into_ms;
    state.counters["where_vs_cub"] = cub / where_ms;
  }
  report(state, ms, static_cast<double>(n8) * (Positions ? 12 : 4) * 2);
  state.counters["vs_cub"] = cub / ms;
}

// Sorting each row of an 8192x8192 matrix against cub::DeviceSegmentedRadixSort on float keys.
void sort_rows(benchmark::State& state) {
  const auto a = random_array<float>(side * side).reshape({side, side});
  const xf::array<float, 2> c({side, side});
  const xf::array<int, 1> offsets = xf::arange<int>(side + 1) * static_cast<int>(side);
  const cudaStream_t s = xf::current_stream().handle();
  std::size_t bytes = 0;
  auto cub_sort = [&](void* temp) {
    return cub::DeviceSegmentedRadixSort::SortKeys(temp, bytes, a.data(), c.data(), static_cast<int>(side * side),
                                                   static_cast<int>(side), offsets.data(), offsets.data() + 1, 0, 32, s);
  };
  check(cub_sort(nullptr), "segmented sort size");
  const xf::array<unsigned char, 1> temp({static_cast<xf::index_t>(bytes)});
  const double cub = median_ms([&] { check(cub_sort(temp.data()), "segmented sort"); }, 7, 1);
  xf::array<float, 2> r;
  const double ms = median_ms([&] { r = xf::sort(a); }, 7, 1);
  require_close(static_cast<double>(xf::count_nonzero(r != c).item()), 0, "sort(A)");
  report(state, ms, static_cast<double>(side) * side * 8);
  state.counters["vs_cub"] = cub / ms;
}

// Sorting each column (sort(A, 0)) against sorting each row in the same run (the target: within
// 1.2x), and against CUB's segmented sort of an explicit transposed copy (the result checked).
void sort_columns(benchmark::State& state) {
  const auto a = random_array<float>(side * side).reshape({side, side});
  const xf::array<float, 2> transposed = a.transpose().copy(), c({side, side});
  const xf::array<int, 1> offsets = xf::arange<int>(side + 1) * static_cast<int>(side);
  const cudaStream_t s = xf::current_stream().handle();
  std::size_t bytes = 0;
  auto cub_sort = [&](void* temp) {
    return cub::DeviceSegmentedRadixSort::SortKeys(temp, bytes, transposed.data(), c.data(), static_cast<int>(side * side),
                                                   static_cast<int>(side), offsets.data(), offsets.data() + 1, 0, 32, s);
  };
  check(cub_sort(nullptr), "segmented sort size");
  const xf::array<unsigned char, 1> temp({static_cast<xf::index_t>(bytes)});
  const double cub = median_ms([&] { check(cub_sort(temp.data()), "segmented sort"); }, 7, 1);
  xf::array<float, 2> r;
  const double rows = median_ms([&] { r = xf::sort(a); }, 7, 1);
  const double ms = median_ms([&] { r = xf::sort(a, 0); }, 7, 1);
  require_close(static_cast<double>(xf::count_nonzero(r != c.transpose()).item()), 0, "sort(A, 0)");
  report(state, ms, static_cast<double>(side) * side * 8);
  state.counters["vs_cub"] = cub / ms;
  state.counters["vs_rows"] = rows / ms;
}

// median and quantile of 1e8 floats (radix selection) against sorting them with
// cub::DeviceRadixSort (what a sort-based median costs at least); checked against the sorted values.
template <bool Median>
void quantile_plain(benchmark::State& state) {
  const auto x = random_array<float>(n8);
  const xf::array<float, 1> keys_out({n8});
  const cudaStream_t s = xf::current_stream().handle();
  std::size_t bytes = 0;
  check(cub::DeviceRadixSort::SortKeys(nullptr, bytes, x.data(), keys_out.data(), n8, 0, 32, s), "sort size");
  const xf::array<unsigned char, 1> temp({static_cast<xf::index_t>(bytes)});
  const double sort = median_ms([&] { check(cub::DeviceRadixSort::SortKeys(temp.data(), bytes, x.data(), keys_out.data(), n8, 0, 32, s), "sort"); }, 7, 1);
  xf::array<float, 0> r;
  const double q = 0.9;
  const double ms = Median ? median_ms([&] { r = xf::median(x); }) : median_ms([&] { r = xf::quantile(x, q); });
  const double at = Median ? (n8 - 1) / 2.0 : (n8 - 1) * q;
  const xf::index_t lo = static_cast<xf::index_t>(at);
  const float a = keys_out(lo).item(), b = keys_out(lo + 1).item();
  require_close(r.item(), a + (b - a) * (at - static_cast<double>(lo)), Median ? "median(x)" : "quantile(x, 0.9)");
  report(state, ms, static_cast<double>(n8) * 4);
  state.counters["vs_sort"] = sort / ms;
}

// x(m) of 1e8 floats, half of them selected (the target: >= 0.5x a copy of x, i.e. vs_copy with
// the copy's bytes), with a stored mask or the expression x > 0; against CUB's DeviceSelect::Flagged
// on the same pointers, which does not count first (the length of xfuse's result is data).
template <bool Expression>
void select_mask(benchmark::State& state) {
  const auto x = random_array<float>(n8);
  const xf::array<bool, 1> m(x > 0);
  const xf::array<float, 1> c({n8});
  const xf::array<std::int64_t, 0> selected(xf::dims<0>{});
  const cudaStream_t s = xf::current_stream().handle();
  std::size_t bytes = 0;
  check(cub::DeviceSelect::Flagged(nullptr, bytes, x.data(), m.data(), c.data(), selected.data(), n8, s), "select size");
  const xf::array<unsigned char, 1> temp({static_cast<xf::index_t>(bytes)});
  const double cub = median_ms([&] { check(cub::DeviceSelect::Flagged(temp.data(), bytes, x.data(), m.data(), c.data(), selected.data(), n8, s), "select"); });
  xf::array<float, 1> r;
  const double ms = Expression ? median_ms([&] { r = x(x > 0); }) : median_ms([&] { r = x(m); });
  require_close(static_cast<double>(r.size()), static_cast<double>(selected.item()), "x(m) count");
  require_close(static_cast<double>(xf::count_nonzero(r != c(xf::slice(0, r.size()))).item()), 0, "x(m)");
  report(state, ms, static_cast<double>(n8) * 8);
  state.counters["vs_cub"] = cub / ms;
}

// x(m) = 0 in place (one fused kernel: where(m, 0, x)), against the same with xf::where written out.
void assign_mask(benchmark::State& state) {
  const auto x = random_array<float>(n8);
  const xf::array<bool, 1> m(x > 0);
  const double ms = median_ms([&] { x(m) = 0; });
  const double written_out = median_ms([&] { x.assign(xf::where(m, 0.0f, x)); });
  require_close(static_cast<double>(xf::count_nonzero(x > 0).item()), 0, "x(m) = 0");
  report(state, ms, static_cast<double>(n8) * 9);
  state.counters["vs_where"] = written_out / ms;
}

// x(idx): 1e7 random int64 indices into 1e8 floats, checked first (NumPy raises on a bad one), against
// xf::take in "wrap" mode, which has no check.
void gather_index(benchmark::State& state) {
  constexpr xf::index_t k = 10'000'000;
  const auto x = random_array<float>(n8);
  const xf::array<std::int64_t, 1> idx = (random_array<double>(k, 0, 1) * (n8 - 1)).astype<std::int64_t>();
  xf::array<float, 1> r;
  const double ms = median_ms([&] { r = x(idx); });
  const double unchecked = median_ms([&] { r = xf::take(x, idx, 0, "wrap"); });
  require_close(static_cast<double>(xf::count_nonzero(r != xf::take(x, idx)).item()), 0, "x(idx)");
  report(state, ms, static_cast<double>(k) * 16);
  state.counters["vs_unchecked"] = unchecked / ms;
}

}  // namespace

BENCHMARK(sum_plain)->Name("reduce/sum(x)/f32/1e8")->UseManualTime()->Iterations(1);
BENCHMARK(sum_int64)->Name("reduce/sum(x)/i64/5e7")->UseManualTime()->Iterations(1);
BENCHMARK(sum_product)->Name("reduce/sum(x*y)/f32/1e8")->UseManualTime()->Iterations(1);
BENCHMARK(row_sums)->Name("reduce/sum(A,1)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK(column_sums)->Name("reduce/sum(A,0)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK(centre_columns)->Name("reduce/A-mean(A,0)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK(full_other<0>)->Name("reduce/max(x)/f32/1e8")->UseManualTime()->Iterations(1);
BENCHMARK(full_other<1>)->Name("reduce/argmax(x)/f32/1e8")->UseManualTime()->Iterations(1);
BENCHMARK(full_other<2>)->Name("reduce/var(x)/f32/1e8")->UseManualTime()->Iterations(1);

BENCHMARK(cumsum_plain)->Name("scan/cumsum(x)/f32/1e8")->UseManualTime()->Iterations(1);
BENCHMARK(cumsum_matrix<1>)->Name("scan/cumsum(A,1)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK(cumsum_matrix<0>)->Name("scan/cumsum(A,0)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK(sort_plain<false>)->Name("sort/sort(x)/f32/1e8")->UseManualTime()->Iterations(1);
BENCHMARK(sort_plain<true>)->Name("sort/argsort(x)/f32/1e8")->UseManualTime()->Iterations(1);
BENCHMARK(sort_rows)->Name("sort/sort(A)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK(sort_columns)->Name("sort/sort(A,0)/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK(quantile_plain<true>)->Name("quantile/median(x)/f32/1e8")->UseManualTime()->Iterations(1);
BENCHMARK(quantile_plain<false>)->Name("quantile/quantile(x,0.9)/f32/1e8")->UseManualTime()->Iterations(1);

BENCHMARK(select_mask<false>)->Name("select/x(m)/f32/1e8")->UseManualTime()->Iterations(1);
BENCHMARK(select_mask<true>)->Name("select/x(x>0)/f32/1e8")->UseManualTime()->Iterations(1);
BENCHMARK(assign_mask)->Name("select/x(m)=0/f32/1e8")->UseManualTime()->Iterations(1);
BENCHMARK(gather_index)->Name("select/x(idx)/f32/1e8,1e7")->UseManualTime()->Iterations(1);

XF_BENCH_MAIN()
