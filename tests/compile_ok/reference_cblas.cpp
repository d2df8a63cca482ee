// Host linear algebra compiles against the reference CBLAS header (Debian's libblas-dev), not only
// OpenBLAS's: lapack.hpp uses only names every cblas.h declares. Built with -fsyntax-only by CTest,
// which puts a cblas.h that includes cblas-netlib.h first on the include path.
#include <xfuse/linalg.hpp>

int main() {
  const xf::array<float, 2, xf::host> a(xf::dims<2>{2, 2});
  const xf::array<double, 2, xf::host> b(xf::dims<2>{2, 2});
  const xf::array<xf::complex64, 2, xf::host> c(xf::dims<2>{2, 2});
  const xf::array<xf::complex128, 2, xf::host> d(xf::dims<2>{2, 2});
  const auto ab = xf::eval(xf::matmul(a, a.T()));
  const auto bb = xf::eval(xf::matmul(b, b));
  const auto cc = xf::eval(xf::matmul(c, c));
  const auto dd = xf::eval(xf::matmul(d, d));
  const auto x = xf::linalg::solve(b, b);
  return static_cast<int>(ab.size() + bb.size() + cc.size() + dd.size() + x.size());
}
