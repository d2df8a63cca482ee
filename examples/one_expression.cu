// The smallest useful xfuse program: one fused expression. scripts/compile_time.sh times its build.
#include <xfuse/core.hpp>

int main() {
  const xf::array<float, 1, xf::host> hx = xf::arange<float>(1 << 20);
  if (xf::device::count() == 0) return 0;
  const auto x = xf::asarray(hx);
  const auto y = xf::asarray(hx);
  const xf::array<float, 1> z = (x - y) * (x - y) + 1;
  return z(0).item() == 1.0f ? 0 : 1;
}
