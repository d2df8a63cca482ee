// Heat diffusion on a grid split across GPUs (or CPUs) by Legate: each time step is one fused
// 5-point stencil statement over shifted views, which Legate runs as one task per piece and for
// which it moves the halo rows between pieces, with the step's largest change folded into the same
// task (xf::dist::sequence); the total heat is one fused reduction.
//
//   legate --gpus 4 ./xfuse_example_dist_heat 16384 100            four GPUs of one node
//   legate --launcher mpirun --nodes 2 --gpus 8 ./xfuse_example_dist_heat 65536 100
//   LEGATE_CONFIG="--cpus 4 --gpus 0" ./xfuse_example_dist_heat     CPU variants, no GPU
#include <cstdio>
#include <cstdlib>

#include <xfuse/legate.hpp>

int main(int argc, char** argv) {
  const xf::index_t n = argc > 1 ? std::atoll(argv[1]) : 4096;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 50;
  legate::start();
  {
    using xf::slice;
    using xf::_;
    xf::random::generator g(2026);
    // Random initial temperatures; the boundary rows and columns stay as drawn.
    auto u = xf::dist::eval(xf::dist::generated(xf::random::uniform<float>({n, n}, g)));
    auto next = xf::dist::eval(u * 1.0f);
    const auto in = slice(1, -1);
    const double before = xf::dist::sum(u).item();
    auto change = xf::dist::max(u);
    for (int step = 0; step < steps; ++step) {
      // The step and its largest change as one task: the change is folded in, and stays on the
      // GPUs (no host round trip) until it is printed.
      change = xf::dist::sequence([&] {
        next(in, in).assign(0.25f * (u(slice(0, -2), in) + u(slice(2, _), in) + u(in, slice(0, -2)) + u(in, slice(2, _))));
        return xf::dist::max(xf::dist::abs(next(in, in) - u(in, in)));
      });
      std::swap(u, next);
    }
    const double after = xf::dist::sum(u).item();
    std::printf("%lld x %lld grid, %d steps: total heat %.6g -> %.6g, max %.6f, last step's largest change %.3g\n",
                static_cast<long long>(n), static_cast<long long>(n), steps, before, after, double(xf::dist::max(u).item()),
                double(change.item()));
  }
  return legate::finish();
}
