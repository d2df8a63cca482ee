// Public names that no other test calls by name, on host arrays (tests/common/api_coverage_cases.hpp),
// and the ones with no device side: dtype traits, concepts and spaces (checked at compile time),
// the cuBLAS and cuFFT error types, benchmark options and summaries, named .npz entries and the
// DLPack constants. scripts/api_coverage.py (a CTest) fails when a public name is used by no test.
#include <cmath>
#include <string>
#include <vector>

#include <xfuse/benchmark.hpp>
#include <xfuse/fft.hpp>
#include <xfuse/interop.hpp>
#include <xfuse/npz.hpp>

#include "../common/api_coverage_cases.hpp"
#include "../common/interop_cases.hpp"
#include "../common/temp_path.hpp"

using namespace xf_test::api_coverage;

TEST_CASE("subtract, divide, remainder, the comparisons, logical and bitwise functions give NumPy's answers", "[host][api][numpy]") {
  named_operator_functions<xf::host>();
}

TEST_CASE("transpose, ravel, flip, diagonal, squeeze, swapaxes, permute and dsplit give NumPy's views", "[host][api][numpy]") {
  view_functions<xf::host>();
}

TEST_CASE("deferred reductions (prod, the nan reductions, ptp, any, all) and nanmean, nanmin, nanmax, any", "[host][api][numpy]") {
  deferred_and_nan_reductions<xf::host>();
}

TEST_CASE("empty_like, identity, keepdims_t, slice bounds, newaxis_t, fused_function and stat_length", "[host][api][numpy]") {
  creation_and_tags<xf::host>();
}

TEST_CASE("unique_all's result type holds NumPy's four arrays", "[host][api][numpy]") {
  unique_all_result_type<xf::host>();
}

TEST_CASE("rand, random_sample, randn, standard_normal, standard_exponential, standard_gamma and next_key", "[host][api][random]") {
  random_aliases<xf::host>();
}

TEST_CASE("ifft2 gives NumPy's answers and inverts fft2", "[host][api][fft][numpy]") {
  ifft2_values<xf::host>();
}

TEST_CASE("matmul_expr, matmul_options, the factorizations' result types, norm_order and linalg_error", "[host][api][linalg]") {
  linalg_names<xf::host>();
}

TEST_CASE("dtype kinds and traits, expression concepts and spaces classify types as NumPy's kinds do", "[host][api]") {
  static_assert(xf::kind_of<bool> == xf::kind::boolean && xf::kind_of<std::uint16_t> == xf::kind::unsigned_integer);
  static_assert(xf::kind_of<std::int8_t> == xf::kind::signed_integer && xf::kind_of<xf::half> == xf::kind::floating);
  static_assert(xf::kind_of<xf::complex64> == xf::kind::complex && xf::kind::boolean < xf::kind::complex);
  static_assert(xf::element<float> && xf::element<xf::bfloat16> && xf::element<xf::complex128>);
  static_assert(!xf::element<long double> && !xf::element<std::string> && !xf::element<char*>);
  static_assert(xf::is_floating<float> && xf::is_floating<xf::half> && !xf::is_floating<int> && !xf::is_floating<xf::complex64>);
  static_assert(xf::is_signed_integer<std::int64_t> && !xf::is_signed_integer<std::uint8_t> && !xf::is_signed_integer<bool>);
  static_assert(xf::is_unsigned_integer<std::uint32_t> && !xf::is_unsigned_integer<int> && !xf::is_unsigned_integer<bool>);
  static_assert(std::is_same_v<xf::real_of<xf::complex64>::type, float> && std::is_same_v<xf::real_of<int>::type, int>);
  const auto a = xf::asarray<int, xf::host>({1, 2, 3});
  static_assert(xf::expression<decltype(a)> && xf::expression<decltype(a * 2)> && !xf::expression<int>);
  static_assert(xf::weak_scalar<double> && xf::weak_scalar<xf::complex64> && !xf::weak_scalar<decltype(a)>);
  static_assert(xf::operand<decltype(a + 1)> && xf::operand<float> && !xf::operand<std::vector<float>>);
  // Generators have no space of their own (any_space): they take the space of what they meet.
  static_assert(std::is_same_v<xf::space_t<decltype(xf::arange<int>(3))>, xf::any_space>);
  static_assert(std::is_same_v<xf::common_space_t<xf::any_space, xf::host>, xf::host>);
  static_assert(std::is_same_v<xf::common_space_t<xf::device, xf::any_space, xf::device>, xf::device>);
  static_assert(std::is_void_v<xf::common_space_t<xf::host, xf::device>>);  // never mixed silently
  static_assert(std::is_same_v<xf::resolved_space_t<xf::any_space>, xf::device>);
  static_assert(std::is_same_v<xf::resolved_space_t<xf::host>, xf::host>);
  const auto mixed = a * 10 + xf::arange<int>(3);
  static_assert(std::is_same_v<xf::space_t<decltype(mixed)>, xf::host>);
  CHECK(xf::to_host(mixed) == std::vector<int>{10, 21, 32});
  CHECK(std::string(xf::name_of(xf::dtype_of<std::uint16_t>)) == "uint16");
}

TEST_CASE("cublas_error and cufft_error name the call, the status and its code", "[host][api][errors]") {
  const xf::cublas_error blas(CUBLAS_STATUS_INVALID_VALUE, "cublasDgemm_v2(handle, ...)");
  CHECK(blas.status() == CUBLAS_STATUS_INVALID_VALUE);
  CHECK_THAT(blas.what(), XF_CONTAINS("xf::cublas_error: cublasDgemm_v2(handle, ...) failed with CUBLAS_STATUS_INVALID_VALUE ("));
  const xf::error& base = blas;
  CHECK(std::string(base.what()) == blas.what());
  // What the library throws for a failed cuFFT call: CUFFT_INVALID_SIZE is 8 in cufft.h.
  try {
    xf::detail::check_cufft(CUFFT_INVALID_SIZE, "cufftMakePlanMany64", "a transform of length 0");
    FAIL("no xf::cufft_error");
  } catch (const xf::cufft_error& e) {
    CHECK(e.code() == CUFFT_INVALID_SIZE);
    CHECK(std::string(e.what()) == "xf::cufft_error: cufftMakePlanMany64 failed with CUFFT_INVALID_SIZE (8) for a transform of length 0");
  }
}

TEST_CASE("benchmark_options set the repeats and warm-ups; a summary holds mean, stddev, min, max, median", "[host][api][benchmark]") {
  int calls = 0;
  xf::benchmark_options options;
  options.n_repeat = 5;
  options.n_warmup = 2;
  options.gpu = false;
  const auto r = xf::benchmark("count", [&] { ++calls; }, options);
  CHECK(calls == 7);
  CHECK(r.cpu_us.size() == 5);
  CHECK(r.gpu_us.empty());
  const xf::benchmark_result::summary s = xf::benchmark_result::summarize({5, 1, 4, 2, 3});
  CHECK(s.mean == 3);
  CHECK(s.median == 3);
  CHECK(s.min == 1);
  CHECK(s.max == 5);
  CHECK(std::abs(s.stddev - std::sqrt(2.0)) < 1e-15);  // np.std([5, 1, 4, 2, 3])
}

TEST_CASE("an npz_entry names an array of an archive", "[host][api][npz]") {
  const xf_test::temp_path path(".npz");
  const auto ramp = xf::asarray<std::int16_t, xf::host>({3, -1, 4});
  const xf::npz_entry entry = xf::named("ramp", ramp);
  CHECK(entry.name == "ramp");
  CHECK(entry.value.data() == ramp.data());
  xf::savez(path.str(), entry);
  const auto npz = xf::load_npz(path.str());
  CHECK(npz.files() == std::vector<std::string>{"ramp"});
  CHECK(xf::to_host(npz.get<std::int16_t, 1, xf::host>("ramp")) == std::vector<std::int16_t>{3, -1, 4});
}

TEST_CASE("DLPack: the version written, the type codes, the flags and accept_read_only_t", "[host][api][interop]") {
  namespace dl = xf::dlpack;
  const auto a = xf::asarray<float, xf::host>({1.5f, -2, 4});
  dl::DLManagedTensorVersioned* t = xf::to_dlpack_versioned(a);
  CHECK(t->version.major == dl::major_version);
  CHECK(t->version.minor == dl::minor_version);
  const auto code = static_cast<dl::DLDataTypeCode>(t->dl_tensor.dtype.code);
  CHECK(code == dl::kDLFloat);
  CHECK(dl::flag_is_subbyte_type_padded == (std::uint64_t{1} << 2));  // dlpack.h's DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED
  CHECK((t->flags & dl::flag_is_subbyte_type_padded) == 0);
  const auto back = xf::from_dlpack<float, 1, xf::host>(t, dl::accept_read_only_t{});  // consumes t
  CHECK(back.data() == a.data());
  CHECK(xf::to_host(back) == std::vector<float>{1.5f, -2, 4});
  // A float format xfuse has no type for (dlpack.h's kDLFloat8_e4m3fn is 10) is refused by name.
  std::vector<std::uint8_t> bytes(4);
  xf_test::hand_tensor<dl::DLManagedTensorVersioned> f8(bytes.data(), {dl::kDLCPU, 0}, {dl::kDLFloat8_e4m3fn, 8, 1}, {4});
  const dl::DLDataTypeCode f8_code = dl::kDLFloat8_e4m3fn;
  CHECK(f8_code == 10);
  CHECK_THROWS_WITH((xf::from_dlpack<std::uint8_t, 1, xf::host>(f8.get())),
                    XF_CONTAINS("a float format xfuse has no type for (code 10, 8 bits)"));
  CHECK(f8.deleted == 0);
  f8.release();
}
