// SPDX-License-Identifier: Apache-2.0
// Events: record on a stream, wait, query, time between two events, make a stream wait.
#pragma once

#include <utility>

#include "stream.hpp"

namespace xf {

class event {
 public:
  // timing=false makes a lighter event that cannot be timed (cudaEventDisableTiming).
  explicit event(bool timing = true) : device_(device::current_id()) {
    XF_CUDA_CHECK(cudaEventCreateWithFlags(&e_, timing ? cudaEventDefault : cudaEventDisableTiming));
  }
  event(event&& o) noexcept : e_(std::exchange(o.e_, nullptr)), device_(o.device_) {}
  event& operator=(event&& o) noexcept {
    std::swap(e_, o.e_);
    std::swap(device_, o.device_);
    return *this;
  }
  event(const event&) = delete;
  event& operator=(const event&) = delete;
  ~event() {
    if (e_) XF_CUDA_CHECK_NOTHROW(cudaEventDestroy(e_));
  }

  // Records on the current stream, or on `s`.
  void record() { XF_CUDA_CHECK(cudaEventRecord(e_, detail::current_slot(device_).handle)); }
  void record(const stream& s) { XF_CUDA_CHECK(cudaEventRecord(e_, s.handle())); }

  void synchronize() const { XF_CUDA_CHECK(cudaEventSynchronize(e_)); }
  // True when the work before the recorded point is done (never blocks).
  bool done() const {
    const cudaError_t e = cudaEventQuery(e_);
    if (e == cudaErrorNotReady) {
      (void)cudaGetLastError();
      return false;
    }
    XF_CUDA_CHECK(e);
    return true;
  }

  cudaEvent_t handle() const noexcept { return e_; }
  int device_id() const noexcept { return device_; }

 private:
  cudaEvent_t e_ = nullptr;
  int device_;
};

// Milliseconds between two recorded, completed events (like cp.cuda.get_elapsed_time).
inline float elapsed_ms(const event& start, const event& end) {
  float ms = 0;
  XF_CUDA_CHECK(cudaEventElapsedTime(&ms, start.handle(), end.handle()));
  return ms;
}

inline void stream::wait(const event& e) const { XF_CUDA_CHECK(cudaStreamWaitEvent(handle_, e.handle(), 0)); }

inline event stream::record() const {
  device_guard g(device_);
  event e;
  e.record(*this);
  return e;
}

// The current stream waits for the event.
inline void wait(const event& e) {
  XF_CUDA_CHECK(cudaStreamWaitEvent(detail::current_slot().handle, e.handle(), 0));
}

}  // namespace xf
