// Bad input on host arrays (tests/common/bad_input_cases.hpp), and what needs no array at all:
// the memory limit setting, and the error a machine without a CUDA device or driver gives.
#include "../common/bad_input_cases.hpp"

using namespace xf_test::bad_input;

TEST_CASE("shapes too big or negative are refused where they are made: host arrays", "[host][errors]") {
  creation<xf::host>();
  views<xf::host>();
  manipulation<xf::host>();
}

TEST_CASE("wrap and from_dlpack refuse null pointers and overflowing layouts: host arrays", "[host][errors]") {
  foreign_memory<xf::host>();
}

TEST_CASE("host memory exhausted is xf::out_of_memory with the bytes asked for", "[host][errors]") {
  out_of_memory<xf::host>();
}

TEST_CASE("integer sums, products and scans wrap as NumPy's do: host arrays", "[host][reduce]") {
  wrapping_reductions<xf::host>();
}

TEST_CASE("XFUSE_GPU_MEMORY_LIMIT: bytes or a percentage, anything else is an error", "[host][memory]") {
  using xf::detail::parse_memory_limit;
  CHECK(parse_memory_limit(nullptr, 1000) == 0u);
  CHECK(parse_memory_limit("", 1000) == 0u);
  CHECK(parse_memory_limit("1073741824", 1000) == 1073741824u);
  CHECK(parse_memory_limit("18446744073709551615", 1000) == 18446744073709551615u);
  CHECK(parse_memory_limit("50%", 1000) == 500u);
  CHECK(parse_memory_limit("12.5%", 1000) == 125u);
  CHECK(parse_memory_limit("100%", 1000) == 1000u);
  CHECK(parse_memory_limit("0", 1000) == 0u);
  // Each of these used to be read as some number (or as no limit): inf, nan and 1e30 went
  // through a double-to-integer conversion out of range.
  for (const char* bad : {"lots", "inf", "nan", "-5", "1e30", "1e3", "0x10", " 5", "5 ", "150%", "%", "5%%", "1.5",
                          "18446744073709551616", "--1", "+5"}) {
    INFO(bad);
    require_refused<xf::error>([&] { parse_memory_limit(bad, 1000); }, "XFUSE_GPU_MEMORY_LIMIT='" + std::string(bad) + "'",
                               "give a whole number of bytes");
  }
}

TEST_CASE("without a CUDA device or driver, device work is xf::device_error saying so", "[host][errors]") {
  // Every CUDA check goes through this one function; both codes mean "nothing to run on".
  for (const cudaError_t code : {cudaErrorInsufficientDriver, cudaErrorNoDevice})
    require_refused<xf::device_error>([&] { xf::detail::throw_cuda_error(code, "cudaGetDevice(&d)", __FILE__, __LINE__); },
                                      "no CUDA device or driver", cudaGetErrorName(code));
  // Other codes stay xf::cuda_error.
  CHECK_THROWS_AS(xf::detail::throw_cuda_error(cudaErrorInvalidValue, "cudaMemcpy", __FILE__, __LINE__), xf::cuda_error);
  if (xf::device::count() == 0) {
    require_refused<xf::device_error>([] { xf::array<float, 1>(xf::dims<1>{3}); }, "no CUDA device or driver",
                                      "failed with");
  } else {
    const xf::array<float, 1> a(xf::dims<1>{3});
    CHECK(a.size() == 3);
  }
}
