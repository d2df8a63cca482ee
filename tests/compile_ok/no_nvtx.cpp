// Must compile: the whole library with its NVTX ranges compiled out (XFUSE_DISABLE_NVTX), and the
// ranges gone (nvtxRangePushA is not even declared).
#define XFUSE_DISABLE_NVTX
#include <xfuse/xfuse.hpp>

#ifdef NVTX_VERSION
#error "XFUSE_DISABLE_NVTX still included NVTX"
#endif

int main() {
  const auto x = xf::asarray<float, xf::host>({1, 2, 3});
  return xf::sum(x * x).item() == 14.0f ? 0 : 1;
}
