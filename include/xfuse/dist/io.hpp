// SPDX-License-Identifier: Apache-2.0
// Distributed arrays in print, through one local copy on this process (NumPy's layout, as xf::repr
// and xf::str print). In a multi-process run every process prints. Files: dist/npy.hpp.
#pragma once

#include <ostream>
#include <string>

#include "../print.hpp"
#include "array.hpp"

namespace xf::dist {

template <class T, int R>
std::string repr(const array<T, R>& a) {
  return xf::repr(a.template to_local<xf::host>());
}

template <class T, int R>
std::string str(const array<T, R>& a) {
  return xf::str(a.template to_local<xf::host>());
}

template <class T, int R>
std::ostream& operator<<(std::ostream& os, const array<T, R>& a) {
  return os << a.template to_local<xf::host>();
}

}  // namespace xf::dist
