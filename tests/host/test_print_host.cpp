// Printing matches NumPy's repr and str (the expected strings were produced by NumPy 2.3 and 2.4).
#include <numeric>
#include <sstream>

#include "../common/catch.hpp"
#include <xfuse/xfuse.hpp>

namespace {
template <class T, int R>
using harray = xf::array<T, R, xf::host>;

template <class T, std::size_t N>
harray<T, static_cast<int>(N)> iota(const xf::index_t (&shape)[N], double scale = 1) {
  harray<T, static_cast<int>(N)> a(xf::detail::to_dims(shape));
  for (xf::index_t i = 0; i < a.size(); ++i) a.data()[i] = xf::detail::convert<T>(static_cast<double>(i) * scale);
  return a;
}
}  // namespace

TEST_CASE("repr matches NumPy", "[print][host]") {
  CHECK(xf::repr(iota<std::int32_t>({2, 3})) == "array([[0, 1, 2],\n       [3, 4, 5]], dtype=int32)");
  CHECK(xf::repr(xf::asarray<double, xf::host>({1.5, 2.25, -3.0})) == "array([ 1.5 ,  2.25, -3.  ])");
  CHECK(xf::repr(xf::asarray<float, xf::host>({1e-5f, 1.5e-5f})) == "array([1.0e-05, 1.5e-05], dtype=float32)");
  CHECK(xf::repr(xf::asarray<bool, xf::host>({true, false, true})) == "array([ True, False,  True])");
  CHECK(xf::repr(iota<double>({2000})) ==
        "array([0.000e+00, 1.000e+00, 2.000e+00, ..., 1.997e+03, 1.998e+03,\n       1.999e+03], shape=(2000,))");
  CHECK(xf::repr(iota<std::int64_t>({2, 3, 4})) ==
        "array([[[ 0,  1,  2,  3],\n        [ 4,  5,  6,  7],\n        [ 8,  9, 10, 11]],\n\n"
        "       [[12, 13, 14, 15],\n        [16, 17, 18, 19],\n        [20, 21, 22, 23]]])");
  CHECK(xf::repr(xf::asarray<xf::complex64, xf::host>({xf::complex64(1, 2), xf::complex64(3, -4.5f)})) ==
        "array([1.+2.j , 3.-4.5j], dtype=complex64)");
  CHECK(xf::repr(xf::asarray<double, xf::host>({NAN, INFINITY, -INFINITY, 1.0})) == "array([ nan,  inf, -inf,   1.])");
  CHECK(xf::repr(xf::asarray<xf::half, xf::host>({xf::half(0.1f), xf::half(2.f), xf::half(65504.f)})) ==
        "array([1.00e-01, 2.00e+00, 6.55e+04], dtype=float16)");
  CHECK(xf::repr(xf::asarray<double, xf::host>({3.5}, {1}).reshape(std::array<xf::index_t, 0>{})) == "array(3.5)");
  CHECK(xf::repr(xf::asarray<std::int32_t, xf::host>({7}, {1}).reshape(std::array<xf::index_t, 0>{})) ==
        "array(7, dtype=int32)");
  CHECK(xf::repr(harray<float, 1>({0})) == "array([], dtype=float32)");
  CHECK(xf::repr(harray<double, 2>({0, 3})) == "array([], shape=(0, 3), dtype=float64)");
  CHECK(xf::repr(iota<double>({30}, 1.5)) ==
        "array([ 0. ,  1.5,  3. ,  4.5,  6. ,  7.5,  9. , 10.5, 12. , 13.5, 15. ,\n"
        "       16.5, 18. , 19.5, 21. , 22.5, 24. , 25.5, 27. , 28.5, 30. , 31.5,\n"
        "       33. , 34.5, 36. , 37.5, 39. , 40.5, 42. , 43.5])");
  CHECK(xf::repr(iota<std::int16_t>({40, 50})) ==
        "array([[   0,    1,    2, ...,   47,   48,   49],\n       [  50,   51,   52, ...,   97,   98,   99],\n"
        "       [ 100,  101,  102, ...,  147,  148,  149],\n       ...,\n"
        "       [1850, 1851, 1852, ..., 1897, 1898, 1899],\n       [1900, 1901, 1902, ..., 1947, 1948, 1949],\n"
        "       [1950, 1951, 1952, ..., 1997, 1998, 1999]],\n      shape=(40, 50), dtype=int16)");
  CHECK(xf::repr(xf::asarray<std::uint8_t, xf::host>({0, 255})) == "array([  0, 255], dtype=uint8)");
  CHECK(xf::repr(xf::asarray<double, xf::host>({1e10, 1.0})) == "array([1.e+10, 1.e+00])");
  CHECK(xf::repr(xf::asarray<float, xf::host>({1.f / 3, 2.f / 3, 1.f})) ==
        "array([0.33333334, 0.6666667 , 1.        ], dtype=float32)");
  // Views print their logical order.
  CHECK(xf::repr(iota<std::int32_t>({2, 3}).T()) == "array([[0, 3],\n       [1, 4],\n       [2, 5]], dtype=int32)");
}

TEST_CASE("str and operator<< match NumPy's str (print)", "[print][host]") {
  using C = xf::complex128;
  auto scalar = [](auto v) {
    using T = decltype(v);
    return xf::asarray<T, xf::host>({v}, {1}).reshape(std::array<xf::index_t, 0>{});
  };
  CHECK(xf::str(iota<std::int32_t>({2, 3})) == "[[0 1 2]\n [3 4 5]]");
  CHECK(xf::str(xf::asarray<double, xf::host>({1.5, 2.25, -3.0})) == "[ 1.5   2.25 -3.  ]");
  CHECK(xf::str(xf::asarray<bool, xf::host>({true, false, true})) == "[ True False  True]");
  CHECK(xf::str(iota<double>({2000})) == "[0.000e+00 1.000e+00 2.000e+00 ... 1.997e+03 1.998e+03 1.999e+03]");
  CHECK(xf::str(iota<std::int64_t>({2, 3, 4})) ==
        "[[[ 0  1  2  3]\n  [ 4  5  6  7]\n  [ 8  9 10 11]]\n\n [[12 13 14 15]\n  [16 17 18 19]\n  [20 21 22 23]]]");
  CHECK(xf::str(xf::asarray<xf::complex64, xf::host>({xf::complex64(1, 2), xf::complex64(3, -4.5f)})) == "[1.+2.j  3.-4.5j]");
  CHECK(xf::str(harray<double, 1>({0})) == "[]");
  CHECK(xf::str(harray<double, 2>({0, 3})) == "[]");
  CHECK(xf::str(iota<double>({30}, 1.5)) ==
        "[ 0.   1.5  3.   4.5  6.   7.5  9.  10.5 12.  13.5 15.  16.5 18.  19.5\n"
        " 21.  22.5 24.  25.5 27.  28.5 30.  31.5 33.  34.5 36.  37.5 39.  40.5\n 42.  43.5]");
  CHECK(xf::str(iota<std::int16_t>({40, 50})) ==
        "[[   0    1    2 ...   47   48   49]\n [  50   51   52 ...   97   98   99]\n [ 100  101  102 ...  147  148  149]\n ...\n"
        " [1850 1851 1852 ... 1897 1898 1899]\n [1900 1901 1902 ... 1947 1948 1949]\n [1950 1951 1952 ... 1997 1998 1999]]");
  CHECK(xf::str(xf::asarray<double, xf::host>({NAN, INFINITY, -INFINITY, 1.0})) == "[ nan  inf -inf   1.]");
  // 0-d arrays print as NumPy's scalars: positional between 1e-4 and 1e16 (float32: 1e6, float16: 1e3).
  CHECK(xf::str(scalar(3.5)) == "3.5");
  CHECK(xf::str(scalar(1e16)) == "1e+16");
  CHECK(xf::str(scalar(1e15)) == "1000000000000000.0");
  CHECK(xf::str(scalar(1e-5)) == "1e-05");
  CHECK(xf::str(scalar(-0.0)) == "-0.0");
  CHECK(xf::str(scalar(-INFINITY)) == "-inf");
  CHECK(xf::str(scalar(std::int32_t{7})) == "7");
  CHECK(xf::str(scalar(true)) == "True");
  CHECK(xf::str(scalar(0.1f)) == "0.1");
  CHECK(xf::str(scalar(1.f / 3)) == "0.33333334");
  CHECK(xf::str(scalar(1e5f)) == "100000.0");
  CHECK(xf::str(scalar(1e6f)) == "1e+06");
  CHECK(xf::str(scalar(1.0e-4f)) == "1e-04");
  CHECK(xf::str(scalar(xf::half(0.1f))) == "0.1");
  CHECK(xf::str(scalar(xf::half(1000.f))) == "1e+03");
  CHECK(xf::str(scalar(C(1, 2))) == "(1+2j)");
  CHECK(xf::str(scalar(C(0, 2))) == "2j");
  CHECK(xf::str(scalar(C(1.5, -0.0))) == "(1.5-0j)");
  CHECK(xf::str(scalar(C(1e20, -3.25))) == "(1e+20-3.25j)");
  CHECK(xf::str(scalar(C(-0.0, 1))) == "(-0+1j)");
  std::ostringstream os;
  os << iota<std::int32_t>({2, 2});
  CHECK(os.str() == "[[0 1]\n [2 3]]");
}
