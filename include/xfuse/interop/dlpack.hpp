// SPDX-License-Identifier: Apache-2.0
// DLPack: handing arrays to other libraries (PyTorch, CuPy, JAX, NumPy, TVM through their C APIs)
// and taking theirs, without copying. The DLPack C ABI is declared here field for field
// (xf::dlpack: DLManagedTensor of v0.8 and DLManagedTensorVersioned of v1.x), so no dlpack.h is
// needed; a pointer from another library's dlpack.h is the same bytes:
// reinterpret_cast<xf::dlpack::DLManagedTensor*>(p).
//
//   xf::to_dlpack(a)              a new DLManagedTensor* viewing a's memory; it holds a handle to
//                                 the buffer, which its deleter releases (the consumer calls it once)
//   xf::to_dlpack_versioned(a)    the same as a DLManagedTensorVersioned* (version 1.0, flags 0)
//   xf::from_dlpack<T, R, Space>(t)  an array over the tensor's memory (no copy); it takes ownership:
//                                 the deleter runs once, when the last handle to the memory goes.
//                                 A tensor that does not fit (dtype, rank, device, alignment,
//                                 version, read-only) throws and is NOT consumed: the caller still
//                                 owns it and must call its deleter.
//
// Neither side synchronises: DLPack's C ABI has no streams. Device work on the memory must be
// ordered by the caller (see docs/guide.md, "Interchange").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "../array/array.hpp"
#include "../base/device.hpp"

namespace xf {
namespace dlpack {

// ---------------------------------------------------------------- the ABI (dlpack.h, v1.1)
struct DLPackVersion {
  std::uint32_t major;
  std::uint32_t minor;
};
// The version xfuse writes into the DLManagedTensorVersioned it makes; it reads major version 1.
inline constexpr std::uint32_t major_version = 1;
inline constexpr std::uint32_t minor_version = 0;

enum DLDeviceType : std::int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,  // pinned host memory (cudaMallocHost)
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,  // cudaMallocManaged
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
};

struct DLDevice {
  DLDeviceType device_type;
  std::int32_t device_id;  // 0 for CPU, pinned and managed memory
};

// The values of DLDataType::code (dlpack.h's DLDataTypeCode; the field itself is a uint8_t).
enum DLDataTypeCode : std::uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  kDLComplex = 5,  // bits: both parts together (complex64: 64)
  kDLBool = 6,     // 8 bits per element
  kDLFloat8_e3m4 = 7,
  kDLFloat8_e4m3 = 8,
  kDLFloat8_e4m3b11fnuz = 9,
  kDLFloat8_e4m3fn = 10,
  kDLFloat8_e4m3fnuz = 11,
  kDLFloat8_e5m2 = 12,
  kDLFloat8_e5m2fnuz = 13,
  kDLFloat8_e8m0fnu = 14,
  kDLFloat6_e2m3fn = 15,
  kDLFloat6_e3m2fn = 16,
  kDLFloat4_e2m1fn = 17,
};

struct DLDataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};

struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements; NULL means C-contiguous (allowed before DLPack 1.2)
  std::uint64_t byte_offset;
};

struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

// DLManagedTensorVersioned::flags (dlpack.h's DLPACK_FLAG_BITMASK_*).
inline constexpr std::uint64_t flag_read_only = 1ull << 0;
inline constexpr std::uint64_t flag_is_copied = 1ull << 1;
inline constexpr std::uint64_t flag_is_subbyte_type_padded = 1ull << 2;

struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  std::uint64_t flags;
  DLTensor dl_tensor;
};

// The layout of dlpack.h on 64-bit targets, checked: these structs cross library boundaries.
static_assert(std::is_standard_layout_v<DLTensor> && std::is_standard_layout_v<DLManagedTensor> &&
              std::is_standard_layout_v<DLManagedTensorVersioned>);
static_assert(sizeof(DLDevice) == 8 && sizeof(DLDataType) == 4 && sizeof(DLPackVersion) == 8);
static_assert(sizeof(void*) != 8 ||
              (offsetof(DLTensor, device) == 8 && offsetof(DLTensor, ndim) == 16 && offsetof(DLTensor, dtype) == 20 &&
               offsetof(DLTensor, shape) == 24 && offsetof(DLTensor, strides) == 32 &&
               offsetof(DLTensor, byte_offset) == 40 && sizeof(DLTensor) == 48));
static_assert(sizeof(void*) != 8 || (offsetof(DLManagedTensor, manager_ctx) == 48 &&
                                     offsetof(DLManagedTensor, deleter) == 56 && sizeof(DLManagedTensor) == 64));
static_assert(sizeof(void*) != 8 ||
              (offsetof(DLManagedTensorVersioned, manager_ctx) == 8 &&
               offsetof(DLManagedTensorVersioned, deleter) == 16 && offsetof(DLManagedTensorVersioned, flags) == 24 &&
               offsetof(DLManagedTensorVersioned, dl_tensor) == 32 && sizeof(DLManagedTensorVersioned) == 80));

// The DLPack data type of an element type (bool: kDLBool, 8 bits; complex64: kDLComplex, 64 bits).
template <element T>
inline constexpr DLDataType data_type_of = [] {
  static_assert(sizeof(bool) == 1, "DLPack's bool is one byte");
  if constexpr (is_bool<T>) return DLDataType{kDLBool, 8, 1};
  else if constexpr (std::is_same_v<T, bfloat16>) return DLDataType{kDLBfloat, 16, 1};
  else if constexpr (std::is_same_v<T, half>) return DLDataType{kDLFloat, 16, 1};
  else if constexpr (is_signed_integer<T>) return DLDataType{kDLInt, static_cast<std::uint8_t>(8 * sizeof(T)), 1};
  else if constexpr (is_unsigned_integer<T>) return DLDataType{kDLUInt, static_cast<std::uint8_t>(8 * sizeof(T)), 1};
  else if constexpr (is_complex<T>) return DLDataType{kDLComplex, static_cast<std::uint8_t>(16 * sizeof(real_t<T>)), 1};
  else return DLDataType{kDLFloat, static_cast<std::uint8_t>(8 * sizeof(T)), 1};
}();

// Passed to from_dlpack: accept a DLManagedTensorVersioned marked read-only (xfuse arrays are
// writable: writing through the result is then the caller's mistake, not detected).
struct accept_read_only_t {
  explicit accept_read_only_t() = default;
};
inline constexpr accept_read_only_t accept_read_only{};

}  // namespace dlpack

namespace detail {

inline std::string dlpack_dtype_name(const dlpack::DLDataType& t) {
  using namespace dlpack;
  const std::string bits = std::to_string(t.bits);
  std::string s;
  switch (t.code) {
    case kDLInt: s = "int" + bits; break;
    case kDLUInt: s = "uint" + bits; break;
    case kDLFloat: s = "float" + bits; break;
    case kDLBfloat: s = "bfloat" + bits; break;
    case kDLComplex: s = "complex" + bits; break;
    case kDLBool: s = t.bits == 8 ? "bool" : "bool" + bits; break;
    case kDLOpaqueHandle: s = "an opaque handle (" + bits + " bits)"; break;
    default:
      s = (t.code >= kDLFloat8_e3m4 && t.code <= kDLFloat4_e2m1fn ? "a float format xfuse has no type for (code "
                                                                   : "an unknown type (code ") +
          std::to_string(t.code) + ", " + bits + " bits)";
  }
  if (t.lanes != 1) s += " x" + std::to_string(t.lanes) + " lanes";
  return s;
}

inline std::string dlpack_device_name(const dlpack::DLDevice& d) {
  using namespace dlpack;
  const char* n = nullptr;
  switch (d.device_type) {
    case kDLCPU: n = "kDLCPU"; break;
    case kDLCUDA: n = "kDLCUDA"; break;
    case kDLCUDAHost: n = "kDLCUDAHost"; break;
    case kDLCUDAManaged: n = "kDLCUDAManaged"; break;
    case kDLROCM: n = "kDLROCM"; break;
    case kDLROCMHost: n = "kDLROCMHost"; break;
    case kDLOpenCL: n = "kDLOpenCL"; break;
    case kDLVulkan: n = "kDLVulkan"; break;
    case kDLMetal: n = "kDLMetal"; break;
    case kDLOneAPI: n = "kDLOneAPI"; break;
    default: break;
  }
  return (n ? std::string(n) : "device type " + std::to_string(static_cast<int>(d.device_type))) + " (id " +
         std::to_string(d.device_id) + ")";
}

// What to_dlpack allocates: the managed tensor, a handle to the buffer, shape and strides, in one
// block that the deleter frees.
template <class Managed, int R>
struct dlpack_export {
  Managed managed{};
  buffer keep;
  std::int64_t shape[R > 0 ? R : 1] = {};
  std::int64_t strides[R > 0 ? R : 1] = {};

  static void release(Managed* self) noexcept { delete static_cast<dlpack_export*>(self->manager_ctx); }
};

template <class Managed, class T, int R, class Space>
Managed* export_dlpack(const array<T, R, Space>& a) {
  using namespace dlpack;
  auto* ctx = new dlpack_export<Managed, R>;  // nothing else can throw below
  ctx->keep = a.buffer();
  for (int d = 0; d < R; ++d) {
    ctx->shape[d] = a.shape()[d];
    ctx->strides[d] = a.strides()[d];
  }
  DLTensor& t = ctx->managed.dl_tensor;
  t.data = a.data();
  t.byte_offset = 0;  // CuPy's and PyTorch's convention: data points at the first element
  if constexpr (std::is_same_v<Space, device>)
    t.device = DLDevice{kDLCUDA, a.device_id() >= 0 ? a.device_id() : 0};  // -1: an empty handle
  else
    t.device = DLDevice{kDLCPU, 0};
  t.ndim = R;
  t.dtype = data_type_of<T>;
  t.shape = ctx->shape;
  t.strides = ctx->strides;
  ctx->managed.manager_ctx = ctx;
  ctx->managed.deleter = &dlpack_export<Managed, R>::release;
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
    ctx->managed.version = DLPackVersion{major_version, minor_version};
    ctx->managed.flags = 0;
  }
  return &ctx->managed;
}

// The keep-alive of an imported array. `cell` is allocated before the array is made and armed
// (given the tensor) only once the array exists, so that a failure on the way (an allocation)
// destroys a disarmed owner and leaves the tensor with the caller. Move-only: the deleter can run
// at most once.
template <class Managed>
struct dlpack_owner {
  Managed** cell;
  explicit dlpack_owner(Managed** c) noexcept : cell(c) {}
  dlpack_owner(dlpack_owner&& o) noexcept : cell(std::exchange(o.cell, nullptr)) {}
  dlpack_owner(const dlpack_owner&) = delete;
  dlpack_owner& operator=(const dlpack_owner&) = delete;
  dlpack_owner& operator=(dlpack_owner&&) = delete;
  ~dlpack_owner() {
    if (!cell) return;
    Managed* m = *cell;
    delete cell;
    if (m && m->deleter) m->deleter(m);
  }
};

template <class T, int R, class Space, class Managed>
array<T, R, Space> import_dlpack(Managed* m, bool accept_read_only) {
  using namespace dlpack;
  static constexpr const char* op = "xf::from_dlpack";
  const auto target = [] {
    return std::string("xf::array<") + dtype_name<T> + ", " + std::to_string(R) +
           (std::is_same_v<Space, device> ? ", xf::device>" : ", xf::host>");
  };
  static constexpr const char* kept =
      " (the tensor was not consumed: the caller still owns it and must call its deleter)";
  if (m == nullptr) throw error(std::string(op) + ": the DLPack tensor is a null pointer");
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
    if (m->version.major != major_version)
      throw error(std::string(op) + ": the tensor has DLPack version " + std::to_string(m->version.major) + "." +
                  std::to_string(m->version.minor) + ", xfuse reads major version " +
                  std::to_string(major_version) + kept);
    if ((m->flags & flag_read_only) && !accept_read_only)
      throw error(std::string(op) + ": the tensor is read-only and xfuse arrays are writable; pass "
                  "xf::dlpack::accept_read_only to take it anyway" + kept);
  }
  const DLTensor& t = m->dl_tensor;
  const DLDataType want = data_type_of<T>;
  if (t.dtype.code != want.code || t.dtype.bits != want.bits || t.dtype.lanes != want.lanes)
    throw dtype_error(std::string(op) + ": the tensor holds " + dlpack_dtype_name(t.dtype) + ", not " + dtype_name<T> +
                      " as " + target() + " needs" + kept);
  if (t.ndim != R)
    throw shape_error(std::string(op) + ": the tensor has " + std::to_string(t.ndim) + " dimensions, " + target() +
                      " has " + std::to_string(R) + kept);
  constexpr bool on_device = std::is_same_v<Space, device>;
  const bool device_ok = on_device ? (t.device.device_type == kDLCUDA || t.device.device_type == kDLCUDAManaged)
                                   : (t.device.device_type == kDLCPU || t.device.device_type == kDLCUDAHost);
  if (!device_ok)
    throw device_error(std::string(op) + ": the tensor lives on " + dlpack_device_name(t.device) + "; " + target() +
                       (on_device ? " takes kDLCUDA or kDLCUDAManaged memory" : " takes kDLCPU or kDLCUDAHost memory") +
                       kept);
  dims<R> shape{}, strides{};
  if (R > 0 && t.shape == nullptr)
    throw shape_error(std::string(op) + ": the tensor's shape is a null pointer" + kept);
  for (int d = 0; d < R; ++d) shape[d] = t.shape[d];
  index_t size = 0;
  try {  // every shape check, with the note that the tensor stays the caller's
    size = checked_size(shape, sizeof(T), op);
    if (t.strides) {
      for (int d = 0; d < R; ++d) strides[d] = t.strides[d];
      check_span(shape, strides, sizeof(T), op);
    } else {
      strides = c_strides(shape);
    }
  } catch (const shape_error& e) {
    throw shape_error(e.what() + std::string(kept));
  }
  const auto base = reinterpret_cast<std::uintptr_t>(t.data);
  if (size > 0 && base == 0)
    throw error(std::string(op) + ": the tensor has " + std::to_string(size) + " elements and a null data pointer" +
                kept);
  if (base != 0 && t.byte_offset > UINTPTR_MAX - base)
    throw error(std::string(op) + ": the tensor's byte_offset (" + std::to_string(t.byte_offset) +
                ") passes the end of the address space" + kept);
  T* const ptr = base ? reinterpret_cast<T*>(base + t.byte_offset) : nullptr;
  if (size > 0 && reinterpret_cast<std::uintptr_t>(ptr) % alignof(T) != 0)
    throw error(std::string(op) + ": the tensor's data pointer + byte_offset (" + std::to_string(t.byte_offset) +
                ") is not aligned for " + dtype_name<T> + " (" + std::to_string(alignof(T)) + " bytes)" + kept);

  if constexpr (on_device) {
    if (size == 0) {
      // No memory to share (producers may give a null pointer): a new empty array on the
      // tensor's device, and the tensor is released at once.
      array<T, R, Space> a;
      {
        device_guard g(t.device.device_type == kDLCUDA ? t.device.device_id : device::current_id());
        a = array<T, R, Space>(shape);
      }
      if (m->deleter) m->deleter(m);
      return a;
    }
    cudaPointerAttributes attr{};
    const cudaError_t e = cudaPointerGetAttributes(&attr, ptr);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      throw device_error(std::string(op) + ": cudaPointerGetAttributes failed on the tensor's data (" +
                         cudaGetErrorName(e) + ")" + kept);
    }
    if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)
      throw device_error(std::string(op) + ": the tensor says " + dlpack_device_name(t.device) +
                         " but its data is not device memory" + kept);
    if (t.device.device_type == kDLCUDA && attr.type == cudaMemoryTypeDevice && attr.device != t.device.device_id)
      throw device_error(std::string(op) + ": the tensor says " + dlpack_device_name(t.device) +
                         " but its data is on device " + std::to_string(attr.device) + kept);
  }
  auto* cell = new Managed*(nullptr);
  array<T, R, Space> a = array<T, R, Space>::wrap(ptr, shape, strides, dlpack_owner<Managed>(cell));
  *cell = m;  // armed: from here on the array owns the tensor
  return a;
}

}  // namespace detail

// A DLPack tensor viewing a's memory (no copy): strides in elements, byte_offset 0, device
// kDLCUDA with a's device id for device arrays, kDLCPU (id 0) for host arrays. It holds a handle to
// a's buffer until its deleter runs; whoever consumes it must call the deleter exactly once.
// Views export as they are, negative and zero strides included (some consumers refuse those:
// export a.copy() then).
template <element T, int R, class Space>
dlpack::DLManagedTensor* to_dlpack(const array<T, R, Space>& a) {
  return detail::export_dlpack<dlpack::DLManagedTensor>(a);
}
// The same as a DLManagedTensorVersioned (version 1.0, flags 0).
template <element T, int R, class Space>
dlpack::DLManagedTensorVersioned* to_dlpack_versioned(const array<T, R, Space>& a) {
  return detail::export_dlpack<dlpack::DLManagedTensorVersioned>(a);
}

// An array over a DLPack tensor's memory (no copy). On success the array owns the tensor: its
// deleter is called exactly once, when the last handle (array, view or expression) to the memory
// goes, without waiting for device work. The tensor must hold T exactly (code, bits, lanes = 1),
// have R dimensions and live where Space says (device: kDLCUDA or kDLCUDAManaged; host: kDLCPU or
// kDLCUDAHost); NULL strides mean C order; data + byte_offset must be aligned for T. Otherwise it
// throws xf::dtype_error, xf::shape_error, xf::device_error or xf::error, and the tensor is not
// consumed: the caller still owns it (and calls its deleter). An empty device tensor gives a new
// empty array and is released at once.
template <element T, int R, class Space = device>
array<T, R, Space> from_dlpack(dlpack::DLManagedTensor* t) {
  return detail::import_dlpack<T, R, Space>(t, false);
}
// The versioned form also refuses major versions other than 1 and read-only tensors (xf::error,
// not consumed); pass xf::dlpack::accept_read_only to take a read-only tensor anyway.
template <element T, int R, class Space = device>
array<T, R, Space> from_dlpack(dlpack::DLManagedTensorVersioned* t) {
  return detail::import_dlpack<T, R, Space>(t, false);
}
template <element T, int R, class Space = device>
array<T, R, Space> from_dlpack(dlpack::DLManagedTensorVersioned* t, dlpack::accept_read_only_t) {
  return detail::import_dlpack<T, R, Space>(t, true);
}

}  // namespace xf
