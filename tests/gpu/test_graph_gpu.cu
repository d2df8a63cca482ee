// Recorded statement sequences (xf::capture, xf::graph): replays against the same statements run
// eagerly, the graph's memory, random draws, library calls (CUB, cuBLAS, cuSOLVER), and the
// refusals of what a graph cannot replay.
#include <cmath>
#include <cstdint>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <xfuse/graph.hpp>
#include <xfuse/linalg.hpp>
#include <xfuse/random.hpp>
#include <xfuse/sort.hpp>
#include <xfuse/reduce.hpp>
#include <xfuse/scan.hpp>

#include "../common/catch.hpp"
#include "../common/random.hpp"

namespace {

// Ten dependent statements on x and y, as the host computes them.
void ten_statements_on_host(std::vector<float>& x, std::vector<float>& y) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    float a = x[i], b = y[i];
    b = a * 0.5f + b;
    a = a - 0.25f * b;
    b = b * b * 0.125f;
    a = a + b;
    b = std::sqrt(b + 1.0f);
    a = a / b;
    b = b - a;
    a = a * 0.75f;
    b = b + 0.5f * a;
    a = a - 0.01f;
    x[i] = a;
    y[i] = b;
  }
}

void ten_statements(const xf::array<float, 1>& x, const xf::array<float, 1>& y) {
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
}

std::size_t differing(const std::vector<float>& got, const std::vector<float>& want, float tolerance) {
  std::size_t bad = got.size() == want.size() ? 0 : 1;
  for (std::size_t i = 0; i < got.size() && i < want.size(); ++i) bad += !(std::fabs(got[i] - want[i]) <= tolerance * (1 + std::fabs(want[i])));
  return bad;
}

}  // namespace

TEST_CASE("a recorded sequence replays the statements on the arrays' current values", "[gpu][graph]") {
  const std::size_t n = 10000;
  auto xv = xf_test::uniform<float>(n, -1, 1), yv = xf_test::uniform<float>(n, 0, 1);
  const auto x = xf::asarray<float>(xv), y = xf::asarray<float>(yv);
  const xf::graph step = xf::capture([&] { ten_statements(x, y); });
  REQUIRE(step);
  CHECK(step.node_count() == 10);  // one kernel a statement, no bookkeeping nodes between them
  // Recording ran nothing.
  CHECK(xf::to_host(x) == xv);
  CHECK(xf::to_host(y) == yv);
  for (int replay = 0; replay < 5; ++replay) {
    step.launch();
    ten_statements_on_host(xv, yv);
  }
  CHECK(differing(xf::to_host(x), xv, 1e-5f) == 0);
  CHECK(differing(xf::to_host(y), yv, 1e-5f) == 0);
  // A replay reads what the arrays hold then: overwrite x and replay on another stream.
  x.assign(xf::asarray<float>(std::vector<float>(n, 0.5f)));
  std::fill(xv.begin(), xv.end(), 0.5f);
  const xf::stream other(xf::stream::non_blocking);
  {
    const xf::stream_guard on(other);
    step.launch();
  }
  step.launch(other);
  ten_statements_on_host(xv, yv);
  ten_statements_on_host(xv, yv);
  other.synchronize();
  CHECK(differing(xf::to_host(x), xv, 1e-5f) == 0);
}

TEST_CASE("recorded reductions, scans and temporaries keep their memory with the graph", "[gpu][graph]") {
  const xf::index_t n = 300000;
  const auto v = xf_test::uniform<float>(static_cast<std::size_t>(n), -1, 1);
  const auto x = xf::asarray<float>(v);
  const xf::array<float, 0> total(xf::dims<0>{});
  const xf::array<float, 1> centred({n}), detrended({n});
  xf::array<float, 1> made_inside;
  const xf::graph g = xf::capture([&] {
    total.assign(xf::sum(x * x));                         // a reduction: its result is a temporary
    centred.assign(x - xf::mean(x));                      // and another
    detrended.assign(x - xf::lazy::cumsum(x) / static_cast<float>(n));  // a scan with its consumer
    made_inside = xf::eval(centred * 2.0f);               // an array made while recording
    const xf::array<float, 1> dropped = x * 3.0f;         // released while recording
    made_inside += dropped(xf::slice(0, n)) * 0.0f;
  });
  for (int replay = 0; replay < 3; ++replay) g.launch();
  double sum_sq = 0, sum = 0;
  for (float e : v) {
    sum_sq += static_cast<double>(e) * e;
    sum += e;
  }
  CHECK(std::fabs(total.item() - sum_sq) <= 1e-4 * sum_sq);
  const auto c = xf::to_host(centred), m = xf::to_host(made_inside), d = xf::to_host(detrended);
  std::size_t bad = 0;
  double running = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    running += v[i];
    bad += !(std::fabs(c[i] - (v[i] - sum / n)) <= 1e-5);
    bad += !(std::fabs(m[i] - 2 * c[i]) <= 1e-5);
    bad += !(std::fabs(d[i] - (v[i] - running / n)) <= 1e-4);
  }
  CHECK(bad == 0);
  // The array made inside is the graph's output: the next replay writes it again.
  x.assign(xf::asarray<float>(std::vector<float>(static_cast<std::size_t>(n), 1.0f)));
  g.launch();
  CHECK(xf::max(xf::abs(made_inside)).item() == 0.0f);  // x - mean(x) of equal values
  CHECK(total.item() == static_cast<float>(n));
}

TEST_CASE("what a graph cannot replay is refused, and the stream stays usable", "[gpu][graph]") {
  const auto x = xf::asarray<float>({1, 2, 3});
  const xf::array<float, 1> y({3});
  auto refused = [&](auto&& statements, const char* op) {
    CHECK_THROWS_WITH(xf::capture(statements), XF_CONTAINS(op) && XF_CONTAINS("xf::capture"));
    // Nothing was left recording: work runs as usual afterwards.
    y.assign(x + 1.0f);
    CHECK(xf::to_host(y) == std::vector<float>{2, 3, 4});
  };
  refused([&] { (void)xf::sum(x).item(); }, "xf::array::item");
  refused([&] { (void)xf::to_host(x); }, "xf::to_host");
  refused([&] { xf::synchronize(); }, "xf::synchronize");
  refused([&] { y.assign(xf::asarray<float>({4, 5, 6})); }, "xf::asarray");
  xf::random::generator gen(3);
  const xf::array<bool, 0> flag(xf::dims<0>{});
  refused([&] { xf::while_(flag, [&] { y.assign(xf::random::uniform<float>(y.shape(), gen)); }); }, "xf::random");
  CHECK(gen.draws() == 0);
  const auto h = xf::asarray<float, xf::host>({1, 2, 3});
  refused([&] { h.assign(h + 1.0f); }, "host arrays");
  CHECK_THROWS_WITH(xf::capture([&] { (void)xf::capture([] {}); }), XF_CONTAINS("do not nest"));
  const xf::graph none;
  CHECK_FALSE(none);
  CHECK_THROWS_WITH(none.launch(), XF_CONTAINS("empty xf::graph"));
  // An empty recording is a graph that does nothing.
  const xf::graph empty = xf::capture([] {});
  empty.launch();
  CHECK(empty.node_count() == 0);
}

TEST_CASE("docs: recording statements as a graph", "[gpu][graph][docs]") {
  // example-begin capture
  auto u = xf::asarray<float>({0, 0, 8, 0, 0});
  xf::array<float, 1> flux = xf::zeros<float>({3});
  // Recorded once, nothing runs: a diffusion step on the interior points.
  xf::graph step = xf::capture([&] {
    flux.assign(u(xf::slice(0, 3)) - 2.0f * u(xf::slice(1, 4)) + u(xf::slice(2, 5)));
    u(xf::slice(1, 4)) += 0.25f * flux;
  });
  for (int i = 0; i < 2; ++i) step.launch();  // one launch a step, no host work between kernels
  // u: [0, 2, 4, 2, 0] after one step, [0, 2, 3, 2, 0] after two
  // example-end
  CHECK(xf::to_host(u) == std::vector<float>{0, 2, 3, 2, 0});
}

TEST_CASE("loops and branches on the device, inside a recorded graph", "[gpu][graph][graph_loop]") {
  // example-begin device_loop
  // Halve r until every |r| <= 1e-3: 2^-10 is the first power of two below, so ten passes.
  const auto start = std::vector<float>{1.0f, -0.5f, 0.25f};
  const auto r = xf::asarray<float>(start);
  const xf::array<bool, 0> keep_going(xf::dims<0>{});
  const xf::array<int, 0> passes(xf::dims<0>{});
  const xf::graph halve = xf::capture([&] {
    passes.assign(0);
    keep_going.assign(xf::max(xf::abs(r)) > 1e-3f);
    xf::while_(keep_going, [&] {
      r *= 0.5f;
      passes += 1;
      keep_going.assign(xf::max(xf::abs(r)) > 1e-3f);
    });
  });
  halve.launch();  // ten passes on the device, no host round trip: passes holds 10
  // example-end
  CHECK(passes.item() == 10);
  CHECK(xf::to_host(r) == std::vector<float>{std::ldexp(1.0f, -10), -std::ldexp(1.0f, -11), std::ldexp(1.0f, -12)});
  halve.launch();  // already small: the condition is false before the first pass
  CHECK(passes.item() == 0);
  r.assign(xf::asarray<float>(start));
  halve.launch();
  CHECK(passes.item() == 10);

  // A loop whose condition never turns false stops after max_iterations.
  const xf::array<bool, 0> always(xf::dims<0>{});
  always.assign(true);
  const xf::array<int, 0> count(xf::dims<0>{});
  const xf::graph capped = xf::capture([&] {
    count.assign(0);
    xf::while_(always, [&] { count += 1; }, 7);
  });
  capped.launch();
  CHECK(count.item() == 7);

  // Nested loops: 3 outer passes of 2 inner ones.
  const xf::array<int, 0> i(xf::dims<0>{}), j(xf::dims<0>{}), total(xf::dims<0>{});
  const xf::array<bool, 0> outer(xf::dims<0>{}), inner(xf::dims<0>{});
  const xf::graph nested = xf::capture([&] {
    i.assign(0);
    total.assign(0);
    outer.assign(i < 3);
    xf::while_(outer, [&] {
      j.assign(0);
      inner.assign(j < 2);
      xf::while_(inner, [&] {
        total += 1;
        j += 1;
        inner.assign(j < 2);
      });
      i += 1;
      outer.assign(i < 3);
    });
  });
  nested.launch();
  CHECK(total.item() == 6);

  // A branch, decided on the device at each replay.
  const xf::array<bool, 0> flag(xf::dims<0>{});
  flag.assign(false);
  const xf::graph branch = xf::capture([&] { xf::if_(flag, [&] { count += 100; }); });
  count.assign(0);
  branch.launch();
  CHECK(count.item() == 0);
  flag.assign(true);
  branch.launch();
  CHECK(count.item() == 100);

  // Outside a recording there is no graph to hold the loop.
  CHECK_THROWS_WITH(xf::while_(flag, [] {}), XF_CONTAINS("xf::while_") && XF_CONTAINS("only inside xf::capture"));
}

TEST_CASE("a device loop runs several passes a check with the passes of one a check", "[gpu][graph][graph_loop]") {
  // Halving stops after 10 passes: inside the second group of 4 (two passes of it skipped), and
  // inside the first group of 16.
  const auto start = std::vector<float>{1.0f, -0.5f, 0.25f};
  const auto r = xf::asarray<float>(start);
  const xf::array<bool, 0> keep_going(xf::dims<0>{});
  const xf::array<int, 0> passes(xf::dims<0>{});
  for (const int k : {1, 2, 4, xf::default_passes_per_check, 16}) {
    int recorded = 0;
    const xf::graph halve = xf::capture([&] {
      passes.assign(0);
      keep_going.assign(xf::max(xf::abs(r)) > 1e-3f);
      xf::while_(
          keep_going,
          [&] {
            ++recorded;
            r *= 0.5f;
            passes += 1;
            keep_going.assign(xf::max(xf::abs(r)) > 1e-3f);
          },
          1'000'000, k);
    });
    CHECK(recorded == k);  // element-wise statements and reductions only: k passes recorded
    for (int launch = 0; launch < 2; ++launch) {
      r.assign(xf::asarray<float>(start));
      halve.launch();
      CHECK(passes.item() == 10);
      CHECK(xf::to_host(r) == std::vector<float>{std::ldexp(1.0f, -10), -std::ldexp(1.0f, -11), std::ldexp(1.0f, -12)});
    }
    halve.launch();  // false before the first pass
    CHECK(passes.item() == 0);
  }

  // max_iterations not a multiple of the passes a check, smaller than them, and zero.
  const xf::array<bool, 0> always(xf::dims<0>{});
  always.assign(true);
  const xf::array<int, 0> count(xf::dims<0>{});
  for (const auto& [limit, k] : std::vector<std::pair<xf::index_t, int>>{{7, 4}, {6, 3}, {5, 16}, {0, 4}, {9, 1}}) {
    const xf::graph capped = xf::capture([&] {
      count.assign(0);
      xf::while_(always, [&] { count += 1; }, limit, k);
    });
    capped.launch();
    CHECK(count.item() == limit);
  }

  // A reduction of 300,001 floats in the body (at this size split over blocks, then folded: two
  // kernels): x halves while its sum stays above s0 / 2^6.5, so 7 passes (scaling by 2 is exact,
  // so is every sum's rounding).
  const xf::index_t n = 300'001;
  const auto x0 = xf_test::uniform<float>(static_cast<std::size_t>(n), 0.5f, 1.5f);
  const auto x = xf::asarray<float>(x0);
  const xf::array<float, 0> s(xf::dims<0>{}), threshold(xf::dims<0>{});
  const xf::array<std::int64_t, 0> iterations(xf::dims<0>{});
  int recorded = 0;
  const xf::graph shrink = xf::capture([&] {
    s.assign(xf::lazy::sum(x));
    threshold.assign(s / std::sqrt(8192.0f));
    iterations.assign(0);
    keep_going.assign(s > threshold);
    xf::while_(
        keep_going,
        [&] {
          ++recorded;
          x *= 0.5f;
          s.assign(xf::lazy::sum(x));
          xf::assign(xf::into(iterations) = iterations + 1, xf::into(keep_going) = s > threshold);
        },
        1'000, 4);
  });
  CHECK(recorded == 4);
  shrink.launch();
  CHECK(iterations.item() == 7);
  std::vector<float> expected = x0;
  for (float& v : expected) v = std::ldexp(v, -7);
  CHECK(xf::to_host(x) == expected);

  // Nested loops: the inner one runs 4 passes a check; the outer body holds a loop node, so it is
  // recorded once (one pass a check) and still runs 3 passes of 2 inner ones.
  const xf::array<int, 0> i(xf::dims<0>{}), j(xf::dims<0>{}), total(xf::dims<0>{});
  const xf::array<bool, 0> outer(xf::dims<0>{}), inner(xf::dims<0>{});
  int outer_recorded = 0, inner_recorded = 0;
  const xf::graph nested = xf::capture([&] {
    i.assign(0);
    total.assign(0);
    outer.assign(i < 3);
    xf::while_(
        outer,
        [&] {
          ++outer_recorded;
          j.assign(0);
          inner.assign(j < 2);
          xf::while_(
              inner,
              [&] {
                ++inner_recorded;
                total += 1;
                j += 1;
                inner.assign(j < 2);
              },
              100, 4);
          i += 1;
          outer.assign(i < 3);
        },
        100, 4);
  });
  CHECK(outer_recorded == 1);
  CHECK(inner_recorded == 4);
  nested.launch();
  CHECK(total.item() == 6);
  CHECK(i.item() == 3);

  // A branch in the body: recorded once, the same passes.
  const xf::array<bool, 0> odd(xf::dims<0>{});
  const xf::array<int, 0> odd_passes(xf::dims<0>{});
  int branch_recorded = 0;
  const xf::graph branching = xf::capture([&] {
    count.assign(0);
    odd_passes.assign(0);
    keep_going.assign(true);
    xf::while_(
        keep_going,
        [&] {
          ++branch_recorded;
          count += 1;
          odd.assign(count % 2 == 1);
          xf::if_(odd, [&] { odd_passes += 1; });
          keep_going.assign(count < 5);
        },
        100, 8);
  });
  CHECK(branch_recorded == 1);
  branching.launch();
  CHECK(count.item() == 5);
  CHECK(odd_passes.item() == 3);

  CHECK_THROWS_WITH(xf::capture([&] { xf::while_(always, [] {}, 10, 0); }),
                    XF_CONTAINS("xf::while_") && XF_CONTAINS("passes_per_check must be from 1 to 64"));
  CHECK_THROWS_WITH(xf::capture([&] { xf::while_(always, [] {}, 10, xf::max_passes_per_check + 1); }),
                    XF_CONTAINS("xf::while_") && XF_CONTAINS("passes_per_check must be from 1 to"));
  CHECK_THROWS_WITH(xf::capture([&] { xf::while_(always, [] {}, 10, 1'000'000'000); }),
                    XF_CONTAINS("xf::while_") && XF_CONTAINS("(got 1000000000)"));
  // No more passes recorded than max_iterations allows.
  int few = 0;
  const xf::graph three = xf::capture([&] {
    count.assign(0);
    xf::while_(always, [&] { ++few; count += 1; }, 3, 16);
  });
  CHECK(few == 3);
  three.launch();
  CHECK(count.item() == 3);
  // A body that records a node on a later call that cannot skip itself (here a branch), where
  // the first call recorded none, is refused: that pass would run unguarded.
  int calls = 0;
  CHECK_THROWS_WITH(xf::capture([&] {
                      xf::while_(
                          always,
                          [&] {
                            count += 1;
                            if (calls++ > 0) xf::if_(odd, [&] { odd_passes += 1; });
                          },
                          10, 4);
                    }),
                    XF_CONTAINS("xf::while_") && XF_CONTAINS("pass 2 of the body recorded work that cannot skip itself"));
  count.assign(0);  // the stream and arrays stay usable
  CHECK(count.item() == 0);
}

TEST_CASE("random draws in a recording: each launch draws what the statements would draw then", "[gpu][graph][graph_random]") {
  const xf::index_t n = 4099;  // not a whole number of Philox blocks
  const auto x = xf::asarray<float>(xf_test::uniform<float>(static_cast<std::size_t>(n), -1, 1));
  const xf::array<float, 1> y({n}), z({n});
  xf::random::generator recorded(2026), eager(2026);
  xf::random::generator other(7), other_eager(7);
  const xf::graph g = xf::capture([&] {
    y.assign(x + 0.5f * xf::random::normal<float>({n}, recorded));
    z.assign(y * xf::random::uniform<float>({n}, recorded) + xf::random::uniform<float>({n}, other));
  });
  CHECK(recorded.draws() == 0);  // recording draws nothing
  for (int launch = 0; launch < 3; ++launch) {
    g.launch();
    const xf::array<float, 1> ye = x + 0.5f * xf::random::normal<float>({n}, eager);
    const xf::array<float, 1> ze = ye * xf::random::uniform<float>({n}, eager) + xf::random::uniform<float>({n}, other_eager);
    CHECK(recorded.draws() == eager.draws());
    CHECK(other.draws() == other_eager.draws());
    CHECK(xf::to_host(y) == xf::to_host(ye));  // bit for bit
    CHECK(xf::to_host(z) == xf::to_host(ze));
    // Eager draws between launches take their turn in the generator's sequence.
    CHECK(xf::to_host(xf::eval(xf::random::uniform<float>({n}, recorded))) ==
          xf::to_host(xf::eval(xf::random::uniform<float>({n}, eager))));
  }
  // Launches draw new numbers: two replays differ.
  const auto first = xf::to_host(y);
  g.launch();
  CHECK(xf::to_host(y) != first);
}

namespace {

// A symmetric positive-definite n x n matrix: m m^T / n + I, with m uniform on [-1, 1).
xf::array<double, 2> spd(xf::index_t n, std::uint64_t seed) {
  xf::random::generator g(seed);
  const xf::array<double, 2> m = xf::random::uniform<double>({n, n}, g, -1.0, 1.0);
  return xf::eval(xf::matmul(m, m.T()) / static_cast<double>(n) + xf::eye<double>(n));
}

}  // namespace

TEST_CASE("a recorded reduction, sort, product and solve replay bit for bit as run eagerly", "[gpu][graph][graph_library]") {
  const xf::index_t n = 200;  // above the one-launch small solve: cuSOLVER's LU and Cholesky
  const auto a = spd(n, 1), c = spd(8, 2);
  xf::random::generator g(3);
  const xf::array<double, 2> b = xf::random::uniform<double>({n, 3}, g, -1.0, 1.0);
  const xf::array<float, 2> v = xf::random::normal<float>({64, 1000}, g);
  const xf::array<double, 2> x({n, 3}), prod({n, 3}), low({n, n}), small({8, 3});
  const xf::array<float, 1> row_sums({64});
  const xf::array<float, 2> sorted({64, 1000});
  auto statements = [&](const xf::array<double, 2>& x_out, const xf::array<double, 2>& prod_out, const xf::array<double, 2>& low_out,
                        const xf::array<double, 2>& small_out, const xf::array<float, 1>& sums_out, const xf::array<float, 2>& sorted_out) {
    sums_out.assign(xf::sum(v * v, 1));
    sorted_out.assign(xf::sort(v));
    prod_out.assign(xf::matmul(a, b));
    x_out.assign(xf::linalg::solve(a, prod_out));  // x = b, up to rounding
    low_out.assign(xf::linalg::cholesky(a));
    small_out.assign(xf::linalg::solve(c, b(xf::slice(0, 8), xf::slice())));  // the one-launch small solve
  };
  const xf::graph recorded = xf::capture([&] { statements(x, prod, low, small, row_sums, sorted); });
  recorded.launch();
  recorded.launch();  // a second replay writes the same values again
  const xf::array<double, 2> xe({n, 3}), prode({n, 3}), lowe({n, n}), smalle({8, 3});
  const xf::array<float, 1> sumse({64});
  const xf::array<float, 2> sortede({64, 1000});
  statements(xe, prode, lowe, smalle, sumse, sortede);
  CHECK(xf::to_host(x) == xf::to_host(xe));
  CHECK(xf::to_host(prod) == xf::to_host(prode));
  CHECK(xf::to_host(low) == xf::to_host(lowe));
  CHECK(xf::to_host(small) == xf::to_host(smalle));
  CHECK(xf::to_host(row_sums) == xf::to_host(sumse));
  CHECK(xf::to_host(sorted) == xf::to_host(sortede));
  // And the values are right: x solves a x = a b, so x = b; L L^T = a; rows sorted.
  CHECK(xf::max(xf::abs(x - b)).item() < 1e-10);
  CHECK(xf::max(xf::abs(xf::matmul(low, low.T()) - a)).item() < 1e-12);
  CHECK(xf::all(sorted(xf::slice(), xf::slice(1, 1000)) >= sorted(xf::slice(), xf::slice(0, 999))).item());
}

TEST_CASE("factorizations that wait inside the call are refused by name, the others recorded", "[gpu][graph][graph_library]") {
  const auto a = spd(100, 4);
  const xf::array<double, 2> got({100, 100});
  // QR (geqrf, orgqr) records: a replay gives what it computes eagerly.
  const xf::graph g = xf::capture([&] { got.assign(xf::linalg::qr(a).Q); });
  g.launch();
  CHECK(xf::to_host(got) == xf::to_host(xf::linalg::qr(a).Q));
  // cuSOLVER's syevd and gesvd synchronize their stream inside the call.
  CHECK_THROWS_WITH(xf::capture([&] { got.assign(xf::linalg::eigh(a).eigenvectors); }),
                    XF_CONTAINS("xf::linalg::eigh") && XF_CONTAINS("xf::capture"));
  CHECK_THROWS_WITH(xf::capture([&] { got.assign(xf::linalg::svd(a).U); }), XF_CONTAINS("xf::linalg::svd") && XF_CONTAINS("xf::capture"));
  // A thread's first cuBLAS and cuSOLVER calls, made while recording, create their handles.
  xf::array<double, 2> fresh({100, 100});
  std::string failure;
  std::thread([&] {
    try {
      const xf::graph first = xf::capture([&] { fresh.assign(xf::linalg::solve(a, xf::matmul(a, a))); });
      first.launch();
      xf::synchronize();
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }).join();
  INFO(failure);
  CHECK(failure.empty());
  if (failure.empty()) CHECK(xf::max(xf::abs(fresh - a)).item() < 1e-10);
}
