// Must not compile: evaluating a device expression in a file built by the host compiler.
#include <xfuse/core.hpp>

int main() {
  xf::array<float, 1> d;
  xf::array<float, 1> e = d * 2;
  (void)e;
}
