// SPDX-License-Identifier: Apache-2.0
// The memory under arrays: one block shared by every array that views it, released with the last
// of them. An intrusive count rather than std::shared_ptr, whose <memory> adds about 0.6 s to
// every build that includes xfuse.
#pragma once

#include <type_traits>
#include <utility>

#include "atomic.hpp"

namespace xf::detail {

class buffer {
 public:
  buffer() noexcept = default;
  buffer(const buffer& o) noexcept : block_(o.block_) {
    if (block_) block_->refs.fetch_add(1, order::relaxed);
  }
  buffer(buffer&& o) noexcept : block_(std::exchange(o.block_, nullptr)) {}
  buffer& operator=(buffer o) noexcept {
    std::swap(block_, o.block_);
    return *this;
  }
  ~buffer() {
    if (block_ && block_->refs.fetch_sub(1, order::acq_rel) == 1) block_->destroy(block_);
  }

  // Memory that `free(base)` releases with the last handle. If the handle cannot be made
  // (no host memory), `base` is freed before the exception leaves.
  template <class Free>
  static buffer owning(void* base, Free free) {
    return make<Free, true>(base, std::move(free));
  }
  // Memory someone else owns; `keep_alive` (any copyable object, e.g. a std::shared_ptr) is held
  // until the last handle goes.
  template <class KeepAlive>
  static buffer borrowing(void* base, KeepAlive keep_alive) {
    return make<KeepAlive, false>(base, std::move(keep_alive));
  }

  void* get() const noexcept { return block_ ? block_->base : nullptr; }
  explicit operator bool() const noexcept { return block_ != nullptr; }
  // Handles sharing this memory (0 for none): for tests and diagnostics.
  long use_count() const noexcept { return block_ ? block_->refs.load(order::relaxed) : 0; }

  // A check that host reads of this memory run after their copy: a solver attaches one that throws
  // xf::linalg_error when the factorization behind the values failed on the device.
  struct read_check {
    virtual ~read_check() = default;
    virtual void run() const = 0;
  };
  // Takes ownership; at most one per buffer, attached before the buffer is shared.
  void attach_read_check(read_check* c) noexcept {
    if (!block_) {
      delete c;
      return;
    }
    delete block_->check;
    block_->check = c;
  }
  void run_read_check() const {
    if (block_ && block_->check) block_->check->run();
  }

 private:
  struct block {
    atomic<long> refs{1};
    void* base;
    void (*destroy)(block*) noexcept;
    read_check* check = nullptr;
  };
  template <class Owner, bool Frees>
  struct block_with : block {
    Owner owner;
  };

  template <class Owner, bool Frees>
  static buffer make(void* base, Owner owner) {
    using B = block_with<Owner, Frees>;
    buffer b;
    try {
      b.block_ = new B{{1, base, [](block* p) noexcept {
                          auto* self = static_cast<B*>(p);
                          delete p->check;
                          if constexpr (Frees) self->owner(self->base);
                          delete self;
                        }},
                       std::move(owner)};
    } catch (...) {
      if constexpr (Frees) owner(base);
      throw;
    }
    return b;
  }

  block* block_ = nullptr;
};

}  // namespace xf::detail
