// SPDX-License-Identifier: Apache-2.0
// A stand-in CUDA driver (libcuda.so.1) that reports that there is no device, for running the
// distributed suite's CPU configuration on machines without a CUDA driver: Legate's libraries link
// the driver, so without one they cannot load at all. Every entry point answers
// CUDA_ERROR_NO_DEVICE, and cuGetProcAddress hands out the same answer, so Realm finds no GPU and
// the CUDA runtime reports no device. Used by tests/legate/run.sh only where the real driver is
// missing and the configuration asks for no GPU (--gpus 0).
#include <cstring>

namespace {
constexpr int no_device = 100;  // CUDA_ERROR_NO_DEVICE
int answer_no_device() { return no_device; }
}  // namespace

extern "C" {
int cuInit(unsigned) { return no_device; }
int cuDeviceGetCount(int* count) {
  if (count != nullptr) *count = 0;
  return no_device;
}
int cuDriverGetVersion(int* version) {
  if (version != nullptr) *version = 13000;
  return 0;
}
int cuGetErrorName(int, const char** name) {
  if (name != nullptr) *name = "CUDA_ERROR_NO_DEVICE";
  return 0;
}
int cuGetErrorString(int, const char** text) {
  if (text != nullptr) *text = "no CUDA-capable device is detected (stand-in driver)";
  return 0;
}
int cuMemFree_v2(unsigned long long) { return no_device; }
int cuMemFreeHost(void*) { return no_device; }

static void* entry_point(const char* name) {
  if (std::strcmp(name, "cuGetErrorName") == 0) return reinterpret_cast<void*>(&cuGetErrorName);
  if (std::strcmp(name, "cuGetErrorString") == 0) return reinterpret_cast<void*>(&cuGetErrorString);
  if (std::strcmp(name, "cuDriverGetVersion") == 0) return reinterpret_cast<void*>(&cuDriverGetVersion);
  if (std::strcmp(name, "cuDeviceGetCount") == 0) return reinterpret_cast<void*>(&cuDeviceGetCount);
  if (std::strcmp(name, "cuInit") == 0) return reinterpret_cast<void*>(&cuInit);
  return reinterpret_cast<void*>(&answer_no_device);
}
int cuGetProcAddress_v2(const char* name, void** function, int, unsigned long long, int* found) {
  if (function != nullptr) *function = entry_point(name);
  if (found != nullptr) *found = 0;  // CU_GET_PROC_ADDRESS_SUCCESS
  return 0;
}
int cuGetProcAddress(const char* name, void** function, int, unsigned long long) {
  if (function != nullptr) *function = entry_point(name);
  return 0;
}
}
