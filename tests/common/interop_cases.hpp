// Interchange tests (host and GPU): DLPack tensors built by hand with a deleter that counts its
// calls, and a keep-alive that counts its release.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <xfuse/interop.hpp>

#include "catch.hpp"

namespace xf_test {

// A keep-alive for array::wrap that counts its release (moved-from copies do not count).
struct release_counter {
  int* released;
  explicit release_counter(int* r) noexcept : released(r) {}
  release_counter(release_counter&& o) noexcept : released(std::exchange(o.released, nullptr)) {}
  release_counter(const release_counter&) = delete;
  release_counter& operator=(const release_counter&) = delete;
  ~release_counter() {
    if (released) ++*released;
  }
};

// A DLManagedTensor (or DLManagedTensorVersioned) as another library would hand it over, over
// memory the test owns. Its deleter only counts calls (and checks it is given its own tensor).
template <class Managed = xf::dlpack::DLManagedTensor>
struct hand_tensor {
  Managed m{};
  std::vector<std::int64_t> shape, strides;
  int deleted = 0;
  bool wrong_self = false;

  // Empty `strides`: a NULL strides pointer (C order).
  hand_tensor(void* data, xf::dlpack::DLDevice device, xf::dlpack::DLDataType dtype, std::vector<std::int64_t> shape_,
              std::vector<std::int64_t> strides_ = {}, std::uint64_t byte_offset = 0)
      : shape(std::move(shape_)), strides(std::move(strides_)) {
    m.dl_tensor.data = data;
    m.dl_tensor.device = device;
    m.dl_tensor.ndim = static_cast<std::int32_t>(shape.size());
    m.dl_tensor.dtype = dtype;
    m.dl_tensor.shape = shape.empty() ? nullptr : shape.data();
    m.dl_tensor.strides = strides.empty() ? nullptr : strides.data();
    m.dl_tensor.byte_offset = byte_offset;
    m.manager_ctx = this;
    m.deleter = [](Managed* self) {
      auto* h = static_cast<hand_tensor*>(self->manager_ctx);
      if (self != &h->m) h->wrong_self = true;
      ++h->deleted;
    };
    if constexpr (std::is_same_v<Managed, xf::dlpack::DLManagedTensorVersioned>) {
      m.version = {1, 0};
      m.flags = 0;
    }
  }
  hand_tensor(const hand_tensor&) = delete;
  hand_tensor& operator=(const hand_tensor&) = delete;

  Managed* get() { return &m; }
  // What the caller does with a tensor xfuse refused: release it itself.
  void release() { m.deleter(&m); }
};

// The fields every exported tensor has, checked against the array it came from.
template <class Managed, class T, int R, class Space>
void check_exported(const Managed* t, const xf::array<T, R, Space>& a) {
  const auto& d = t->dl_tensor;
  REQUIRE(t->deleter != nullptr);
  CHECK(d.data == static_cast<void*>(a.data()));
  CHECK(d.byte_offset == 0);
  CHECK(d.ndim == R);
  CHECK(d.dtype.code == xf::dlpack::data_type_of<T>.code);
  CHECK(d.dtype.bits == xf::dlpack::data_type_of<T>.bits);
  CHECK(d.dtype.lanes == 1);
  CHECK(static_cast<std::size_t>(d.dtype.bits) == 8 * sizeof(T));
  for (int i = 0; i < R; ++i) {
    CHECK(d.shape[i] == a.shape()[i]);
    CHECK(d.strides[i] == a.strides()[i]);
  }
  if constexpr (std::is_same_v<Space, xf::device>) {
    CHECK(d.device.device_type == xf::dlpack::kDLCUDA);
    CHECK(d.device.device_id == a.device_id());
  } else {
    CHECK(d.device.device_type == xf::dlpack::kDLCPU);
    CHECK(d.device.device_id == 0);
  }
  if constexpr (std::is_same_v<Managed, xf::dlpack::DLManagedTensorVersioned>) {
    CHECK(t->version.major == 1);
    CHECK(t->flags == 0);
  }
}

// The message of the exception of type E that f throws ("" if it throws none).
template <class E, class F>
std::string message_of(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

}  // namespace xf_test
