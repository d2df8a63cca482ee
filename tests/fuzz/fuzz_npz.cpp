// libFuzzer target: the .npz reader (xf::load_npz, xf::npz_file::get) on arbitrary bytes, with zlib
// for deflated members. Each input is an archive in an in-memory file (memfd: nothing is left on
// disk). Every member is read as every element type the fuzzer tries at ranks 0 to 3; what reads
// must read the same twice, and must survive a round trip through xf::savez_compressed and
// load_npz unchanged, byte for byte. Only xf::error and its kinds may leave the reader; anything
// else (std::bad_alloc included) aborts, and so does any sanitizer report.
#define XFUSE_WITH_ZLIB 1

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <xfuse/complex.hpp>
#include <xfuse/half.hpp>
#include <xfuse/npz.hpp>

namespace {

[[noreturn]] void die(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_npz: %s\n  %s\n", what, detail.c_str());
  std::abort();
}

// A file in memory that load_npz opens by path (/proc/self/fd/N: a regular file).
class memory_file {
 public:
  memory_file(const std::uint8_t* data, std::size_t size) : fd_(::memfd_create("fuzz.npz", MFD_CLOEXEC)) {
    if (fd_ < 0) die("memfd_create failed", std::strerror(errno));
    for (std::size_t done = 0; done < size;) {
      const ssize_t k = ::write(fd_, data + done, size - done);
      if (k <= 0) die("writing the memfd failed", std::strerror(errno));
      done += static_cast<std::size_t>(k);
    }
  }
  ~memory_file() { ::close(fd_); }
  memory_file(const memory_file&) = delete;
  memory_file& operator=(const memory_file&) = delete;
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
};

template <class T, int R>
std::string bytes_of(const xf::array<T, R, xf::host>& a) {
  return xf::to_string(a.shape()) + std::string(reinterpret_cast<const char*>(a.data()), a.nbytes());
}

// Reads member `name` as T and rank R; what reads must read again the same and round-trip.
template <class T, int R>
void read_member(const xf::npz_file& npz, const std::string& name) {
  xf::array<T, R, xf::host> a;
  try {
    a = npz.get<T, R, xf::host>(name);
  } catch (const xf::error&) {
    return;
  }
  const std::string once = bytes_of(a);
  if (bytes_of(npz.get<T, R, xf::host>(name)) != once) die("a second read of a member differs", name);
  // The round trip goes through a file of its own (tmpfs where there is one), removed at once.
  static const std::string path = std::string(::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") + "/xfuse_fuzz_npz_" +
                                  std::to_string(::getpid()) + ".npz";
  try {
    xf::savez_compressed(path, xf::named("m", a));
    const auto back = xf::load_npz(path).get<T, R, xf::host>("m");
    ::unlink(path.c_str());
    if (bytes_of(back) != once) die("a member changed in a round trip through savez_compressed", name);
  } catch (const xf::error& e) {
    ::unlink(path.c_str());
    die("a member that was read could not be written and read back", e.what());
  }
}

template <class T>
void read_ranks(const xf::npz_file& npz, const std::string& name) {
  read_member<T, 0>(npz, name);
  read_member<T, 1>(npz, name);
  read_member<T, 2>(npz, name);
  read_member<T, 3>(npz, name);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const memory_file file(data, size);
  try {
    const xf::npz_file npz = xf::load_npz(file.path());
    for (const std::string& name : npz.files()) {
      read_ranks<bool>(npz, name);
      read_ranks<std::int8_t>(npz, name);
      read_ranks<std::uint16_t>(npz, name);
      read_ranks<std::int32_t>(npz, name);
      read_ranks<std::int64_t>(npz, name);
      read_ranks<xf::half>(npz, name);
      read_ranks<float>(npz, name);
      read_ranks<double>(npz, name);
      read_ranks<xf::complex128>(npz, name);
    }
  } catch (const xf::error&) {
  }
  return 0;
}
