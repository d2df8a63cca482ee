// SPDX-License-Identifier: Apache-2.0
// Complex element types: xf::complex64 and xf::complex128 (cuda::std::complex) with their
// arithmetic and functions. Kept out of core.hpp because <cuda/std/complex> costs about 2 s of
// compile time; xfuse.hpp includes it.
#pragma once

#include <cuda/std/complex>

#include "core.hpp"
