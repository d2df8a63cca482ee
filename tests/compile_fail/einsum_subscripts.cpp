// Must not compile: an output label that no operand has (CTest checks the message and that the
// compiler names this file's line).
#include <xfuse/linalg.hpp>

int main() {
  const xf::array<double, 2, xf::host> a(xf::dims<2>{2, 3}), b(xf::dims<2>{3, 4});
  auto c = xf::einsum<"ij,jk->iz">(a, b);  // line 7
  (void)c;
}
