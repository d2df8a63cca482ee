// Several assignments in one kernel (xf::assign(xf::into(z1) = f, xf::into(z2) = g)) on host
// arrays (host suite) and device arrays (GPU suite), against the same formulas computed in plain
// loops on std::vector: two and three destinations of different element types, broadcasting,
// transposed destinations, lengths around the vector width and past one tile, scalars; in-place
// updates and reads of another destination, whose answers must be those of the assignments run one
// after another; different shapes; and errors that leave every destination as it was.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include <xfuse/core.hpp>

#include "check.hpp"
#include "random.hpp"

namespace xf_test::assign_together {

using xf::index_t;

template <class T>
std::vector<T> zip_with(const std::vector<T>& a, const std::vector<T>& b, T (*f)(T, T)) {
  std::vector<T> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = f(a[i], b[i]);
  return out;
}

// z1 = x + y, z2 = x * y - 1 (double), z3 = x > y (int64) over n elements.
template <class Space, class T>
void three_outputs(index_t n) {
  const auto xv = uniform<T>(static_cast<std::size_t>(n), -3, 3), yv = uniform<T>(static_cast<std::size_t>(n), -3, 3);
  const auto x = xf::asarray<T, Space>(xv, {n}), y = xf::asarray<T, Space>(yv, {n});
  xf::array<T, 1, Space> z1({n});
  xf::array<double, 1, Space> z2({n});
  xf::array<std::int64_t, 1, Space> z3({n});
  REQUIRE(xf::detail::assign_in_one_kernel(xf::into(z1) = x + y, xf::into(z2) = x * y - 1, xf::into(z3) = x > y));
  xf::assign(xf::into(z1) = x + y, xf::into(z2) = x * y - 1, xf::into(z3) = x > y);
  std::vector<T> w1(xv.size());
  std::vector<double> w2(xv.size());
  std::vector<std::int64_t> w3(xv.size());
  for (std::size_t i = 0; i < xv.size(); ++i) {
    w1[i] = xv[i] + yv[i];
    w2[i] = static_cast<double>(xv[i] * yv[i] - T(1));
    w3[i] = xv[i] > yv[i];
  }
  const std::string what = "n = " + std::to_string(n) + ", " + xf::dtype_name<T>;
  require_equal(xf::to_host(z1), w1, "x + y, " + what);
  // The device may contract x * y - 1 into one fused multiply-add: within an ulp of |x * y| <= 9.
  require_all_close(xf::to_host(z2), w2, 0.0, 16 * eps<T>(), "x * y - 1, " + what);
  require_equal(xf::to_host(z3), w3, "x > y, " + what);
}

// (assign_in_one_kernel is the choice xf::assign makes: checked where a case means one path.)
// A row broadcast into a matrix, a scalar, and transposed destinations (one layout for both).
template <class Space>
void broadcast_and_views() {
  const index_t m = 37, n = 70;
  const auto av = uniform<float>(static_cast<std::size_t>(m * n), -2, 2), rv = uniform<float>(static_cast<std::size_t>(n), -2, 2);
  const auto a = xf::asarray<float, Space>(av, {m, n});
  const auto row = xf::asarray<float, Space>(rv, {n});
  xf::array<float, 2, Space> z1({m, n}), z2({m, n});
  REQUIRE(xf::detail::assign_in_one_kernel(xf::into(z1) = a - row, xf::into(z2) = 0.5f));
  xf::assign(xf::into(z1) = a - row, xf::into(z2) = 0.5f);
  std::vector<float> w1(av.size()), w2(av.size(), 0.5f);
  for (index_t i = 0; i < m; ++i)
    for (index_t j = 0; j < n; ++j) w1[static_cast<std::size_t>(i * n + j)] = av[static_cast<std::size_t>(i * n + j)] - rv[static_cast<std::size_t>(j)];
  require_equal(xf::to_host(z1), w1, "a - row");
  require_equal(xf::to_host(z2), w2, "a scalar");
  // Transposed destinations of shape (n, m): element (j, i) of t1 is a(i, j) * 2.
  xf::array<float, 2, Space> u1({m, n}), u2({m, n});
  xf::assign(xf::into(u1.transpose()) = a.transpose() * 2, xf::into(u2.transpose()) = a.transpose() + row.reshape({n, 1}));
  std::vector<float> v1(av.size()), v2(av.size());
  for (index_t i = 0; i < m; ++i)
    for (index_t j = 0; j < n; ++j) {
      const auto k = static_cast<std::size_t>(i * n + j);
      v1[k] = av[k] * 2;
      v2[k] = av[k] + rv[static_cast<std::size_t>(j)];
    }
  require_equal(xf::to_host(u1), v1, "transposed destinations, 2a");
  require_equal(xf::to_host(u2), v2, "transposed destinations, a + row");
}

// Reads of destinations: the answers are those of the assignments one after another.
template <class Space>
void in_order_semantics() {
  const index_t n = 1001;
  const auto xv = uniform<double>(static_cast<std::size_t>(n), -1, 1), yv = uniform<double>(static_cast<std::size_t>(n), -1, 1);
  std::vector<double> want_x(xv.size()), want_y(yv.size());
  {  // x in place first, then y reads the new x: y = (x + 1) * 2.
    const auto x = xf::asarray<double, Space>(xv, {n});
    xf::array<double, 1, Space> y({n});
    REQUIRE_FALSE(xf::detail::assign_in_one_kernel(xf::into(x) = x + 1, xf::into(y) = x * 2));
    xf::assign(xf::into(x) = x + 1, xf::into(y) = x * 2);
    for (std::size_t i = 0; i < xv.size(); ++i) want_x[i] = xv[i] + 1, want_y[i] = (xv[i] + 1) * 2;
    require_equal(xf::to_host(x), want_x, "x in place");
    require_equal(xf::to_host(y), want_y, "y from the new x");
  }
  {  // y reads x at the element it writes, before x's own update: one kernel gives the same.
    const auto x = xf::asarray<double, Space>(xv, {n}), y = xf::asarray<double, Space>(yv, {n});
    REQUIRE(xf::detail::assign_in_one_kernel(xf::into(y) = y + x, xf::into(x) = x * 3));
    xf::assign(xf::into(y) = y + x, xf::into(x) = x * 3);
    for (std::size_t i = 0; i < xv.size(); ++i) want_y[i] = yv[i] + xv[i], want_x[i] = xv[i] * 3;
    require_equal(xf::to_host(y), want_y, "y + x before x changes");
    require_equal(xf::to_host(x), want_x, "x * 3 after");
  }
  {  // A shifted read of a later destination: x(1:) + x(:-1) while x changes.
    const auto x = xf::asarray<double, Space>(xv, {n});
    xf::array<double, 1, Space> s({n - 1});
    REQUIRE_FALSE(xf::detail::assign_in_one_kernel(xf::into(s) = x(xf::slice(1, n)) + x(xf::slice(0, n - 1)),
                                                   xf::into(x(xf::slice(0, n - 1))) = 0.0));
    xf::assign(xf::into(s) = x(xf::slice(1, n)) + x(xf::slice(0, n - 1)), xf::into(x(xf::slice(0, n - 1))) = 0.0);
    std::vector<double> want_s(static_cast<std::size_t>(n - 1));
    for (std::size_t i = 0; i + 1 < xv.size(); ++i) want_s[i] = xv[i + 1] + xv[i];
    require_equal(xf::to_host(s), want_s, "sums of neighbours before they are zeroed");
    const auto got_x = xf::to_host(x);
    for (std::size_t i = 0; i + 1 < xv.size(); ++i) REQUIRE(got_x[i] == 0.0);
    REQUIRE(got_x.back() == xv.back());
  }
  {  // Different shapes: each assignment on its own.
    const auto x = xf::asarray<double, Space>(xv, {n});
    xf::array<double, 1, Space> y({n});
    xf::array<double, 2, Space> m({2, n});
    xf::assign(xf::into(y) = x - 1, xf::into(m) = x * 2);
    const auto got_m = xf::to_host(m);
    for (std::size_t i = 0; i < xv.size(); ++i) {
      REQUIRE(got_m[i] == xv[i] * 2);
      REQUIRE(got_m[i + xv.size()] == xv[i] * 2);
    }
    require_equal(xf::to_host(y), zip_with<double>(xv, xv, [](double a, double) { return a - 1; }), "x - 1 beside a matrix");
  }
}

// A right side that does not broadcast: an error naming xf::assign, and no destination written.
template <class Space>
void errors_write_nothing() {
  const auto x = xf::asarray<float, Space>(std::vector<float>{1, 2, 3}, {3});
  const auto z1 = xf::asarray<float, Space>(std::vector<float>{7, 7, 7}, {3});
  const auto z2 = xf::asarray<float, Space>(std::vector<float>{8, 8}, {2});
  REQUIRE_THROWS_WITH(xf::assign(xf::into(z1) = x * 2, xf::into(z2) = x + 1),
                      XF_CONTAINS("xf::assign") && XF_CONTAINS("(3,)") && XF_CONTAINS("(2,)"));
  REQUIRE(xf::to_host(z1) == std::vector<float>{7, 7, 7});
  REQUIRE(xf::to_host(z2) == std::vector<float>{8, 8});
  auto wide = xf::asarray<float, Space>(std::vector<float>{5}, {1});
  REQUIRE_THROWS_WITH(xf::assign(xf::into(z1) = x, xf::into(wide.broadcast_to({3})) = x),
                      XF_CONTAINS("xf::assign") && XF_CONTAINS("repeats elements"));
  REQUIRE(xf::to_host(z1) == std::vector<float>{7, 7, 7});
}

}  // namespace xf_test::assign_together
