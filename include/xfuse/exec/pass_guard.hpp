// SPDX-License-Identifier: Apache-2.0
// A kernel that can skip itself: in a device loop recorded with several passes a check
// (xf::while_, graph.hpp), each pass after the first runs only while the loop's condition holds,
// so its kernels read the loop's flag on the device and return at once when it is false. The
// fused element-wise kernel and the reduction kernels take a pass_guard; the launch asks for it
// here, which also counts the kernel as one that can skip itself.
#pragma once

#include "../base/capture_state.hpp"

namespace xf::detail {

// What the kernel reads (exec/programmatic.cuh, start_pass_kernel).
struct pass_guard {
  const bool* runs = nullptr;  // null: the kernel always runs (outside such a pass)
  bool after_wait = false;     // the pass's first kernel: the flag is the previous kernel's write
};

// The guard of a kernel about to be launched on the stream being recorded.
inline pass_guard loop_pass_guard() {
  capture_state* c = active_capture();
  if (c == nullptr || c->pass.flag == nullptr) return {};
  ++c->pass.guarded;
  if (!c->pass.reads_flag) return {};
  const pass_guard g{c->pass.flag, c->pass.starts};
  c->pass.starts = false;
  return g;
}

}  // namespace xf::detail
