// .npy files: round trips for every element type NumPy has (fresh random values, ranks 0 to 3,
// empty arrays, views written in C order), files built byte by byte here (Fortran order, big
// endian, format 2.0 and 3.0, other spellings of the header dict) read against known values,
// and the errors bad files get.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <xfuse/xfuse.hpp>

#include "../common/check.hpp"
#include "../common/random.hpp"

using namespace xf_test;

namespace {

template <class T, int R>
using harray = xf::array<T, R, xf::host>;

// A unique path in the temporary directory, removed when it goes out of scope.
class temp_path {
 public:
  temp_path() {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("xfuse_npy_" + std::to_string(std::random_device{}()) + "_" + std::to_string(counter++) + ".npy");
  }
  ~temp_path() {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
  temp_path(const temp_path&) = delete;
  temp_path& operator=(const temp_path&) = delete;
  std::string str() const { return path_.string(); }

 private:
  std::filesystem::path path_;
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
    CHECK_THROWS_WITH((xf::load_npy<double, 2, xf::host>(path)), XF_CONTAINS("too large"));
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
