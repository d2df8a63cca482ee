// SPDX-License-Identifier: Apache-2.0
// Atomics on the GCC/Clang builtins. xfuse needs counters, flags and pointers published once;
// <atomic> would add about 0.2 s to every build that includes xfuse.
#pragma once

namespace xf::detail {

enum class order : int {
  relaxed = __ATOMIC_RELAXED,
  acquire = __ATOMIC_ACQUIRE,
  release = __ATOMIC_RELEASE,
  acq_rel = __ATOMIC_ACQ_REL,
};

template <class T>
class atomic {
 public:
  constexpr atomic() noexcept = default;
  constexpr atomic(T v) noexcept : v_(v) {}  // NOLINT: like std::atomic
  atomic(const atomic&) = delete;
  atomic& operator=(const atomic&) = delete;

  T load(order o) const noexcept { return __atomic_load_n(&v_, static_cast<int>(o)); }
  void store(T v, order o) noexcept { __atomic_store_n(&v_, v, static_cast<int>(o)); }
  T exchange(T v, order o) noexcept { return __atomic_exchange_n(&v_, v, static_cast<int>(o)); }
  T fetch_add(T d, order o) noexcept { return __atomic_fetch_add(&v_, d, static_cast<int>(o)); }
  T fetch_sub(T d, order o) noexcept { return __atomic_fetch_sub(&v_, d, static_cast<int>(o)); }
  // On failure `expected` receives the current value (loaded with acquire unless `o` is weaker).
  bool compare_exchange_strong(T& expected, T desired, order o) noexcept {
    const order on_failure = o == order::acq_rel ? order::acquire : o == order::release ? order::relaxed : o;
    return __atomic_compare_exchange_n(&v_, &expected, desired, false, static_cast<int>(o),
                                       static_cast<int>(on_failure));
  }

 private:
  T v_{};
};

}  // namespace xf::detail
