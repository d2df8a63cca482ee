// SPDX-License-Identifier: Apache-2.0
// Cumulative sums and products (NumPy's cumsum, cumprod, nancumsum, nancumprod) of any
// expression: along one axis (the result has the input's shape) or, with no axis, over the
// flattened input in C order (a 1-D result). NumPy's result types (int8 accumulates in int64), or
// a `Dtype` given as the first template argument. Device scans run on CUB (scan/device.cuh), in
// stream order. xf::lazy::cumsum describes a scan for use inside an expression (scan/pending.hpp,
// scan/consumer.hpp).
#pragma once

#include "scan/scans.hpp"
// A described scan and the element-wise expression that uses it in one kernel.
#include "scan/consumer.hpp"
