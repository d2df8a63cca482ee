#!/usr/bin/env bash
# Builds for sm_90 and runs the GPU suite (tests, optionally compute-sanitizer and benchmarks).
#
#   scripts/gpu_suite.sh build [SUITES]      # here (no GPU needed): configure and build build-gpu/
#                                            # SUITES: benchmark suites to build (default all:
#                                            # elementwise,reduce,rows,linalg,signal,fft; examples only with all)
#   scripts/gpu_suite.sh run [options]       # on the GPU machine, over the carried build-gpu/
#       --sanitize     also run the GPU tests under compute-sanitizer memcheck and racecheck
#       --bench        also run the benchmarks (and CuPy's version of them when CuPy is there)
#       --examples     also run every example program (examples/), output in examples.txt
#       --only LIST    with --bench: only these suites (comma-separated: elementwise,reduce,rows,linalg,signal,fft),
#                      each optionally with a Google Benchmark filter: elementwise:^random,linalg
#       --out DIR      where logs and JSON go (default: $OUT, else ./out)
#   XF_TORCH_ONLY='compose/|rows/' limits the PyTorch cases to keys with these prefixes
#
# On a GPU machine (see CONTRIBUTING.md): build here, copy the tree with build-gpu/stage to that
# machine, and run "scripts/gpu_suite.sh run --sanitize --bench" there.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build-gpu"
stage="$build/stage"
mode="${1:-}"; shift || true

if [[ "$mode" == build ]]; then
  # 90-real: SASS only, no PTX (half the binary size; the staged build must stay under 64 MiB).
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90-real \
        -DXFUSE_BUILD_BENCHMARKS=ON -DXFUSE_BUILD_TESTS=ON -DXFUSE_BUILD_EXAMPLES=ON
  suites="${1:-elementwise,reduce,rows,linalg,signal,fft}"
  benches=$(echo "${suites//,/ }" | tr ' ' '\n' | sed 's/^/xfuse_bench_/')
  examples=""
  [[ -z "${1:-}" ]] && examples=$(cd "$here/examples" && ls *.cu | sed 's/\.cu$//' | grep -v -x -e demo -e one_expression | sed 's/^/xfuse_example_/')
  cmake --build "$build" -j "$(nproc)" --target xfuse_gpu_tests xfuse_multigpu_tests xfuse_host_tests \
        $benches xfuse_demo $examples
  # Stage what the GPU machine needs (binaries, and the benchmark library, a shared object here):
  # copy build-gpu/stage, kept well under 64 MiB so that it is quick to move.
  rm -rf "$stage" && mkdir -p "$stage/bin" "$stage/lib"
  cp "$build"/tests/xfuse_{gpu,multigpu,host}_tests "$build/examples/xfuse_demo" "$stage/bin/"
  for b in $benches; do cp "$build/bench/$b" "$stage/bin/"; done
  for e in $examples; do cp "$build/examples/$e" "$stage/bin/"; done
  lib=$(ldd "$build/bench/$(echo "$benches" | head -n 1)" | awk '/libbenchmark/ {print $3}')
  [[ -n "$lib" ]] && cp -L "$lib" "$stage/lib/"
  git -C "$here" rev-parse --short HEAD > "$stage/COMMIT"
  git -C "$here" diff --quiet HEAD || echo "(with uncommitted changes)" >> "$stage/COMMIT"
  # Stripped and packed: the GPU test binary alone passed 40 MB; the stage is kept under 64 MiB.
  strip "$stage"/bin/*
  tar -C "$stage" -cJf "$stage/stage.tar.xz" bin lib && rm -rf "$stage/bin" "$stage/lib"
  du -sh "$stage"
  exit 0
fi

[[ "$mode" == run ]] || { sed -n '2,12p' "$0"; exit 2; }
sanitize=0; bench=0; run_examples=0; only="elementwise,reduce,rows,linalg,signal,fft"; out="${OUT:-$here/out}"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --sanitize) sanitize=1 ;;
    --bench) bench=1 ;;
    --out) out="$2"; shift ;;
    --only) only="$2"; shift ;;
    --examples) run_examples=1 ;;
    *) echo "unknown option $1"; exit 2 ;;
  esac
  shift
done
mkdir -p "$out"
[[ -d "$stage/bin" ]] || tar -C "$stage" -xJf "$stage/stage.tar.xz"
export LD_LIBRARY_PATH="$stage/lib:${LD_LIBRARY_PATH:-}"
bin="$stage/bin"
commit=$(tr '\n' ' ' < "$stage/COMMIT" 2>/dev/null || echo unknown)
status=0
{
  echo "commit: $commit"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
} | tee "$out/environment.txt"

# Few output files (at most 8 are collected from the remote GPU runner): tests.txt gathers every suite.
echo "== GPU tests"
"$bin/xfuse_gpu_tests" -r compact 2>&1 | tail -n 60 | tee "$out/tests.txt" || status=1
echo "== an unreadable XFUSE_GPU_MEMORY_LIMIT (its own process: the setting is read once)" | tee -a "$out/tests.txt"
XFUSE_GPU_MEMORY_LIMIT=lots "$bin/xfuse_gpu_tests" -r compact "[memory_setting]" 2>&1 | tail -n 3 | tee -a "$out/tests.txt" || status=1
echo "== multi-GPU tests" | tee -a "$out/tests.txt"
mrc=0
"$bin/xfuse_multigpu_tests" > "$out/multigpu.log" 2>&1 || mrc=$?
tail -n 40 "$out/multigpu.log" | tee -a "$out/tests.txt"
rm -f "$out/multigpu.log"
[[ $mrc == 0 || $mrc == 77 ]] || status=1  # 77: fewer than two GPUs, skipped
echo "== host tests" | tee -a "$out/tests.txt"
if ldd "$bin/xfuse_host_tests" | grep -q "not found"; then
  # Host linear algebra links OpenBLAS, which GPU machines may lack; CI runs these tests.
  echo "host tests not run here: $(ldd "$bin/xfuse_host_tests" | grep "not found" | tr -s ' \t' ' ')" | tee -a "$out/tests.txt"
else
  "$bin/xfuse_host_tests" 2>&1 | tail -n 3 | tee -a "$out/tests.txt" || status=1
fi

if [[ $bench == 1 ]]; then
  echo "== benchmarks ($only)"
  for entry in ${only//,/ }; do
    suite="${entry%%:*}"; filter="."; [[ "$entry" == *:* ]] && filter="${entry#*:}"
    "$bin/xfuse_bench_$suite" --benchmark_out="$out/bench_$suite.json" --benchmark_out_format=json \
      --benchmark_counters_tabular=true --benchmark_filter="$filter" 2>&1 | grep -v "^\*\*\*" || status=1
  done
  if python3 -c "import cupy" 2>/dev/null; then
    echo "== CuPy, same cases"
    for entry in ${only//,/ }; do
      suite="${entry%%:*}"
      python3 "$here/bench/cupy_$suite.py" "$out/cupy_$suite.json" 2>&1 || true
    done
  fi
  if python3 -c "import torch" 2>/dev/null; then
    for suite in elementwise rows linalg; do
      [[ ",$only," == *",$suite"* ]] || continue
      echo "== PyTorch eager and torch.compile, same cases ($suite)"
      python3 "$here/bench/torch_$suite.py" "$out/torch_$suite.json" ${XF_TORCH_ONLY:+"$XF_TORCH_ONLY"} 2>&1 | grep -v Warning || true
    done
  fi
  python3 "$here/bench/report.py" "$out" 2>&1 || true  # report.md, and report.png where matplotlib is
fi
if [[ $run_examples == 1 ]]; then
  echo "== examples (output in examples.txt)"
  for e in "$bin"/xfuse_example_*; do
    echo "=== $(basename "$e")" >> "$out/examples.txt"
    "$e" >> "$out/examples.txt" 2>&1 || { echo "$(basename "$e") failed" | tee -a "$out/examples.txt"; status=1; }
  done
  grep -c "^===" "$out/examples.txt"
fi
echo "== demo"
"$bin/xfuse_demo" 2>&1 || status=1  # (in log.txt: the remote GPU runner collects at most 8 files)
if [[ $sanitize == 1 ]]; then
  echo "== compute-sanitizer memcheck (all GPU tests but the 2^31-element one)"
  # The [oom] cases exhaust device memory and the [api_error] case makes a CUDA call fail, on
  # purpose: memcheck would count those API errors, so they run on their own with API-error reports off.
  compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/xfuse_gpu_tests" "~[large]~[oom]~[memory_setting]~[api_error]" > "$out/sanitizer.txt" 2>&1 || status=1
  compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 "$bin/xfuse_gpu_tests" "[oom],[api_error]" >> "$out/sanitizer.txt" 2>&1 || status=1
  grep -E "ERROR SUMMARY|Program hit|Invalid|passed|failed" "$out/sanitizer.txt" | sort | uniq -c | head -20
  echo "== compute-sanitizer racecheck (views, fusion, streams, assignment, reductions, small solves, the Cholesky copy, manipulation, interop, bad input, NumPy's answers)"
  compute-sanitizer --tool racecheck --error-exitcode 9 "$bin/xfuse_gpu_tests" "[views],[fusion],[stream],[assign],[reduce],[small_lu],[cholesky],[manip],[interop],[errors],[numpy]" 2>&1 \
    | tail -n 8 | tee -a "$out/sanitizer.txt" || status=1
fi

exit $status
