// Scans and sorting on host arrays against sequential references (tests/common/scan_sort_cases.hpp).
#include "../common/scan_sort_cases.hpp"

using namespace xf_test;

TEST_CASE("cumsum and cumprod on host arrays", "[scan][host]") {
  all_scan_types<xf::host>({5, 7, 9});
  scan_expressions_and_edges<xf::host>();
  scan_lines_of_expressions<xf::host>();
}

TEST_CASE("sort and argsort on host arrays", "[sort][host]") {
  all_sort_types<xf::host>({3, 5, 61});
  sort_expressions_and_edges<xf::host>();
}
