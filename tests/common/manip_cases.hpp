// Array manipulation cases shared by the host suite (host arrays) and the GPU suite (device
// arrays): concatenate, stack, vstack, hstack, tile, repeat, meshgrid, pad, roll, take, put,
// nonzero, argwhere, unique, ascontiguousarray. Fresh random inputs, plain arrays and views
// (transposed, reversed), empty arrays, negative axes and every error, against references written
// as plain loops over C-ordered std::vectors (no xfuse code involved).
#pragma once

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include <xfuse/manip.hpp>

#include "check.hpp"
#include "random.hpp"

namespace xf_test::manip {

using xf::index_t;
using shape_v = std::vector<index_t>;

// ---------------------------------------------------------------- C-order helpers
inline index_t count_of(const shape_v& s) {
  index_t n = 1;
  for (index_t e : s) n *= e;
  return n;
}
inline shape_v unravel(index_t flat, const shape_v& s) {
  shape_v c(s.size());
  for (std::size_t d = s.size(); d-- > 0;) {
    c[d] = flat % s[d];
    flat /= s[d];
  }
  return c;
}
inline index_t ravel(const shape_v& c, const shape_v& s) {
  index_t flat = 0;
  for (std::size_t d = 0; d < s.size(); ++d) flat = flat * s[d] + c[d];
  return flat;
}
// out[c] = f(c) for every coordinate c of shape s, in C order.
template <class T, class F>
std::vector<T> build(const shape_v& s, F f) {
  std::vector<T> out(static_cast<std::size_t>(count_of(s)));
  for (index_t i = 0; i < count_of(s); ++i) out[static_cast<std::size_t>(i)] = f(unravel(i, s));
  return out;
}
template <std::size_t N>
shape_v as_shape(const std::array<index_t, N>& d) {
  return shape_v(d.begin(), d.end());
}
template <class T>
T at(const std::vector<T>& v, const shape_v& c, const shape_v& s) {
  return v[static_cast<std::size_t>(ravel(c, s))];
}

// Exact equality (copies are exact); NaN equals NaN.
template <class T>
bool same(const T& a, const T& b) {
  if constexpr (xf::is_integer<T> || xf::is_bool<T>) {
    return a == b;
  } else {
    auto eq = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
    return eq(as_real(a), as_real(b)) && eq(as_imag(a), as_imag(b));
  }
}
template <class T>
void expect_same(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  INFO(what);
  REQUIRE(got.size() == want.size());
  std::size_t bad = 0;
  std::string first;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const T g = got[i], w = want[i];
    if (!same(g, w) && bad++ < 4) first += "  [" + std::to_string(i) + "] got " + show(g) + " want " + show(w) + "\n";
  }
  INFO(bad << " of " << got.size() << " elements differ\n" << first);
  CHECK(bad == 0);
}
template <class A, class T>
void expect_array(const A& a, const shape_v& shape, const std::vector<T>& want, const std::string& what) {
  INFO(what);
  REQUIRE(as_shape(a.shape()) == shape);
  expect_same(xf::to_host(a), want, what);
}

template <class T>
std::vector<T> values(std::size_t n) {
  if constexpr (std::is_unsigned_v<T>) return uniform<T>(n, 0, 200);
  else return uniform<T>(n, -100, 100);
}

// ---------------------------------------------------------------- inputs: arrays and views
enum class layout { plain, transposed, reversed };
inline const char* name_of(layout l) {
  return l == layout::plain ? "plain" : l == layout::transposed ? "transposed" : "reversed";
}

// An array of `shape` (as a plain array, a transposed view or a view reversed along every axis)
// and its values in C order.
template <class T, class Space, std::size_t R>
struct input {
  xf::array<T, static_cast<int>(R), Space> arr;
  std::vector<T> ref;
  shape_v shape;
};
template <class T, class Space, std::size_t R>
input<T, Space, R> make(const std::array<index_t, R>& shape, layout l, std::vector<T> w = {}) {
  const shape_v s = as_shape(shape);
  if (w.empty()) w = values<T>(static_cast<std::size_t>(count_of(s)));
  shape_v base_shape = s;
  if (l == layout::transposed) std::reverse(base_shape.begin(), base_shape.end());
  std::array<index_t, R> bs{};
  std::copy(base_shape.begin(), base_shape.end(), bs.begin());
  const auto base = xf::asarray<T, Space>(w, bs);
  input<T, Space, R> in{base, {}, s};
  if (l == layout::transposed) {
    in.arr = base.T();
    in.ref = build<T>(s, [&](shape_v c) {
      std::reverse(c.begin(), c.end());
      return at(w, c, base_shape);
    });
  } else if (l == layout::reversed) {
    in.arr = base.flip();
    in.ref = build<T>(s, [&](shape_v c) {
      for (std::size_t d = 0; d < c.size(); ++d) c[d] = s[d] - 1 - c[d];
      return at(w, c, s);
    });
  } else {
    in.ref = w;
  }
  return in;
}

// Concatenation of C-ordered parts along `axis`.
template <class T>
std::vector<T> ref_concat(const std::vector<std::vector<T>>& refs, const std::vector<shape_v>& shapes, int axis, shape_v& out) {
  out = shapes[0];
  out[axis] = 0;
  for (const auto& s : shapes) out[axis] += s[axis];
  return build<T>(out, [&](shape_v c) {
    std::size_t k = 0;
    while (c[axis] >= shapes[k][axis]) c[axis] -= shapes[k++][axis];
    return at(refs[k], c, shapes[k]);
  });
}

// ---------------------------------------------------------------- joining
template <class Space, class T>
void joining() {
  const std::string ty = xf::dtype_name<T>;
  const auto a = make<T, Space>(std::array<index_t, 2>{3, 4}, layout::plain);
  const auto b = make<T, Space>(std::array<index_t, 2>{3, 2}, layout::transposed);
  const auto e = make<T, Space>(std::array<index_t, 2>{3, 0}, layout::plain);
  const auto d = make<T, Space>(std::array<index_t, 2>{3, 5}, layout::reversed);
  shape_v s;
  {
    const auto want = ref_concat<T>({a.ref, b.ref, e.ref, d.ref}, {a.shape, b.shape, e.shape, d.shape}, 1, s);
    expect_array(xf::concatenate({a.arr, b.arr, e.arr, d.arr}, 1), s, want, "concatenate axis 1 " + ty);
    expect_array(xf::concatenate(std::vector{a.arr, b.arr, e.arr, d.arr}, -1), s, want, "concatenate axis -1 " + ty);
  }
  {
    const auto f = make<T, Space>(std::array<index_t, 2>{2, 4}, layout::reversed);
    const auto g = make<T, Space>(std::array<index_t, 2>{0, 4}, layout::plain);
    const auto want = ref_concat<T>({a.ref, f.ref, g.ref, a.ref}, {a.shape, f.shape, g.shape, a.shape}, 0, s);
    expect_array(xf::concatenate(a.arr, f.arr, g.arr, a.arr), s, want, "concatenate(a, f, g, a) " + ty);
    expect_array(xf::concatenate({g.arr, g.arr}), shape_v{0, 4}, std::vector<T>{}, "concatenate of empty arrays " + ty);
  }
  {
    // One by one, element types are promoted (NumPy 2: int32 with float32 gives float64).
    const auto i = make<std::int32_t, Space>(std::array<index_t, 2>{1, 4}, layout::plain);
    const auto r = xf::concatenate(i.arr, a.arr);
    using P = xf::value_t<decltype(r)>;
    if constexpr (std::is_same_v<T, float>) STATIC_REQUIRE(std::is_same_v<P, double>);
    std::vector<P> want;
    for (auto v : i.ref) want.push_back(xf::detail::convert<P>(v));
    for (auto v : a.ref) want.push_back(xf::detail::convert<P>(v));
    expect_array(r, shape_v{4, 4}, want, "concatenate(int32, " + ty + ")");
  }
  // stack: a new axis anywhere.
  const auto p = make<T, Space>(std::array<index_t, 2>{3, 4}, layout::transposed);
  const auto q = make<T, Space>(std::array<index_t, 2>{3, 4}, layout::reversed);
  const std::vector<std::vector<T>> pqa = {p.ref, q.ref, a.ref};
  for (int axis : {0, 1, 2, -1, -3}) {
    const int ax = axis < 0 ? axis + 3 : axis;
    shape_v out = {3, 4};
    out.insert(out.begin() + ax, 3);
    const auto want = build<T>(out, [&](shape_v c) {
      const index_t k = c[ax];
      c.erase(c.begin() + ax);
      return at(pqa[k], c, shape_v{3, 4});
    });
    expect_array(xf::stack({p.arr, q.arr, a.arr}, axis), out, want, "stack axis " + std::to_string(axis) + " " + ty);
    if (axis == 0) expect_array(xf::stack(p.arr, q.arr, a.arr), out, want, "stack(p, q, a) " + ty);
  }
  // vstack and hstack: NumPy's 1-D rules.
  const auto r1 = make<T, Space>(std::array<index_t, 1>{5}, layout::plain);
  const auto r2 = make<T, Space>(std::array<index_t, 1>{5}, layout::reversed);
  const auto r3 = make<T, Space>(std::array<index_t, 1>{2}, layout::plain);
  {
    std::vector<T> rows = r1.ref;
    rows.insert(rows.end(), r2.ref.begin(), r2.ref.end());
    expect_array(xf::vstack({r1.arr, r2.arr}), shape_v{2, 5}, rows, "vstack of 1-D " + ty);
    std::vector<T> flat = r2.ref;
    flat.insert(flat.end(), r3.ref.begin(), r3.ref.end());
    expect_array(xf::hstack({r2.arr, r3.arr}), shape_v{7}, flat, "hstack of 1-D " + ty);
    expect_array(xf::vstack(a.arr, p.arr), shape_v{6, 4}, ref_concat<T>({a.ref, p.ref}, {a.shape, p.shape}, 0, s), "vstack of 2-D " + ty);
    expect_array(xf::hstack(std::vector{a.arr, b.arr}), shape_v{3, 6}, ref_concat<T>({a.ref, b.ref}, {a.shape, b.shape}, 1, s),
                 "hstack of 2-D " + ty);
  }
}

template <class Space>
void joining_errors() {
  const auto a = make<float, Space>(std::array<index_t, 2>{3, 4}, layout::plain);
  const auto b = make<float, Space>(std::array<index_t, 2>{2, 4}, layout::transposed);
  CHECK_THROWS_AS(xf::concatenate({a.arr, b.arr}, 1), xf::shape_error);
  CHECK_THROWS_WITH(xf::concatenate({a.arr, b.arr}, 1), XF_CONTAINS("xf::concatenate") && XF_CONTAINS("dimension 0") &&
                                                            XF_CONTAINS("(3, 4)") && XF_CONTAINS("(2, 4)"));
  CHECK_THROWS_AS(xf::concatenate({a.arr, a.arr}, 2), xf::shape_error);
  CHECK_THROWS_WITH(xf::concatenate({a.arr, a.arr}, -3), XF_CONTAINS("xf::concatenate: axis -3 is out of bounds") && XF_CONTAINS("(3, 4)"));
  CHECK_THROWS_WITH(xf::concatenate(std::vector<xf::array<float, 2, Space>>{}), XF_CONTAINS("xf::concatenate: need at least one array"));
  CHECK_THROWS_AS(xf::stack({a.arr, b.arr}), xf::shape_error);
  CHECK_THROWS_WITH(xf::stack({a.arr, b.arr}), XF_CONTAINS("xf::stack: all input arrays must have the same shape") &&
                                                  XF_CONTAINS("(3, 4)") && XF_CONTAINS("(2, 4)"));
  CHECK_THROWS_WITH(xf::stack({a.arr, a.arr}, 3), XF_CONTAINS("xf::stack: axis 3 is out of bounds") && XF_CONTAINS("(3, 4)"));
  CHECK_THROWS_WITH(xf::stack(std::vector<xf::array<float, 2, Space>>{}), XF_CONTAINS("xf::stack: need at least one array"));
  const auto x = make<float, Space>(std::array<index_t, 1>{3}, layout::plain);
  const auto y = make<float, Space>(std::array<index_t, 1>{4}, layout::plain);
  CHECK_THROWS_WITH(xf::vstack(x.arr, y.arr), XF_CONTAINS("xf::vstack") && XF_CONTAINS("(1, 3)") && XF_CONTAINS("(1, 4)"));
  CHECK_THROWS_WITH(xf::hstack(a.arr, b.arr), XF_CONTAINS("xf::hstack") && XF_CONTAINS("(3, 4)") && XF_CONTAINS("(2, 4)"));
  // A failed join leaves nothing behind and the inputs as they were.
  expect_same(xf::to_host(a.arr), a.ref, "concatenate's input after an error");
}

// ---------------------------------------------------------------- tile and repeat
template <class Space, class T>
void tiling() {
  const std::string ty = xf::dtype_name<T>;
  const auto a = make<T, Space>(std::array<index_t, 2>{2, 3}, layout::transposed);
  auto tiled = [&](const shape_v& out) {
    return build<T>(out, [&](const shape_v& c) {
      const std::size_t k = c.size();
      return at(a.ref, shape_v{c[k - 2] % 2, c[k - 1] % 3}, a.shape);
    });
  };
  expect_array(xf::tile(a.arr, {2, 1, 3}), shape_v{2, 2, 9}, tiled({2, 2, 9}), "tile(a.T, (2, 1, 3)) " + ty);
  expect_array(xf::tile(a.arr, 2), shape_v{2, 6}, tiled({2, 6}), "tile(a.T, 2) " + ty);
  expect_array(xf::tile(a.arr, {0, 2}), shape_v{0, 6}, std::vector<T>{}, "tile(a.T, (0, 2)) " + ty);
  const auto v = make<T, Space>(std::array<index_t, 1>{3}, layout::reversed);
  expect_array(xf::tile(v.arr, {2, 2}), shape_v{2, 6}, build<T>({2, 6}, [&](const shape_v& c) { return v.ref[c[1] % 3]; }),
               "tile(v[::-1], (2, 2)) " + ty);
  CHECK_THROWS_AS(xf::tile(a.arr, {-1, 2}), xf::shape_error);
  CHECK_THROWS_WITH(xf::tile(a.arr, {2, -1}), XF_CONTAINS("xf::tile") && XF_CONTAINS("negative") && XF_CONTAINS("(2, -1)"));

  const auto m = make<T, Space>(std::array<index_t, 2>{3, 4}, layout::reversed);
  for (int axis : {0, 1, -1}) {
    for (index_t r : {0, 1, 3}) {
      const int ax = axis < 0 ? axis + 2 : axis;
      shape_v out = m.shape;
      out[ax] *= r;
      const auto want = build<T>(out, [&](shape_v c) {
        c[ax] /= r;
        return at(m.ref, c, m.shape);
      });
      expect_array(xf::repeat(m.arr, r, axis), out, want, "repeat(m[::-1, ::-1], " + std::to_string(r) + ", " + std::to_string(axis) + ") " + ty);
    }
  }
  expect_array(xf::repeat(m.arr, 2), shape_v{24}, build<T>({24}, [&](const shape_v& c) { return m.ref[c[0] / 2]; }),
               "repeat flattened " + ty);
  expect_array(xf::repeat(a.arr, 3), shape_v{18}, build<T>({18}, [&](const shape_v& c) { return a.ref[c[0] / 3]; }),
               "repeat(a.T, 3) flattened " + ty);
  // A count per element.
  const std::vector<index_t> counts = {1, 0, 3};
  const auto want_rows = build<T>({4, 4}, [&](const shape_v& c) {
    const index_t src[] = {0, 2, 2, 2};
    return at(m.ref, shape_v{src[c[0]], c[1]}, m.shape);
  });
  expect_array(xf::repeat(m.arr, counts, 0), shape_v{4, 4}, want_rows, "repeat(m, [1, 0, 3], 0) " + ty);
  expect_array(xf::repeat(m.arr, std::vector<index_t>{2}, -1), shape_v{3, 8},
               build<T>({3, 8}, [&](const shape_v& c) { return at(m.ref, shape_v{c[0], c[1] / 2}, m.shape); }), "repeat(m, [2], -1) " + ty);
  std::vector<index_t> each(12);
  std::vector<T> want_flat;
  for (std::size_t i = 0; i < 12; ++i) {
    each[i] = static_cast<index_t>(i % 3);
    want_flat.insert(want_flat.end(), static_cast<std::size_t>(each[i]), m.ref[i]);
  }
  expect_array(xf::repeat(m.arr, each), shape_v{static_cast<index_t>(want_flat.size())}, want_flat, "repeat flattened, counts " + ty);
  CHECK_THROWS_WITH(xf::repeat(m.arr, -1, 0), XF_CONTAINS("xf::repeat: negative repeats -1"));
  CHECK_THROWS_WITH(xf::repeat(m.arr, -2), XF_CONTAINS("xf::repeat: negative repeats -2 (shape (3, 4))"));
  CHECK_THROWS_WITH(xf::repeat(m.arr, 2, 2), XF_CONTAINS("xf::repeat: axis 2 is out of bounds") && XF_CONTAINS("(3, 4)"));
  CHECK_THROWS_AS(xf::repeat(m.arr, counts, 1), xf::shape_error);
  CHECK_THROWS_WITH(xf::repeat(m.arr, counts, 1), XF_CONTAINS("xf::repeat") && XF_CONTAINS("(4,) (3,)"));
  CHECK_THROWS_WITH(xf::repeat(m.arr, std::vector<index_t>{1, -2, 1}, 0), XF_CONTAINS("xf::repeat: negative repeats -2"));
}

// ---------------------------------------------------------------- meshgrid
template <class Space>
void meshgrids() {
  const auto x = make<float, Space>(std::array<index_t, 1>{3}, layout::plain);
  const auto y = make<float, Space>(std::array<index_t, 1>{4}, layout::reversed);
  const auto z = make<std::int32_t, Space>(std::array<index_t, 1>{2}, layout::plain);
  {
    const auto [X, Y] = xf::meshgrid(x.arr, y.arr);
    expect_array(X, shape_v{4, 3}, build<float>({4, 3}, [&](const shape_v& c) { return x.ref[c[1]]; }), "meshgrid X");
    expect_array(Y, shape_v{4, 3}, build<float>({4, 3}, [&](const shape_v& c) { return y.ref[c[0]]; }), "meshgrid Y");
    // Views: the inputs' memory, zero strides along the repeated axes.
    CHECK(X.data() == x.arr.data());
    CHECK(Y.data() == y.arr.data());
    CHECK(X.strides()[0] == 0);
    CHECK(Y.strides()[1] == 0);
    CHECK_THROWS_WITH(X.assign(1.0f), XF_CONTAINS("broadcast view"));
  }
  {
    const auto [X, Y, Z] = xf::meshgrid(x.arr, y.arr, z.arr, "ij");
    STATIC_REQUIRE(std::is_same_v<xf::value_t<decltype(Z)>, std::int32_t>);
    const shape_v s = {3, 4, 2};
    expect_array(X, s, build<float>(s, [&](const shape_v& c) { return x.ref[c[0]]; }), "meshgrid ij X");
    expect_array(Y, s, build<float>(s, [&](const shape_v& c) { return y.ref[c[1]]; }), "meshgrid ij Y");
    expect_array(Z, s, build<std::int32_t>(s, [&](const shape_v& c) { return z.ref[c[2]]; }), "meshgrid ij Z");
  }
  {
    const auto [X, Y, Z] = xf::meshgrid(x.arr, y.arr, z.arr);
    const shape_v s = {4, 3, 2};
    expect_array(X, s, build<float>(s, [&](const shape_v& c) { return x.ref[c[1]]; }), "meshgrid xy X");
    expect_array(Y, s, build<float>(s, [&](const shape_v& c) { return y.ref[c[0]]; }), "meshgrid xy Y");
    expect_array(Z, s, build<std::int32_t>(s, [&](const shape_v& c) { return z.ref[c[2]]; }), "meshgrid xy Z");
  }
  {
    const xf::array<float, 1, Space> none(xf::dims<1>{0});
    const auto [X, Y] = xf::meshgrid(x.arr, none, "ij");
    CHECK(X.shape() == xf::dims<2>{3, 0});
    CHECK(Y.size() == 0);
  }
  CHECK_THROWS_AS(xf::meshgrid(x.arr, y.arr, "ji"), xf::error);
  CHECK_THROWS_WITH(xf::meshgrid(x.arr, y.arr, "ji"), XF_CONTAINS("xf::meshgrid: indexing must be \"xy\" or \"ij\", got \"ji\""));
}

// ---------------------------------------------------------------- pad and roll
template <class Space, class T>
void padding() {
  const std::string ty = xf::dtype_name<T>;
  const auto a = make<T, Space>(std::array<index_t, 2>{3, 4}, layout::transposed);
  const T fill = xf::detail::convert<T>(7);
  auto padded = [&](const shape_v& out, index_t b0, index_t b1, bool edge) {
    return build<T>(out, [&](const shape_v& c) {
      index_t i = c[0] - b0, j = c[1] - b1;
      if (edge) {
        i = std::clamp<index_t>(i, 0, 2);
        j = std::clamp<index_t>(j, 0, 3);
      } else if (i < 0 || i >= 3 || j < 0 || j >= 4) {
        return fill;
      }
      return at(a.ref, shape_v{i, j}, a.shape);
    });
  };
  expect_array(xf::pad(a.arr, {{1, 2}, {0, 3}}, "constant", fill), shape_v{6, 7}, padded({6, 7}, 1, 0, false), "pad constant " + ty);
  expect_array(xf::pad(a.arr, {{1, 2}, {0, 3}}), shape_v{6, 7},
               build<T>({6, 7}, [&](const shape_v& c) {
                 const index_t i = c[0] - 1, j = c[1];
                 return i >= 0 && i < 3 && j < 4 ? at(a.ref, shape_v{i, j}, a.shape) : xf::detail::convert<T>(0);
               }),
               "pad with zeros " + ty);
  expect_array(xf::pad(a.arr, {{0, 4}, {2, 1}}, "edge"), shape_v{7, 7}, padded({7, 7}, 0, 2, true), "pad edge " + ty);
  expect_array(xf::pad(a.arr, 2, "edge"), shape_v{7, 8}, padded({7, 8}, 2, 2, true), "pad edge, one width " + ty);
  expect_array(xf::pad(a.arr, 1, "constant", fill), shape_v{5, 6}, padded({5, 6}, 1, 1, false), "pad constant, one width " + ty);
  const xf::array<T, 2, Space> empty(xf::dims<2>{0, 3});
  expect_array(xf::pad(empty, {{1, 1}, {0, 0}}, "constant", fill), shape_v{2, 3}, std::vector<T>(6, fill), "pad of an empty axis " + ty);

  const auto m = make<T, Space>(std::array<index_t, 2>{3, 4}, layout::reversed);
  auto rolled = [&](index_t s0, index_t s1) {
    return build<T>(m.shape, [&](const shape_v& c) {
      return at(m.ref, shape_v{((c[0] - s0) % 3 + 3) % 3, ((c[1] - s1) % 4 + 4) % 4}, m.shape);
    });
  };
  expect_array(xf::roll(m.arr, 2, 1), m.shape, rolled(0, 2), "roll(m, 2, 1) " + ty);
  expect_array(xf::roll(m.arr, -1, 0), m.shape, rolled(-1, 0), "roll(m, -1, 0) " + ty);
  expect_array(xf::roll(m.arr, 7, -1), m.shape, rolled(0, 7), "roll(m, 7, -1) " + ty);
  expect_array(xf::roll(m.arr, {1, -5}, {0, 1}), m.shape, rolled(1, -5), "roll(m, (1, -5), (0, 1)) " + ty);
  expect_array(xf::roll(m.arr, {1, 1}, {-2, 0}), m.shape, rolled(2, 0), "roll(m, (1, 1), (-2, 0)) " + ty);
  for (index_t s : {5, -13, 0}) {
    const auto want = build<T>(m.shape, [&](const shape_v& c) { return m.ref[static_cast<std::size_t>(((ravel(c, m.shape) - s) % 12 + 12) % 12)]; });
    expect_array(xf::roll(m.arr, s), m.shape, want, "roll(m, " + std::to_string(s) + ") flattened " + ty);
  }
  expect_array(xf::roll(empty, 2, 0), shape_v{0, 3}, std::vector<T>{}, "roll of an empty array " + ty);
}

template <class Space>
void padding_errors() {
  const auto a = make<float, Space>(std::array<index_t, 2>{3, 4}, layout::plain);
  CHECK_THROWS_AS(xf::pad(a.arr, {{1, -1}, {0, 0}}), xf::shape_error);
  CHECK_THROWS_WITH(xf::pad(a.arr, {{1, -1}, {0, 0}}), XF_CONTAINS("xf::pad: negative pad width (1, -1) for axis 0 of shape (3, 4)"));
  CHECK_THROWS_WITH(xf::pad(a.arr, 1, "mirror"),
                    XF_CONTAINS("xf::pad: mode must be \"constant\", \"edge\", \"wrap\", \"reflect\", \"symmetric\", \"linear_ramp\", "
                                "\"maximum\", \"minimum\", \"mean\" or \"median\", got \"mirror\""));
  const xf::array<float, 2, Space> empty(xf::dims<2>{3, 0});
  CHECK_THROWS_WITH(xf::pad(empty, {{0, 0}, {1, 0}}, "edge"), XF_CONTAINS("xf::pad: cannot extend the empty axis 1 of shape (3, 0)"));
  CHECK_THROWS_AS(xf::roll(a.arr, 1, 2), xf::shape_error);
  CHECK_THROWS_WITH(xf::roll(a.arr, 1, -3), XF_CONTAINS("xf::roll: axis -3 is out of bounds") && XF_CONTAINS("(3, 4)"));
}

// ---------------------------------------------------------------- take and put
template <class I>
std::vector<I> index_values(std::size_t n, index_t lo, index_t hi) {
  if constexpr (std::is_unsigned_v<I>) return uniform<I>(n, 0, static_cast<double>(hi));
  else return uniform<I>(n, static_cast<double>(lo), static_cast<double>(hi));
}
// NumPy's index modes, written out: raise (negative counts from the end), wrap, clip.
template <class I>
index_t resolve(I v, index_t n, const std::string& mode) {
  const auto i = static_cast<index_t>(v);
  if (mode == "wrap") return ((i % n) + n) % n;
  if (mode == "clip") return i < 0 ? 0 : std::min(i, n - 1);
  return i < 0 ? i + n : i;
}

template <class Space, class T, class I>
void taking() {
  const std::string ty = std::string(xf::dtype_name<T>) + " with " + xf::dtype_name<I> + " indices";
  const auto a = make<T, Space>(std::array<index_t, 2>{4, 5}, layout::transposed);
  // Along axis 1 (and -1) with a 1-D index array; along axis 0 with a reversed 2-D one.
  const auto i1 = make<I, Space>(std::array<index_t, 1>{7}, layout::plain, index_values<I>(7, -5, 4));
  for (int axis : {1, -1}) {
    const auto want = build<T>({4, 7}, [&](const shape_v& c) { return at(a.ref, shape_v{c[0], resolve(i1.ref[c[1]], 5, "raise")}, a.shape); });
    expect_array(xf::take(a.arr, i1.arr, axis), shape_v{4, 7}, want, "take(a.T, i, " + std::to_string(axis) + ") " + ty);
  }
  const auto i2 = make<I, Space>(std::array<index_t, 2>{2, 3}, layout::reversed, index_values<I>(6, -4, 3));
  expect_array(xf::take(a.arr, i2.arr, 0), shape_v{2, 3, 5},
               build<T>({2, 3, 5}, [&](const shape_v& c) { return at(a.ref, shape_v{resolve(at(i2.ref, shape_v{c[0], c[1]}, i2.shape), 4, "raise"), c[2]}, a.shape); }),
               "take(a.T, i2[::-1, ::-1], 0) " + ty);
  // The middle axis of a 3-D reversed view.
  const auto b = make<T, Space>(std::array<index_t, 3>{2, 3, 4}, layout::reversed);
  const auto i4 = make<I, Space>(std::array<index_t, 2>{2, 2}, layout::transposed, index_values<I>(4, -3, 2));
  expect_array(xf::take(b.arr, i4.arr, 1), shape_v{2, 2, 2, 4},
               build<T>({2, 2, 2, 4}, [&](const shape_v& c) {
                 return at(b.ref, shape_v{c[0], resolve(at(i4.ref, shape_v{c[1], c[2]}, i4.shape), 3, "raise"), c[3]}, b.shape);
               }),
               "take(b, i4.T, 1) " + ty);
  // Flattened, and the modes.
  const auto i3 = make<I, Space>(std::array<index_t, 1>{9}, layout::reversed, index_values<I>(9, -20, 19));
  expect_array(xf::take(a.arr, i3.arr), shape_v{9}, build<T>({9}, [&](const shape_v& c) { return a.ref[resolve(i3.ref[c[0]], 20, "raise")]; }),
               "take(a.T, i) flattened " + ty);
  const auto wild = make<I, Space>(std::array<index_t, 1>{11}, layout::plain, index_values<I>(11, -30, 30));
  for (const std::string mode : {"wrap", "clip"}) {
    expect_array(xf::take(a.arr, wild.arr, 1, mode), shape_v{4, 11},
                 build<T>({4, 11}, [&](const shape_v& c) { return at(a.ref, shape_v{c[0], resolve(wild.ref[c[1]], 5, mode)}, a.shape); }),
                 "take mode " + mode + " " + ty);
    expect_array(xf::take(a.arr, wild.arr, mode), shape_v{11},
                 build<T>({11}, [&](const shape_v& c) { return a.ref[resolve(wild.ref[c[0]], 20, mode)]; }), "take flattened mode " + mode + " " + ty);
  }
  const xf::array<I, 1, Space> no_index(xf::dims<1>{0});
  expect_array(xf::take(a.arr, no_index, 1), shape_v{4, 0}, std::vector<T>{}, "take with no indices " + ty);
}

template <class Space, class T, class I>
void putting() {
  const std::string ty = std::string(xf::dtype_name<T>) + " with " + xf::dtype_name<I> + " indices";
  // Distinct targets, so that the result does not depend on which of two writes lands.
  std::vector<index_t> targets(20);
  std::iota(targets.begin(), targets.end(), 0);
  std::shuffle(targets.begin(), targets.end(), rng());
  targets.resize(7);
  const auto vals = make<T, Space>(std::array<index_t, 1>{3}, layout::reversed);
  for (const std::string mode : {"raise", "wrap", "clip"}) {
    std::vector<I> raw;
    std::vector<index_t> where;  // what each raw index resolves to
    for (std::size_t k = 0; k < targets.size(); ++k) {
      index_t t = targets[k];
      const bool odd_signed = std::is_signed_v<I> && k % 2;
      if (mode == "raise" && odd_signed) t -= 20;  // counts from the end
      if (mode == "wrap") t += 20 * static_cast<index_t>(k % 3) - (odd_signed ? 40 : 0);
      if (mode == "clip" && (targets[k] == 0 || targets[k] == 19)) continue;  // kept free for the clipped ones
      raw.push_back(static_cast<I>(t));
      where.push_back(targets[k]);
    }
    if (mode == "clip") {
      raw.push_back(static_cast<I>(100));  // past the end: the last element
      where.push_back(19);
      if constexpr (std::is_signed_v<I>) {
        raw.push_back(static_cast<I>(-7));  // clip does not count from the end: the first element
        where.push_back(0);
      }
    }
    const auto idx = xf::asarray<I, Space>(raw);
    // Into a transposed view: its C-order elements are what .flat means.
    const auto dst = make<T, Space>(std::array<index_t, 2>{4, 5}, layout::transposed);
    std::vector<T> want = dst.ref;
    for (std::size_t k = 0; k < where.size(); ++k) want[static_cast<std::size_t>(where[k])] = vals.ref[k % 3];
    xf::put(dst.arr, idx, vals.arr, mode);
    expect_array(dst.arr, dst.shape, want, "put mode " + mode + " into a.T " + ty);
    // A scalar value.
    const auto plain = make<T, Space>(std::array<index_t, 2>{4, 5}, layout::plain);
    std::vector<T> want_scalar = plain.ref;
    for (index_t w : where) want_scalar[static_cast<std::size_t>(w)] = xf::detail::convert<T>(3);
    xf::put(plain.arr, idx, 3, mode);
    expect_array(plain.arr, plain.shape, want_scalar, "put of a scalar, mode " + mode + " " + ty);
  }
  // Values that are a view of the destination are read before anything is written.
  const auto self = make<T, Space>(std::array<index_t, 2>{4, 5}, layout::plain);
  std::vector<T> want = self.ref;
  for (std::size_t k = 0; k < targets.size(); ++k) want[static_cast<std::size_t>(targets[k])] = self.ref[5 + k % 5];
  std::vector<I> raw(targets.begin(), targets.end());
  xf::put(self.arr, xf::asarray<I, Space>(raw), self.arr(1));
  expect_array(self.arr, self.shape, want, "put of a row of the destination " + ty);
}

template <class Space>
void take_put_errors() {
  const auto a = make<float, Space>(std::array<index_t, 2>{4, 5}, layout::plain);
  const auto bad = xf::asarray<std::int64_t, Space>({1, -5, 5, 0, -6});
  CHECK_THROWS_AS(xf::take(a.arr, bad, 1), xf::index_error);
  CHECK_THROWS_WITH(xf::take(a.arr, bad, -1), XF_CONTAINS("xf::take: index 5 is out of bounds for axis 1 with size 5"));
  CHECK_THROWS_WITH(xf::take(a.arr, bad, 0), XF_CONTAINS("xf::take: index -5 is out of bounds for axis 0 with size 4"));
  const auto big = xf::asarray<std::uint8_t, Space>({3, 250});
  CHECK_THROWS_WITH(xf::take(a.arr, big), XF_CONTAINS("xf::take: index 250 is out of bounds for size 20"));
  CHECK_THROWS_WITH(xf::take(a.arr, bad, 2), XF_CONTAINS("xf::take: axis 2 is out of bounds") && XF_CONTAINS("(4, 5)"));
  CHECK_THROWS_WITH(xf::take(a.arr, bad, 1, "nearest"), XF_CONTAINS("xf::take: mode must be \"raise\", \"wrap\" or \"clip\", got \"nearest\""));
  const xf::array<float, 2, Space> empty(xf::dims<2>{4, 0});
  CHECK_THROWS_AS(xf::take(empty, bad, 1, "wrap"), xf::index_error);
  CHECK_THROWS_WITH(xf::take(empty, bad, 1, "clip"), XF_CONTAINS("xf::take: cannot do a non-empty take from an empty axis (axis 1 of shape (4, 0))"));
  // put checks every index before writing anything.
  const auto idx = xf::asarray<std::int32_t, Space>({0, 3, 20, 7});
  CHECK_THROWS_AS(xf::put(a.arr, idx, 1.0f), xf::index_error);
  CHECK_THROWS_WITH(xf::put(a.arr, idx, 1.0f), XF_CONTAINS("xf::put: index 20 is out of bounds for size 20"));
  expect_same(xf::to_host(a.arr), a.ref, "put's destination after an error");
  CHECK_THROWS_WITH(xf::put(a.arr, idx, 1.0f, "bounce"), XF_CONTAINS("xf::put: mode must be"));
  CHECK_THROWS_WITH(xf::put(a.arr(0).broadcast_to({3, 5}), idx, 1.0f, "wrap"),
                    XF_CONTAINS("xf::put: the destination repeats elements") && XF_CONTAINS("(3, 5)"));
  CHECK_THROWS_WITH(xf::put(empty, idx, 1.0f, "wrap"), XF_CONTAINS("xf::put: cannot put into an empty array (shape (4, 0))"));
  expect_same(xf::to_host(a.arr), a.ref, "put's destination after the errors");
}

// ---------------------------------------------------------------- nonzero, argwhere, unique
// The coordinates of the nonzero elements, in C order: (count, R).
template <class T>
std::vector<std::int64_t> ref_argwhere(const std::vector<T>& v, const shape_v& s, index_t& count) {
  std::vector<std::int64_t> out;
  count = 0;
  for (index_t i = 0; i < count_of(s); ++i) {
    const T x = v[static_cast<std::size_t>(i)];
    if (as_real(x) != 0 || as_imag(x) != 0) {
      for (index_t c : unravel(i, s)) out.push_back(c);
      ++count;
    }
  }
  return out;
}

template <class A, class T>
void check_nonzero(const A& x, const std::vector<T>& ref, const shape_v& s, const std::string& what) {
  index_t count = 0;
  const auto want = ref_argwhere(ref, s, count);
  const int r = static_cast<int>(s.size());
  expect_array(xf::argwhere(x), shape_v{count, r}, want, "argwhere " + what);
  const auto nz = xf::nonzero(x);
  STATIC_REQUIRE(std::tuple_size_v<decltype(nz)> == xf::rank_v<A>);
  for (int d = 0; d < r; ++d) {
    std::vector<std::int64_t> col;
    for (index_t k = 0; k < count; ++k) col.push_back(want[static_cast<std::size_t>(k * r + d)]);
    expect_array(nz[d], shape_v{count}, col, "nonzero " + what + ", axis " + std::to_string(d));
  }
}

// Mostly zeros, some not.
template <class T>
std::vector<T> sparse_values(std::size_t n) {
  auto v = values<T>(n);
  const auto keep = uniform<int>(n, 0, 2);
  for (std::size_t i = 0; i < n; ++i)
    if (keep[i] != 0) v[i] = xf::detail::convert<T>(0);
  return v;
}

template <class Space, class T>
void nonzeros(index_t n) {
  const std::string ty = xf::dtype_name<T>;
  const auto a = make<T, Space>(std::array<index_t, 3>{3, n, 5}, layout::plain, sparse_values<T>(static_cast<std::size_t>(15 * n)));
  check_nonzero(a.arr, a.ref, a.shape, "(3, n, 5) " + ty);
  const auto t = make<T, Space>(std::array<index_t, 2>{n, 7}, layout::transposed, sparse_values<T>(static_cast<std::size_t>(7 * n)));
  check_nonzero(t.arr, t.ref, t.shape, "a transposed view " + ty);
  const auto z = make<T, Space>(std::array<index_t, 2>{4, 3}, layout::reversed, std::vector<T>(12, xf::detail::convert<T>(0)));
  check_nonzero(z.arr, z.ref, z.shape, "all zeros " + ty);
  const xf::array<T, 2, Space> empty(xf::dims<2>{0, 3});
  check_nonzero(empty, std::vector<T>{}, shape_v{0, 3}, "an empty array " + ty);
}

template <class Space>
void nonzero_of_expressions(index_t n) {
  const auto x = make<float, Space>(std::array<index_t, 2>{n, 6}, layout::reversed);
  std::vector<bool> mask(x.ref.size());
  for (std::size_t i = 0; i < mask.size(); ++i) mask[i] = x.ref[i] > 50.0f;
  check_nonzero(x.arr > 50.0f, mask, x.shape, "x > 50");
  const auto b = make<bool, Space>(std::array<index_t, 1>{n}, layout::plain);
  check_nonzero(b.arr, b.ref, b.shape, "bool 1-D");
}

// Sorted distinct values, NumPy's order (NaN last, once).
template <class T>
std::vector<T> ref_unique(std::vector<T> v) {
  auto less = [](const T& a, const T& b) {
    const double x = as_real(a), y = as_real(b);
    return !std::isnan(x) && (std::isnan(y) || x < y);
  };
  std::stable_sort(v.begin(), v.end(), less);
  std::vector<T> out;
  for (const T x : v) {
    if (!out.empty()) {
      const T last = out.back();
      if (same(x, last) || (as_real(x) == 0 && as_real(last) == 0)) continue;
    }
    out.push_back(x);
  }
  return out;
}

template <class T>
std::vector<T> unique_input(std::size_t n) {
  if constexpr (xf::is_bool<T>) {
    return uniform<T>(n, 0, 1);
  } else if constexpr (xf::is_integer<T>) {
    return std::is_unsigned_v<T> ? uniform<T>(n, 0, 40) : uniform<T>(n, -20, 20);  // many repeats
  } else {
    const float pool[] = {-1.5f, 0.0f, 2.0f, 3.25f, NAN, -7.0f, 100.5f, INFINITY};
    const auto pick = uniform<int>(n, 0, 7);
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = xf::detail::convert<T>(pool[pick[i]]);
    return v;
  }
}

template <class Space, class T>
void uniques(index_t n) {
  const std::string ty = xf::dtype_name<T>;
  const auto a = make<T, Space>(std::array<index_t, 2>{n, 3}, layout::transposed, unique_input<T>(static_cast<std::size_t>(3 * n)));
  const auto want = ref_unique(a.ref);
  expect_array(xf::unique(a.arr), shape_v{static_cast<index_t>(want.size())}, want, "unique of a transposed view " + ty);
  const auto one = make<T, Space>(std::array<index_t, 1>{1}, layout::plain);
  expect_array(xf::unique(one.arr), shape_v{1}, one.ref, "unique of one element " + ty);
  const xf::array<T, 2, Space> empty(xf::dims<2>{3, 0});
  expect_array(xf::unique(empty), shape_v{0}, std::vector<T>{}, "unique of an empty array " + ty);
}

template <class Space>
void unique_of_expressions(index_t n) {
  const auto a = make<std::int32_t, Space>(std::array<index_t, 2>{n, 4}, layout::reversed, unique_input<std::int32_t>(static_cast<std::size_t>(4 * n)));
  std::vector<std::int64_t> doubled;
  for (auto v : a.ref) doubled.push_back(2 * static_cast<std::int64_t>(v) - 1);
  const auto want = ref_unique(doubled);
  expect_array(xf::unique(2 * a.arr.template astype<std::int64_t>() - 1), shape_v{static_cast<index_t>(want.size())}, want, "unique(2 * a - 1)");
}

// ---------------------------------------------------------------- ascontiguousarray
template <class Space>
void contiguous() {
  const auto a = make<double, Space>(std::array<index_t, 2>{3, 4}, layout::plain);
  const auto same_a = xf::ascontiguousarray(a.arr);
  CHECK(same_a.data() == a.arr.data());
  const auto t = make<double, Space>(std::array<index_t, 2>{3, 4}, layout::transposed);
  const auto c = xf::ascontiguousarray(t.arr);
  CHECK(c.data() != t.arr.data());
  CHECK(c.is_contiguous());
  expect_array(c, t.shape, t.ref, "ascontiguousarray(a.T)");
  const auto r = make<double, Space>(std::array<index_t, 1>{5}, layout::reversed);
  expect_array(xf::ascontiguousarray(r.arr), r.shape, r.ref, "ascontiguousarray(v[::-1])");
  const auto s = xf::ascontiguousarray(xf::asarray<double, Space>(std::vector<double>{2.5}, xf::dims<0>{}));
  expect_array(s, shape_v{1}, std::vector<double>{2.5}, "ascontiguousarray of a 0-d array");
  std::vector<double> plus(a.ref);
  for (auto& v : plus) v += 1;
  expect_array(xf::ascontiguousarray(a.arr + 1.0), a.shape, plus, "ascontiguousarray(a + 1)");
  CHECK(xf::atleast_2d(r.arr).shape() == xf::dims<2>{1, 5});
  CHECK(xf::atleast_1d(a.arr).data() == a.arr.data());
}

}  // namespace xf_test::manip
