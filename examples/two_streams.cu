// two_streams: the CuPy tutorial's streams demo: two independent inversions
// (cp.linalg.inv of 2048 x 2048, float64) one after the other on one stream, then each on its own
// stream (`with cp.cuda.Stream():`), ordered with events so the GPU may overlap them. Timed with
// xf::benchmark, whose events sit on the current stream: the two-stream version makes that stream
// wait for both, so its GPU time covers all the work.
//
// GPU only: without one it says so and exits.
#include <cstdio>

#include <xfuse/benchmark.hpp>
#include <xfuse/linalg.hpp>
#include <xfuse/random.hpp>

int main() {
  if (xf::device::count() == 0) {
    std::printf("two_streams: no GPU here; streams and events need one, so there is nothing to run.\n");
    return 0;
  }
  const xf::index_t n = 2048;
  xf::random::generator g(5);
  const xf::array<double, 2> a = xf::random::normal<double>({n, n}, g), b = xf::random::normal<double>({n, n}, g);
  xf::array<double, 2> ia, ib;
  const xf::benchmark_options opt{.n_repeat = 50, .n_warmup = 5};

  const auto one = xf::benchmark("inv x2, one stream", [&] {
    ia = xf::linalg::inv(a);
    ib = xf::linalg::inv(b);
  }, opt);
  const xf::array<double, 2> ia_one = ia.copy();

  xf::stream s1(xf::stream::non_blocking), s2(xf::stream::non_blocking);  // cp.cuda.Stream(non_blocking=True)
  const auto two = xf::benchmark("inv x2, two streams", [&] {
    // a and b were written on the current stream: both streams start after that point.
    xf::event inputs_ready;
    inputs_ready.record();
    s1.wait(inputs_ready);
    s2.wait(inputs_ready);
    {
      xf::stream_guard on(s1);  // inv's kernels, cuSOLVER calls and memory go to s1
      ia = xf::linalg::inv(a);
    }
    {
      xf::stream_guard on(s2);
      ib = xf::linalg::inv(b);
    }
    xf::wait(s1.record());  // the current stream waits for both (no host wait)
    xf::wait(s2.record());
  }, opt);

  std::printf("two inversions of %lld x %lld float64\n%s\n%s\n", static_cast<long long>(n), static_cast<long long>(n),
              one.to_string().c_str(), two.to_string().c_str());
  std::printf("  two streams: %.2fx the speed of one (GPU time)\n", one.gpu().mean / two.gpu().mean);
  std::printf("check: max |inv (two streams) - inv (one stream)| = %g, max |a inv(a) - I| = %.3g\n",
              xf::max(xf::abs(ia - ia_one)).item(), xf::max(xf::abs(xf::matmul(a, ia) - xf::eye<double>(n))).item());
  return 0;
}
