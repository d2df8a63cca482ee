// SPDX-License-Identifier: Apache-2.0
// Device memory: one stream-ordered pool per device (cudaMemPool), with CuPy's statistics and
// limits. Blocks are allocated and freed on the stream that was current at allocation, so freeing
// never races with work still queued on that stream; freed memory stays in the pool for reuse.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <utility>

#include <unistd.h>

#include "buffer.hpp"
#include "stream.hpp"

namespace xf {

namespace detail {

inline std::string format_bytes(std::size_t b) {
  char buf[64];
  if (b >= (std::size_t{1} << 30))
    std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(b) / (1u << 30));
  else if (b >= (std::size_t{1} << 20))
    std::snprintf(buf, sizeof buf, "%.2f MiB", static_cast<double>(b) / (1u << 20));
  else if (b >= 1024)
    std::snprintf(buf, sizeof buf, "%.2f KiB", static_cast<double>(b) / 1024);
  else
    std::snprintf(buf, sizeof buf, "%zu B", b);
  return buf;
}

// Accounting granularity, as in CuPy's pool.
inline constexpr std::size_t pool_rounding = 512;

// Parses XFUSE_GPU_MEMORY_LIMIT against the device's memory: a whole number of bytes
// ("1073741824") or a percentage up to 100 ("50%", "12.5%"); unset or empty means no limit.
// Anything else (a sign, an exponent, "inf", text, a byte count past 2^64) is an error naming the
// variable and the value, never silently "no limit".
inline std::size_t parse_memory_limit(const char* text, std::size_t device_bytes) {
  if (!text || !*text) return 0;
  const std::string s(text);
  auto refuse = [&](const char* why) -> std::size_t {
    throw error("xf::memory_pool: XFUSE_GPU_MEMORY_LIMIT='" + s + "' " + why +
                "; give a whole number of bytes (1073741824) or a percentage of device memory (50%)");
  };
  const bool percent = s.back() == '%';
  const std::size_t digits_end = percent ? s.size() - 1 : s.size();
  std::size_t dots = 0, digits = 0;
  for (std::size_t i = 0; i < digits_end; ++i) {
    if (s[i] == '.') ++dots;
    else if (s[i] >= '0' && s[i] <= '9') ++digits;
    else return refuse("is not a number");
  }
  if (digits == 0 || dots > (percent ? 1u : 0u)) return refuse("is not a number");
  if (percent) {
    const double v = std::strtod(s.c_str(), nullptr);  // digits and one dot: always parses
    if (v > 100.0) return refuse("is more than 100%");
    return static_cast<std::size_t>(v / 100.0 * static_cast<double>(device_bytes));
  }
  std::size_t bytes = 0;
  for (char c : s)
    if (__builtin_mul_overflow(bytes, std::size_t{10}, &bytes) ||
        __builtin_add_overflow(bytes, static_cast<std::size_t>(c - '0'), &bytes))
      return refuse("does not fit a 64-bit byte count");
  return bytes;
}

class device_pool {
 public:
  explicit device_pool(int dev) : device_(dev), capacity_(device(dev).total_memory()) {
    // The setting first: a bad one throws before there is a pool to leak.
    limit_.store(parse_memory_limit(std::getenv("XFUSE_GPU_MEMORY_LIMIT"), capacity_), order::relaxed);
    device_guard g(dev);
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    XF_CUDA_CHECK(cudaMemPoolCreate(&pool_, &props));
    std::uint64_t keep_everything = UINT64_MAX;  // freed memory is reused, not returned
    XF_CUDA_CHECK(cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &keep_everything));
  }

  void* allocate(std::size_t bytes, cudaStream_t s) {
    if (bytes == 0) return nullptr;
    // More than the device has can never succeed: refuse it without a driver call or a wait.
    if (bytes > capacity_) throw_out_of_memory(bytes, "the device's memory");
    const std::size_t n = (bytes + pool_rounding - 1) / pool_rounding * pool_rounding;
    const std::size_t before = used_.fetch_add(n, order::relaxed);
    const std::size_t lim = limit_.load(order::relaxed);
    if (lim && before + n > lim) {
      used_.fetch_sub(n, order::relaxed);
      throw_out_of_memory(bytes, "the pool's limit");
    }
    void* p = nullptr;
    cudaError_t e = cudaMallocFromPoolAsync(&p, bytes, pool_, s);
    if (e == cudaErrorMemoryAllocation) {
      // Blocks freed on other streams become reusable once their work is done: wait once, retry.
      (void)cudaGetLastError();
      e = cudaDeviceSynchronize();
      if (e == cudaSuccess) e = cudaMallocFromPoolAsync(&p, bytes, pool_, s);
    }
    if (e != cudaSuccess) {
      used_.fetch_sub(n, order::relaxed);
      (void)cudaGetLastError();
      if (e == cudaErrorMemoryAllocation) throw_out_of_memory(bytes, "the device's memory");
      throw_cuda_error(e, "cudaMallocFromPoolAsync(&p, bytes, pool, stream)", __FILE__, __LINE__);
    }
    return p;
  }

  void deallocate(void* p, std::size_t bytes, cudaStream_t s) noexcept {
    if (!p) return;
    XF_CUDA_CHECK_NOTHROW(cudaFreeAsync(p, s));
    used_.fetch_sub((bytes + pool_rounding - 1) / pool_rounding * pool_rounding, order::relaxed);
  }

  std::size_t used_bytes() const noexcept { return used_.load(order::relaxed); }
  std::size_t total_bytes() const {
    std::uint64_t reserved = 0;
    XF_CUDA_CHECK(cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrReservedMemCurrent, &reserved));
    return reserved;
  }
  std::size_t limit() const noexcept { return limit_.load(order::relaxed); }
  void set_limit(std::size_t bytes) noexcept { limit_.store(bytes, order::relaxed); }

  // Returns the memory no live array uses to the driver. Waits for the device first, so that
  // blocks freed on streams with queued work can go too.
  void free_all_blocks() {
    refuse_in_capture("xf::free_all_blocks", "it waits for the device");
    device_guard g(device_);
    XF_CUDA_CHECK(cudaDeviceSynchronize());
    XF_CUDA_CHECK(cudaMemPoolTrimTo(pool_, 0));
  }

  // Lets device `peer` read and write this pool's memory (after peer access is enabled).
  void grant_access(int peer) {
    cudaMemAccessDesc d{};
    d.location.type = cudaMemLocationTypeDevice;
    d.location.id = peer;
    d.flags = cudaMemAccessFlagsProtReadWrite;
    XF_CUDA_CHECK(cudaMemPoolSetAccess(pool_, &d, 1));
  }

  cudaMemPool_t handle() const noexcept { return pool_; }
  int device_id() const noexcept { return device_; }

 private:
  [[noreturn]] void throw_out_of_memory(std::size_t bytes, const char* what) const {
    const std::size_t lim = limit();
    std::size_t total = 0;
    std::uint64_t reserved = 0;
    if (cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrReservedMemCurrent, &reserved) == cudaSuccess)
      total = reserved;
    (void)cudaGetLastError();
    throw out_of_memory("xf::out_of_memory: cannot allocate " + format_bytes(bytes) + " on device " +
                            std::to_string(device_) + ": past " + what + " (pool: " +
                            format_bytes(used_bytes()) + " in use, " + format_bytes(total) +
                            " held, limit " + (lim ? format_bytes(lim) : std::string("none")) + ")",
                        bytes, used_bytes(), total, lim, device_);
  }

  cudaMemPool_t pool_ = nullptr;
  int device_;
  std::size_t capacity_;  // the device's memory
  atomic<std::size_t> used_{0};
  atomic<std::size_t> limit_{0};
};

// The pool of a device, created on first use. Pools live until the process ends (they are not
// destroyed at exit, when the CUDA runtime may already be gone).
inline device_pool& pool_for(int dev) {
  static atomic<device_pool*> pools[max_devices];
  if (dev < 0 || dev >= max_devices) throw device_error("xf: device id " + std::to_string(dev) + " out of range");
  device_pool* p = pools[dev].load(order::acquire);
  if (!p) {
    auto* fresh = new device_pool(dev);
    if (pools[dev].compare_exchange_strong(p, fresh, order::acq_rel)) {
      p = fresh;
    } else {
      delete fresh;  // another thread won; its pool is in p
    }
  }
  return *p;
}

// Frees a device block on the stream it was allocated on, and lets go of that stream. While this
// thread records a graph, the free waits for the graph instead (capture_state.hpp): the graph may
// read the block on every replay.
struct device_block_deleter {
  std::size_t bytes;
  int device;
  cudaStream_t stream;
  stream_owner* owner;

  void operator()(void* p) const noexcept {
    if (p && active_capture() != nullptr) {
      try {
        active_capture()->deferred.push_back(deferred_free{p, bytes, device, stream, owner});
        return;  // the graph frees it, and lets go of the stream, after its last replay
      } catch (...) {
        // No host memory to remember it: free it now, as without a graph.
      }
    }
    if (p) {
      int previous = device;
      XF_CUDA_CHECK_NOTHROW(cudaGetDevice(&previous));
      if (previous != device) XF_CUDA_CHECK_NOTHROW(cudaSetDevice(device));
      pool_for(device).deallocate(p, bytes, stream);
      if (previous != device) XF_CUDA_CHECK_NOTHROW(cudaSetDevice(previous));
    }
    if (owner) owner->release();
  }
};

// Frees a block whose free waited for a graph (no recording may be active).
inline void free_deferred(const deferred_free& d) noexcept {
  device_block_deleter{d.bytes, d.device, d.stream, d.owner}(d.pointer);
}

// Device memory for a graph being recorded: a real block on the recording's allocation stream,
// kept by the graph for as long as it may be replayed.
inline buffer allocate_for_graph(capture_state& c, std::size_t bytes) {
  void* p = pool_for(c.device).allocate(bytes, c.allocations);
  if (c.allocations_owner) c.allocations_owner->retain();
  buffer b = buffer::owning(p, device_block_deleter{bytes, c.device, c.allocations, c.allocations_owner});
  c.kept.push_back(b);
  return b;
}

// Device memory on the current device, ordered on the current stream.
inline buffer allocate_device(std::size_t bytes) {
  const int dev = device::current_id();
  if (capture_state* c = active_capture(); c != nullptr && c->device == dev) return allocate_for_graph(*c, bytes);
  const stream_slot& s = current_slot(dev);
  void* p = pool_for(dev).allocate(bytes, s.handle);
  if (s.owner) s.owner->retain();
  return buffer::owning(p, device_block_deleter{bytes, dev, s.handle, s.owner});
}

// Temporary storage for CUB's device-wide algorithms, from the pool in stream order. run(call)
// asks call(nullptr, bytes) how much it needs, grows the storage when it is short and runs
// call(storage, bytes): storage kept from one call to the next (a loop over lines takes one
// allocation), released, in stream order, with the object or handed on (take()).
class temp_storage {
 public:
  template <class Call>
  void run(const Call& call) {
    std::size_t bytes = 0;
    XF_CUDA_CHECK(call(nullptr, bytes));
    if (bytes > bytes_ || !buffer_) {
      buffer_ = allocate_device(bytes > 0 ? bytes : 1);
      bytes_ = bytes > 0 ? bytes : 1;
    }
    XF_CUDA_CHECK(call(buffer_.get(), bytes));
  }
  std::pair<buffer, std::size_t> take() { return {std::move(buffer_), bytes_}; }

 private:
  buffer buffer_;
  std::size_t bytes_ = 0;
};

// Host memory for host arrays: 64-byte aligned, pageable.
inline buffer allocate_host(std::size_t bytes) {
  if (bytes == 0) return buffer();
  void* p = ::operator new(bytes, std::align_val_t{64}, std::nothrow);
  if (!p)
    throw out_of_memory("xf::out_of_memory: cannot allocate " + format_bytes(bytes) + " (" + std::to_string(bytes) +
                            " bytes) of host memory",
                        bytes, 0, 0, 0, -1);
  return buffer::owning(p, [](void* q) { ::operator delete(q, std::align_val_t{64}); });
}

// A host-side list of `count` entries of `each` bytes (the views split returns, say) that cannot
// fit is refused at once, as xf::out_of_memory with the bytes asked for: more bytes than the host
// has memory (or than a 64-bit count holds), instead of growing a vector until the allocator fails.
inline void check_host_list(std::size_t count, std::size_t each, const char* op) {
  std::size_t bytes = 0;
  const bool overflows = __builtin_mul_overflow(count, each, &bytes);
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  const std::size_t memory = pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : SIZE_MAX;
  if (overflows || bytes > memory)
    throw out_of_memory(std::string(op) + ": " + std::to_string(count) + " parts need " +
                            (overflows ? std::string("more than 2^64 bytes") : format_bytes(bytes)) + " of host memory (the host has " +
                            format_bytes(memory) + ")",
                        overflows ? SIZE_MAX : bytes, 0, memory, 0, -1);
}

// v.reserve(count) after check_host_list, the allocator's failure also as xf::out_of_memory.
template <class Vector>
void reserve_host_list(Vector& v, std::size_t count, const char* op) {
  constexpr std::size_t each = sizeof(typename Vector::value_type);
  check_host_list(count, each, op);
  try {
    v.reserve(count);
  } catch (const std::bad_alloc&) {
    throw out_of_memory(std::string(op) + ": cannot allocate " + format_bytes(count * each) + " of host memory for " +
                            std::to_string(count) + " parts",
                        count * each, 0, 0, 0, -1);
  }
}

// A temporary host array: std::unique_ptr<T[]> without <memory>.
template <class T>
class scratch {
 public:
  explicit scratch(std::size_t n) : p_(new T[n]) {}
  ~scratch() { delete[] p_; }
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  T* get() const noexcept { return p_; }
  T& operator[](std::size_t i) const noexcept { return p_[i]; }

 private:
  T* p_;
};

// Makes memory of device `owner` usable from the current device, or throws device_error naming
// both devices. Peer access is checked and enabled once per pair.
// True when the current device `cur` can use memory of device `owner` (peer access enabled, and
// the owner's pool opened to `cur`); checked and enabled once per pair of devices.
inline bool peer_access(int owner, int cur) {
  if (owner < 0 || owner == cur) return true;  // host memory, or the current device
  static atomic<signed char> state[max_devices][max_devices];  // 0 unknown, 1 yes, -1 no
  auto& s = state[cur][owner];
  signed char v = s.load(order::acquire);
  if (v == 0) {
    int can = 0;
    XF_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, cur, owner));
    if (can) {
      const cudaError_t e = cudaDeviceEnablePeerAccess(owner, 0);
      if (e == cudaErrorPeerAccessAlreadyEnabled)
        (void)cudaGetLastError();
      else if (e != cudaSuccess)
        throw_cuda_error(e, "cudaDeviceEnablePeerAccess(owner, 0)", __FILE__, __LINE__);
      pool_for(owner).grant_access(cur);  // pool memory needs its own access grant
    }
    v = can ? 1 : -1;
    s.store(v, order::release);
  }
  return v > 0;
}

// Makes memory of device `owner` usable from the current device `cur`, or throws device_error
// naming both devices.
inline void require_access(int owner, int cur, const char* op) {
  if (!peer_access(owner, cur))
    throw device_error(std::string(op) + ": an operand lives on device " + std::to_string(owner) +
                       " but the current device is " + std::to_string(cur) +
                       ", which has no peer access to it; copy it with .to(xf::device(" +
                       std::to_string(cur) + ")) first");
}

inline void require_access(int owner, const char* op) {
  if (owner >= 0) require_access(owner, device::current_id(), op);
}

}  // namespace detail

// Statistics and control of a device's pool, like CuPy's MemoryPool.
class memory_pool {
 public:
  explicit memory_pool(int device_id) : pool_(&detail::pool_for(device_id)) {}

  // Bytes held by live arrays (rounded to 512 B per block, as CuPy counts).
  std::size_t used_bytes() const noexcept { return pool_->used_bytes(); }
  // Bytes the pool holds from the driver: in use plus cached for reuse.
  std::size_t total_bytes() const { return pool_->total_bytes(); }
  std::size_t free_bytes() const {
    const std::size_t t = total_bytes(), u = used_bytes();
    return t > u ? t - u : 0;
  }
  // Returns cached memory to the driver (synchronises the device).
  void free_all_blocks() { pool_->free_all_blocks(); }
  // Upper bound on used_bytes(); 0 removes the limit.
  void set_limit(std::size_t bytes) { pool_->set_limit(bytes); }
  // Limit as a fraction of the device's memory, 0..1.
  void set_limit_fraction(double f) {
    if (!(f >= 0.0 && f <= 1.0))
      throw error("xf::memory_pool::set_limit_fraction: fraction " + std::to_string(f) + " is not in [0, 1]");
    pool_->set_limit(static_cast<std::size_t>(f * static_cast<double>(device(pool_->device_id()).total_memory())));
  }
  std::size_t get_limit() const noexcept { return pool_->limit(); }
  int device_id() const noexcept { return pool_->device_id(); }
  cudaMemPool_t handle() const noexcept { return pool_->handle(); }

 private:
  detail::device_pool* pool_;
};

// The pool of a device (default: the current one), like cp.get_default_memory_pool().
inline memory_pool get_default_memory_pool(int device_id = -1) {
  return memory_pool(device_id < 0 ? device::current_id() : device_id);
}

}  // namespace xf
