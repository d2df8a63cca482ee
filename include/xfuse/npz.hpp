// SPDX-License-Identifier: Apache-2.0
// NumPy's .npz archives: xf::savez, xf::savez_compressed, xf::load_npz (array/npz.hpp).
#pragma once

#include "core.hpp"
#include "array/npz.hpp"
