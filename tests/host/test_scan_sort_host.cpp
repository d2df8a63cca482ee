// Scans and sorting on host arrays against sequential references (tests/common/scan_sort_cases.hpp).
#include "../common/scan_consumer_cases.hpp"
#include "../common/scan_sort_cases.hpp"

using namespace xf_test;

TEST_CASE("cumsum and cumprod on host arrays", "[scan][host]") {
  all_scan_types<xf::host>({5, 7, 9});
  scan_expressions_and_edges<xf::host>();
  scan_lines_of_expressions<xf::host>();
}

TEST_CASE("expressions using described scans on host arrays", "[scan][host]") {
  for (const xf::index_t n : {1, 2, 1000, 3001}) consumer_of_flat_scan<xf::host>(n);
  consumer_of_axis_scan<xf::host>(37, 70, 1);
  consumer_of_axis_scan<xf::host>(37, 70, 0);
  scan_consumer_kinds<xf::host>();
}

TEST_CASE("sort and argsort on host arrays", "[sort][host]") {
  all_sort_types<xf::host>({3, 5, 61});
  sort_expressions_and_edges<xf::host>();
}

TEST_CASE("the headers that run library work set the hooks that NVTX ranges call", "[nvtx]") {
  // This file includes scan.hpp and sort.hpp (base/nvtx_emit.hpp): ranges reach NVTX.
  CHECK(xf::detail::nvtx_api.push == &xf::detail::nvtx_push);
  CHECK(xf::detail::nvtx_api.pop == &xf::detail::nvtx_pop);
  const auto x = xf::asarray<float, xf::host>({3, 1, 2});
  CHECK(xf::to_host(xf::sort(x)) == std::vector<float>{1, 2, 3});  // a range opened and closed
}
