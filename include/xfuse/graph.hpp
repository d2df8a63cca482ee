// SPDX-License-Identifier: Apache-2.0
// A sequence of xfuse statements recorded once as a CUDA graph and replayed with one launch:
//
//   xf::graph step = xf::capture([&] {
//     u.assign(u + dt * (xf::lazy::sum(u, 1, xf::keepdims) - u));
//     r.assign(xf::max(xf::abs(u - v)));
//   });
//   for (int i = 0; i < 1000; ++i) step.launch();   // each replay: the recorded kernels, no host work
//
// Inside the function, statements run as usual but their device work is recorded instead of run
// (stream capture on a stream of its own, made current for the function). A replay reads and
// writes the arrays the statements named, with their contents at replay time. Temporaries the
// statements allocate (reduction results, CUB's scratch, cuBLAS and cuSOLVER workspaces) become
// the graph's own allocations. Random draws are recorded too: each launch draws what the
// statements would draw if they ran then, and advances the generator as they would (so a
// generator must outlive the launches of the graphs that draw from it).
//
// What cannot be replayed is refused with an xf::error that names the operation, and the capture
// is discarded: reading device memory on the host (`item`, `to_host`, printing), waiting for a
// stream, copying host data in (`asarray`), random draws inside a device loop's body (each pass
// would draw the same numbers), cuSOLVER routines that wait for their stream inside the call
// (eigh's syevd, svd's gesvd), and statements on host arrays. An array made inside the function
// must not outlive it (it would name memory only the graph owns): write results into arrays made
// before the capture, with `assign`, `+=` and the like.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core.hpp"
#include "base/capture_state.hpp"
#include "exec/programmatic.cuh"

namespace xf {

// A recorded sequence (made by xf::capture): launch() replays it. Copies share one recording;
// the recording and the memory it replays on go with the last copy, after its last replay.
class graph {
 public:
  graph() = default;  // empty: launch() throws

  // Replays the recorded work on the current stream (the graph's device), asynchronously.
  void launch() const {
    require_recorded("xf::graph::launch");
    const device_guard on(state_->device);
    launch_on(detail::current_slot(state_->device).handle);
  }
  // Replays it on stream `s`, which must belong to the graph's device.
  void launch(const stream& s) const {
    require_recorded("xf::graph::launch");
    if (s.device_id() != state_->device)
      throw device_error("xf::graph::launch: the graph was recorded on device " + std::to_string(state_->device) +
                         ", the stream belongs to device " + std::to_string(s.device_id()));
    const device_guard on(state_->device);
    launch_on(s.handle());
  }

  // The number of nodes of the recorded graph (kernels, copies, memsets).
  std::size_t node_count() const {
    require_recorded("xf::graph::node_count");
    std::size_t n = 0;
    XF_CUDA_CHECK(cudaGraphGetNodes(state_->graph, nullptr, &n));
    return n;
  }
  // The device it was recorded on, where it replays.
  int device_id() const {
    require_recorded("xf::graph::device_id");
    return state_->device;
  }
  // Whether it holds a recording.
  explicit operator bool() const noexcept { return state_ != nullptr; }

 private:
  template <class F>
  friend graph capture(F&& statements);

  // The graph, its executable form, and the memory it replays on (detail/capture_state.hpp).
  struct recorded {
    int device = 0;
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    cudaEvent_t ready = nullptr;        // recorded after the allocations the graph uses
    cudaEvent_t last_launch = nullptr;  // recorded after each launch: its memory goes after it
    bool launched = false;
    stream allocations;
    std::vector<detail::buffer> kept;
    std::vector<detail::deferred_free> deferred;
    std::vector<detail::recorded_draws> draws;  // random generators the recording draws from

    explicit recorded(int dev) : device(dev), allocations(stream::non_blocking) {}
    recorded(const recorded&) = delete;
    recorded& operator=(const recorded&) = delete;
    ~recorded() {
      const device_guard on(device);
      // Launches of one executable graph run in order: after the last, none touches the memory.
      if (launched) {
        XF_CUDA_CHECK_NOTHROW(cudaStreamWaitEvent(allocations.handle(), last_launch));
        for (const auto& d : deferred) XF_CUDA_CHECK_NOTHROW(cudaStreamWaitEvent(d.stream, last_launch));
      }
      kept.clear();
      for (const auto& d : deferred) detail::free_deferred(d);
      if (exec) XF_CUDA_CHECK_NOTHROW(cudaGraphExecDestroy(exec));  // freed when in-flight work ends
      if (graph) XF_CUDA_CHECK_NOTHROW(cudaGraphDestroy(graph));
      if (ready) XF_CUDA_CHECK_NOTHROW(cudaEventDestroy(ready));
      if (last_launch) XF_CUDA_CHECK_NOTHROW(cudaEventDestroy(last_launch));
    }
  };

  void require_recorded(const char* op) const {
    if (!state_) throw error(std::string(op) + ": an empty xf::graph (make one with xf::capture)");
  }
  void launch_on(cudaStream_t s) const {
    detail::refuse_in_capture("xf::graph::launch", "a graph is launched after it is recorded, not inside another recording");
    // The first launch waits for the allocations; later ones are ordered behind it.
    if (!state_->launched) XF_CUDA_CHECK(cudaStreamWaitEvent(s, state_->ready));
    set_draw_starts();
    XF_CUDA_CHECK(cudaGraphLaunch(state_->exec, s));
    XF_CUDA_CHECK(cudaEventRecord(state_->last_launch, s));
    state_->launched = true;
  }

  // Where this launch's random draws start: each generator's count now (into the memset nodes
  // recorded for it, whose values a launch takes as they are set before it); the generators then
  // advance by one replay's draws.
  void set_draw_starts() const {
    for (detail::recorded_draws& d : state_->draws) {
      const std::uint64_t start = *d.generator_draws;
      const cudaMemsetParams low = d.start_word(false, static_cast<unsigned>(start));
      const cudaMemsetParams high = d.start_word(true, static_cast<unsigned>(start >> 32));
      XF_CUDA_CHECK(cudaGraphExecMemsetNodeSetParams(state_->exec, d.start_low, &low));
      XF_CUDA_CHECK(cudaGraphExecMemsetNodeSetParams(state_->exec, d.start_high, &high));
      *d.generator_draws = start + d.count;
    }
  }

  std::shared_ptr<recorded> state_;
};

namespace detail {

// Records on `state.stream` while alive; ends the recording on every exit path.
class capture_recording {
 public:
  explicit capture_recording(capture_state& state) : state_(state) {
    // Relaxed: xfuse refuses what a graph cannot replay itself (refuse_in_capture), and its
    // allocations go to another stream while recording.
    XF_CUDA_CHECK(cudaStreamBeginCapture(state_.stream, cudaStreamCaptureModeRelaxed));
    active_capture() = &state_;
  }
  // The recorded graph; throws when the recording failed.
  cudaGraph_t finish() {
    active_capture() = nullptr;
    ended_ = true;
    cudaGraph_t g = nullptr;
    const cudaError_t e = cudaStreamEndCapture(state_.stream, &g);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      throw_cuda_error(e, "cudaStreamEndCapture(stream, &graph) in xf::capture: an operation in the function could not be recorded",
                       __FILE__, __LINE__);
    }
    return g;
  }
  ~capture_recording() {
    if (ended_) return;
    active_capture() = nullptr;
    cudaGraph_t g = nullptr;
    if (cudaStreamEndCapture(state_.stream, &g) == cudaSuccess && g) (void)cudaGraphDestroy(g);
    (void)cudaGetLastError();
  }
  capture_recording(const capture_recording&) = delete;
  capture_recording& operator=(const capture_recording&) = delete;

 private:
  capture_state& state_;
  bool ended_ = false;
};

// What a failed recording held: nothing ran, so it is released now.
struct release_unless_recorded {
  capture_state& state;
  bool recorded = false;
  ~release_unless_recorded() {
    if (recorded) return;
    state.kept.clear();
    for (const auto& d : state.deferred) free_deferred(d);
    state.deferred.clear();
  }
};

}  // namespace detail

#if XF_CUDA_TU
namespace detail {

// A device loop's state on the device: the passes run so far, and whether the next one runs.
struct loop_state {
  long long count;
  bool go;
};

// Decides whether a recorded loop runs (another) pass: while `flag` holds and fewer than `limit`
// passes have run. `first` (the node before the loop) starts the count; otherwise it ends a pass
// of the body, counting it if it ran. `last` (first, or the last pass recorded in the body) sets
// the conditional node's value: whether the node runs its body (again). A template: one
// definition however many files use it.
template <class Flag = bool>
__global__ void loop_pass_kernel(cudaGraphConditionalHandle handle, const Flag* flag, loop_state* state, long long limit, bool first,
                                 bool last) {
  start_after_previous_kernel();
  if (first) {
    state->count = 0;
    state->go = *flag && limit > 0;
  } else if (state->go) {
    const long long done = state->count + 1;
    state->count = done;
    state->go = *flag && done < limit;
  }
  if (last) cudaGraphSetConditional(handle, state->go ? 1u : 0u);
}

// Launches loop_pass_kernel on `s` (a programmatic dependent of the kernel before it).
inline void launch_loop_pass(cudaStream_t s, int device, cudaGraphConditionalHandle handle, const bool* flag, loop_state* state,
                             long long limit, bool first, bool last) {
  launch_programmatic(loop_pass_kernel<bool>, dim3(1), 1, 0, s, device, handle, flag, state, limit, first, last);
}

// Throws unless this thread is recording, and `condition` is on the recording's device.
inline void require_recording(const char* op, const array<bool, 0, device>& condition) {
  const capture_state* c = active_capture();
  if (c == nullptr)
    throw error(std::string(op) + ": only inside xf::capture (a loop or branch on the device is a node of the recorded graph)");
  if (condition.device_id() != c->device)
    throw device_error(std::string(op) + ": the condition is on device " + std::to_string(condition.device_id()) +
                       ", the graph is recorded on device " + std::to_string(c->device));
}

// The nodes recorded so far into the graph that stream `s` is recording.
inline std::size_t recorded_nodes(cudaStream_t s) {
  cudaStreamCaptureStatus status{};
  cudaGraph_t g = nullptr;
  XF_CUDA_CHECK(cudaStreamGetCaptureInfo(s, &status, nullptr, &g, nullptr, nullptr, nullptr));
  std::size_t n = 0;
  XF_CUDA_CHECK(cudaGraphGetNodes(g, nullptr, &n));
  return n;
}

// Records `record(stream)` into the body graph of a conditional node, on a stream of its own.
// Kernels that can skip themselves count and read `pass_flag` there (null: neither); the
// enclosing body's pass is as it was afterwards.
template <class Record>
void record_body(cudaGraph_t body_graph, const bool* pass_flag, Record&& record) {
  const stream own(stream::non_blocking);
  const stream_guard current(own);
  struct inside_body {
    capture_state* c = active_capture();
    capture_state::loop_pass outer = c->pass;
    explicit inside_body(const bool* flag) {
      ++c->conditional_depth;
      c->pass = {flag, false, false, 0};
    }
    ~inside_body() {
      --c->conditional_depth;
      c->pass = outer;
    }
  } depth(pass_flag);
  XF_CUDA_CHECK(cudaStreamBeginCaptureToGraph(own.handle(), body_graph, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed));
  struct end_on_exit {
    cudaStream_t s;
    bool ended = false;
    ~end_on_exit() {
      if (ended) return;
      cudaGraph_t g = nullptr;
      (void)cudaStreamEndCapture(s, &g);
      (void)cudaGetLastError();
    }
  } ending{own.handle()};
  std::forward<Record>(record)(own.handle());
  cudaGraph_t g = nullptr;
  ending.ended = true;
  XF_CUDA_CHECK(cudaStreamEndCapture(own.handle(), &g));
}

// Adds a conditional node of `type` after the work recorded so far on the current stream, its
// condition set by `set_condition(handle, stream)` (launched first, on that stream), its body
// recorded by `record(body stream, handle)` with `pass_flag` (record_body); later work on the
// stream follows the node.
template <class SetCondition, class Record>
void record_conditional(cudaGraphConditionalNodeType type, const SetCondition& set_condition, const bool* pass_flag, Record&& record) {
  const capture_state* c = active_capture();
  const cudaStream_t s = current_slot(c->device).handle;
  cudaStreamCaptureStatus status{};
  cudaGraph_t g = nullptr;
  const cudaGraphNode_t* after = nullptr;
  const cudaGraphEdgeData* edges = nullptr;
  std::size_t count = 0;
  XF_CUDA_CHECK(cudaStreamGetCaptureInfo(s, &status, nullptr, &g, &after, &edges, &count));
  cudaGraphConditionalHandle handle{};
  XF_CUDA_CHECK(cudaGraphConditionalHandleCreate(&handle, g, 0, 0));
  set_condition(handle, s);
  XF_CUDA_CHECK(cudaStreamGetCaptureInfo(s, &status, nullptr, &g, &after, &edges, &count));  // now: that kernel
  cudaGraphNodeParams params{};
  params.type = cudaGraphNodeTypeConditional;
  params.conditional.handle = handle;
  params.conditional.type = type;
  params.conditional.size = 1;
  cudaGraphNode_t node = nullptr;
  XF_CUDA_CHECK(cudaGraphAddNode(&node, g, after, edges, count, &params));
  record_body(params.conditional.phGraph_out[0], pass_flag, [&](cudaStream_t body_stream) { record(body_stream, handle); });
  XF_CUDA_CHECK(cudaStreamUpdateCaptureDependencies(s, &node, nullptr, 1, cudaStreamSetCaptureDependencies));
}

// Records up to `passes` passes of `body` on `s` (a loop body being recorded), each followed by
// `end_pass(last)`. A second pass and more only when every node the first recorded is a kernel
// that can skip itself (element-wise statements and reductions); otherwise one. The first pass
// always runs (the node checked the condition): its kernels read no flag.
template <class Body, class EndPass>
void record_passes(Body& body, int passes, cudaStream_t s, const EndPass& end_pass) {
  capture_state* c = active_capture();
  for (int pass = 0; pass < passes; ++pass) {
    const std::size_t nodes_before = recorded_nodes(s), guarded_before = c->pass.guarded;
    c->pass.reads_flag = pass > 0;
    c->pass.starts = true;
    body();
    const bool all_guarded = recorded_nodes(s) - nodes_before == c->pass.guarded - guarded_before;
    if (pass == 0 && !all_guarded) passes = 1;
    if (pass > 0 && !all_guarded)
      throw error("xf::while_: pass " + std::to_string(pass + 1) +
                  " of the body recorded work that cannot skip itself, which the first pass did not (a body must record the same "
                  "statements each time it is called)");
    end_pass(pass == passes - 1);
  }
}

}  // namespace detail

// Passes of a device loop's body recorded per check of its condition (xf::while_): at 8, conjugate
// gradients took 26.0 us an iteration against 29.6 at 1 and 25.7 at 16 (docs/performance.md,
// "Device loops"); more passes make the graph larger for little, and more than
// max_passes_per_check are refused (each is a recorded copy of the body).
inline constexpr int default_passes_per_check = 8;
inline constexpr int max_passes_per_check = 64;

// Inside xf::capture: a loop on the device. Each replay runs `body()`'s recorded work while
// `condition` (a 0-d bool device array, read on the device before the first pass and after each)
// holds, at most `max_iterations` times, with no host round trip; the body updates the condition.
// The body is recorded `passes_per_check` times into the loop's node, each pass after the first
// run only while the condition holds (its kernels return at once otherwise): the same passes as
// one a check, with one check of the node for several passes. That needs every node of the body
// to be an element-wise statement or a reduction; a body with other work (a library call, a
// copy, a nested loop or branch) is recorded once. `body()` is called once per recorded pass and
// must record the same statements each time.
template <class Body>
void while_(const array<bool, 0, device>& condition, Body&& body, index_t max_iterations = 1'000'000,
            int passes_per_check = default_passes_per_check) {
  detail::require_recording("xf::while_", condition);
  if (max_iterations < 0) throw error("xf::while_: max_iterations must not be negative");
  if (passes_per_check < 1 || passes_per_check > max_passes_per_check)
    throw error("xf::while_: passes_per_check must be from 1 to " + std::to_string(max_passes_per_check) + " (got " +
                std::to_string(passes_per_check) + ")");
  const detail::buffer state_block = detail::allocate_device(sizeof(detail::loop_state));  // kept by the graph being recorded
  auto* state = static_cast<detail::loop_state*>(state_block.get());
  const bool* flag = condition.data();
  const auto limit = static_cast<long long>(max_iterations);
  const int dev = condition.device_id();
  const auto pass_kernel = [&](cudaStream_t s, cudaGraphConditionalHandle h, bool first, bool last) {
    detail::launch_loop_pass(s, dev, h, flag, state, limit, first, last);
  };
  // No more passes recorded than may run; one pass a check: the node's check decides every
  // pass, nothing to count or read.
  const int passes = static_cast<int>(max_iterations < passes_per_check ? (max_iterations > 0 ? max_iterations : 1) : passes_per_check);
  const bool* pass_flag = passes > 1 ? &state->go : nullptr;
  detail::record_conditional(
      cudaGraphCondTypeWhile, [&](cudaGraphConditionalHandle h, cudaStream_t s) { pass_kernel(s, h, true, true); }, pass_flag,
      [&](cudaStream_t s, cudaGraphConditionalHandle h) {
        detail::record_passes(body, passes, s, [&](bool last) { pass_kernel(s, h, false, last); });
      });
}

// Inside xf::capture: runs `body()`'s recorded work on each replay where `condition` (a 0-d bool
// device array, read on the device at that point of the sequence) holds.
template <class Body>
void if_(const array<bool, 0, device>& condition, Body&& body) {
  detail::require_recording("xf::if_", condition);
  const detail::buffer state_block = detail::allocate_device(sizeof(detail::loop_state));
  auto* state = static_cast<detail::loop_state*>(state_block.get());
  const bool* flag = condition.data();
  const int dev = condition.device_id();
  detail::record_conditional(
      cudaGraphCondTypeIf,
      [&](cudaGraphConditionalHandle h, cudaStream_t s) { detail::launch_loop_pass(s, dev, h, flag, state, 1, true, true); },
      nullptr, [&](cudaStream_t, cudaGraphConditionalHandle) { std::forward<Body>(body)(); });
}
#endif

// Records the device work of `statements()` (xfuse statements on device arrays of the current
// device) into a graph; nothing runs until the graph is launched.
template <class F>
graph capture(F&& statements) {
  if (detail::active_capture())
    throw error("xf::capture: this thread is already recording a graph; captures do not nest");
  const int dev = device::current_id();
  (void)detail::pool_for(dev);  // made outside the recording: creating a pool is not a graph node
  (void)device(dev).properties();
  auto result = std::make_shared<graph::recorded>(dev);
  XF_CUDA_CHECK(cudaEventCreateWithFlags(&result->ready, cudaEventDisableTiming));
  XF_CUDA_CHECK(cudaEventCreateWithFlags(&result->last_launch, cudaEventDisableTiming));
  const stream recorded_stream(stream::non_blocking);
  static std::atomic<std::uint64_t> recordings{0};
  detail::capture_state state;
  state.device = dev;
  state.serial = ++recordings;
  state.stream = recorded_stream.handle();
  state.allocations = result->allocations.handle();
  state.allocations_owner = detail::stream_owner_of(result->allocations);
  detail::release_unless_recorded guard{state};
  {
    const stream_guard current(recorded_stream);
    detail::capture_recording recording(state);
    std::forward<F>(statements)();
    result->graph = recording.finish();
  }
  XF_CUDA_CHECK(cudaGraphInstantiate(&result->exec, result->graph, 0));
  XF_CUDA_CHECK(cudaEventRecord(result->ready, result->allocations.handle()));
  result->kept = std::move(state.kept);
  result->deferred = std::move(state.deferred);
  result->draws = std::move(state.draws);
  guard.recorded = true;
  graph g;
  g.state_ = std::move(result);
  return g;
}

}  // namespace xf
