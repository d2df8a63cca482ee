// Boolean-mask and integer-array indexing, insert, delete_ and put_along_axis on device arrays (tests/common/indexing_cases.hpp).
#include "../common/indexing_cases.hpp"

using namespace xf_test::indexing;

TEST_CASE("a(mask) selects what loops over the values select on device arrays", "[indexing][gpu]") {
  mask_selection_matches_loops<xf::device>();
}

TEST_CASE("a(mask) = v, a(mask) op= v write what loops write on device arrays", "[indexing][gpu]") {
  mask_assignment_matches_loops<xf::device>();
}

TEST_CASE("extract, place and putmask give NumPy's answers on device arrays", "[indexing][gpu][numpy]") {
  extract_place_putmask_match_numpy<xf::device>();
}

TEST_CASE("a(idx), a(xf::all, idx) read and written give NumPy's answers on device arrays", "[indexing][gpu][numpy]") {
  index_arrays_match_numpy<xf::device>();
}

TEST_CASE("insert, delete_ and put_along_axis give NumPy's answers on device arrays", "[indexing][manip][gpu][numpy]") {
  insert_delete_put_along_axis_match_numpy<xf::device>();
}
