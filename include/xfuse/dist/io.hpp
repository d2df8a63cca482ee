// SPDX-License-Identifier: Apache-2.0
// Distributed arrays in .npy files and in print: through one local copy on this process (the
// file format and NumPy's layout are those of xf::save_npy, xf::load_npy and xf::repr). In a
// multi-process run every process loads the file (it must be readable by all) and prints.
#pragma once

#include <ostream>
#include <string>

#include "../npy.hpp"
#include "../print.hpp"
#include "array.hpp"

namespace xf::dist {

// Written by the first process of a multi-process run only (every process runs the program).
template <class T, int R>
void save_npy(const std::string& path, const array<T, R>& a) {
  const auto local = a.template to_local<xf::host>();
  if (detail::runtime("xf::dist::save_npy")->node_id() == 0) xf::save_npy(path, local);
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
std::string str(const array<T, R>& a) {
  return xf::str(a.template to_local<xf::host>());
}

template <class T, int R>
std::ostream& operator<<(std::ostream& os, const array<T, R>& a) {
  return os << a.template to_local<xf::host>();
}

}  // namespace xf::dist
