// SPDX-License-Identifier: Apache-2.0
// NumPy's .npz archives: xf::savez / xf::savez_compressed write several arrays into one zip file
// (member "name.npy" each, as numpy.savez), and xf::load_npz opens one (NumPy's NpzFile): the
// member names, and each member read as an array on request.
//
// Stored members need nothing beyond the C++ library; deflate (savez_compressed, and archives
// that numpy.savez_compressed or other tools compressed) needs zlib: define XFUSE_WITH_ZLIB (to
// 1, before the first xfuse header) and link zlib (CMake: ZLIB::ZLIB). Archives and members over 4 GiB use zip64 records, as Python's zipfile does. A
// member is read through a stream bounded by its recorded size (and inflated as it is read), its
// CRC-32 checked at the end; a malformed archive throws xf::error naming the path and member.
#pragma once

#include <array>
#include <cerrno>
#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <streambuf>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "npy.hpp"

#if XFUSE_WITH_ZLIB
#include <zlib.h>
#define XFUSE_NPZ_NAMESPACE npz_with_zlib
#else
#define XFUSE_NPZ_NAMESPACE npz_without_zlib
#endif

// Files built with and without XFUSE_WITH_ZLIB may share a program: their definitions differ, so
// they live in differently named inline namespaces (one definition rule).
namespace xf {
inline namespace XFUSE_NPZ_NAMESPACE {

// One array of an archive and its name (numpy.savez's keyword arguments): xf::named("x", a).
template <class A>
struct npz_entry {
  std::string name;
  A value;
};
template <element T, int R, class S>
npz_entry<array<T, R, S>> named(std::string name, const array<T, R, S>& a) {
  return {std::move(name), a};
}

}  // namespace XFUSE_NPZ_NAMESPACE

namespace detail {
inline namespace XFUSE_NPZ_NAMESPACE {
namespace npz {

inline constexpr std::uint32_t local_signature = 0x04034b50, central_signature = 0x02014b50, end_signature = 0x06054b50,
                               zip64_end_signature = 0x06064b50, zip64_locator_signature = 0x07064b50,
                               data_descriptor_signature = 0x08074b50;
inline constexpr std::uint32_t max32 = 0xffffffffu;
inline constexpr std::uint16_t stored = 0, deflated = 8;

// CRC-32 (zip's polynomial 0xedb88320), continued from `crc`.
inline std::uint32_t crc32(std::uint32_t crc, const void* data, std::size_t n) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  const auto* p = static_cast<const unsigned char*>(data);
  crc = ~crc;
  for (std::size_t i = 0; i < n; ++i) crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
}

[[noreturn]] inline void fail(const char* op, const std::string& path, const std::string& why) {
  throw error(std::string(op) + ": " + npy::quoted(path) + ": " + why);
}

// Little-endian fields.
inline void write_le(std::string& s, std::uint64_t v, int bytes) {
  for (int b = 0; b < bytes; ++b) s += static_cast<char>((v >> (8 * b)) & 0xff);
}
inline std::uint64_t read_le(const unsigned char* p, int bytes) {
  std::uint64_t v = 0;
  for (int b = bytes; b-- > 0;) v = v << 8 | p[b];
  return v;
}

// What the central directory says about one member.
struct member {
  std::string name;
  std::uint16_t method = stored;
  std::uint32_t crc = 0;
  std::uint64_t compressed = 0, size = 0, header_offset = 0;
};

// A member being written: its .npy bytes (header, then data) and where its local header is.
struct written {
  std::string name;
  std::uint16_t method;
  std::uint32_t crc = 0;
  std::uint64_t compressed = 0, size = 0, offset = 0;
};

// A local or central header's zip64 extra field (sizes, and the offset in the central one).
inline std::string zip64_extra(const written& w, bool central) {
  std::string body;
  write_le(body, w.size, 8);
  write_le(body, w.compressed, 8);
  if (central) write_le(body, w.offset, 8);
  std::string extra;
  write_le(extra, 0x0001, 2);
  write_le(extra, body.size(), 2);
  return extra + body;
}

// General-purpose flags: UTF-8 names, and for deflated members bit 3 (the CRC and sizes follow the
// data in a descriptor, since the file is written front to back without seeking).
inline std::uint16_t member_flags(const written& w) { return w.method == deflated ? 0x0808 : 0x0800; }

inline std::string local_header(const written& w) {
  std::string h;
  write_le(h, local_signature, 4);
  write_le(h, 45, 2);  // version needed: 4.5 (zip64)
  write_le(h, member_flags(w), 2);
  write_le(h, w.method, 2);
  write_le(h, 0, 2);  // time 00:00
  write_le(h, 0x21, 2);  // date 1980-01-01: the same bytes every time
  write_le(h, w.crc, 4);
  write_le(h, max32, 4);  // sizes in the zip64 field
  write_le(h, max32, 4);
  write_le(h, w.name.size(), 2);
  const std::string extra = zip64_extra(w, false);
  write_le(h, extra.size(), 2);
  return h + w.name + extra;
}

inline std::string central_header(const written& w) {
  std::string h;
  write_le(h, central_signature, 4);
  write_le(h, 45 | (3 << 8), 2);  // made by: 4.5, Unix
  write_le(h, 45, 2);
  write_le(h, member_flags(w), 2);
  write_le(h, w.method, 2);
  write_le(h, 0, 2);
  write_le(h, 0x21, 2);
  write_le(h, w.crc, 4);
  write_le(h, max32, 4);
  write_le(h, max32, 4);
  write_le(h, w.name.size(), 2);
  const std::string extra = zip64_extra(w, true);
  write_le(h, extra.size(), 2);
  write_le(h, 0, 2);  // comment
  write_le(h, 0, 2);  // disk
  write_le(h, 0, 2);  // internal attributes
  write_le(h, std::uint64_t{0644} << 16, 4);  // rw-r--r--
  write_le(h, max32, 4);  // offset in the zip64 field
  return h + w.name + extra;
}

// The end records: zip64 end of central directory, its locator, and the classic end record.
inline std::string end_records(std::uint64_t count, std::uint64_t directory_offset, std::uint64_t directory_size) {
  std::string e;
  write_le(e, zip64_end_signature, 4);
  write_le(e, 44, 8);  // the record's size after this field
  write_le(e, 45 | (3 << 8), 2);
  write_le(e, 45, 2);
  write_le(e, 0, 4);
  write_le(e, 0, 4);
  write_le(e, count, 8);
  write_le(e, count, 8);
  write_le(e, directory_size, 8);
  write_le(e, directory_offset, 8);
  write_le(e, zip64_locator_signature, 4);
  write_le(e, 0, 4);
  write_le(e, directory_offset + directory_size, 8);
  write_le(e, 1, 4);
  write_le(e, end_signature, 4);
  write_le(e, 0, 2);
  write_le(e, 0, 2);
  write_le(e, count < 0xffff ? count : 0xffff, 2);
  write_le(e, count < 0xffff ? count : 0xffff, 2);
  write_le(e, directory_size < max32 ? directory_size : max32, 4);
  write_le(e, directory_offset < max32 ? directory_offset : max32, 4);
  write_le(e, 0, 2);
  return e;
}

// The data descriptor after a deflated member: its CRC and both sizes (8 bytes each, zip64).
inline std::string data_descriptor(const written& w) {
  std::string d;
  write_le(d, data_descriptor_signature, 4);
  write_le(d, w.crc, 4);
  write_le(d, w.compressed, 8);
  write_le(d, w.size, 8);
  return d;
}

// Appends one member (its local header, the .npy header and data, stored or deflated) to the
// file, front to back; fills in its CRC and sizes for the central directory. A stored member's CRC
// is computed before its header is written; a deflated one's sizes go in the data descriptor.
inline void write_member(file::sink& out, written& w, const std::string& header, const void* data, std::size_t nbytes,
                         const char* op, const std::string& path) {
  w.offset = out.written();
  w.size = header.size() + nbytes;
  if (w.method == stored) {
    w.crc = crc32(crc32(0, header.data(), header.size()), data, nbytes);
    w.compressed = w.size;
    out.write(local_header(w));
    out.write(header);
    out.write(data, nbytes);
    return;
  }
#if XFUSE_WITH_ZLIB
  const written unknown{w.name, w.method};  // CRC and sizes 0 in the local header (flag bit 3)
  out.write(local_header(unknown));
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) fail(op, path, "zlib's deflateInit2 failed");
  const std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&z, deflateEnd);
  std::vector<unsigned char> chunk(std::size_t{1} << 16);
  auto feed = [&](const void* p, std::size_t n, bool last) {
    w.crc = crc32(w.crc, p, n);
    const auto* c = static_cast<const unsigned char*>(p);
    do {
      const std::size_t piece = n < (std::size_t{1} << 30) ? n : (std::size_t{1} << 30);
      z.next_in = const_cast<unsigned char*>(c);
      z.avail_in = static_cast<uInt>(piece);
      const int flush = last && piece == n ? Z_FINISH : Z_NO_FLUSH;
      do {
        z.next_out = chunk.data();
        z.avail_out = static_cast<uInt>(chunk.size());
        deflate(&z, flush);
        const std::size_t made = chunk.size() - z.avail_out;
        out.write(chunk.data(), made);
        w.compressed += made;
      } while (z.avail_out == 0);
      c += piece;
      n -= piece;
    } while (n > 0);
  };
  feed(header.data(), header.size(), false);
  feed(data, nbytes, true);
  out.write(data_descriptor(w));
#else
  (void)data;
  fail(op, path, "deflate needs zlib: define XFUSE_WITH_ZLIB and link zlib (ZLIB::ZLIB), or use xf::savez");
#endif
}

template <class A>
auto as_entry(const A& a, std::size_t& positional) {
  if constexpr (requires { a.name; a.value; }) return npz_entry<std::remove_cvref_t<decltype(a.value)>>{a.name, a.value};
  else return npz_entry<A>{"arr_" + std::to_string(positional++), a};
}

template <class... E>
void save(const std::string& path, std::uint16_t method, const char* op, const E&... arrays) {
  std::size_t positional = 0;
  // Braces: evaluated left to right, so positional arrays are numbered in order.
  const std::tuple<decltype(as_entry(arrays, positional))...> entries{as_entry(arrays, positional)...};
  std::vector<std::string> names;
  std::apply([&](const auto&... e) { (names.push_back(e.name), ...); }, entries);
  for (std::size_t i = 0; i < names.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (names[i] == names[j]) fail(op, path, "two arrays are named '" + names[i] + "'");
#if !XFUSE_WITH_ZLIB
  if (method == deflated) fail(op, path, "deflate needs zlib: define XFUSE_WITH_ZLIB and link zlib (ZLIB::ZLIB), or use xf::savez");
#endif
  file::write_file(
      path,
      [&](file::sink& out) {
        std::vector<written> members;
        std::apply(
            [&](const auto&... e) {
              auto one = [&](const auto& entry) {
                using A = std::remove_cvref_t<decltype(entry.value)>;
                using T = typename A::value_type;
                npy::check_has_dtype<T>(op, path);
                array<T, A::rank, host> c;
                if constexpr (std::is_same_v<typename A::space, device>) c = entry.value.get();
                else c = detail::contiguous(entry.value);
                const std::string header = npy::header_bytes(
                    std::string(1, npy::itemsize(dtype_of<T>) == 1 ? '|' : '<') + npy::type_code(dtype_of<T>),
                    std::vector<index_t>(c.shape().begin(), c.shape().end()));
                written w{entry.name + ".npy", method};
                write_member(out, w, header, c.data(), c.nbytes(), op, path);
                members.push_back(w);
              };
              (one(e), ...);
            },
            entries);
        const std::uint64_t directory = out.written();
        for (const auto& w : members) out.write(central_header(w));
        out.write(end_records(members.size(), directory, out.written() - directory));
      },
      op);
}

// A member's bytes, no more: the archive's stream from the member's data on, bounded by its
// compressed size, inflated for deflate, with the CRC-32 of what it delivered.
class member_buffer : public std::streambuf {
 public:
  member_buffer(std::ifstream& in, const member& m, const char* op, const std::string& path)
      : in_(in), m_(m), op_(op), path_(path), left_(m.compressed), out_(std::size_t{1} << 16) {
    if (m.method == deflated) {
#if XFUSE_WITH_ZLIB
      in_buf_.resize(std::size_t{1} << 16);
      if (inflateInit2(&z_, -15) != Z_OK) fail(op, path, "zlib's inflateInit2 failed");
      inflating_ = true;
#else
      fail(op, path, "member '" + m.name + "' is deflate-compressed: reading it needs zlib (define XFUSE_WITH_ZLIB and link zlib)");
#endif
    } else if (m.method != stored) {
      fail(op, path, "member '" + m.name + "' uses compression method " + std::to_string(m.method) + " (stored and deflate are read)");
    }
  }
  ~member_buffer() override {
#if XFUSE_WITH_ZLIB
    if (inflating_) inflateEnd(&z_);
#endif
  }
  member_buffer(const member_buffer&) = delete;
  member_buffer& operator=(const member_buffer&) = delete;

  // After the array is read: the rest of the member read too (NumPy ignores trailing bytes), all
  // the recorded bytes there, and their CRC-32 the recorded one.
  void finish() {
    do setg(eback(), egptr(), egptr());
    while (underflow() != traits_type::eof());
    if (delivered_ != m_.size)
      fail(op_, path_, "member '" + m_.name + "' holds " + std::to_string(delivered_) + " bytes, not the " + std::to_string(m_.size) + " recorded");
    if (crc_ != m_.crc) fail(op_, path_, "member '" + m_.name + "' fails its CRC-32 check (a corrupt archive)");
  }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    std::size_t made = 0;
    if (m_.method == stored) {
      const std::size_t want = left_ < out_.size() ? static_cast<std::size_t>(left_) : out_.size();
      made = npy::read_up_to(in_, out_.data(), want);
      left_ -= made;
      if (made < want) fail(op_, path_, "member '" + m_.name + "' is cut short (the archive ends early)");
    } else {
      made = inflate_some();
    }
    if (made == 0) return traits_type::eof();
    if (delivered_ + made > m_.size) fail(op_, path_, "member '" + m_.name + "' inflates to more than its recorded size");
    crc_ = crc32(crc_, out_.data(), made);
    delivered_ += made;
    setg(out_.data(), out_.data(), out_.data() + made);
    return traits_type::to_int_type(out_[0]);
  }

 private:
  std::size_t inflate_some() {
#if XFUSE_WITH_ZLIB
    z_.next_out = reinterpret_cast<unsigned char*>(out_.data());
    z_.avail_out = static_cast<uInt>(out_.size());
    while (z_.avail_out == out_.size() && !finished_) {
      if (z_.avail_in == 0) {
        const std::size_t want = left_ < in_buf_.size() ? static_cast<std::size_t>(left_) : in_buf_.size();
        const std::size_t got = npy::read_up_to(in_, in_buf_.data(), want);
        left_ -= got;
        if (got == 0) fail(op_, path_, "member '" + m_.name + "' is cut short (the compressed data ends early)");
        z_.next_in = in_buf_.data();
        z_.avail_in = static_cast<uInt>(got);
      }
      const int r = inflate(&z_, Z_NO_FLUSH);
      if (r == Z_STREAM_END) finished_ = true;
      else if (r != Z_OK && r != Z_BUF_ERROR) fail(op_, path_, "member '" + m_.name + "' does not inflate (zlib error " + std::to_string(r) + ")");
    }
    return out_.size() - z_.avail_out;
#else
    return 0;
#endif
  }

  std::ifstream& in_;
  const member& m_;
  const char* op_;
  const std::string& path_;
  std::uint64_t left_, delivered_ = 0;
  std::uint32_t crc_ = 0;
  std::vector<char> out_;
#if XFUSE_WITH_ZLIB
  std::vector<unsigned char> in_buf_;
  z_stream z_{};
  bool inflating_ = false, finished_ = false;
#endif
};

}  // namespace npz
}  // namespace XFUSE_NPZ_NAMESPACE
}  // namespace detail

inline namespace XFUSE_NPZ_NAMESPACE {

// numpy.savez(path, a, b, x=c): the arrays, uncompressed, as members "arr_0.npy", "arr_1.npy", ...
// and "x.npy" for xf::named("x", c). Device arrays are copied to the host first (this waits for
// the current stream). Written as xf::save_npy writes (array/file_write.hpp): a regular file is
// replaced only once the new archive is complete, keeping its mode, so an error leaves any earlier
// file as it was; links stay links; a FIFO or a device is written in place.
template <class... E>
void savez(const std::string& path, const E&... arrays) {
  detail::npz::save(path, detail::npz::stored, "xf::savez", arrays...);
}
// numpy.savez_compressed: the same, each member deflated (needs XFUSE_WITH_ZLIB and zlib).
template <class... E>
void savez_compressed(const std::string& path, const E&... arrays) {
  detail::npz::save(path, detail::npz::deflated, "xf::savez_compressed", arrays...);
}

// An open .npz archive (numpy.load's NpzFile): the member names, and each member read on request.
class npz_file {
 public:
  explicit npz_file(std::string path) : path_(std::move(path)) { read_directory(); }

  // The arrays' names (NpzFile.files: the member names without ".npy").
  const std::vector<std::string>& files() const noexcept { return files_; }
  bool contains(const std::string& name) const { return find(name) != nullptr; }

  // np.load(path)[name] into a new C-ordered array of element type T and rank R (device by default),
  // as xf::load_npy reads a file.
  template <element T, int R, class Space = device>
  array<T, R, Space> get(const std::string& name) const {
    constexpr const char* op = "xf::npz_file::get";
    const detail::npz::member* m = find(name);
    if (!m) detail::npz::fail(op, path_, "no array named '" + name + "' (the archive holds " + std::to_string(files_.size()) + ")");
    detail::npy::input_file f = detail::npy::open_read(path_, op);
    f.stream.seekg(static_cast<std::streamoff>(data_offset(f.stream, *m, op)));
    detail::npz::member_buffer buffer(f.stream, *m, op, path_);
    std::istream in(&buffer);
    in.exceptions(std::ios::badbit);  // the member's own errors (cut short, does not inflate) reach the caller
    // The recorded size bounds the reads; it is trusted for allocation only when the bytes are
    // there (stored), otherwise memory follows the bytes that arrive.
    const auto known = m->method == detail::npz::stored ? std::optional<std::uint64_t>(m->size) : std::nullopt;
    array<T, R, host> a = detail::npy::read_array<T, R>(in, known, op, path_ + "/" + m->name);
    buffer.finish();
    if constexpr (std::is_same_v<Space, device>) return asarray(a);
    else return a;
  }

 private:
  // NumPy's lookup: the member named exactly `name`, else "name.npy"; of several members with one
  // name (zipfile keeps them all), the last, as zipfile's name index holds.
  const detail::npz::member* find(const std::string& name) const {
    for (const std::string& wanted : {name, name + ".npy"})
      for (auto m = members_.rbegin(); m != members_.rend(); ++m)
        if (m->name == wanted) return &*m;
    return nullptr;
  }

  // Where a member's data starts: after its local header, whose name and extra field may differ
  // in length from the central directory's.
  std::uint64_t data_offset(std::ifstream& in, const detail::npz::member& m, const char* op) const {
    unsigned char h[30];
    in.seekg(static_cast<std::streamoff>(m.header_offset));
    if (detail::npy::read_up_to(in, h, sizeof h) != sizeof h || detail::npz::read_le(h, 4) != detail::npz::local_signature)
      detail::npz::fail(op, path_, "member '" + m.name + "' has no local header where the directory says");
    const std::uint64_t start = m.header_offset + 30 + detail::npz::read_le(h + 26, 2) + detail::npz::read_le(h + 28, 2);
    if (start > size_ || m.compressed > size_ - start)
      detail::npz::fail(op, path_, "member '" + m.name + "' runs past the end of the archive");
    if (m.method == detail::npz::stored && m.compressed != m.size)
      detail::npz::fail(op, path_, "member '" + m.name + "' is stored, yet its two recorded sizes differ");
    return start;
  }

  void read_directory();

  std::string path_;
  std::uint64_t size_ = 0;
  std::vector<detail::npz::member> members_;
  std::vector<std::string> files_;
};

inline void npz_file::read_directory() {
  using namespace detail::npz;
  constexpr const char* op = "xf::load_npz";
  detail::npy::input_file f = detail::npy::open_read(path_, op);
  if (!f.size) fail(op, path_, "not a regular file (an archive is read from its end)");
  size_ = *f.size;
  // The end record: in the last 64 KiB + 22 bytes (its comment is at most 65535 bytes).
  const std::uint64_t tail = size_ < 65557 ? size_ : 65557;
  std::vector<unsigned char> t(static_cast<std::size_t>(tail));
  f.stream.seekg(static_cast<std::streamoff>(size_ - tail));
  if (detail::npy::read_up_to(f.stream, t.data(), t.size()) != t.size()) fail(op, path_, "cannot read the end of the file");
  std::size_t at = t.size() < 22 ? 0 : t.size() - 22 + 1;
  bool found = false;
  while (at-- > 0)
    if (read_le(&t[at], 4) == end_signature) {
      found = true;
      break;
    }
  if (!found) fail(op, path_, "not a zip archive (no end of central directory record)");
  std::uint64_t count = read_le(&t[at + 10], 2), dir_size = read_le(&t[at + 12], 4), dir_offset = read_le(&t[at + 16], 4);
  if (count == 0xffff || dir_size == max32 || dir_offset == max32) {  // zip64: the locator is just before
    const std::uint64_t end_at = size_ - tail + at;
    if (end_at < 20) fail(op, path_, "a zip64 archive without its locator");
    unsigned char loc[20], rec[56];
    f.stream.seekg(static_cast<std::streamoff>(end_at - 20));
    if (detail::npy::read_up_to(f.stream, loc, 20) != 20 || read_le(loc, 4) != zip64_locator_signature)
      fail(op, path_, "a zip64 archive without its locator");
    const std::uint64_t rec_at = read_le(loc + 8, 8);
    if (rec_at > size_ - 56) fail(op, path_, "the zip64 end record lies outside the file");
    f.stream.seekg(static_cast<std::streamoff>(rec_at));
    if (detail::npy::read_up_to(f.stream, rec, 56) != 56 || read_le(rec, 4) != zip64_end_signature)
      fail(op, path_, "no zip64 end record where its locator says");
    count = read_le(rec + 32, 8), dir_size = read_le(rec + 40, 8), dir_offset = read_le(rec + 48, 8);
  }
  if (dir_offset > size_ || dir_size > size_ - dir_offset || count > dir_size / 46)
    fail(op, path_, "the central directory (" + std::to_string(count) + " entries, " + std::to_string(dir_size) +
                        " bytes at " + std::to_string(dir_offset) + ") does not fit the file of " + std::to_string(size_) + " bytes");
  std::vector<unsigned char> d(static_cast<std::size_t>(dir_size));
  f.stream.seekg(static_cast<std::streamoff>(dir_offset));
  if (detail::npy::read_up_to(f.stream, d.data(), d.size()) != d.size()) fail(op, path_, "cannot read the central directory");
  std::size_t p = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    if (d.size() - p < 46 || read_le(&d[p], 4) != central_signature) fail(op, path_, "a malformed central directory entry");
    member m;
    m.method = static_cast<std::uint16_t>(read_le(&d[p + 10], 2));
    m.crc = static_cast<std::uint32_t>(read_le(&d[p + 16], 4));
    m.compressed = read_le(&d[p + 20], 4);
    m.size = read_le(&d[p + 24], 4);
    m.header_offset = read_le(&d[p + 42], 4);
    const std::size_t name_len = read_le(&d[p + 28], 2), extra_len = read_le(&d[p + 30], 2), comment_len = read_le(&d[p + 32], 2);
    if (d.size() - p - 46 < name_len + extra_len + comment_len) fail(op, path_, "a central directory entry runs past its end");
    m.name.assign(reinterpret_cast<const char*>(&d[p + 46]), name_len);
    // zip64 extra field: the 8-byte values of the fields that hold 0xffffffff, in this order.
    for (std::size_t e = p + 46 + name_len, end = e + extra_len; end - e >= 4;) {
      const std::uint64_t id = read_le(&d[e], 2), len = read_le(&d[e + 2], 2);
      if (len > end - e - 4) fail(op, path_, "member '" + m.name + "' has a malformed extra field");
      if (id == 0x0001) {
        std::size_t q = e + 4, q_end = q + len;
        for (std::uint64_t* field : {&m.size, &m.compressed, &m.header_offset})
          if (*field == max32) {
            if (q_end - q < 8) fail(op, path_, "member '" + m.name + "' has a short zip64 field");
            *field = read_le(&d[q], 8), q += 8;
          }
      }
      e += 4 + len;
    }
    members_.push_back(m);
    std::string shown = m.name;
    if (shown.size() > 4 && shown.compare(shown.size() - 4, 4, ".npy") == 0) shown.resize(shown.size() - 4);
    files_.push_back(shown);
    p += 46 + name_len + extra_len + comment_len;
  }
}

// numpy.load of a .npz file: the archive, opened (its directory read); arrays are read by read_le().
inline npz_file load_npz(const std::string& path) { return npz_file(path); }

}  // namespace XFUSE_NPZ_NAMESPACE
}  // namespace xf

#undef XFUSE_NPZ_NAMESPACE
