// SPDX-License-Identifier: Apache-2.0
// Distributed arrays in .npy files and in print: through one local copy on this process (the
// file format and NumPy's layout are those of xf::save_npy, xf::load_npy and xf::repr).
#pragma once

#include <ostream>
#include <string>

#include "../npy.hpp"
#include "../print.hpp"
#include "array.hpp"

namespace xf::dist {

template <class T, int R>
void save_npy(const std::string& path, const array<T, R>& a) {
  xf::save_npy(path, a.template to_local<xf::host>());
}

template <class T, int R>
array<T, R> load_npy(const std::string& path) {
  return from_local(xf::load_npy<T, R, xf::host>(path));
}

template <class T, int R>
std::string repr(const array<T, R>& a) {
  return xf::repr(a.template to_local<xf::host>());
}

template <class T, int R>
std::ostream& operator<<(std::ostream& os, const array<T, R>& a) {
  return os << a.template to_local<xf::host>();
}

}  // namespace xf::dist
