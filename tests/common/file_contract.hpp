// What every xfuse file writer promises (include/xfuse/array/file_write.hpp), as one set of checks
// that each writer (save_npy, savez, savez_compressed) runs through: a new file gets 0666 less the
// umask and an existing one keeps its mode; a symbolic link stays a link (to a file, which gets
// the new data, or to a device such as /dev/null, which is written and stays a device); a FIFO is
// written in place, not replaced; a failed write leaves the old file and no temporary.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "temp_path.hpp"

namespace xf_test::files {

// A fresh directory in the temporary directory, removed with its contents at the end.
class temp_dir {
 public:
  temp_dir() {
    const temp_path name("");
    path_ = name.str() + "_dir";
    std::filesystem::create_directory(path_);
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  // The names in the directory, sorted (a temporary left behind shows here).
  std::vector<std::string> names() const {
    std::vector<std::string> n;
    for (const auto& e : std::filesystem::directory_iterator(path_)) n.push_back(e.path().filename().string());
    std::sort(n.begin(), n.end());
    return n;
  }

 private:
  std::filesystem::path path_;
};

// A signal's handler replaced for a scope (SIGPIPE, SIGXFSZ ignored while a test provokes them).
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

inline std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Reads everything from a FIFO on another thread (the other end of a writer aimed at the FIFO).
class fifo_reader {
 public:
  explicit fifo_reader(std::string path) : thread_([path = std::move(path), this] { bytes_ = file_bytes(path); }) {}
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

inline mode_t mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode;
}

// write(path, k) writes version k (0 or 1) of some content; read(path) tells which version a file
// holds (-1 for anything else); `large(path)` writes over 64 KiB, `suffix` is the file extension.
template <class Write, class Read, class Large>
void check_file_writer(const Write& write, const Read& read, const Large& large, const std::string& suffix) {
  const temp_dir dir;
  const std::string file = dir / ("a" + suffix);

  SECTION("a new file gets 0666 less the umask; an existing file keeps its mode") {
    const mode_t mask = ::umask(022);
    write(file, 0);
    ::umask(mask);
    CHECK((mode_of(file) & 07777) == 0644);
    REQUIRE(::chmod(file.c_str(), 0600) == 0);
    write(file, 1);
    CHECK((mode_of(file) & 07777) == 0600);
    CHECK(read(file) == 1);
    CHECK(dir.names() == std::vector<std::string>{"a" + suffix});
  }
  SECTION("a symbolic link to a file stays a link, and the file gets the new data") {
    write(file, 0);
    const std::string link = dir / ("link" + suffix);
    std::filesystem::create_symlink(file, link);
    write(link, 1);
    CHECK(std::filesystem::is_symlink(link));
    CHECK(read(file) == 1);
    CHECK(dir.names() == std::vector<std::string>{"a" + suffix, "link" + suffix});
  }
  SECTION("a symbolic link to a device stays a link, and the device stays a device") {
    const std::string to_null = dir / ("null" + suffix), to_full = dir / ("full" + suffix);
    std::filesystem::create_symlink("/dev/null", to_null);
    write(to_null, 0);
    CHECK(std::filesystem::is_symlink(to_null));
    CHECK(S_ISCHR(mode_of("/dev/null")));
    // /dev/full refuses every write (ENOSPC): the error names the path and the device stays.
    std::filesystem::create_symlink("/dev/full", to_full);
    CHECK_THROWS_WITH(write(to_full, 0), XF_CONTAINS(to_full) && XF_CONTAINS("writing failed"));
    CHECK(std::filesystem::is_symlink(to_full));
    CHECK(S_ISCHR(mode_of("/dev/full")));
    CHECK(dir.names() == std::vector<std::string>{"full" + suffix, "null" + suffix});
  }
  SECTION("a FIFO is written in place, not replaced") {
    const scoped_signal no_sigpipe(SIGPIPE, SIG_IGN);
    const std::string fifo = dir / ("out" + suffix);
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    fifo_reader r(fifo);
    write(fifo, 1);
    const std::string got = r.finish();
    std::ofstream(file, std::ios::binary) << got;
    CHECK(read(file) == 1);
    struct stat st {};
    REQUIRE(::lstat(fifo.c_str(), &st) == 0);
    CHECK(S_ISFIFO(st.st_mode));
  }
  SECTION("a failed write leaves the old file and no temporary") {
    write(file, 0);
    const std::string before = file_bytes(file);
    const scoped_signal no_sigxfsz(SIGXFSZ, SIG_IGN);
    rlimit old{};
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &old) == 0);
    rlimit lowered = old;
    lowered.rlim_cur = 64 * 1024;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &lowered) == 0);
    std::string what;
    try {
      large(file);
    } catch (const std::exception& e) {
      what = e.what();
    }
    ::setrlimit(RLIMIT_FSIZE, &old);
    INFO(what);
    CHECK((what.find(file) != std::string::npos && what.find("writing failed") != std::string::npos));
    CHECK(file_bytes(file) == before);
    CHECK(dir.names() == std::vector<std::string>{"a" + suffix});
  }
}

}  // namespace xf_test::files
