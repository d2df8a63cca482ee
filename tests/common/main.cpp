// Test runner. Built twice: as the host suite's main, and with XF_GPU_SUITE as the GPU suite's.
// Without a CUDA device the GPU suite exits with 77, which CTest reports as "Skipped" (never as
// passed); listing tests works without a device, so CTest can discover them.
#define CATCH_CONFIG_RUNNER
#include "catch.hpp"

#include <cstdio>
#include <cstring>

#include "random.hpp"

#ifdef XF_GPU_SUITE
#include <cuda_runtime_api.h>
#endif

int main(int argc, char** argv) {
  bool listing = false;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--list", 6) == 0 || std::strcmp(argv[i], "-l") == 0) listing = true;
#ifdef XF_GPU_SUITE
#ifndef XF_MIN_DEVICES
#define XF_MIN_DEVICES 1
#endif
  if (!listing) {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n < XF_MIN_DEVICES) {
      std::printf("SKIPPED: this test needs %d CUDA device(s) (cudaGetDeviceCount: %s, %d found)\n", XF_MIN_DEVICES,
                  e == cudaSuccess ? "ok" : cudaGetErrorName(e), e == cudaSuccess ? n : 0);
      return 77;
    }
  }
#endif
  if (!listing) std::printf("xfuse tests: random seed %llu (set XFUSE_TEST_SEED to repeat)\n",
                            static_cast<unsigned long long>(xf_test::seed()));
  return xf_run_catch(argc, argv);
}
