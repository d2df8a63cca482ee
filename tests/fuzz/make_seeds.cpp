// Writes the seed corpus of fuzz_npy into a directory: small arrays of every dtype and ranks 0 to 4
// written by xf::save_npy (xfuse_*), and files made byte by byte in NumPy's format that the writer
// does not make (hand_*: Fortran order, big-endian, formats 2.0 and 3.0, other spellings of the
// dict, unpadded headers, truncated data). scripts/fuzz.sh seeds builds and runs it.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include <xfuse/array/npy.hpp>
#include <xfuse/complex.hpp>
#include <xfuse/core.hpp>
#include <xfuse/half.hpp>

namespace {

std::string dir;

template <class T, std::size_t N>
void save(const char* name, const std::array<xf::index_t, N>& shape) {
  xf::array<T, static_cast<int>(N), xf::host> a(shape);
  auto* bytes = reinterpret_cast<unsigned char*>(a.data());
  for (std::size_t i = 0; i < a.nbytes(); ++i) bytes[i] = static_cast<unsigned char>(xf::is_bool<T> ? i % 2 : 17 * i + 3);
  xf::save_npy(dir + "/" + name, a);
}

// Magic, version, little-endian length, the dict (no padding unless given), data.
void hand(const char* name, const std::string& dict, const std::string& data, int major = 1) {
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  std::string out("\x93NUMPY", 6);
  out += static_cast<char>(major);
  out += '\0';
  for (std::size_t b = 0; b < len_bytes; ++b) out += static_cast<char>(dict.size() >> (8 * b) & 0xff);
  out += dict + data;
  std::ofstream(dir + "/" + name, std::ios::binary).write(out.data(), static_cast<std::streamsize>(out.size()));
}

std::string counting(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>(i * 7 + 1);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <directory>\n", argv[0]);
    return 2;
  }
  dir = argv[1];
  using d = std::array<xf::index_t, 1>;
  save<bool, 2>("xfuse_b1_2x2.npy", {2, 2});
  save<std::int8_t, 1>("xfuse_i1_3.npy", d{3});
  save<std::uint16_t, 0>("xfuse_u2_scalar.npy", {});
  save<std::int32_t, 2>("xfuse_i4_2x3.npy", {2, 3});
  save<std::int64_t, 3>("xfuse_i8_1x1x2.npy", {1, 1, 2});
  save<xf::half, 1>("xfuse_f2_2.npy", d{2});
  save<float, 4>("xfuse_f4_1x2x1x2.npy", {1, 2, 1, 2});
  save<double, 2>("xfuse_f8_0x3.npy", {0, 3});
  save<xf::complex64, 1>("xfuse_c8_1.npy", d{1});
  save<xf::complex128, 0>("xfuse_c16_scalar.npy", {});
  save<std::uint64_t, 1>("xfuse_u8_1.npy", d{1});

  hand("hand_be_f8_fortran_2x3.npy", "{'descr': '>f8', 'fortran_order': True, 'shape': (2, 3), }\n", counting(48));
  hand("hand_v2_i4_4.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }\n", counting(16), 2);
  hand("hand_v3_be_c8_fortran_2x1x2.npy", "{'descr': '>c8', 'fortran_order': True, 'shape': (2, 1, 2), }\n",
       counting(32), 3);
  hand("hand_quotes_u2_2x2.npy", "{\"shape\":(2,2),\"fortran_order\":False,\"descr\":\"=u2\"}", counting(8));
  hand("hand_b1_nonzero_4.npy", "{'descr': '|b1', 'fortran_order': False, 'shape': (4,)}", std::string("\0\1\2\xff", 4));
  hand("hand_truncated_f4_1000.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1000,), }\n", counting(12));
  hand("hand_empty_huge_u1_0x4611686018427387904.npy",
       "{'descr': '|u1', 'fortran_order': False, 'shape': (0, 4611686018427387904), }\n", "");
  return 0;
}
