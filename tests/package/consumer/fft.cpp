// A program that uses an installed xfuse::fft: a transform of a host array against its known
// values, and the round trip back. Built by the host compiler.
#include <cmath>
#include <cstdio>
#include <vector>

#include <xfuse/fft.hpp>

int main() {
  const auto x = xf::asarray<double, xf::host>({1, 2, 3, 4});
  const auto spectrum = xf::to_host(xf::rfft(x));  // [10, -2+2j, -2]
  const auto back = xf::to_host(xf::irfft(xf::rfft(x), 4));
  const bool ok = spectrum.size() == 3 && std::abs(spectrum[0].real() - 10) < 1e-12 && std::abs(spectrum[1].imag() - 2) < 1e-12 &&
                  std::abs(spectrum[2].real() + 2) < 1e-12 && back.size() == 4 && std::abs(back[3] - 4) < 1e-12;
  if (!ok) {
    std::printf("fft consumer: rfft gave %zu values, [0] = %g\n", spectrum.size(), spectrum.empty() ? 0.0 : spectrum[0].real());
    return 4;
  }
  std::printf("fft consumer ok: rfft([1, 2, 3, 4])[1] = %g%+gj\n", spectrum[1].real(), spectrum[1].imag());
  return 0;
}
