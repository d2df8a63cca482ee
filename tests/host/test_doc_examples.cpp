// The examples in docs/guide.md are cut from this file (scripts/doc_examples.py), so every
// documented example compiles and runs. Host arrays here; the same code runs on device arrays.
#include <cmath>
#include <numeric>

#include "../common/catch.hpp"
#include <xfuse/xfuse.hpp>

using harray1 = xf::array<float, 1, xf::host>;

TEST_CASE("doc: lazy expressions and materialisation", "[docs][host]") {
  // example-begin lazy
  auto x = xf::asarray<float, xf::host>({1, 2, 3, 4});
  auto y = xf::asarray<float, xf::host>({4, 3, 2, 1});
  auto e = (x - y) * (x - y);               // an expression: nothing is computed yet
  xf::array<float, 1, xf::host> z = e;      // evaluated here: one pass, one allocation
  auto w = xf::eval(xf::sqrt(e) + 1);       // xf::eval picks the type: array<float, 1, host>
  // example-end
  CHECK(xf::to_host(z) == std::vector<float>{9, 1, 1, 9});
  CHECK(xf::to_host(w) == std::vector<float>{4, 2, 2, 4});
}

TEST_CASE("doc: lifetimes", "[docs][host]") {
  // example-begin lifetimes
  auto make = [] {
    auto a = xf::asarray<float, xf::host>({1, 2, 3});
    return a * 2;  // the expression holds a shared handle to a's buffer: returning it is safe
  };
  harray1 doubled = make();
  harray1 view;
  {
    auto b = xf::asarray<float, xf::host>({5, 6, 7});
    view = b(xf::slice(1, xf::_));  // views keep the whole buffer alive too
  }
  // example-end
  CHECK(xf::to_host(doubled) == std::vector<float>{2, 4, 6});
  CHECK(xf::to_host(view) == std::vector<float>{6, 7});
}

TEST_CASE("doc: assignment", "[docs][host]") {
  // example-begin assignment
  auto a = xf::asarray<int, xf::host>({0, 1, 2, 3, 4, 5});
  auto alias = a;                                   // shares the buffer
  a = a + 10;                                       // rebinds a (Python's a = a + 10); alias unchanged
  alias(xf::slice(1, xf::_)) = alias(xf::slice(xf::_, -1));  // in place, NumPy's answer: 0 0 1 2 3 4
  alias += 1;                                       // in place
  // example-end
  CHECK(xf::to_host(a) == std::vector<int>{10, 11, 12, 13, 14, 15});
  CHECK(xf::to_host(alias) == std::vector<int>{1, 1, 2, 3, 4, 5});
}

TEST_CASE("doc: views", "[docs][host]") {
  // example-begin views
  xf::array<int, 2, xf::host> m({3, 4});
  std::iota(m.data(), m.data() + m.size(), 0);
  auto row = m(1);                                       // m[1]        shape (4,)
  auto col = m(xf::all, 2);                              // m[:, 2]     shape (3,)
  auto rev = m(xf::slice(xf::_, xf::_, -1));             // m[::-1]     negative stride
  auto sub = m(xf::slice(0, 3, 2), xf::newaxis, xf::all);// m[0:3:2, np.newaxis, :]  shape (2, 1, 4)
  auto t = m.T();                                        // m.T
  auto flat = m.reshape({2, 6});                         // a view when the strides allow it
  // example-end
  CHECK(xf::to_host(row) == std::vector<int>{4, 5, 6, 7});
  CHECK(xf::to_host(col) == std::vector<int>{2, 6, 10});
  CHECK(rev.strides()[0] == -4);
  CHECK(sub.shape() == xf::dims<3>{2, 1, 4});
  CHECK(t.shape() == xf::dims<2>{4, 3});
  CHECK(flat.data() == m.data());
}

TEST_CASE("doc: promotion", "[docs][host]") {
  // example-begin promotion
  auto f = xf::asarray<float, xf::host>({1.5f});
  auto i = xf::asarray<std::int32_t, xf::host>({3});
  static_assert(std::is_same_v<xf::value_t<decltype(f * 2.0)>, float>);   // C++ scalars are weak
  static_assert(std::is_same_v<xf::value_t<decltype(f * i)>, double>);    // float32 + int32 -> float64
  static_assert(std::is_same_v<xf::value_t<decltype(i / i)>, double>);    // true division
  static_assert(std::is_same_v<xf::value_t<decltype(i < f)>, bool>);
  auto as_int = f.astype<std::int16_t>();                                  // explicit casts are lazy too
  // example-end
  CHECK(xf::eval(as_int).item() == 1);
}

TEST_CASE("doc: fuse and map", "[docs][host]") {
  // example-begin fuse
  auto squared_diff = xf::fuse([](const auto& a, const auto& b) { return (a - b) * (a - b); }, "squared_diff");
  auto x = xf::asarray<float, xf::host>({1, 2, 3});
  auto y = xf::asarray<float, xf::host>({3, 2, 1});
  auto r = squared_diff(x, y);                       // an array, evaluated in one pass
  auto bigger = squared_diff.expr(x, y) + 1;         // or the expression, to fuse further
  // example-end
  CHECK(xf::to_host(r) == std::vector<float>{4, 0, 4});
  CHECK(xf::to_host(xf::eval(bigger)) == std::vector<float>{5, 1, 5});
}

TEST_CASE("doc: reductions", "[docs][host]") {
  // example-begin reductions
  auto x = xf::asarray<float, xf::host>({1, 2, 3, 4, 5, 6}, {2, 3});
  auto y = xf::asarray<float, xf::host>({1, 0, 1});
  auto total = xf::sum(x);                      // 0-d array: 21; .item() reads it
  auto rows = xf::sum(x * y, 1);                // x * y is never stored: one pass over x and y
  auto cols = xf::mean(x, 0, xf::keepdims);     // shape (1, 3): broadcasts against x
  auto centred = xf::eval(x - cols);            // one reduction, then one fused kernel
  auto spread = xf::std(x, {0, 1}, xf::ddof(1));  // several axes, NumPy's ddof
  auto where = xf::argmax(x, 1);                // int64 indices along axis 1
  auto wide = xf::sum<double>(x);               // NumPy's dtype=: accumulate and return double
  // example-end
  CHECK(total.item() == 21.0f);
  CHECK(xf::to_host(rows) == std::vector<float>{4, 10});
  CHECK(xf::to_host(centred) == std::vector<float>{-1.5f, -1.5f, -1.5f, 1.5f, 1.5f, 1.5f});
  CHECK(std::abs(spread.item() - 1.8708287f) < 1e-6f);
  CHECK(xf::to_host(where) == std::vector<std::int64_t>{2, 2});
  CHECK(wide.item() == 21.0);
}

TEST_CASE("docs: reductions fused with their consumers", "[docs][softmax][norm]") {
  // example-begin fused_rows
  auto x = xf::asarray<float, xf::host>({1, 2, 3, 2, 2, 2}, {2, 3});
  auto p = xf::softmax(x, 1);                   // each row sums to 1: [[0.09, 0.24, 0.67], [1/3, 1/3, 1/3]]
  auto lp = xf::log_softmax(x * 2.0f, -1);      // of any expression, along any axis
  auto lse = xf::logsumexp(x, 1);               // shape (2); xf::keepdims keeps the axis
  auto w = xf::asarray<float, xf::host>({1, 2, 1});
  auto b = xf::asarray<float, xf::host>({0, 0, 1});
  auto y = xf::layer_norm(x, 1, 1e-5, w, b);    // (x - mean) / sqrt(var + eps) * w + b, per row
  auto r = xf::rms_norm(x, 1, 1e-6, w);         // x / sqrt(mean(x * x) + eps) * w
  // example-end
  const auto ph = xf::to_host(p);
  CHECK(std::abs(ph[0] - 0.09003057f) < 1e-6f);
  CHECK(std::abs(ph[2] - 0.66524096f) < 1e-6f);
  CHECK(std::abs(ph[4] - 1.0f / 3) < 1e-6f);
  CHECK(std::abs(xf::to_host(lp)[0] - (2 - std::log(std::exp(2.0f) + std::exp(4.0f) + std::exp(6.0f)))) < 1e-5f);
  CHECK(std::abs(xf::to_host(lse)[1] - (2 + std::log(3.0f))) < 1e-6f);
  const auto yh = xf::to_host(y);  // row 0: mean 2, var 2/3
  CHECK(std::abs(yh[0] - (-1 / std::sqrt(2.0f / 3 + 1e-5f))) < 1e-5f);
  CHECK(std::abs(yh[2] - (1 / std::sqrt(2.0f / 3 + 1e-5f) + 1)) < 1e-5f);
  CHECK(std::abs(yh[4] - 0.0f) < 1e-6f);  // a constant row normalises to 0 (then * w + b)
  CHECK(std::abs(xf::to_host(r)[4] - 2 / std::sqrt(4 + 1e-6f) * 2) < 1e-5f);
}

TEST_CASE("docs: several reductions in one pass", "[docs][together]") {
  // example-begin together
  auto x = xf::asarray<float, xf::host>({1, 2, 3, 4, 5, 6}, {2, 3});
  // Three reductions, one read of x: described with xf::lazy, run together by xf::eval.
  auto [total, squares, largest] = xf::eval(xf::lazy::sum(x), xf::lazy::sum(x * x), xf::lazy::max(x));
  // Along an axis, with keepdims where wanted: each row's mean and variance in one pass.
  auto [mean, var] = xf::eval(xf::lazy::mean(x, 1, xf::keepdims), xf::lazy::var(x, 1, xf::keepdims, xf::ddof(1)));
  auto z = xf::eval((x - mean) / xf::sqrt(var));  // standardised rows: one more fused kernel
  // example-end
  CHECK(total.item() == 21.0f);
  CHECK(squares.item() == 91.0f);
  CHECK(largest.item() == 6.0f);
  CHECK(xf::to_host(mean) == std::vector<float>{2, 5});
  CHECK(xf::to_host(var) == std::vector<float>{1, 1});
  CHECK(xf::to_host(z) == std::vector<float>{-1, 0, 1, -1, 0, 1});
}

TEST_CASE("docs: expressions using reductions of their rows", "[docs][row_statistics]") {
  // example-begin row_statistics
  auto x = xf::asarray<float, xf::host>({1, 2, 5, 2, 2, 4}, {2, 3});
  // A described reduction is also an operand: on device arrays with many rows, one kernel each.
  auto shares = xf::eval(x / xf::lazy::sum(x, 1, xf::keepdims));         // each row sums to 1
  auto centred = xf::eval(x - xf::lazy::mean(x, 1, xf::keepdims));       // each row's mean is 0
  auto mean = xf::lazy::mean(x, 1, xf::keepdims);
  auto z = xf::eval((x - mean) / xf::sqrt(xf::lazy::var(x, 1, xf::keepdims) + 1e-5f));
  xf::array<float, 2, xf::host> means = mean;  // computed once, then kept: [[2.667], [2.667]]
  // example-end
  CHECK(xf::to_host(shares) == std::vector<float>{0.125f, 0.25f, 0.625f, 0.25f, 0.25f, 0.5f});
  const auto c = xf::to_host(centred);
  CHECK(std::abs(c[0] + 5.0f / 3) < 1e-6f);
  CHECK(std::abs(c[5] - 4.0f / 3) < 1e-6f);
  const auto zh = xf::to_host(z);
  CHECK(std::abs(zh[2] - (5 - 8.0f / 3) / std::sqrt(26.0f / 9 + 1e-5f)) < 1e-5f);
  CHECK(std::abs(xf::to_host(means)[1] - 8.0f / 3) < 1e-6f);
}

TEST_CASE("docs: expressions using running sums", "[docs][scan_consumer]") {
  // example-begin scan_consumer
  auto x = xf::asarray<float, xf::host>({1, 2, 3, 4});
  // On device arrays, one kernel: each running sum is used where the scan makes it.
  auto detrended = xf::eval(x - xf::lazy::cumsum(x) / 4.0f);  // [0.75, 1.25, 1.5, 1.5]
  auto m = xf::asarray<float, xf::host>({1, 2, 3, 4, 5, 6}, {2, 3});
  auto shares = xf::eval(xf::lazy::cumsum(m, 1) / 6.0f);      // [[1/6, 1/2, 1], [2/3, 3/2, 5/2]]
  // example-end
  CHECK(xf::to_host(detrended) == std::vector<float>{0.75f, 1.25f, 1.5f, 1.5f});
  CHECK(xf::to_host(shares) == std::vector<float>{1 / 6.0f, 3 / 6.0f, 1, 4 / 6.0f, 9 / 6.0f, 15 / 6.0f});
}

TEST_CASE("docs: library results compose", "[docs][compose]") {
  // example-begin compose
  auto x = xf::asarray<float, xf::host>({1, 2, 3, 2, 2, 2}, {2, 3});
  auto b = xf::asarray<float, xf::host>({0, 1, 0}, {1, 3});
  xf::array<float, 2, xf::host> out({2, 3});
  out.assign(xf::softmax(x, 1));                  // written straight into out: no result array
  auto y = xf::eval(2.0f * xf::softmax(x, 1) + b);  // on device arrays, one kernel
  out += xf::layer_norm(x, 1);                    // reads out where it writes: one kernel too
  xf::array<float, 2, xf::host> s({2, 3});
  s.assign(xf::sort(-x));                         // the sort writes s itself: [[-3, -2, -1], [-2, -2, -2]]
  auto c = xf::cumsum(x, 1);                      // computed here, at the end of the statement,
  x.assign(0.0f);                                 // so this does not change c: [[1, 3, 6], [2, 4, 6]]
  // example-end
  CHECK(xf::to_host(s) == std::vector<float>{-3, -2, -1, -2, -2, -2});
  const auto yh = xf::to_host(y), oh = xf::to_host(out);
  CHECK(std::abs(yh[0] - 2 * 0.09003057f) < 1e-6f);
  CHECK(std::abs(yh[1] - (2 * 0.24472847f + 1)) < 1e-6f);
  CHECK(std::abs(oh[0] - (0.09003057f - 1 / std::sqrt(2.0f / 3 + 1e-5f))) < 1e-5f);
  CHECK(std::abs(oh[4] - 1.0f / 3) < 1e-6f);  // a constant row: softmax 1/3, layer norm 0
  CHECK(xf::to_host(c) == std::vector<float>{1, 3, 6, 2, 4, 6});
}

TEST_CASE("docs: several assignments in one kernel", "[docs][assign_together]") {
  // example-begin assign_together
  auto x = xf::asarray<float, xf::host>({1, 2, 3});
  auto y = xf::asarray<float, xf::host>({4, 5, 6});
  xf::array<float, 1, xf::host> sum({3}), product({3});
  // One kernel reads x and y once and writes both (as if the two assignments ran in order).
  xf::assign(xf::into(sum) = x + y, xf::into(product) = x * y);
  // example-end
  CHECK(xf::to_host(sum) == std::vector<float>{5, 7, 9});
  CHECK(xf::to_host(product) == std::vector<float>{4, 10, 18});
}

TEST_CASE("docs: scans and sorting", "[docs][scan][sort]") {
  // example-begin scans_and_sorting
  auto x = xf::asarray<float, xf::host>({3, 1, 2, 6, 5, 4}, {2, 3});
  auto running = xf::cumsum(x, 1);         // [[3, 4, 6], [6, 11, 15]]
  auto flat = xf::cumprod(x);              // 1-D, over x in C order
  auto counts = xf::cumsum(x > 2.0f, 1);   // bool counts in int64; the expression is not stored
  auto sorted = xf::sort(x);               // each row (the last axis), NaN last
  auto order = xf::argsort(-x);            // int64 positions, stable: descending order of x
  // example-end
  CHECK(xf::to_host(running) == std::vector<float>{3, 4, 6, 6, 11, 15});
  CHECK(xf::to_host(flat) == std::vector<float>{3, 3, 6, 36, 180, 720});
  CHECK(xf::to_host(counts) == std::vector<std::int64_t>{1, 1, 1, 1, 2, 3});
  CHECK(xf::to_host(sorted) == std::vector<float>{1, 2, 3, 4, 5, 6});
  CHECK(xf::to_host(order) == std::vector<std::int64_t>{0, 2, 1, 0, 1, 2});
}

TEST_CASE("guide: quantiles, medians and weighted means", "[docs]") {
  // example-begin statistics
  auto x = xf::asarray<float, xf::host>({3, 1, 2, 6, 5, 4}, {2, 3});
  auto middle = xf::median(x);                          // 0-d: 3.5
  auto rows = xf::quantile(x, 0.25, 1);                 // [1.5, 4.5]: NumPy's "linear" method
  auto deciles = xf::percentile(x, {10.0, 90.0});       // shape (2,): a leading axis over the q's
  auto weighted = xf::average(x, 1, xf::asarray<float, xf::host>({1, 1, 2}));  // [2, 4.75]
  auto spread = xf::ptp(x, 0);                          // max - min: [3, 4, 2]
  auto ignored = xf::nanstd(xf::asarray<float, xf::host>({1, NAN, 3}));      // 1: NaN skipped
  // example-end
  CHECK(middle.item() == 3.5f);
  CHECK(xf::to_host(rows) == std::vector<float>{1.5f, 4.5f});
  // np.percentile(np.float32([3, 1, 2, 6, 5, 4]), [10, 90]) -> [1.5, 5.5]
  CHECK(xf::to_host(deciles) == std::vector<float>{1.5f, 5.5f});
  CHECK(xf::to_host(weighted) == std::vector<float>{2.0f, 4.75f});
  CHECK(xf::to_host(spread) == std::vector<float>{3, 4, 2});
  CHECK(ignored.item() == 1.0f);
}
