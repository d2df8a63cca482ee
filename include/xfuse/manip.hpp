// SPDX-License-Identifier: Apache-2.0
// Array manipulation, NumPy's names and rules, for host and device arrays: joining (concatenate,
// stack, vstack, hstack), tile and repeat, meshgrid, pad and roll, take and put, nonzero, argwhere
// and unique, ascontiguousarray, atleast_1d and atleast_2d. Built on views, generators, fused
// assignment, reductions, scans and sorting; docs/guide.md, "Array manipulation", says what each
// costs (kernels, host reads).
#pragma once

#include "manip/views.hpp"
#include "manip/join.hpp"
#include "manip/index.hpp"
#include "manip/repeat.hpp"
#include "manip/shift.hpp"
#include "manip/select.hpp"
