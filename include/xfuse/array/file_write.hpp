// SPDX-License-Identifier: Apache-2.0
// The one way xfuse writes a file (.npy, .npz): bytes produced in order into a sink, never a seek,
// so that what can be written to a regular file can be written to a FIFO or a device as well.
//  - A regular file (through symbolic links, which stay links) or a new path: a temporary file in
//    the same directory, created exclusively and renamed over the path once complete. A failed
//    write leaves the old file (or no file) and removes only the temporary. A new file gets
//    open(2)'s mode (0666 less the umask, default ACLs); an existing one keeps its mode and, where
//    allowed, its owner (hard links to it keep the old data).
//  - Anything else that exists (a device, a FIFO, a socket's path) is written in place, as
//    NumPy's open(path, "wb") does, and never removed or replaced.
// POSIX (open, rename, stat).
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../base/atomic.hpp"
#include "../base/error.hpp"

namespace xf::detail::file {

inline std::string quoted(const std::string& path) { return "'" + path + "'"; }

[[noreturn]] inline void fail(const char* op, const std::string& path, const std::string& what) {
  throw error(std::string(op) + ": " + quoted(path) + ": " + what);
}

inline std::string errno_text(int e) { return e ? std::string(" (") + std::strerror(e) + ")" : ""; }

// Writes all n bytes; false (errno set) on failure.
inline bool write_all(int fd, const void* p, std::size_t n) {
  const char* c = static_cast<const char*>(p);
  while (n > 0) {
    const ssize_t k = ::write(fd, c, n < (std::size_t{1} << 30) ? n : (std::size_t{1} << 30));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) {
      if (k == 0) errno = EIO;
      return false;
    }
    c += k;
    n -= static_cast<std::size_t>(k);
  }
  return true;
}

// The bytes of a file in the order they are made: counts them, and keeps the first error (after
// which it writes nothing more), which the writer reports once the body is done.
class sink {
 public:
  explicit sink(int fd) : fd_(fd) {}
  void write(const void* p, std::size_t n) {
    if (error_ != 0 || n == 0) return;
    if (!write_all(fd_, p, n)) error_ = errno != 0 ? errno : EIO;
    else written_ += n;
  }
  void write(const std::string& s) { write(s.data(), s.size()); }
  std::uint64_t written() const noexcept { return written_; }
  int error() const noexcept { return error_; }

 private:
  int fd_;
  int error_ = 0;
  std::uint64_t written_ = 0;
};

// A number for a temporary file's name that no other process or thread makes at the same moment
// (O_EXCL still decides): pid, a counter, the clock and a stack address, mixed (splitmix64).
inline std::uint64_t unique_number() {
  static atomic<unsigned long long> counter{0};
  int local = 0;
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  std::uint64_t x = static_cast<std::uint64_t>(::getpid()) << 32 ^ counter.fetch_add(1, order::relaxed) ^
                    static_cast<std::uint64_t>(now.tv_sec) * 1000000007u ^ static_cast<std::uint64_t>(now.tv_nsec) ^
                    reinterpret_cast<std::uintptr_t>(&local);
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The temporary beside `target` that number names: .NAME.<16 hex digits>.tmp in its directory.
inline std::string temporary_name(const std::string& target, std::uint64_t number) {
  const std::size_t slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : target.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? target : target.substr(slash + 1);
  static constexpr char hex[] = "0123456789abcdef";
  std::string digits(16, '0');
  for (int i = 0; i < 16; ++i) digits[static_cast<std::size_t>(i)] = hex[(number >> (4 * i)) & 15];
  return dir + "." + (name.size() <= 200 ? name : std::string("xfuse")) + "." + digits + ".tmp";  // NAME_MAX is 255
}

// Runs body(sink) into fd, then closes fd; 0 on success, else the errno of the failure. An
// exception from the body closes fd and passes on.
template <class Body>
int write_and_close(int fd, Body& body) {
  sink out(fd);
  try {
    body(out);
  } catch (...) {
    ::close(fd);
    throw;
  }
  int e = out.error();
  if (::close(fd) != 0 && e == 0) e = errno;  // deferred errors (NFS, quotas) surface at close
  return e;
}

// Writes the path as it is (open with O_TRUNC, no rename): devices, FIFOs, and regular files whose
// directory takes no temporary file. Nothing is removed on failure.
template <class Body>
void write_in_place(const std::string& path, int flags, Body& body, const char* op, const char* after_failure) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY | flags, 0666);
  if (fd < 0) fail(op, path, std::string(flags & O_CREAT ? "cannot create the file" : "cannot open the file for writing") + errno_text(errno));
  if (const int e = write_and_close(fd, body)) fail(op, path, "writing failed" + errno_text(e) + after_failure);
}

// Where the bytes for `path` go, as the top of this file says: the file itself (through links),
// whether it exists, and the route.
struct destination {
  enum route_kind { temporary, in_place, in_place_create };
  std::string target;
  bool exists = false;
  struct stat st {};
  route_kind route = temporary;
};

inline destination choose_destination(const std::string& path, const char* op) {
  destination d;
  struct stat lst {};
  d.target = path;
  d.exists = ::stat(path.c_str(), &d.st) == 0;
  if (d.exists && !S_ISREG(d.st.st_mode)) {
    d.route = destination::in_place;
    return d;
  }
  const bool is_link = ::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode);
  if (!d.exists && is_link) {  // a dangling link: open(2) would create its target, so do that
    d.route = destination::in_place_create;
    return d;
  }
  if (is_link) {  // the file itself, so that links to it stay links
    char* real = ::realpath(path.c_str(), nullptr);
    if (real == nullptr) fail(op, path, "cannot resolve the symbolic link" + errno_text(errno));
    d.target = real;
    std::free(real);
  }
  // The permission open(2) would check: a read-only file stays read-only even in a writable directory.
  if (d.exists && ::faccessat(AT_FDCWD, d.target.c_str(), W_OK, AT_EACCESS) != 0)
    fail(op, path, "cannot open the file for writing" + errno_text(errno));
  return d;
}

// Gives the file fd the owner and mode of the existing file it will replace.
inline void take_owner_and_mode(const destination& d, int fd) {
  if (!d.exists) return;
  if (d.st.st_uid != ::geteuid() || d.st.st_gid != ::getegid())
    if (::fchown(fd, d.st.st_uid, d.st.st_gid) != 0) (void)!::fchown(fd, static_cast<uid_t>(-1), d.st.st_gid);
  (void)::fchmod(fd, d.st.st_mode & 07777);  // after chown, which clears set-id bits
}

// A temporary beside d.target, created exclusively (with the owner and mode of the file it will
// replace, unless told not to); -1 with errno set where the directory takes none. `number` names
// it (temporary_name) and is never 0 or 1, which callers may use as markers.
inline int create_temporary(const destination& d, std::uint64_t& number, bool owner_and_mode = true) {
  int fd = -1;
  for (int attempt = 0; attempt < 64 && fd < 0; ++attempt) {
    do number = unique_number();
    while (number <= 1);
    fd = ::open(temporary_name(d.target, number).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd >= 0 && owner_and_mode) take_owner_and_mode(d, fd);
  return fd;
}

inline constexpr const char* partly_written =
    " (the file was written in place, since its directory takes no temporary file, and may be partly written)";

// Renames the complete temporary over d.target. Where that is refused for an existing file (a
// sticky directory such as /tmp lets only the owner replace a file that others may still write),
// rewrite() writes the path in place instead. The temporary is gone either way.
template <class Rewrite>
void replace_with_temporary(const destination& d, const std::string& tmp, const std::string& path, Rewrite&& rewrite, const char* op) {
  if (::rename(tmp.c_str(), d.target.c_str()) == 0) return;
  const int e = errno;
  if (d.exists && (e == EPERM || e == EACCES)) {
    try {
      rewrite();
    } catch (...) {
      ::unlink(tmp.c_str());
      throw;
    }
    ::unlink(tmp.c_str());
    return;
  }
  ::unlink(tmp.c_str());
  fail(op, path, "cannot replace the file" + errno_text(e) + (d.exists ? "; the file is unchanged" : ""));
}

// Writes what body(sink) produces at `path`, as the top of this file says.
template <class Body>
void write_file(const std::string& path, Body&& body, const char* op) {
  const destination d = choose_destination(path, op);
  if (d.route == destination::in_place) return write_in_place(path, 0, body, op, "");
  if (d.route == destination::in_place_create) return write_in_place(path, O_CREAT, body, op, " (the file may be partly written)");
  std::uint64_t number = 0;
  const int fd = create_temporary(d, number);
  if (fd < 0) {
    const int e = errno;
    if (d.exists) return write_in_place(d.target, 0, body, op, partly_written);  // e.g. a read-only directory
    fail(op, path, "cannot create the file" + errno_text(e));
  }
  const std::string tmp = temporary_name(d.target, number);
  int e = 0;
  try {
    e = write_and_close(fd, body);
  } catch (...) {  // nothing half-written is left beside the path
    ::unlink(tmp.c_str());
    throw;
  }
  if (e != 0) {
    ::unlink(tmp.c_str());
    fail(op, path, "writing failed" + errno_text(e) + (d.exists ? "; the file is unchanged" : "; no file was made"));
  }
  replace_with_temporary(d, tmp, path, [&] {
    ::unlink(tmp.c_str());  // the bytes are the body's again: no second copy on the disk
    write_in_place(d.target, 0, body, op, partly_written);
  }, op);
}

}  // namespace xf::detail::file
