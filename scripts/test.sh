#!/usr/bin/env bash
# Builds and runs the tests: host tests everywhere; GPU tests run on a GPU and are reported as
# skipped (never passed) without one; the installed-package consumer test.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
source "$here/scripts/deps.sh" test
# Without a GPU the device code cannot run here: it is still compiled (PTX for compute_90, every
# kernel through nvcc's front end and NVVM) but not assembled for a GPU, which saves ptxas's share
# of the build (~20%). With a GPU: sm_90 code, or CUDA_ARCHS (e.g. CUDA_ARCHS=native).
archs="${CUDA_ARCHS:-}"
if [[ -z "$archs" ]]; then
  if nvidia-smi -L >/dev/null 2>&1; then archs=90; else archs=90-virtual; echo "no GPU found: device code is compiled to PTX only, GPU tests will be skipped"; fi
fi
cmake -S "$here" -B "$here/build-test" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$archs" \
      -DXFUSE_BUILD_TESTS=ON -DXFUSE_BUILD_EXAMPLES=ON >/dev/null
cmake --build "$here/build-test" -j "$(nproc)"
cd "$here/build-test" && ctest --output-on-failure -j "$(nproc)"
