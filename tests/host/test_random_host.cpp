// xf::random on host arrays: distributions, integers, reproducibility (tests/common/random_cases.hpp).
#include "../common/random_cases.hpp"

using namespace xf_test;

TEST_CASE("uniform and normal draws on host arrays match their distributions", "[host][random]") {
  random_distributions<xf::host, float>(200000);
  random_distributions<xf::host, double>(200000);
  random_distributions<xf::host, xf::half>(100000);
  random_distributions<xf::host, xf::bfloat16>(100000);
}

TEST_CASE("integer draws on host arrays cover their range evenly", "[host][random]") {
  random_integers<xf::host, std::int8_t>(100000, -5, 7);
  random_integers<xf::host, std::uint64_t>(200000, 0, 1000);
  random_integers<xf::host, std::int64_t>(100000, -1000000000000, -999999999990);
}

TEST_CASE("draws are values: reproducible, independent, checked", "[host][random]") {
  random_reproducible<xf::host>();
}

TEST_CASE("doc example: random draws", "[host][random][docs]") {
  // example-begin random
  xf::random::generator g(42);                                  // np.random.default_rng(42)
  const auto x = xf::asarray<float, xf::host>({1, 2, 3, 4});
  const auto noisy = x + 0.1f * xf::random::normal<float>(x.shape(), g);  // one loop (one kernel on a device array)
  const xf::array<float, 1, xf::host> y = noisy;                // a draw has no buffer of its own
  const xf::array<double, 2, xf::host> u = xf::random::uniform<double>({2, 3}, g, -1.0, 1.0);
  const xf::array<std::int64_t, 1, xf::host> dice = xf::random::integers({10}, g, 1, 7);
  // example-end
  CHECK(std::abs(y.at(2) - 3.0f) < 1.0f);
  CHECK(u.at(1, 2) >= -1.0);
  CHECK(u.at(1, 2) < 1.0);
  CHECK(dice.at(9) >= 1);
  CHECK(dice.at(9) <= 6);
  CHECK(g.draws() == 3);
}

TEST_CASE("exponential draws on host arrays match their distribution", "[host][random]") {
  xf_test::random_exponential<xf::host, float>(200000, 2.5);
  xf_test::random_exponential<xf::host, double>(200000, 0.5);
}

TEST_CASE("permutation, shuffle and choice on host arrays", "[host][random]") {
  xf_test::random_orderings<xf::host>();
}

TEST_CASE("poisson draws on host arrays match their distribution", "[host][random]") {
  random_poisson<xf::host>(200000);
}

TEST_CASE("binomial draws on host arrays match their distribution", "[host][random]") {
  random_binomial<xf::host>(200000);
}

TEST_CASE("gamma and beta draws on host arrays match their distributions", "[host][random]") {
  random_gamma_beta<xf::host>(200000);
}
