// xf::benchmark (cupyx.profiler.benchmark's counterpart) on host-only work: repeats, warm-ups,
// max_duration, the summary statistics and the printed line.
#include <thread>

#include <xfuse/benchmark.hpp>
#include <xfuse/xfuse.hpp>

#include "../common/catch.hpp"

TEST_CASE("xf::benchmark times host work and prints like CuPy", "[host][benchmark]") {
  int calls = 0;
  const auto r = xf::benchmark("sleep_200us", [&] {
    ++calls;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }, {.n_repeat = 20, .n_warmup = 3, .gpu = false});
  CHECK(calls == 23);
  REQUIRE(r.cpu_us.size() == 20);
  CHECK(r.gpu_us.empty());
  const auto s = r.cpu();
  CHECK(s.min >= 200.0);
  CHECK(s.min <= s.median);
  CHECK(s.median <= s.max);
  CHECK(s.mean >= s.min);
  CHECK(s.mean <= s.max);
  const std::string line = r.to_string();
  CHECK(line.rfind("sleep_200us", 0) == 0);
  CHECK(line.find("CPU:") != std::string::npos);
  CHECK(line.find("+/-") != std::string::npos);
  CHECK(line.find("GPU") == std::string::npos);
  // max_duration stops the repeats early.
  const auto short_run = xf::benchmark("capped", [] { std::this_thread::sleep_for(std::chrono::milliseconds(2)); },
                                       {.n_repeat = 1000, .n_warmup = 0, .max_duration = 0.01, .gpu = false});
  CHECK(short_run.cpu_us.size() < 1000);
  CHECK(short_run.cpu_us.size() >= 1);
  // Summary statistics of known values.
  const auto k = xf::benchmark_result::summarize({4, 1, 3, 2});
  CHECK(k.mean == 2.5);
  CHECK(k.min == 1);
  CHECK(k.max == 4);
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
  CHECK(median_us > 0);
  CHECK(y.at(99999) == 3.0f);
}
