// NumPy 2's exact answers on host arrays (tests/common/numpy_answers_cases.hpp).
#include "../common/numpy_answers_cases.hpp"

using namespace xf_test::numpy_answers;

TEST_CASE("integer comparisons are exact for every pair of integer types, as in NumPy 2", "[elementwise][host][numpy]") {
  integer_comparisons_are_exact<xf::host>(true);
}

TEST_CASE("C++ integers out of an array's range compare exactly; arithmetic with them throws", "[elementwise][host][numpy]") {
  scalar_comparisons_follow_numpy<xf::host>();
}

TEST_CASE("square, reciprocal, conj, angle, rint, hypot and shifts have NumPy's result types", "[elementwise][host][numpy]") {
  result_types_follow_numpy<xf::host>();
}

TEMPLATE_TEST_CASE("complex sqrt gives NumPy's values: C99 special cases, exact roots", "[elementwise][host][numpy][complex]",
                   xf::complex64, xf::complex128) {
  complex_sqrt_matches_numpy<xf::host, TestType>();
}

TEMPLATE_TEST_CASE("complex sqrt is within 2-3 ulp of long double over all magnitudes", "[elementwise][host][numpy][complex]",
                   xf::complex64, xf::complex128) {
  complex_sqrt_is_accurate<xf::host, TestType>();
}

TEMPLATE_TEST_CASE("complex power gives NumPy's values: integer exponents multiply", "[elementwise][host][numpy][complex]",
                   xf::complex64, xf::complex128) {
  complex_power_matches_numpy<xf::host, TestType>();
}

TEST_CASE("linspace gives NumPy's samples: num 0 and 1, endpoint, integer types", "[generators][host][numpy]") {
  linspace_matches_numpy<xf::host>();
}

TEST_CASE("fmax, fmin, copysign, heaviside, logaddexp(2), deg2rad, rad2deg and signbit give NumPy's answers", "[elementwise][host][numpy]") {
  float_helpers_match_numpy<xf::host>();
}

TEST_CASE("nextafter, ldexp, frexp, modf, divmod, sinc, float_power, gcd, lcm, nan_to_num, isclose, allclose, array_equal and round give NumPy's answers", "[elementwise][host][numpy]") {
  more_float_helpers_match_numpy<xf::host>();
}
