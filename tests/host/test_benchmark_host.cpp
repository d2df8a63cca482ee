// xf::benchmark (cupyx.profiler.benchmark's counterpart) on host-only work: repeats, warm-ups,
// max_duration, the summary statistics and the printed line.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <xfuse/benchmark.hpp>
#include <xfuse/xfuse.hpp>

#include "../common/catch.hpp"

// Value checks only (timing thresholds belong in bench/): the number of calls and repeats, that
// each repeat's time covers the work it timed and the repeats together fit in the whole call,
// that the summary is the raw times' statistics, and what the printed line holds.
TEST_CASE("xf::benchmark times host work and prints like CuPy", "[host][benchmark]") {
  using clock = std::chrono::steady_clock;
  std::vector<double> inside_us;  // each call's own time, measured inside the call
  const auto begin = clock::now();
  const auto r = xf::benchmark("sleep_200us", [&] {
    const auto t0 = clock::now();
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    inside_us.push_back(std::chrono::duration<double, std::micro>(clock::now() - t0).count());
  }, {.n_repeat = 20, .n_warmup = 3, .gpu = false});
  const double whole_us = std::chrono::duration<double, std::micro>(clock::now() - begin).count();
  REQUIRE(inside_us.size() == 23);  // 3 warm-ups, then 20 timed repeats
  REQUIRE(r.cpu_us.size() == 20);
  CHECK(r.gpu_us.empty());
  // The warm-ups are not timed: repeat i timed call 3 + i, on the same clock around it.
  double total_us = 0;
  for (std::size_t i = 0; i < r.cpu_us.size(); ++i) {
    INFO("repeat " << i << ": " << r.cpu_us[i] << " us, the call inside it " << inside_us[i + 3] << " us");
    CHECK(r.cpu_us[i] >= inside_us[i + 3]);
    total_us += r.cpu_us[i];
  }
  CHECK(total_us <= whole_us * (1 + 1e-12));
  // The summary of the raw times, computed here independently.
  std::vector<double> sorted = r.cpu_us;
  std::sort(sorted.begin(), sorted.end());
  double sum = 0, squares = 0;
  for (const double t : sorted) sum += t;
  const double mean = sum / 20;
  for (const double t : sorted) squares += (t - mean) * (t - mean);
  const auto s = r.cpu();
  CHECK(s.min == sorted.front());
  CHECK(s.max == sorted.back());
  CHECK(s.median == sorted[10]);
  CHECK(std::abs(s.mean - mean) <= 1e-12 * mean);
  CHECK(std::abs(s.stddev - std::sqrt(squares / 20)) <= 1e-9 * (mean + s.stddev));
  // The printed line: name first, then the CPU summary in cupyx.profiler.benchmark's format.
  char cpu_part[160];
  std::snprintf(cpu_part, sizeof cpu_part, "    CPU:%10.3f us   +/-%7.3f (min:%10.3f / max:%10.3f) us", s.mean, s.stddev, s.min, s.max);
  const std::string line = r.to_string();
  CHECK(line.rfind("sleep_200us", 0) == 0);
  CHECK(line.find(cpu_part) != std::string::npos);
  CHECK(line.find("GPU") == std::string::npos);
  // max_duration stops the repeats once that much time has passed: after the first repeat when
  // it is 0, since a call that sleeps takes time (sleep_for waits at least that long on this clock).
  int capped_calls = 0;
  const auto short_run = xf::benchmark("capped", [&] {
    ++capped_calls;
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }, {.n_repeat = 1000, .n_warmup = 2, .max_duration = 0, .gpu = false});
  CHECK(short_run.cpu_us.size() == 1);
  CHECK(capped_calls == 3);
  // Summary statistics of known values.
  const auto k = xf::benchmark_result::summarize({4, 1, 3, 2});
  CHECK(k.mean == 2.5);
  CHECK(k.min == 1);
  CHECK(k.max == 4);
  CHECK(k.median == 3);  // the upper of the two middle values, as t[size / 2]
  CHECK(std::abs(k.stddev - std::sqrt(1.25)) < 1e-12);
}

TEST_CASE("doc example: xf::benchmark", "[host][benchmark][docs]") {
  // example-begin benchmark
  const auto x = xf::asarray<float, xf::host>(std::vector<float>(100000, 1.5f));
  xf::array<float, 1, xf::host> y(x.shape());
  const auto r = xf::benchmark("scale", [&] { y.assign(2.0f * x); }, {.n_repeat = 50});
  std::printf("%s\n", r.to_string().c_str());  // scale  :    CPU:  ... us   +/- ... (min: ... / max: ...) us
  const double median_us = r.cpu().median;     // the raw times are r.cpu_us (and r.gpu_us with a GPU)
  // example-end
  REQUIRE(r.cpu_us.size() == 50);
  std::vector<double> sorted = r.cpu_us;
  std::sort(sorted.begin(), sorted.end());
  CHECK(median_us == sorted[25]);
  CHECK(y.at(0) == 3.0f);
  CHECK(y.at(99999) == 3.0f);
}
