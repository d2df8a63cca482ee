// SPDX-License-Identifier: Apache-2.0
// Where the host time of one small statement goes: a statement on 10^4 floats against empty
// launches by each API, launches with parameters of several sizes, xfuse's launch of a prepared
// plan, the plan's construction alone (as run_expression builds it, without the launch) and the
// expression's. Host microseconds a call, median of 41 rounds of 200 calls (the queue drained
// between rounds); with the stream busy a launch returns when the queue has room, so figures where
// the GPU is the slower side are upper bounds.
//
//   nvcc -O3 -arch=sm_90 -std=c++20 --extended-lambda -Iinclude bench/statement_cost_probe.cu -o statement_cost_probe
#include <xfuse/core.hpp>

#include "timing.cuh"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

__global__ void empty_kernel() {}
template <int Bytes>
struct blob {
  unsigned char b[Bytes];
};
template <int Bytes>
__global__ void blob_kernel(const __grid_constant__ blob<Bytes> p) {
  if (threadIdx.x == 1000) printf("%d", p.b[0]);
}

template <class K, class... Args>
void launch_ex(K kernel, unsigned grid, unsigned block, cudaStream_t s, bool prog, Args... args) {
  cudaLaunchConfig_t c{};
  c.gridDim = dim3(grid);
  c.blockDim = dim3(block);
  c.stream = s;
  cudaLaunchAttribute a{};
  a.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  a.val.programmaticStreamSerializationAllowed = 1;
  if (prog) {
    c.attrs = &a;
    c.numAttrs = 1;
  }
  if (cudaLaunchKernelEx(&c, kernel, args...) != cudaSuccess) std::abort();
}

// run_expression's plan, built as it builds it (exec/evaluate.hpp), without the launch.
template <class T, int R, class E>
auto build_plan(const xf::array<T, R>& dst, const E& e) {
  using namespace xf::detail;
  const auto records = e.leaves();
  using Records = std::remove_cvref_t<decltype(records)>;
  constexpr int L = Records::size;
  using Descs = typename descs_of<Records>::type;
  using Fn = decltype(e.template evaluator<0>());
  using Plan = fused_plan<Fn, Descs, T, R, elementwise_policy>;
  const auto ops = gather_operands<R>(records, dst.shape());
  Plan p{e.template evaluator<0>(), ops.descs, dst.data(), {}, {}, {}, false, false, walk::rows, {}, {}};
  p.lay = make_layout<R, L>(dst.shape(), dst.strides(), ops.strides, ops.base);
  p.out = dst.data() + p.lay.out_base;
  p.lay.out_base = 0;
  p.narrow = fits_32_bits(p.lay);
  const int cur = xf::device::current_id();
  require_access(dst.device_id(), cur, "probe");
  const auto aligned = [&](const void* ptr, xf::index_t base, std::size_t itemsize, const xf::index_t* s) {
    const std::size_t width = Plan::E * itemsize < 16 ? Plan::E * itemsize : 16;
    if (s[0] != 1) return false;
    if ((reinterpret_cast<std::uintptr_t>(ptr) + static_cast<std::uintptr_t>(base * static_cast<xf::index_t>(itemsize))) % width) return false;
    for (int d = 1; d < p.lay.rank; ++d)
      if ((s[d] * static_cast<xf::index_t>(itemsize)) % static_cast<xf::index_t>(width)) return false;
    return true;
  };
  p.row_chunks = p.lay.rank == 1 || p.lay.extent[0] % Plan::E == 0;
  p.out_vec = outputs_aligned(p.out, p.lay.out_stride, aligned);
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (setup_leaf<K>(p, records, aligned, cur, "probe"), ...);
  }(std::make_integer_sequence<int, L>{});
  const launch_config launch = choose_launch(p, cur);
  return std::make_pair(p, launch);
}

using xf_bench::host_us;

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const xf::index_t n = 10000;
  const auto x = xf::asarray<float>(std::vector<float>(n, 1.5f), {n});
  const auto y = xf::asarray<float>(std::vector<float>(n, 0.5f), {n});
  const xf::array<float, 1> z({n});
  const cudaStream_t s = xf::current_stream().handle();
  const auto e = (x - y) * (x - y);
  auto [plan, config] = build_plan(z, e);
  using Plan = decltype(plan);
  std::printf("plan bytes %zu, blocks %lld, mode %d, smem %zu\n", sizeof(Plan), static_cast<long long>(config.blocks), static_cast<int>(config.mode), config.smem_bytes);
  const int cur = xf::device::current_id();
  std::printf("%-52s %7.3f us\n", "cudaGetDevice", host_us([] { int d; cudaGetDevice(&d); }));
  std::printf("%-52s %7.3f us\n", "empty <<<1,32>>>", host_us([&] { empty_kernel<<<1, 32, 0, s>>>(); }));
  std::printf("%-52s %7.3f us\n", "empty <<<40,256>>>", host_us([&] { empty_kernel<<<40, 256, 0, s>>>(); }));
  std::printf("%-52s %7.3f us\n", "empty cudaLaunchKernelEx", host_us([&] { launch_ex(empty_kernel, 40, 256, s, false); }));
  std::printf("%-52s %7.3f us\n", "empty cudaLaunchKernelEx + programmatic", host_us([&] { launch_ex(empty_kernel, 40, 256, s, true); }));
  std::printf("%-52s %7.3f us\n", "64-byte parameter, Ex + programmatic", host_us([&] { launch_ex(blob_kernel<64>, 40, 256, s, true, blob<64>{}); }));
  std::printf("%-52s %7.3f us\n", "256-byte parameter, Ex + programmatic", host_us([&] { launch_ex(blob_kernel<256>, 40, 256, s, true, blob<256>{}); }));
  std::printf("%-52s %7.3f us\n", "1024-byte parameter, Ex + programmatic", host_us([&] { launch_ex(blob_kernel<1024>, 40, 256, s, true, blob<1024>{}); }));
  std::printf("%-52s %7.3f us\n", "plan-size parameter <<<>>>", host_us([&] { blob_kernel<sizeof(Plan)><<<40, 256, 0, s>>>(blob<sizeof(Plan)>{}); }));
  std::printf("%-52s %7.3f us\n", "plan-size parameter, Ex + programmatic", host_us([&] { launch_ex(blob_kernel<sizeof(Plan)>, 40, 256, s, true, blob<sizeof(Plan)>{}); }));
  std::printf("%-52s %7.3f us\n", "fused kernel, prepared plan, launch_fused", host_us([&] { xf::detail::launch_fused(plan, config, cur, s); }));
  auto rows_plan = plan;  // the same statement walked by rows: no dynamic shared memory
  xf::detail::unstage_leaves(rows_plan);
  rows_plan.mode = xf::detail::walk::rows;
  const xf::detail::launch_config rows_config{xf::detail::walk::rows, (rows_plan.lay.size + Plan::tile - 1) / Plan::tile, 0};
  rows_plan.chunks = Plan::U;
  std::printf("%-52s %7.3f us\n", "fused kernel, rows walk (no shared memory), launch_fused",
              host_us([&] { xf::detail::launch_fused(rows_plan, rows_config, cur, s); }));
  std::printf("%-52s %7.3f us\n", "fused kernel, rows walk, bare Ex + programmatic",
              host_us([&] { launch_ex(xf::detail::fused_kernel<Plan>, static_cast<unsigned>(rows_config.blocks), Plan::block_threads, s, true, rows_plan); }));
  std::printf("%-52s %7.3f us\n", "fused kernel, prepared plan, <<<>>>", host_us([&] { xf::detail::fused_kernel<Plan><<<static_cast<unsigned>(config.blocks), Plan::block_threads, config.smem_bytes, s>>>(plan); }));
  std::printf("%-52s %7.3f us\n", "plan build only", host_us([&] { auto r = build_plan(z, e); asm volatile("" : : "r"(r.second.blocks)); }));
  std::printf("%-52s %7.3f us\n", "reads_written_memory only", host_us([&] { volatile bool b = xf::detail::reads_written_memory(z.data(), z.shape(), z.strides(), e); (void)b; }));
  std::printf("%-52s %7.3f us\n", "array handle copied", host_us([&] { auto c = x; asm volatile("" : : "r"(&c) : "memory"); }));
  std::printf("%-52s %7.3f us\n", "expression built only", host_us([&] { auto ee = (x - y) * (x - y); asm volatile("" : : "r"(&ee)); }));
  std::printf("%-52s %7.3f us\n", "z.assign((x - y) * (x - y))", host_us([&] { z.assign((x - y) * (x - y)); }));
  std::printf("%-52s %7.3f us\n", "z.assign(e), e built before", host_us([&] { z.assign(e); }));
  std::printf("%-52s %7.3f us\n", "w = (x - y) * (x - y), new array", host_us([&] { xf::array<float, 1> w = (x - y) * (x - y); asm volatile("" : : "r"(w.data())); }));
  std::printf("%-52s %7.3f us\n", "x += 1", host_us([&] { auto xx = x; xx += 1.0f; }));
  return 0;
}
