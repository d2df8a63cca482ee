// SPDX-License-Identifier: Apache-2.0
// NumPy's .npy files without Python. xf::save_npy writes an array as numpy.save does (format 1.0,
// or 2.0 for a header over 64 KiB; C order, little-endian), xf::load_npy reads one into an array
// of a given element type and rank (formats 1.0, 2.0, 3.0; C or Fortran order; either byte order),
// xf::read_npy_header reads only the header. Device arrays go through host memory: saving waits
// for the current stream, loading copies to the device asynchronously. bfloat16 has no NumPy
// dtype, so it is refused rather than written as something NumPy would misread.
//
// Files are untrusted input: headers over 1 MiB are refused before they are read, every shape
// passes xf::detail::checked_size, and data memory grows as bytes arrive unless the file is known
// to hold them, so a few bytes promising terabytes cost no more than a few bytes. FIFOs and pipes
// are read like files. Saving goes through file_write.hpp: a regular file is replaced only once the
// new one is complete, keeping its mode; devices and FIFOs are written in place and never removed.
#pragma once

#include <sys/stat.h>

#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "file_write.hpp"
#include "transfer.hpp"

namespace xf {

// What a .npy header says.
struct npy_header {
  std::string descr;            // NumPy's dtype string as written: "<f4", "|b1", ">c16", ...
  bool fortran_order = false;   // data in column-major order
  std::vector<index_t> shape;   // empty for a 0-d array
  std::size_t data_offset = 0;  // bytes from the start of the file to the data
  int version_major = 1;
  int version_minor = 0;
};

namespace detail::npy {

inline constexpr char magic[] = "\x93NUMPY";
inline constexpr std::size_t magic_size = 6;
inline constexpr std::size_t array_align = 64;     // numpy.lib.format.ARRAY_ALIGN
inline constexpr std::size_t growth_digits = 21;  // numpy.lib.format.GROWTH_AXIS_MAX_DIGITS
// The longest header dict read. numpy.load refuses more than 10000 bytes by default
// (max_header_size); 1 MiB also admits what xf::save_npy writes for ranks up to ~300000 (a
// 2.0 header past 64 KiB) and bounds what a corrupt 4-byte length can make a reader allocate.
inline constexpr std::size_t max_header_size = std::size_t{1} << 20;
// Data of unknown backing (a FIFO, a short file) is read into memory that starts at this size and
// doubles as bytes arrive, up to what the header promises.
inline constexpr std::size_t first_data_chunk = std::size_t{1} << 20;

inline std::size_t smaller(std::size_t a, std::size_t b) { return a < b ? a : b; }

// The descr without its byte-order character; nullptr for bfloat16.
constexpr const char* type_code(dtype t) {
  switch (t) {
    case dtype::bool_: return "b1";
    case dtype::int8: return "i1";
    case dtype::int16: return "i2";
    case dtype::int32: return "i4";
    case dtype::int64: return "i8";
    case dtype::uint8: return "u1";
    case dtype::uint16: return "u2";
    case dtype::uint32: return "u4";
    case dtype::uint64: return "u8";
    case dtype::float16: return "f2";
    case dtype::bfloat16: return nullptr;
    case dtype::float32: return "f4";
    case dtype::float64: return "f8";
    case dtype::complex64: return "c8";
    case dtype::complex128: return "c16";
  }
  return nullptr;
}
constexpr std::size_t itemsize(dtype t) {
  const char* c = type_code(t);
  std::size_t n = 0;
  for (const char* p = c ? c + 1 : ""; *p; ++p) n = n * 10 + static_cast<std::size_t>(*p - '0');
  return n;
}

using file::errno_text;
using file::fail;
using file::quoted;

template <class T>
void check_has_dtype(const char* op, const std::string& path) {
  if constexpr (std::is_same_v<T, bfloat16>) {
    throw dtype_error(std::string(op) + ": " + quoted(path) +
                      ": bfloat16 has no NumPy dtype (.npy cannot hold it; convert with .astype<float>())");
  } else {
    static_assert(sizeof(T) == itemsize(dtype_of<T>), "xf::npy: element size differs from NumPy's");
  }
}

// The element type a descr names, and whether its bytes need swapping on this machine.
struct descr_info {
  dtype tag;
  bool swap;
};

inline std::optional<descr_info> find_descr(const std::string& descr) {
  std::string_view code(descr);
  char order = '=';
  if (!code.empty() && (code[0] == '<' || code[0] == '>' || code[0] == '|' || code[0] == '='))
    order = code[0], code.remove_prefix(1);
  for (int i = 0; i <= static_cast<int>(dtype::complex128); ++i) {
    const auto t = static_cast<dtype>(i);
    if (type_code(t) == nullptr || code != type_code(t)) continue;
    const bool big = order == '>' || (order != '<' && std::endian::native == std::endian::big);
    const bool swap = itemsize(t) > 1 && big != (std::endian::native == std::endian::big);
    return descr_info{t, swap};
  }
  return std::nullopt;
}

inline descr_info parse_descr(const std::string& descr, const char* op, const std::string& path) {
  if (const auto d = find_descr(descr)) return *d;
  throw dtype_error(std::string(op) + ": " + quoted(path) + ": dtype '" + descr +
                    "' is not one xfuse arrays hold (bool, int8..uint64, float16/32/64, complex64/128)");
}

// A reader for the Python dict literal of the header: {'descr': '<f4', 'fortran_order': False,
// 'shape': (2, 3), }. Keys in any order, either quote, optional trailing commas.
struct dict_reader {
  std::string_view s;
  std::size_t i = 0;
  const char* expected = nullptr;  // what was missing where parsing stopped

  void skip_space() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  }
  bool eat(char c) {
    skip_space();
    if (i < s.size() && s[i] == c) return ++i, true;
    return false;
  }
  bool need(char c, const char* what) { return eat(c) || (expected = what, false); }
  char peek() {
    skip_space();
    return i < s.size() ? s[i] : '\0';
  }
  bool string(std::string& out) {
    const char q = peek();
    if (q != '\'' && q != '"') return expected = "a quoted string", false;
    const std::size_t end = s.find(q, i + 1);
    if (end == std::string_view::npos) return expected = "a closing quote", false;
    out.assign(s.substr(i + 1, end - i - 1));
    i = end + 1;
    return true;
  }
  bool boolean(bool& out) {
    skip_space();
    if (s.substr(i, 4) == "True") return out = true, i += 4, true;
    if (s.substr(i, 5) == "False") return out = false, i += 5, true;
    return expected = "True or False", false;
  }
  bool integer(index_t& out) {
    skip_space();
    const std::size_t start = i;
    out = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      const index_t d = s[i] - '0';
      if (out > (INT64_MAX - d) / 10) return expected = "an extent below 2^63", false;
      out = out * 10 + d;
    }
    return i > start || (expected = "a non-negative integer", false);
  }
  bool shape(std::vector<index_t>& out) {
    if (!need('(', "'(' opening the shape")) return false;
    while (!eat(')')) {
      index_t e;
      if (!integer(e)) return false;
      out.push_back(e);
      if (!eat(',') && peek() != ')') return expected = "',' or ')' in the shape", false;
    }
    return true;
  }
};

// Reads up to n bytes; fewer only at the end of the stream or on a read error.
inline std::size_t read_up_to(std::istream& in, void* p, std::size_t n) {
  auto* c = static_cast<char*>(p);
  std::size_t got = 0;
  while (got < n && in) {
    in.read(c + got, static_cast<std::streamsize>(smaller(n - got, std::size_t{1} << 30)));
    got += static_cast<std::size_t>(in.gcount());
  }
  return got;
}

// The header, from a stream positioned at the start of the file; the stream is left at the data.
// Reads only as many bytes as the header has, so it works on streams that cannot seek.
inline npy_header read_header(std::istream& f, const char* op, const std::string& path) {
  unsigned char pre[magic_size + 2];
  if (read_up_to(f, pre, sizeof pre) != sizeof pre || std::memcmp(pre, magic, magic_size) != 0)
    fail(op, path, "not a .npy file (no \\x93NUMPY magic string at the start)");
  npy_header h;
  h.version_major = pre[magic_size];
  h.version_minor = pre[magic_size + 1];
  if (h.version_minor != 0 || h.version_major < 1 || h.version_major > 3)
    fail(op, path, "unsupported .npy format version " + std::to_string(h.version_major) + "." +
                       std::to_string(h.version_minor) + " (1.0, 2.0 and 3.0 are read)");
  // 1.0: 2-byte little-endian header length; 2.0 and 3.0 (UTF-8 header): 4 bytes.
  const std::size_t len_bytes = h.version_major == 1 ? 2 : 4;
  unsigned char len[4] = {};
  if (read_up_to(f, len, len_bytes) != len_bytes) fail(op, path, "the file ends inside the header");
  std::size_t header_len = 0;
  for (std::size_t b = len_bytes; b-- > 0;) header_len = header_len << 8 | len[b];
  if (header_len > max_header_size)
    fail(op, path, "the header length field says " + std::to_string(header_len) + " bytes, over the limit of " +
                       std::to_string(max_header_size) + " bytes (1 MiB) on .npy headers (a corrupt file?)");
  h.data_offset = magic_size + 2 + len_bytes + header_len;  // at most 12 + 1 MiB

  // In pieces, so that memory follows the bytes that arrive rather than the length field.
  std::string text;
  while (text.size() < header_len) {
    const std::size_t had = text.size(), step = smaller(header_len - had, std::size_t{1} << 16);
    text.resize(had + step);
    const std::size_t got = read_up_to(f, text.data() + had, step);
    if (got != step)
      fail(op, path, "the file ends inside the header (" + std::to_string(header_len) + " bytes long, " +
                         std::to_string(had + got) + " there)");
  }

  dict_reader r{text};
  auto malformed = [&](const std::string& what) {
    std::string shown = text.substr(0, 200);
    while (!shown.empty() && (shown.back() == ' ' || shown.back() == '\n')) shown.pop_back();
    fail(op, path, "malformed header dict (" + what + "): " + shown);
  };
  bool has_descr = false, has_order = false, has_shape = false;
  if (!r.need('{', "'{'")) malformed(std::string("expected ") + r.expected);
  while (!r.eat('}')) {
    std::string key;
    bool ok = r.string(key) && r.need(':', "':' after a key");
    if (ok && key == "descr") {
      if (r.peek() == '[')
        throw dtype_error(std::string(op) + ": " + quoted(path) + ": structured dtypes are not supported (descr " +
                          std::string(r.s.substr(r.i, 60)) + "...)");
      ok = r.string(h.descr), has_descr = true;
    } else if (ok && key == "fortran_order") {
      ok = r.boolean(h.fortran_order), has_order = true;
    } else if (ok && key == "shape") {
      h.shape.clear();
      ok = r.shape(h.shape), has_shape = true;
    } else if (ok) {
      malformed("unexpected key '" + key + "'");
    }
    if (!ok) malformed(std::string("expected ") + r.expected + " at character " + std::to_string(r.i));
    if (!r.eat(',') && r.peek() != '}') malformed("expected ',' or '}' at character " + std::to_string(r.i));
  }
  r.skip_space();
  if (r.i != text.size()) malformed("text after the closing '}'");
  if (!has_descr || !has_order || !has_shape)
    malformed(std::string("missing key '") + (!has_descr ? "descr" : !has_order ? "fortran_order" : "shape") + "'");
  // The shape must make an array: byte count below 2^63 (elements of unknown dtypes count 1 byte).
  const auto d = find_descr(h.descr);
  detail::checked_size(h.shape.data(), static_cast<int>(h.shape.size()), d ? itemsize(d->tag) : 1,
                       (std::string(op) + ": " + quoted(path)).c_str());
  return h;
}

inline std::string shape_text(const std::vector<index_t>& shape) {
  std::string s = "(";
  for (std::size_t d = 0; d < shape.size(); ++d) s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

// Reverses the bytes of each `width`-byte value in place.
inline void byteswap(void* data, std::size_t count, std::size_t width) {
  auto* p = static_cast<unsigned char*>(data);
  for (std::size_t k = 0; k < count; ++k, p += width)
    for (std::size_t a = 0, b = width - 1; a < b; ++a, --b) {
      const unsigned char t = p[a];
      p[a] = p[b];
      p[b] = t;
    }
}


// An open file, and its size when it is a regular file (a FIFO, pipe or device has none).
struct input_file {
  std::ifstream stream;
  std::optional<std::uint64_t> size;
};

inline input_file open_read(const std::string& path, const char* op) {
  errno = 0;
  input_file f{std::ifstream(path, std::ios::binary), std::nullopt};
  if (!f.stream) fail(op, path, "cannot open the file" + errno_text(errno));
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) fail(op, path, "cannot read the file (it is a directory)");
    if (S_ISREG(st.st_mode)) f.size = static_cast<std::uint64_t>(st.st_size);
  }
  return f;
}

// The magic string, version, header length and header dict that numpy.save writes before the
// data of a C-ordered array.
inline std::string header_bytes(const std::string& descr, const std::vector<index_t>& shape) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape_text(shape) + ", }";
  // numpy.save leaves room to grow the first extent in place; doing the same gives identical files.
  if (!shape.empty()) dict.append(growth_digits - std::to_string(shape[0]).size(), ' ');
  // Pad with spaces and end with '\n' so that the data starts at a multiple of 64 bytes (1 to 64
  // spaces, as numpy.save pads).
  auto padded = [&](std::size_t len_bytes) {
    const std::size_t used = magic_size + 2 + len_bytes + dict.size() + 1;
    return dict + std::string(array_align - used % array_align, ' ') + '\n';
  };
  std::string header = padded(2);
  const int version = header.size() > 65535 ? 2 : 1;
  if (version == 2) header = padded(4);
  std::string out(magic, magic_size);
  out += static_cast<char>(version);
  out += '\0';
  for (std::size_t b = 0; b < (version == 1 ? 2u : 4u); ++b) out += static_cast<char>(header.size() >> (8 * b) & 0xff);
  return out + header;
}

// Writes a C-contiguous host array.
template <class T, int R>
void write(const std::string& path, const array<T, R, host>& c, const char* op) {
  if (c.size() > 0 && c.data() == nullptr) fail(op, path, "the array is an empty handle (no buffer)");
  const std::string header =
      header_bytes(std::string(1, itemsize(dtype_of<T>) == 1 ? '|' : '<') + type_code(dtype_of<T>),
                   std::vector<index_t>(c.shape().begin(), c.shape().end()));
  file::write_file(
      path,
      [&](file::sink& out) {
        out.write(header);
        out.write(c.data(), c.nbytes());
      },
      op);
}

// Reads `nbytes` of data into 64-byte aligned host memory that starts at first_data_chunk and
// doubles as bytes arrive, so a header promising more than the stream holds costs no more than the
// bytes that are there. `got` is how many were read (fewer than nbytes: truncated).
inline buffer read_growing(std::istream& in, std::size_t nbytes, std::size_t& got) {
  std::size_t cap = smaller(nbytes, first_data_chunk);
  buffer b = allocate_host(cap);
  got = 0;
  for (;;) {
    got += read_up_to(in, static_cast<char*>(b.get()) + got, cap - got);
    if (got < cap || got == nbytes) return b;
    const std::size_t next = nbytes - cap > cap ? 2 * cap : nbytes;
    buffer grown = allocate_host(next);
    std::memcpy(grown.get(), b.get(), got);
    b = std::move(grown);
    cap = next;
  }
}

// load_npy on any stream positioned at the start of a .npy file; `size`, where known, is the
// stream's length in bytes (then data that the stream holds is read without growing).
template <class T, int R>
array<T, R, host> read_array(std::istream& f, std::optional<std::uint64_t> size, const char* op,
                             const std::string& path) {
  check_has_dtype<T>(op, path);
  const npy_header h = read_header(f, op, path);
  const descr_info d = parse_descr(h.descr, op, path);
  if (d.tag != dtype_of<T>)
    throw dtype_error(std::string(op) + ": " + quoted(path) + " holds " + name_of(d.tag) + " ('" + h.descr +
                      "'), not " + dtype_name<T>);
  if (h.shape.size() != static_cast<std::size_t>(R))
    throw shape_error(std::string(op) + ": " + quoted(path) + " holds shape " + shape_text(h.shape) + " (rank " +
                      std::to_string(h.shape.size()) + "), not rank " + std::to_string(R));

  // Fortran order is C order of the reversed shape: read that, then copy its transpose.
  dims<R> shape{};
  for (int k = 0; k < R; ++k) shape[k] = h.shape[static_cast<std::size_t>(h.fortran_order ? R - 1 - k : k)];
  const index_t count = checked_size(shape, sizeof(T), (std::string(op) + ": " + quoted(path)).c_str());
  const std::size_t nbytes = static_cast<std::size_t>(count) * sizeof(T);  // below 2^63: checked
  auto truncated = [&](std::size_t have) {
    fail(op, path, "the data is truncated: shape " + shape_text(h.shape) + " of " + dtype_name<T> + " needs " +
                       std::to_string(nbytes) + " bytes, the file has " + std::to_string(have) + " after the header");
  };

  array<T, R, host> a;
  if (size && *size >= h.data_offset && *size - h.data_offset >= nbytes) {  // the file holds the data
    a = array<T, R, host>(shape);
    const std::size_t got = nbytes ? read_up_to(f, a.data(), nbytes) : 0;
    if (got != nbytes) truncated(got);
  } else if (nbytes > 0) {
    std::size_t got = 0;
    buffer b = read_growing(f, nbytes, got);
    if (got != nbytes) truncated(got);
    a = array<T, R, host>::wrap(static_cast<T*>(b.get()), shape, b);
  } else {
    a = array<T, R, host>(shape);
  }
  if (d.swap) {  // complex values swap each part
    const std::size_t parts = is_complex<T> ? 2 : 1;
    byteswap(a.data(), static_cast<std::size_t>(count) * parts, sizeof(T) / parts);
  }
  if constexpr (is_bool<T>) {  // any nonzero byte is True in NumPy; a C++ bool must hold 0 or 1
    auto* b = reinterpret_cast<unsigned char*>(a.data());
    for (index_t k = 0; k < count; ++k) b[k] = b[k] != 0;
  }
  if (h.fortran_order && R > 1) a = a.transpose().copy();
  return a;
}

}  // namespace detail::npy

// The header of a .npy file (format, dtype string, order, shape, where the data starts).
inline npy_header read_npy_header(const std::string& path) {
  detail::npy::input_file f = detail::npy::open_read(path, "xf::read_npy_header");
  return detail::npy::read_header(f.stream, "xf::read_npy_header", path);
}

// np.save(path, a): C order, little-endian; views are written with their logical values.
template <element T, int R>
void save_npy(const std::string& path, const array<T, R, host>& a) {
  detail::npy::check_has_dtype<T>("xf::save_npy", path);
  detail::npy::write(path, detail::contiguous(a), "xf::save_npy");
}
// Device arrays are copied to the host first (this waits for the current stream).
template <element T, int R>
void save_npy(const std::string& path, const array<T, R, device>& a) {
  detail::npy::check_has_dtype<T>("xf::save_npy", path);
  detail::npy::write(path, a.get(), "xf::save_npy");
}

// np.load(path) into a new C-ordered array of element type T and rank R (device by default).
// The file's dtype must be T's exactly (xf::dtype_error) and its rank R (xf::shape_error); other
// problems with the file throw xf::error naming the path.
template <element T, int R, class Space = device>
array<T, R, Space> load_npy(const std::string& path) {
  constexpr const char* op = "xf::load_npy";
  detail::npy::check_has_dtype<T>(op, path);
  detail::npy::input_file f = detail::npy::open_read(path, op);
  array<T, R, host> a = detail::npy::read_array<T, R>(f.stream, f.size, op, path);
  if constexpr (std::is_same_v<Space, device>) return asarray(a);
  else return a;
}

}  // namespace xf
