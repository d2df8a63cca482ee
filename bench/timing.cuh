// SPDX-License-Identifier: Apache-2.0
// Timing for benchmarks and probes, without Google Benchmark: GPU time by CUDA events (median) and
// host time per call (median burst).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <xfuse/core.hpp>

namespace xf_bench {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::abort();
  }
}

// Median of `reps` timings (ms) of `launch`, each bracketed by events on the current stream,
// after `warmup` untimed runs.
template <class F>
double median_ms(F&& launch, int reps = 15, int warmup = 3) {
  const cudaStream_t s = xf::current_stream().handle();
  cudaEvent_t a, b;
  check(cudaEventCreate(&a), "event");
  check(cudaEventCreate(&b), "event");
  for (int i = 0; i < warmup; ++i) launch();
  check(cudaStreamSynchronize(s), "sync");
  std::vector<float> t(static_cast<std::size_t>(reps));
  for (int i = 0; i < reps; ++i) {
    check(cudaEventRecord(a, s), "record");
    launch();
    check(cudaEventRecord(b, s), "record");
    check(cudaEventSynchronize(b), "sync");
    check(cudaEventElapsedTime(&t[static_cast<std::size_t>(i)], a, b), "elapsed");
  }
  check(cudaEventDestroy(a), "event");
  check(cudaEventDestroy(b), "event");
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Host time per call of f: short bursts (the launch queue never fills, so the host is not waiting
// for the GPU), then a wait; the median burst, after `warmup` untimed calls.
template <class F>
double host_us(F&& f, int calls = 200, int warmup = 1000) {
  for (int i = 0; i < warmup; ++i) f();
  xf::synchronize();
  std::vector<double> v;
  for (int rep = 0; rep < 41; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) f();
    const auto t1 = std::chrono::steady_clock::now();
    xf::synchronize();
    v.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / calls);
  }
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace xf_bench
