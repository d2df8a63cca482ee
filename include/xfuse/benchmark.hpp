// SPDX-License-Identifier: Apache-2.0
// xf::benchmark: the counterpart of cupyx.profiler.benchmark. Runs warm-ups, then times each
// repeat on the host clock and, when a GPU is present, with CUDA events on the current stream:
//
//   auto r = xf::benchmark("squared_diff", [&] { z.assign((x - y) * (x - y)); }, {.n_repeat = 100});
//   std::cout << r << '\n';
//   // squared_diff        :    CPU:    13.741 us   +/-  1.037 (min:    12.682 / max:    15.516) us     GPU-0:   120.320 us   +/-  2.116 (min:   118.784 / max:   125.952) us
//
// The CPU time is the host time of the call (what it costs to enqueue asynchronous work); the GPU
// time is the time between two events recorded before and after it on the current stream (each
// repeat waits for its end event, so repeats do not overlap). Host-only code gets CPU times only.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "base/device.hpp"
#include "base/event.hpp"
#include "base/stream.hpp"

namespace xf {

struct benchmark_options {
  int n_repeat = 10000;          // like CuPy's default
  int n_warmup = 10;
  double max_duration = 1e300;   // seconds: stop repeating after this much time (CuPy's max_duration)
  bool gpu = true;               // time with events too (ignored without a GPU)
};

// Times in microseconds, one entry per repeat.
struct benchmark_result {
  std::string name;
  std::vector<double> cpu_us;
  std::vector<double> gpu_us;  // empty without a GPU
  int device = -1;

  struct summary {
    double mean = 0, stddev = 0, min = 0, max = 0, median = 0;
  };
  static summary summarize(std::vector<double> t) {
    summary s;
    if (t.empty()) return s;
    double sum = 0;
    for (const double x : t) sum += x;
    s.mean = sum / static_cast<double>(t.size());
    double sq = 0;
    for (const double x : t) sq += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(sq / static_cast<double>(t.size()));
    std::sort(t.begin(), t.end());
    s.min = t.front();
    s.max = t.back();
    s.median = t[t.size() / 2];
    return s;
  }
  summary cpu() const { return summarize(cpu_us); }
  summary gpu() const { return summarize(gpu_us); }

  // One line in cupyx.profiler.benchmark's format.
  std::string to_string() const {
    const auto part = [](const char* label, const summary& s) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s:%10.3f us   +/-%7.3f (min:%10.3f / max:%10.3f) us", label, s.mean, s.stddev, s.min, s.max);
      return std::string(buf);
    };
    char head[64];
    std::snprintf(head, sizeof head, "%-20s:", name.c_str());
    std::string line = std::string(head) + part("    CPU", cpu());
    if (!gpu_us.empty()) line += part(("     GPU-" + std::to_string(device)).c_str(), gpu());
    return line;
  }
};

inline std::ostream& operator<<(std::ostream& os, const benchmark_result& r) { return os << r.to_string(); }

template <class F>
benchmark_result benchmark(const std::string& name, F&& fn, const benchmark_options& opt = {}) {
  benchmark_result r;
  r.name = name;
  const bool gpu = opt.gpu && device::count() > 0;
  for (int i = 0; i < opt.n_warmup; ++i) fn();
  if (gpu) {
    r.device = device::current_id();
    synchronize();  // warm-up work must not land in the first repeat
  }
  r.cpu_us.reserve(static_cast<std::size_t>(std::max(opt.n_repeat, 0)));
  const auto begin = std::chrono::steady_clock::now();
  if (gpu) {
    event start, end;
    for (int i = 0; i < opt.n_repeat; ++i) {
      start.record();
      const auto t0 = std::chrono::steady_clock::now();
      fn();
      const auto t1 = std::chrono::steady_clock::now();
      end.record();
      end.synchronize();
      r.cpu_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      r.gpu_us.push_back(1e3 * static_cast<double>(elapsed_ms(start, end)));
      if (std::chrono::duration<double>(t1 - begin).count() > opt.max_duration) break;
    }
  } else {
    for (int i = 0; i < opt.n_repeat; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      fn();
      const auto t1 = std::chrono::steady_clock::now();
      r.cpu_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      if (std::chrono::duration<double>(t1 - begin).count() > opt.max_duration) break;
    }
  }
  return r;
}

}  // namespace xf
