// xf::random on device arrays: distributions, integers, reproducibility, and bit-identical values
// to the host's evaluation of the same draw, whatever the kernel's walk.
#include "../common/random_cases.hpp"

using namespace xf_test;

TEST_CASE("uniform and normal draws on device arrays match their distributions", "[gpu][random]") {
  random_distributions<xf::device, float>(2000000);
  random_distributions<xf::device, double>(2000000);
  random_distributions<xf::device, xf::half>(1000000);
  random_distributions<xf::device, xf::bfloat16>(1000000);
}

TEST_CASE("integer draws on device arrays cover their range evenly", "[gpu][random]") {
  random_integers<xf::device, std::int8_t>(1000000, -5, 7);
  random_integers<xf::device, std::uint64_t>(2000000, 0, 1000);
  random_integers<xf::device, std::int64_t>(1000000, -1000000000000, -999999999990);
}

TEST_CASE("draws on device arrays are values: reproducible, independent, checked", "[gpu][random]") {
  random_reproducible<xf::device>();
}

namespace {
// The same draw evaluated on the host and on the device: equal bits.
template <class Node>
void same_bits(const Node& node, const std::string& what) {
  using T = xf::value_t<Node>;
  constexpr int R = xf::rank_v<Node>;
  const xf::array<T, R, xf::host> h = node;
  const xf::array<T, R, xf::device> d = node;
  const auto hv = xf::to_host(h), dv = xf::to_host(d);
  REQUIRE(hv.size() == dv.size());
  for (std::size_t i = 0; i < hv.size(); ++i) {
    INFO(what << " element " << i);
    REQUIRE(std::memcmp(&hv[i], &dv[i], sizeof(T)) == 0);
  }
}
}  // namespace

TEST_CASE("a draw has the same bits on the device as on the host, however it is walked", "[gpu][random]") {
  xf::random::generator g(seed());
  for (const xf::index_t n : {1, 3, 1001, 100003}) {
    same_bits(xf::random::uniform<float>({n}, g, -2.0, 3.0), "uniform float n " + std::to_string(n));
    same_bits(xf::random::uniform<double>({n}, g), "uniform double n " + std::to_string(n));
    same_bits(xf::random::uniform<xf::half>({n}, g), "uniform half n " + std::to_string(n));
    same_bits(xf::random::normal<float>({n}, g, 1.0, 3.0), "normal float n " + std::to_string(n));
    same_bits(xf::random::normal<double>({n}, g), "normal double n " + std::to_string(n));
    same_bits(xf::random::normal<xf::bfloat16>({n}, g), "normal bfloat16 n " + std::to_string(n));
    same_bits(xf::random::integers<std::int8_t>({n}, g, -100, 100), "integers int8 n " + std::to_string(n));
    same_bits(xf::random::integers<std::uint64_t>({n}, g, 0, 1ll << 62), "integers uint64 n " + std::to_string(n));
    same_bits(xf::random::poisson({n}, g, 4.5), "poisson 4.5 n " + std::to_string(n));
    same_bits(xf::random::poisson<std::int32_t>({n}, g, 123.25), "poisson int32 123.25 n " + std::to_string(n));
    same_bits(xf::random::gamma<float>({n}, g, 0.7, 3.0), "gamma float 0.7 n " + std::to_string(n));
    same_bits(xf::random::beta({n}, g, 0.4, 0.6), "beta 0.4 0.6 n " + std::to_string(n));
    same_bits(xf::random::binomial({n}, g, 5000, 0.3), "binomial 5000 0.3 n " + std::to_string(n));
  }
  // Walks other than a contiguous row: a transposed 2-D draw (tiled walk), a draw broadcast
  // against a column, a draw written into an unaligned slice, and a draw fused with an array.
  const auto m = xf::random::normal<float>({333, 517}, g);
  same_bits(m.T(), "normal float transposed");
  const auto col = xf::asarray<float>(uniform<float>(333, -1, 1), {333, 1});
  const auto col_h = xf::asarray<float, xf::host>(xf::to_host(col), {333, 1});
  const auto row = xf::random::uniform<double>({517}, g);
  const xf::array<double, 2> bd = col.astype<double>() - row;
  const xf::array<double, 2, xf::host> bh = col_h.astype<double>() - row;
  REQUIRE(xf::to_host(bd) == xf::to_host(bh));
  const auto draw = xf::random::normal<double>({10000}, g);
  xf::array<double, 1> padded(xf::dims<1>{10003});
  padded(xf::slice(3, xf::_)).assign(draw);  // starts 24 bytes into the buffer: an unaligned head
  const xf::array<double, 1, xf::host> want = draw;
  const auto got = xf::to_host(padded(xf::slice(3, xf::_)));
  REQUIRE(got == xf::to_host(want));
}

TEST_CASE("a draw past 2^31 elements reduces without a buffer", "[gpu][random][large]") {
  xf::random::generator g(seed());
  const xf::index_t n = (xf::index_t{1} << 31) + 12345;
  const double mean = xf::mean(xf::random::uniform<float>({n}, g)).item();
  REQUIRE(std::abs(mean - 0.5) < 5 / std::sqrt(12.0 * static_cast<double>(n)) + 1e-6);
  const auto count = xf::count_nonzero(xf::random::integers<std::int8_t>({n}, g, 0, 2)).item();
  REQUIRE(std::abs(static_cast<double>(count) - static_cast<double>(n) / 2) < 6 * std::sqrt(static_cast<double>(n) / 4));
}

TEST_CASE("exponential draws on device arrays match their distribution", "[gpu][random]") {
  xf_test::random_exponential<xf::device, float>(200000, 2.5);
  xf_test::random_exponential<xf::device, double>(200000, 0.5);
}

TEST_CASE("permutation, shuffle and choice on device arrays", "[gpu][random]") {
  xf_test::random_orderings<xf::device>();
}

TEST_CASE("poisson draws on device arrays match their distribution and the host's bits", "[gpu][random]") {
  random_poisson<xf::device>(200000);
}

TEST_CASE("binomial draws on device arrays match their distribution", "[gpu][random]") {
  random_binomial<xf::device>(200000);
}

TEST_CASE("gamma and beta draws on device arrays match their distributions", "[gpu][random]") {
  random_gamma_beta<xf::device>(200000);
}
