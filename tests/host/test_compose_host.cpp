// Producers that compose on host arrays (tests/common/compose_cases.hpp): row functions and scans
// and sort written straight into destinations and used inside expressions (the general path on
// the host).
#include "../common/compose_cases.hpp"

TEST_CASE("row functions into destinations: host arrays", "[compose]") {
  xf_test::compose::destinations<xf::host, float>(37, 65);
  xf_test::compose::destinations<xf::host, double>(5, 3000);
}

TEST_CASE("row functions into destinations they read: host arrays", "[compose]") {
  xf_test::compose::aliasing<xf::host, float>(33);
}

TEST_CASE("row functions inside expressions: host arrays", "[compose]") {
  xf_test::compose::consumers<xf::host, float>(40, 70, 1);
  xf_test::compose::consumers<xf::host, double>(40, 70, 0);
}

TEST_CASE("an eager producer is computed by the end of its statement: host arrays", "[compose]") {
  xf_test::compose::statement_rule<xf::host, float>();
}

TEST_CASE("scans into destinations and expressions: host arrays", "[compose]") {
  xf_test::compose::scans<xf::host>(1000);
}

TEST_CASE("sort into destinations and expressions: host arrays", "[compose]") {
  xf_test::compose::sorts<xf::host, float>(7, 300);
  xf_test::compose::sorts<xf::host, double>(1, 1000);
}
