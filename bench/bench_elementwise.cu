// Fused element-wise expressions against the device-to-device copy, cub::DeviceTransform, a
// hand-written kernel and the unfused chain (one kernel and one temporary per operation, what
// NumPy/CuPy do without fuse), all measured in the same run. Counters: GBps (bytes the expression
// must move / time), vs_copy (GBps over the copy's), vs_cub (cub time / xfuse time),
// vs_unfused (unfused time / xfuse time), vs_hand (hand-written time / xfuse time).
#include <cub/device/device_transform.cuh>
#include <cudaTypedefs.h>

#include <stdexcept>

#include <xfuse/graph.hpp>

#include "bench_util.cuh"

using namespace xf_bench;

namespace {

constexpr xf::index_t big = xf::index_t{1} << 28;  // 1 GiB of f32 per array

template <class F, class T>
__global__ void hand_unary(const T* x, T* out, xf::index_t n, F f) {
  const xf::index_t i = static_cast<xf::index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(x[i]);
}
template <class F, class T>
__global__ void hand_binary(const T* x, const T* y, T* out, xf::index_t n, F f) {
  const xf::index_t i = static_cast<xf::index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(x[i], y[i]);
}
template <class F, class T>
__global__ void hand_ternary(const T* x, const T* y, const T* z, T* out, xf::index_t n, F f) {
  const xf::index_t i = static_cast<xf::index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(x[i], y[i], z[i]);
}
inline unsigned blocks(xf::index_t n) { return static_cast<unsigned>((n + 255) / 256); }

// The counters of a contiguous case: its bandwidth, and the baselines measured beside it.
void report_case(benchmark::State& state, double fused, double bytes, double cub, double hand, double unfused,
                 int passes_unfused) {
  report(state, fused, bytes);
  state.counters["passes_unfused"] = passes_unfused;
  state.counters["vs_cub"] = cub / fused;
  state.counters["vs_hand"] = hand / fused;
  state.counters["vs_unfused"] = unfused / fused;
  state.counters["cub_ms"] = cub;
  state.counters["unfused_ms"] = unfused;
}

// ---------------------------------------------------------------- large contiguous cases
template <class T>
void squared_diff(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const auto x = random_array<T>(n), y = random_array<T>(n);
  xf::array<T, 1> out({n});
  const cudaStream_t s = xf::current_stream().handle();
  auto f = [] __host__ __device__(T a, T b) { return T((a - b) * (a - b)); };
  const double fused = median_ms([&] { out.assign((x - y) * (x - y)); });
  const double cub = median_ms([&] {
    cub::DeviceTransform::Transform(::cuda::std::make_tuple(x.data(), y.data()), out.data(), n, f, s);
  });
  const double hand = median_ms([&] { hand_binary<<<blocks(n), 256, 0, s>>>(x.data(), y.data(), out.data(), n, f); });
  const double unfused = median_ms([&] {
    const xf::array<T, 1> t1 = x - y;
    const xf::array<T, 1> t2 = x - y;
    out.assign(t1 * t2);
  });
  report_case(state, fused, 3.0 * n * sizeof(T), cub, hand, unfused, 3);
}

void axpy(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const auto x = random_array<float>(n), y = random_array<float>(n);
  xf::array<float, 1> out({n});
  const float a = 1.7f;
  const cudaStream_t s = xf::current_stream().handle();
  auto f = [a] __host__ __device__(float u, float v) { return a * u + v; };
  const double fused = median_ms([&] { out.assign(a * x + y); });
  const double cub = median_ms([&] {
    cub::DeviceTransform::Transform(::cuda::std::make_tuple(x.data(), y.data()), out.data(), n, f, s);
  });
  const double hand = median_ms([&] { hand_binary<<<blocks(n), 256, 0, s>>>(x.data(), y.data(), out.data(), n, f); });
  const double unfused = median_ms([&] {
    const xf::array<float, 1> t = a * x;
    out.assign(t + y);
  });
  report_case(state, fused, 3.0 * n * 4, cub, hand, unfused, 2);
}

void sin_cos_sqrt(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const auto x = random_array<float>(n), y = random_array<float>(n), z = random_array<float>(n, 0.5, 2);
  xf::array<float, 1> out({n});
  const cudaStream_t s = xf::current_stream().handle();
  auto f = [] __host__ __device__(float a, float b, float c) { return sinf(a) + cosf(b) / sqrtf(c); };
  const double fused = median_ms([&] { out.assign(xf::sin(x) + xf::cos(y) / xf::sqrt(z)); });
  const double cub = median_ms([&] {
    cub::DeviceTransform::Transform(::cuda::std::make_tuple(x.data(), y.data(), z.data()), out.data(), n, f, s);
  });
  const double hand = median_ms([&] { hand_ternary<<<blocks(n), 256, 0, s>>>(x.data(), y.data(), z.data(), out.data(), n, f); });
  const double unfused = median_ms([&] {
    const xf::array<float, 1> t1 = xf::sin(x);
    const xf::array<float, 1> t2 = xf::cos(y);
    const xf::array<float, 1> t3 = xf::sqrt(z);
    const xf::array<float, 1> t4 = t2 / t3;
    out.assign(t1 + t4);
  });
  report_case(state, fused, 4.0 * n * 4, cub, hand, unfused, 5);
}

void softplus(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const auto x = random_array<double>(n, -20, 20);
  xf::array<double, 1> out({n});
  const cudaStream_t s = xf::current_stream().handle();
  auto f = [] __host__ __device__(double v) { return (v > 0 ? v : 0.0) + log1p(exp(-fabs(v))); };
  const double fused = median_ms([&] { out.assign(xf::maximum(0, x) + xf::log1p(xf::exp(-xf::abs(x)))); });
  const double cub = median_ms([&] { cub::DeviceTransform::Transform(x.data(), out.data(), n, f, s); });
  const double hand = median_ms([&] { hand_unary<<<blocks(n), 256, 0, s>>>(x.data(), out.data(), n, f); });
  const double unfused = median_ms([&] {
    const xf::array<double, 1> t1 = xf::maximum(0, x);
    const xf::array<double, 1> t2 = xf::abs(x);
    const xf::array<double, 1> t3 = -t2;
    const xf::array<double, 1> t4 = xf::exp(t3);
    const xf::array<double, 1> t5 = xf::log1p(t4);
    out.assign(t1 + t5);
  });
  report_case(state, fused, 2.0 * n * 8, cub, hand, unfused, 6);
}

// ---------------------------------------------------------------- strided and broadcast (8192^2 f32)
constexpr xf::index_t side = 8192;

void transpose_add(benchmark::State& state) {
  const auto a = random_array<float>(side * side).reshape({side, side});
  const auto c = random_array<float>(side * side).reshape({side, side});
  xf::array<float, 2> out({side, side});
  const double fused = median_ms([&] { out.assign(a.T() + c); });
  report(state, fused, 3.0 * side * side * 4);
}

// A transposed copy alone, and NumPy's lower-triangle-of-the-transpose mask (what linalg's old
// Cholesky copy was): the tiled walk for 4- and 8-byte elements.
template <class T>
void transpose_copy(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const auto a = random_array<T>(n * n).reshape({n, n});
  xf::array<T, 2> out({n, n});
  const double fused = median_ms([&] { out.assign(a.T()); });
  report(state, fused, 2.0 * n * n * sizeof(T));
  state.counters["masked_ms"] = median_ms([&] { out.assign(xf::where(xf::tri<bool>(n).T(), a.T(), T(0))); });
}

void outer_broadcast(benchmark::State& state) {
  const auto col = random_array<float>(side).reshape({side, 1});
  const auto row = random_array<float>(side).reshape({1, side});
  xf::array<float, 2> out({side, side});
  const double fused = median_ms([&] { out.assign(col + row); });
  report(state, fused, 1.0 * side * side * 4 + 2.0 * side * 4);
}

void reversed_add(benchmark::State& state) {
  const auto x = random_array<float>(side * side), y = random_array<float>(side * side);
  xf::array<float, 1> out({side * side});
  const double fused = median_ms([&] { out.assign(x(xf::slice(xf::_, xf::_, -1)) + y); });
  report(state, fused, 3.0 * side * side * 4);
}

// ---------------------------------------------------------------- small arrays: host cost per call
// ---------------------------------------------------------------- write ceiling
void memset_ceiling(benchmark::State& state) {
  xf::array<float, 1> out({big});
  const cudaStream_t s = xf::current_stream().handle();
  const double ms = median_ms([&] { check(cudaMemsetAsync(out.data(), 0, out.nbytes(), s), "memset"); });
  report(state, ms, 1.0 * big * 4);
  const double fill = median_ms([&] { out.assign(1.5f); });
  state.counters["xfuse_fill_ms"] = fill;
  state.counters["fill_vs_memset"] = ms / fill;
}

// ---------------------------------------------------------------- random draws
// Filling 1024^3 doubles with uniforms against a memset of the same bytes (the write ceiling):
// vs_memset = memset time / xfuse time. The draw has no buffer: one kernel writes the result.
void random_uniform_fill(benchmark::State& state) {
  const xf::index_t side = 1024;
  xf::array<double, 3> out({side, side, side});
  xf::random::generator g(1);
  const auto draw = xf::random::uniform<double>(out.shape(), g);
  const cudaStream_t s = xf::current_stream().handle();
  const double ms = median_ms([&] { out.assign(draw); }, 11);
  const double memset_ms = median_ms([&] { check(cudaMemsetAsync(out.data(), 0, out.nbytes(), s), "memset"); }, 11);
  report(state, ms, static_cast<double>(out.nbytes()));
  state.counters["memset_ms"] = memset_ms;
  state.counters["vs_memset"] = memset_ms / ms;
}

// x + 0.1 * normal(x.shape()) over 2^28 floats: one kernel that reads x and writes the result,
// against the unfused form (the normals materialised, then the sum), what CuPy does.
void random_noise(benchmark::State& state) {
  const auto x = random_array<float>(big);
  xf::array<float, 1> out({big});
  xf::random::generator g(2);
  const auto noise = xf::random::normal<float>(x.shape(), g);
  const double fused = median_ms([&] { out.assign(x + 0.1f * noise); });
  const double unfused = median_ms([&] {
    const xf::array<float, 1> z = noise;
    out.assign(x + 0.1f * z);
  });
  report(state, fused, 2.0 * big * 4);
  state.counters["unfused_ms"] = unfused;
  state.counters["vs_unfused"] = unfused / fused;
}

// Poisson and binomial counts into 2^26 int64s (rejection and inversion loops per element inside
// the fused kernel), against a memset of the same bytes: CuPy's generator in the same run.
template <int Kind>
void random_counts(benchmark::State& state) {
  constexpr xf::index_t n = xf::index_t{1} << 26;
  xf::array<std::int64_t, 1> out({n});
  xf::random::generator g(3);
  const cudaStream_t s = xf::current_stream().handle();
  double ms = 0;
  if constexpr (Kind == 0) {
    const auto draw = xf::random::poisson({n}, g, 4.5);
    ms = median_ms([&] { out.assign(draw); });
  } else if constexpr (Kind == 1) {
    const auto draw = xf::random::poisson({n}, g, 100.0);
    ms = median_ms([&] { out.assign(draw); });
  } else {
    const auto draw = xf::random::binomial({n}, g, 1000, 0.3);
    ms = median_ms([&] { out.assign(draw); });
  }
  const double memset_ms = median_ms([&] { check(cudaMemsetAsync(out.data(), 0, out.nbytes(), s), "memset"); });
  report(state, ms, static_cast<double>(out.nbytes()));
  state.counters["vs_memset"] = memset_ms / ms;
}

// ---------------------------------------------------------------- host overhead, piece by piece
__global__ void empty_kernel() {}

void overhead_parts(benchmark::State& state) {
  const cudaStream_t s = xf::current_stream().handle();
  const auto x = random_array<float>(1000), y = random_array<float>(1000);
  xf::array<float, 1> z({1000});
  cudaMemPool_t pool = xf::get_default_memory_pool().handle();
  state.counters["cudaGetDevice_us"] = host_us([] { int d; cudaGetDevice(&d); });
  state.counters["alloc_free_4KB_us"] = host_us([&] {
    void* p;
    check(cudaMallocFromPoolAsync(&p, 4096, pool, s), "alloc");
    check(cudaFreeAsync(p, s), "free");
  });
  state.counters["empty_launch_us"] = host_us([&] { empty_kernel<<<1, 32, 0, s>>>(); });
  state.counters["assign_prealloc_us"] = host_us([&] { z.assign((x - y) * (x - y)); });
  state.counters["eval_with_alloc_us"] = host_us([&] {
    xf::array<float, 1> w = (x - y) * (x - y);
    benchmark::DoNotOptimize(w.data());
  });
  for (auto _ : state) state.SetIterationTime(1e-6);
}

// Host time of one fused evaluation (allocate, plan, launch, free), and its GPU time.
void small_host_cost(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const auto x = random_array<float>(n), y = random_array<float>(n);
  auto eval = [&] {
    xf::array<float, 1> z = (x - y) * (x - y);
    benchmark::DoNotOptimize(z.data());
  };
  const double host = host_us(eval);
  const double gpu_ms = median_ms(eval);
  for (auto _ : state) state.SetIterationTime(gpu_ms / 1e3);
  state.counters["host_us_per_eval"] = host;
  state.counters["gpu_us_per_eval"] = gpu_ms * 1e3;
}

// Ten dependent statements on n floats (the seed tutorial's "many small kernels" at 1e4), run eagerly
// and as one recorded graph (xf::capture): GPU time per statement over 100 sequences in a row, and
// the host time of a launch.
void graph_replay(benchmark::State& state, xf::index_t n) {
  const auto x = random_array<float>(n), y = random_array<float>(n, 0, 1);
  auto ten = [&] {
    y.assign(x * 0.5f + y);
    x.assign(x - 0.25f * y);
    y.assign(y * y * 0.125f);
    x += y;
    y.assign(xf::sqrt(y + 1.0f));
    x /= y;
    y -= x;
    x *= 0.75f;
    y += 0.5f * x;
    x -= 0.01f;
  };
  const xf::graph g = xf::capture(ten);
  const double eager_ms = median_ms([&] { for (int i = 0; i < 100; ++i) ten(); });
  const double graph_ms = median_ms([&] { for (int i = 0; i < 100; ++i) g.launch(); });
  for (auto _ : state) state.SetIterationTime(graph_ms / 1e3);
  state.counters["eager_us_per_statement"] = eager_ms * 1e3 / 1000;
  state.counters["graph_us_per_statement"] = graph_ms * 1e3 / 1000;
  state.counters["vs_eager"] = eager_ms / graph_ms;
  state.counters["eager_host_us_per_statement"] = host_us(ten, 20) / 10;
  state.counters["graph_host_us_per_launch"] = host_us([&] { g.launch(); });
}

// A device loop (xf::while_) of 1000 passes, each two dependent statements on 1e4 floats and the
// counter's update with the condition (three kernels): GPU time a pass by passes recorded per check
// of the condition, against the same passes recorded as a straight line (no loop node, no check).
void device_loop(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0));
  const xf::index_t n = 10000;
  constexpr int passes = 1000;
  const auto x = random_array<float>(n), y = random_array<float>(n, 0, 1);
  const xf::array<int, 0> count(xf::dims<0>{});
  const xf::array<bool, 0> going(xf::dims<0>{});
  const auto pass = [&] {
    y.assign(x * 0.5f + y);
    x.assign(x - 0.25f * y);
    xf::assign(xf::into(count) = count + 1, xf::into(going) = count < passes);  // in order: the new count
  };
  const xf::graph loop = xf::capture([&] {
    count.assign(0);
    going.assign(true);
    xf::while_(going, pass, 10 * passes, k);
  });
  const xf::graph straight = xf::capture([&] {
    count.assign(0);
    for (int i = 0; i < passes; ++i) pass();
  });
  const double loop_ms = median_ms([&] { loop.launch(); });
  if (count.item() != passes) throw std::runtime_error("device_loop: wrong number of passes");
  const double straight_ms = median_ms([&] { straight.launch(); });
  for (auto _ : state) state.SetIterationTime(loop_ms / 1e3);
  state.counters["loop_us_per_pass"] = loop_ms * 1e3 / passes;
  state.counters["straight_us_per_pass"] = straight_ms * 1e3 / passes;
  state.counters["vs_straight"] = straight_ms / loop_ms;
}

// ---------------------------------------------------------------- tuning sweep
template <int BulkTileKiB, bool Bulk = true, int RowBytes = 128, int MaxChunks = 4, int Tile = 32, int MinBlocks = 0>
struct sweep_policy : xf::detail::elementwise_policy {
  static constexpr int tile_side = Tile;
  static constexpr int min_blocks_per_sm = MinBlocks;
  static constexpr bool bulk_copy = Bulk;
  static constexpr int bulk_tile_bytes = BulkTileKiB * 1024;
  static constexpr int bytes_in_flight = RowBytes;
  static constexpr int max_chunks = MaxChunks;
};

template <class Policy, class T, int R, class E>
double time_with(xf::array<T, R>& out, const E& e) {
  return median_ms([&] {
    xf::detail::run_expression<xf::device, Policy>(out.data(), out.device_id(), out.shape(), out.strides(), e, "sweep");
  });
}

template <class Policy>
void sweep_squared_diff(benchmark::State& state) {
  const auto x = random_array<float>(big), y = random_array<float>(big);
  xf::array<float, 1> out({big});
  report(state, time_with<Policy>(out, (x - y) * (x - y)), 3.0 * big * 4);
}
template <class Policy>
void sweep_squared_diff_half(benchmark::State& state) {
  const auto x = random_array<xf::half>(big), y = random_array<xf::half>(big);
  xf::array<xf::half, 1> out({big});
  report(state, time_with<Policy>(out, (x - y) * (x - y)), 3.0 * big * 2);
}
template <class Policy>
void sweep_sin(benchmark::State& state) {
  const auto x = random_array<float>(big);
  xf::array<float, 1> out({big});
  report(state, time_with<Policy>(out, xf::sin(x) * 2), 2.0 * big * 4);
}
template <class Policy>
void sweep_sin_cos_sqrt(benchmark::State& state) {
  const auto x = random_array<float>(big), y = random_array<float>(big), z = random_array<float>(big, 0.5, 2);
  xf::array<float, 1> out({big});
  report(state, time_with<Policy>(out, xf::sin(x) + xf::cos(y) / xf::sqrt(z)), 4.0 * big * 4);
}
template <class Policy>
void sweep_softplus(benchmark::State& state) {
  const xf::index_t n = big / 4;
  const auto x = random_array<double>(n, -20, 20);
  xf::array<double, 1> out({n});
  report(state, time_with<Policy>(out, xf::maximum(0, x) + xf::log1p(xf::exp(-xf::abs(x)))), 2.0 * n * 8);
}
template <class Policy>
void sweep_reversed(benchmark::State& state) {
  const auto x = random_array<float>(side * side), y = random_array<float>(side * side);
  xf::array<float, 1> out({side * side});
  report(state, time_with<Policy>(out, x(xf::slice(xf::_, xf::_, -1)) + y), 3.0 * side * side * 4);
}
template <class Policy>
void sweep_transpose(benchmark::State& state) {
  const auto a = random_array<float>(side * side).reshape({side, side});
  const auto c = random_array<float>(side * side).reshape({side, side});
  xf::array<float, 2> out({side, side});
  report(state, time_with<Policy>(out, a.T() + c), 3.0 * side * side * 4);
}
template <class Policy>
void sweep_broadcast(benchmark::State& state) {
  const auto col = random_array<float>(side).reshape({side, 1});
  const auto row = random_array<float>(side).reshape({1, side});
  xf::array<float, 2> out({side, side});
  report(state, time_with<Policy>(out, col + row), 1.0 * side * side * 4);
}

// ---------------------------------------------------------------- launch cost, by API
void launch_apis(benchmark::State& state) {
  xf::stream own(xf::stream::non_blocking);
  const cudaStream_t per_thread = cudaStreamPerThread;
  state.counters["chevron_per_thread_us"] = host_us([&] { empty_kernel<<<1, 32, 0, per_thread>>>(); });
  state.counters["chevron_legacy_us"] = host_us([&] { empty_kernel<<<1, 32, 0, cudaStreamLegacy>>>(); });
  state.counters["chevron_own_stream_us"] = host_us([&] { empty_kernel<<<1, 32, 0, own.handle()>>>(); });
  void* no_args[] = {nullptr};
  state.counters["cudaLaunchKernel_us"] = host_us([&] {
    check(cudaLaunchKernel(reinterpret_cast<const void*>(empty_kernel), dim3(1), dim3(32), no_args, 0, own.handle()), "launch");
  });
  PFN_cuLaunchKernel_v4000 driver_launch = nullptr;
  cudaDriverEntryPointQueryResult found;
  check(cudaGetDriverEntryPointByVersion("cuLaunchKernel", reinterpret_cast<void**>(&driver_launch), 12000, cudaEnableDefault, &found), "entry point");
  cudaFunction_t fn;
  check(cudaGetFuncBySymbol(&fn, reinterpret_cast<const void*>(empty_kernel)), "function");
  state.counters["cuLaunchKernel_us"] = host_us([&] {
    driver_launch(reinterpret_cast<CUfunction>(fn), 1, 1, 1, 32, 1, 1, 0, reinterpret_cast<CUstream>(own.handle()), nullptr, nullptr);
  });
  for (auto _ : state) state.SetIterationTime(1e-6);
}

}  // namespace

BENCHMARK(squared_diff<float>)->Name("contiguous/squared_diff/f32/2^28")->Arg(big)->UseManualTime()->Iterations(1);
BENCHMARK(squared_diff<xf::half>)->Name("contiguous/squared_diff/f16/2^28")->Arg(big)->UseManualTime()->Iterations(1);
BENCHMARK(squared_diff<xf::bfloat16>)->Name("contiguous/squared_diff/bf16/2^28")->Arg(big)->UseManualTime()->Iterations(1);
BENCHMARK(axpy)->Name("contiguous/axpy/f32/2^28")->Arg(big)->UseManualTime()->Iterations(1);
BENCHMARK(sin_cos_sqrt)->Name("contiguous/sin_cos_sqrt/f32/2^28")->Arg(big)->UseManualTime()->Iterations(1);
BENCHMARK(softplus)->Name("contiguous/softplus/f64/2^26")->Arg(big / 4)->UseManualTime()->Iterations(1);
BENCHMARK(transpose_add)->Name("strided/A.T()+C/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK(transpose_copy<float>)->Name("strided/A.T()/f32")->Arg(4096)->Arg(8192)->UseManualTime()->Iterations(1);
BENCHMARK(transpose_copy<double>)->Name("strided/A.T()/f64")->Arg(4096)->Arg(8192)->UseManualTime()->Iterations(1);
BENCHMARK(outer_broadcast)->Name("broadcast/(8192,1)+(1,8192)/f32")->UseManualTime()->Iterations(1);
BENCHMARK(reversed_add)->Name("strided/x[::-1]+y/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK(random_uniform_fill)->Name("random/uniform/f64/1024^3")->UseManualTime()->Iterations(1);
BENCHMARK(random_noise)->Name("random/x+0.1*normal/f32/2^28")->UseManualTime()->Iterations(1);
BENCHMARK(random_counts<0>)->Name("random/poisson(4.5)/i64/2^26")->UseManualTime()->Iterations(1);
BENCHMARK(random_counts<1>)->Name("random/poisson(100)/i64/2^26")->UseManualTime()->Iterations(1);
BENCHMARK(random_counts<2>)->Name("random/binomial(1000,0.3)/i64/2^26")->UseManualTime()->Iterations(1);
BENCHMARK(small_host_cost)->Name("small/squared_diff/f32")->Arg(1000)->Arg(10000)->UseManualTime()->Iterations(1);
BENCHMARK(memset_ceiling)->Name("ceiling/memset_vs_fill/f32/2^28")->UseManualTime()->Iterations(1);
BENCHMARK_CAPTURE(graph_replay, 1e4, 10000)->Name("small/graph_replay/10_statements/f32/1e4")->UseManualTime()->Iterations(1);
// Mid sizes, where the kernel's walk changes with the size (exec/launch.hpp: bulk copies from a tile on).
BENCHMARK_CAPTURE(graph_replay, 1e5, 100000)->Name("small/graph_replay/10_statements/f32/1e5")->UseManualTime()->Iterations(1);
BENCHMARK_CAPTURE(graph_replay, 1e6, 1000000)->Name("small/graph_replay/10_statements/f32/1e6")->UseManualTime()->Iterations(1);
BENCHMARK_CAPTURE(graph_replay, 4e6, 4000000)->Name("small/graph_replay/10_statements/f32/4e6")->UseManualTime()->Iterations(1);
BENCHMARK(device_loop)->Name("small/device_loop/3_kernels/f32/1e4")->Arg(1)->Arg(2)->Arg(4)->Arg(8)->Arg(16)->UseManualTime()->Iterations(1);
BENCHMARK(overhead_parts)->Name("small/overhead_parts")->UseManualTime()->Iterations(1);
BENCHMARK(launch_apis)->Name("small/launch_apis")->UseManualTime()->Iterations(1);
#define SWEEP(FN, NAME, ...)                                                                               \
  BENCHMARK(FN<sweep_policy<__VA_ARGS__>>)->Name("sweep/" NAME "/" #__VA_ARGS__)->UseManualTime()->Iterations(1);
// <bulk tile KiB, bulk on, rows bytes per thread, rows max chunks, tile edge, blocks per SM (0: auto)>
// The defaults (elementwise_policy) came from these and the earlier sweeps in bench/results/*/bench_elementwise.json.
SWEEP(sweep_squared_diff, "squared_diff_f32", 32, true)
SWEEP(sweep_squared_diff, "squared_diff_f32", 64, true)
SWEEP(sweep_squared_diff, "squared_diff_f32", 64, false, 64)
SWEEP(sweep_squared_diff, "squared_diff_f32", 64, false, 128)
SWEEP(sweep_squared_diff_half, "squared_diff_f16", 32, true)
SWEEP(sweep_squared_diff_half, "squared_diff_f16", 64, true)
SWEEP(sweep_sin, "sin*2_f32", 16, true)
SWEEP(sweep_sin, "sin*2_f32", 64, true)
SWEEP(sweep_sin_cos_sqrt, "sin_cos_sqrt_f32", 32, true)
SWEEP(sweep_sin_cos_sqrt, "sin_cos_sqrt_f32", 64, true)
SWEEP(sweep_softplus, "softplus_f64", 16, true)
SWEEP(sweep_softplus, "softplus_f64", 64, true)
SWEEP(sweep_reversed, "x[::-1]+y_f32", 64, true, 64, 4, 32, 0)
SWEEP(sweep_reversed, "x[::-1]+y_f32", 64, true, 128, 4, 32, 0)
SWEEP(sweep_reversed, "x[::-1]+y_f32", 64, true, 128, 4, 32, 6)
SWEEP(sweep_transpose, "A.T()+C_f32", 64, true, 128, 4, 32, 0)
SWEEP(sweep_transpose, "A.T()+C_f32", 64, true, 128, 4, 32, 6)
SWEEP(sweep_transpose, "A.T()+C_f32", 64, true, 128, 4, 64, 0)
SWEEP(sweep_transpose, "A.T()+C_f32", 64, true, 128, 4, 64, 4)
SWEEP(sweep_broadcast, "broadcast_f32", 64, true, 64, 4, 32, 0)
SWEEP(sweep_broadcast, "broadcast_f32", 64, true, 128, 4, 32, 0)
SWEEP(sweep_broadcast, "broadcast_f32", 64, true, 256, 8, 32, 0)

XF_BENCH_MAIN()
