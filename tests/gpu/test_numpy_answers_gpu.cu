// NumPy 2's exact answers on device arrays (tests/common/numpy_answers_cases.hpp): every result
// must equal the host evaluator's (bit for bit, or within a stated ulp count for complex math)
// and NumPy's printed values.
#include "../common/numpy_answers_cases.hpp"

using namespace xf_test::numpy_answers;

TEST_CASE("integer comparisons are exact, int64 with uint64 included, on device arrays", "[gpu][elementwise][numpy]") {
  integer_comparisons_are_exact<xf::device>(false);
}

TEST_CASE("C++ integers out of an array's range compare exactly on device arrays", "[gpu][elementwise][numpy]") {
  scalar_comparisons_follow_numpy<xf::device>();
}

TEST_CASE("square, reciprocal, conj, angle, rint, hypot and shifts have NumPy's result types on device arrays", "[gpu][elementwise][numpy]") {
  result_types_follow_numpy<xf::device>();
}

TEMPLATE_TEST_CASE("complex sqrt gives NumPy's values on device arrays", "[gpu][elementwise][numpy][complex]", xf::complex64,
                   xf::complex128) {
  complex_sqrt_matches_numpy<xf::device, TestType>();
  complex_sqrt_is_accurate<xf::device, TestType>();
}

TEMPLATE_TEST_CASE("complex power gives NumPy's values on device arrays", "[gpu][elementwise][numpy][complex]", xf::complex64,
                   xf::complex128) {
  complex_power_matches_numpy<xf::device, TestType>();
}

TEST_CASE("linspace gives NumPy's samples on device arrays", "[gpu][generators][numpy]") {
  linspace_matches_numpy<xf::device>();
}

TEST_CASE("fmax, fmin, copysign, heaviside, logaddexp(2), deg2rad, rad2deg and signbit give NumPy's answers on device arrays", "[gpu][elementwise][numpy]") {
  float_helpers_match_numpy<xf::device>();
}

TEST_CASE("nextafter, ldexp, frexp, modf, divmod, sinc, float_power, gcd, lcm, nan_to_num, isclose, allclose, array_equal and round give NumPy's answers on device arrays", "[gpu][elementwise][numpy]") {
  more_float_helpers_match_numpy<xf::device>();
}
