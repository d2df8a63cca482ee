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

// How long rows split over a GPU's blocks (rows/split_row_kernel.cuh), checked for every shape the
// device may meet: pieces cover the row, none empty, each within the shared memory a block is
// given, a multiple of 16 elements but the last, and a round of the grid within what the GPU holds.
TEST_CASE("long rows split over blocks: the arithmetic", "[host][softmax][split]") {
  using xf::index_t;
  using policy = xf::detail::split_row_policy;
  const std::vector<index_t> lengths{1, 15, 16, 2047, 2048, 4096, 16388, 65540, 100000, (1 << 20) + 4, 1 << 24, index_t(1) << 31};
  for (const index_t resident : {1, 7, 132 * 6, 114 * 6, 2000})
    for (const index_t element_bytes : {2, 4, 8, 12, 16})
      for (const index_t rows : {1, 2, 3, 64, 1000, 1 << 20})
        for (const index_t n : lengths) {
          const auto s = xf::detail::size_split_rows(n, element_bytes, rows, resident);
          INFO("n " << n << ", " << element_bytes << " bytes, " << rows << " rows, " << resident << " blocks");
          if (s.pieces == 0) {
            // Only rows that do not fit the GPU's share of shared memory are refused.
            CHECK(n * element_bytes > resident * (policy::max_piece_bytes - 16 * element_bytes));
            continue;
          }
          CHECK(s.length % policy::piece_step == 0);
          CHECK(s.bytes == static_cast<std::size_t>(s.length * element_bytes));
          CHECK(s.bytes <= static_cast<std::size_t>(policy::max_piece_bytes));
          CHECK((s.pieces - 1) * s.length < n);  // the last piece is not empty
          CHECK(s.pieces * s.length >= n);
          CHECK(s.rows_per_round >= 1);
          CHECK(s.rows_per_round <= rows);
          CHECK(s.rows_per_round * s.pieces <= resident);
        }
  // 64 rows of 2^20 floats on 132 SMs of six blocks: 128 pieces of 8192, six rows a round.
  const auto s = xf::detail::size_split_rows(index_t(1) << 20, 4, 64, 132 * 6);
  CHECK(s.pieces == 128);
  CHECK(s.length == 8192);
  CHECK(s.rows_per_round == 6);
}
