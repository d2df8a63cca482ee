// SPDX-License-Identifier: Apache-2.0
// What a read selection (a(mask), a(idx): masked.hpp, indexed.hpp) is besides its selecting: an
// expression of one leaf whose values Derived::select() computes the first time they are needed
// (on the current stream) and that every later use reads. A copy of the proxy computes its own
// (no <memory> in the core headers).
#pragma once

#include <type_traits>

#include "array.hpp"

namespace xf::detail {

template <class Derived, class T, int Rank, class S>
class selection_result {
 public:
  using xf_expression_tag = void;
  using value_type = T;
  using space = S;
  static constexpr int rank = Rank;
  static constexpr int leaf_count = 1;
  using result_type = array<T, Rank, S>;

  const result_type& eval() const {
    if (!done_) {
      value_ = static_cast<const Derived&>(*this).select();
      done_ = true;
    }
    return value_;
  }
  operator result_type() const { return eval(); }  // NOLINT: implicit, like an array
  static constexpr int ndim() noexcept { return Rank; }
  T item() const { return eval().item(); }
  array<T, Rank, host> get() const
    requires std::is_same_v<S, device>
  {
    return eval().get();
  }

  // Expression protocol: inside a larger expression the selected values are one leaf.
  auto leaves() const { return eval().leaves(); }
  template <int First>
  slot<First, T> evaluator() const {
    return {};
  }
  result_type xf_materialize() const { return eval(); }
  template <int RD>
  void xf_assign_into(const array<T, RD, S>& dst) const {
    assign_into(dst, eval(), "xf::array::assign");
  }

 private:
  mutable result_type value_;
  mutable bool done_ = false;
};

}  // namespace xf::detail
