// .npy files and device arrays: save from device arrays (contiguous, and a transposed view written
// in C order), load into device arrays, compared with the same files read on the host.
#include <filesystem>
#include <random>
#include <string>

#include <xfuse/npz.hpp>
#include <xfuse/xfuse.hpp>

#include "../common/check.hpp"
#include "../common/random.hpp"

using namespace xf_test;

namespace {
std::string temp_file(const char* tag) {
  return (std::filesystem::temp_directory_path() / ("xfuse_npy_gpu_" + std::string(tag) + "_" + std::to_string(std::random_device{}()) + ".npy"))
      .string();
}

template <class T>
void npy_device_round_trip() {
  const auto v = uniform<T>(6 * 35, -100, 100);
  const auto d = xf::asarray<T>(v, {6, 35});
  const std::string path = temp_file(xf::dtype_name<T>), path_t = temp_file("t");
  xf::save_npy(path, d);
  xf::save_npy(path_t, d.T());  // a view: written in C order of its shape (35, 6)
  const auto back = xf::load_npy<T, 2>(path);  // device by default
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(back)>, xf::array<T, 2, xf::device>>);
  REQUIRE(back.shape() == xf::dims<2>{6, 35});
  REQUIRE(xf::to_host(back) == v);
  const auto back_t = xf::load_npy<T, 2, xf::host>(path_t);
  REQUIRE(back_t.shape() == xf::dims<2>{35, 6});
  for (int i = 0; i < 35; ++i)
    for (int j = 0; j < 6; ++j) REQUIRE(back_t.at(i, j) == v[static_cast<std::size_t>(j * 35 + i)]);
  REQUIRE_THROWS_AS((xf::load_npy<T, 3>(path)), xf::shape_error);
  std::filesystem::remove(path);
  std::filesystem::remove(path_t);
}
}  // namespace

TEST_CASE(".npy save and load with device arrays", "[gpu][npy]") {
  npy_device_round_trip<float>();
  npy_device_round_trip<double>();
  npy_device_round_trip<std::int16_t>();
  npy_device_round_trip<xf::complex64>();
  npy_device_round_trip<xf::half>();
}

TEST_CASE(".npz archives of device arrays: savez copies them to the host, get loads them onto the device", "[npy][npz][gpu]") {
  const auto v = uniform<float>(6 * 35, -100, 100);
  const auto d = xf::asarray<float>(v, {6, 35});
  const auto i = xf::asarray<std::int32_t>(std::vector<std::int32_t>{4, -5, 6});
  const std::string path = temp_file("npz");
  xf::savez(path, d, xf::named("t", d.T()), xf::named("ints", i));
  const auto npz = xf::load_npz(path);
  REQUIRE(npz.files() == std::vector<std::string>{"arr_0", "t", "ints"});
  const auto back = npz.get<float, 2>("arr_0");  // device by default
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(back)>, xf::array<float, 2, xf::device>>);
  REQUIRE(xf::to_host(back) == v);
  REQUIRE(xf::to_host(npz.get<float, 2>("t")) == xf::to_host(d.T()));
  REQUIRE(xf::to_host(npz.get<std::int32_t, 1>("ints")) == std::vector<std::int32_t>{4, -5, 6});
  std::filesystem::remove(path);
}
