// SPDX-License-Identifier: Apache-2.0
// xf::fuse: the counterpart of @cp.fuse(kernel_name=...). Calling the fused function on arrays
// evaluates the lambda's expression in one kernel, inside an NVTX range with the given name, so
// Nsight Systems shows it by name.
#pragma once

#include "../exec/evaluate.hpp"
#include "../base/nvtx_emit.hpp"

namespace xf {

template <class F>
class fused_function {
 public:
  fused_function(F f, const char* name) : f_(f), name_(name) {}

  // Builds the lambda's expression from the arguments and materialises it (one kernel).
  template <class... A>
    requires(operand<A> && ...)
  auto operator()(const A&... args) const {
    detail::nvtx_range range(name_);
    const auto e = f_(args...);
    if constexpr (expression<decltype(e)>) return eval(e);
    else return e;  // the lambda already returned a value (an array, a scalar)
  }

  // The lazy expression, for use inside a larger expression.
  template <class... A>
  auto expr(const A&... args) const {
    return f_(args...);
  }

  const char* name() const noexcept { return name_; }

 private:
  F f_;
  const char* name_;
};

// Wraps a generic lambda over expressions: xf::fuse([](auto x, auto y) { return (x - y) * (x - y); }, "squared_diff").
template <class F>
fused_function<F> fuse(F f, const char* name = "xf::fuse") {
  return fused_function<F>(f, name);
}

}  // namespace xf
