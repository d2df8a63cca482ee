// A unique path in the temporary directory, removed when it goes out of scope (the file tests).
#pragma once

#include <filesystem>
#include <random>
#include <string>
#include <system_error>

namespace xf_test {

class temp_path {
 public:
  explicit temp_path(const std::string& extension = ".npy") {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("xfuse_file_" + std::to_string(std::random_device{}()) + "_" + std::to_string(counter++) + extension);
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

}  // namespace xf_test
