// SPDX-License-Identifier: Apache-2.0
// Your own code in xfuse's kernels: xf::fuse (a named fused function, CuPy's @cp.fuse, shown by
// name in Nsight Systems), xf::map (a __host__ __device__ function as one node of a fused
// expression, CuPy's ElementwiseKernel) and xf::launch (your __global__ function over arrays seen
// as xf::view, CuPy's RawKernel). Builds on <xfuse/core.hpp> only.
#pragma once

#include "core.hpp"
#include "user/fuse.hpp"
#include "user/launch.hpp"
#include "user/map.hpp"
