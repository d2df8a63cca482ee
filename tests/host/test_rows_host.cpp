// Fused rows on host arrays: softmax, log_softmax and logsumexp (tests/common/softmax_cases.hpp),
// layer_norm and rms_norm (tests/common/norm_cases.hpp).
#include "../common/norm_cases.hpp"
#include "../common/softmax_cases.hpp"

TEST_CASE("softmax family, every row length: host arrays", "[host][softmax]") {
  xf_test::softmax::row_lengths<xf::host, float>();
  xf_test::softmax::row_lengths<xf::host, double>();
}

TEST_CASE("softmax family, axes, views, expressions: host arrays", "[host][softmax]") {
  xf_test::softmax::layouts<xf::host, float>();
  xf_test::softmax::layouts<xf::host, double>();
}

TEST_CASE("softmax family, NaN, inf, empty, half: host arrays", "[host][softmax]") {
  xf_test::softmax::special_rows<xf::host, float>();
  xf_test::softmax::special_rows<xf::host, double>();
  xf_test::softmax::half_rows<xf::host>();
}

TEST_CASE("norms, every row length: host arrays", "[host][norm]") {
  xf_test::norm::row_lengths<xf::host, float>();
  xf_test::norm::row_lengths<xf::host, double>();
}

TEST_CASE("norms, axes, views, expressions, weights: host arrays", "[host][norm]") {
  xf_test::norm::layouts<xf::host, float>();
  xf_test::norm::layouts<xf::host, double>();
}

TEST_CASE("norms, NaN, inf, constant rows, empty, half, errors: host arrays", "[host][norm]") {
  xf_test::norm::special_rows<xf::host, float>();
  xf_test::norm::special_rows<xf::host, double>();
  xf_test::norm::half_rows<xf::host>();
}
