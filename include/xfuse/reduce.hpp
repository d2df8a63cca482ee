// SPDX-License-Identifier: Apache-2.0
// Reductions of any expression, in one pass with no temporary: sum, prod, mean, var, std, min, max,
// argmin, argmax, ptp, any, all, count_nonzero, their NaN-skipping forms (nansum, nanprod,
// nanmean, nanvar, nanstd, nanmin, nanmax, nanargmin, nanargmax) and user reducers (xf::reduce). Over all elements (a 0-d array), one axis or several, with keepdims; NumPy's result
// types, or a `Dtype` given as the first template argument (NumPy's dtype=). Results are arrays of
// the expression's space, computed in stream order: no synchronisation until `.item()`.
#pragma once

#include "reduce/reductions.hpp"
// xf::eval of several described reductions: one pass where they share the walk.
#include "reduce/together.hpp"
// Described reductions as operands: `x - xf::lazy::mean(x, 1, xf::keepdims)` in one kernel.
#include "reduce/row_statistics.hpp"
