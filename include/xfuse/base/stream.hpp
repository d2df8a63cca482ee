// SPDX-License-Identifier: Apache-2.0
// Streams: xf::stream (a shared RAII handle), the per-thread current stream, stream_guard.
// Work is ordered on the current stream of the current device; the default is the per-thread
// default stream (cudaStreamPerThread), so threads do not serialise on the legacy stream.
#pragma once

#include <utility>

#include "atomic.hpp"
#include "device.hpp"

namespace xf {

class event;
class stream;

namespace detail {
struct stream_owner;
stream_owner* stream_owner_of(const stream& s) noexcept;

// A stream xfuse created. The xf::stream handles naming it and every block of memory allocated on
// it hold a reference, so memory is always freed on a live stream.
struct stream_owner {
  cudaStream_t handle = nullptr;
  int device = 0;
  atomic<int> refs{1};

  void retain() noexcept { refs.fetch_add(1, order::relaxed); }
  void release() noexcept {
    if (refs.fetch_sub(1, order::acq_rel) == 1) {
      device_guard g(device);
      XF_CUDA_CHECK_NOTHROW(cudaStreamDestroy(handle));
      delete this;
    }
  }
};

// The current stream of one device for this thread. Constant-initialised: no TLS guard on access.
struct stream_slot {
  cudaStream_t handle = cudaStreamPerThread;
  stream_owner* owner = nullptr;  // null for streams xfuse does not own
};

inline stream_slot& current_slot(int dev) {
  thread_local stream_slot slots[max_devices];
  return slots[dev];
}

inline stream_slot& current_slot() { return current_slot(device::current_id()); }

}  // namespace detail

class stream {
 public:
  enum flags : unsigned { blocking = cudaStreamDefault, non_blocking = cudaStreamNonBlocking };

  // A new stream on the current device (like cp.cuda.Stream(non_blocking=...)).
  explicit stream(flags f = blocking, int priority = 0) : owner_(new detail::stream_owner) {
    owner_->device = device::current_id();
    const cudaError_t e = cudaStreamCreateWithPriority(&owner_->handle, f, priority);
    if (e != cudaSuccess) {
      delete owner_;
      detail::throw_cuda_error(e, "cudaStreamCreateWithPriority(&handle, f, priority)", __FILE__,
                               __LINE__);
    }
    handle_ = owner_->handle;
    device_ = owner_->device;
  }

  // A stream xfuse does not own (the per-thread or legacy default stream, or one from elsewhere).
  static stream wrap(cudaStream_t h, int device_id) { return stream(h, device_id, nullptr); }
  static stream per_thread() { return wrap(cudaStreamPerThread, device::current_id()); }
  static stream legacy() { return wrap(cudaStreamLegacy, device::current_id()); }

  stream(const stream& o) noexcept : handle_(o.handle_), device_(o.device_), owner_(o.owner_) {
    if (owner_) owner_->retain();
  }
  stream(stream&& o) noexcept : handle_(o.handle_), device_(o.device_), owner_(std::exchange(o.owner_, nullptr)) {}
  stream& operator=(stream o) noexcept {
    std::swap(handle_, o.handle_);
    std::swap(device_, o.device_);
    std::swap(owner_, o.owner_);
    return *this;
  }
  ~stream() {
    if (owner_) owner_->release();
  }

  cudaStream_t handle() const noexcept { return handle_; }
  int device_id() const noexcept { return device_; }

  // Blocks the host until all work queued on the stream is done.
  void synchronize() const {
    detail::refuse_in_capture("xf::stream::synchronize", "it waits for the device");
    XF_CUDA_CHECK(cudaStreamSynchronize(handle_));
  }
  // True when all queued work is done (never blocks).
  bool done() const {
    const cudaError_t e = cudaStreamQuery(handle_);
    if (e == cudaErrorNotReady) {
      (void)cudaGetLastError();
      return false;
    }
    XF_CUDA_CHECK(e);
    return true;
  }
  // Later work on this stream waits for the event (no host block).
  void wait(const event& e) const;
  // Records a new event on this stream.
  event record() const;

  bool operator==(const stream& o) const noexcept { return handle_ == o.handle_ && device_ == o.device_; }

 private:
  friend class stream_guard;
  friend stream current_stream();
  friend detail::stream_owner* detail::stream_owner_of(const stream& s) noexcept;
  stream(cudaStream_t h, int d, detail::stream_owner* o) : handle_(h), device_(d), owner_(o) {}

  cudaStream_t handle_ = cudaStreamPerThread;
  int device_ = 0;
  detail::stream_owner* owner_ = nullptr;
};

namespace detail {
// The owner of a stream xfuse made (null for streams it does not own): blocks allocated on the
// stream hold it.
inline stream_owner* stream_owner_of(const stream& s) noexcept { return s.owner_; }
}  // namespace detail

// The current stream of the current device for this thread.
inline stream current_stream() {
  const int d = device::current_id();
  const detail::stream_slot& s = detail::current_slot(d);
  if (s.owner) {
    s.owner->retain();
  }
  return stream(s.handle, d, s.owner);
}

// Makes `s` the current stream (and its device the current device) for a scope, like
// `with stream:` in CuPy; restores both on every exit path.
class stream_guard {
 public:
  explicit stream_guard(const stream& s)
      : device_(s.device_id()), held_(s), saved_(detail::current_slot(s.device_id())) {
    detail::current_slot(s.device_id()) = detail::stream_slot{s.handle_, s.owner_};
  }
  ~stream_guard() { detail::current_slot(held_.device_id()) = saved_; }
  stream_guard(const stream_guard&) = delete;
  stream_guard& operator=(const stream_guard&) = delete;

 private:
  device_guard device_;
  stream held_;  // keeps the stream alive while it is current
  detail::stream_slot saved_;
};

// Blocks the host until the current stream's work is done.
inline void synchronize() {
  detail::refuse_in_capture("xf::synchronize", "it waits for the device");
  XF_CUDA_CHECK(cudaStreamSynchronize(detail::current_slot().handle));
}

}  // namespace xf
