// SPDX-License-Identifier: Apache-2.0
// CUDA source to LTO-IR, the form cuFFT links callbacks from: NVRTC with -dlto for the device's
// architecture, once per (source, architecture) for the process. A failed compile is an xf::error
// carrying NVRTC's log (the source is generated: a failure is a bug in xfuse, not in the caller's
// expression). Also the switch that turns the callbacks on (XFUSE_FFT_CALLBACKS=1 or
// xf::set_fft_callbacks(true)); they are off by default: with CUDA 13.0's cuFFT a plan with any
// callback runs JIT-linked kernels that took 3x the time of its built-in ones on an H200
// (docs/performance.md), more than the pass a callback saves.
#pragma once

#include <nvrtc.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "../base/device.hpp"
#include "../base/env_switch.hpp"
#include "../base/error.hpp"

namespace xf {
namespace detail {
inline std::atomic<int>& fft_callbacks_setting() {
  static std::atomic<int> setting{env_switch("XFUSE_FFT_CALLBACKS", false) ? 1 : 0};
  return setting;
}
}  // namespace detail

// Whether transforms evaluate element-wise operands in cuFFT's loads (LTO callbacks) instead of
// in one xfuse kernel that writes cuFFT's input block. Off unless turned on.
inline bool fft_callbacks() { return detail::fft_callbacks_setting().load() != 0; }
inline void set_fft_callbacks(bool on) { detail::fft_callbacks_setting().store(on ? 1 : 0); }

namespace detail {

inline void check_nvrtc(nvrtcResult r, const char* call, const std::string& log = {}) {
  if (r == NVRTC_SUCCESS) return;
  throw error(std::string("xf::fft: ") + call + " failed with " + nvrtcGetErrorString(r) + (log.empty() ? "" : ":\n" + log));
}

// The LTO-IR of `source` for device `dev`'s architecture (compute capability major * 10 + minor).
inline std::shared_ptr<const std::string> lto_ir_of(const std::string& source, int dev) {
  static std::mutex guard;
  static std::map<std::pair<std::string, int>, std::shared_ptr<const std::string>> made;
  int major = 0, minor = 0;
  XF_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  XF_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
  const int arch = major * 10 + minor;
  std::lock_guard<std::mutex> lock(guard);
  if (auto it = made.find({source, arch}); it != made.end()) return it->second;
  nvrtcProgram program{};
  check_nvrtc(nvrtcCreateProgram(&program, source.c_str(), "xfuse_fft_callback.cu", 0, nullptr, nullptr), "nvrtcCreateProgram");
  struct destroy {
    nvrtcProgram* p;
    ~destroy() { (void)nvrtcDestroyProgram(p); }
  } cleanup{&program};
  const std::string arch_option = "-arch=compute_" + std::to_string(arch);
  const char* options[] = {arch_option.c_str(), "-dlto", "--std=c++17"};
  const nvrtcResult compiled = nvrtcCompileProgram(program, 3, options);
  if (compiled != NVRTC_SUCCESS) {
    std::size_t size = 0;
    (void)nvrtcGetProgramLogSize(program, &size);
    std::string log(size, '\0');
    (void)nvrtcGetProgramLog(program, log.data());
    check_nvrtc(compiled, "nvrtcCompileProgram", log + "\nsource:\n" + source);
  }
  std::size_t size = 0;
  check_nvrtc(nvrtcGetLTOIRSize(program, &size), "nvrtcGetLTOIRSize");
  auto ir = std::make_shared<std::string>(size, '\0');
  check_nvrtc(nvrtcGetLTOIR(program, ir->data()), "nvrtcGetLTOIR");
  made.emplace(std::make_pair(source, arch), ir);
  return ir;
}

}  // namespace detail
}  // namespace xf
