// SPDX-License-Identifier: Apache-2.0
// Ten dependent statements on 10^4 and 10^5 floats (the sequence of bench_elementwise's
// small/graph_replay) by the element-wise kernel's policy: the default (bulk copies on sm_90), the
// rows walk, and the rows walk with fewer bytes in flight a thread (smaller tiles, more blocks) or
// blocks of 128 threads. Prints the eager GPU time a statement, the replayed GPU time a statement
// (xf::capture, 100 launches) and the eager host time a statement, two rounds.
//
//   nvcc -O3 -arch=sm_90 -std=c++20 --extended-lambda -Iinclude bench/small_walk_probe.cu -o small_walk_probe
#include <xfuse/core.hpp>
#include <xfuse/graph.hpp>

#include "timing.cuh"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

struct no_bulk : xf::detail::elementwise_policy {
  static constexpr bool bulk_copy = false;
};
template <int Bytes>
struct no_bulk_fewer : xf::detail::elementwise_policy {
  static constexpr bool bulk_copy = false;
  static constexpr int bytes_in_flight = Bytes;
};
template <int Threads>
struct no_bulk_threads : xf::detail::elementwise_policy {
  static constexpr bool bulk_copy = false;
  static constexpr int block_threads = Threads;
  static constexpr int bytes_in_flight = 16;
};

template <class P, class T, class E>
void run(const xf::array<T, 1>& dst, const E& e) {
  xf::detail::run_expression<xf::device, P>(dst.data(), dst.device_id(), dst.shape(), dst.strides(), e, "probe");
}

template <class P>
void measure(const char* name, xf::index_t n) {
  const auto x = xf::asarray<float>(std::vector<float>(static_cast<std::size_t>(n), 0.5f), {n});
  const auto y = xf::asarray<float>(std::vector<float>(static_cast<std::size_t>(n), 0.25f), {n});
  auto ten = [&] {
    run<P>(y, x * 0.5f + y);
    run<P>(x, x - 0.25f * y);
    run<P>(y, y * y * 0.125f);
    run<P>(x, x + y);
    run<P>(y, xf::sqrt(y + 1.0f));
    run<P>(x, x / y);
    run<P>(y, y - x);
    run<P>(x, x * 0.75f);
    run<P>(y, y + 0.5f * x);
    run<P>(x, x - 0.01f);
  };
  const xf::graph g = xf::capture(ten);
  const double eager = xf_bench::median_ms([&] { for (int i = 0; i < 100; ++i) ten(); }, 21, 1) * 1e3 / 1000;
  const double replay = xf_bench::median_ms([&] { for (int i = 0; i < 100; ++i) g.launch(); }, 21, 1) * 1e3 / 1000;
  const double host = xf_bench::host_us(ten, 20, 100) / 10;
  std::printf("%-28s n %-8lld eager %.3f us, replayed %.3f us, host %.3f us a statement\n", name, static_cast<long long>(n), eager, replay, host);
}

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  for (int round = 0; round < 2; ++round) {
    for (xf::index_t n : {xf::index_t{10000}, xf::index_t{100000}}) {
      measure<xf::detail::elementwise_policy>("default (bulk)", n);
      measure<no_bulk>("rows walk", n);
      measure<no_bulk_fewer<64>>("rows, 64 B in flight", n);
      measure<no_bulk_fewer<16>>("rows, 16 B in flight", n);
      measure<no_bulk_threads<128>>("rows, 128 threads, 16 B", n);
    }
  }
  return 0;
}
