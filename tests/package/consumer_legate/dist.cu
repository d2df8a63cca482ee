// A program that uses an installed xfuse::legate: one fused distributed statement and its sum,
// checked against the closed form. Legate programs need the CUDA driver to start.
#include <cstdio>

#include <xfuse/legate.hpp>

int main() {
  legate::start();
  float total = 0;
  {
    const auto x = xf::dist::arange<float>(1000);
    total = xf::dist::sum(x * 2.0f + 1.0f).item();  // sum of 2 i + 1 for i < 1000: 1000^2, exact in float
  }
  const int finished = legate::finish();
  if (total != 1000000.0f) {
    std::printf("legate consumer: sum gave %.9g, expected 1000000\n", double(total));
    return 5;
  }
  std::printf("legate consumer ok: sum = %.9g\n", double(total));
  return finished;
}
