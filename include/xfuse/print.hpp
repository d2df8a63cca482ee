// SPDX-License-Identifier: Apache-2.0
// Printing arrays as NumPy does: xf::repr(a) and std::cout << a (array/print.hpp).
#pragma once

#include "core.hpp"
#include "array/print.hpp"
