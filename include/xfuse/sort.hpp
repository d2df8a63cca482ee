// SPDX-License-Identifier: Apache-2.0
// Sorting along the last axis or any other (NumPy's sort and argsort): stable, NaN last, for every
// real element type, of any expression. xf::sort returns the sorted values (sort/sorted.hpp),
// xf::argsort the int64 positions that sort each line. Device arrays sort on CUB's radix sorts
// (sort/device.cuh) in stream order; host arrays with std::stable_sort.
#pragma once

#include "sort/sorting.hpp"
