// xfuse demo: the same element-wise expressions fused (one kernel) and unfused (one kernel and one
// temporary per operation, as NumPy/CuPy run them), with bandwidth against a device copy.
// Without a GPU it runs the expressions on host arrays and says so.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include <xfuse/xfuse.hpp>

namespace {

// Median wall time of fn in milliseconds; on the device, bracketed by events on the stream.
template <class Space, class F>
double median_ms(F&& fn, int reps = 9) {
  fn();  // warm-up: first-use costs stay out of the numbers
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    if constexpr (std::is_same_v<Space, xf::device>) {
      xf::event a, b;
      a.record();
      fn();
      b.record();
      b.synchronize();
      t.push_back(xf::elapsed_ms(a, b));
    } else {
      const auto t0 = std::chrono::steady_clock::now();
      fn();
      t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class T, class Space>
xf::array<T, 1, Space> noise(xf::index_t n, double lo, double hi, double seed) {
  xf::array<double, 1, Space> u = xf::sin(xf::arange<double>(n) * 0.7548776662 + seed) * 43758.5453;
  return ((u - xf::floor(u)) * (hi - lo) + lo).template astype<T>();
}

// One expression: `bytes` is what the fused kernel moves (each input read once, the output written
// once), `unfused_bytes` what the chain of one pass per operation moves. On the device both are
// timed against the copy. On the host the chain's temporaries stay in the CPU's caches, so its time
// says little about fusion: the bytes ratio (the speedup at the memory limit) is printed instead.
template <class Space>
void row(const char* name, double fused_ms, double unfused_ms, double bytes, double unfused_bytes, double copy_gbps) {
  if constexpr (std::is_same_v<Space, xf::device>) {
    const double gbps = bytes / (fused_ms * 1e6);
    std::printf("%-34s %9.3f %9.1f %7.0f%% %11.3f %8.1fx\n", name, fused_ms, gbps, 100 * gbps / copy_gbps, unfused_ms,
                unfused_ms / fused_ms);
  } else {
    std::printf("%-34s %9.3f %11.3f %12.1fx\n", name, fused_ms, unfused_ms, unfused_bytes / bytes);
  }
}

template <class Space>
void run(xf::index_t n, double copy_gbps) {
  const auto x = noise<float, Space>(n, -1, 1, 1), y = noise<float, Space>(n, -1, 1, 2), z = noise<float, Space>(n, 0.5, 2, 3);
  const auto d = noise<double, Space>(n / 4, -20, 20, 4);
  xf::array<float, 1, Space> out({n});
  xf::array<double, 1, Space> outd({n / 4});
  // The unfused chains write their temporaries into arrays made once, so that both columns time
  // passes over memory only (host arrays have no memory pool: allocating 16 MiB there costs more
  // than the pass, and would make the host speedup mostly allocation).
  xf::array<float, 1, Space> t1({n}), t2({n}), t3({n}), t4({n});
  xf::array<double, 1, Space> u1({n / 4}), u2({n / 4}), u3({n / 4}), u4({n / 4}), u5({n / 4});
  if constexpr (std::is_same_v<Space, xf::device>)
    std::printf("%-34s %9s %9s %8s %11s %9s\n", "expression", "fused ms", "GB/s", "of copy", "unfused ms", "speedup");
  else
    std::printf("%-34s %9s %11s %13s\n", "expression", "fused ms", "unfused ms", "bytes ratio");

  auto squared_diff = xf::fuse([](const auto& a, const auto& b) { return (a - b) * (a - b); }, "squared_diff");
  const double f4 = 4.0 * static_cast<double>(n), f8 = 8.0 * static_cast<double>(n / 4);
  row<Space>("squared_diff (x - y) * (x - y)", median_ms<Space>([&] { out.assign(squared_diff.expr(x, y)); }),
      median_ms<Space>([&] {
        t1.assign(x - y);
        t2.assign(x - y);
        out.assign(t1 * t2);
      }),
      3 * f4, 9 * f4, copy_gbps);
  row<Space>("a * x + y", median_ms<Space>([&] { out.assign(2.5f * x + y); }),
      median_ms<Space>([&] {
        t1.assign(2.5f * x);
        out.assign(t1 + y);
      }),
      3 * f4, 5 * f4, copy_gbps);
  row<Space>("sin(x) + cos(y) / sqrt(z)", median_ms<Space>([&] { out.assign(xf::sin(x) + xf::cos(y) / xf::sqrt(z)); }),
      median_ms<Space>([&] {
        t1.assign(xf::sin(x));
        t2.assign(xf::cos(y));
        t3.assign(xf::sqrt(z));
        t4.assign(t2 / t3);
        out.assign(t1 + t4);
      }),
      4 * f4, 12 * f4, copy_gbps);
  row<Space>("softplus, float64 (n / 4)", median_ms<Space>([&] { outd.assign(xf::maximum(0, d) + xf::log1p(xf::exp(-xf::abs(d)))); }),
      median_ms<Space>([&] {
        u1.assign(xf::maximum(0, d));
        u2.assign(xf::abs(d));
        u3.assign(-u2);
        u4.assign(xf::exp(u3));
        u5.assign(xf::log1p(u4));
        outd.assign(u1 + u5);
      }),
      2 * f8, 13 * f8, copy_gbps);
  std::printf("\ncheck: squared_diff(x, y)[:4] = %s\n", xf::repr(xf::eval(squared_diff(x, y))(xf::slice(0, 4))).c_str());
}

}  // namespace

int main() {
  if (xf::device::count() == 0) {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    std::printf("xfuse demo: no CUDA device here (%s), so the expressions run on host arrays.\n"
                "On a machine with a GPU the same program runs them as fused kernels.\n\n",
                e == cudaSuccess ? "none found" : cudaGetErrorName(e));
    run<xf::host>(xf::index_t{1} << 22, 0);
    std::printf("\nOn the host the unfused chains' temporaries stay in the CPU's caches, so these times do not\n"
                "measure fusion. The bytes ratio is what fusion saves in memory traffic: on a GPU, where\n"
                "element-wise work runs at the memory limit, it is the speedup to expect (the device run\n"
                "measures it against a copy).\n");
    return 0;
  }
  const xf::device dev;
  const xf::index_t n = xf::index_t{1} << 27;
  // The ceiling: a device-to-device copy, bytes read plus bytes written.
  xf::array<float, 1> src = xf::ones<float>({n}), dst({n});
  const double copy_ms = median_ms<xf::device>([&] {
    XF_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), src.nbytes(), cudaMemcpyDeviceToDevice, xf::current_stream().handle()));
  });
  const double copy_gbps = 2.0 * static_cast<double>(src.nbytes()) / (copy_ms * 1e6);
  std::printf("xfuse demo on %s (%d SMs): fused against unfused, n = 2^27 float32\n", dev.name(), dev.multiprocessor_count());
  std::printf("device-to-device copy: %.0f GB/s (bytes read + written)\n\n", copy_gbps);
  run<xf::device>(n, copy_gbps);
  return 0;
}
