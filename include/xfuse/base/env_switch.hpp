// SPDX-License-Identifier: Apache-2.0
// An on/off switch whose first value comes from an environment variable: "0" turns it off, "1" on,
// anything else (or nothing) leaves the default. Read by the caller once (programmatic launch,
// the transforms' callbacks and line kernels).
#pragma once

#include <cstdlib>
#include <cstring>

namespace xf::detail {

inline bool env_switch(const char* variable, bool default_on) {
  const char* v = std::getenv(variable);
  if (v != nullptr && std::strcmp(v, "0") == 0) return false;
  if (v != nullptr && std::strcmp(v, "1") == 0) return true;
  return default_on;
}

}  // namespace xf::detail
