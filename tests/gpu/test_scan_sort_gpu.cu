// Scans and sorting on device arrays against sequential references (tests/common/
// scan_sort_cases.hpp), at shapes that take every path: segmented and line-by-line radix sorts,
// scans along every axis and flattened, and more than 2^31 elements.
#include "../common/scan_consumer_cases.hpp"
#include "../common/scan_sort_cases.hpp"

using namespace xf_test;

TEST_CASE("cumsum and cumprod on device arrays", "[gpu][scan]") {
  all_scan_types<xf::device>({23, 45, 67});
  scan_expressions_and_edges<xf::device>();
  // Long lines: many CUB tiles per line, and a flattened scan of 1.8 M elements.
  cumulative<xf::device, float>({2, 3, 300001});
}

TEST_CASE("scans along an axis, a block per set of lines", "[gpu][scan]") {
  // Every axis of each: contiguous rows of 1024 to 4500 steps (a block per line), columns and short
  // rows (32 lines a block) around the tile of 256 steps, complex and integer accumulators.
  cumulative<xf::device, float>({2, 150, 2049});
  cumulative<xf::device, double>({3, 257, 4500});
  cumulative<xf::device, std::int32_t>({300, 5, 1024});
  cumulative<xf::device, xf::complex<float>>({2, 100, 3300});
  scan_lines_of_expressions<xf::device>();
}

TEST_CASE("expressions using described scans, in the scan's kernel", "[gpu][scan][scan_consumer]") {
  for (const xf::index_t n : {1, 2, 1000, 2049, 1000003}) consumer_of_flat_scan<xf::device>(n);  // one line: CUB
  consumer_of_axis_scan<xf::device>(300, 2049, 1);  // a block per row, around the tile of 2048
  consumer_of_axis_scan<xf::device>(300, 4097, 1);
  consumer_of_axis_scan<xf::device>(6600, 100, 1);  // short rows: 32 lines a block
  consumer_of_axis_scan<xf::device>(257, 6600, 0);  // columns: 32 lines a block, a warp across them
  consumer_of_axis_scan<xf::device>(4, 5000, 1);    // too few lines: the general path
  consumer_of_axis_scan<xf::device>(5000, 4, 0);
  scan_consumer_kinds<xf::device>();
}

TEST_CASE("which expressions using a described scan run in its kernel", "[gpu][scan][scan_consumer]") {
  const auto x = xf::asarray<float>(uniform<float>(300 * 5000, -1, 1), {300, 5000});
  const xf::array<float, 2> y(x.shape());
  const auto one_kernel = [&](const auto& e) { return xf::detail::scan_with_consumer(y, e, "test"); };
  CHECK(one_kernel(x - xf::lazy::cumsum(x, 1)));
  CHECK(one_kernel(x - xf::lazy::cumsum(x * x, 0)));
  const auto twice = xf::lazy::cumsum(x, 1);
  CHECK(one_kernel(twice * twice));                                            // one scan used twice
  CHECK_FALSE(one_kernel(xf::lazy::cumsum(x, 1) - xf::lazy::cumsum(x, 1)));    // two scans
  CHECK_FALSE(one_kernel(xf::lazy::cumsum(x, 1) / xf::lazy::sum(x, 1, xf::keepdims)));  // and a reduction
  CHECK(one_kernel(y - xf::lazy::cumsum(y, 1)));                               // reads y where it writes
  const auto few = xf::asarray<float>(uniform<float>(4 * 5000, -1, 1), {4, 5000});
  const xf::array<float, 2> f(few.shape());
  CHECK_FALSE(xf::detail::scan_with_consumer(f, few - xf::lazy::cumsum(few, 1), "test"));  // 4 lines: too few
  CHECK_FALSE(one_kernel(xf::lazy::cumsum(y(xf::all, xf::slice(xf::_, xf::_, -1)), 1)));  // and elsewhere
  const auto done = xf::lazy::cumsum(x, 0);
  const xf::array<float, 2> first = done;
  CHECK_FALSE(one_kernel(x - done));  // already computed: read
  const auto v = xf::asarray<float>(uniform<float>(5000, -1, 1));
  const xf::array<float, 1> w(v.shape()), flat({300 * 5000});
  CHECK(xf::detail::scan_with_consumer(w, v - xf::lazy::cumsum(v), "test"));
  CHECK_FALSE(xf::detail::scan_with_consumer(flat, xf::lazy::cumsum(x) + 1, "test"));  // flattened matrix
  // What did not run in the scan's kernel marked nothing: it still gives the right values.
  // (Integers: CUB's float scans may group a sum differently from one run to the next.)
  const auto xi = xf::asarray<int>(std::vector<int>(300 * 5000, 3), {300, 5000});
  const xf::array<std::int64_t, 1> ones = xf::lazy::cumsum(xi) - xf::lazy::cumsum(xi) + 1;
  CHECK(xf::sum(ones).item() == 300 * 5000);
}

TEST_CASE("sort and argsort on device arrays", "[gpu][sort]") {
  all_sort_types<xf::device>({3, 37, 1001});  // 111 lines: segmented; flattened: one line
  sort_expressions_and_edges<xf::device>();
}

TEST_CASE("sorting lines of 2^20 and more, one by one", "[gpu][sort]") {
  sorting<xf::device, float>({1, 3, (1 << 20) + 3});
  sorting<xf::device, std::int64_t>({1, 2, (1 << 20) + 1});
}

TEST_CASE("scans and sorts over more than 2^31 elements", "[gpu][large]") {
  const xf::index_t n = (xf::index_t{1} << 31) + 4099, big = (xf::index_t{1} << 31) + 5;
  const xf::array<std::uint8_t, 1> x = xf::arange<std::uint8_t>(n);  // i % 256
  auto at = [](const auto& a, xf::index_t i) { return xf::to_host(a(xf::slice(i, i + 1)))[0]; };
  {
    // cumsum of uint8(i): whole cycles of 256 add 32640.
    const auto c = xf::cumsum(x);
    auto want = [](xf::index_t count) {
      std::uint64_t s = static_cast<std::uint64_t>(count / 256) * 32640;
      for (xf::index_t j = 0; j < count % 256; ++j) s += static_cast<std::uint64_t>(j);
      return s;
    };
    CHECK(at(c, big) == want(big + 1));
    CHECK(at(c, n - 1) == want(n));
  }
  {
    // Value v appears n / 256 times, once more for v < n % 256 (here 3).
    const xf::index_t per = n / 256, zeros = per + 1;
    const auto s = xf::sort(x);
    CHECK(xf::count_nonzero(s(xf::slice(1, n)) < s(xf::slice(0, n - 1))).item() == 0);
    CHECK(xf::count_nonzero(s == std::uint8_t{7}).item() == per);
    CHECK(at(s, zeros - 1) == 0);
    CHECK(at(s, zeros) == 1);
    CHECK(at(s, n - 1) == 255);
  }
  {
    const xf::index_t zeros = n / 256 + 1;
    const auto order = xf::argsort(x);
    CHECK(at(order, 1) == 256);
    CHECK(at(order, zeros - 1) == n - 3);  // the last 0, past 2^31
    CHECK(at(order, zeros) == 1);
    // Stable: the positions of equal values rise.
    CHECK(xf::count_nonzero(order(xf::slice(1, zeros)) <= order(xf::slice(0, zeros - 1))).item() == 0);
  }
}
