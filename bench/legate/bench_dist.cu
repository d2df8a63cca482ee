// Distributed statements through Legate against the same statements on plain xfuse arrays, in one
// process on one GPU: a fused element-wise statement, a fused reduction and a 5-point stencil step
// over 2^28 float32 elements, the unfused forms (one task per operation, cuPyNumeric's model), a
// heat step of five statements as a task each and as one sequence, and the cost of one small task. Plain xfuse is timed with CUDA events, Legate with wall clocks over
// many statements between blocking execution fences; every figure is a median of several rounds.
//
//   LEGATE_CONFIG="--gpus 1 --cpus 1 --fbmem 40000 --sysmem 4000" ./xfuse_bench_dist
#include <legate.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <utility>
#include <vector>

#include <xfuse/legate.hpp>

namespace {

using xf::slice;
using xf::_;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Milliseconds per call of f on plain xfuse arrays: CUDA events around `count` calls.
double plain_ms(const std::function<void()>& f, int count, int rounds = 7) {
  for (int i = 0; i < 3; ++i) f();
  std::vector<double> t;
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (int r = 0; r < rounds; ++r) {
    cudaEventRecord(a, xf::current_stream().handle());
    for (int i = 0; i < count; ++i) f();
    cudaEventRecord(b, xf::current_stream().handle());
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms / count);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return median(t);
}

void fence() { legate::Runtime::get_runtime()->issue_execution_fence(true); }

// Milliseconds per call of f on distributed arrays: wall clock over `count` calls between fences.
double legate_ms(const std::function<void()>& f, int count, int rounds = 7) {
  for (int i = 0; i < 3; ++i) f();
  fence();
  std::vector<double> t;
  for (int r = 0; r < rounds; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < count; ++i) f();
    fence();
    const auto stop = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::milli>(stop - start).count() / count);
  }
  return median(t);
}

void row(const char* name, double plain, double dist) {
  std::printf("| %-44s | %10.4f | %10.4f | %6.3f |\n", name, plain, dist, plain / dist);
}

}  // namespace

int main() {
  legate::start();
  {
    const xf::index_t n = xf::index_t{1} << 28;
    xf::random::generator g(7);
    std::printf("| statement (2^28 float32 unless said) | plain xfuse ms | Legate ms | plain/Legate |\n|---|---|---|---|\n");

    // Element-wise: z = (x - y) * (x - y).
    xf::array<float, 1> px = xf::random::uniform<float>({n}, g), py = xf::random::uniform<float>({n}, g), pz = xf::empty<float>({n});
    auto x = xf::dist::eval(xf::dist::generated(xf::random::uniform<float>({n}, g)));
    auto y = xf::dist::eval(xf::dist::generated(xf::random::uniform<float>({n}, g)));
    auto z = xf::dist::empty<float>({n});
    fence();
    const double copy = plain_ms([&] { cudaMemcpyAsync(pz.data(), px.data(), n * 4, cudaMemcpyDeviceToDevice, xf::current_stream().handle()); }, 10);
    const double fused_plain = plain_ms([&] { pz.assign((px - py) * (px - py)); }, 10);
    const double fused_dist = legate_ms([&] { z.assign((x - y) * (x - y)); }, 50);
    row("z = (x - y) * (x - y)", fused_plain, fused_dist);
    auto t = xf::dist::empty<float>({n});
    const double unfused_dist = legate_ms([&] { t.assign(x - y); z.assign(t * t); }, 25);
    row("  unfused: t = x - y; z = t * t (Legate)", fused_plain, unfused_dist);
    std::printf("| device copy of 2^28 float32 (plain) | %10.4f | | |\n", copy);

    // Reduction: sum((x - y)**2), the expression fused into each piece's reduction.
    xf::array<float, 0> ps = xf::empty<float>(std::array<xf::index_t, 0>{});
    const double sum_plain = plain_ms([&] { ps.assign(xf::lazy::sum((px - py) * (px - py))); }, 10);
    const double sum_dist = legate_ms([&] { (void)xf::dist::sum((x - y) * (x - y)); }, 50);
    row("sum((x - y)**2)", sum_plain, sum_dist);
    const double sum_unfused = legate_ms([&] { t.assign(x - y); t.assign(t * t); (void)xf::dist::sum(t); }, 20);
    row("  unfused: t = x - y; t = t * t; sum(t) (Legate)", sum_plain, sum_unfused);
    std::printf("| check: sum((x-y)^2) plain %.6g, Legate %.6g | | | |\n", double(xf::sum((px - py) * (px - py)).item()),
                double(xf::dist::sum((x - y) * (x - y)).item()));

    // 5-point stencil step on 16384 x 16384 (2^28) float32.
    const xf::index_t side = 16384;
    xf::array<float, 2> pu = xf::random::uniform<float>({side, side}, g), pv = xf::zeros<float>({side, side});
    auto u = xf::dist::eval(xf::dist::generated(xf::random::uniform<float>({side, side}, g)));
    auto v = xf::dist::zeros<float>({side, side});
    const auto in = slice(1, -1);
    const double stencil_plain = plain_ms([&] {
      pv(in, in).assign(0.25f * (pu(slice(0, -2), in) + pu(slice(2, _), in) + pu(in, slice(0, -2)) + pu(in, slice(2, _))));
    }, 10);
    const double stencil_dist = legate_ms([&] {
      v(in, in).assign(0.25f * (u(slice(0, -2), in) + u(slice(2, _), in) + u(in, slice(0, -2)) + u(in, slice(2, _))));
    }, 50);
    row("5-point stencil step, 16384^2", stencil_plain, stencil_dist);
    auto s = xf::dist::zeros<float>({side - 2, side - 2});
    const double stencil_unfused = legate_ms([&] {
      s.assign(u(slice(0, -2), in) + u(slice(2, _), in));
      s.assign(s + u(in, slice(0, -2)));
      s.assign(s + u(in, slice(2, _)));
      v(in, in).assign(0.25f * s);
    }, 12);
    row("  unfused: one task per operation (Legate)", stencil_plain, stencil_unfused);

    // A heat step of five statements (stencil, update, change, two residuals), one task each and
    // as one xf::dist::sequence, at three sizes: the task's cost against the pieces' work.
    std::printf("| heat step, 5 statements | plain xfuse ms | Legate ms, a task each | Legate ms, one sequence | each/sequence |\n|---|---|---|---|---|\n");
    for (const xf::index_t side : {xf::index_t{16384}, xf::index_t{4096}, xf::index_t{1024}, xf::index_t{512}}) {
      const auto i = slice(1, -1), lo = slice(0, -2), hi = slice(2, _);
      const float k = 0.2f;
      xf::array<float, 2> hu = xf::random::uniform<float>({side, side}, g), hnext = hu.copy();
      xf::array<float, 2> hlap = xf::empty<float>({side - 2, side - 2}), hchange = xf::empty<float>({side - 2, side - 2});
      xf::array<float, 0> hmax = xf::empty<float>(std::array<xf::index_t, 0>{}), henergy = xf::empty<float>(std::array<xf::index_t, 0>{});
      const double plain = plain_ms([&] {
        hlap.assign(hu(lo, i) + hu(hi, i) + hu(i, lo) + hu(i, hi) - 4.0f * hu(i, i));
        hnext(i, i).assign(hu(i, i) + k * hlap);
        hchange.assign(hnext(i, i) - hu(i, i));
        hmax.assign(xf::lazy::max(xf::abs(hchange)));
        henergy.assign(xf::lazy::sum(hchange * hchange));
        std::swap(hu, hnext);
      }, side >= 16384 ? 10 : 100);
      auto du = xf::dist::eval(xf::dist::generated(xf::random::uniform<float>({side, side}, g)));
      auto dnext = xf::dist::eval(du * 1.0f);
      auto lap = xf::dist::empty<float>({side - 2, side - 2}), change = xf::dist::empty<float>({side - 2, side - 2});
      auto step = [&] {
        lap.assign(du(lo, i) + du(hi, i) + du(i, lo) + du(i, hi) - 4.0f * du(i, i));
        dnext(i, i).assign(du(i, i) + k * lap);
        change.assign(dnext(i, i) - du(i, i));
        auto largest = xf::dist::max(xf::dist::abs(change));
        auto energy = xf::dist::sum(change * change);
        std::swap(du, dnext);
        return std::pair{largest, energy};
      };
      const int count = side >= 16384 ? 10 : 100;
      const double each = legate_ms([&] { (void)step(); }, count);
      const double together = legate_ms([&] { (void)xf::dist::sequence(step); }, count);
      std::printf("| %lld^2 float32 | %10.4f | %10.4f | %10.4f | %6.2f |\n", static_cast<long long>(side), plain, each, together,
                  each / together);
      // The three statements alone (no reductions, so no fills of their results).
      auto three = [&] {
        lap.assign(du(lo, i) + du(hi, i) + du(i, lo) + du(i, hi) - 4.0f * du(i, i));
        dnext(i, i).assign(du(i, i) + k * lap);
        change.assign(dnext(i, i) - du(i, i));
        std::swap(du, dnext);
      };
      const double each3 = legate_ms(three, count);
      const double together3 = legate_ms([&] { xf::dist::sequence(three); }, count);
      std::printf("|   the 3 statements without the residuals | | %10.4f | %10.4f | %6.2f |\n", each3, together3, each3 / together3);
    }
    const auto [seq_max, seq_energy] = [&] {
      // The residuals agree with the statements run one by one (same pieces, same folds).
      auto a = xf::dist::eval(xf::dist::generated(xf::random::uniform<float>({1024, 1024}, g)));
      auto c = xf::dist::eval(a * 0.5f);
      return xf::dist::sequence([&] {
        c.assign(c - a);
        return std::pair{xf::dist::max(xf::dist::abs(c)), xf::dist::sum(c * c)};
      });
    }();
    std::printf("| check: a sequence's residuals %.6g %.6g | | | | |\n", double(seq_max.item()), double(seq_energy.item()));

    // The cost of one task: a statement over 4096 elements.
    xf::array<float, 1> sa = xf::zeros<float>({4096});
    auto da = xf::dist::zeros<float>({4096});
    const double small_plain = plain_ms([&] { sa.assign(sa + 1.0f); }, 2000, 5);
    const double small_dist = legate_ms([&] { da.assign(da + 1.0f); }, 2000, 5);
    std::printf("| one statement over 4096 float32: plain %.2f us, Legate %.2f us a task | | | |\n", small_plain * 1e3, small_dist * 1e3);
    {
      // The same kernel over the memory Legate gave x, y and z, mapped here outside any task: what
      // the statement costs without the runtime between statements. (Last: mapping them here
      // slowed the Legate figures measured after it.)
      const legate::PhysicalStore mx = x.store().get_physical_store(legate::mapping::StoreTarget::FBMEM);
      const legate::PhysicalStore my = y.store().get_physical_store(legate::mapping::StoreTarget::FBMEM);
      const legate::PhysicalStore mz = z.store().get_physical_store(legate::mapping::StoreTarget::FBMEM);
      auto on_gpu = [n](const legate::PhysicalStore& p) {
        return xf::array<float, 1>::wrap(static_cast<float*>(p.get_inline_allocation().ptr), {n});
      };
      auto lx = on_gpu(mx), ly = on_gpu(my), lz = on_gpu(mz);
      row("z = (x - y)**2: the kernel on Legate's instances, no tasks", fused_plain, plain_ms([&] { lz.assign((lx - ly) * (lx - ly)); }, 10));
    }
  }
  return legate::finish();
}
