// Order and logic reductions on device arrays (min, max, argmin, argmax, nan forms, any, all,
// count_nonzero), views, expressions and empty inputs, against tests/common/reduce_cases.hpp's
// references. Apart from test_reduce_gpu.cu so that the two build in parallel.
#include "../common/reduce_cases.hpp"

using namespace xf_test;

TEST_CASE("order and logic reductions on device arrays", "[gpu][reduce]") {
  order_and_logic_cases<xf::device>({23, 45, 67});
}

TEST_CASE("order and logic reductions with few results over many elements", "[gpu][reduce]") {
  extremes<xf::device, float>({3, 300, 1031}, true);
  logicals<xf::device, std::uint8_t>({3, 300, 1031});
}
