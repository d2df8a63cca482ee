// Must not compile: a std::vector beside an expression (CTest checks that the message names
// xf::asarray instead of listing every operator+ in scope).
#include <vector>

#include <xfuse/core.hpp>

int main() {
  xf::array<float, 1, xf::host> x({4});
  std::vector<float> v(4);
  auto e = x + v;
  (void)e;
}
