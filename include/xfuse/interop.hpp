// SPDX-License-Identifier: Apache-2.0
// Interchange with other libraries: DLPack tensors (to_dlpack, from_dlpack), cuda::std::mdspan
// (as_mdspan, from_mdspan) and Thrust-compatible iterators over contiguous arrays (xf::begin,
// xf::end). Works in host-compiled files too; Thrust's algorithms on device arrays need nvcc.
#pragma once

#include "core.hpp"
#include "interop/dlpack.hpp"
#include "interop/iterators.hpp"
#include "interop/mdspan.hpp"
