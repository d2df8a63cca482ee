// Weak and strong scaling of distributed statements over the GPUs Legate is given: a fused
// element-wise statement, a fused reduction, softmax over rows, a 5-point stencil step (halos
// exchanged by Legate) and a matrix product of a row-split matrix with a replicated one. Weak: a
// fixed size a GPU (2^28 float32 elements; 16384^2 a GPU for the product); strong: a fixed total
// (2^30 float32 elements; 32768^2 matrices for the product). Each figure is the median of several
// rounds of wall-clock time over many statements between blocking execution fences, so the
// runtime's work between statements counts. One line a statement:
//
//   | weak | 4 GPUs | z = (x - y) * (x - y) | 2^30 float32 | 1.2345 ms |
//
//   LEGATE_CONFIG="--gpus 4 --cpus 1 --fbmem 60000 --sysmem 4000" ./xfuse_bench_scaling [weak|strong] [log2 size]
//
// The optional log2 size (28 for weak, 30 for strong) shrinks every statement alike, for a quick
// run; the matrix product then uses a side of 2^(log2 size / 2).
#include <legate.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <xfuse/legate.hpp>

namespace {

using xf::slice;
using xf::_;

void fence() { legate::Runtime::get_runtime()->issue_execution_fence(true); }

// Milliseconds per call of f: wall clock over `count` calls between fences, median of rounds.
double per_call_ms(const std::function<void()>& f, int count, int rounds, int warmups = 2) {
  for (int i = 0; i < warmups; ++i) f();
  fence();
  std::vector<double> t;
  for (int r = 0; r < rounds; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < count; ++i) f();
    fence();
    const auto stop = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::milli>(stop - start).count() / count);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct run_info {
  const char* mode;
  int gpus;
};

void row(const run_info& run, const char* statement, const std::string& size, double ms) {
  std::printf("| %s | %d GPUs | %s | %s | %.4f ms |\n", run.mode, run.gpus, statement, size.c_str(), ms);
  std::fflush(stdout);
}

std::string elements(xf::index_t n) {
  int bits = 0;
  while ((xf::index_t{1} << bits) < n) ++bits;
  return (xf::index_t{1} << bits) == n ? "2^" + std::to_string(bits) + " float32" : std::to_string(n) + " float32";
}

void elementwise_and_sum(const run_info& run, xf::index_t n, xf::random::generator& g) {
  auto x = xf::dist::eval(xf::dist::generated(xf::random::uniform<float>({n}, g)));
  auto y = xf::dist::eval(xf::dist::generated(xf::random::uniform<float>({n}, g)));
  auto z = xf::dist::empty<float>({n});
  row(run, "z = (x - y) * (x - y)", elements(n), per_call_ms([&] { z.assign((x - y) * (x - y)); }, 40, 7));
  row(run, "sum((x - y)**2)", elements(n), per_call_ms([&] { (void)xf::dist::sum((x - y) * (x - y)); }, 40, 7));
  // The value, so that a wrong sum shows (uniform [0, 1) differences: n/6 expected).
  std::printf("|   check: sum((x - y)**2) / (n / 6) = %.5f | | | | |\n", double(xf::dist::sum((x - y) * (x - y)).item()) / (double(n) / 6));
}

void softmax_rows(const run_info& run, xf::index_t n, xf::random::generator& g) {
  const xf::index_t columns = std::min<xf::index_t>(4096, n);
  const xf::index_t rows = n / columns;
  auto x = xf::dist::eval(xf::dist::generated(xf::random::normal<float>({rows, columns}, g)));
  const std::string size = std::to_string(rows) + " x " + std::to_string(columns) + " float32";
  row(run, "y = softmax(x, axis=1)", size, per_call_ms([&] { (void)xf::dist::softmax(x, 1); }, 20, 7));
  const auto row_sums = xf::dist::sum(xf::dist::softmax(x, 1), 1);
  std::printf("|   check: every row of softmax sums to 1: max |sum - 1| = %.3g | | | | |\n",
              double(xf::dist::max(xf::dist::abs(row_sums - 1.0f)).item()));
}

void stencil(const run_info& run, xf::index_t rows, xf::index_t columns, xf::random::generator& g) {
  auto u = xf::dist::eval(xf::dist::generated(xf::random::uniform<float>({rows, columns}, g)));
  auto v = xf::dist::zeros<float>({rows, columns});
  const auto in = slice(1, -1);
  const std::string size = std::to_string(rows) + " x " + std::to_string(columns) + " float32";
  row(run, "5-point stencil step", size, per_call_ms([&] {
        v(in, in).assign(0.25f * (u(slice(0, -2), in) + u(slice(2, _), in) + u(in, slice(0, -2)) + u(in, slice(2, _))));
      }, 20, 7));
}

void product(const run_info& run, xf::index_t rows, xf::index_t side, xf::random::generator& g) {
  auto a = xf::dist::eval(xf::dist::generated(xf::random::uniform<float>({rows, side}, g)));
  auto b = xf::dist::eval(xf::dist::generated(xf::random::uniform<float>({side, side}, g)));
  const std::string size = std::to_string(rows) + " x " + std::to_string(side) + " @ " + std::to_string(side) + " x " +
                           std::to_string(side) + " float32";
  const double ms = per_call_ms([&] { (void)xf::dist::matmul(a, b); }, 1, 3, 1);
  row(run, "c = a @ b", size, ms);
  std::printf("|   %.1f TFLOP/s in all, %.1f a GPU | | | | |\n", 2.0 * double(rows) * double(side) * double(side) / ms * 1e-9,
              2.0 * double(rows) * double(side) * double(side) / ms * 1e-9 / run.gpus);
}

}  // namespace

int main(int argc, char** argv) {
  const bool weak = argc < 2 || std::strcmp(argv[1], "strong") != 0;
  legate::start();
  {
    const int gpus = static_cast<int>(legate::get_machine().count(legate::mapping::TaskTarget::GPU));
    const run_info run{weak ? "weak" : "strong", std::max(gpus, 1)};
    const int log2_size = argc > 2 ? std::atoi(argv[2]) : (weak ? 28 : 30);
    const xf::index_t base = xf::index_t{1} << log2_size;
    const xf::index_t n = weak ? base * run.gpus : base;  // elements of each operand
    const xf::index_t side = xf::index_t{1} << (log2_size / 2);
    xf::random::generator g(7);
    elementwise_and_sum(run, n, g);
    softmax_rows(run, n, g);
    stencil(run, n / side, side, g);
    product(run, weak ? side * run.gpus : side, side, g);
  }
  return legate::finish();
}
