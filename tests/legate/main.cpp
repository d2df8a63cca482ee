// Runner of the distributed-array tests: Legate starts before the cases and finishes after them.
// The configuration comes from LEGATE_CONFIG (CTest runs the suite on one GPU, and on four CPUs
// with no GPU). Every array is split into three pieces a processor, however small, so that one GPU
// runs several pieces too: tile edges, halos, folds and generator offsets are exercised on both.
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
  if (listing) return xf_run_catch(argc, argv) < 0 ? 1 : 0;  // Catch2 v2 returns the number of tests listed
  std::printf("xfuse distributed tests: random seed %llu (set XFUSE_TEST_SEED to repeat)\n",
              static_cast<unsigned long long>(xf_test::seed()));
  legate::start();
  int failed = 0;
  {
    const legate::Scope pieces{legate::ParallelPolicy{}
                                   .with_overdecompose_factor(3)
                                   .with_partitioning_threshold(legate::mapping::TaskTarget::GPU, 0)
                                   .with_partitioning_threshold(legate::mapping::TaskTarget::CPU, 0)};
    failed = xf_run_catch(argc, argv);
  }
  const int finished = legate::finish();
  return failed != 0 ? failed : finished;
}
