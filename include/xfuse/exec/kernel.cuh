// SPDX-License-Identifier: Apache-2.0
// The fused element-wise kernel: one template, one instantiation per expression.
//
// Each thread handles U chunks of E consecutive elements (chunks interleaved across the block, so
// a warp's accesses are contiguous). It first loads every leaf for all its chunks (16-byte vector
// loads where the layout allows, a leaf used twice loaded once), then computes and stores. A block
// covers one tile of block_threads * U * E elements: no grid-stride loop.
#pragma once

#include "plan.hpp"
#include "positions.hpp"

#if XF_CUDA_TU
#include <climits>

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
__device__ XF_FORCEINLINE void load_vector(const T* src, T* dst) {
  constexpr int bytes = E * static_cast<int>(sizeof(T));
  constexpr int width = bytes < 16 ? bytes : 16;
  using W = typename vector_word<width>::type;
  W w[bytes / width];
#pragma unroll
  for (int i = 0; i < bytes / width; ++i) w[i] = reinterpret_cast<const W*>(src)[i];
  __builtin_memcpy(dst, w, bytes);
}

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

// Positions of element q for every leaf and for the output.
template <class Plan>
__device__ XF_FORCEINLINE void positions(const Plan& p, index_t q, index_t (&pos)[Plan::L > 0 ? Plan::L : 1],
                                         index_t& out_pos) {
  layout_positions(p.lay, p.narrow, q, pos, out_pos);
}

// The values of every leaf, for all chunks of a thread.
template <class Leaves, int N, class Seq = std::make_integer_sequence<int, Leaves::size>>
struct leaf_values;
template <class Leaves, int N, int... K>
struct leaf_values<Leaves, N, std::integer_sequence<int, K...>> {
  using type = tuple<values<typename tuple_element_t<K, Leaves>::value_type, N>...>;
};

// Leaf K reads memory an earlier leaf of the same type already loaded: copy those registers.
template <int K, int J = 0, class Plan, class Vals>
__device__ XF_FORCEINLINE bool copy_alias(const Plan& p, Vals& vals, int first, int count) {
  if constexpr (J >= K) {
    return false;
  } else {
    using TK = typename tuple_element_t<K, typename Plan::leaves_type>::value_type;
    using TJ = typename tuple_element_t<J, typename Plan::leaves_type>::value_type;
    if constexpr (std::is_same_v<TK, TJ> && tuple_element_t<J, typename Plan::leaves_type>::in_memory) {
      if (p.alias[K] == J) {
#pragma unroll
        for (int e = 0; e < count; ++e) get<K>(vals).v[first + e] = get<J>(vals).v[first + e];
        return true;
      }
    }
    return copy_alias<K, J + 1>(p, vals, first, count);
  }
}

// A leaf that computes a row of E elements together (random draws: at_row, random/draws.hpp).
template <class Leaf, int E>
concept row_leaf = requires(const Leaf& l, index_t pos, typename Leaf::value_type* dst) { l.template at_row<E>(pos, pos, dst); };

// Loads E elements of leaf K along dimension 0, starting at position `pos`.
template <int K, class Plan, class Vals>
__device__ XF_FORCEINLINE void load_row(const Plan& p, Vals& vals, int first, index_t pos) {
  constexpr int E = Plan::E;
  const auto& leaf = get<K>(p.leaves);
  using Leaf = std::remove_cvref_t<decltype(leaf)>;
  auto* dst = get<K>(vals).v + first;
  if constexpr (Leaf::in_memory) {
    if (copy_alias<K>(p, vals, first, E)) return;
    if (p.vec[K]) {
      load_vector<typename Leaf::value_type, E>(leaf.ptr + pos, dst);
      return;
    }
  }
  const index_t step = p.lay.stride[K][0];
  if constexpr (row_leaf<Leaf, E>) {  // a random draw: one Philox block serves several elements
    leaf.template at_row<E>(pos, step, dst);
  } else {
    if (step == 0) {  // broadcast along dimension 0: one load serves the chunk
      const auto v = leaf.at(pos);
#pragma unroll
      for (int e = 0; e < E; ++e) dst[e] = v;
      return;
    }
#pragma unroll
    for (int e = 0; e < E; ++e) dst[e] = leaf.at(pos + e * step);
  }
}

template <int K, class Plan, class Vals>
__device__ XF_FORCEINLINE void load_one(const Plan& p, Vals& vals, int at, index_t pos) {
  const auto& leaf = get<K>(p.leaves);
  using Leaf = std::remove_cvref_t<decltype(leaf)>;
  if constexpr (Leaf::in_memory) {
    if (copy_alias<K>(p, vals, at, 1)) return;
  }
  get<K>(vals).v[at] = leaf.at(pos);
}

template <class Plan, class Vals, int... K>
__device__ XF_FORCEINLINE typename Plan::out_type compute(const Plan& p, const Vals& vals, int at,
                                                          std::integer_sequence<int, K...>) {
  using Point = tuple<typename tuple_element_t<K, typename Plan::leaves_type>::value_type...>;
  return p.fn(Point{{tuple_leaf<K, typename tuple_element_t<K, typename Plan::leaves_type>::value_type>{
      get<K>(vals).v[at]}...}});
}

// Elements of a chunk one at a time (the last partial tile, or rows whose extent is not a multiple
// of E): each element finds its own position. Not unrolled across chunks, to keep the kernel small.
template <class Plan>
__device__ XF_FORCEINLINE void element_path(const Plan& p, index_t q0) {
  constexpr int E = Plan::E, L = Plan::L;
  constexpr auto leaf_seq = std::make_integer_sequence<int, L>{};
  typename leaf_values<typename Plan::leaves_type, E>::type vals;
  index_t out_pos[E];
#pragma unroll
  for (int e = 0; e < E; ++e) {
    if (q0 + e < p.lay.size) {
      index_t pos[L > 0 ? L : 1];
      positions(p, q0 + e, pos, out_pos[e]);
      [&]<int... K>(std::integer_sequence<int, K...>) { (load_one<K>(p, vals, e, pos[K]), ...); }(leaf_seq);
    }
  }
#pragma unroll
  for (int e = 0; e < E; ++e)
    if (q0 + e < p.lay.size) p.out[out_pos[e]] = compute(p, vals, e, leaf_seq);
}

// ---------------------------------------------------------------- bulk path (sm_90+)
// A block's tile of every contiguous input arrives in shared memory by one bulk copy each (the
// TMA engine: no registers or instructions per byte), completing on an mbarrier. Then each thread
// reads its chunks from shared memory, computes and stores 16 bytes at a time.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ XF_FORCEINLINE unsigned smem_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

template <class Plan>
__device__ void bulk_path(const Plan& p, unsigned char* smem) {
  constexpr int E = Plan::E, U = Plan::UB, B = Plan::block_threads, L = Plan::L;
  constexpr auto leaf_seq = std::make_integer_sequence<int, L>{};
  __shared__ alignas(8) unsigned long long barrier;
  const index_t start = static_cast<index_t>(blockIdx.x) * Plan::bulk_tile;
  const unsigned bar = smem_address(&barrier);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    unsigned bytes = 0;
    [&]<int... K>(std::integer_sequence<int, K...>) {
      (
          [&] {
            using Leaf = tuple_element_t<K, typename Plan::leaves_type>;
            if constexpr (Leaf::in_memory) {
              if (p.staged[K] && p.alias[K] == K) {
                constexpr unsigned size = static_cast<unsigned>(Plan::bulk_tile * sizeof(typename Leaf::value_type));
                const auto* src = get<K>(p.leaves).ptr + p.lay.base[K] + start;
                asm volatile(
                    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                        smem_address(smem + p.smem_offset[K])),
                    "l"(__cvta_generic_to_global(src)), "r"(size), "r"(bar)
                    : "memory");
                bytes += size;
              }
            }
          }(),
          ...);
    }(leaf_seq);
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
  }
  __syncthreads();
  unsigned done = 0;
  do {
    asm volatile(
        "{ .reg .pred ready; mbarrier.try_wait.parity.shared::cta.b64 ready, [%1], 0; selp.b32 %0, 1, 0, ready; }"
        : "=r"(done)
        : "r"(bar)
        : "memory");
  } while (!done);

  using Out = typename Plan::out_type;
#pragma unroll 1
  for (int u = 0; u < U; ++u) {
    const int c = u * B + static_cast<int>(threadIdx.x);
    const index_t q0 = start + static_cast<index_t>(c) * E;
    typename leaf_values<typename Plan::leaves_type, E>::type vals;
    [&]<int... K>(std::integer_sequence<int, K...>) {
      (
          [&] {
            using Leaf = tuple_element_t<K, typename Plan::leaves_type>;
            using V = typename Leaf::value_type;
            auto* dst = get<K>(vals).v;
            if constexpr (Leaf::in_memory) {
              if (p.staged[K]) {
                load_vector<V, E>(reinterpret_cast<const V*>(smem + p.smem_offset[K]) + c * E, dst);
                return;
              }
            }
            const index_t pos = p.lay.base[K] + q0 * p.lay.stride[K][0];
            if constexpr (row_leaf<Leaf, E>) {
              get<K>(p.leaves).template at_row<E>(pos, p.lay.stride[K][0], dst);
            } else {
              for (int e = 0; e < E; ++e) dst[e] = get<K>(p.leaves).at(pos + e * p.lay.stride[K][0]);
            }
          }(),
          ...);
    }(leaf_seq);
    Out r[E];
#pragma unroll
    for (int e = 0; e < E; ++e) r[e] = compute(p, vals, e, leaf_seq);
    store_vector<Out, E>(p.out + q0, r);
  }
}
#endif

// ---------------------------------------------------------------- tiled path
// Dimension 0 is contiguous in the output; some leaves are contiguous along dimension 1 instead
// (a transpose). A block takes a square tile: those leaves are read along dimension 1 (coalesced)
// into shared memory, then every thread computes along dimension 0 (coalesced stores). The walk
// is bound by instruction issue, not memory, unless its per-element work is a few instructions:
// every position is set up once per block and advanced by one add per element. (The loops over r
// have constant trip counts and unroll without a pragma, which EDG rejects inside these lambdas.)
template <class Plan>
__device__ void tiled_path(const Plan& p, unsigned char* smem) {
  constexpr int B = Plan::block_threads, L = Plan::L, T = Plan::tile_side, rows = B / T, per = T / rows;
  constexpr int MR = layout<Plan::rank, Plan::L>::max_rank;
  constexpr auto leaf_seq = std::make_integer_sequence<int, L>{};
  const auto& lay = p.lay;
  // Block -> (tile along 0, tile along 1, outer index), dividing by the tile counts of the plan.
  const auto b = static_cast<index_t>(blockIdx.x);
  const index_t q = p.tile_count[0].div(b);
  const index_t i0 = (b - q * static_cast<index_t>(p.tile_count[0].divisor)) * T;
  index_t outer = p.tile_count[1].div(q);
  const index_t j0 = (q - outer * static_cast<index_t>(p.tile_count[1].divisor)) * T;
  // Positions of the tile's corner: the outer dimensions (2 and up), then (i0, j0).
  index_t corner[L > 0 ? L : 1], out_corner = lay.out_base;
#pragma unroll
  for (int k = 0; k < L; ++k) corner[k] = lay.base[k] + i0 * lay.stride[k][0] + j0 * lay.stride[k][1];
  out_corner += i0 * lay.out_stride[0] + j0 * lay.out_stride[1];
#pragma unroll
  for (int d = 2; d < MR; ++d) {
    if (d < lay.rank) {
      index_t r = outer;
      if (d + 1 < lay.rank) {
        const index_t qd = lay.div[d].div(outer);
        r = outer - qd * lay.extent[d];
        outer = qd;
      }
#pragma unroll
      for (int k = 0; k < L; ++k) corner[k] += r * lay.stride[k][d];
      out_corner += r * lay.out_stride[d];
    }
  }
  const int tx = static_cast<int>(threadIdx.x) % T, ty = static_cast<int>(threadIdx.x) / T;
  // The tile's extent (less than T at the edges).
  const int m0 = lay.extent[0] - i0 < T ? static_cast<int>(lay.extent[0] - i0) : T;
  const int m1 = lay.extent[1] - j0 < T ? static_cast<int>(lay.extent[1] - j0) : T;

  // Leaves read in place go first, so their loads are in flight while the staged ones arrive.
  // Thread (tx, ty) takes elements (i = tx, j = ty + r * rows). Generators (no memory) are
  // evaluated just before each element is computed: they have no latency to hide, and holding
  // per values of each from the start spilled registers (where(tri(n).T(), a.T(), 0): 188 bytes).
  typename leaf_values<typename Plan::leaves_type, per>::type vals;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          using Leaf = tuple_element_t<K, typename Plan::leaves_type>;
          if constexpr (!Leaf::in_memory) {
            return;
          } else {
            if (p.staged[K]) return;
          }
          const auto& leaf = get<K>(p.leaves);
          index_t at = corner[K] + tx * lay.stride[K][0] + ty * lay.stride[K][1];
          const index_t step = rows * lay.stride[K][1];
          for (int r = 0; r < per; ++r, at += step)
            if (tx < m0 && ty + r * rows < m1) get<K>(vals).v[r] = leaf.at(at);
        }(),
        ...);
  }(leaf_seq);

  // Stage: row i = ty + r * rows, column tx of the tile, read along the leaf's contiguous dimension.
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          using Leaf = tuple_element_t<K, typename Plan::leaves_type>;
          if constexpr (Leaf::in_memory) {
            if (p.staged[K] && p.alias[K] == K) {
              using V = typename Leaf::value_type;
              V* s = reinterpret_cast<V*>(smem + p.smem_offset[K]) + ty * (T + 1) + tx;
              const auto& leaf = get<K>(p.leaves);
              index_t at = corner[K] + ty * lay.stride[K][0] + tx * lay.stride[K][1];
              const index_t step = rows * lay.stride[K][0];
              for (int r = 0; r < per; ++r, at += step)
                if (ty + r * rows < m0 && tx < m1) s[r * rows * (T + 1)] = leaf.at(at);
            }
          }
        }(),
        ...);
  }(leaf_seq);
  __syncthreads();

  // Element (i = tx, j = ty + r * rows) of the staged leaves, read across the tile.
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          using Leaf = tuple_element_t<K, typename Plan::leaves_type>;
          if constexpr (Leaf::in_memory) {
            if (p.staged[K]) {
              const auto* s = reinterpret_cast<const typename Leaf::value_type*>(smem + p.smem_offset[K]) + tx * (T + 1) + ty;
              for (int r = 0; r < per; ++r) get<K>(vals).v[r] = s[r * rows];
            }
          }
        }(),
        ...);
  }(leaf_seq);
  typename Plan::out_type* out = p.out + out_corner + tx * lay.out_stride[0] + ty * lay.out_stride[1];
  const index_t out_step = rows * lay.out_stride[1];
#pragma unroll
  for (int r = 0; r < per; ++r, out += out_step) {
    [&]<int... K>(std::integer_sequence<int, K...>) {
      (
          [&] {
            using Leaf = tuple_element_t<K, typename Plan::leaves_type>;
            if constexpr (!Leaf::in_memory)
              get<K>(vals).v[r] = get<K>(p.leaves).at(corner[K] + tx * lay.stride[K][0] + (ty + r * rows) * lay.stride[K][1]);
          }(),
          ...);
    }(leaf_seq);
    if (tx < m0 && ty + r * rows < m1) *out = compute(p, vals, r, leaf_seq);
  }
}

template <class Plan>
__global__ void __launch_bounds__(Plan::block_threads, Plan::min_blocks) fused_kernel(const __grid_constant__ Plan p) {
  constexpr int E = Plan::E, U = Plan::U, B = Plan::block_threads, L = Plan::L;
  constexpr auto leaf_seq = std::make_integer_sequence<int, L>{};
  extern __shared__ __align__(128) unsigned char smem[];
  using Out = typename Plan::out_type;
  const index_t size = p.lay.size;

  if constexpr (Plan::rank >= 2) {  // a rank-1 plan is never tiled: no code for it
    if (p.mode == walk::tiled) {
      tiled_path(p, smem);
      return;
    }
  }
  if (p.mode == walk::bulk) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if ((static_cast<index_t>(blockIdx.x) + 1) * Plan::bulk_tile <= size) {
      bulk_path(p, smem);
      return;
    }
#endif
    // The last, partial tile (or code built for a GPU without bulk copies): element by element.
    const index_t start = static_cast<index_t>(blockIdx.x) * Plan::bulk_tile;
    const index_t end = start + Plan::bulk_tile < size ? start + Plan::bulk_tile : size;
#pragma unroll 1
    for (index_t q0 = start + static_cast<index_t>(threadIdx.x) * E; q0 < end; q0 += static_cast<index_t>(B) * E)
      element_path(p, q0);
    return;
  }

  const index_t first_chunk = static_cast<index_t>(blockIdx.x) * (B * U) + threadIdx.x;
  const index_t last_q0 = (first_chunk + (U - 1) * B) * E;
  if (!p.row_chunks || last_q0 + E > size) {
#pragma unroll 1
    for (int u = 0; u < U; ++u) {
      const index_t q0 = (first_chunk + u * B) * E;
      if (q0 < size) element_path(p, q0);
    }
    return;
  }

  // Whole chunks within rows: load every leaf of every chunk first, then compute and store.
  typename leaf_values<typename Plan::leaves_type, U * E>::type vals;
  index_t out_pos[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    index_t pos[L > 0 ? L : 1];
    positions(p, (first_chunk + u * B) * E, pos, out_pos[u]);
    [&]<int... K>(std::integer_sequence<int, K...>) { (load_row<K>(p, vals, u * E, pos[K]), ...); }(leaf_seq);
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    Out r[E];
#pragma unroll
    for (int e = 0; e < E; ++e) r[e] = compute(p, vals, u * E + e, leaf_seq);
    if (p.out_vec) {
      store_vector<Out, E>(p.out + out_pos[u], r);
    } else {
      const index_t step = p.lay.out_stride[0];
#pragma unroll
      for (int e = 0; e < E; ++e) p.out[out_pos[u] + e * step] = r[e];
    }
  }
}

// A lone leaf that computes groups of W consecutive elements (a random draw) filling a contiguous
// output: a grid-stride kernel of its own, one group per thread and step, stored as one vector.
// The rows walk set up positions per chunk of one group, which doubled the instructions of a
// 1024^3 uniform fill (2.96 ms on an H200; this kernel's shape ran the same Philox in 2.05 ms).
template <class Leaf>
concept group_leaf = requires(const Leaf& l, std::uint64_t c, typename Leaf::group_type* v) {
  Leaf::group_size;
  l.group(c, v);
};

template <class Leaf, class Out>
__global__ void __launch_bounds__(256) group_fill_kernel(const __grid_constant__ Leaf leaf, Out* __restrict__ out, index_t first_group,
                                                         index_t n) {
  constexpr int W = Leaf::group_size;
  const index_t groups = (n + W - 1) / W;
  for (index_t g = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; g < groups; g += static_cast<index_t>(gridDim.x) * blockDim.x) {
    typename Leaf::group_type v[W];
    leaf.group(static_cast<std::uint64_t>(first_group + g), v);
    Out r[W];
#pragma unroll
    for (int j = 0; j < W; ++j) r[j] = convert<Out>(v[j]);
    if ((g + 1) * W <= n) {
      store_vector<Out, W>(out + g * W, r);
    } else {
      for (int j = 0; j < W && g * W + j < n; ++j) out[g * W + j] = r[j];
    }
  }
}

// Allows a kernel more than 48 KiB of dynamic shared memory on a device, once.
template <class Plan>
void opt_in_shared_memory(int device, std::size_t bytes) {
  static atomic<int> allowed[max_devices];
  if (allowed[device].load(order::relaxed) >= static_cast<int>(bytes)) return;
  cudaFuncAttributes attr{};
  XF_CUDA_CHECK(cudaFuncGetAttributes(&attr, fused_kernel<Plan>));
  const int most = static_cast<int>(xf::device(device).properties().sharedMemPerBlockOptin - attr.sharedSizeBytes);
  XF_CUDA_CHECK(cudaFuncSetAttribute(fused_kernel<Plan>, cudaFuncAttributeMaxDynamicSharedMemorySize, most));
  allowed[device].store(most, order::relaxed);
}

template <class Plan>
void launch_fused(const Plan& p, std::size_t smem_bytes, int device, cudaStream_t stream) {
  index_t blocks;
  if (p.mode == walk::tiled) {
    constexpr index_t t = Plan::tile_side;
    blocks = ((p.lay.extent[0] + t - 1) / t) * ((p.lay.extent[1] + t - 1) / t) *
             (p.lay.size / (p.lay.extent[0] * p.lay.extent[1]));
  } else if (p.mode == walk::bulk) {
    blocks = (p.lay.size + Plan::bulk_tile - 1) / Plan::bulk_tile;
  } else {
    blocks = (p.lay.size + Plan::tile - 1) / Plan::tile;
  }
  if (smem_bytes > default_dynamic_smem) opt_in_shared_memory<Plan>(device, smem_bytes);
  if (blocks > INT_MAX) throw error("xf: expression too large for one launch (" + std::to_string(p.lay.size) + " elements)");
  fused_kernel<Plan><<<static_cast<unsigned>(blocks), Plan::block_threads, smem_bytes, stream>>>(p);
  XF_CUDA_CHECK(cudaGetLastError());
}

}  // namespace xf::detail
#endif
