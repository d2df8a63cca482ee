// SPDX-License-Identifier: Apache-2.0
// Library state kept per device and host thread (cuBLAS, cuSOLVER and cuFFT handles, plans and
// workspaces): a handle must not be used by two threads at once, and binding one costs
// microseconds.
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "device.hpp"
#include "error.hpp"

namespace xf::detail {

// The calling thread's State for device `dev`, default-constructed on first use; State::release()
// runs when the thread ends (the CUDA context may already be gone then: it must not throw).
template <class State>
State& thread_state_for(int dev, const char* op) {
  struct states {
    std::array<State, max_devices> each;
    ~states() {
      for (State& s : each) s.release();
    }
  };
  thread_local states cache;
  if (dev < 0 || dev >= max_devices)
    throw device_error(std::string(op) + ": device " + std::to_string(dev) + " out of range");
  return cache.each[static_cast<std::size_t>(dev)];
}

}  // namespace xf::detail
