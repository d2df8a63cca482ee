// SPDX-License-Identifier: Apache-2.0
// Vector accesses of device memory: E elements of T as 16-byte (or narrower) words, for aligned
// chunks; loads of inputs no thread writes through the read-only, L1-bypassing path.
#pragma once

#include "../base/config.hpp"
#include "outputs.hpp"

#if XF_CUDA_TU
namespace xf::detail {

template <int Bytes>
struct vector_word;
template <>
struct vector_word<16> {
  using type = uint4;
};
template <>
struct vector_word<8> {
  using type = uint2;
};
template <>
struct vector_word<4> {
  using type = unsigned;
};
template <>
struct vector_word<2> {
  using type = unsigned short;
};
template <>
struct vector_word<1> {
  using type = unsigned char;
};

template <class T, int N>
struct values {
  T v[N];
};

template <class T, int E>
__device__ XF_FORCEINLINE void store_vector(T* dst, const T* src) {
  constexpr int bytes = E * static_cast<int>(sizeof(T));
  constexpr int width = bytes < 16 ? bytes : 16;
  using W = typename vector_word<width>::type;
  W w[bytes / width];
  __builtin_memcpy(w, src, bytes);
#pragma unroll
  for (int i = 0; i < bytes / width; ++i) reinterpret_cast<W*>(dst)[i] = w[i];
}

// E tuples of values into a set of outputs: each destination's components as one vector store.
template <class T, int E, class... Out>
__device__ XF_FORCEINLINE void store_vector(const output_set<Out...>& dst, const T* src) {
  [&]<int... I>(std::integer_sequence<int, I...>) {
    (
        [&] {
          using O = tuple_element_t<I, T>;
          O part[E];
#pragma unroll
          for (int e = 0; e < E; ++e) part[e] = get<I>(src[e]);
          store_vector<O, E>(get<I>(dst.to), part);
        }(),
        ...);
  }(std::make_integer_sequence<int, sizeof...(Out)>{});
}

// The 16-byte load of an input read once and written by no thread of the kernel (a reduction's):
// it takes the non-coherent path and skips L1 (2-3% of sum(x)'s time against plain loads in the
// sweep of bench/results/H200/evidence/reduce_sweep_loads.txt).
template <class W>
__device__ XF_FORCEINLINE W load_word(const W* src) {
  if constexpr (std::is_same_v<W, uint4>) {
    W w;
    asm("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(w.x), "=r"(w.y), "=r"(w.z), "=r"(w.w) : "l"(src));
    return w;
  } else {
    return __ldg(src);
  }
}

// E values as 16-byte (or narrower) words; ReadOnly: inputs no thread of the kernel writes, by
// load_word's non-coherent path.
template <class T, int E, bool ReadOnly = false>
__device__ XF_FORCEINLINE void load_vector(const T* src, T* dst) {
  constexpr int bytes = E * static_cast<int>(sizeof(T));
  constexpr int width = bytes < 16 ? bytes : 16;
  using W = typename vector_word<width>::type;
  W w[bytes / width];
#pragma unroll
  for (int i = 0; i < bytes / width; ++i) {
    if constexpr (ReadOnly) w[i] = load_word(reinterpret_cast<const W*>(src) + i);
    else w[i] = reinterpret_cast<const W*>(src)[i];
  }
  __builtin_memcpy(dst, w, bytes);
}
template <class T, int E>
__device__ XF_FORCEINLINE void load_vector_readonly(const T* src, T* dst) {
  load_vector<T, E, true>(src, dst);
}

}  // namespace xf::detail
#endif
