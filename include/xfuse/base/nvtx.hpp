// SPDX-License-Identifier: Apache-2.0
// NVTX ranges named after library operations (a fused evaluation, a reduction, a scan, a sort, a
// GEMM, a solver), so that Nsight Systems shows what ran where; xf::fuse names its own. A range
// calls through two hooks that base/nvtx_emit.hpp sets when a program includes it (every header
// that runs library work does): the NVTX header's 68 functions are compiled only where ranges of
// that work are, not in every file that includes <xfuse/core.hpp>. A program of element-wise work
// alone names its evaluations once it includes any other xfuse header (or base/nvtx_emit.hpp).
// Without a profiler attached a range costs two calls that return at once. Define
// XFUSE_DISABLE_NVTX to compile them out, as CUB's CUB_DISABLE_NVTX does.
#pragma once

namespace xf::detail {

struct nvtx_hooks {
  void (*push)(const char*) = nullptr;
  void (*pop)() = nullptr;
};
inline nvtx_hooks nvtx_api;

struct nvtx_range {
  explicit nvtx_range(const char* name) noexcept {
#if !defined(XFUSE_DISABLE_NVTX)
    if (nvtx_api.push) {
      nvtx_api.push(name);
      pushed_ = true;
    }
#else
    (void)name;
#endif
  }
  ~nvtx_range() {
    if (pushed_) nvtx_api.pop();
  }
  nvtx_range(const nvtx_range&) = delete;
  nvtx_range& operator=(const nvtx_range&) = delete;

 private:
  bool pushed_ = false;
};

}  // namespace xf::detail
