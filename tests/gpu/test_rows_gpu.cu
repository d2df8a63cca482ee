// Fused rows on device arrays: softmax, log_softmax and logsumexp (tests/common/softmax_cases.hpp),
// layer_norm and rms_norm (tests/common/norm_cases.hpp); rows on chip (one thread a row up to 1024
// threads), staged (sm_90), split over blocks (long rows of softmax's kinds, sm_90) and in two
// passes (other long or strided rows).
#include "../common/norm_cases.hpp"
#include "../common/softmax_cases.hpp"

TEST_CASE("softmax family, every row length: device arrays", "[gpu][softmax]") {
  xf_test::softmax::row_lengths<xf::device, float>();
  xf_test::softmax::row_lengths<xf::device, double>();
}

TEST_CASE("softmax family, axes, views, expressions: device arrays", "[gpu][softmax]") {
  xf_test::softmax::layouts<xf::device, float>();
  xf_test::softmax::layouts<xf::device, double>();
}

TEST_CASE("softmax family, rows split over blocks: device arrays", "[gpu][softmax][split]") {
  xf_test::softmax::split_rows<xf::device, float>();
  xf_test::softmax::split_rows<xf::device, double>();
}

TEST_CASE("softmax family, NaN, inf, empty, half: device arrays", "[gpu][softmax]") {
  xf_test::softmax::special_rows<xf::device, float>();
  xf_test::softmax::special_rows<xf::device, double>();
  xf_test::softmax::half_rows<xf::device>();
}

TEST_CASE("norms, every row length: device arrays", "[gpu][norm]") {
  xf_test::norm::row_lengths<xf::device, float>();
  xf_test::norm::row_lengths<xf::device, double>();
}

TEST_CASE("norms, axes, views, expressions, weights: device arrays", "[gpu][norm]") {
  xf_test::norm::layouts<xf::device, float>();
  xf_test::norm::layouts<xf::device, double>();
}

TEST_CASE("norms, rows of the split lengths: device arrays", "[gpu][norm][split]") {
  xf_test::norm::split_rows<xf::device, float>();
  xf_test::norm::split_rows<xf::device, double>();
}

TEST_CASE("norms, NaN, inf, constant rows, empty, half, errors: device arrays", "[gpu][norm]") {
  xf_test::norm::special_rows<xf::device, float>();
  xf_test::norm::special_rows<xf::device, double>();
  xf_test::norm::half_rows<xf::device>();
}

// A smaller set of split rows for the race checker: several rounds of the grid (each block's
// shared memory staged again).
TEST_CASE("rows split over blocks, small: device arrays", "[gpu][softmax][split_small]") {
  const auto v = xf_test::uniform<float>(300 * 16400, -20, 20);
  xf_test::softmax::check_rows<xf::device>(v, 300, 16400, 1, [](const auto& a) { return a; }, "split rows");
}
