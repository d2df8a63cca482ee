// Must not compile: operand 1 is a matrix, its subscripts name three axes (CTest checks that the
// message names the operand, its subscripts and rank, and this file's line).
#include <xfuse/linalg.hpp>

int main() {
  const xf::array<double, 2, xf::host> a(xf::dims<2>{2, 3}), b(xf::dims<2>{3, 4});
  auto c = xf::einsum<"ij,ajk->ik">(a, b);  // line 7
  (void)c;
}
