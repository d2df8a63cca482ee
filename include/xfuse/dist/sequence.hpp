// SPDX-License-Identifier: Apache-2.0
// Statements as tasks. Every distributed statement and reduction is a step: an entry of a table of
// step functions (one per step type, given out on first use in program order, as task ids are)
// and the stores it reads, writes or reduces into. Steps are gathered in a group, which is one
// Legate task: its stores are aligned, so every piece of the task holds matching pieces of all of
// them, and the task runs its steps on its pieces in program order (the GPU variant back to back
// on the task's stream).
//
// Outside xf::dist::sequence a group holds one step and is submitted at once. Inside it, steps
// join the open group while that stays correct; a step that would not be submits the group first
// and opens the next:
//  - a step of another shape (the stores of one task are aligned, so they share one shape);
//  - a step that reads a different view of a store the group writes (a shifted slice would read
//    a neighbour's values from before the task), or writes a store the group reads through a
//    different view;
//  - a step that reads a result the group reduces into (its value exists after the task).
// Any other Legate operation (a fill of an existing array, a product, softmax, reading values to
// the host) submits the open group first (ordered_runtime), so the program order is kept.
#pragma once

#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime.hpp"

namespace xf::dist {
namespace detail {

// What a step receives inside the task: its scalars and descriptors, where its array operands are
// (in collect() order: a task input, or with from_output set a task output that an earlier step of
// the task wrote), the task output or reduction it writes and the axes it reduces.
inline constexpr std::uint32_t from_output = 0x80000000u;
struct step_args {
  const std::byte* bytes;
  const std::uint32_t* inputs;
  std::uint32_t target;
  std::uint32_t reduced_axes;  // bit d: axis d is reduced (reductions)
};

template <int R>
struct step_functions {
  void (*host)(const legate::TaskContext&, const legate::Rect<R>&, const step_args&);
  void (*device)(const legate::TaskContext&, const legate::Rect<R>&, const step_args&);  // null: not compiled by nvcc
};

template <int R>
std::vector<step_functions<R>>& step_table() {
  static std::vector<step_functions<R>> table;
  return table;
}
inline std::mutex& step_table_mutex() {
  static std::mutex m;
  return m;
}

template <class Step, int R, class Space>
void run_step(const legate::TaskContext& ctx, const legate::Rect<R>& rect, const step_args& a) {
  Step::template run<Space>(ctx, rect, a);
}

// The id of step type Step (static run<Space>(ctx, rect, step_args)) in step_table<R>().
template <class Step, int R>
std::uint32_t step_id() {
  static const std::uint32_t id = [] {
    step_functions<R> f{&run_step<Step, R, xf::host>, nullptr};
#if defined(__CUDACC__)
    f.device = &run_step<Step, R, xf::device>;
#endif
    const std::lock_guard<std::mutex> lock(step_table_mutex());
    step_table<R>().push_back(f);
    return static_cast<std::uint32_t>(step_table<R>().size() - 1);
  }();
  return id;
}

// The task that runs a group's steps on its pieces. Arguments: the steps' bytes, then the step
// list as words: count, then per step {id, first byte, target, reduced axes, inputs, input...}.
template <int R>
struct sequence_task : xfuse_task<sequence_task<R>> {
  template <class Space>
  static void run(const legate::TaskContext& ctx) {
    const legate::Rect<R> rect = common_rect<R>(ctx);
    if (rect.empty()) return;
    const legate::Scalar bytes = ctx.scalar(0);
    const legate::Scalar list = ctx.scalar(1);
    const auto* base = static_cast<const std::byte*>(bytes.ptr());
    const auto* w = static_cast<const std::uint32_t*>(list.ptr());
    const std::uint32_t steps = *w++;
    for (std::uint32_t s = 0; s < steps; ++s) {
      const step_args a{base + w[1], w + 5, w[2], w[3]};
      const step_functions<R> f = step_table<R>()[w[0]];
      if constexpr (std::is_same_v<Space, xf::host>) {
        f.host(ctx, rect, a);
      } else {
        if (f.device == nullptr)
          throw error("xf::dist: a statement's GPU variant was not compiled (compile the file that writes it with nvcc)");
        f.device(ctx, rect, a);
      }
      w += 5 + w[4];
    }
  }
};

// A store a group touches, by view: how its steps use it. Reads after a step of the task wrote
// the view read the task's output (the values of this task), so a view written before it is read
// is an output only, not a read-write store whose old values Legate would have to bring.
struct group_store {
  legate::LogicalStore store;  // seen with the group's shape
  std::string view;
  bool reads = false;  // read before any step of the task writes it
  bool writes = false;
  std::optional<legate::ReductionOpKind> reduces;
};

// One step as recorded: its id, where its bytes start, its target and inputs (indices into the
// group's stores) and its reduced axes.
struct recorded_step {
  std::uint32_t id;
  std::uint32_t first_byte;
  std::size_t target;
  std::uint32_t reduced_axes;
  std::vector<std::size_t> inputs;
  std::vector<bool> written_before;  // per input: an earlier step of the task wrote it
};

// The steps of one task to be.
struct open_group {
  int rank = 0;
  std::vector<index_t> shape;
  std::vector<group_store> stores;
  std::vector<recorded_step> steps;
  std::vector<std::byte> bytes;
  void (*submit)(open_group&) = nullptr;
};

// A step about to be added: what it touches, in the statement's shape.
struct step_request {
  std::uint32_t id;
  int rank;
  std::vector<index_t> shape;
  std::vector<legate::LogicalStore> inputs;  // in collect() order
  std::vector<std::string> input_views;
  legate::LogicalStore target;
  std::string target_view;
  std::optional<legate::ReductionOpKind> reduces;  // set: the target is reduced into, not written
  std::uint32_t reduced_axes = 0;
  std::vector<std::byte> bytes;
  void (*submit)(open_group&);  // submit_group<rank>
};

// Bytes as a task argument (Legate copies them).
inline legate::Scalar bytes_argument(std::vector<std::byte>& bytes) {
  if (bytes.empty()) bytes.push_back(std::byte{0});
  return legate::Scalar(legate::binary_type(static_cast<std::uint32_t>(bytes.size())), bytes.data(), true);
}

// Submits a group as one task over its stores, every one aligned with the first.
template <int R>
void submit_group(open_group& g) {
  auto* rt = runtime("xf::dist");
  auto task = rt->create_task(library(), task_id<sequence_task<R>>());
  std::vector<std::uint32_t> input_slot(g.stores.size()), target_slot(g.stores.size());
  std::uint32_t inputs = 0, outputs = 0, reductions = 0;
  std::optional<legate::Variable> first;
  auto aligned = [&](const legate::Variable& v) {
    if (first) task.add_constraint(legate::align(*first, v));
    else first = v;
  };
  for (std::size_t i = 0; i < g.stores.size(); ++i) {
    const group_store& s = g.stores[i];
    if (s.writes) {
      aligned(task.add_output(s.store));
      target_slot[i] = outputs++;
    }
    if (s.reduces) {
      aligned(task.add_reduction(s.store, *s.reduces));
      target_slot[i] = reductions++;
    }
    if (s.reads) {
      aligned(task.add_input(s.store));
      input_slot[i] = inputs++;
    }
  }
  std::vector<std::uint32_t> words{static_cast<std::uint32_t>(g.steps.size())};
  for (const recorded_step& s : g.steps) {
    words.insert(words.end(), {s.id, s.first_byte, target_slot[s.target], s.reduced_axes, static_cast<std::uint32_t>(s.inputs.size())});
    for (std::size_t k = 0; k < s.inputs.size(); ++k)
      words.push_back(s.written_before[k] ? (target_slot[s.inputs[k]] | from_output) : input_slot[s.inputs[k]]);
  }
  task.add_scalar_arg(bytes_argument(g.bytes));
  task.add_scalar_arg(legate::Scalar(legate::binary_type(static_cast<std::uint32_t>(words.size() * sizeof(std::uint32_t))),
                                     words.data(), true));
  rt->submit(std::move(task));
}

// The open group of this thread and how deep in xf::dist::sequence it is.
struct sequence_recorder {
  open_group group;
  int depth = 0;
  std::uint64_t submitted = 0;  // tasks submitted so far (for tests and diagnostics)

  void flush() {
    if (group.steps.empty()) return;
    open_group g = std::move(group);
    group = open_group{};
    ++submitted;
    g.submit(g);
  }

  // Whether step r can join the open group (see the top of this file).
  bool joins(const step_request& r) const {
    if (group.steps.empty()) return true;
    if (r.rank != group.rank || r.shape != group.shape) return false;
    auto compatible = [&](const legate::LogicalStore& store, const std::string& view, bool changes) {
      for (const group_store& g : group.stores) {
        if (g.view == view) {
          if (g.reduces || (changes && r.reduces)) return false;
        } else if ((changes || g.writes || g.reduces) && g.store.overlaps(store)) {
          return false;
        }
      }
      return true;
    };
    for (std::size_t i = 0; i < r.inputs.size(); ++i)
      if (!compatible(r.inputs[i], r.input_views[i], false)) return false;
    return compatible(r.target, r.target_view, true);
  }

  std::size_t store_index(const legate::LogicalStore& store, const std::string& view) {
    for (std::size_t i = 0; i < group.stores.size(); ++i)
      if (group.stores[i].view == view) return i;
    group.stores.push_back(group_store{store, view});
    return group.stores.size() - 1;
  }

  void add(step_request r) {
    if (!joins(r)) flush();
    if (group.steps.empty()) {
      group.rank = r.rank;
      group.shape = r.shape;
      group.submit = r.submit;
    }
    recorded_step s{r.id, static_cast<std::uint32_t>(group.bytes.size()), 0, r.reduced_axes, {}, {}};
    group.bytes.insert(group.bytes.end(), r.bytes.begin(), r.bytes.end());
    for (std::size_t i = 0; i < r.inputs.size(); ++i) {
      const std::size_t k = store_index(r.inputs[i], r.input_views[i]);
      s.inputs.push_back(k);
      s.written_before.push_back(group.stores[k].writes);
      if (!group.stores[k].writes) group.stores[k].reads = true;
    }
    s.target = store_index(r.target, r.target_view);
    if (r.reduces) group.stores[s.target].reduces = r.reduces;
    else group.stores[s.target].writes = true;
    group.steps.push_back(std::move(s));
    if (depth == 0) flush();
  }
};

inline sequence_recorder& recorder() {
  thread_local sequence_recorder r;
  return r;
}

// The runtime, for an operation that must follow every statement before it: the open group is
// submitted first.
inline legate::Runtime* ordered_runtime(const char* op) {
  auto* rt = runtime(op);
  recorder().flush();
  return rt;
}

// The extent of one xf::dist::sequence: the outermost submits the open group when it closes, or,
// when its body throws, as well as it can (the body's exception is the one reported).
class sequence_scope {
 public:
  sequence_scope() { ++recorder().depth; }
  sequence_scope(const sequence_scope&) = delete;
  sequence_scope& operator=(const sequence_scope&) = delete;
  void close() {
    open_ = false;
    if (--recorder().depth == 0) recorder().flush();
  }
  ~sequence_scope() {
    if (!open_) return;
    if (--recorder().depth == 0) {
      try {
        recorder().flush();
      } catch (...) {
      }
    }
  }

 private:
  bool open_ = true;
};

}  // namespace detail

// Runs body's distributed statements and reductions as few Legate tasks as their data allows and
// returns what body returns: consecutive statements of one shape become one task, whose pieces
// run them back to back (the top of this file says what ends a task). The results are those of
// running them one by one. Sequences nest (an inner one joins the outer); the tasks are submitted
// when the outermost ends, or when body throws (the statements before the throw keep their
// effect, as they would alone).
//
//   auto [change, residual] = xf::dist::sequence([&] {
//     lap.assign(u(up, in) + u(down, in) + u(in, up) + u(in, down) - 4.0f * u(in, in));
//     next(in, in).assign(u(in, in) + k * lap);
//     return std::pair{xf::dist::max(xf::dist::abs(next(in, in) - u(in, in))),  // folded into the task
//                      xf::dist::sum(lap * lap)};
//   });
template <class F>
auto sequence(F&& body) {
  detail::sequence_scope scope;
  if constexpr (std::is_void_v<std::invoke_result_t<F&>>) {
    body();
    scope.close();
  } else {
    auto result = body();
    scope.close();
    return result;
  }
}

}  // namespace xf::dist
