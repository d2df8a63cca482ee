// A program that uses an installed xfuse: host evaluation always, device evaluation with a GPU.
#include <cstdio>

#include <xfuse/xfuse.hpp>

int main() {
  const auto x = xf::asarray<float, xf::host>({1, 2, 3});
  const xf::array<float, 1, xf::host> y = xf::square(x - 1);
  if (xf::to_host(y) != std::vector<float>{0, 1, 4}) return 1;
  if (xf::device::count() > 0) {
    const xf::array<float, 1> d = xf::square(xf::asarray(x) - 1);
    if (xf::to_host(d) != std::vector<float>{0, 1, 4}) return 2;
  }
  std::printf("consumer ok: %s\n", xf::repr(y).c_str());
  return 0;
}
