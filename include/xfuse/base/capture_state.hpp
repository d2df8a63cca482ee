// SPDX-License-Identifier: Apache-2.0
// Whether this thread is recording device work into a CUDA graph (xf::capture, graph.hpp), what
// the recording owns, and the refusal that every operation which needs the host during the work
// (reading device memory, waiting for a stream, copying host data in) raises while it records: a
// graph replays device work only, so those would be wrong on replay or break the recording.
//
// Memory: a graph replays kernels on fixed addresses, so every block it may touch must live as
// long as it does. Blocks allocated while recording are real allocations (on a stream of the
// recording's own, not graph memory nodes) that the graph holds; blocks whose last array goes
// while recording are not freed then but when the graph goes, after its last replay.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "buffer.hpp"
#include "error.hpp"

namespace xf::detail {

struct stream_owner;

// A device block whose free waits for the graph: what device_block_deleter would have freed.
struct deferred_free {
  void* pointer;
  std::size_t bytes;
  int device;
  cudaStream_t stream;
  stream_owner* owner;
};

// A random generator drawn from while recording. A replay draws what the statements would draw
// run then: each launch writes the generator's count of draws into `start` (two 32-bit memset
// nodes of the graph, set before the launch) and advances the generator by `count`; a recorded
// draw's number is its place among the recording's draws from that generator plus `start`.
struct recorded_draws {
  std::uint64_t* generator_draws = nullptr;  // the generator's count (host); it must outlive the launches
  std::uint64_t count = 0;                   // draws the recording makes from it
  buffer start;                              // device: the count at launch, low word then high word
  cudaGraphNode_t start_low = nullptr, start_high = nullptr;

  // The memset node's parameters that write one word of `start` (the high one or the low one).
  cudaMemsetParams start_word(bool high, unsigned value) const {
    cudaMemsetParams word{};
    word.dst = static_cast<unsigned*>(start.get()) + (high ? 1 : 0);
    word.value = value;
    word.elementSize = 4;
    word.width = 1;
    word.height = 1;
    return word;
  }
};

struct capture_state {
  int device = 0;
  std::uint64_t serial = 0;             // distinct per recording: library state bound to one is not reused
  int conditional_depth = 0;            // > 0 while recording the body of xf::while_ or xf::if_
  // Inside the body of a device loop that runs several passes a check (xf::while_): the pass
  // being recorded (exec/pass_guard.hpp).
  struct loop_pass {
    const bool* flag = nullptr;  // the loop's flag: whether the pass runs (null: no loop body with several passes)
    bool reads_flag = false;     // the pass's kernels read it (not in the first pass, which always runs)
    bool starts = false;         // the next kernel is the pass's first
    std::size_t guarded = 0;     // kernels of the body that can skip themselves
  } pass;
  cudaStream_t stream = nullptr;        // the stream being recorded
  cudaStream_t allocations = nullptr;   // where blocks allocated while recording are allocated
  stream_owner* allocations_owner = nullptr;
  std::vector<buffer> kept;             // blocks allocated while recording
  std::vector<deferred_free> deferred;  // blocks released while recording
  std::vector<recorded_draws> draws;
};

// The recording of this thread, or null. Constant-initialised: no TLS guard on access.
inline capture_state*& active_capture() {
  thread_local capture_state* active = nullptr;
  return active;
}

// The serial of the recording this thread is in, or 0.
inline std::uint64_t capture_serial() {
  const capture_state* c = active_capture();
  return c ? c->serial : 0;
}

// Throws, naming `op` and why, when this thread is recording.
inline void refuse_in_capture(const char* op, const char* why) {
  if (active_capture() == nullptr) return;
  throw error(std::string(op) + " cannot run inside xf::capture: " + why + " (the capture is discarded; do it before or after)");
}

}  // namespace xf::detail
