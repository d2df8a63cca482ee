// A program that uses an installed xfuse::linalg: solves a linear system on host arrays (LAPACK)
// and checks it against the known solution and the product A x (BLAS). Built by the host compiler.
#include <cmath>
#include <cstdio>
#include <vector>

#include <xfuse/linalg.hpp>

int main() {
  // A x = b with x = [1, -2, 3].
  const auto a = xf::asarray<double, xf::host>(std::vector<double>{4, 2, 0, 2, 5, 1, 0, 1, 3}, {3, 3});
  const auto b = xf::asarray<double, xf::host>(std::vector<double>{0, -5, 7}, {3});
  const std::vector<double> want{1, -2, 3};
  const auto x = xf::linalg::solve(a, b);
  const std::vector<double> got = xf::to_host(x);
  const std::vector<double> ax = xf::to_host(xf::matmul(a, x));
  const std::vector<double> bh = xf::to_host(b);
  if (got.size() != want.size() || ax.size() != bh.size()) return 3;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (std::abs(got[i] - want[i]) > 1e-12 || std::abs(ax[i] - bh[i]) > 1e-12) {
      std::printf("linalg consumer: solve gave [%g, %g, %g], A x = [%g, %g, %g]; expected [%g, %g, %g], b = [%g, %g, %g]\n",
                  got[0], got[1], got[2], ax[0], ax[1], ax[2], want[0], want[1], want[2], bh[0], bh[1], bh[2]);
      return 4;
    }
  }
  std::printf("linalg consumer ok: x = [%g, %g, %g]\n", got[0], got[1], got[2]);
  return 0;
}
