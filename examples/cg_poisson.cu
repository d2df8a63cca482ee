// Conjugate gradients on the 2-D Poisson problem -Δu = 1 on the unit square (u = 0 on the
// boundary), 512x512 interior points, the 5-point stencil written as xfuse expressions over
// shifted views, to a relative residual of 1e-6: (a) a host loop that reads the residual with
// .item() every iteration, (b) the same iteration recorded once with xf::capture and looped on
// the device by xf::while_, with no host round trip, (c) 100 iterations recorded as a straight line
// (the kernels alone, no loop). Prints the times and the ratio of (a) to (b). An argument sets the
// loop's passes per check of the condition (xf::default_passes_per_check).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <xfuse/xfuse.hpp>

namespace {

constexpr xf::index_t n = 512;  // interior points per side; arrays hold a zero border
constexpr double tolerance = 1e-6;
constexpr xf::index_t max_iterations = 10 * n;

// The solver's arrays: the grid functions with their border, and 0-d scalars on the device.
struct cg_state {
  xf::array<double, 2> b, x, r, p, ap;
  xf::array<double, 0> rs, rs_new, pap, threshold;
  xf::array<bool, 0> going;
  xf::array<std::int64_t, 0> iterations;

  static auto inner(const xf::array<double, 2>& a) { return a(xf::slice(1, n + 1), xf::slice(1, n + 1)); }
  static auto shifted(const xf::array<double, 2>& a, int di, int dj) {
    return a(xf::slice(1 + di, n + 1 + di), xf::slice(1 + dj, n + 1 + dj));
  }

  cg_state()
      : b(xf::dims<2>{n + 2, n + 2}), x(b.shape()), r(b.shape()), p(b.shape()), ap(b.shape()), rs(xf::dims<0>{}),
        rs_new(xf::dims<0>{}), pap(xf::dims<0>{}), threshold(xf::dims<0>{}), going(xf::dims<0>{}),
        iterations(xf::dims<0>{}) {
    const double h = 1.0 / (n + 1);
    b.assign(0.0);
    inner(b) = h * h;  // right side h^2 * f, f = 1
    ap.assign(0.0);
  }

  void start() {
    x.assign(0.0);
    r.assign(b);
    p.assign(r);
    rs.assign(xf::lazy::sum(r * r));
    threshold.assign(tolerance * tolerance * rs);  // |r| <= 1e-6 |b|, compared squared
    iterations.assign(0);
  }
  // One iteration; leaves rs = r.r and `going` = whether to go on. A described reduction written
  // into a 0-d array writes its result there (no copy); statements that write arrays of one shape
  // run as one kernel each (xf::assign): six statements an iteration, eight kernels.
  void iterate() {
    inner(ap) = 4.0 * inner(p) - shifted(p, -1, 0) - shifted(p, 1, 0) - shifted(p, 0, -1) - shifted(p, 0, 1);
    pap.assign(xf::lazy::sum(p * ap));
    xf::assign(xf::into(x) = x + (rs / pap) * p, xf::into(r) = r - (rs / pap) * ap);
    rs_new.assign(xf::lazy::sum(r * r));
    p.assign(r + (rs_new / rs) * p);
    xf::assign(xf::into(rs) = rs_new, xf::into(iterations) = iterations + 1, xf::into(going) = rs_new > threshold);
  }
};

double elapsed_ms(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  const int passes_per_check = argc > 1 ? std::atoi(argv[1]) : xf::default_passes_per_check;
  if (xf::device::count() == 0) {
    std::printf("cg_poisson: no GPU\n");
    return 0;
  }
  cg_state s;
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  const cudaStream_t stream = xf::current_stream().handle();

  // (a) Host loop: the residual is read on the host after every iteration.
  auto host_loop = [&] {
    s.start();
    long long it = 0;
    do {
      s.iterate();
      ++it;
    } while (s.going.item() && it < max_iterations);
    return it;
  };
  host_loop();  // warm-up: kernels loaded, pool filled
  cudaEventRecord(t0, stream);
  const long long host_iterations = host_loop();
  cudaEventRecord(t1, stream);
  cudaEventSynchronize(t1);
  const double host_ms = elapsed_ms(t0, t1);
  const double host_residual = std::sqrt(s.rs.item() / xf::sum(s.b * s.b).item());
  const auto host_x = xf::eval(s.x);

  // (b) Recorded once; each launch runs the whole solve on the device.
  const xf::graph solve = xf::capture([&] {
    s.start();
    s.going.assign(s.rs > s.threshold);
    xf::while_(s.going, [&] { s.iterate(); }, max_iterations, passes_per_check);
  });
  solve.launch();  // warm-up
  cudaEventRecord(t0, stream);
  solve.launch();
  cudaEventRecord(t1, stream);
  cudaEventSynchronize(t1);
  const double graph_ms = elapsed_ms(t0, t1);
  const long long graph_iterations = static_cast<long long>(s.iterations.item());
  const double graph_residual = std::sqrt(s.rs.item() / xf::sum(s.b * s.b).item());
  const double difference = xf::max(xf::abs(s.x - host_x)).item();

  // (c) The kernels alone: 100 iterations recorded as a straight line (no loop node, no check).
  constexpr int straight_iterations = 100;
  s.start();
  const xf::graph straight = xf::capture([&] {
    for (int i = 0; i < straight_iterations; ++i) s.iterate();
  });
  straight.launch();  // warm-up
  cudaEventRecord(t0, stream);
  straight.launch();
  cudaEventRecord(t1, stream);
  cudaEventSynchronize(t1);
  const double straight_us = 1e3 * elapsed_ms(t0, t1) / straight_iterations;

  std::printf("cg_poisson %lldx%lld, relative residual 1e-6 (double)\n", static_cast<long long>(n), static_cast<long long>(n));
  std::printf("host loop:   %lld iterations, residual %.3g, %.3f ms (%.1f us an iteration)\n", host_iterations, host_residual,
              host_ms, 1e3 * host_ms / static_cast<double>(host_iterations));
  std::printf("device loop: %d passes a check, %lld iterations, residual %.3g, %.3f ms (%.1f us an iteration)\n", passes_per_check, graph_iterations, graph_residual,
              graph_ms, 1e3 * graph_ms / static_cast<double>(graph_iterations));
  std::printf("device loop vs host loop: %.2fx; max |x_graph - x_host| = %.3g\n", host_ms / graph_ms, difference);
  std::printf("the kernels alone (%d iterations recorded in a straight line): %.1f us an iteration\n", straight_iterations, straight_us);
  cudaEventDestroy(t0);
  cudaEventDestroy(t1);
  // The same operations in the same order: the same iterates, up to the last bits of the sums.
  const bool ok = std::llabs(host_iterations - graph_iterations) <= 1 && difference < 1e-9 && graph_residual <= tolerance;
  return ok ? 0 : 1;
}
