// SPDX-License-Identifier: Apache-2.0
// Devices: queries with properties cached once, the current device, device_guard, peer access.
// `xf::device` is also the memory-space tag of device arrays; `xf::host` that of host arrays.
#pragma once

#include <string>
#include <vector>

#include "capture_state.hpp"
#include "error.hpp"

namespace xf {

struct host {};

class device {
 public:
  // The current device (like cp.cuda.Device()).
  device() : id_(current_id()) {}
  explicit device(int id) : id_(id) {
    if (id < 0 || id >= count())
      throw device_error("xf::device: no device " + std::to_string(id) + " (this machine has " +
                         std::to_string(count()) + ")");
  }

  int id() const noexcept { return id_; }

  // Number of CUDA devices; 0 when there is none or no driver (never throws).
  static int count() {
    static const int n = [] {
      int c = 0;
      if (cudaGetDeviceCount(&c) != cudaSuccess) {
        (void)cudaGetLastError();
        c = 0;
      }
      return c;
    }();
    return n;
  }

  static int current_id() {
    int d = 0;
    XF_CUDA_CHECK(cudaGetDevice(&d));
    return d;
  }

  static device current() { return device(); }

  void use() const { XF_CUDA_CHECK(cudaSetDevice(id_)); }

  // Waits for all work on this device (every stream).
  void synchronize() const;

  // Properties, read once per process.
  const cudaDeviceProp& properties() const;
  int multiprocessor_count() const { return properties().multiProcessorCount; }
  std::size_t total_memory() const { return properties().totalGlobalMem; }
  const char* name() const { return properties().name; }

  bool operator==(const device& o) const noexcept { return id_ == o.id_; }

 private:
  int id_;
};

// Makes a device current for a scope (like `with cp.cuda.Device(1):`); restores the previous one
// on every exit path, exceptions included.
class device_guard {
 public:
  explicit device_guard(int id) : previous_(device::current_id()) {
    if (id != previous_) {
      if (id < 0 || id >= device::count())
        throw device_error("xf::device_guard: no device " + std::to_string(id) + " (this machine has " +
                           std::to_string(device::count()) + ")");
      XF_CUDA_CHECK(cudaSetDevice(id));
    }
    switched_ = id != previous_;
  }
  explicit device_guard(const device& d) : device_guard(d.id()) {}
  ~device_guard() {
    if (switched_) XF_CUDA_CHECK_NOTHROW(cudaSetDevice(previous_));
  }
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;

 private:
  int previous_;
  bool switched_ = false;
};

namespace detail {

inline const std::vector<cudaDeviceProp>& all_properties() {
  static const std::vector<cudaDeviceProp> props = [] {
    std::vector<cudaDeviceProp> p(static_cast<std::size_t>(device::count()));
    for (int d = 0; d < device::count(); ++d) XF_CUDA_CHECK(cudaGetDeviceProperties(&p[d], d));
    return p;
  }();
  return props;
}

inline constexpr int max_devices = 64;

}  // namespace detail

inline const cudaDeviceProp& device::properties() const { return detail::all_properties().at(id_); }

inline void device::synchronize() const {
  detail::refuse_in_capture("xf::device::synchronize", "it waits for the device");
  device_guard g(id_);
  XF_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace xf
