// SPDX-License-Identifier: Apache-2.0
// Arrays, expressions and element-wise math: everything but the library-backed layers (no cuBLAS,
// cuSOLVER or CUB here, to keep builds quick). Complex element types need <xfuse/complex.hpp>,
// half and bfloat16 <xfuse/half.hpp>.
#pragma once

#include "core/config.hpp"
#include "core/convert.hpp"
#include "core/device.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/event.hpp"
#include "core/memory.hpp"
#include "core/pinned_memory.hpp"
#include "core/shape.hpp"
#include "core/stream.hpp"

#include "array/array.hpp"
#include "array/slice.hpp"
#include "array/transfer.hpp"

#include "expr/functions.hpp"
#include "expr/generators.hpp"

#include "exec/evaluate.hpp"
#include "exec/assign_together.hpp"
