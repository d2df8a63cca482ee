// SPDX-License-Identifier: Apache-2.0
// cuFFT plans, made once and kept: a plan cache per (device, host thread), as CuPy's, keyed by
// everything a plan fixes (transform type, lengths, both layouts, batch, the stream it runs on,
// and the callbacks fused into it), least recently used first out past a size limit, with
// statistics. A plan's work area comes from the xfuse pool, in stream order, on its first run
// (cuFFT's own allocation is off), and stays with the plan. xf::cufft_error names the call and
// cuFFT's result.
#pragma once

#include <cufftXt.h>

#include <cstring>
#include <list>
#include <memory>
#include <string>

#include "../core.hpp"
#include "../base/thread_state.hpp"
#include "geometry.hpp"

// cuFFT's LTO callbacks as cufftXtSetJITCallback(plan, symbol, ir, size, type, info): cuFFT 12.0
// (CUDA 13) on. With an older toolkit every operand takes the one-kernel path.
#if defined(CUFFT_VERSION) && CUFFT_VERSION >= 12000
#define XF_FFT_LTO_CALLBACKS 1
#else
#define XF_FFT_LTO_CALLBACKS 0
#endif

namespace xf {

// A cuFFT call that failed: the call and cuFFT's result code.
class cufft_error : public error {
 public:
  cufft_error(cufftResult code, const std::string& what) : error(what), code_(code) {}
  cufftResult code() const noexcept { return code_; }

 private:
  cufftResult code_;
};

// What a plan cache holds and has done (xf::fft_plan_cache(device).stats()).
struct fft_plan_cache_stats {
  std::size_t plans = 0;       // held now (the cache's size)
  std::size_t size_limit = 0;  // most held at once (0: plans are not kept)
  std::size_t hits = 0, misses = 0, evictions = 0;
};

namespace detail {

inline const char* cufft_result_name(cufftResult r) {
  switch (r) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "cufftResult";
  }
}

inline void check_cufft(cufftResult r, const char* call, const std::string& context = {}) {
  if (r == CUFFT_SUCCESS) return;
  throw cufft_error(r, std::string("xf::cufft_error: ") + call + " failed with " + cufft_result_name(r) + " (" +
                           std::to_string(static_cast<int>(r)) + ")" + (context.empty() ? "" : " for " + context));
}

// Everything a cuFFT plan fixes.
struct fft_plan_key {
  cufftType type{};
  fft_layout in, out;
  cudaStream_t stream = nullptr;
  std::uint64_t recording = 0;  // the xf::capture recording that made it (0: none); graphs keep their own
  std::string callbacks;        // the fused callbacks' source, empty without

  bool operator==(const fft_plan_key& o) const {
    auto same = [](const fft_layout& a, const fft_layout& b) {
      return a.rank == b.rank && std::memcmp(a.n, b.n, sizeof a.n) == 0 && std::memcmp(a.embed, b.embed, sizeof a.embed) == 0 &&
             a.stride == b.stride && a.dist == b.dist && a.batch == b.batch;
    };
    return type == o.type && stream == o.stream && recording == o.recording && same(in, o.in) && same(out, o.out) &&
           callbacks == o.callbacks;
  }
};

// One plan: cuFFT's handle, the work area a run needs, and what its callbacks read (a block of
// device memory that each run rewrites in stream order before the transform, since cuFFT fixes
// the callbacks' argument pointer when it plans).
struct fft_plan {
  cufftHandle handle = 0;
  std::size_t work_bytes = 0;
  // The work area, kept between runs (the plan runs on one stream, so runs follow each other);
  // made again inside a new xf::capture recording, whose graph owns its blocks.
  buffer work;
  std::uint64_t work_recording = 0;
  buffer callback_arguments;
  std::shared_ptr<const std::string> callback_code;  // LTO-IR; cuFFT may read it while planning
  fft_plan() = default;
  fft_plan(const fft_plan&) = delete;
  fft_plan& operator=(const fft_plan&) = delete;
  ~fft_plan() {
    if (handle) (void)cufftDestroy(handle);  // may wait for the device (cuFFT frees its tables)
  }
};

struct fft_plan_state {
  std::list<std::pair<fft_plan_key, std::shared_ptr<fft_plan>>> plans;  // most recently used first
  fft_plan_cache_stats stats{0, 16, 0, 0, 0};
  void release() noexcept { plans.clear(); }
  void trim() {
    while (plans.size() > stats.size_limit) {
      plans.pop_back();
      ++stats.evictions;
    }
  }
};

inline fft_plan_state& fft_plans_for(int dev) { return thread_state_for<fft_plan_state>(dev, "xf::fft"); }

inline cudaDataType fft_input_type(cufftType t) {
  switch (t) {
    case CUFFT_R2C: return CUDA_R_32F;
    case CUFFT_D2Z: return CUDA_R_64F;
    case CUFFT_C2C: case CUFFT_C2R: return CUDA_C_32F;
    default: return CUDA_C_64F;
  }
}
inline cudaDataType fft_output_type(cufftType t) {
  switch (t) {
    case CUFFT_C2R: return CUDA_R_32F;
    case CUFFT_Z2D: return CUDA_R_64F;
    case CUFFT_C2C: case CUFFT_R2C: return CUDA_C_32F;
    default: return CUDA_C_64F;
  }
}
inline cudaDataType fft_execution_type(cufftType t) {
  return (t == CUFFT_C2C || t == CUFFT_R2C || t == CUFFT_C2R) ? CUDA_C_32F : CUDA_C_64F;
}

inline std::string describe_plan(const fft_plan_key& k) {
  std::string s = "a ";
  for (int j = 0; j < k.in.rank; ++j) s += (j ? "x" : "") + std::to_string(k.in.n[j]);
  s += " transform, batch " + std::to_string(k.in.batch);
  return s;
}

// The plan for `key` on device `dev`: from the cache, or made now. `attach(handle, plan)` runs
// between cufftCreate and planning (where callbacks are set). While a graph is being recorded,
// planning runs in relaxed capture mode: cuFFT allocates its tables then, outside the graph.
// A graph replays a plan's kernels, which read the plan's tables: the recording keeps every plan
// it used alive for as long as the graph lives (evictions and clear() only drop the cache's hold).
inline void keep_with_recording(const std::shared_ptr<fft_plan>& plan) {
  if (capture_state* c = active_capture()) c->kept.push_back(buffer::borrowing(nullptr, plan));
}

template <class Attach>
std::shared_ptr<fft_plan> plan_for(int dev, const fft_plan_key& key, const Attach& attach) {
  fft_plan_state& st = fft_plans_for(dev);
  for (auto it = st.plans.begin(); it != st.plans.end(); ++it) {
    if (it->first == key) {
      ++st.stats.hits;
      st.plans.splice(st.plans.begin(), st.plans, it);
      keep_with_recording(st.plans.front().second);
      return st.plans.front().second;
    }
  }
  ++st.stats.misses;
  auto plan = std::make_shared<fft_plan>();
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  XF_CUDA_CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
  struct restore_mode {
    cudaStreamCaptureMode m;
    ~restore_mode() { XF_CUDA_CHECK_NOTHROW(cudaThreadExchangeStreamCaptureMode(&m)); }
  } restore{mode};
  check_cufft(cufftCreate(&plan->handle), "cufftCreate");
  check_cufft(cufftSetAutoAllocation(plan->handle, 0), "cufftSetAutoAllocation");
  attach(plan->handle, *plan);
  long long n[3], inembed[3], onembed[3];
  for (int j = 0; j < 3; ++j) {
    n[j] = key.in.n[j];
    inembed[j] = key.in.embed[j];
    onembed[j] = key.out.embed[j];
  }
  std::size_t work = 0;
  check_cufft(cufftXtMakePlanMany(plan->handle, key.in.rank, n, inembed, key.in.stride, key.in.dist, fft_input_type(key.type), onembed,
                                  key.out.stride, key.out.dist, fft_output_type(key.type), key.in.batch, &work,
                                  fft_execution_type(key.type)),
              "cufftXtMakePlanMany", describe_plan(key));
  plan->work_bytes = work;
  check_cufft(cufftSetStream(plan->handle, key.stream), "cufftSetStream");
  if (st.stats.size_limit > 0) {
    st.plans.emplace_front(key, plan);
    st.trim();
  }
  keep_with_recording(plan);
  return plan;
}

// Runs `plan` on the current stream (the key's).
inline void execute_plan(fft_plan& plan, void* in, void* out, int direction) {
  const std::uint64_t recording = capture_serial();
  if (plan.work_bytes > 0 && (!plan.work || plan.work_recording != recording)) {
    plan.work = allocate_device(plan.work_bytes);  // a previous one is freed in stream order
    plan.work_recording = recording;
    check_cufft(cufftSetWorkArea(plan.handle, plan.work.get()), "cufftSetWorkArea");
  }
  check_cufft(cufftXtExec(plan.handle, in, out, direction), "cufftXtExec");
}

}  // namespace detail

// The plan cache of one device for the calling thread (CuPy's cupy.fft.config.get_plan_cache()).
class fft_plan_cache_view {
 public:
  explicit fft_plan_cache_view(int device) : device_(device) {}
  fft_plan_cache_stats stats() const {
    const auto& st = detail::fft_plans_for(device_);
    fft_plan_cache_stats s = st.stats;
    s.plans = st.plans.size();
    return s;
  }
  std::size_t size() const { return detail::fft_plans_for(device_).plans.size(); }
  std::size_t size_limit() const { return detail::fft_plans_for(device_).stats.size_limit; }
  // At most `plans` plans are kept (0 keeps none); the least recently used go first.
  void set_size_limit(std::size_t plans) {
    auto& st = detail::fft_plans_for(device_);
    st.stats.size_limit = plans;
    st.trim();
  }
  // Destroys every plan (cuFFT frees its tables, which waits for the device).
  void clear() {
    detail::fft_plans_for(device_).plans.clear();
  }

 private:
  int device_;
};

// The calling thread's plan cache for `device` (-1: the current device).
inline fft_plan_cache_view fft_plan_cache(int device = -1) {
  return fft_plan_cache_view(device < 0 ? device::current_id() : device);
}

}  // namespace xf
