// SPDX-License-Identifier: Apache-2.0
// A pool of page-locked host memory for transfers, reused across copies (like CuPy's
// PinnedMemoryPool). A block returns to the pool with an event recorded after the copy that used
// it, and is handed out again only once that event has completed.
#pragma once

#include <cstdlib>
#include <utility>
#include <vector>

#include "memory.hpp"

namespace xf {
namespace detail {

class pinned_pool {
 public:
  struct block {
    void* ptr = nullptr;
    std::size_t bytes = 0;
    cudaEvent_t ready = nullptr;  // recorded after the last copy that used the block
    int event_device = -1;        // events belong to a device: the one `ready` was created on
  };

  block acquire(std::size_t bytes) {
    const std::size_t want = round_up(bytes);
    {
      lock l(this);
      for (std::size_t i = 0; i < free_.size(); ++i) {
        block& b = free_[i];
        if (b.bytes < want || b.bytes > 2 * want) continue;
        const cudaError_t e = b.ready ? cudaEventQuery(b.ready) : cudaSuccess;
        if (e == cudaErrorNotReady) {
          (void)cudaGetLastError();
          continue;
        }
        XF_CUDA_CHECK(e);
        block out = b;
        free_[i] = free_.back();
        free_.pop_back();
        used_ += out.bytes;
        return out;
      }
    }
    block b;
    b.bytes = want;
    XF_CUDA_CHECK(cudaHostAlloc(&b.ptr, want, cudaHostAllocPortable));
    lock l(this);
    used_ += want;
    total_ += want;
    return b;
  }

  // The block may be reused once the work queued so far on `s` is done.
  // `s` is a stream of the current device.
  void release(block b, cudaStream_t s) noexcept {
    if (!b.ptr) return;
    int dev = 0;
    XF_CUDA_CHECK_NOTHROW(cudaGetDevice(&dev));
    if (b.ready && b.event_device != dev) {  // last used from another device: a new event here
      XF_CUDA_CHECK_NOTHROW(cudaEventDestroy(b.ready));
      b.ready = nullptr;
    }
    if (!b.ready) {
      XF_CUDA_CHECK_NOTHROW(cudaEventCreateWithFlags(&b.ready, cudaEventDisableTiming));
      b.event_device = dev;
    }
    XF_CUDA_CHECK_NOTHROW(cudaEventRecord(b.ready, s));
    lock l(this);
    used_ -= b.bytes;
    free_.push_back(b);
  }

  std::size_t used_bytes() const {
    lock l(this);
    return used_;
  }
  std::size_t total_bytes() const {
    lock l(this);
    return total_;
  }
  std::size_t n_free_blocks() const {
    lock l(this);
    return free_.size();
  }

  // Frees the cached blocks whose copies have finished.
  void free_all_blocks() {
    lock l(this);
    for (std::size_t i = 0; i < free_.size();) {
      block& b = free_[i];
      if (b.ready && cudaEventQuery(b.ready) != cudaSuccess) {
        (void)cudaGetLastError();
        ++i;
        continue;
      }
      if (b.ready) XF_CUDA_CHECK(cudaEventDestroy(b.ready));
      XF_CUDA_CHECK(cudaFreeHost(b.ptr));
      total_ -= b.bytes;
      free_[i] = free_.back();
      free_.pop_back();
    }
  }

 private:
  // Powers of two up to 1 MiB, then whole MiB: reuse without doubling large transfers.
  static std::size_t round_up(std::size_t n) {
    constexpr std::size_t mib = std::size_t{1} << 20;
    if (n > mib) return (n + mib - 1) / mib * mib;
    std::size_t r = 4096;
    while (r < n) r *= 2;
    return r;
  }
  // The critical sections are a few instructions long: a spin lock keeps <mutex> out of the build.
  struct lock {
    const pinned_pool* p;
    explicit lock(const pinned_pool* pool) : p(pool) {
      while (p->busy_.exchange(true, order::acquire)) {
      }
    }
    ~lock() { p->busy_.store(false, order::release); }
  };

  mutable atomic<bool> busy_{false};
  std::vector<block> free_;
  std::size_t used_ = 0, total_ = 0;
};

inline pinned_pool& the_pinned_pool() {
  static pinned_pool* pool = new pinned_pool;  // lives to the end of the process
  return *pool;
}

// A pinned block borrowed for one transfer; returns to the pool, ordered after the work queued on
// `stream` at that point.
class pinned_buffer {
 public:
  pinned_buffer(std::size_t bytes, cudaStream_t s) : block_(the_pinned_pool().acquire(bytes)), stream_(s) {}
  pinned_buffer(pinned_buffer&& o) noexcept : block_(std::exchange(o.block_, {})), stream_(o.stream_) {}
  pinned_buffer& operator=(pinned_buffer&&) = delete;
  ~pinned_buffer() { the_pinned_pool().release(block_, stream_); }
  void* data() const noexcept { return block_.ptr; }

 private:
  pinned_pool::block block_;
  cudaStream_t stream_;
};

}  // namespace detail

// Statistics and control of the pinned host pool, like cp.get_default_pinned_memory_pool().
struct pinned_memory_pool {
  std::size_t used_bytes() const { return detail::the_pinned_pool().used_bytes(); }
  std::size_t total_bytes() const { return detail::the_pinned_pool().total_bytes(); }
  std::size_t n_free_blocks() const { return detail::the_pinned_pool().n_free_blocks(); }
  void free_all_blocks() { detail::the_pinned_pool().free_all_blocks(); }
};

inline pinned_memory_pool get_pinned_memory_pool() { return {}; }

}  // namespace xf
