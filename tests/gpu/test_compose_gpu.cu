// Producers that compose on device arrays (tests/common/compose_cases.hpp): row functions written
// straight into destinations by their kernels, element-wise expressions run in the row kernels'
// stores (the register walk, the strided walk, the staged and split walks of sm_90) and the
// two-pass rows' general path; scans into destinations and expressions.
#include "../common/compose_cases.hpp"

TEST_CASE("row functions into destinations: device arrays", "[gpu][compose]") {
  xf_test::compose::destinations<xf::device, float>(37, 65);      // rows in registers
  xf_test::compose::destinations<xf::device, float>(64, 8192);    // staged rows on sm_90
  xf_test::compose::destinations<xf::device, double>(5, 20000);   // rows split over blocks on sm_90
  xf_test::compose::destinations<xf::device, double>(5, 20001);   // two passes (rows not a multiple of 16 bytes)
  xf_test::compose::destinations<xf::device, float>(1, 1);
}

TEST_CASE("row functions into destinations they read: device arrays", "[gpu][compose]") {
  xf_test::compose::aliasing<xf::device, float>(33);
  xf_test::compose::aliasing<xf::device, float>(2048);
  xf_test::compose::aliasing<xf::device, double>(20000 / 100);
  xf_test::compose::aliasing_columns<xf::device, float>(3000, 40);  // long columns: a cluster on sm_90
}

TEST_CASE("row functions inside expressions: device arrays", "[gpu][compose]") {
  xf_test::compose::consumers<xf::device, float>(40, 70, 1);      // rows in registers
  xf_test::compose::consumers<xf::device, double>(40, 70, 1);
  xf_test::compose::consumers<xf::device, float>(300, 200, 0);    // columns: the strided walk
  xf_test::compose::consumers<xf::device, float>(16, 4096, 1);    // staged rows
  xf_test::compose::consumers<xf::device, float>(3, 20000, 1);    // rows split over blocks on sm_90
  xf_test::compose::consumers<xf::device, float>(3, 20001, 1);    // two passes: the general path
  xf_test::compose::consumers<xf::device, float>(2000, 3, 0);     // long columns, too few: two passes
  xf_test::compose::consumers<xf::device, float>(3000, 48, 0);    // long columns: softmax's held by a cluster on sm_90
  xf_test::compose::consumers<xf::device, double>(1000, 40, 0);
  xf_test::compose::consumers<xf::device, float>(5, 1, 1);        // rows of one
}

TEST_CASE("an eager producer is computed by the end of its statement: device arrays", "[gpu][compose]") {
  xf_test::compose::statement_rule<xf::device, float>();
}

TEST_CASE("scans into destinations and expressions: device arrays", "[gpu][compose]") {
  xf_test::compose::scans<xf::device>(1000);
  xf_test::compose::scans<xf::device>(1 << 20);
}

TEST_CASE("sort into destinations and expressions: device arrays", "[gpu][compose]") {
  xf_test::compose::sorts<xf::device, float>(7, 300);      // lines together (CUB's segmented sort)
  xf_test::compose::sorts<xf::device, double>(1, 5000);    // one line (CUB's radix sort)
  xf_test::compose::sorts<xf::device, float>(3, 1 << 20);  // long lines one by one
  xf_test::compose::sorts<xf::device, float>(4, 1);
}
