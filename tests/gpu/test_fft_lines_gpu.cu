// Transforms in xfuse's own kernel (fft/line_kernel.cuh, on cuFFTDx): at every covered length
// equal to cuFFT's (the same calls with the line kernels switched off), the operand
// read in the kernel, the consumer run in its store, irfft(rfft(x) * H) as one kernel (one graph
// node), NaN and inf, views, empty arrays, and the calls the kernel leaves to cuFFT.
#include <cmath>
#include <limits>
#include <vector>

#include <xfuse/graph.hpp>

#include "../common/fft_cases.hpp"

using namespace xf_test;

namespace {

// Skips (never passes) where the line kernels cannot run: xfuse built without cuFFTDx, or a
// device other than sm_90.
bool line_kernels_here() {
  return xf::fft_line_kernels() && xf::device(xf::device::current_id()).properties().major == 9;
}
#define REQUIRE_LINE_KERNELS() \
  if (!line_kernels_here()) XF_SKIP("the line kernels are switched off, or the device is not sm_90: the transforms run on cuFFT")

// The line kernels switched off for one scope: the reference results come from cuFFT.
struct on_cufft {
  on_cufft() { xf::set_fft_line_kernels(false); }
  ~on_cufft() { xf::set_fft_line_kernels(true); }
};

template <class T>
using cx = xf::complex<T>;

// Complex values with random real and imaginary parts in [-1, 1].
template <class T, int R>
xf::array<cx<T>, R> random_complex(const xf::dims<R>& shape) {
  const auto n = static_cast<std::size_t>(xf::detail::product(shape));
  const auto re = uniform<T>(n, -1, 1), im = uniform<T>(n, -1, 1);
  std::vector<cx<T>> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = cx<T>(re[i], im[i]);
  return xf::asarray<cx<T>>(v, shape);
}

template <class T>
void lengths_equal_cufft() {
  const double tol = fft_tol<T>() * 4;
  for (xf::index_t n = xf::detail::line_min_length; n <= xf::detail::line_max_length<T>; n *= 2) {
    const std::string what = std::to_string(n) + " points, " + (sizeof(T) == 4 ? "float32" : "float64");
    const auto x = random_array<T, xf::device, 2>({5, n});
    const auto c = random_complex<T, 2>({3, n});
    xf::array<cx<T>, 2> r_ref, f_ref, i_ref, pad_ref, rpad_ref, cut_ref;
    xf::array<T, 2> ir_ref, rt_ref;
    const auto h = random_complex<T, 1>({n / 2 + 1});
    {
      const on_cufft off;
      r_ref = xf::rfft(x * T(2) - T(1));
      f_ref = xf::fft(c);
      i_ref = xf::ifft(c, std::nullopt, -1, xf::fft_norm::ortho);
      ir_ref = xf::irfft(c, n, -1, xf::fft_norm::forward);
      rt_ref = xf::irfft(xf::rfft(x) * h, n);
      pad_ref = xf::fft(x(xf::all, xf::slice(0, n - 3)), n);
      rpad_ref = xf::rfft(x(xf::all, xf::slice(0, n - 3)), n);
      cut_ref = xf::rfft(xf::concatenate({x, x}, 1), n);
    }
    require_fft_close(xf::rfft(x * T(2) - T(1)), ref_of(r_ref), tol, "rfft of an expression, " + what);
    require_fft_close(xf::fft(c), ref_of(f_ref), tol, "fft, " + what);
    require_fft_close(xf::ifft(c, std::nullopt, -1, xf::fft_norm::ortho), ref_of(i_ref), tol, "ifft ortho, " + what);
    require_fft_close(xf::irfft(c, n, -1, xf::fft_norm::forward), ref_of(ir_ref), tol, "irfft forward norm, " + what);
    require_fft_close(xf::irfft(xf::rfft(x) * h, n), ref_of(rt_ref), tol, "round trip, " + what);
    require_fft_close(xf::fft(x(xf::all, xf::slice(0, n - 3)), n), ref_of(pad_ref), tol, "fft zero-padded, " + what);
    require_fft_close(xf::rfft(x(xf::all, xf::slice(0, n - 3)), n), ref_of(rpad_ref), tol, "rfft of an odd count zero-padded, " + what);
    require_fft_close(xf::rfft(xf::concatenate({x, x}, 1), n), ref_of(cut_ref), tol, "rfft truncated, " + what);
  }
}

}  // namespace

TEST_CASE("line kernels equal cuFFT at every covered length", "[gpu][fft][fft_lines]") {
  REQUIRE_LINE_KERNELS();
  lengths_equal_cufft<float>();
  lengths_equal_cufft<double>();
}

TEST_CASE("irfft(rfft(x) * H) runs as one kernel and equals the transforms one by one", "[gpu][fft][fft_lines]") {
  REQUIRE_LINE_KERNELS();
  const xf::index_t rows = 37, n = 4096, half = n / 2 + 1;
  const auto x = random_array<float, xf::device, 2>({rows, n});
  const auto h_row = random_complex<float, 1>({half});
  const auto h_full = random_array<float, xf::device, 2>({rows, half});
  const double tol = fft_tol<float>() * 4;

  xf::array<float, 2> want_row, want_full, want_pre;
  {
    const on_cufft off;
    want_row = xf::irfft(xf::rfft(x) * h_row);
    want_full = xf::irfft(xf::rfft(x * 0.5f) * xf::exp(-h_full), n, -1, xf::fft_norm::ortho);
    want_pre = xf::eval(xf::irfft(xf::rfft(x) * h_row) * 2.0f + x);
  }
  require_fft_close(xf::irfft(xf::rfft(x) * h_row), ref_of(want_row), tol, "a filter row broadcast over the rows");
  require_fft_close(xf::irfft(xf::rfft(x * 0.5f) * xf::exp(-h_full), n, -1, xf::fft_norm::ortho), ref_of(want_full), tol,
                    "a filter per row, expressions in and between, ortho norm");
  xf::array<float, 2> y({rows, n});
  y.assign(xf::irfft(xf::rfft(x) * h_row) * 2.0f + x);
  require_fft_close(y, ref_of(want_pre), tol, "the round trip inside an expression, into a preallocated array");

  // One kernel: the recorded statement is one graph node.
  const xf::graph g = xf::capture([&] { y.assign(xf::irfft(xf::rfft(x) * h_row)); });
  CHECK(g.node_count() == 1);
  y.assign(xf::zeros<float>({rows, n}));
  g.launch();
  require_fft_close(y, ref_of(want_row), tol, "the recorded round trip, replayed");

  // The same transform in place: x is read whole before it is written, so NumPy's answer.
  auto z = x.copy();
  z.assign(xf::irfft(xf::rfft(z) * h_row));
  require_fft_close(z, ref_of(want_row), tol, "written over its own input");
}

TEST_CASE("a NaN or inf poisons its own line only, as on cuFFT", "[gpu][fft][fft_lines]") {
  REQUIRE_LINE_KERNELS();
  const xf::index_t rows = 6, n = 1024;
  auto values = uniform<float>(static_cast<std::size_t>(rows * n), -1, 1);
  values[static_cast<std::size_t>(2 * n + 17)] = std::numeric_limits<float>::quiet_NaN();
  values[static_cast<std::size_t>(4 * n)] = std::numeric_limits<float>::infinity();
  const auto x = xf::asarray<float>(values, xf::dims<2>{rows, n});
  const auto y = xf::to_host(xf::eval(xf::irfft(xf::rfft(x) * 3.0f)));
  const auto s = xf::to_host(xf::eval(xf::abs(xf::rfft(x))));
  for (xf::index_t r = 0; r < rows; ++r) {
    bool any_nan = false;
    for (xf::index_t k = 0; k < n; ++k) any_nan = any_nan || std::isnan(y[static_cast<std::size_t>(r * n + k)]);
    INFO("row " << r);
    CHECK(any_nan == (r == 2 || r == 4));
    if (r == 2 || r == 4) continue;
    for (xf::index_t k = 0; k < n; ++k) {
      const auto i = static_cast<std::size_t>(r * n + k);
      REQUIRE(std::abs(y[i] - 3.0f * values[i]) <= 1e-4f);
    }
  }
  CHECK(std::isnan(s[2 * (n / 2 + 1) + 5]));
  CHECK(std::isinf(s[4 * (n / 2 + 1)]));  // the sum of a line holding +inf
}

TEST_CASE("consumers run in the transform's store; views, broadcasts and empty arrays", "[gpu][fft][fft_lines]") {
  REQUIRE_LINE_KERNELS();
  const xf::index_t n = 256;
  const auto c = random_complex<float, 2>({40, n});
  const auto a = random_array<float, xf::device, 2>({n, 40});
  const auto row = random_array<float, xf::device, 1>({n});
  const double tol = fft_tol<float>() * 4;
  xf::array<float, 2> power_ref;
  xf::array<cx<float>, 2> t_ref, rev_ref, b_ref;
  {
    const on_cufft off;
    power_ref = xf::eval(xf::abs(xf::fft(c)) * 2.0f);
    t_ref = xf::rfft(a.T());
    rev_ref = xf::rfft(a.T()(xf::all, xf::slice(xf::_, xf::_, -1)));
    b_ref = xf::rfft(row + xf::zeros<float>({7, 1}));
  }
  xf::array<float, 2> power({40, n});
  power.assign(xf::abs(xf::fft(c)) * 2.0f);
  require_fft_close(power, ref_of(power_ref), tol, "abs(fft(c)) * 2 in the store");
  require_fft_close(xf::rfft(a.T()), ref_of(t_ref), tol, "the lines of a transposed array");
  require_fft_close(xf::rfft(a.T()(xf::all, xf::slice(xf::_, xf::_, -1))), ref_of(rev_ref), tol, "lines read backwards");
  require_fft_close(xf::rfft(row + xf::zeros<float>({7, 1})), ref_of(b_ref), tol, "a row broadcast to 7 lines");

  // Straight into a piece of a larger array (unit stride along the axis, rows further apart).
  xf::array<cx<float>, 2> big = xf::full<cx<float>>({40, n + 9}, cx<float>(5, 5));
  auto piece = big(xf::all, xf::slice(3, 3 + n));
  piece.assign(xf::fft(c));
  {
    const on_cufft off;
    const xf::array<cx<float>, 2> f = xf::fft(c);
    require_fft_close(piece.copy(), ref_of(f), tol, "written straight into a view");
  }
  CHECK(xf::to_host(big)[0] == cx<float>(5, 5));
  CHECK(xf::to_host(big)[static_cast<std::size_t>(n + 3)] == cx<float>(5, 5));

  const auto empty = xf::zeros<float>({0, n});
  CHECK(xf::rfft(empty).shape() == xf::dims<2>{0, n / 2 + 1});
  CHECK(xf::irfft(xf::rfft(empty)).shape() == xf::dims<2>{0, n});
}

TEST_CASE("calls the line kernels leave to cuFFT still give cuFFT's answers", "[gpu][fft][fft_lines]") {
  REQUIRE_LINE_KERNELS();
  const auto x = random_array<double, xf::device, 2>({8, 96});  // 96 points: not covered
  const auto y = random_array<float, xf::device, 2>({256, 12});  // along axis 0: not the last axis
  xf::array<xf::complex128, 2> w1;
  xf::array<xf::complex64, 2> w2;
  xf::array<double, 2> w3;
  {
    const on_cufft off;
    w1 = xf::rfft(x);
    w2 = xf::fft(y, std::nullopt, 0);
    w3 = xf::irfft(xf::rfft(x) * 2.0);
  }
  require_fft_close(xf::rfft(x), ref_of(w1), 1e-12, "96 points");
  require_fft_close(xf::fft(y, std::nullopt, 0), ref_of(w2), 2e-5, "along axis 0");
  require_fft_close(xf::irfft(xf::rfft(x) * 2.0), ref_of(w3), 1e-12, "a round trip of 96 points");
}
