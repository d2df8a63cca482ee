// SPDX-License-Identifier: Apache-2.0
// A reduction described with xf::lazy (reduce/pending.hpp) used as an operand of an element-wise
// expression: `x - xf::lazy::mean(x, 1, xf::keepdims)`. Inside any expression it is one leaf, its
// result, computed the first time the expression is evaluated. When such an expression is written
// into a device array and every reduction in it folds the rows of the result's own shape along one
// axis, the reductions and the expression run as one kernel (reduce/row_statistics.hpp). Described
// reductions, scans and row functions are producers (exec/producer.hpp): evaluation asks them
// through their own member, `xf_feed`. This header only names the kinds, for the plans that must
// tell them apart.
#pragma once

#include <type_traits>

#include "node.hpp"

namespace xf::detail {

// A described reduction (pending_reduction), and an expression that holds one.
template <class E>
struct pending_reduction_kind : std::bool_constant<requires { E::xf_pending_reduction; }> {};
template <class E>
inline constexpr bool is_pending_operand = pending_reduction_kind<std::remove_cvref_t<E>>::value;
template <class E>
inline constexpr bool holds_pending_reduction = holds_kind<pending_reduction_kind, E>;

// A described scan (scan/pending.hpp: xf::lazy::cumsum), and an expression that holds one.
template <class E>
struct pending_scan_kind : std::bool_constant<requires { E::xf_pending_scan; }> {};
template <class E>
inline constexpr bool is_pending_scan = pending_scan_kind<std::remove_cvref_t<E>>::value;
template <class E>
inline constexpr bool holds_pending_scan = holds_kind<pending_scan_kind, E>;

}  // namespace xf::detail
