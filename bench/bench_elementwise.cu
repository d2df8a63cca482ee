// Fused element-wise expressions against the device-to-device copy, cub::DeviceTransform, a
// hand-written kernel and the unfused chain (one kernel and one temporary per operation, what
// NumPy/CuPy do without fuse), all measured in the same run. Counters: GBps (bytes the expression
// must move / time), vs_copy (GBps over the copy's), vs_cub (cub time / xfuse time),
// vs_unfused (unfused time / xfuse time), vs_hand (hand-written time / xfuse time).
#include <cub/device/device_transform.cuh>

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

void set_ratios(benchmark::State& state, double fused, double cub, double hand, double unfused) {
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
  report(state, fused, 3.0 * n * sizeof(T));
  set_ratios(state, fused, cub, hand, unfused);
  state.counters["passes_unfused"] = 3;
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
  report(state, fused, 3.0 * n * 4);
  set_ratios(state, fused, cub, hand, unfused);
  state.counters["passes_unfused"] = 2;
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
  report(state, fused, 4.0 * n * 4);
  set_ratios(state, fused, cub, hand, unfused);
  state.counters["passes_unfused"] = 5;
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
  report(state, fused, 2.0 * n * 8);
  set_ratios(state, fused, cub, hand, unfused);
  state.counters["passes_unfused"] = 6;
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
void small_host_cost(benchmark::State& state) {
  const xf::index_t n = state.range(0);
  const auto x = random_array<float>(n), y = random_array<float>(n);
  const int calls = 20000;
  for (int i = 0; i < 1000; ++i) xf::array<float, 1> z = (x - y) * (x - y);  // warm up
  xf::synchronize();
  std::vector<double> per_call;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) {
      xf::array<float, 1> z = (x - y) * (x - y);  // allocate, plan, launch, free (stream-ordered)
      benchmark::DoNotOptimize(z.data());
    }
    const auto t1 = std::chrono::steady_clock::now();
    xf::synchronize();
    per_call.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / calls);
  }
  std::sort(per_call.begin(), per_call.end());
  const double host_us = per_call[per_call.size() / 2];
  const double gpu_ms = median_ms([&] { xf::array<float, 1> z = (x - y) * (x - y); });
  for (auto _ : state) state.SetIterationTime(gpu_ms / 1e3);
  state.counters["host_us_per_eval"] = host_us;
  state.counters["gpu_us_per_eval"] = gpu_ms * 1e3;
}

// ---------------------------------------------------------------- tuning sweep
template <int BytesInFlight>
struct sweep_policy : xf::detail::elementwise_policy {
  static constexpr int bytes_in_flight = BytesInFlight;
};

template <int B>
void sweep_squared_diff(benchmark::State& state) {
  const xf::index_t n = big;
  const auto x = random_array<float>(n), y = random_array<float>(n);
  xf::array<float, 1> out({n});
  const double ms = median_ms([&] {
    xf::detail::run_expression<xf::device, sweep_policy<B>>(out.data(), out.device_id(), out.shape(), out.strides(),
                                                             (x - y) * (x - y), "sweep");
  });
  report(state, ms, 3.0 * n * 4);
}
template <int B>
void sweep_sin(benchmark::State& state) {
  const xf::index_t n = big;
  const auto x = random_array<float>(n);
  xf::array<float, 1> out({n});
  const double ms = median_ms([&] {
    xf::detail::run_expression<xf::device, sweep_policy<B>>(out.data(), out.device_id(), out.shape(), out.strides(),
                                                             xf::sin(x) * 2, "sweep");
  });
  report(state, ms, 2.0 * n * 4);
}
template <int B>
void sweep_softplus(benchmark::State& state) {
  const xf::index_t n = big / 4;
  const auto x = random_array<double>(n, -20, 20);
  xf::array<double, 1> out({n});
  const double ms = median_ms([&] {
    xf::detail::run_expression<xf::device, sweep_policy<B>>(out.data(), out.device_id(), out.shape(), out.strides(),
                                                             xf::maximum(0, x) + xf::log1p(xf::exp(-xf::abs(x))), "sweep");
  });
  report(state, ms, 2.0 * n * 8);
}

}  // namespace

BENCHMARK(squared_diff<float>)->Name("contiguous/squared_diff/f32/2^28")->Arg(big)->UseManualTime()->Iterations(1);
BENCHMARK(squared_diff<xf::half>)->Name("contiguous/squared_diff/f16/2^28")->Arg(big)->UseManualTime()->Iterations(1);
BENCHMARK(squared_diff<xf::bfloat16>)->Name("contiguous/squared_diff/bf16/2^28")->Arg(big)->UseManualTime()->Iterations(1);
BENCHMARK(axpy)->Name("contiguous/axpy/f32/2^28")->Arg(big)->UseManualTime()->Iterations(1);
BENCHMARK(sin_cos_sqrt)->Name("contiguous/sin_cos_sqrt/f32/2^28")->Arg(big)->UseManualTime()->Iterations(1);
BENCHMARK(softplus)->Name("contiguous/softplus/f64/2^26")->Arg(big / 4)->UseManualTime()->Iterations(1);
BENCHMARK(transpose_add)->Name("strided/A.T()+C/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK(outer_broadcast)->Name("broadcast/(8192,1)+(1,8192)/f32")->UseManualTime()->Iterations(1);
BENCHMARK(reversed_add)->Name("strided/x[::-1]+y/f32/8192^2")->UseManualTime()->Iterations(1);
BENCHMARK(small_host_cost)->Name("small/squared_diff/f32")->Arg(1000)->Arg(10000)->UseManualTime()->Iterations(1);
BENCHMARK(sweep_squared_diff<16>)->Name("sweep/squared_diff/bytes_in_flight=16")->UseManualTime()->Iterations(1);
BENCHMARK(sweep_squared_diff<32>)->Name("sweep/squared_diff/bytes_in_flight=32")->UseManualTime()->Iterations(1);
BENCHMARK(sweep_squared_diff<64>)->Name("sweep/squared_diff/bytes_in_flight=64")->UseManualTime()->Iterations(1);
BENCHMARK(sweep_squared_diff<128>)->Name("sweep/squared_diff/bytes_in_flight=128")->UseManualTime()->Iterations(1);
BENCHMARK(sweep_sin<16>)->Name("sweep/sin*2/bytes_in_flight=16")->UseManualTime()->Iterations(1);
BENCHMARK(sweep_sin<32>)->Name("sweep/sin*2/bytes_in_flight=32")->UseManualTime()->Iterations(1);
BENCHMARK(sweep_sin<64>)->Name("sweep/sin*2/bytes_in_flight=64")->UseManualTime()->Iterations(1);
BENCHMARK(sweep_softplus<16>)->Name("sweep/softplus_f64/bytes_in_flight=16")->UseManualTime()->Iterations(1);
BENCHMARK(sweep_softplus<32>)->Name("sweep/softplus_f64/bytes_in_flight=32")->UseManualTime()->Iterations(1);
BENCHMARK(sweep_softplus<64>)->Name("sweep/softplus_f64/bytes_in_flight=64")->UseManualTime()->Iterations(1);

BENCHMARK_MAIN();
