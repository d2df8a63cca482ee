#!/usr/bin/env bash
# Builds and runs the tests: host tests everywhere; GPU tests run on a GPU and are reported as
# skipped (never passed) without one; the installed-package consumer test.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
source "$here/scripts/deps.sh" test
# Without a GPU the device code cannot run here. The GPU test suites are then not built (each
# source is one CTest reported as skipped; their cases build for host arrays in the host suite),
# which saves two thirds of the build. The examples and the distributed suite are still compiled,
# to PTX for compute_90 (not assembled for a GPU) with neither NVVM's optimiser (-Xcicc -O0) nor
# the host compiler's (-O0): every template they use is instantiated and compiled to device code,
# and nothing runs it. With a GPU: sm_90 code, or CUDA_ARCHS (e.g. CUDA_ARCHS=native), and the GPU
# suites built and run.
# The flags are always given, so a build directory configured without a GPU and reused with one
# (or with CUDA_ARCHS) gets optimised code and the GPU suites again.
archs="${CUDA_ARCHS:-}"
cuda_flags=(-DCMAKE_CUDA_FLAGS= -DCMAKE_CUDA_FLAGS_RELEASE="-O3 -DNDEBUG" -DXFUSE_BUILD_GPU_SUITES=ON)
if [[ -z "$archs" ]]; then
  if nvidia-smi -L >/dev/null 2>&1; then archs=90; else
    archs=90-virtual
    cuda_flags=(-DCMAKE_CUDA_FLAGS="-Xcicc -O0" -DCMAKE_CUDA_FLAGS_RELEASE="-O0 -DNDEBUG" -DXFUSE_BUILD_GPU_SUITES=OFF)
    echo "no GPU found: the GPU test suites are not built (reported as skipped); examples compile to PTX only"
  fi
fi
# Distributed arrays: Legate's C++ SDK is the `legate` pip package, installed without its Python
# dependencies into a virtual environment of the build; NCCL, which it links, comes from the CUDA
# toolkit or the system, or else from the nvidia-nccl-cu13 package. Where they cannot be installed
# (no network), the suite is left out, saying so; XFUSE_WITH_LEGATE=0 leaves it out quietly.
legate_args=()
if [[ "${XFUSE_WITH_LEGATE:-1}" != 0 ]]; then
  venv="$here/build-test/legate-venv"
  py="$venv/bin/python"
  nccl_found() {
    [[ -e "$(dirname "$(command -v nvcc)")/../lib64/libnccl.so.2" ]] ||
      [[ "$( (ldconfig -p || /sbin/ldconfig -p) 2>/dev/null | grep -c 'libnccl\.so\.2')" != 0 ]] ||
      "$py" -c "import nvidia.nccl" 2>/dev/null
  }
  if { [[ -x "$py" ]] || python3 -m venv "$venv"; } &&
     { "$py" -c "import legate" 2>/dev/null || "$py" -m pip install -q --no-deps "legate==26.6.1"; } &&
     { nccl_found || "$py" -m pip install -q --no-deps "nvidia-nccl-cu13>=2.28,<2.30"; }; then
    legate_args=(-DXFUSE_WITH_LEGATE=ON -DXFUSE_LEGATE_PYTHON="$py")
  else
    echo "the legate package (or NCCL) could not be installed: the distributed-array suite is not built"
  fi
fi
# cuFFTDx (transforms in xfuse's own kernels): the nvidia-mathdx pip package (headers only, NVIDIA's
# SDK licence), installed into a virtual environment of the build; without it (no network), or with
# XFUSE_WITH_MATHDX=0, the transforms run on cuFFT and the line-kernel tests report skipped.
mathdx_args=(-DXFUSE_WITH_MATHDX=OFF)
if [[ "${XFUSE_WITH_MATHDX:-1}" != 0 ]]; then
  mvenv="$here/build-test/mathdx-venv"
  mpy="$mvenv/bin/python"
  if { [[ -x "$mpy" ]] || python3 -m venv "$mvenv"; } &&
     { "$mpy" -c "import nvidia.mathdx" 2>/dev/null || "$mpy" -m pip install -q --no-deps "nvidia-mathdx==25.6.0"; }; then
    mathdx_args=(-DXFUSE_WITH_MATHDX=AUTO -DXFUSE_MATHDX_PYTHON="$mpy")
  else
    echo "the nvidia-mathdx package could not be installed: transforms are tested on cuFFT only"
  fi
fi
cmake -S "$here" -B "$here/build-test" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$archs" \
      -DXFUSE_BUILD_TESTS=ON -DXFUSE_BUILD_EXAMPLES=ON "${cuda_flags[@]}" "${legate_args[@]}" "${mathdx_args[@]}" >/dev/null
cmake --build "$here/build-test" -j "$(nproc)"
cd "$here/build-test" && ctest --output-on-failure -j "$(nproc)"
