// .npz archives: round trips of every kind of member (stored and deflated, zip64 records), NumPy's
// own archives read back (tests/common/npz_samples.hpp), and malformed archives refused with an
// xf::error, never a crash.
#define XFUSE_WITH_ZLIB 1

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "../common/catch.hpp"
#include "../common/file_contract.hpp"
#include "../common/npz_samples.hpp"
#include "../common/random.hpp"
#include "../common/temp_path.hpp"
#include <xfuse/complex.hpp>
#include <xfuse/npz.hpp>

namespace {

using xf_test::temp_path;

void write_bytes(const std::string& path, const void* data, std::size_t n) {
  std::ofstream(path, std::ios::binary).write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
}

std::vector<unsigned char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("savez and savez_compressed round trip arrays of every kind", "[npz][host]") {
  using C = xf::complex64;
  const auto hf = xf_test::uniform<float>(7 * 5, -1e3, 1e3);
  const auto hi = xf_test::uniform<std::int64_t>(11, -1e15, 1e15);
  const auto hc = xf_test::uniform<C>(4, -1, 1);
  const auto f = xf::asarray<float, xf::host>(hf, {7, 5});
  const auto i = xf::asarray<std::int64_t, xf::host>(hi);
  const auto c = xf::asarray<C, xf::host>(hc, {2, 2});
  const auto flags = xf::asarray<bool, xf::host>({true, false, true, true, false, false}, {1, 2, 3});
  const auto empty = xf::array<double, 2, xf::host>({0, 3});
  for (const bool compressed : {false, true}) {
    INFO((compressed ? "savez_compressed" : "savez"));
    const temp_path p(".npz");
    if (compressed) xf::savez_compressed(p.str(), f, xf::named("ints", i), f.T(), xf::named("z", c), xf::named("mask", flags), xf::named("none", empty));
    else xf::savez(p.str(), f, xf::named("ints", i), f.T(), xf::named("z", c), xf::named("mask", flags), xf::named("none", empty));
    const auto npz = xf::load_npz(p.str());
    CHECK(npz.files() == std::vector<std::string>{"arr_0", "ints", "arr_1", "z", "mask", "none"});
    CHECK(npz.contains("z"));
    CHECK(!npz.contains("y"));
    CHECK(xf::to_host(npz.get<float, 2, xf::host>("arr_0")) == hf);
    CHECK(xf::to_host(npz.get<std::int64_t, 1, xf::host>("ints")) == hi);
    CHECK(xf::to_host(npz.get<float, 2, xf::host>("arr_1")) == xf::to_host(f.T()));
    CHECK(xf::to_host(npz.get<C, 2, xf::host>("z")) == hc);
    CHECK(npz.get<bool, 3, xf::host>("mask").shape() == std::array<xf::index_t, 3>{1, 2, 3});
    CHECK(xf::to_host(npz.get<bool, 3, xf::host>("mask")) == xf::to_host(flags));
    CHECK(npz.get<double, 2, xf::host>("none").shape() == std::array<xf::index_t, 2>{0, 3});
    // Wrong type, rank or name: NumPy's errors, named.
    CHECK_THROWS_AS((npz.get<double, 2, xf::host>("arr_0")), xf::dtype_error);
    CHECK_THROWS_AS((npz.get<float, 1, xf::host>("arr_0")), xf::shape_error);
    CHECK_THROWS_WITH((npz.get<float, 2, xf::host>("nothing")), XF_CONTAINS("no array named 'nothing'"));
  }
  // Two arrays of one name: refused, and no file is left.
  const temp_path p(".npz");
  CHECK_THROWS_WITH(xf::savez(p.str(), xf::named("x", f), xf::named("x", i)), XF_CONTAINS("two arrays are named 'x'"));
  CHECK(!std::filesystem::exists(p.str()));
}

TEST_CASE("load_npz reads NumPy's own archives, stored and deflated", "[npz][host][numpy]") {
  for (const bool deflated : {false, true}) {
    const temp_path p(".npz");
    if (deflated) write_bytes(p.str(), xf_test::npz_samples::numpy_deflated_npz, sizeof xf_test::npz_samples::numpy_deflated_npz);
    else write_bytes(p.str(), xf_test::npz_samples::numpy_stored_npz, sizeof xf_test::npz_samples::numpy_stored_npz);
    const auto npz = xf::load_npz(p.str());
    CHECK(npz.files() == std::vector<std::string>{"weights", "arr_0"});  // NumPy writes keywords first
    // np.arange(6, dtype=np.float32).reshape(2, 3) / 4 and [1, -2, 3]
    CHECK(xf::to_host(npz.get<float, 2, xf::host>("arr_0")) == std::vector<float>{0, 0.25f, 0.5f, 0.75f, 1, 1.25f});
    CHECK(xf::to_host(npz.get<std::int64_t, 1, xf::host>("weights")) == std::vector<std::int64_t>{1, -2, 3});
  }
}

TEST_CASE("load_npz picks NumPy's member of a repeated name: the exact name first, the last of equals", "[npz][host][numpy]") {
  const temp_path p(".npz");
  write_bytes(p.str(), xf_test::npz_samples::duplicate_names_npz, sizeof xf_test::npz_samples::duplicate_names_npz);
  const auto npz = xf::load_npz(p.str());
  CHECK(npz.files() == std::vector<std::string>{"x", "x", "y", "y"});
  CHECK(xf::to_host(npz.get<std::int32_t, 1, xf::host>("x")) == std::vector<std::int32_t>{3, 4});
  CHECK(xf::to_host(npz.get<std::int32_t, 1, xf::host>("y")) == std::vector<std::int32_t>{7, 8});
  CHECK(xf::to_host(npz.get<std::int32_t, 1, xf::host>("y.npy")) == std::vector<std::int32_t>{5, 6});
}

TEST_CASE("savez and savez_compressed keep modes and links and write into FIFOs and devices", "[npz][host]") {
  const auto a = xf::asarray<std::int16_t, xf::host>({4, 5, 6});
  const auto b = xf::asarray<std::int16_t, xf::host>({7, 8});
  const auto which = [](const std::string& path) {
    const auto v = xf::to_host(xf::load_npz(path).get<std::int16_t, 1, xf::host>("v"));
    return v == std::vector<std::int16_t>{4, 5, 6} ? 0 : v == std::vector<std::int16_t>{7, 8} ? 1 : -1;
  };
  const auto large = xf::asarray<double, xf::host>(xf_test::uniform<double>(100000, -100, 100));
  for (const bool deflated : {false, true}) {
    INFO((deflated ? "savez_compressed" : "savez"));
    const auto write = [&](const std::string& path, int k) {
      if (deflated) xf::savez_compressed(path, xf::named("v", k == 0 ? a : b));
      else xf::savez(path, xf::named("v", k == 0 ? a : b));
    };
    // Random doubles do not deflate below 64 KiB either.
    const auto write_large = [&](const std::string& path) {
      if (deflated) xf::savez_compressed(path, large);
      else xf::savez(path, large);
    };
    xf_test::files::check_file_writer(write, which, write_large, ".npz");
  }
}

TEST_CASE("malformed archives throw xf::error and never crash", "[npz][host]") {
  const auto good = std::vector<unsigned char>(std::begin(xf_test::npz_samples::numpy_deflated_npz), std::end(xf_test::npz_samples::numpy_deflated_npz));
  const auto stored = std::vector<unsigned char>(std::begin(xf_test::npz_samples::numpy_stored_npz), std::end(xf_test::npz_samples::numpy_stored_npz));
  auto try_read = [](const std::vector<unsigned char>& bytes) {
    const temp_path p(".npz");
    write_bytes(p.str(), bytes.data(), bytes.size());
    const auto npz = xf::load_npz(p.str());
    (void)npz.get<float, 2, xf::host>("arr_0");
    (void)npz.get<std::int64_t, 1, xf::host>("weights");
  };
  CHECK_THROWS_WITH(try_read({}), XF_CONTAINS("not a zip archive"));
  CHECK_THROWS_WITH(try_read(std::vector<unsigned char>(100, 7)), XF_CONTAINS("not a zip archive"));
  // A flipped byte in a stored member's data: its CRC-32 no longer matches.
  auto flipped = stored;
  flipped[200] ^= 0x40;
  CHECK_THROWS_AS(try_read(flipped), xf::error);
  // Every truncation, and a flipped byte anywhere: an error or the right values, nothing else.
  for (const auto* source : {&good, &stored}) {
    for (std::size_t n = 0; n < source->size(); n += 7) {
      const std::vector<unsigned char> cut(source->begin(), source->begin() + static_cast<long>(n));
      CHECK_THROWS_AS(try_read(cut), xf::error);
    }
    for (std::size_t k = 0; k < source->size(); ++k) {
      auto bad = *source;
      bad[k] ^= 0xff;
      try {
        try_read(bad);
      } catch (const xf::error&) {
      }
    }
  }
  const temp_path missing(".npz");
  CHECK_THROWS_WITH(xf::load_npz(missing.str()), XF_CONTAINS("cannot open"));
}

TEST_CASE("savez writes what Python's zipfile and NumPy read: the layout of its records", "[npz][host]") {
  // One member: local header (30 + name + 20-byte zip64 field), the .npy bytes, the central header
  // (46 + name + 28), the zip64 end record (56), its locator (20) and the end record (22).
  const temp_path p(".npz");
  const auto a = xf::asarray<std::int32_t, xf::host>({1, 2, 3});
  xf::savez(p.str(), xf::named("abc", a));
  const auto bytes = read_bytes(p.str());
  const std::size_t npy = 128 + 12;  // header padded to 128 bytes, then 3 int32
  const std::size_t name = 7;       // "abc.npy"
  CHECK(bytes.size() == 30 + name + 20 + npy + 46 + name + 28 + 56 + 20 + 22);
  CHECK((bytes[0] == 'P' && bytes[1] == 'K' && bytes[2] == 3 && bytes[3] == 4));
  CHECK(std::string(bytes.begin() + 30, bytes.begin() + 37) == "abc.npy");
  CHECK(std::string(bytes.begin() + 57, bytes.begin() + 63) == "\x93NUMPY");
  const std::size_t end = bytes.size() - 22;
  CHECK((bytes[end] == 'P' && bytes[end + 1] == 'K' && bytes[end + 2] == 5 && bytes[end + 3] == 6));
  CHECK(bytes[end + 10] == 1);  // one entry
}

TEST_CASE("the .npz example of the guide", "[npz][host][docs]") {
  const temp_path p(".npz");
  const std::string path = p.str();
  // example-begin npz
  const auto x = xf::asarray<float, xf::host>({1, 2, 3, 4, 5, 6}, {2, 3});
  const auto n = xf::asarray<std::int64_t, xf::host>({7, 8});
  xf::savez(path, x, xf::named("counts", n));          // np.savez(path, x, counts=n): "arr_0.npy", "counts.npy"
  const xf::npz_file f = xf::load_npz(path);           // f = np.load(path)
  const auto names = f.files();                        // f.files: {"arr_0", "counts"}
  const auto c = f.get<std::int64_t, 1, xf::host>("counts");  // f["counts"]; the default space is device
  // example-end
  CHECK(names == std::vector<std::string>{"arr_0", "counts"});
  CHECK(xf::to_host(c) == std::vector<std::int64_t>{7, 8});
}
