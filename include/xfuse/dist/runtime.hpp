// SPDX-License-Identifier: Apache-2.0
// The Legate side of distributed arrays: xfuse's Legate library, one task id per task type (given
// out on first use, in program order, so every process of a multi-node run agrees), element types
// as Legate types, shapes between the two, and the local piece of a store seen as an xf::array.
#pragma once

#include <legate.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../core.hpp"

namespace xf::dist {
namespace detail {
using namespace ::xf::detail;

// The running Legate runtime; an xf::error naming the operation when Legate is not running.
inline legate::Runtime* runtime(const char* op) {
  if (!legate::has_started() || legate::has_finished())
    throw error(std::string(op) + ": Legate is not running (call legate::start() first, legate::finish() last)");
  return legate::Runtime::get_runtime();
}

// xfuse's Legate library. Every expression type is a task of its own, so it has room for many.
inline legate::Library library() {
  static const legate::Library lib = [] {
    legate::ResourceConfig config;
    config.max_tasks = 1 << 16;
    return legate::Runtime::get_runtime()->find_or_create_library("xfuse", config);
  }();
  return lib;
}

inline std::int64_t next_task_id() {
  static std::atomic<std::int64_t> next{0};
  return next.fetch_add(1);
}

// The id of task type Task, its variants registered on first use.
template <class Task>
legate::LocalTaskID task_id() {
  static const legate::LocalTaskID id = [] {
    const legate::LocalTaskID fresh{next_task_id()};
    Task::register_variants(library(), fresh);
    return fresh;
  }();
  return id;
}

// How many pieces a task that chooses its own tiling makes: one a processor of the machine in
// scope, times the scope's over-decomposition factor (as Legate's own partitions do).
inline index_t pieces_wanted() {
  const auto procs = std::max<std::uint32_t>(1, legate::get_machine().count());
  return static_cast<index_t>(procs) * std::max<std::uint32_t>(1, legate::Scope::parallel_policy().overdecompose_factor());
}

// A name for a view no other array has (see array's constructor).
inline std::string fresh_view_name() {
  static std::atomic<std::uint64_t> next{0};
  return "#" + std::to_string(next.fetch_add(1));
}

template <class T>
legate::Type legate_type() {
  if constexpr (std::is_same_v<T, bool>) return legate::bool_();
  else if constexpr (std::is_same_v<T, std::int8_t>) return legate::int8();
  else if constexpr (std::is_same_v<T, std::int16_t>) return legate::int16();
  else if constexpr (std::is_same_v<T, std::int32_t>) return legate::int32();
  else if constexpr (std::is_same_v<T, std::int64_t>) return legate::int64();
  else if constexpr (std::is_same_v<T, std::uint8_t>) return legate::uint8();
  else if constexpr (std::is_same_v<T, std::uint16_t>) return legate::uint16();
  else if constexpr (std::is_same_v<T, std::uint32_t>) return legate::uint32();
  else if constexpr (std::is_same_v<T, std::uint64_t>) return legate::uint64();
  else if constexpr (std::is_same_v<T, float>) return legate::float32();
  else if constexpr (std::is_same_v<T, double>) return legate::float64();
  else if constexpr (std::is_same_v<T, complex64>) return legate::complex64();
  else if constexpr (std::is_same_v<T, complex128>) return legate::complex128();
  else static_assert(sizeof(T) == 0, "xf::dist: an element type Legate stores (bool, integers, float, double, complex)");
}

template <int R>
legate::Shape legate_shape(const dims<R>& shape) {
  std::vector<std::uint64_t> extents(shape.begin(), shape.end());
  return legate::Shape{legate::tuple<std::uint64_t>{std::move(extents)}};
}

template <int R>
dims<R> shape_of_store(const legate::LogicalStore& s) {
  const auto extents = s.extents();
  dims<R> out{};
  for (int d = 0; d < R; ++d) out[static_cast<std::size_t>(d)] = static_cast<index_t>(extents[static_cast<std::uint32_t>(d)]);
  return out;
}

// The extents of a task's local rectangle (empty rectangles have hi < lo).
template <int R>
dims<R> extents_of(const legate::Rect<R>& rect) {
  dims<R> out{};
  for (int d = 0; d < R; ++d) {
    const auto n = rect.hi[d] - rect.lo[d] + 1;
    out[static_cast<std::size_t>(d)] = n > 0 ? static_cast<index_t>(n) : 0;
  }
  return out;
}

// The rectangle a task works on: the intersection of its stores' rectangles. A store broadcast
// along a dimension (promoted, or extent 1 stretched) spans all of that dimension in every task;
// the stores partitioned along it give the task's share.
template <int R>
legate::Rect<R> common_rect(const legate::TaskContext& ctx) {
  std::optional<legate::Rect<R>> rect;
  auto meet = [&rect](const legate::PhysicalArray& a) {
    const legate::Rect<R> r = a.data().shape<R>();
    rect = rect ? rect->intersection(r) : r;
  };
  for (std::uint32_t i = 0; i < ctx.num_outputs(); ++i) meet(ctx.output(i));
  for (std::uint32_t i = 0; i < ctx.num_inputs(); ++i) meet(ctx.input(i));
  for (std::uint32_t i = 0; i < ctx.num_reductions(); ++i) meet(ctx.reduction(i));
  return *rect;
}

// A task's local piece of a store over `rect` as an xf::array view of Space (no copy): the pointer
// and the strides of the instance Legate mapped, zero strides where the store is broadcast.
template <class T, int R, class Space>
array<T, R, Space> local_piece(const legate::PhysicalStore& store, const legate::Rect<R>& rect, bool writes) {
  const dims<R> shape = extents_of<R>(rect);
  if (product(shape) == 0) return array<T, R, Space>::wrap(nullptr, shape, dims<R>{});
  std::size_t strides[R > 0 ? R : 1] = {};
  T* ptr = writes ? store.write_accessor<T, R, false>(rect).ptr(rect, strides, sizeof(T))
                  : const_cast<T*>(store.read_accessor<T, R, false>(rect).ptr(rect, strides, sizeof(T)));
  dims<R> element_strides{};
  for (int d = 0; d < R; ++d) element_strides[static_cast<std::size_t>(d)] = static_cast<index_t>(strides[d]);
  return array<T, R, Space>::wrap(ptr, shape, element_strides);
}
template <class T, int R, class Space>
array<T, R, Space> local_piece(const legate::PhysicalStore& store, bool writes) {
  return local_piece<T, R, Space>(store, store.shape<R>(), writes);
}

// ---------------------------------------------------------------- errors inside tasks
// A task's error cannot unwind to the statement that launched it: the launch returned long ago.
// Two ways back, by whether the caller waits for the task:
//  - Statements, reductions, scans and products (the caller goes on): a task that runs out of
//    memory (xfuse's pool, or the host) or meets another xf::error keeps the error in this process
//    and returns; the next host read (item, to_local) throws the first error kept before it, as the
//    exception it was (xf::out_of_memory with the bytes asked for), and forgets the others (the
//    pieces of one failed statement fail alike). A read of a failed task's own result waits for
//    that task, so it throws that error or an earlier one. This costs nothing a task: Legate's own
//    route, tasks that throw in its deferred exception mode, tripled the cost of a small task (55
//    to 155-174 us on an H100). In a run of several processes the error cannot reach the control
//    flow of the others, so the task stops the program with the error's message.
//  - Tasks the caller waits for (files): through Legate, thrown at the call on every process.
enum class error_route { kept, to_legate };
inline constexpr std::int32_t task_out_of_memory = 0, task_error = 1;

struct kept_task_error {
  std::mutex mutex;
  std::exception_ptr first;
};
inline kept_task_error& kept_error() {
  static kept_task_error kept;
  return kept;
}

inline void keep_task_error(std::exception_ptr e, const char* what) {
  if (legate::Runtime::get_runtime()->node_count() > 1) {
    std::fprintf(stderr, "xf::dist: a task failed in a run of several processes, which cannot raise it at the caller: %s\n", what);
    std::abort();
  }
  const std::lock_guard<std::mutex> lock(kept_error().mutex);
  if (!kept_error().first) kept_error().first = std::move(e);
}

// The task side: out_of_memory travels to Legate as its five numbers and its message.
template <error_route Route, class Body>
void reporting_errors(Body&& body) {
  try {
    body();
  } catch (const out_of_memory& e) {
    if constexpr (Route == error_route::kept) return keep_task_error(std::current_exception(), e.what());
    char numbers[128];
    std::snprintf(numbers, sizeof numbers, "%zu %zu %zu %zu %d|", e.requested_bytes(), e.used_bytes(), e.total_bytes(),
                  e.limit_bytes(), e.device());
    throw legate::TaskException(task_out_of_memory, numbers + std::string(e.what()));
  } catch (const std::bad_alloc& e) {
    const std::string what = std::string("xf::out_of_memory: a task's host allocation failed (") + e.what() + ")";
    if constexpr (Route == error_route::kept)
      return keep_task_error(std::make_exception_ptr(out_of_memory(what, 0, 0, 0, 0, -1)), what.c_str());
    throw legate::TaskException(task_out_of_memory, "0 0 0 0 -1|" + what);
  } catch (const error& e) {
    if constexpr (Route == error_route::kept) return keep_task_error(std::current_exception(), e.what());
    throw legate::TaskException(task_error, e.what());
  }
}

// The caller's side of a host read: the first error a task of this process kept, if any.
inline void raise_task_errors() {
  std::exception_ptr e;
  {
    const std::lock_guard<std::mutex> lock(kept_error().mutex);
    e = std::exchange(kept_error().first, nullptr);
  }
  if (e) std::rethrow_exception(e);
}

// The caller's side of a task it waits for: the task's error as the exception it was.
[[noreturn]] inline void rethrow_task_error(const legate::TaskException& e) {
  const std::string& message = e.error_message();
  std::size_t requested = 0, used = 0, total = 0, limit = 0;
  int device = -1;
  const auto bar = message.find('|');
  if (e.index() == task_out_of_memory && bar != std::string::npos &&
      std::sscanf(message.c_str(), "%zu %zu %zu %zu %d", &requested, &used, &total, &limit, &device) == 5)
    throw out_of_memory(message.substr(bar + 1), requested, used, total, limit, device);
  throw error(message);
}

// Submits a task whose errors go to Legate (error_route::to_legate) and waits for it.
template <class Task>
void submit_and_wait(legate::Runtime* rt, Task task) {
  task.throws_exception(true);
  try {
    const legate::Scope immediate{legate::ExceptionMode::IMMEDIATE};
    rt->submit(std::move(task));
  } catch (const legate::TaskException& e) {
    rethrow_task_error(e);
  }
}

// GPU variants put all their work on the task's stream (on_task_stream), so Legate can order
// dependent tasks by that stream instead of synchronising the whole device after each task.
inline constexpr auto gpu_variant_options = legate::VariantOptions{}.with_elide_device_ctx_sync(true);

#if defined(__CUDACC__)
// Work in a GPU variant runs on the task's stream, so Legate orders it with the task.
class on_task_stream {
 public:
  explicit on_task_stream(const legate::TaskContext& ctx)
      : guard_(stream::wrap(ctx.get_task_stream(), device::current_id())) {}

 private:
  stream_guard guard_;
};
#endif

// The two variants of an xfuse task: Task::run<xf::host> on CPUs, Task::run<xf::device> on GPUs
// (compiled where nvcc compiles the task) on the task's stream; their errors kept (above).
template <class Task>
struct xfuse_task : legate::LegateTask<Task> {
  static constexpr auto GPU_VARIANT_OPTIONS = gpu_variant_options;
  static void cpu_variant(legate::TaskContext ctx) {
    reporting_errors<error_route::kept>([&] { Task::template run<xf::host>(ctx); });
  }
#if defined(__CUDACC__)
  static void gpu_variant(legate::TaskContext ctx) {
    const on_task_stream on_stream(ctx);
    reporting_errors<error_route::kept>([&] { Task::template run<xf::device>(ctx); });
  }
#endif
};

}  // namespace detail
}  // namespace xf::dist
