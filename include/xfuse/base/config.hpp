// SPDX-License-Identifier: Apache-2.0
// Compiler plumbing shared by every header: host/device annotations and the index type.
#pragma once

// The language and toolkit xfuse needs, said once instead of hundreds of errors later.
#if defined(_MSVC_LANG) ? _MSVC_LANG < 202002L : __cplusplus < 202002L
#error "xfuse needs C++20: compile with -std=c++20 (nvcc and g++/clang++), or link the CMake target xfuse::xfuse"
#endif

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#if !defined(CUDART_VERSION) || CUDART_VERSION < 12000
#error "xfuse needs the CUDA toolkit 12.0 or newer (its headers define an older CUDART_VERSION)"
#endif

#define XFUSE_VERSION_MAJOR 0
#define XFUSE_VERSION_MINOR 2
#define XFUSE_VERSION_PATCH 0

// A translation unit compiled by nvcc can launch kernels; one compiled by the host compiler can
// still use arrays, memory, streams and host evaluation (see docs/design.md, "two kinds of TU").
#if defined(__CUDACC__)
#define XF_CUDA_TU 1
#define XF_HD __host__ __device__
#define XF_DEVICE __device__
#define XF_FORCEINLINE __forceinline__
#else
#define XF_CUDA_TU 0
#define XF_HD
#define XF_DEVICE
#define XF_FORCEINLINE inline __attribute__((always_inline))
#endif

// True while compiling device code (the nvcc device pass).
#if defined(__CUDA_ARCH__)
#define XF_DEVICE_PASS 1
#else
#define XF_DEVICE_PASS 0
#endif

namespace xf {

// Extents, strides (in elements) and element counts are signed 64-bit: arrays over 2^31 elements
// work everywhere, and negative strides are ordinary values.
using index_t = std::int64_t;

namespace detail {
inline constexpr bool cuda_tu = XF_CUDA_TU != 0;
template <class...> inline constexpr bool always_false = false;
}  // namespace detail

}  // namespace xf
