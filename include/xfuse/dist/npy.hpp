// SPDX-License-Identifier: Apache-2.0
// .npy files of distributed arrays, read and written by pieces: each task reads or writes the bytes
// of its own piece at their offsets in the file, so no process holds the whole array and every
// process of a multi-process run does its share (the file's directory must be one they all see).
// The tasks run on CPUs (Legate moves the pieces to and from the GPUs). The file is the one
// xf::save_npy writes and is made the way it makes it (array/file_write.hpp): one task creates a
// temporary beside the path with the header and the file's full size, the pieces write into it,
// and it is renamed over the path once every piece is written; a failure removes it and leaves the
// old file. A FIFO or a device as the path, and files in Fortran order or the other byte order,
// go through one local copy (xf::save_npy, xf::load_npy): their bytes come in one order only.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "../npy.hpp"
#include "array.hpp"

namespace xf::dist {
namespace detail {

// The elements of a task's piece in the file's C order, as runs of consecutive file elements,
// handed over in chunks of at most `chunk` elements: f(first file element, local offsets).
template <int R>
struct piece_runs {
  legate::Rect<R> rect;
  dims<R> extents;  // of the whole array
  dims<R> local_strides;
  std::size_t chunk = std::size_t{1} << 20;

  // Elements a run holds: the innermost dimensions the piece spans whole, times one more.
  int run_dim() const {
    int k = R - 1;
    while (k > 0 && rect.lo[k] == 0 && rect.hi[k] + 1 == extents[static_cast<std::size_t>(k)]) --k;
    return k;
  }

  template <class F>
  void for_each(F&& f) const {
    const int k = run_dim();
    index_t file_stride[R], piece_ext[R];
    index_t s = 1;
    for (int d = R - 1; d >= 0; --d) {
      file_stride[d] = s;
      s *= extents[static_cast<std::size_t>(d)];
      piece_ext[d] = rect.hi[d] - rect.lo[d] + 1;
    }
    std::vector<index_t> offsets;
    offsets.reserve(chunk);
    index_t at[R] = {};
    for (;;) {  // one run per point of dimensions 0..k-1 of the piece
      index_t file = 0, local = 0;
      for (int d = 0; d < k; ++d) {
        file += (rect.lo[d] + at[d]) * file_stride[d];
        local += at[d] * local_strides[static_cast<std::size_t>(d)];
      }
      file += rect.lo[k] * file_stride[k];
      index_t in[R] = {};
      for (bool more = true; more;) {  // dimensions k..R-1 in C order
        index_t o = local;
        for (int d = k; d < R; ++d) o += in[d] * local_strides[static_cast<std::size_t>(d)];
        offsets.push_back(o);
        if (offsets.size() == chunk) {
          f(file, offsets);
          file += static_cast<index_t>(chunk);
          offsets.clear();
        }
        more = false;
        for (int d = R - 1; d >= k && !more; --d) {
          if (++in[d] < piece_ext[d]) more = true;
          else in[d] = 0;
        }
      }
      if (!offsets.empty()) f(file, offsets);
      offsets.clear();
      int d = k - 1;
      for (; d >= 0; --d) {
        if (++at[d] < piece_ext[d]) break;
        at[d] = 0;
      }
      if (d < 0) return;
    }
  }
};

[[noreturn]] inline void file_failure(const char* what, const std::string& path, int e) {
  throw error(std::string("xf::dist::npy: ") + file::quoted(path) + ": " + what + file::errno_text(e));
}

// pread/pwrite of all n bytes at offset, in pieces of at most 1 GiB; false (errno set) on failure.
template <bool Write>
bool transfer_all(int fd, void* p, std::size_t n, std::uint64_t offset) {
  char* c = static_cast<char*>(p);
  while (n > 0) {
    const std::size_t part = n < (std::size_t{1} << 30) ? n : (std::size_t{1} << 30);
    ssize_t k;
    if constexpr (Write) k = ::pwrite(fd, c, part, static_cast<off_t>(offset));
    else k = ::pread(fd, c, part, static_cast<off_t>(offset));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) {
      if (k == 0) errno = EIO;  // a file shorter than its header says
      return false;
    }
    c += k, n -= static_cast<std::size_t>(k), offset += static_cast<std::uint64_t>(k);
  }
  return true;
}

// An open file descriptor, closed on scope exit.
struct open_file {
  int fd;
  ~open_file() {
    if (fd >= 0) ::close(fd);
  }
};

// Moves a piece's elements to (Write) or from the file whose data starts at data_offset, through a
// host buffer of at most 2^20 elements. Bytes read as bool become 0 or 1, as xf::load_npy reads them.
template <bool Write, class T, int R>
void transfer_piece(const std::string& path, std::uint64_t data_offset, const legate::PhysicalStore& store,
                    const dims<R>& extents) {
  const legate::Rect<R> rect = store.shape<R>();
  const auto piece = local_piece<T, R, xf::host>(store, rect, !Write);
  if (piece.size() == 0) return;
  const open_file f{::open(path.c_str(), (Write ? O_WRONLY : O_RDONLY) | O_CLOEXEC)};
  if (f.fd < 0) file_failure(Write ? "cannot open the file for writing" : "cannot open the file", path, errno);
  std::vector<unsigned char> buffer;  // bytes: std::vector<bool> has no data()
  piece_runs<R>{rect, extents, piece.strides()}.for_each([&](index_t file, const std::vector<index_t>& offsets) {
    const std::size_t n = offsets.size();
    buffer.resize(n * sizeof(T));
    const std::uint64_t at = data_offset + static_cast<std::uint64_t>(file) * sizeof(T);
    if constexpr (Write) {
      for (std::size_t i = 0; i < n; ++i) std::memcpy(buffer.data() + i * sizeof(T), piece.data() + offsets[i], sizeof(T));
      if (!transfer_all<true>(f.fd, buffer.data(), n * sizeof(T), at)) file_failure("writing failed", path, errno);
    } else {
      if (!transfer_all<false>(f.fd, buffer.data(), n * sizeof(T), at)) file_failure("reading failed", path, errno);
      for (std::size_t i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<T, bool>) piece.data()[offsets[i]] = buffer[i] != 0;
        else std::memcpy(piece.data() + offsets[i], buffer.data() + i * sizeof(T), sizeof(T));
      }
    }
  });
}

inline std::string string_argument(const legate::TaskContext& ctx, std::uint32_t i) {
  const legate::Scalar s = ctx.scalar(i);
  return std::string(static_cast<const char*>(s.ptr()), s.size());
}

inline legate::Scalar string_scalar(const std::string& s) {
  std::vector<std::byte> bytes(reinterpret_cast<const std::byte*>(s.data()), reinterpret_cast<const std::byte*>(s.data()) + s.size());
  return bytes_argument(bytes);
}

template <class Task>
struct cpu_only_task : legate::LegateTask<Task> {
  static void cpu_variant(legate::TaskContext ctx) {
    reporting_errors<error_route::to_legate>([&] { Task::run(ctx); });
  }
};

// Written through the temporary (its number), or in place (number 1: the target itself).
inline std::string written_file(const std::string& target, std::uint64_t number) {
  return number == 1 ? target : file::temporary_name(target, number);
}

// Copies the complete temporary into the path in place (where it may not be renamed over it).
inline void copy_in_place(const file::destination& d, const std::string& tmp, const char* op) {
  auto copy = [&](file::sink& out) {
    const open_file in{::open(tmp.c_str(), O_RDONLY | O_CLOEXEC)};
    if (in.fd < 0) file_failure("cannot reopen the temporary file", tmp, errno);
    std::vector<char> chunk(std::size_t{1} << 20);
    for (ssize_t k; (k = ::read(in.fd, chunk.data(), chunk.size())) != 0;) {
      if (k < 0 && errno == EINTR) continue;
      if (k < 0) file_failure("reading failed", tmp, errno);
      out.write(chunk.data(), static_cast<std::size_t>(k));
    }
  };
  file::write_in_place(d.target, 0, copy, op, file::partly_written);
}

// One task: the file the pieces write, with the header and the file's full size; its number
// (written_file) is the task's one-element output.
struct npy_create_task : cpu_only_task<npy_create_task> {
  static void run(const legate::TaskContext& ctx) {
    const std::string path = string_argument(ctx, 0), header = string_argument(ctx, 1);
    const auto size = ctx.scalar(2).value<std::uint64_t>();
    constexpr const char* op = "xf::dist::save_npy";
    const file::destination d = file::choose_destination(path, op);
    std::uint64_t number = 1;
    int fd = -1;
    if (d.route == file::destination::in_place_create) {
      fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0666);
    } else {
      fd = file::create_temporary(d, number, false);  // owner and mode at the rename: the pieces reopen it
      if (fd < 0 && d.exists) fd = ::open(d.target.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY), number = 1;
    }
    if (fd < 0) file::fail(op, path, "cannot create the file" + file::errno_text(errno));
    const bool ok = file::write_all(fd, header.data(), header.size()) && ::ftruncate(fd, static_cast<off_t>(size)) == 0;
    const int e = errno;
    ::close(fd);
    if (!ok) {
      if (number != 1) ::unlink(file::temporary_name(d.target, number).c_str());
      file::fail(op, path, "writing failed" + file::errno_text(e) + (number != 1 ? "; the file is unchanged" : ""));
    }
    const auto out = ctx.output(0).data().write_accessor<std::uint64_t, 1, false>();
    out[legate::Point<1>{0}] = number;
  }
};

// One task, once every piece is written: the temporary gets the old file's owner and mode and
// is renamed over the path (or copied into it where it may not be renamed: copy_in_place).
struct npy_finish_task : cpu_only_task<npy_finish_task> {
  static void run(const legate::TaskContext& ctx) {
    const std::string path = string_argument(ctx, 0);
    const auto number = ctx.input(0).data().read_accessor<std::uint64_t, 1, false>()[legate::Point<1>{0}];
    if (number <= 1) return;  // written in place
    constexpr const char* op = "xf::dist::save_npy";
    const file::destination d = file::choose_destination(path, op);
    const std::string tmp = file::temporary_name(d.target, number);
    if (const open_file made{::open(tmp.c_str(), O_RDONLY | O_CLOEXEC)}; made.fd >= 0) file::take_owner_and_mode(d, made.fd);
    file::replace_with_temporary(d, tmp, path, [&] { copy_in_place(d, tmp, op); }, op);
  }
};

// Every piece: its bytes, written from the array into the file or read from the file into it.
template <bool Write, class T, int R>
struct npy_piece_task : cpu_only_task<npy_piece_task<Write, T, R>> {
  static void run(const legate::TaskContext& ctx) {
    const std::string target = string_argument(ctx, 0);
    const auto data_offset = ctx.scalar(1).value<std::uint64_t>();
    dims<R> extents{};
    std::memcpy(extents.data(), ctx.scalar(2).ptr(), sizeof(extents));
    const legate::PhysicalStore data = Write ? ctx.input(0).data() : ctx.output(0).data();
    std::uint64_t number = 1;
    if constexpr (Write) number = ctx.input(1).data().read_accessor<std::uint64_t, 1, false>()[legate::Point<1>{0}];
    transfer_piece<Write, T, R>(written_file(target, number), data_offset, data, extents);
  }
};

template <int R>
legate::Scalar extents_argument(dims<R> extents) {
  std::vector<std::byte> bytes(sizeof(extents));
  std::memcpy(bytes.data(), extents.data(), sizeof(extents));
  return bytes_argument(bytes);
}

// The tasks of .npy files run where the machine in scope has CPUs.
inline legate::mapping::Machine cpus_in_scope() { return legate::get_machine().only(legate::mapping::TaskTarget::CPU); }

}  // namespace detail

// np.save(path, a), each piece writing its own bytes (see the top of this file). Returns once the
// file is complete (it waits for its tasks); errors (the directory, a full disk) throw here, and
// the old file stays.
template <class T, int R>
void save_npy(const std::string& path, const array<T, R>& a) {
  constexpr const char* op = "xf::dist::save_npy";
  namespace file = xf::detail::file;
  namespace npy = xf::detail::npy;
  npy::check_has_dtype<T>(op, path);
  auto* rt = detail::ordered_runtime(op);
  const file::destination d = file::choose_destination(path, op);
  const bool writer = rt->node_id() == 0;
  if (d.route == file::destination::in_place) {  // a FIFO or a device: its bytes in order, from one copy
    const auto local = a.template to_local<xf::host>();
    if (writer) xf::save_npy(path, local);
    return;
  }
  const dims<R> extents = a.shape();
  const std::string header = npy::header_bytes(std::string(1, sizeof(T) == 1 ? '|' : '<') + npy::type_code(dtype_of<T>),
                                               std::vector<index_t>(extents.begin(), extents.end()));
  auto number = zeros<std::uint64_t>(dims<1>{1});
  const legate::Scope on_cpus{detail::cpus_in_scope()};
  auto create = rt->create_task(detail::library(), detail::task_id<detail::npy_create_task>(), std::vector<std::uint64_t>{1});
  create.add_input(number.store());
  create.add_output(number.store());
  create.add_scalar_arg(detail::string_scalar(path));
  create.add_scalar_arg(detail::string_scalar(header));
  create.add_scalar_arg(legate::Scalar(static_cast<std::uint64_t>(header.size() + static_cast<std::size_t>(a.size()) * sizeof(T))));
  detail::submit_and_wait(rt, std::move(create));
  const std::uint64_t temporary = [&] {
    const legate::PhysicalStore made = number.store().get_physical_store(legate::mapping::StoreTarget::SYSMEM);
    return *static_cast<const std::uint64_t*>(made.get_inline_allocation().ptr);
  }();
  const std::string tmp = temporary > 1 ? file::temporary_name(d.target, temporary) : std::string();
  try {
    if (a.size() > 0) {
      auto write = rt->create_task(detail::library(), detail::task_id<detail::npy_piece_task<true, T, R>>());
      write.add_input(a.store());
      const auto n = write.add_input(number.store());
      write.add_constraint(legate::broadcast(n));
      write.add_scalar_arg(detail::string_scalar(d.target));
      write.add_scalar_arg(legate::Scalar(static_cast<std::uint64_t>(header.size())));
      write.add_scalar_arg(detail::extents_argument<R>(extents));
      detail::submit_and_wait(rt, std::move(write));
      detail::raise_task_errors();  // a in error (a task that made it failed): not written over the file
    }
  } catch (...) {
    if (writer && !tmp.empty()) ::unlink(tmp.c_str());
    throw;
  }
  // Every process waits for the rename and gets its error.
  auto finish = rt->create_task(detail::library(), detail::task_id<detail::npy_finish_task>(), std::vector<std::uint64_t>{1});
  finish.add_input(number.store());
  finish.add_scalar_arg(detail::string_scalar(path));
  detail::submit_and_wait(rt, std::move(finish));
}

// np.load(path) into a distributed array of element type T and rank R, each piece reading its own
// bytes. The file's dtype must be T's exactly (xf::dtype_error) and its rank R (xf::shape_error),
// as for xf::load_npy. Returns once the pieces are read (it waits for its task), so the file may
// change or go afterwards, as after numpy.load.
template <class T, int R>
array<T, R> load_npy(const std::string& path) {
  constexpr const char* op = "xf::dist::load_npy";
  namespace npy = xf::detail::npy;
  npy::check_has_dtype<T>(op, path);
  npy::input_file f = npy::open_read(path, op);
  const npy_header h = npy::read_header(f.stream, op, path);
  const auto descr = npy::find_descr(h.descr);
  bool by_pieces = f.size && !h.fortran_order && descr && descr->tag == dtype_of<T> && !descr->swap && h.shape.size() == std::size_t(R);
  dims<R> extents{};
  if (by_pieces) {
    std::copy(h.shape.begin(), h.shape.end(), extents.begin());
    by_pieces = *f.size >= h.data_offset + static_cast<std::uint64_t>(detail::product(extents)) * sizeof(T);
  }
  // Other layouts, and the errors of xf::load_npy with its messages (a short file, another dtype).
  if (!by_pieces) return from_local(xf::load_npy<T, R, xf::host>(path));
  auto out = empty<T>(extents);
  if (out.size() == 0) return out;
  auto* rt = detail::ordered_runtime(op);
  const legate::Scope on_cpus{detail::cpus_in_scope()};
  auto read = rt->create_task(detail::library(), detail::task_id<detail::npy_piece_task<false, T, R>>());
  read.add_output(out.store());
  read.add_scalar_arg(detail::string_scalar(path));
  read.add_scalar_arg(legate::Scalar(static_cast<std::uint64_t>(h.data_offset)));
  read.add_scalar_arg(detail::extents_argument<R>(extents));
  detail::submit_and_wait(rt, std::move(read));
  return out;
}

}  // namespace xf::dist
