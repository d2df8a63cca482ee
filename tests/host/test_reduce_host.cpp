// Reductions on host arrays against long double references (tests/common/reduce_cases.hpp).
#include "../common/reduce_cases.hpp"

using namespace xf_test;

TEST_CASE("reductions on host arrays", "[reduce][host]") {
  all_reduction_cases<xf::host>({23, 45, 67});
}

TEST_CASE("a user reducer on host arrays", "[reduce][host]") {
  user_reducer_case<xf::host>([](float v) { return static_cast<double>(v) * v; }, [](double a, double b) { return a + b; },
                              [](double a, xf::index_t n) { return std::sqrt(a / static_cast<double>(n)); });
}

TEST_CASE("reductions over a rank-1 and a rank-4 host array", "[reduce][host]") {
  const auto v = uniform<double>(5000, -1, 1);
  const auto x = xf::asarray<double, xf::host>(v);
  require_sums(xf::to_host(xf::sum(x)), ref_sum(v, {5000}, {}), 1, 1e-13, "rank-1 sum");
  const auto y = xf::asarray<double, xf::host>(v, {5, 4, 10, 25});
  const int axes[2] = {1, 3};
  const auto got = xf::to_host(xf::sum(y, axes));
  require_sums(got, ref_sum(v, {5, 4, 10, 25}, {1, 3}), 1, 1e-13, "rank-4 sum over axes 1 and 3");
  STATIC_REQUIRE(decltype(xf::sum(y, axes))::rank == 2);
  STATIC_REQUIRE(decltype(xf::sum(y, axes, xf::keepdims))::rank == 4);
  STATIC_REQUIRE(std::is_same_v<xf::value_t<decltype(xf::sum(xf::asarray<std::int8_t, xf::host>({1, 2})))>, std::int64_t>);
  STATIC_REQUIRE(std::is_same_v<xf::value_t<decltype(xf::mean(xf::asarray<int, xf::host>({1, 2})))>, double>);
  STATIC_REQUIRE(std::is_same_v<xf::value_t<decltype(xf::sum<double>(x))>, double>);
}
