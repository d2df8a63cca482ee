// Boolean-mask and integer-array indexing, insert, delete_ and put_along_axis on host arrays (tests/common/indexing_cases.hpp).
#include "../common/indexing_cases.hpp"

using namespace xf_test::indexing;

TEST_CASE("a(mask) selects what loops over the values select", "[indexing][host]") {
  mask_selection_matches_loops<xf::host>();
}

TEST_CASE("a(mask) = v, a(mask) op= v write what loops write", "[indexing][host]") {
  mask_assignment_matches_loops<xf::host>();
}

TEST_CASE("extract, place and putmask give NumPy's answers", "[indexing][host][numpy]") {
  extract_place_putmask_match_numpy<xf::host>();
}

TEST_CASE("a(idx), a(xf::all, idx) read and written give NumPy's answers", "[indexing][host][numpy]") {
  index_arrays_match_numpy<xf::host>();
}

TEST_CASE("insert, delete_ and put_along_axis give NumPy's answers", "[indexing][manip][host][numpy]") {
  insert_delete_put_along_axis_match_numpy<xf::host>();
}

TEST_CASE("the indexing example of the guide", "[indexing][host][docs]") {
  // example-begin indexing
  auto x = xf::asarray<float, xf::host>({-2, 5, -1, 3, 0, 7}, {2, 3});
  const xf::array<float, 1, xf::host> pos = x(x > 0);     // x[x > 0] = [5, 3, 7]: one host read (the count)
  x(x < 0) = 0;                                          // x[x < 0] = 0: one fused kernel, no host read
  x(x > 4) *= 2;                                         // [[0, 10, 0], [3, 0, 14]]
  const auto rows = xf::asarray<std::int64_t, xf::host>({1, 0, 1});
  const xf::array<float, 2, xf::host> r = x(rows);       // x[[1, 0, 1]]: shape (3, 3)
  x(xf::all, xf::asarray<int, xf::host>({2, 0})) = -1;   // x[:, [2, 0]] = -1: one scatter
  const auto s = xf::sum(x(rows));                       // the gathered rows as an operand: 4
  const auto y = xf::insert(x, 1, 9.0f, 1);              // np.insert(x, 1, 9, axis=1): shape (2, 4)
  const auto z = xf::delete_(x, {0}, 1);                 // np.delete(x, [0], axis=1): shape (2, 2)
  // example-end
  CHECK(xf::to_host(pos) == std::vector<float>{5, 3, 7});
  CHECK(xf::to_host(r) == std::vector<float>{3, 0, 14, 0, 10, 0, 3, 0, 14});
  CHECK(xf::to_host(x) == std::vector<float>{-1, 10, -1, -1, 0, -1});
  CHECK(s.item() == 4);
  CHECK(xf::to_host(y) == std::vector<float>{-1, 9, 10, -1, -1, 9, 0, -1});
  CHECK(xf::to_host(z) == std::vector<float>{10, -1, 0, -1});
}
