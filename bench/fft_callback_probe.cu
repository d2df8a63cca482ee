// What a cuFFT LTO callback costs by itself: 4096 transforms of 4096 complex64 points (C2C,
// out of place) without a callback, with an identity load callback, and with a window callback
// (x * w[offset % 4096], 64-bit and 32-bit offsets). Prints the median of 21 timed runs (CUDA
// events) and the planning time of each. The callbacks are compiled by xfuse's NVRTC path.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include <xfuse/fft.hpp>

namespace {

float median_ms(cufftHandle plan, void* in, void* out) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i) cufftXtExec(plan, in, out, CUFFT_FORWARD);
  std::vector<float> t;
  for (int i = 0; i < 21; ++i) {
    cudaEventRecord(a);
    cufftXtExec(plan, in, out, CUFFT_FORWARD);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

int main() {
#if !XF_FFT_LTO_CALLBACKS
  std::printf("cuFFT's LTO callbacks need CUDA 13 (cuFFT 12.0) or newer\n");
  return 0;
#else
  const long long side = 4096;
  float2 *x = nullptr, *y = nullptr;
  float* w = nullptr;
  void** info_block = nullptr;
  cudaMalloc(&x, side * side * sizeof(float2));
  cudaMalloc(&y, side * side * sizeof(float2));
  cudaMalloc(&w, side * sizeof(float));
  cudaMalloc(&info_block, sizeof(void*));
  cudaMemset(x, 0, side * side * sizeof(float2));
  cudaMemset(w, 0, side * sizeof(float));
  cudaMemcpy(info_block, &w, sizeof(void*), cudaMemcpyHostToDevice);
  const char* head = "__device__ float2 xf_load(void* dataIn, unsigned long long offset, void* info, void* shared) {";
  const std::string sources[] = {
      "",
      std::string(head) + " return ((const float2*)dataIn)[offset]; }\n",
      std::string(head) +
          " const float* w = *(const float* const*)info; float2 v = ((const float2*)dataIn)[offset];"
          " float s = w[offset % 4096ull]; return make_float2(v.x * s, v.y * s); }\n",
      std::string(head) +
          " const float* w = *(const float* const*)info; unsigned o = (unsigned)offset; float2 v = ((const float2*)dataIn)[o];"
          " float s = w[o & 4095u]; return make_float2(v.x * s, v.y * s); }\n",
  };
  const char* names[] = {"no callback", "identity callback", "window callback, 64-bit offset", "window callback, 32-bit offset"};
  for (int k = 0; k < 4; ++k) {
    cufftHandle plan;
    xf::detail::check_cufft(cufftCreate(&plan), "cufftCreate");
    std::shared_ptr<const std::string> ir;
    if (!sources[k].empty()) {
      ir = xf::detail::lto_ir_of(sources[k], 0);
      void* info[1] = {info_block};
      xf::detail::check_cufft(cufftXtSetJITCallback(plan, "xf_load", ir->data(), ir->size(), CUFFT_CB_LD_COMPLEX, info),
                              "cufftXtSetJITCallback");
    }
    long long n[1] = {side};
    std::size_t work = 0;
    const auto t0 = std::chrono::steady_clock::now();
    xf::detail::check_cufft(cufftXtMakePlanMany(plan, 1, n, nullptr, 1, 0, CUDA_C_32F, nullptr, 1, 0, CUDA_C_32F, side, &work, CUDA_C_32F),
                            "cufftXtMakePlanMany");
    const double plan_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%-32s %.4f ms   (planning %.1f ms)\n", names[k], median_ms(plan, x, y), plan_ms);
    cufftDestroy(plan);
  }
  return 0;
#endif
}
