// .npy files: round trips for every element type NumPy has (fresh random values, ranks 0 to 3,
// empty arrays, views written in C order), files built byte by byte here (Fortran order, big
// endian, format 2.0 and 3.0, other spellings of the header dict) read against known values,
// the errors bad files get, hostile headers (huge lengths and shapes, through FIFOs too), and
// failed writes that must leave what was at the path untouched.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <xfuse/xfuse.hpp>

#include "../common/check.hpp"
#include "../common/random.hpp"
#include "../common/temp_path.hpp"

using namespace xf_test;

namespace {

template <class T, int R>
using harray = xf::array<T, R, xf::host>;

// A fresh directory in the temporary directory, removed with what it holds when it goes out of
// scope: its listing shows exactly what a call left behind.
class temp_dir {
 public:
  temp_dir() {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("xfuse_npy_dir_" + std::to_string(std::random_device{}()) + "_" + std::to_string(counter++));
    std::filesystem::create_directory(path_);
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  std::vector<std::string> names() const {
    std::vector<std::string> n;
    for (const auto& e : std::filesystem::directory_iterator(path_)) n.push_back(e.path().filename().string());
    std::sort(n.begin(), n.end());
    return n;
  }

 private:
  std::filesystem::path path_;
};

// Sets a signal's disposition for a scope.
class scoped_signal {
 public:
  scoped_signal(int sig, void (*handler)(int)) : sig_(sig) {
    struct sigaction sa {};
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaction(sig_, &sa, &old_);
  }
  ~scoped_signal() { sigaction(sig_, &old_, nullptr); }
  scoped_signal(const scoped_signal&) = delete;
  scoped_signal& operator=(const scoped_signal&) = delete;

 private:
  int sig_;
  struct sigaction old_ {};
};

// Feeds bytes into a FIFO from another thread, as a pipe from another process would. The writer
// waits (up to 20 s) for a reader to open the FIFO and stops at the first failed write (the
// reader closed early: EPIPE, with SIGPIPE ignored by the caller).
class fifo_writer {
 public:
  fifo_writer(std::string path, std::string bytes) : thread_([path = std::move(path), bytes = std::move(bytes), this] {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    int fd = -1;
    while ((fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0 && errno == ENXIO &&
           std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (fd < 0) return;
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t k = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) break;
      done += static_cast<std::size_t>(k);
    }
    written_ = done;
    ::close(fd);
  }) {}
  ~fifo_writer() {
    if (thread_.joinable()) thread_.join();
  }
  fifo_writer(const fifo_writer&) = delete;
  fifo_writer& operator=(const fifo_writer&) = delete;
  // Waits for the writer; how many bytes went through.
  std::size_t finish() {
    thread_.join();
    return written_;
  }

 private:
  std::size_t written_ = 0;
  std::thread thread_;
};

// Reads everything from a FIFO on another thread (the other end of save_npy to a FIFO).
class fifo_reader {
 public:
  explicit fifo_reader(std::string path) : thread_([path = std::move(path), this] {
    std::ifstream f(path, std::ios::binary);
    bytes_.assign(std::istreambuf_iterator<char>(f), {});
  }) {}
  ~fifo_reader() {
    if (thread_.joinable()) thread_.join();
  }
  fifo_reader(const fifo_reader&) = delete;
  fifo_reader& operator=(const fifo_reader&) = delete;
  std::string finish() {
    thread_.join();
    return bytes_;
  }

 private:
  std::string bytes_;
  std::thread thread_;
};

std::string file_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}
void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A .npy file by hand: magic, version, little-endian header length, the dict padded with spaces
// to a 64-byte boundary and ended by '\n', then the data.
std::string npy_file(const std::string& dict, const std::string& data, int major = 1) {
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  std::string header = dict;
  while ((8 + len_bytes + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string out("\x93NUMPY", 6);
  out += static_cast<char>(major);
  out += '\0';
  for (std::size_t b = 0; b < len_bytes; ++b) out += static_cast<char>(header.size() >> (8 * b) & 0xff);
  return out + header + data;
}

// The bytes of a value, most significant first (big-endian) or last.
template <class T>
std::string bytes_of(T v, bool big) {
  std::string s(sizeof(T), '\0');
  std::memcpy(s.data(), &v, sizeof(T));
  if (big) std::string(s.rbegin(), s.rend()).swap(s);
  return s;
}

template <class T>
std::string expected_descr() {
  if constexpr (std::is_same_v<T, bool>) return "|b1";
  else if constexpr (std::is_same_v<T, std::int8_t>) return "|i1";
  else if constexpr (std::is_same_v<T, std::uint8_t>) return "|u1";
  else if constexpr (std::is_same_v<T, std::int16_t>) return "<i2";
  else if constexpr (std::is_same_v<T, std::uint16_t>) return "<u2";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "<i4";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "<u4";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "<i8";
  else if constexpr (std::is_same_v<T, std::uint64_t>) return "<u8";
  else if constexpr (std::is_same_v<T, xf::half>) return "<f2";
  else if constexpr (std::is_same_v<T, float>) return "<f4";
  else if constexpr (std::is_same_v<T, double>) return "<f8";
  else if constexpr (std::is_same_v<T, xf::complex64>) return "<c8";
  else return "<c16";
}

// Same shape and bit-identical values in C order.
template <class T, int R>
void require_same(const harray<T, R>& got, const harray<T, R>& want) {
  REQUIRE(got.shape() == want.shape());
  CHECK(got.is_contiguous());
  const auto g = xf::to_host(got);
  const auto w = xf::to_host(want);
  if constexpr (std::is_same_v<T, bool>) {
    CHECK(g == w);
  } else {
    REQUIRE(g.size() == w.size());
    CHECK((g.empty() || std::memcmp(g.data(), w.data(), g.size() * sizeof(T)) == 0));
  }
}

template <class T, int R>
harray<T, R> random_array(const xf::dims<R>& shape) {
  const auto values = uniform<T>(static_cast<std::size_t>(xf::detail::product(shape)), -100, 100);
  return xf::asarray<T, xf::host>(values, shape);
}

// Saves `a`, checks the header, loads it back and compares.
template <class T, int R>
void round_trip(const harray<T, R>& a) {
  INFO(xf::dtype_name<T> << " of shape " << xf::to_string(a.shape()) << (a.is_contiguous() ? "" : " (a view)"));
  const temp_path p;
  xf::save_npy(p.str(), a);
  const xf::npy_header h = xf::read_npy_header(p.str());
  CHECK(h.descr == expected_descr<T>());
  CHECK(!h.fortran_order);
  CHECK(h.shape == std::vector<xf::index_t>(a.shape().begin(), a.shape().end()));
  CHECK(h.version_major == 1);
  CHECK(h.version_minor == 0);
  CHECK(h.data_offset % 64 == 0);
  CHECK(file_bytes(p.str()).size() == h.data_offset + a.nbytes());
  require_same(xf::load_npy<T, R, xf::host>(p.str()), a.copy());
}

}  // namespace

TEMPLATE_TEST_CASE("save_npy and load_npy round trip every NumPy element type", "[npy][host]", bool, std::int8_t,
                   std::int16_t, std::int32_t, std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t,
                   std::uint64_t, xf::half, float, double, xf::complex64, xf::complex128) {
  using T = TestType;
  round_trip(random_array<T, 0>({}));
  round_trip(random_array<T, 1>({37}));
  round_trip(random_array<T, 2>({5, 7}));
  round_trip(random_array<T, 3>({3, 4, 5}));
  // Empty arrays keep their shape.
  round_trip(random_array<T, 1>({0}));
  round_trip(random_array<T, 2>({3, 0}));
  round_trip(random_array<T, 3>({0, 2, 0}));
  // Views are written in C order of their logical values.
  const auto m = random_array<T, 2>({6, 9});
  round_trip(m.T());
  round_trip(m(xf::slice(xf::_, xf::_, -1), xf::slice(1, xf::_, 2)));  // m[::-1, 1::2]
  const auto c = random_array<T, 3>({3, 4, 5});
  round_trip(c.transpose({2, 0, 1}));
  round_trip(c.flip(1)(xf::all, xf::slice(1, 3)));
  round_trip(m(2, xf::slice(xf::_, xf::_, -3)));
  round_trip(m(xf::slice(1, 5), 4).broadcast_to({3, 4}));  // zero strides
  round_trip(m(3, 4));                                        // 0-d view
}

TEST_CASE("save_npy writes what numpy.save writes", "[npy][host]") {
  const temp_path p;
  const std::string path = p.str();
  // example-begin npy
  auto x = xf::asarray<float, xf::host>({1, 2, 3, 4, 5, 6}, {2, 3});
  xf::save_npy(path, x.T());                         // np.save(path, x.T): C order, '<f4'
  auto y = xf::load_npy<float, 2, xf::host>(path);  // np.load(path); the default space is device
  xf::npy_header h = xf::read_npy_header(path);      // h.descr == "<f4", h.shape == {3, 2}
  // example-end
  CHECK(xf::to_host(y) == std::vector<float>{1, 4, 2, 5, 3, 6});
  CHECK(h.shape == std::vector<xf::index_t>{3, 2});
  // Byte for byte what np.save(path, np.ascontiguousarray(x.T)) writes: the dict, room to grow
  // the first extent (21 digits), spaces to a 64-byte boundary, '\n'.
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }";
  dict.resize(117, ' ');
  std::string data;
  for (float v : {1.f, 4.f, 2.f, 5.f, 3.f, 6.f}) data += bytes_of(v, false);
  CHECK(file_bytes(path) == std::string("\x93NUMPY\x01\x00\x76\x00", 10) + dict + "\n" + data);
  CHECK(h.data_offset == 128);

  // A 0-d array has shape () and no growth room.
  xf::save_npy(path, xf::asarray<double, xf::host>({2.5}).squeeze(0));
  std::string dict0 = "{'descr': '<f8', 'fortran_order': False, 'shape': (), }";
  dict0.resize(117, ' ');
  CHECK(file_bytes(path) == std::string("\x93NUMPY\x01\x00\x76\x00", 10) + dict0 + "\n" + bytes_of(2.5, false));
  CHECK(xf::load_npy<double, 0, xf::host>(path).item() == 2.5);
}

TEST_CASE("load_npy reads Fortran order and big-endian files", "[npy][host]") {
  const temp_path p;
  const std::string path = p.str();
  SECTION("'>f8', Fortran order, (2, 3)") {
    std::string data;  // column by column, each value big-endian
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 2; ++i) data += bytes_of(10.0 * i + j + 0.25, true);
    write_bytes(path, npy_file("{'descr': '>f8', 'fortran_order': True, 'shape': (2, 3), }", data));
    const auto a = xf::load_npy<double, 2, xf::host>(path);
    REQUIRE(a.shape() == xf::dims<2>{2, 3});
    CHECK(a.is_contiguous());
    CHECK(xf::to_host(a) == std::vector<double>{0.25, 1.25, 2.25, 10.25, 11.25, 12.25});
  }
  SECTION("'<i4', Fortran order, (2, 3, 4)") {
    std::string data;
    for (int k = 0; k < 4; ++k)
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 2; ++i) data += bytes_of<std::int32_t>(100 * i + 10 * j + k, false);
    write_bytes(path, npy_file("{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3, 4), }", data));
    const auto a = xf::load_npy<std::int32_t, 3, xf::host>(path);
    REQUIRE(a.shape() == xf::dims<3>{2, 3, 4});
    CHECK(a.is_contiguous());
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 4; ++k) CHECK(a.at(i, j, k) == 100 * i + 10 * j + k);
  }
  SECTION("'>i2', Fortran order, (3,): the same as C order") {
    std::string data;
    for (std::int16_t v : {-2, 300, 7}) data += bytes_of(v, true);
    write_bytes(path, npy_file("{'descr': '>i2', 'fortran_order': True, 'shape': (3,), }", data));
    CHECK(xf::to_host(xf::load_npy<std::int16_t, 1, xf::host>(path)) == std::vector<std::int16_t>{-2, 300, 7});
  }
  SECTION("'>c8': each part swapped") {
    std::string data;
    for (float v : {1.5f, -2.f, 0.f, 3.25f}) data += bytes_of(v, true);
    write_bytes(path, npy_file("{'descr': '>c8', 'fortran_order': False, 'shape': (2,), }", data));
    const auto a = xf::load_npy<xf::complex64, 1, xf::host>(path);
    CHECK(a.at(0) == xf::complex64(1.5f, -2.f));
    CHECK(a.at(1) == xf::complex64(0.f, 3.25f));
  }
  SECTION("'>u8' and '>f2', 0-d") {
    write_bytes(path, npy_file("{'descr': '>u8', 'fortran_order': False, 'shape': (), }",
                               bytes_of<std::uint64_t>(0x0102030405060708ull, true)));
    CHECK(xf::load_npy<std::uint64_t, 0, xf::host>(path).item() == 0x0102030405060708ull);
    write_bytes(path, npy_file("{'descr': '>f2', 'fortran_order': False, 'shape': (), }", std::string("\xc1\x00", 2)));
    CHECK(static_cast<float>(xf::load_npy<xf::half, 0, xf::host>(path).item()) == -2.5f);  // 0xc100
  }
  SECTION("'|b1': any nonzero byte is True") {
    write_bytes(path, npy_file("{'descr': '|b1', 'fortran_order': False, 'shape': (2, 2), }", std::string("\0\1\2\xff", 4)));
    CHECK(xf::to_host(xf::load_npy<bool, 2, xf::host>(path)) == std::vector<bool>{false, true, true, true});
  }
}

TEST_CASE("load_npy reads formats 2.0 and 3.0 and other spellings of the dict", "[npy][host]") {
  const temp_path p;
  const std::string path = p.str();
  std::string data;
  for (std::int32_t v : {5, -6, 7, -8}) data += bytes_of(v, false);
  for (int major : {2, 3}) {
    write_bytes(path, npy_file("{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }", data, major));
    const xf::npy_header h = xf::read_npy_header(path);
    CHECK(h.version_major == major);
    CHECK(h.data_offset == 128);  // 12 + 58 + 1 bytes, padded
    CHECK(xf::to_host(xf::load_npy<std::int32_t, 1, xf::host>(path)) == std::vector<std::int32_t>{5, -6, 7, -8});
  }
  // Keys in another order, double quotes, no trailing comma, no space, native-order '=' descr.
  write_bytes(path, npy_file("{\"shape\":(2,2),\"fortran_order\":False,\"descr\":\"=i4\"}", data));
  CHECK(xf::to_host(xf::load_npy<std::int32_t, 2, xf::host>(path)) == std::vector<std::int32_t>{5, -6, 7, -8});
  // Data after the array is ignored, as numpy.load does.
  write_bytes(path, npy_file("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }", data));
  CHECK(xf::to_host(xf::load_npy<std::int32_t, 1, xf::host>(path)) == std::vector<std::int32_t>{5, -6, 7});
}

TEST_CASE("a header over 64 KiB is written as format 2.0", "[npy][host]") {
  // Only a rank in the tens of thousands makes such a header: test the header writer directly.
  const std::vector<xf::index_t> shape(22000, 1);  // "1, " 22000 times
  const std::string header = xf::detail::npy::header_bytes("<f4", shape);
  CHECK(header.substr(0, 8) == std::string("\x93NUMPY\x02\x00", 8));
  CHECK(header.size() % 64 == 0);
  CHECK(header.back() == '\n');
  const temp_path p;
  write_bytes(p.str(), header + bytes_of(42.f, false));
  const xf::npy_header h = xf::read_npy_header(p.str());
  CHECK(h.version_major == 2);
  CHECK(h.shape == shape);
  CHECK(h.data_offset == header.size());
  CHECK(h.descr == "<f4");
  // A shorter one stays 1.0.
  CHECK(xf::detail::npy::header_bytes("<f4", std::vector<xf::index_t>(1000, 1))[6] == 1);
}

TEST_CASE("npy errors name the file and what is wrong", "[npy][errors][host]") {
  const temp_path p;
  const std::string path = p.str();
  const std::string f8 = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }";
  const std::string six_doubles(48, '\0');

  SECTION("wrong dtype: dtype_error names the path and both dtypes") {
    xf::save_npy(path, xf::asarray<float, xf::host>({1, 2, 3}));
    CHECK_THROWS_AS((xf::load_npy<double, 1, xf::host>(path)), xf::dtype_error);
    CHECK_THROWS_WITH((xf::load_npy<double, 1, xf::host>(path)), XF_CONTAINS(path) && XF_CONTAINS("float32") &&
                                                                    XF_CONTAINS("float64"));
    CHECK_THROWS_WITH((xf::load_npy<std::int32_t, 1, xf::host>(path)), XF_CONTAINS("int32"));
  }
  SECTION("wrong rank: shape_error names the shape and the rank") {
    write_bytes(path, npy_file(f8, six_doubles));
    CHECK_THROWS_AS((xf::load_npy<double, 1, xf::host>(path)), xf::shape_error);
    CHECK_THROWS_WITH((xf::load_npy<double, 1, xf::host>(path)), XF_CONTAINS(path) && XF_CONTAINS("(2, 3)") &&
                                                                    XF_CONTAINS("rank 1"));
    CHECK_THROWS_AS((xf::load_npy<double, 0, xf::host>(path)), xf::shape_error);
  }
  SECTION("bad magic") {
    write_bytes(path, "\x93NUMPX" + npy_file(f8, six_doubles).substr(6));
    CHECK_THROWS_AS((xf::load_npy<double, 2, xf::host>(path)), xf::error);
    CHECK_THROWS_WITH((xf::load_npy<double, 2, xf::host>(path)), XF_CONTAINS(path) && XF_CONTAINS("magic"));
    write_bytes(path, "NU");  // shorter than the magic string
    CHECK_THROWS_WITH(xf::read_npy_header(path), XF_CONTAINS(path) && XF_CONTAINS("magic"));
  }
  SECTION("truncated data") {
    write_bytes(path, npy_file(f8, six_doubles.substr(0, 40)));
    CHECK_THROWS_AS((xf::load_npy<double, 2, xf::host>(path)), xf::error);
    CHECK_THROWS_WITH((xf::load_npy<double, 2, xf::host>(path)),
                      XF_CONTAINS(path) && XF_CONTAINS("truncated") && XF_CONTAINS("48 bytes"));
    // A huge shape is refused before anything is allocated.
    write_bytes(path, npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }", ""));
    CHECK_THROWS_WITH((xf::load_npy<double, 1, xf::host>(path)), XF_CONTAINS("truncated"));
    write_bytes(path, npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", ""));
    CHECK_THROWS_AS((xf::load_npy<double, 2, xf::host>(path)), xf::shape_error);
    CHECK_THROWS_WITH((xf::load_npy<double, 2, xf::host>(path)), XF_CONTAINS(path) && XF_CONTAINS("too big"));
  }
  SECTION("truncated header") {
    write_bytes(path, npy_file(f8, "").substr(0, 40));
    CHECK_THROWS_WITH(xf::read_npy_header(path), XF_CONTAINS(path) && XF_CONTAINS("header"));
    write_bytes(path, npy_file(f8, "").substr(0, 9));
    CHECK_THROWS_WITH(xf::read_npy_header(path), XF_CONTAINS(path) && XF_CONTAINS("header"));
  }
  SECTION("missing file") {
    const std::string missing = path + ".does_not_exist";
    CHECK_THROWS_AS((xf::load_npy<double, 2, xf::host>(missing)), xf::error);
    CHECK_THROWS_WITH((xf::load_npy<double, 2, xf::host>(missing)), XF_CONTAINS(missing) && XF_CONTAINS("cannot open"));
    CHECK_THROWS_WITH(xf::read_npy_header(missing), XF_CONTAINS(missing));
    CHECK_THROWS_WITH(xf::save_npy(path + ".no_such_dir/x.npy", xf::asarray<float, xf::host>({1})),
                      XF_CONTAINS(".no_such_dir") && XF_CONTAINS("cannot create"));
  }
  SECTION("malformed header dicts") {
    for (const char* dict : {"{'descr': '<f8', 'fortran_order': Maybe, 'shape': (2, 3), }",
                             "{'descr': '<f8', 'fortran_order': False, 'shape': (2, -3), }",
                             "{'descr': '<f8', 'fortran_order': False, 'shape': (2 3), }",
                             "{'descr': '<f8', 'fortran_order': False, }",
                             "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), 'extra': 1}",
                             "{'descr': '<f8 'fortran_order': False, 'shape': (2, 3)}",
                             "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)} x",
                             "['descr', '<f8']"}) {
      INFO(dict);
      write_bytes(path, npy_file(dict, six_doubles));
      CHECK_THROWS_AS((xf::load_npy<double, 2, xf::host>(path)), xf::error);
      CHECK_THROWS_WITH(xf::read_npy_header(path), XF_CONTAINS(path) && XF_CONTAINS("malformed header"));
    }
    write_bytes(path, npy_file(f8, six_doubles).replace(6, 1, "\x04"));
    CHECK_THROWS_WITH(xf::read_npy_header(path), XF_CONTAINS("version 4.0"));
  }
  SECTION("dtypes xfuse does not hold") {
    write_bytes(path, npy_file("{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }", std::string(24, 'a')));
    CHECK_THROWS_AS((xf::load_npy<float, 1, xf::host>(path)), xf::dtype_error);
    CHECK_THROWS_WITH((xf::load_npy<float, 1, xf::host>(path)), XF_CONTAINS("'<U3'"));
    write_bytes(path, npy_file("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", std::string(8, 'a')));
    CHECK_THROWS_AS((xf::load_npy<float, 1, xf::host>(path)), xf::dtype_error);
    CHECK_THROWS_WITH((xf::load_npy<float, 1, xf::host>(path)), XF_CONTAINS("structured"));
  }
  SECTION("bfloat16 has no NumPy dtype") {
    const auto b = xf::asarray<xf::bfloat16, xf::host>({xf::bfloat16(1.f)});
    CHECK_THROWS_AS(xf::save_npy(path, b), xf::dtype_error);
    CHECK_THROWS_WITH(xf::save_npy(path, b), XF_CONTAINS("bfloat16") && XF_CONTAINS(path));
    CHECK(!std::filesystem::exists(path));
    CHECK_THROWS_AS((xf::load_npy<xf::bfloat16, 1, xf::host>(path)), xf::dtype_error);
  }
}

TEST_CASE("load_npy refuses shapes whose byte count passes 2^63 - 1, zero extents or not", "[npy][errors][host]") {
  const temp_path p;
  const std::string path = p.str();
  // An empty array whose other extents multiply past 2^63: the C-order strides would overflow.
  write_bytes(path, npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (0, 4611686018427387904, "
                             "4611686018427387904), }", ""));
  CHECK_THROWS_AS((xf::load_npy<double, 3, xf::host>(path)), xf::shape_error);
  CHECK_THROWS_WITH((xf::load_npy<double, 3, xf::host>(path)), XF_CONTAINS(path) && XF_CONTAINS("too big"));
  CHECK_THROWS_AS(xf::read_npy_header(path), xf::shape_error);
  // Fortran order: the same check on the reversed shape.
  write_bytes(path, npy_file("{'descr': '<i2', 'fortran_order': True, 'shape': (3037000500, 0, 3037000500), }", ""));
  CHECK_THROWS_WITH((xf::load_npy<std::int16_t, 3, xf::host>(path)), XF_CONTAINS("too big"));
  // The element size counts: 2^62 bytes fit, 2^62 float64 do not.
  write_bytes(path, npy_file("{'descr': '|u1', 'fortran_order': False, 'shape': (0, 4611686018427387904), }", ""));
  CHECK((xf::load_npy<std::uint8_t, 2, xf::host>(path)).shape() == xf::dims<2>{0, 4611686018427387904});
  write_bytes(path, npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (0, 4611686018427387904), }", ""));
  CHECK_THROWS_WITH((xf::load_npy<double, 2, xf::host>(path)), XF_CONTAINS("too big"));
}

TEST_CASE("npy headers are read up to a size limit", "[npy][errors][host]") {
  const temp_path p;
  const std::string path = p.str();
  // A 12-byte file whose length field says 4 GiB fails on the limit, before reading or allocating.
  write_bytes(path, std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12));
  CHECK_THROWS_WITH(xf::read_npy_header(path), XF_CONTAINS(path) && XF_CONTAINS("4294967295") &&
                                                   XF_CONTAINS("limit"));
  CHECK_THROWS_WITH((xf::load_npy<float, 1, xf::host>(path)), XF_CONTAINS("limit"));
  // One byte over the limit, with the whole header there, is refused too; the limit itself is read.
  const std::size_t limit = xf::detail::npy::max_header_size;
  std::string big = npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", "", 2);
  const std::size_t pad = limit - (big.size() - 12);  // header text exactly `limit` bytes
  auto with_header_of = [&](std::size_t extra) {
    std::string header = big.substr(12, big.size() - 13) + std::string(pad + extra, ' ') + '\n';
    std::string out = big.substr(0, 8);
    for (int b = 0; b < 4; ++b) out += static_cast<char>(header.size() >> (8 * b) & 0xff);
    return out + header + bytes_of(1.5f, false);
  };
  write_bytes(path, with_header_of(0));
  CHECK(xf::load_npy<float, 1, xf::host>(path).at(0) == 1.5f);
  write_bytes(path, with_header_of(1));
  CHECK_THROWS_WITH(xf::read_npy_header(path), XF_CONTAINS("limit"));
}

TEST_CASE("load_npy reads FIFOs and other streams that cannot seek", "[npy][host]") {
  const scoped_signal no_sigpipe(SIGPIPE, SIG_IGN);  // the reader may close early on purpose
  const temp_dir dir;
  const std::string fifo = dir / "stream.npy";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const temp_path p;

  SECTION("a valid file") {
    const auto a = random_array<double, 3>({4, 5, 6});
    xf::save_npy(p.str(), a.T());
    const std::string bytes = file_bytes(p.str());
    fifo_writer w(fifo, bytes);
    const auto b = xf::load_npy<double, 3, xf::host>(fifo);
    CHECK(w.finish() == bytes.size());
    require_same(b, a.T().copy());
  }
  SECTION("a valid header") {
    std::string data;
    for (int k = 0; k < 6; ++k) data += bytes_of<std::int64_t>(k, true);
    fifo_writer w(fifo, npy_file("{'descr': '>i8', 'fortran_order': True, 'shape': (2, 3), }", data, 3));
    const xf::npy_header h = xf::read_npy_header(fifo);
    w.finish();
    CHECK(h.version_major == 3);
    CHECK(h.descr == ">i8");
    CHECK(h.fortran_order);
    CHECK(h.shape == std::vector<xf::index_t>{2, 3});
  }
  SECTION("a Fortran-order, big-endian file in several writes") {
    std::string data;
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 2; ++i) data += bytes_of(10.f * i + j, true);
    fifo_writer w(fifo, npy_file("{'descr': '>f4', 'fortran_order': True, 'shape': (2, 3), }", data));
    CHECK(xf::to_host(xf::load_npy<float, 2, xf::host>(fifo)) == std::vector<float>{0, 1, 2, 10, 11, 12});
  }
  SECTION("a 12-byte file whose header length says 4 GiB fails on the header limit") {
    fifo_writer w(fifo, std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12));
    CHECK_THROWS_WITH((xf::load_npy<float, 1, xf::host>(fifo)), XF_CONTAINS(fifo) && XF_CONTAINS("limit"));
    w.finish();
  }
  SECTION("a header promising 2^40 bytes, followed by 16, fails as truncated, allocating as data arrives") {
    // 2^40 bytes cannot be allocated here: an up-front allocation would throw std::bad_alloc.
    fifo_writer w(fifo, npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (137438953472,), }",
                                 std::string(16, '\1')));
    CHECK_THROWS_WITH((xf::load_npy<double, 1, xf::host>(fifo)),
                      XF_CONTAINS(fifo) && XF_CONTAINS("truncated") && XF_CONTAINS("has 16 after the header"));
    w.finish();
  }
  SECTION("truncated data in a regular file is found the same way") {
    write_bytes(p.str(), npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (137438953472,), }",
                                  std::string(16, '\1')));
    CHECK_THROWS_WITH((xf::load_npy<double, 1, xf::host>(p.str())),
                      XF_CONTAINS("truncated") && XF_CONTAINS("has 16 after the header"));
  }
}

TEST_CASE("a failed save_npy leaves the file that was there", "[npy][errors][host]") {
  const temp_dir dir;
  const std::string path = dir / "a.npy";
  const auto small = xf::asarray<float, xf::host>({1, 2, 3});
  xf::save_npy(path, small);
  const std::string before = file_bytes(path);
  REQUIRE(dir.names() == std::vector<std::string>{"a.npy"});

  SECTION("a write past RLIMIT_FSIZE") {
    // The write fails with EFBIG (SIGXFSZ ignored) once the file passes 64 KiB.
    const scoped_signal no_sigxfsz(SIGXFSZ, SIG_IGN);
    rlimit old{};
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &old) == 0);
    rlimit lowered = old;
    lowered.rlim_cur = 64 * 1024;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &lowered) == 0);
    const auto large = random_array<double, 1>({100000});
    std::string what;
    try {
      xf::save_npy(path, large);
    } catch (const xf::error& e) {
      what = e.what();
    }
    ::setrlimit(RLIMIT_FSIZE, &old);
    INFO(what);
    CHECK((what.find(path) != std::string::npos && what.find("writing failed") != std::string::npos));
    CHECK(file_bytes(path) == before);
    CHECK(dir.names() == std::vector<std::string>{"a.npy"});  // no temporary left behind
    // A new path that fails leaves nothing either.
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &lowered) == 0);
    CHECK_THROWS_AS(xf::save_npy(dir / "b.npy", large), xf::error);
    ::setrlimit(RLIMIT_FSIZE, &old);
    CHECK(dir.names() == std::vector<std::string>{"a.npy"});
  }
  SECTION("a character device that is full: written directly, never removed") {
    // A private node like /dev/full (major 1, minor 7) where this process may make one (root),
    // then /dev/full itself where it is writable.
    std::vector<std::string> devices;
    const std::string node = dir / "full";
    auto writable = [](const std::string& d) {  // a nodev mount refuses to open the node
      const int fd = ::open(d.c_str(), O_WRONLY | O_CLOEXEC);
      return fd >= 0 && ::close(fd) == 0;
    };
    if (::mknod(node.c_str(), S_IFCHR | 0600, makedev(1, 7)) == 0 && writable(node)) devices.push_back(node);
    if (writable("/dev/full")) devices.push_back("/dev/full");
    INFO("no writable full device here (/dev/full is one on every Linux system): nothing to check");
    REQUIRE(!devices.empty());
    for (const std::string& d : devices) {
      INFO(d);
      CHECK_THROWS_WITH(xf::save_npy(d, small), XF_CONTAINS(d) && XF_CONTAINS("writing failed"));
      struct stat st {};
      REQUIRE(::stat(d.c_str(), &st) == 0);
      CHECK(S_ISCHR(st.st_mode));
    }
    CHECK(file_bytes(path) == before);
  }
}

TEST_CASE("save_npy keeps modes and links, and writes into FIFOs", "[npy][host]") {
  const temp_dir dir;
  const auto a = xf::asarray<std::int16_t, xf::host>({4, 5, 6});
  const auto b = xf::asarray<std::int16_t, xf::host>({7, 8});

  SECTION("a new file gets 0666 less the umask; an existing file keeps its mode") {
    const mode_t mask = ::umask(022);
    xf::save_npy(dir / "new.npy", a);
    ::umask(mask);
    struct stat st {};
    REQUIRE(::stat((dir / "new.npy").c_str(), &st) == 0);
    CHECK((st.st_mode & 07777) == 0644);
    REQUIRE(::chmod((dir / "new.npy").c_str(), 0640) == 0);
    xf::save_npy(dir / "new.npy", b);
    REQUIRE(::stat((dir / "new.npy").c_str(), &st) == 0);
    CHECK((st.st_mode & 07777) == 0640);
    CHECK(xf::to_host(xf::load_npy<std::int16_t, 1, xf::host>(dir / "new.npy")) == std::vector<std::int16_t>{7, 8});
    CHECK(dir.names() == std::vector<std::string>{"new.npy"});
  }
  SECTION("a symbolic link stays a link to the file it named") {
    xf::save_npy(dir / "target.npy", a);
    std::filesystem::create_symlink(dir / "target.npy", dir / "link.npy");
    xf::save_npy(dir / "link.npy", b);
    CHECK(std::filesystem::is_symlink(dir / "link.npy"));
    CHECK(xf::to_host(xf::load_npy<std::int16_t, 1, xf::host>(dir / "target.npy")) == std::vector<std::int16_t>{7, 8});
    CHECK(dir.names() == std::vector<std::string>{"link.npy", "target.npy"});
  }
  SECTION("a FIFO is written, not replaced") {
    const scoped_signal no_sigpipe(SIGPIPE, SIG_IGN);
    const std::string fifo = dir / "out.npy";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    fifo_reader r(fifo);
    xf::save_npy(fifo, a);
    const std::string got = r.finish();
    const temp_path p;
    write_bytes(p.str(), got);
    CHECK(xf::to_host(xf::load_npy<std::int16_t, 1, xf::host>(p.str())) == std::vector<std::int16_t>{4, 5, 6});
    struct stat st {};
    REQUIRE(::lstat(fifo.c_str(), &st) == 0);
    CHECK(S_ISFIFO(st.st_mode));
  }
  SECTION("saves racing for one path leave one whole file and no temporaries") {
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {
        const auto v = xf::asarray<std::int16_t, xf::host>({static_cast<std::int16_t>(t), 1, 2, 3});
        for (int k = 0; k < 25; ++k) xf::save_npy(dir / "shared.npy", v);
      });
    for (auto& t : threads) t.join();
    const auto got = xf::to_host(xf::load_npy<std::int16_t, 1, xf::host>(dir / "shared.npy"));
    REQUIRE(got.size() == 4);
    CHECK((got[0] >= 0 && got[0] < 4 && got[1] == 1 && got[3] == 3));
    CHECK(dir.names() == std::vector<std::string>{"shared.npy"});
  }
  SECTION("a read-only file is refused as open(2) would refuse it") {
    xf::save_npy(dir / "ro.npy", a);
    REQUIRE(::chmod((dir / "ro.npy").c_str(), 0444) == 0);
    if (::access((dir / "ro.npy").c_str(), W_OK) == 0) {
      // This process may write read-only files (root), so open(2) would open it: save_npy writes
      // it, and it stays read-only.
      xf::save_npy(dir / "ro.npy", b);
      CHECK(xf::to_host(xf::load_npy<std::int16_t, 1, xf::host>(dir / "ro.npy")) == std::vector<std::int16_t>{7, 8});
      struct stat st {};
      REQUIRE(::stat((dir / "ro.npy").c_str(), &st) == 0);
      CHECK((st.st_mode & 07777) == 0444);
    } else {
      CHECK_THROWS_WITH(xf::save_npy(dir / "ro.npy", b), XF_CONTAINS("ro.npy") && XF_CONTAINS("ermission"));
      CHECK(xf::to_host(xf::load_npy<std::int16_t, 1, xf::host>(dir / "ro.npy")) == std::vector<std::int16_t>{4, 5, 6});
    }
    CHECK(dir.names() == std::vector<std::string>{"ro.npy"});
  }
}
