// xf::half without <xfuse/half.hpp>: core.hpp only names the 16-bit float types, so an array of
// them must fail to compile with a message naming the header to include.
#include <xfuse/core.hpp>

int main() {
  const xf::array<xf::half, 1, xf::host> a({3});
  return static_cast<int>(a.size());
}
