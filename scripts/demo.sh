#!/usr/bin/env bash
# Builds and runs the demo: fused against unfused element-wise expressions, on the GPU, or on the
# host (saying so) when there is none.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
source "$here/scripts/deps.sh" demo
cmake -S "$here" -B "$here/build-demo" -G Ninja -DCMAKE_BUILD_TYPE=Release -DXFUSE_BUILD_TESTS=OFF -DXFUSE_BUILD_EXAMPLES=ON >/dev/null
cmake --build "$here/build-demo" --target xfuse_demo
"$here/build-demo/examples/xfuse_demo"
