// SPDX-License-Identifier: Apache-2.0
// Everything xfuse offers, but linear algebra (<xfuse/linalg.hpp>) and the Thrust iterators
// (<xfuse/interop.hpp>: Thrust's headers cost every file about a second).
#pragma once

#include "core.hpp"
#include "complex.hpp"
#include "graph.hpp"
#include "half.hpp"
#include "reduce.hpp"
#include "scan.hpp"
#include "sort.hpp"
#include "quantile.hpp"
#include "average.hpp"
#include "random.hpp"
#include "permutation.hpp"
#include "signal.hpp"
#include "array/npy.hpp"
#include "array/npz.hpp"
#include "benchmark.hpp"
#include "array/print.hpp"
#include "user/fuse.hpp"
#include "user/launch.hpp"
#include "user/map.hpp"
#include "interop/dlpack.hpp"
#include "interop/mdspan.hpp"
#include "manip.hpp"
#include "norm.hpp"
#include "softmax.hpp"
