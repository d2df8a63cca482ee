// Must not compile: an expression over a host array and a device array (CTest checks the message).
#include <xfuse/core.hpp>

int main() {
  xf::array<float, 1, xf::host> h({4});
  xf::array<float, 1> d;
  auto e = h + d;
  (void)e;
}
