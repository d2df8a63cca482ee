// SPDX-License-Identifier: Apache-2.0
// Moving data: host data to device arrays (asarray), device arrays to the host (to_host, .get(),
// to_host_async), between devices (.to), and reading one value (.item()). Device copies are
// ordered on the current stream and staged through the pinned pool; calls that return host data
// wait for the current stream, nothing else does.
#pragma once

#include <cstring>
#include <initializer_list>
#include <span>
#include <vector>

#include "../base/event.hpp"
#include "../base/pinned_memory.hpp"
#include "../exec/evaluate.hpp"

namespace xf {
namespace detail {

// Functions whose body differs between CUDA and host-compiler translation units live in a
// namespace named after the kind of TU, so the two versions never meet at link time.
#if XF_CUDA_TU
#define XF_TU_NAMESPACE cuda_tu_
#else
#define XF_TU_NAMESPACE host_tu_
#endif
inline namespace XF_TU_NAMESPACE {

// Copies a contiguous device range to host memory and waits for it.
inline void copy_device_to_host(void* dst, const void* src, std::size_t bytes) {
  refuse_in_capture("xf::to_host", "it reads device memory on the host");
  if (bytes == 0) return;
  const cudaStream_t s = current_slot().handle;
  pinned_buffer staging(bytes, s);
  XF_CUDA_CHECK(cudaMemcpyAsync(staging.data(), src, bytes, cudaMemcpyDeviceToHost, s));
  XF_CUDA_CHECK(cudaStreamSynchronize(s));
  std::memcpy(dst, staging.data(), bytes);
}

// Host memory (any kind) to a contiguous device range, asynchronously: the data is staged in
// pinned memory first, so the caller may reuse its buffer at once.
inline void copy_host_to_device(void* dst, const void* src, std::size_t bytes) {
  refuse_in_capture("xf::asarray", "it copies host memory, which a replay would not read again");
  if (bytes == 0) return;
  const cudaStream_t s = current_slot().handle;
  pinned_buffer staging(bytes, s);
  std::memcpy(staging.data(), src, bytes);
  XF_CUDA_CHECK(cudaMemcpyAsync(dst, staging.data(), bytes, cudaMemcpyHostToDevice, s));
}

// A contiguous array with the same values (the array itself when it already is one).
template <class T, int R, class S>
array<T, R, S> contiguous(const array<T, R, S>& a) {
  if (a.is_contiguous()) return a;
  return a.copy();
}

// Device array to contiguous host memory `out` (waits for the current stream).
template <class T, int R>
void device_to_host_buffer(const array<T, R, device>& a, T* out) {
  if (a.size() == 0) return;
  require_access(a.device_id(), "xf::to_host");
  if (a.is_contiguous()) {
    copy_device_to_host(out, a.data(), a.nbytes());
    a.buffer().run_read_check();
    return;
  }
#if XF_CUDA_TU
  const array<T, R, device> c = a.copy();  // one gather kernel, then one copy
  copy_device_to_host(out, c.data(), c.nbytes());
  a.buffer().run_read_check();
#else
  // Without a kernel: copy the span of memory the view covers, then gather on the host.
  const byte_range r = range_of<R>(a.data(), sizeof(T), a.shape(), a.strides().data(), 0);
  const scratch<T> span((r.hi - r.lo) / sizeof(T));
  copy_device_to_host(span.get(), reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
  const index_t shift = static_cast<index_t>((reinterpret_cast<std::uintptr_t>(a.data()) - r.lo) / sizeof(T));
  const auto view = array<T, R, host>::wrap(span.get() + shift, a.shape(), a.strides());
  array<T, R, host>::wrap(out, a.shape()).assign(view);
  a.buffer().run_read_check();
#endif
}

}  // inline namespace XF_TU_NAMESPACE

template <class T, int R, class Space>
T read_item(const array<T, R, Space>& a) {
  if (a.size() != 1)
    throw error("xf::array::item: can only convert an array of size 1 to a scalar, this one has shape " +
                to_string(a.shape()));
  if constexpr (std::is_same_v<Space, host>) {
    return *a.data();
  } else {
    refuse_in_capture("xf::array::item", "it reads device memory on the host");
    require_access(a.device_id(), "xf::array::item");
    T v;
    const cudaStream_t s = current_slot().handle;
    XF_CUDA_CHECK(cudaMemcpyAsync(&v, a.data(), sizeof(T), cudaMemcpyDeviceToHost, s));
    XF_CUDA_CHECK(cudaStreamSynchronize(s));
    a.buffer().run_read_check();
    return v;
  }
}

template <std::size_t N>
void check_count(std::size_t have, const std::array<index_t, N>& shape, const char* op) {
  if (static_cast<index_t>(have) != checked_size(shape, 1, op))
    throw shape_error(std::string(op) + ": " + std::to_string(have) + " values cannot fill shape " + to_string(shape));
}

}  // namespace detail

// ---------------------------------------------------------------- host data to arrays
// Copies host values (C order) into a new array of the given shape (device by default), like
// cp.asarray(numpy_array). Asynchronous on the device: the source may be reused at once.
template <element T, class Space = device, std::size_t N>
array<T, static_cast<int>(N), Space> asarray(std::span<const T> values, const std::array<index_t, N>& shape) {
  detail::check_count(values.size(), shape, "xf::asarray");
  array<T, static_cast<int>(N), Space> a(shape);
  if constexpr (std::is_same_v<Space, device>) {
    detail::copy_host_to_device(a.data(), values.data(), a.nbytes());
  } else if (!values.empty()) {
    std::memcpy(a.data(), values.data(), a.nbytes());
  }
  return a;
}
template <element T, class Space = device, std::size_t N>
array<T, static_cast<int>(N), Space> asarray(std::span<const T> values, const index_t (&shape)[N]) {
  return asarray<T, Space>(values, detail::to_dims(shape));
}
template <element T, class Space = device, std::size_t N>
array<T, static_cast<int>(N), Space> asarray(const std::vector<T>& values, const std::array<index_t, N>& shape) {
  if constexpr (is_bool<T>) {  // std::vector<bool> packs bits: unpack first
    const detail::scratch<bool> unpacked(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) unpacked[i] = values[i];
    return asarray<T, Space>(std::span<const T>(unpacked.get(), values.size()), shape);
  } else {
    return asarray<T, Space>(std::span<const T>(values), shape);
  }
}
template <element T, class Space = device, std::size_t N>
array<T, static_cast<int>(N), Space> asarray(const std::vector<T>& values, const index_t (&shape)[N]) {
  return asarray<T, Space>(values, detail::to_dims(shape));
}
template <element T, class Space = device, std::size_t N>
array<T, static_cast<int>(N), Space> asarray(std::initializer_list<T> values, const index_t (&shape)[N]) {
  return asarray<T, Space>(std::span<const T>(values.begin(), values.size()), detail::to_dims(shape));
}
// One dimension, as many elements as given.
template <element T, class Space = device>
array<T, 1, Space> asarray(const std::vector<T>& values) {
  return asarray<T, Space>(values, dims<1>{static_cast<index_t>(values.size())});
}
template <element T, class Space = device>
array<T, 1, Space> asarray(std::initializer_list<T> values) {
  return asarray<T, Space>(std::span<const T>(values.begin(), values.size()), dims<1>{static_cast<index_t>(values.size())});
}
template <element T, class Space = device>
array<T, 1, Space> asarray(std::span<const T> values) {
  return asarray<T, Space>(values, dims<1>{static_cast<index_t>(values.size())});
}

// A host array's values in a new device array (cp.asarray(numpy_array)); asynchronous.
template <element T, int R>
array<T, R, device> asarray(const array<T, R, host>& h) {
  const array<T, R, host> c = h.is_contiguous() ? h : h.copy();
  array<T, R, device> d(h.shape());
  detail::copy_host_to_device(d.data(), c.data(), d.nbytes());
  return d;
}
// A device array is returned as it is (shared), like cp.asarray(cupy_array).
template <element T, int R>
array<T, R, device> asarray(const array<T, R, device>& d) {
  return d;
}

// ---------------------------------------------------------------- arrays to host data
// The values in C order, in a std::vector; waits for the current stream (like cp.asnumpy).
template <element T, int R, class Space>
std::vector<T> to_host(const array<T, R, Space>& a) {
  const auto n = static_cast<std::size_t>(a.size());
  auto fill = [&](T* out) {
    if constexpr (std::is_same_v<Space, device>) detail::device_to_host_buffer(a, out);
    else if (n) array<T, R, host>::wrap(out, a.shape()).assign(a);
  };
  if constexpr (is_bool<T>) {  // std::vector<bool> packs bits: go through a byte buffer
    const detail::scratch<bool> bytes(n);
    fill(bytes.get());
    return std::vector<bool>(bytes.get(), bytes.get() + n);
  } else {
    std::vector<T> out(n);
    fill(out.data());
    return out;
  }
}

// An expression's values in C order (it is evaluated first, like cp.asnumpy of an expression).
template <expression E>
  requires(!requires(const E& e) { e.buffer(); })
auto to_host(const E& e) {
  return to_host(eval(e));
}

// A device array's values in a new host array (like cupy_array.get()); waits for the stream.
template <element T, int R>
array<T, R, host> get(const array<T, R, device>& a) {
  return detail::host_copy(a);
}

template <class T, int R>
array<T, R, host> detail::host_copy(const array<T, R, device>& a) {
  array<T, R, host> h(a.shape());
  detail::device_to_host_buffer(a, h.data());
  return h;
}

// A device-to-host copy that runs in the background: the values arrive in pinned memory, ordered
// on the current stream; wait() or get() blocks only when they are asked for.
template <element T>
class host_transfer {
 public:
  host_transfer(std::size_t count, cudaStream_t s) : count_(count), staging_(count * sizeof(T), s) {}
  bool ready() const { return done_.done(); }
  void wait() const { done_.synchronize(); }
  // The values (waits if needed).
  std::vector<T> get() const {
    wait();
    std::vector<T> out(count_);
    if (count_) std::memcpy(out.data(), staging_.data(), count_ * sizeof(T));
    return out;
  }
  // The pinned memory holding the values; valid while this object lives, readable after wait().
  std::span<const T> pinned() const { return {static_cast<const T*>(staging_.data()), count_}; }

 private:
  template <element U, int R>
  friend host_transfer<U> to_host_async(const array<U, R, device>& a);
  std::size_t count_;
  detail::pinned_buffer staging_;
  event done_{false};
};

template <element T, int R>
host_transfer<T> to_host_async(const array<T, R, device>& a) {
  detail::require_access(a.device_id(), "xf::to_host_async");
  const array<T, R, device> c = detail::contiguous(a);
  const cudaStream_t s = detail::current_slot().handle;
  host_transfer<T> t(static_cast<std::size_t>(a.size()), s);
  if (c.nbytes()) XF_CUDA_CHECK(cudaMemcpyAsync(const_cast<void*>(t.staging_.data()), c.data(), c.nbytes(), cudaMemcpyDeviceToHost, s));
  t.done_.record();
  return t;
}

// An expression is evaluated first (one kernel); its temporary is freed in stream order.
template <expression E>
  requires std::is_same_v<space_t<E>, device> && (!requires(const E& e) { e.buffer(); })
auto to_host_async(const E& e) {
  return to_host_async(eval(e));
}

// ---------------------------------------------------------------- between devices
// A copy of `a` on device `target` (peer copy, ordered after the work queued on both devices'
// current streams). The same device gives a plain copy.
template <element T, int R>
array<T, R, device> to_device(const array<T, R, device>& a, int target) {
  return detail::copy_to_device(a, target);
}

template <class T, int R>
array<T, R, device> detail::copy_to_device(const array<T, R, device>& a, int target) {
  if (target == a.device_id()) {
    device_guard g(target);
    return a.copy();
  }
  array<T, R, device> src;
  cudaStream_t src_stream;
  event src_ready = [&] {  // on the source device: events and streams belong to one device
    device_guard g(a.device_id());
    src = detail::contiguous(a);
    src_stream = detail::current_slot().handle;
    event e(false);
    e.record();
    return e;
  }();
  device_guard g(target);
  if (!detail::peer_access(a.device_id(), target)) {
    // No peer path between the devices: through the host (this waits for the source's stream).
    const scratch<T> staging(static_cast<std::size_t>(src.size()));
    {
      device_guard source(a.device_id());
      device_to_host_buffer(src, staging.get());
    }
    return asarray<T>(std::span<const T>(staging.get(), static_cast<std::size_t>(src.size())), a.shape());
  }
  array<T, R, device> dst(a.shape());
  const cudaStream_t s = detail::current_slot().handle;
  XF_CUDA_CHECK(cudaStreamWaitEvent(s, src_ready.handle(), 0));
  if (dst.nbytes()) XF_CUDA_CHECK(cudaMemcpyPeerAsync(dst.data(), target, src.data(), a.device_id(), dst.nbytes(), s));
  event copied(false);
  copied.record();
  // The source block is freed on its own stream: make that stream wait for the copy first (with
  // the source device current, so that a per-thread default stream means that device's).
  device_guard source(a.device_id());
  XF_CUDA_CHECK(cudaStreamWaitEvent(src_stream, copied.handle(), 0));
  return dst;
}

// ---------------------------------------------------------------- creation that allocates
// Uninitialised memory (np.empty); device arrays on the current device.
template <element T, class Space = device, std::size_t N>
array<T, static_cast<int>(N), Space> empty(const std::array<index_t, N>& shape) {
  detail::checked_size(shape, sizeof(T), "xf::empty");
  return array<T, static_cast<int>(N), Space>(shape);
}
template <element T, class Space = device, std::size_t N>
array<T, static_cast<int>(N), Space> empty(const index_t (&shape)[N]) {
  return empty<T, Space>(detail::to_dims(shape));
}
template <expression E>
auto empty_like(const E& e) {
  return array<value_t<E>, rank_v<E>, resolved_space_t<space_t<E>>>(e.shape());
}

}  // namespace xf
