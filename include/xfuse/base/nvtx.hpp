// SPDX-License-Identifier: Apache-2.0
// NVTX ranges named after library operations (a fused evaluation, a reduction, a scan, a sort, a
// GEMM, a solver), so that Nsight Systems shows what ran where; xf::fuse names its own. Without a
// profiler attached a range costs two calls that return at once. Define XFUSE_DISABLE_NVTX to
// compile them out, as CUB's CUB_DISABLE_NVTX does.
#pragma once

#if !defined(XFUSE_DISABLE_NVTX)
#include <nvtx3/nvToolsExt.h>
#endif

namespace xf::detail {

struct nvtx_range {
  explicit nvtx_range(const char* name) noexcept {
#if !defined(XFUSE_DISABLE_NVTX)
    nvtxRangePushA(name);
#else
    (void)name;
#endif
  }
  ~nvtx_range() {
#if !defined(XFUSE_DISABLE_NVTX)
    nvtxRangePop();
#endif
  }
  nvtx_range(const nvtx_range&) = delete;
  nvtx_range& operator=(const nvtx_range&) = delete;
};

}  // namespace xf::detail
