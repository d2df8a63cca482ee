// Benchmark plumbing: the device-to-device copy ceiling measured once per run, and the counters
// every case reports (GBps, vs_copy, vs_cub, ...); the timing itself is timing.cuh's.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <xfuse/xfuse.hpp>

#include "timing.cuh"

namespace xf_bench {

// GB/s of a large device-to-device copy (bytes read plus bytes written), measured once, at the
// start of the run (XF_BENCH_MAIN). Its buffers come from the pool: a cudaFree of them slowed the
// next case's first few milliseconds by 12% (sum(x*y): 0.225 against 0.199 ms on an H200).
inline double copy_gbps() {
  static const double g = [] {
    const xf::index_t bytes = xf::index_t{1} << 30;
    const xf::array<unsigned char, 1> src = xf::full<unsigned char>({bytes}, 1);
    const xf::array<unsigned char, 1> dst({bytes});
    const cudaStream_t s = xf::current_stream().handle();
    const double ms = median_ms([&] { check(cudaMemcpyAsync(dst.data(), src.data(), static_cast<std::size_t>(bytes), cudaMemcpyDeviceToDevice, s), "copy"); }, 21);
    return 2.0 * static_cast<double>(bytes) / (ms * 1e6);
  }();
  return g;
}

// Reports a timing: manual time for Google Benchmark, and GBps / vs_copy from the bytes moved.
inline void report(benchmark::State& state, double ms, double bytes) {
  for (auto _ : state) state.SetIterationTime(ms / 1e3);
  const double gbps = bytes / (ms * 1e6);
  state.counters["ms"] = ms;
  state.counters["GBps"] = gbps;
  state.counters["vs_copy"] = gbps / copy_gbps();
  state.counters["copy_GBps"] = copy_gbps();
}

// Reports another form's time beside the statement's: `<name>_ms`, and `vs_<name>` = its time over
// the statement's ms (above 1: the statement is faster).
inline void compare(benchmark::State& state, const std::string& name, double other_ms, double ms) {
  state.counters[name + "_ms"] = other_ms;
  state.counters["vs_" + name] = other_ms / ms;
}

template <class T>
xf::array<T, 1> random_array(xf::index_t n, double lo = -1, double hi = 1) {
  // Fresh values every run, generated on the device (not zeros: some paths run faster on zeros).
  static std::mt19937_64 g(std::random_device{}());
  const double a = std::uniform_real_distribution<double>(0.5, 1.5)(g);
  const double b = std::uniform_real_distribution<double>(0, 1000)(g);
  // A cheap pseudo-random pattern: frac(sin(i * a + b) * 43758.5453) scaled into [lo, hi].
  xf::array<double, 1> u = xf::sin(xf::arange<double>(n) * a + b) * 43758.5453;
  return ((u - xf::floor(u)) * (hi - lo) + lo).template astype<T>();
}

}  // namespace xf_bench

// BENCHMARK_MAIN, with the copy ceiling measured before the first case.
#define XF_BENCH_MAIN()                                                     \
  int main(int argc, char** argv) {                                         \
    benchmark::Initialize(&argc, argv);                                     \
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;       \
    xf_bench::copy_gbps();                                                  \
    benchmark::RunSpecifiedBenchmarks();                                    \
    benchmark::Shutdown();                                                  \
    return 0;                                                               \
  }
