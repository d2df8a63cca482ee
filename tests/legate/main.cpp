// Runner of the distributed-array tests: Legate starts before the cases and finishes after them.
// The configuration comes from LEGATE_CONFIG (CTest runs the suite on one GPU, and on four CPUs
// with no GPU, which splits every array into four pieces).
#define CATCH_CONFIG_RUNNER
#include "../common/catch.hpp"

#include <legate.h>

#include <cstdio>
#include <cstring>

#include "../common/random.hpp"

int main(int argc, char** argv) {
  bool listing = false;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--list", 6) == 0 || std::strcmp(argv[i], "-l") == 0) listing = true;
  if (listing) return xf_run_catch(argc, argv);
  std::printf("xfuse distributed tests: random seed %llu (set XFUSE_TEST_SEED to repeat)\n",
              static_cast<unsigned long long>(xf_test::seed()));
  legate::start();
  const int failed = xf_run_catch(argc, argv);
  const int finished = legate::finish();
  return failed != 0 ? failed : finished;
}
