// SPDX-License-Identifier: Apache-2.0
// NumPy's .npy files: xf::save_npy, xf::load_npy, xf::read_npy_header (array/npy.hpp).
#pragma once

#include "core.hpp"
#include "array/npy.hpp"
