// SPDX-License-Identifier: Apache-2.0
// Exceptions. Every failure names the operation and the shapes, dtypes or devices involved;
// throwing leaves arrays and the memory pool as they were.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>

#include "config.hpp"

namespace xf {

class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Shapes that do not broadcast or do not fit the operation.
class shape_error : public error {
 public:
  using error::error;
};

// An element type the operation does not take, or a value that does not fit it.
class dtype_error : public error {
 public:
  using error::error;
};

// An index outside an array's extent.
class index_error : public error {
 public:
  using error::error;
};

// An array used on a device that cannot reach its memory, or no device at all.
class device_error : public error {
 public:
  using error::error;
};

// An allocation past the pool's limit or past the device's memory. The pool stays usable.
class out_of_memory : public error {
 public:
  out_of_memory(const std::string& what, std::size_t requested, std::size_t used, std::size_t total,
                std::size_t limit, int device)
      : error(what), requested_(requested), used_(used), total_(total), limit_(limit), device_(device) {}
  std::size_t requested_bytes() const noexcept { return requested_; }
  std::size_t used_bytes() const noexcept { return used_; }
  std::size_t total_bytes() const noexcept { return total_; }
  std::size_t limit_bytes() const noexcept { return limit_; }  // 0: no limit
  int device() const noexcept { return device_; }

 private:
  std::size_t requested_, used_, total_, limit_;
  int device_;
};

// A CUDA runtime call that failed: the call as written, the code, and where.
class cuda_error : public error {
 public:
  cuda_error(cudaError_t code, const char* call, const char* file, int line)
      : error(std::string("xf::cuda_error: ") + call + " failed with " + cudaGetErrorName(code) +
              " (" + cudaGetErrorString(code) + ") at " + file + ":" + std::to_string(line)),
        code_(code),
        call_(call),
        file_(file),
        line_(line) {}
  cudaError_t code() const noexcept { return code_; }
  const char* call() const noexcept { return call_; }
  const char* file() const noexcept { return file_; }
  int line() const noexcept { return line_; }

 private:
  cudaError_t code_;
  const char* call_;
  const char* file_;
  int line_;
};

namespace detail {

[[noreturn]] inline void throw_cuda_error(cudaError_t code, const char* call, const char* file,
                                          int line) {
  (void)cudaGetLastError();  // clear a non-sticky error so the next check does not see it again
  // A machine without a GPU (or without a driver) is not a failed call: any runtime call can be
  // the first to find out, so the one place that turns codes into exceptions says it.
  if (code == cudaErrorNoDevice || code == cudaErrorInsufficientDriver)
    throw device_error(std::string("xf::device_error: no CUDA device or driver: ") + call + " failed with " +
                       cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")");
  throw cuda_error(code, call, file, line);
}

// For destructors, which must not throw: report once on stderr instead of ignoring the result.
inline void report_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  (void)cudaGetLastError();
  if (code == cudaErrorCudartUnloading) return;  // process exit: the runtime already let go
  std::fprintf(stderr, "xfuse: %s failed with %s at %s:%d (in a destructor; not thrown)\n", call,
               cudaGetErrorName(code), file, line);
}

}  // namespace detail
}  // namespace xf

// A CUDA runtime call whose failure goes to `handler` (throw_cuda_error or report_cuda_error).
#define XF_CUDA_CALL_CHECKED(call, handler)                      \
  do {                                                          \
    const cudaError_t xf_status_ = (call);                      \
    if (xf_status_ != cudaSuccess)                              \
      ::xf::detail::handler(xf_status_, #call, __FILE__, __LINE__); \
  } while (0)
#define XF_CUDA_CHECK(call) XF_CUDA_CALL_CHECKED(call, throw_cuda_error)
#define XF_CUDA_CHECK_NOTHROW(call) XF_CUDA_CALL_CHECKED(call, report_cuda_error)
