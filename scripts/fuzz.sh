#!/usr/bin/env bash
# Fuzzes the .npy and .npz readers and DLPack import with libFuzzer under AddressSanitizer and
# UndefinedBehaviorSanitizer (clang): builds tests/fuzz/fuzz_*.cpp into build-fuzz/ and runs each
# target for FUZZ_SECONDS (default 60) from the seeds in tests/fuzz/corpus/. Exits non-zero on any
# crash, leak, timeout, out-of-memory or sanitizer report; the input that did it is kept in
# build-fuzz/artifacts/ (reproduce: build-fuzz/fuzz_npy build-fuzz/artifacts/npy-crash-...).
#   scripts/fuzz.sh [npy] [dlpack] [npz]   build and run these targets (default: all three)
#   scripts/fuzz.sh build             build only
#   scripts/fuzz.sh seeds             rewrite the .npy and .npz seeds (xfuse's writer, by hand, NumPy if importable)
#   scripts/fuzz.sh clang             print the clang++ that has the sanitizer and fuzzer runtimes
# Targets run side by side, one per core (FUZZ_JOBS, default nproc).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build-fuzz"
seconds="${FUZZ_SECONDS:-60}"
jobs="${FUZZ_JOBS:-$(nproc)}"

apt_install() {
  local sudo_cmd=""
  [[ $(id -u) -ne 0 ]] && sudo_cmd="sudo"
  echo "installing: $*" >&2
  $sudo_cmd apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "$@" >/dev/null
}

# clang++ (CXX_FUZZ, else clang++, else the newest clang++-N) and its runtimes: Debian 12's clang
# is clang-14, Ubuntu 24.04's clang-18; their sanitizer and libFuzzer runtimes are in
# libclang-rt-N-dev.
find_clang() {
  local cxx="${CXX_FUZZ:-}"
  [[ -z "$cxx" ]] && cxx="$(command -v clang++ || true)"
  [[ -z "$cxx" ]] && cxx="$(compgen -c clang++- | grep -E '^clang\+\+-[0-9]+$' | sort -t- -k2 -n | tail -1 || true)"
  if [[ -z "$cxx" ]]; then
    apt_install clang
    cxx="$(command -v clang++)"
  fi
  local probe
  probe="$(mktemp -d)"
  echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$probe/p.cpp"
  if ! "$cxx" -fsanitize=fuzzer,address,undefined "$probe/p.cpp" -o "$probe/p" 2>/dev/null; then
    local major
    major="$("$cxx" -dumpversion | cut -d. -f1)"
    apt_install "libclang-rt-$major-dev" || apt_install "libclang-common-$major-dev"
    "$cxx" -fsanitize=fuzzer,address,undefined "$probe/p.cpp" -o "$probe/p" ||
      { echo "$cxx cannot link -fsanitize=fuzzer,address,undefined" >&2; rm -rf "$probe"; exit 1; }
  fi
  rm -rf "$probe"
  echo "$cxx"
}

# The CUDA toolkit's include and library directories, as nvcc reports them (the headers refer to
# the runtime; host arrays never call the GPU).
cuda_flags() {
  command -v nvcc >/dev/null || export PATH="/usr/local/cuda/bin:$PATH"
  command -v nvcc >/dev/null || { echo "nvcc (the CUDA toolkit) is required" >&2; exit 1; }
  local dry inc lib
  dry="$(nvcc --dryrun -c -x cu /dev/null -o /dev/null 2>&1)"
  inc="$(sed -n 's/^#\$ INCLUDES="-I\([^"]*\)".*/\1/p' <<<"$dry" | head -1)"
  lib="$(grep '^#\$ LIBRARIES=' <<<"$dry" | grep -o '"-L[^"]*"' | tr -d '"' | sed 's/^-L//' | grep -v stubs | head -1)"
  local root
  root="$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")"
  [[ -f "$inc/cuda_runtime_api.h" ]] || inc="$root/include"
  [[ -n "$lib" ]] || lib="$root/lib64"
  echo "-isystem $inc -isystem $inc/cccl -L$lib -Wl,-rpath,$lib -lcudart"
}

build_target() {  # name: build-fuzz/fuzz_<name>, unless it is newer than every source it reads
  local t="$1" out="$build/fuzz_$1"
  if [[ -x "$out" && -z "$(find "$here/include" "$here/tests/fuzz" -newer "$out" -type f -not -path '*/corpus/*' -print -quit)" ]]; then
    return 0
  fi
  echo "building $out"
  # shellcheck disable=SC2086
  local extra=()
  [[ "$t" == npz ]] && extra=(-lz)  # deflated members
  "$cxx" -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
         -I"$here/include" "$here/tests/fuzz/fuzz_$t.cpp" -o "$out" $cuda "${extra[@]}"
}

build_all() {
  mkdir -p "$build"
  local pids=() t
  for t in "${targets[@]}"; do
    if ((jobs > 1)); then build_target "$t" & pids+=($!); else build_target "$t"; fi
  done
  for p in "${pids[@]}"; do wait "$p"; done
}

run_target() {  # name: fuzz from the committed seeds plus what earlier runs here found
  local t="$1" dict=()
  [[ -f "$here/tests/fuzz/$t.dict" ]] && dict=(-dict="$here/tests/fuzz/$t.dict")
  mkdir -p "$build/corpus/$t" "$build/artifacts"
  UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}" \
    "$build/fuzz_$t" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2560 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$t-" "${dict[@]}" "$build/corpus/$t" "$here/tests/fuzz/corpus/$t" \
    >"$build/$t.log" 2>&1
}

report() {  # name status
  local t="$1" status="$2" runs rate
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/$t.log" | tail -1)"
  rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$build/$t.log" | tail -1)"
  if [[ "$status" == 0 ]]; then
    echo "fuzz_$t: ${runs:-?} inputs in ${seconds} s (${rate:-?}/s), no findings"
  else
    echo "fuzz_$t: FAILED (exit $status); the end of build-fuzz/$t.log:"
    grep -v -E '^(#[0-9]|\s+NEW_FUNC|")' "$build/$t.log" | tail -60
  fi
}

case "${1:-}" in
  clang) find_clang; exit 0 ;;
  seeds)
    cxx="$(find_clang)"
    cuda="$(cuda_flags)"
    mkdir -p "$build" "$here/tests/fuzz/corpus/npy"
    # shellcheck disable=SC2086
    "$cxx" -std=c++20 -O1 -I"$here/include" "$here/tests/fuzz/make_seeds.cpp" -o "$build/make_seeds" $cuda
    "$build/make_seeds" "$here/tests/fuzz/corpus/npy"
    if python3 -c 'import numpy' 2>/dev/null; then
      mkdir -p "$here/tests/fuzz/corpus/npz"
      python3 "$here/tests/fuzz/numpy_seeds.py" "$here/tests/fuzz/corpus/npy" "$here/tests/fuzz/corpus/npz"
    else echo "numpy is not importable: the numpy_* seeds are left as they are"; fi
    exit 0 ;;
esac

targets=()
only_build=0
for a in "$@"; do
  case "$a" in
    build) only_build=1 ;;
    npy | dlpack | npz) targets+=("$a") ;;
    *) echo "unknown argument '$a' (npy, dlpack, npz, build, seeds, clang)" >&2; exit 2 ;;
  esac
done
((${#targets[@]})) || targets=(npy dlpack npz)

cxx="$(find_clang)"
cuda="$(cuda_flags)"
start=$SECONDS
build_all
echo "built in $((SECONDS - start)) s"
((only_build)) && exit 0

failed=0
declare -A status
if ((jobs > 1)); then
  declare -A pid
  for t in "${targets[@]}"; do run_target "$t" & pid[$t]=$!; done
  for t in "${targets[@]}"; do
    if wait "${pid[$t]}"; then status[$t]=0; else status[$t]=$?; fi
  done
else
  for t in "${targets[@]}"; do
    if run_target "$t"; then status[$t]=0; else status[$t]=$?; fi
  done
fi
for t in "${targets[@]}"; do
  report "$t" "${status[$t]}"
  [[ "${status[$t]}" == 0 ]] || failed=1
done
exit "$failed"
