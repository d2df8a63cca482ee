#!/usr/bin/env bash
# Builds the host test suite (xfuse_host_tests: tests/host/*.cpp, the sources scripts/test.sh runs)
# with clang++ under AddressSanitizer, LeakSanitizer and UndefinedBehaviorSanitizer (-O0 -gline-tables-only,
# -fno-sanitize-recover=all) into build-asan/, and runs it. Exits non-zero on a failed test or any
# sanitizer report. Arguments go to the test binary (Catch2 test names or tags, e.g. "[npy]").
# nvcc stays the CUDA compiler of the configuration; no CUDA target is built.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build-asan"
source "$here/scripts/deps.sh" test
cxx="$("$here/scripts/fuzz.sh" clang)"

# Catch2 v3 where the system's is v2 (Debian 12): CI then compiles the tests with both versions
# (scripts/test.sh with the system's, this build with v3's amalgamated sources).
catch_args=()
if [[ ! -e /usr/include/catch2/catch_test_macros.hpp ]]; then
  catch_args=(-DXFUSE_CATCH2_AMALGAMATED="$("$here/scripts/catch2_v3.sh" "$build/catch2-v3")")
  echo "Catch2 v3 (amalgamated) in ${catch_args[0]#*=}"
fi

# -O0 with line tables: a quarter of -O1 -g's build time (test_statistics_host.cpp 74 s -> 21 s),
# every access still instrumented, stack traces still name file and line.
flags="-O0 -gline-tables-only -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
start=$SECONDS
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER="$cxx" \
      -DCMAKE_CXX_FLAGS_DEBUG="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
      -DCMAKE_CUDA_ARCHITECTURES=90-virtual -DXFUSE_BUILD_TESTS=ON -DXFUSE_BUILD_EXAMPLES=OFF "${catch_args[@]}" >/dev/null
cmake --build "$build" --target xfuse_host_tests -j "$(nproc)"
echo "built in $((SECONDS - start)) s"

# One process a core, each running its share of the tests (Catch2's shards): a report anywhere
# stops that process with a non-zero status. Allocations too large to make return null as they do
# without ASan, so that out-of-memory paths run as tested.
start=$SECONDS
export ASAN_OPTIONS="${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
shards="$(nproc)"
pids=()
for ((i = 0; i < shards; ++i)); do
  "$build/tests/xfuse_host_tests" --shard-count "$shards" --shard-index "$i" "$@" > "$build/shard-$i.log" 2>&1 &
  pids+=($!)
done
status=0
for ((i = 0; i < shards; ++i)); do
  shard_status=0
  wait "${pids[$i]}" || shard_status=$?
  ((shard_status == 0)) || status=$shard_status
  echo "== shard $i of $shards (exit $shard_status)"
  tail -n "$([[ $shard_status == 0 ]] && echo 3 || echo 200)" "$build/shard-$i.log"
done
echo "ran in $((SECONDS - start)) s (exit $status)"
exit "$status"
