// Views against brute force, shared by the host suite (host arrays) and the GPU suite (device
// arrays): random shapes, strides and views of ranks 0 to 6 (negative steps, zero strides that
// broadcast, dimensions in any order of memory, size-1 and empty dimensions), expressions of
// several of them written through a strided output, and reductions, scans and sorts of such
// views. Every reference position is offset + sum index * stride, computed here from the shape
// and strides alone: no xfuse code (no plan, no layout, no evaluator) is involved.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <xfuse/reduce.hpp>
#include <xfuse/scan.hpp>
#include <xfuse/sort.hpp>
#include <xfuse/xfuse.hpp>

#include "check.hpp"
#include "random.hpp"

namespace xf_test::layouts {

using xf::index_t;

inline index_t pick(index_t lo, index_t hi) {
  std::uniform_int_distribution<index_t> d(lo, hi);
  return d(rng());
}
inline bool chance(double p) {
  std::bernoulli_distribution d(p);
  return d(rng());
}

// Extents from 1 to max_extent, 1 a quarter of the time, now and then 0.
template <int R>
xf::dims<R> random_shape(index_t max_extent, double empty_chance = 0.04) {
  xf::dims<R> s{};
  for (int d = 0; d < R; ++d) s[d] = chance(empty_chance) ? 0 : chance(0.25) ? 1 : pick(1, max_extent);
  return s;
}

template <std::size_t N>
index_t count_of(const std::array<index_t, N>& shape) {
  index_t n = 1;
  for (const index_t e : shape) n *= e;
  return n;
}

template <std::size_t N>
std::string text(const std::array<index_t, N>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < N; ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + ")";
}

// A view of a buffer: element (i0, i1, ...) sits at first + sum_d i_d strides[d].
template <int N>
struct view {
  xf::dims<N> shape{}, strides{};
  index_t first = 0;
  index_t end = 1;  // one past the highest position: the buffer it needs
};

// A view whose elements sit at distinct positions, as a slice of a larger C-ordered array: its
// dimensions in a random order of memory, each with a step of 1 to 3, reversed at random, with
// gaps between neighbours and rows now and then. A destination of this shape may be written.
template <int N>
view<N> distinct_view(const xf::dims<N>& shape) {
  view<N> v;
  v.shape = shape;
  std::array<int, N> order{};  // memory order, outermost first
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng());
  const index_t origin = pick(0, 3);
  index_t unit = pick(1, 2), first = origin;
  for (int i = N - 1; i >= 0; --i) {
    const int d = order[static_cast<std::size_t>(i)];
    const index_t step = pick(1, 3), e = shape[d];
    const index_t s = unit * step;
    if (e > 1 && chance(0.35)) {
      first += (e - 1) * s;
      v.strides[d] = -s;
    } else {
      v.strides[d] = s;
    }
    unit *= (e > 0 ? (e - 1) * step + 1 : 1) + pick(0, 1);
  }
  v.first = first;
  v.end = origin + unit;
  return v;
}

// Any strides from -6 to 6, 0 included (repeated elements, overlapping rows): a view to read.
template <int N>
view<N> any_view(const xf::dims<N>& shape) {
  view<N> v;
  v.shape = shape;
  index_t below = 0, above = 0;
  for (int d = 0; d < N; ++d) {
    v.strides[d] = pick(-6, 6);
    const index_t span = shape[d] > 0 ? (shape[d] - 1) * v.strides[d] : 0;
    (span < 0 ? below : above) += span < 0 ? -span : span;
  }
  v.first = below + pick(0, 3);
  v.end = v.first + above + 1;
  return v;
}

// An operand of rank N read by an expression of rank R >= N: its extents are the output's
// (right-aligned) or 1, which broadcasts; its strides are any, or those of a distinct view.
template <int N, std::size_t R>
view<N> operand_view(const std::array<index_t, R>& out_shape) {
  xf::dims<N> s{};
  for (int j = 0; j < N; ++j) {
    const index_t e = out_shape[static_cast<std::size_t>(j + static_cast<int>(R) - N)];
    s[j] = e != 1 && chance(0.2) ? 1 : e;
  }
  return chance(0.5) ? any_view<N>(s) : distinct_view<N>(s);
}

// The position that operand v reads for output index idx (of rank R): broadcast dimensions
// (extent 1) stay at index 0.
template <int N, std::size_t R>
index_t position(const view<N>& v, const std::array<index_t, R>& idx) {
  index_t p = v.first;
  for (int j = 0; j < N; ++j) p += (v.shape[j] == 1 ? 0 : idx[static_cast<std::size_t>(j + static_cast<int>(R) - N)]) * v.strides[j];
  return p;
}

// Calls f(idx) for every index of `shape` in C order.
template <int R, class F>
void for_each_index(const xf::dims<R>& shape, F f) {
  if (count_of(shape) == 0) return;
  std::array<index_t, R> idx{};
  while (true) {
    f(idx);
    int d = R - 1;
    for (; d >= 0; --d) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

// An array of Space over the buffer `buffer` (an array of Space too) that is the view v.
template <class V, int N, class S>
xf::array<V, N, S> over(const xf::array<V, 1, S>& buffer, const view<N>& v) {
  return xf::array<V, N, S>::wrap(buffer.data() + v.first, v.shape, v.strides, buffer);
}

template <class V>
std::vector<V> packed_values(std::size_t n, int bits) {
  std::vector<V> out(n);
  for (auto& x : out) x = static_cast<V>(pick(0, (index_t{1} << bits) - 1));
  return out;
}

// a + b 2^bits + c 2^(2 bits) of three operands of ranks R, R - 1 (or 0) and R written into a
// strided output over its own buffer, and a * a + b (a leaf used twice) written into a view of
// the buffer the operands read (NumPy's answer: the right side is evaluated before any write).
// Every value of both destination buffers is checked, so nothing is written outside the view.
template <class S, class V, int R>
void expressions_over_views(int trials, index_t max_extent) {
  constexpr int bits = sizeof(V) == 8 ? 20 : 10;
  constexpr int RB = R > 0 ? R - 1 : 0;
  const V k1 = static_cast<V>(V{1} << bits), k2 = static_cast<V>(V{1} << (2 * bits));
  for (int t = 0; t < trials; ++t) {
    const auto shape = random_shape<R>(max_extent);
    const auto va = operand_view<R>(shape);
    const auto vb = operand_view<RB>(shape);
    const auto vc = operand_view<R>(shape);
    const auto vo = distinct_view<R>(shape);
    const index_t in_size = std::max({va.end, vb.end, vc.end, vo.end});
    const auto in = packed_values<V>(static_cast<std::size_t>(in_size), bits);
    const std::vector<V> fill(static_cast<std::size_t>(vo.end), V(-1));
    const auto in_buf = xf::asarray<V, S>(in), out_buf = xf::asarray<V, S>(fill);
    const auto a = over(in_buf, va), c = over(in_buf, vc);
    const auto b = over(in_buf, vb);
    auto want = fill, want_in = in;
    for_each_index<R>(shape, [&](const std::array<index_t, R>& idx) {
      const V x = in[static_cast<std::size_t>(position(va, idx))], y = in[static_cast<std::size_t>(position(vb, idx))];
      want[static_cast<std::size_t>(position(vo, idx))] = static_cast<V>(x + y * k1 + in[static_cast<std::size_t>(position(vc, idx))] * k2);
      want_in[static_cast<std::size_t>(position(vo, idx))] = static_cast<V>(x * x + y);
    });
    const std::string what = std::string(xf::dtype_name<V>) + " shape " + text(shape) + ", a strides " + text(va.strides) + ", b " +
                             text(vb.shape) + " strides " + text(vb.strides) + ", c strides " + text(vc.strides) + ", out strides " +
                             text(vo.strides);
    over(out_buf, vo).assign(a + b * k1 + c * k2);
    require_equal(xf::to_host(out_buf), want, "a + b k1 + c k2 into a view, " + what);
    over(in_buf, vo).assign(a * a + b);  // may overlap a and b
    require_equal(xf::to_host(in_buf), want_in, "a * a + b into a view of the operands' own buffer, " + what);
  }
}

// Every rank from 0 to 6, extents small enough that each trial walks a few thousand elements.
template <class S, class V>
void expressions_of_every_rank(int trials) {
  expressions_over_views<S, V, 0>(trials / 4 + 1, 1);
  expressions_over_views<S, V, 1>(trials, 40);
  expressions_over_views<S, V, 2>(trials, 20);
  expressions_over_views<S, V, 3>(trials, 9);
  expressions_over_views<S, V, 4>(trials, 6);
  expressions_over_views<S, V, 5>(trials, 5);
  expressions_over_views<S, V, 6>(trials, 4);
}

// The public view operations (slices with any step, transpose with any order of axes, newaxis
// and broadcast_to) of a C-ordered (5, 6, 7) array, against the positions they must read: a
// slice start:stop:step keeps start + i step along its axis, a transpose puts axis axes[i] at i.
template <class S>
void public_views(int trials) {
  const xf::dims<3> parent{5, 6, 7};
  const xf::dims<3> c_strides{42, 7, 1};
  std::vector<std::int64_t> v(210);
  std::iota(v.begin(), v.end(), std::int64_t{1000});
  const auto x = xf::asarray<std::int64_t, S>(v, parent);
  for (int t = 0; t < trials; ++t) {
    std::array<index_t, 3> start{}, step{}, length{};
    std::array<xf::slice, 3> sl{};
    for (int d = 0; d < 3; ++d) {
      const index_t n = parent[d];
      step[d] = chance(0.5) ? pick(1, 3) : -pick(1, 3);
      start[d] = pick(0, n - 1);
      if (step[d] > 0) {
        const index_t stop = pick(start[d], n);
        length[d] = (stop - start[d] + step[d] - 1) / step[d];
        sl[d] = xf::slice(start[d], stop, step[d]);
      } else if (chance(0.5)) {  // down to index 0: Python's stop None
        length[d] = start[d] / -step[d] + 1;
        sl[d] = xf::slice(start[d], xf::_, step[d]);
      } else {
        const index_t stop = pick(0, start[d]);
        length[d] = (start[d] - stop + -step[d] - 1) / -step[d];
        sl[d] = xf::slice(start[d], stop, step[d]);
      }
    }
    std::array<int, 3> axes{0, 1, 2};
    std::shuffle(axes.begin(), axes.end(), rng());
    const auto sliced = x(sl[0], sl[1], sl[2]);
    const auto v3 = sliced.transpose(xf::dims<3>{axes[0], axes[1], axes[2]});
    xf::dims<3> shape{};
    for (int i = 0; i < 3; ++i) shape[i] = length[axes[i]];
    // Element (i0, i1, i2) of the view is element j of the parent with j[axes[i]] = start + i step.
    auto at = [&](const std::array<index_t, 3>& i) {
      index_t p = 0;
      for (int k = 0; k < 3; ++k) p += (start[axes[k]] + i[k] * step[axes[k]]) * c_strides[axes[k]];
      return v[static_cast<std::size_t>(p)];
    };
    const std::string what = "x[" + std::to_string(start[0]) + "::" + std::to_string(step[0]) + ", " + std::to_string(start[1]) +
                             "::" + std::to_string(step[1]) + ", " + std::to_string(start[2]) + "::" + std::to_string(step[2]) +
                             "].transpose" + text(xf::dims<3>{axes[0], axes[1], axes[2]});
    REQUIRE(v3.shape() == shape);
    std::vector<std::int64_t> want;
    for_each_index<3>(shape, [&](const std::array<index_t, 3>& i) { want.push_back(at(i) * 3 - 7); });
    require_equal(xf::to_host(xf::eval(v3 * 3 - 7)), want, what + " * 3 - 7");
    if (shape[1] == 0 || shape[2] == 0) continue;
    // A new axis repeated by broadcast_to, minus the view's first column (a view of one axis,
    // broadcast over the others) times (1, 2) along the new axis: shape (s0, 2, s1, s2).
    const xf::dims<4> shape4{shape[0], 2, shape[1], shape[2]};
    const auto wide = v3(xf::all, xf::newaxis).broadcast_to(shape4);
    const auto column = v3(xf::all, 0, 0)(xf::all, xf::newaxis, xf::newaxis, xf::newaxis);
    const auto factor = xf::asarray<std::int64_t, S>(std::vector<std::int64_t>{1, 2}, xf::dims<3>{2, 1, 1});
    std::vector<std::int64_t> want4;
    for_each_index<4>(shape4, [&](const std::array<index_t, 4>& i) {
      want4.push_back(at({i[0], i[2], i[3]}) - at({i[0], 0, 0}) * (i[1] + 1));
    });
    require_equal(xf::to_host(xf::eval(wide - column * factor)), want4, what + " with a new axis, broadcast");
  }
}

// A long double reference of a reduction over axis `axis` of a rank-3 view (every axis when -1):
// fold(acc, value, k) over the reduced elements in C order (k counts them), results in C order.
template <class Acc, class F>
std::vector<Acc> reduce_view(const std::vector<double>& buf, const view<3>& v, int axis, Acc init, F fold) {
  xf::dims<3> kept = v.shape;
  if (axis >= 0) kept[axis] = 1;
  else kept = {1, 1, 1};
  std::vector<Acc> out(static_cast<std::size_t>(count_of(kept)), init);
  std::vector<index_t> seen(out.size(), 0);
  for_each_index<3>(v.shape, [&](const std::array<index_t, 3>& i) {
    index_t o = 0;
    for (int d = 0; d < 3; ++d) o = o * kept[d] + (kept[d] == 1 ? 0 : i[d]);
    const auto at = static_cast<std::size_t>(o);
    out[at] = fold(out[at], static_cast<long double>(buf[static_cast<std::size_t>(position(v, i))]), seen[at]++);
  });
  return out;
}

// sum, mean, var (ddof 0 and 1), min and argmax along each axis and over all, cumsum along each
// axis and sort/argsort along the last, of rank-3 views with any strides (zero strides repeat
// values: ties for argmax, min and the stable sort), against long double folds over the view.
template <class S>
void reductions_of_views(int trials, index_t max_extent) {
  for (int t = 0; t < trials; ++t) {
    xf::dims<3> shape{};
    for (auto& e : shape) e = chance(0.15) ? 1 : pick(2, max_extent);
    const auto v = chance(0.5) ? any_view<3>(shape) : distinct_view<3>(shape);
    std::vector<double> buf(static_cast<std::size_t>(v.end));
    for (auto& x : buf) x = std::uniform_real_distribution<double>(-10, 10)(rng());
    const auto buffer = xf::asarray<double, S>(buf);
    const auto x = over(buffer, v);
    const std::string what = "view " + text(shape) + " strides " + text(v.strides);
    struct moments {
      long double sum = 0, abs = 0, sq = 0;
    };
    for (const int axis : {-1, 0, 1, 2}) {
      const std::string where = what + (axis < 0 ? " over all" : " along axis " + std::to_string(axis));
      const index_t n = axis < 0 ? count_of(shape) : shape[axis];
      const auto m = reduce_view(buf, v, axis, moments{}, [](moments a, long double x, index_t) {
        return moments{a.sum + x, a.abs + std::fabs(x), a.sq + x * x};
      });
      const auto sum = axis < 0 ? std::vector<double>{xf::sum(x).item()} : xf::to_host(xf::sum(x, axis));
      const auto mean = axis < 0 ? std::vector<double>{xf::mean(x).item()} : xf::to_host(xf::mean(x, axis));
      REQUIRE(sum.size() == m.size());
      REQUIRE(mean.size() == m.size());
      // Any order of n - 1 additions errs by at most (n - 1) u sum|x| (u = eps / 2).
      const long double eps = 2.220446049250313e-16L, nd = static_cast<long double>(n);
      std::size_t bad = 0;
      for (std::size_t i = 0; i < m.size(); ++i) {
        bad += !(std::fabs(sum[i] - m[i].sum) <= nd * eps * m[i].abs);
        bad += !(std::fabs(mean[i] - m[i].sum / nd) <= (nd + 1) * eps * m[i].abs / nd);
      }
      for (const double ddof : {0.0, 1.0}) {
        const auto var = axis < 0 ? std::vector<double>{xf::var(x, xf::ddof(ddof)).item()} : xf::to_host(xf::var(x, axis, xf::ddof(ddof)));
        REQUIRE(var.size() == m.size());
        if (nd <= ddof) continue;  // no degrees of freedom left
        // In long double the mean of squares less the squared mean loses nothing that matters
        // here (|x| <= 10); the double result errs by far less than 1e-9 of the mean square.
        for (std::size_t i = 0; i < m.size(); ++i) {
          const long double mu = m[i].sum / nd;
          const long double want = std::max(0.0L, m[i].sq / nd - mu * mu) * nd / (nd - static_cast<long double>(ddof));
          bad += !(std::fabs(var[i] - want) <= 1e-9L * (m[i].sq / nd));
        }
      }
      INFO("sum, mean, var of " << where << ": " << bad << " differ");
      CHECK(bad == 0);
      if (axis < 0) continue;
      struct extreme {
        long double value;
        index_t index;
      };
      const auto lo = reduce_view(buf, v, axis, extreme{INFINITY, -1}, [](extreme a, long double x, index_t k) {
        return x < a.value ? extreme{x, k} : a;
      });
      const auto hi = reduce_view(buf, v, axis, extreme{-INFINITY, -1}, [](extreme a, long double x, index_t k) {
        return x > a.value ? extreme{x, k} : a;  // the first of equal maxima
      });
      const auto got_min = xf::to_host(xf::min(x, axis));
      const auto got_arg = xf::to_host(xf::argmax(x, axis));
      REQUIRE(got_min.size() == lo.size());
      REQUIRE(got_arg.size() == hi.size());
      std::size_t bad_extreme = 0;
      for (std::size_t i = 0; i < lo.size(); ++i) bad_extreme += got_min[i] != lo[i].value || got_arg[i] != hi[i].index;
      INFO("min, argmax of " << where << ": " << bad_extreme << " differ");
      CHECK(bad_extreme == 0);
      // cumsum along the axis: result in C order of the view's shape; each prefix errs by at most
      // (k - 1) u times its sum of magnitudes.
      const auto scanned = xf::to_host(xf::cumsum(x, axis));
      REQUIRE(scanned.size() == static_cast<std::size_t>(count_of(shape)));
      std::size_t bad_scan = 0, at = 0;
      for_each_index<3>(shape, [&](const std::array<index_t, 3>& i) {
        long double s = 0, a = 0;
        auto j = i;
        for (j[axis] = 0; j[axis] <= i[axis]; ++j[axis]) {
          const long double e = buf[static_cast<std::size_t>(position(v, j))];
          s += e;
          a += std::fabs(e);
        }
        bad_scan += !(std::fabs(scanned[at++] - s) <= static_cast<long double>(i[axis] + 1) * eps * a);
      });
      INFO("cumsum of " << where << ": " << bad_scan << " differ");
      CHECK(bad_scan == 0);
    }
    // sort and argsort along the last axis: each line against std::stable_sort of its values.
    const auto sorted = xf::to_host(xf::sort(x));
    const auto order = xf::to_host(xf::argsort(x));
    REQUIRE(sorted.size() == static_cast<std::size_t>(count_of(shape)));
    REQUIRE(order.size() == sorted.size());
    std::size_t bad_sort = 0, at = 0;
    for (index_t i = 0; i < shape[0]; ++i)
      for (index_t j = 0; j < shape[1]; ++j) {
        std::vector<std::pair<double, std::int64_t>> line;
        for (index_t k = 0; k < shape[2]; ++k) line.emplace_back(buf[static_cast<std::size_t>(position(v, std::array<index_t, 3>{i, j, k}))], k);
        std::stable_sort(line.begin(), line.end(), [](const auto& p, const auto& q) { return p.first < q.first; });
        for (const auto& [value, k] : line) {
          bad_sort += sorted[at] != value || order[at] != k;
          ++at;
        }
      }
    INFO("sort, argsort of " << what << ": " << bad_sort << " differ");
    CHECK(bad_sort == 0);
  }
}

}  // namespace xf_test::layouts
