// Public names that no other test calls by name, on device arrays (tests/common/api_coverage_cases.hpp),
// compared with the host evaluator on fresh random data, and the device-only ones: the current
// device, CUDA errors, streams that xfuse does not own, events waited for by the current stream,
// the memory pools, background transfers, copies between devices, the FFT plan cache, kernel
// views of const elements and recorded graphs.
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include <xfuse/graph.hpp>

#include "../common/api_coverage_cases.hpp"
#include "../common/device_check.hpp"

using namespace xf_test;
using namespace xf_test::api_coverage;

TEST_CASE("subtract, divide, remainder, the comparisons, logical and bitwise functions on device arrays", "[gpu][api][numpy]") {
  named_operator_functions<xf::device>();
  const std::size_t n = 10007;
  const auto x = uniform<int>(n, -1000, 1000), y = uniform<int>(n, 1, 50), s = uniform<int>(n, 0, 20);
  device_matches_host("subtract", [](const auto& a, const auto& b) { return xf::subtract(a, b); }, 0, 0, x, y);
  device_matches_host("multiply", [](const auto& a, const auto& b) { return xf::multiply(a, b); }, 0, 0, x, y);
  device_matches_host("divide", [](const auto& a, const auto& b) { return xf::divide(a, b); }, 0, 0, x, y);
  device_matches_host("true_divide", [](const auto& a, const auto& b) { return xf::true_divide(a, b); }, 0, 0, x, y);
  device_matches_host("remainder", [](const auto& a, const auto& b) { return xf::remainder(a, -b); }, 0, 0, x, y);
  device_matches_host("mod", [](const auto& a, const auto& b) { return xf::mod(a, b); }, 0, 0, x, y);
  device_matches_host("comparisons", [](const auto& a, const auto& b) {
    return xf::equal(a % 7, b % 7) + 2 * xf::not_equal(a, b) + 4 * xf::less(a, b) + 8 * xf::less_equal(a, b) +
           16 * xf::greater(a, b) + 32 * xf::greater_equal(a, b);
  }, 0, 0, x, y);
  device_matches_host("logical", [](const auto& a, const auto& b) {
    return xf::logical_and(a % 3, b % 2) + 2 * xf::logical_or(a % 3, b % 2) + 4 * xf::logical_not(a % 5);
  }, 0, 0, x, y);
  device_matches_host("bitwise", [](const auto& a, const auto& b) {
    return xf::bitwise_and(a, b) ^ xf::bitwise_or(a, b * 3) ^ xf::bitwise_xor(a, b) ^ xf::invert(a) ^ xf::bitwise_not(b);
  }, 0, 0, x, y);
  device_matches_host("shifts", [](const auto& a, const auto& b) { return xf::left_shift(a, b) + xf::right_shift(a, b); }, 0, 0, x, s);
  const auto f = uniform<double>(n, -360, 360);
  device_matches_host("negative, absolute, radians", [](const auto& a) { return xf::negative(a) + xf::absolute(a) * xf::radians(a); },
                      4 * eps<double>(), 1e-10, f);  // 1e-10: an FMA where a - a^2 pi / 180 cancels
}

TEST_CASE("transpose, ravel, flip, diagonal, squeeze, swapaxes, permute and dsplit on device arrays", "[gpu][api][numpy]") {
  view_functions<xf::device>();
}

TEST_CASE("deferred reductions and nanmean, nanmin, nanmax, any on device arrays", "[gpu][api][numpy]") {
  deferred_and_nan_reductions<xf::device>();
  // Random values with NaN: every deferred reduction equals the host evaluator's.
  std::vector<double> v = uniform<double>(37 * 53, -10, 10);
  for (std::size_t i = 0; i < v.size(); i += 7) v[i] = NAN;
  const auto d = xf::asarray<double>(v, {37, 53});
  const auto h = xf::asarray<double, xf::host>(v, {37, 53});
  const auto reduce = [](const auto& x) {
    return xf::eval(xf::lazy::nanmean(x, 1), xf::lazy::nanvar(x, 1), xf::lazy::nanstd(x, 1), xf::lazy::nanprod(x * 0.1 + 1, 1));
  };
  const auto [dm, dv, ds, dp] = reduce(d);
  const auto [hm, hv, hs, hp] = reduce(h);
  require_all_close<double>(xf::to_host(dm), xf::to_host(hm), 1e-13, 0, "nanmean");
  require_all_close<double>(xf::to_host(dv), xf::to_host(hv), 1e-12, 0, "nanvar");
  require_all_close<double>(xf::to_host(ds), xf::to_host(hs), 1e-12, 0, "nanstd");
  require_all_close<double>(xf::to_host(dp), xf::to_host(hp), 1e-12, 0, "nanprod");
  const auto order = [](const auto& x) {
    return xf::eval(xf::lazy::nanmin(x, 0), xf::lazy::nanmax(x, 0), xf::lazy::nanargmin(x, 0), xf::lazy::nanargmax(x, 0),
                    xf::lazy::ptp(x, 0), xf::lazy::prod(xf::isnan(x) * 1.0 + 1, 0), xf::lazy::any(x > 9.9, 0),
                    xf::lazy::all(x > -9, 0));
  };
  const auto [dmin, dmax, dargmin, dargmax, dptp, dprod, dany, dall] = order(d);
  const auto [hmin, hmax, hargmin, hargmax, hptp, hprod, hany, hall] = order(h);
  CHECK(xf::to_host(dmin) == xf::to_host(hmin));
  CHECK(xf::to_host(dmax) == xf::to_host(hmax));
  CHECK(xf::to_host(dargmin) == xf::to_host(hargmin));
  CHECK(xf::to_host(dargmax) == xf::to_host(hargmax));
  require_all_close<double>(xf::to_host(dptp), xf::to_host(hptp), 0, 0, "ptp");  // NaN in every column
  CHECK(xf::to_host(dprod) == xf::to_host(hprod));
  CHECK(xf::to_host(dany) == xf::to_host(hany));
  CHECK(xf::to_host(dall) == xf::to_host(hall));
}

TEST_CASE("empty_like, identity, keepdims_t, slice bounds, newaxis_t, fused_function and stat_length on device arrays", "[gpu][api][numpy]") {
  creation_and_tags<xf::device>();
}

TEST_CASE("unique_all's result type on device arrays", "[gpu][api][numpy]") {
  unique_all_result_type<xf::device>();
}

TEST_CASE("random aliases on device arrays draw what the host draws", "[gpu][api][random]") {
  random_aliases<xf::device>();
  xf::random::generator g(seed()), h(seed());
  const auto gamma = xf::random::standard_gamma<float>({300, 7}, g, 0.7);
  const auto normal = xf::random::randn<float>({300, 7}, g);
  const xf::array<float, 2> d = gamma + normal;
  const auto gamma_h = xf::random::standard_gamma<float>({300, 7}, h, 0.7);
  const auto normal_h = xf::random::randn<float>({300, 7}, h);
  const xf::array<float, 2, xf::host> want = gamma_h + normal_h;
  CHECK(xf::to_host(d) == xf::to_host(want));  // bit for bit, as every draw
}

TEST_CASE("ifft2 on device arrays", "[gpu][api][fft][numpy]") {
  ifft2_values<xf::device>();
}

TEST_CASE("matmul_expr, matmul_options, the factorizations' result types, norm_order and linalg_error on device arrays",
          "[gpu][api][linalg]") {
  linalg_names<xf::device>();
}

// [api_error]: a failing CUDA call on purpose, which memcheck reports as an API error
// (scripts/gpu_suite.sh runs it with those reports off).
TEST_CASE("the current device, and cuda_error's call, file and line", "[gpu][api][errors][api_error]") {
  const xf::device here = xf::device::current();
  CHECK(here.id() == xf::device::current_id());
  CHECK(here == xf::device(xf::device::current_id()));
  xf::device(0).use();
  CHECK(xf::device::current_id() == 0);
  here.use();
  CHECK(xf::device::current_id() == here.id());
  const int line = __LINE__ + 2;
  try {
    XF_CUDA_CHECK(cudaSetDevice(-1));
    FAIL("no xf::cuda_error");
  } catch (const xf::cuda_error& e) {
    CHECK(e.code() == cudaErrorInvalidDevice);
    CHECK(std::string(e.call()) == "cudaSetDevice(-1)");
    CHECK(std::string(e.file()).find("test_api_coverage_gpu.cu") != std::string::npos);
    CHECK(e.line() == line);
  }
  CHECK(xf::device::current_id() == here.id());
}

TEST_CASE("xf::wait makes the current stream wait for an event of another stream", "[gpu][api][streams]") {
  const xf::index_t n = xf::index_t{1} << 26;
  xf::array<double, 1> x = xf::zeros<double>({n});
  // Both kernels launched once first: a kernel's first launch may load its module, which waits
  // for the device, and would order the sum after the producer without xf::wait.
  x.assign(x + 1.0);
  CHECK(xf::sum(x).item() == static_cast<double>(n));
  const xf::stream producer(xf::stream::non_blocking);
  xf::event ready(false);
  {
    const xf::stream_guard on(producer);
    for (int i = 0; i < 20; ++i) x.assign(x + 1.0);  // long enough to still run when the sum is queued
    ready.record();
  }
  xf::wait(ready);
  CHECK(xf::sum(x).item() == 21.0 * static_cast<double>(n));
}

TEST_CASE("streams xfuse does not own: per_thread, legacy and wrap", "[gpu][api][streams]") {
  const int dev = xf::device::current_id();
  const xf::stream per_thread = xf::stream::per_thread();
  CHECK(per_thread.handle() == cudaStreamPerThread);
  CHECK(per_thread.device_id() == dev);
  const xf::stream legacy = xf::stream::legacy();
  CHECK(legacy.handle() == cudaStreamLegacy);
  CHECK(legacy.device_id() == dev);
  cudaStream_t raw = nullptr;
  XF_CUDA_CHECK(cudaStreamCreateWithFlags(&raw, cudaStreamNonBlocking));
  {
    const xf::stream wrapped = xf::stream::wrap(raw, dev);
    CHECK(wrapped.handle() == raw);
    const xf::stream_guard on(wrapped);
    CHECK(xf::current_stream() == wrapped);
    const xf::array<int, 1> r = xf::arange<int>(5) * 3;  // ordered on raw
    CHECK(xf::to_host(r) == std::vector<int>{0, 3, 6, 9, 12});
    const xf::stream_guard on_legacy(legacy);
    CHECK(xf::to_host(r + 1) == std::vector<int>{1, 4, 7, 10, 13});
  }
  XF_CUDA_CHECK(cudaStreamSynchronize(raw));
  XF_CUDA_CHECK(cudaStreamDestroy(raw));  // the wrapping handle never owned it
}

TEST_CASE("memory_pool of a device and the pinned_memory_pool count what arrays and transfers hold", "[gpu][api][memory]") {
  xf::memory_pool pool(xf::device::current_id());
  CHECK(pool.used_bytes() == xf::get_default_memory_pool().used_bytes());
  {
    const xf::array<float, 1> a({1 << 20});  // 4 MiB
    CHECK(pool.free_bytes() == pool.total_bytes() - pool.used_bytes());
  }
  CHECK(pool.free_bytes() >= (std::size_t{4} << 20));  // freed into the pool's cache
  CHECK(pool.free_bytes() == pool.total_bytes() - pool.used_bytes());
  pool.free_all_blocks();
  CHECK(pool.free_bytes() <= std::size_t{64} << 20);
  xf::pinned_memory_pool pinned = xf::get_pinned_memory_pool();
  const auto v = uniform<float>(1 << 16, -1, 1);
  {
    const xf::host_transfer<float> t = xf::to_host_async(xf::asarray<float>(v));
    t.wait();
    CHECK(pinned.used_bytes() >= v.size() * sizeof(float));
    CHECK(t.get() == v);
  }
  CHECK(pinned.used_bytes() == 0);
  CHECK(pinned.n_free_blocks() >= 1);  // kept for the next transfer
}

TEST_CASE("host_transfer delivers an expression's values in pinned memory; to_device copies", "[gpu][api][transfer]") {
  const auto v = uniform<double>(100003, -5, 5);
  const auto a = xf::asarray<double>(v);
  const xf::host_transfer<double> t = xf::to_host_async(a * 2.0);
  t.wait();
  CHECK(t.ready());
  REQUIRE(t.pinned().size() == v.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < v.size(); ++i) bad += t.pinned()[i] != v[i] * 2.0;
  CHECK(bad == 0);
  const xf::array<double, 1> copy = xf::to_device(a, xf::device::current_id());  // the same device: a copy
  CHECK(copy.data() != a.data());
  CHECK(copy.device_id() == a.device_id());
  CHECK(xf::to_host(copy) == v);
}

TEST_CASE("the FFT plan cache view: size_limit and the stats of hits, misses and evictions", "[gpu][api][fft]") {
  xf::fft_plan_cache_view cache = xf::fft_plan_cache(xf::device::current_id());
  const std::size_t limit = cache.size_limit();
  cache.clear();
  cache.set_size_limit(2);
  CHECK(cache.size_limit() == 2);
  const xf::fft_plan_cache_stats before = cache.stats();
  const auto first_of = [](int n) {  // np.fft.fft(np.arange(1, n + 1))[0] = n (n + 1) / 2
    const xf::array<double, 1> x = xf::arange<double>(n) + 1.0;
    return xf::to_host(xf::fft(x))[0];
  };
  for (int n : {5, 6, 7}) CHECK(std::abs(std::complex<double>(first_of(n)) - n * (n + 1) / 2.0) < 1e-12);
  CHECK(std::abs(std::complex<double>(first_of(7)) - 28.0) < 1e-12);  // from the cache
  const xf::fft_plan_cache_stats after = cache.stats();
  CHECK(after.size_limit == 2);
  CHECK(after.plans == 2);
  CHECK(after.plans == cache.size());
  CHECK(after.misses == before.misses + 3);
  CHECK(after.hits == before.hits + 1);
  CHECK(after.evictions == before.evictions + 1);
  cache.set_size_limit(limit);
}

namespace {
__global__ void twice(xf::view<float, 1> out, xf::view<const float, 1> in) {
  const auto i = static_cast<xf::index_t>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < in.size()) out(i) = 2 * in(i);
}
}  // namespace

TEST_CASE("a view of mutable elements serves as a view of const elements", "[gpu][api][user]") {
  const auto in = xf::asarray<float>({1, 2, 3, 4, 5});
  xf::array<float, 1> out({5});
  const xf::view<const float, 1> read_only = xf::make_view(in);
  CHECK(read_only.data == in.data());
  CHECK(read_only.size() == 5);
  CHECK(read_only.extent(0) == 5);
  CHECK(read_only.strides[0] == 1);
  xf::launch(dim3(1), dim3(32), twice, out, read_only);
  CHECK(xf::to_host(out) == std::vector<float>{2, 4, 6, 8, 10});
}

TEST_CASE("a graph converts to true once it holds a recording", "[gpu][api][graph]") {
  CHECK_FALSE(static_cast<bool>(xf::graph()));
  const auto x = xf::asarray<float>({1, 2, 3});
  xf::array<float, 1> y({3});
  const xf::graph g = xf::capture([&] { y.assign(x * 2.0f + 1.0f); });
  CHECK(static_cast<bool>(g));
  g.launch();
  CHECK(xf::to_host(y) == std::vector<float>{3, 5, 7});
}
