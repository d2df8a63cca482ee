// SPDX-License-Identifier: Apache-2.0
// Array manipulation, NumPy's names and rules, for host and device arrays: joining (concatenate,
// stack, vstack, hstack, column_stack, dstack, append), splitting (split, array_split, hsplit,
// vsplit, dsplit), tile and repeat, meshgrid, pad and roll, moveaxis and rot90, take, put and
// take_along_axis, nonzero, flatnonzero, argwhere and unique, searchsorted, partition, bincount and
// histogram, tril, triu, diag, select and compress, logspace and geomspace, ascontiguousarray,
// atleast_1d and atleast_2d. Built on views, generators, fused assignment, reductions, scans and
// sorting; docs/guide.md, "Array manipulation", says what each costs (kernels, host reads).
#pragma once

#include "manip/views.hpp"
#include "manip/join.hpp"
#include "manip/index.hpp"
#include "manip/repeat.hpp"
#include "manip/shift.hpp"
#include "manip/pad.hpp"
#include "manip/select.hpp"
#include "manip/count.hpp"
#include "manip/shape.hpp"
#include "manip/mask.hpp"
#include "manip/edit.hpp"
#include "manip/differences.hpp"
#include "manip/lookup.hpp"
#include "manip/lexsort.hpp"
