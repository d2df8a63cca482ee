#!/usr/bin/env bash
# Builds and runs the tests: host tests everywhere; GPU tests run on a GPU and are reported as
# skipped (never passed) without one; the installed-package consumer test.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
source "$here/scripts/deps.sh" test
cmake -S "$here" -B "$here/build-test" -G Ninja -DCMAKE_BUILD_TYPE=Release -DXFUSE_BUILD_TESTS=ON -DXFUSE_BUILD_EXAMPLES=ON >/dev/null
cmake --build "$here/build-test" -j "$(nproc)"
cd "$here/build-test" && ctest --output-on-failure -j "$(nproc)"
