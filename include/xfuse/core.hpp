// SPDX-License-Identifier: Apache-2.0
// Arrays, expressions and element-wise math: everything but the library-backed layers (no cuBLAS,
// cuSOLVER or CUB here, to keep builds quick). Complex element types need <xfuse/complex.hpp>,
// half and bfloat16 <xfuse/half.hpp>.
#pragma once

#include "base/config.hpp"
#include "base/convert.hpp"
#include "base/device.hpp"
#include "base/dtype.hpp"
#include "base/error.hpp"
#include "base/event.hpp"
#include "base/memory.hpp"
#include "base/pinned_memory.hpp"
#include "base/shape.hpp"
#include "base/stream.hpp"

#include "array/array.hpp"
#include "array/slice.hpp"
#include "array/transfer.hpp"

#include "expr/functions.hpp"
#include "expr/generators.hpp"

#include "exec/evaluate.hpp"
#include "exec/assign_together.hpp"
