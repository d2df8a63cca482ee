// SPDX-License-Identifier: Apache-2.0
// The NVTX calls behind xfuse's ranges (base/nvtx.hpp): included by the headers that run library
// work, it sets the ranges' hooks once, when the program starts.
#pragma once

#include "nvtx.hpp"

#if !defined(XFUSE_DISABLE_NVTX)
#include <nvtx3/nvToolsExt.h>

namespace xf::detail {

inline void nvtx_push(const char* name) { nvtxRangePushA(name); }
inline void nvtx_pop() { nvtxRangePop(); }
inline const bool nvtx_hooks_set = (nvtx_api = nvtx_hooks{&nvtx_push, &nvtx_pop}, true);

}  // namespace xf::detail
#endif
