// libFuzzer target: the .npy reader on arbitrary bytes. Each input is read three ways that must
// agree: from memory with its length known (the path of a regular file), through a stream that
// cannot seek and hands out a few bytes at a time (a FIFO or pipe), and by path from an in-memory
// file (memfd: nothing is left on disk). The header picks the element type and rank to load
// (every NumPy dtype xfuse holds, ranks 0 to 4); loading another type or rank must fail cleanly.
// Every value loaded is checked against an independent decoding of the input bytes. Only
// xf::error and its kinds may leave the reader; anything else (std::bad_alloc included) aborts.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include <xfuse/array/npy.hpp>
#include <xfuse/complex.hpp>
#include <xfuse/core.hpp>
#include <xfuse/half.hpp>

namespace {

namespace npy = xf::detail::npy;
constexpr const char* name = "fuzz.npy";

[[noreturn]] void die(const char* what, const std::string& a, const std::string& b = "") {
  std::fprintf(stderr, "fuzz_npy: %s\n  %s\n  %s\n", what, a.c_str(), b.c_str());
  std::abort();
}

// Bytes that cannot be sought and arrive `piece` at a time.
class trickle_buf : public std::streambuf {
 public:
  trickle_buf(const std::uint8_t* data, std::size_t size, std::size_t piece)
      : data_(data), size_(size), piece_(piece < sizeof buf_ ? piece : sizeof buf_) {}

 protected:
  int_type underflow() override {
    if (pos_ >= size_) return traits_type::eof();
    const std::size_t k = piece_ < size_ - pos_ ? piece_ : size_ - pos_;
    std::memcpy(buf_, data_ + pos_, k);
    pos_ += k;
    setg(buf_, buf_, buf_ + k);
    return traits_type::to_int_type(buf_[0]);
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_, piece_, pos_ = 0;
  char buf_[64];
};

// What a load gave: the shape and bytes of the array, or the error's kind and message.
template <class T, int R>
std::string describe(const xf::array<T, R, xf::host>& a) {
  if (!a.is_contiguous()) die("a loaded array is not C-contiguous", xf::to_string(a.shape()));
  std::string s = "ok " + xf::to_string(a.shape()) + " ";
  if (a.size() > 0) s.append(reinterpret_cast<const char*>(a.data()), a.nbytes());
  return s;
}
std::string describe(const xf::error& e, const std::string& path) {
  const char* kind = dynamic_cast<const xf::dtype_error*>(&e) ? "dtype_error "
                     : dynamic_cast<const xf::shape_error*>(&e) ? "shape_error "
                                                                 : "error ";
  std::string m = e.what();
  // The path is named once, first; the header quoted later may hold the same text.
  const std::size_t at = path.empty() ? std::string::npos : m.find("'" + path + "'");
  if (at != std::string::npos) m.replace(at + 1, path.size(), name);
  return kind + m;
}

// The value at C-order position `c` of the array the file describes, decoded from the bytes.
template <class T, int R>
T reference_value(const std::uint8_t* data, const xf::npy_header& h, const npy::descr_info& d, xf::index_t c) {
  // The logical shape is the header's; Fortran order stores the first index fastest.
  xf::index_t index[R > 0 ? R : 1] = {};
  for (int k = R; k-- > 0;) {
    index[k] = c % h.shape[static_cast<std::size_t>(k)];
    c /= h.shape[static_cast<std::size_t>(k)];
  }
  xf::index_t linear = 0;
  if (h.fortran_order)
    for (int k = R; k-- > 0;) linear = linear * h.shape[static_cast<std::size_t>(k)] + index[k];
  else
    for (int k = 0; k < R; ++k) linear = linear * h.shape[static_cast<std::size_t>(k)] + index[k];
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, data + h.data_offset + static_cast<std::size_t>(linear) * sizeof(T), sizeof(T));
  if (d.swap) npy::byteswap(bytes, xf::is_complex<T> ? 2 : 1, xf::is_complex<T> ? sizeof(T) / 2 : sizeof(T));
  if constexpr (xf::is_bool<T>) bytes[0] = bytes[0] != 0;
  T v;
  std::memcpy(&v, bytes, sizeof(T));
  return v;
}

template <class T, int R>
void check_values(const xf::array<T, R, xf::host>& a, const std::uint8_t* data, std::size_t size,
                  const xf::npy_header& h) {
  const npy::descr_info d = npy::parse_descr(h.descr, "fuzz", name);
  if (d.tag != xf::dtype_of<T> || h.shape.size() != static_cast<std::size_t>(R))
    die("a load succeeded with another dtype or rank", h.descr, npy::shape_text(h.shape));
  for (int k = 0; k < R; ++k)
    if (a.shape()[k] != h.shape[static_cast<std::size_t>(k)]) die("wrong shape", xf::to_string(a.shape()), npy::shape_text(h.shape));
  if (h.data_offset + a.nbytes() > size) die("a load succeeded on truncated data", npy::shape_text(h.shape));
  const auto* got = reinterpret_cast<const unsigned char*>(a.data());
  for (xf::index_t c = 0; c < a.size(); ++c) {
    const T want = reference_value<T, R>(data, h, d, c);
    if (std::memcmp(got + c * static_cast<xf::index_t>(sizeof(T)), &want, sizeof(T)) != 0)
      die("a value differs from the file's", npy::shape_text(h.shape), "position " + std::to_string(c));
  }
}

// Loads T, R the three ways; they must agree, and a success must hold the file's values.
template <class T, int R>
void load_all_ways(const std::uint8_t* data, std::size_t size, const std::string& file, bool header_ok,
                   const xf::npy_header& h) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  std::string outcome[3];
  {
    std::istringstream in(bytes);
    try {
      const auto a = npy::read_array<T, R>(in, size, "xf::load_npy", name);
      if (header_ok) check_values(a, data, size, h);
      else die("a load succeeded where the header did not parse", "");
      outcome[0] = describe(a);
    } catch (const xf::error& e) {
      outcome[0] = describe(e, "");
    }
  }
  {
    trickle_buf buf(data, size, 1 + size % 61);
    std::istream in(&buf);
    try {
      outcome[1] = describe(npy::read_array<T, R>(in, std::nullopt, "xf::load_npy", name));
    } catch (const xf::error& e) {
      outcome[1] = describe(e, "");
    }
  }
  if (!file.empty()) {
    try {
      outcome[2] = describe(xf::load_npy<T, R, xf::host>(file));
    } catch (const xf::error& e) {
      outcome[2] = describe(e, file);
    }
  } else {
    outcome[2] = outcome[0];
  }
  if (outcome[0] != outcome[1]) die("known-length and streamed loads differ", outcome[0].substr(0, 300), outcome[1].substr(0, 300));
  if (outcome[0] != outcome[2]) die("stream and file loads differ", outcome[0].substr(0, 300), outcome[2].substr(0, 300));
}

template <class T>
void load_rank(int rank, const std::uint8_t* data, std::size_t size, const std::string& file, bool header_ok,
               const xf::npy_header& h) {
  switch (rank) {
    case 0: return load_all_ways<T, 0>(data, size, file, header_ok, h);
    case 1: return load_all_ways<T, 1>(data, size, file, header_ok, h);
    case 2: return load_all_ways<T, 2>(data, size, file, header_ok, h);
    case 3: return load_all_ways<T, 3>(data, size, file, header_ok, h);
    default: return load_all_ways<T, 4>(data, size, file, header_ok, h);
  }
}

void load_typed(xf::dtype t, int rank, const std::uint8_t* data, std::size_t size, const std::string& file,
                bool header_ok, const xf::npy_header& h) {
  using xf::dtype;
  switch (t) {
    case dtype::bool_: return load_rank<bool>(rank, data, size, file, header_ok, h);
    case dtype::int8: return load_rank<std::int8_t>(rank, data, size, file, header_ok, h);
    case dtype::int16: return load_rank<std::int16_t>(rank, data, size, file, header_ok, h);
    case dtype::int32: return load_rank<std::int32_t>(rank, data, size, file, header_ok, h);
    case dtype::int64: return load_rank<std::int64_t>(rank, data, size, file, header_ok, h);
    case dtype::uint8: return load_rank<std::uint8_t>(rank, data, size, file, header_ok, h);
    case dtype::uint16: return load_rank<std::uint16_t>(rank, data, size, file, header_ok, h);
    case dtype::uint32: return load_rank<std::uint32_t>(rank, data, size, file, header_ok, h);
    case dtype::uint64: return load_rank<std::uint64_t>(rank, data, size, file, header_ok, h);
    case dtype::float16: return load_rank<xf::half>(rank, data, size, file, header_ok, h);
    case dtype::float32: return load_rank<float>(rank, data, size, file, header_ok, h);
    case dtype::float64: return load_rank<double>(rank, data, size, file, header_ok, h);
    case dtype::complex64: return load_rank<xf::complex64>(rank, data, size, file, header_ok, h);
    case dtype::complex128: return load_rank<xf::complex128>(rank, data, size, file, header_ok, h);
    case dtype::bfloat16: return;  // no NumPy dtype
  }
}

// The input as a file that lives in memory, opened by path; closed with this object.
class memory_file {
 public:
  memory_file(const std::uint8_t* data, std::size_t size) {
    fd_ = ::memfd_create("fuzz_npy", MFD_CLOEXEC);
    if (fd_ < 0) return;
    for (std::size_t done = 0; done < size;) {
      const ssize_t k = ::write(fd_, data + done, size - done);
      if (k <= 0) die("writing the memfd failed", std::strerror(errno));
      done += static_cast<std::size_t>(k);
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  ~memory_file() {
    if (fd_ >= 0) ::close(fd_);
  }
  memory_file(const memory_file&) = delete;
  memory_file& operator=(const memory_file&) = delete;
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const memory_file file(data, size);

  // The header alone, from memory and by path: the same answer.
  xf::npy_header h;
  std::string header_outcome;
  bool header_ok = false;
  try {
    std::istringstream in(bytes);
    h = npy::read_header(in, "xf::read_npy_header", name);
    header_ok = true;
    header_outcome = "ok " + h.descr + npy::shape_text(h.shape) + std::to_string(h.fortran_order) +
                     std::to_string(h.data_offset) + std::to_string(h.version_major);
  } catch (const xf::error& e) {
    header_outcome = describe(e, "");
  }
  if (!file.path().empty()) {
    std::string by_path;
    try {
      const xf::npy_header g = xf::read_npy_header(file.path());
      by_path = "ok " + g.descr + npy::shape_text(g.shape) + std::to_string(g.fortran_order) +
                std::to_string(g.data_offset) + std::to_string(g.version_major);
    } catch (const xf::error& e) {
      by_path = describe(e, file.path());
    }
    if (by_path != header_outcome) die("read_npy_header differs by path", header_outcome, by_path);
  }

  // The type and rank the header names; then one it does not name (float32, rank 1 unless the
  // header says exactly that, then int8, rank 3), which must fail.
  const auto d = header_ok ? npy::find_descr(h.descr) : std::nullopt;
  if (d && h.shape.size() <= 4) load_typed(d->tag, static_cast<int>(h.shape.size()), data, size, file.path(), true, h);
  const bool f4_rank1 = d && d->tag == xf::dtype::float32 && h.shape.size() == 1;
  try {
    if (f4_rank1) {
      std::istringstream in(bytes);
      (void)npy::read_array<std::int8_t, 3>(in, size, "xf::load_npy", name);
    } else {
      trickle_buf buf(data, size, 7);
      std::istream in(&buf);
      (void)npy::read_array<float, 1>(in, std::nullopt, "xf::load_npy", name);
    }
    die("a load of another dtype or rank succeeded", h.descr, npy::shape_text(h.shape));
  } catch (const xf::error&) {
  }
  return 0;
}
