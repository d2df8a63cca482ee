#!/usr/bin/env bash
# Compile time of a program with one fused expression (nvcc -O3, sm_90), with <xfuse/core.hpp>
# and with <xfuse/xfuse.hpp>, the kernels it instantiates, and the test suites' build. Prints a
# report; with --out FILE also writes it there.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out=""
[[ "${1:-}" == --out ]] && out="$2"
command -v nvcc >/dev/null || export PATH="/usr/local/cuda/bin:$PATH"
tmp=$(mktemp -d)
flags=(-std=c++20 -O3 -arch=sm_90 --extended-lambda -I"$here/include")
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_build() {  # source file [link flags] -> median seconds of three builds
  for _ in 1 2 3; do
    /usr/bin/time -f "%e" nvcc "${flags[@]}" "$1" -o "$tmp/a.out" "${@:2}" 2>&1 >/dev/null | tail -1
  done | median
}
sed 's#<xfuse/core.hpp>#<xfuse/xfuse.hpp>#' "$here/examples/one_expression.cu" > "$tmp/one_xfuse.cu"
printf '#include <xfuse/reduce.hpp>\nint main() {\n  if (xf::device::count() == 0) return 0;\n  const xf::array<float, 1> x = xf::arange<float>(1 << 20), y = xf::arange<float>(1 << 20);\n  return xf::sum(x * y).item() > 0 ? 0 : 1;\n}\n' > "$tmp/one_reduce.cu"
printf '#include <xfuse/reduce.hpp>\nint main() {\n  if (xf::device::count() == 0) return 0;\n  const xf::array<float, 1> x = xf::arange<float>(1 << 20);\n  auto [s, q, m] = xf::eval(xf::lazy::sum(x), xf::lazy::sum(x * x), xf::lazy::max(x));\n  return s.item() + q.item() + m.item() > 0 ? 0 : 1;\n}\n' > "$tmp/three_reduce.cu"
printf '#include <xfuse/core.hpp>\nint main() {\n  if (xf::device::count() == 0) return 0;\n  const xf::array<float, 1> x = xf::arange<float>(1 << 20), y = xf::arange<float>(1 << 20), z1({1 << 20}), z2({1 << 20});\n  xf::assign(xf::into(z1) = x + y, xf::into(z2) = x * y);\n  return 0;\n}\n' > "$tmp/two_assign.cu"
printf '#include <xfuse/reduce.hpp>\nint main() {\n  if (xf::device::count() == 0) return 0;\n  const xf::array<float, 2> x = xf::ones<float>({256, 64});\n  xf::array<float, 2> y = x / xf::lazy::sum(x, 1, xf::keepdims);\n  return y.size() > 0 ? 0 : 1;\n}\n' > "$tmp/row_statistics.cu"
printf '#include <xfuse/scan.hpp>\nint main() {\n  if (xf::device::count() == 0) return 0;\n  const xf::array<float, 1> x = xf::arange<float>(1 << 20);\n  return xf::cumsum(x * 2).size() > 0 ? 0 : 1;\n}\n' > "$tmp/one_scan.cu"
printf '#include <xfuse/scan.hpp>\nint main() {\n  if (xf::device::count() == 0) return 0;\n  const xf::array<float, 1> x = xf::arange<float>(1 << 20);\n  xf::array<float, 1> y = x - xf::lazy::cumsum(x) / 1e6f;\n  return y.size() > 0 ? 0 : 1;\n}\n' > "$tmp/scan_consumer.cu"
printf '#include <xfuse/sort.hpp>\nint main() {\n  if (xf::device::count() == 0) return 0;\n  const xf::array<float, 1> x = xf::arange<float>(1 << 20);\n  return xf::sort(x).size() > 0 ? 0 : 1;\n}\n' > "$tmp/one_sort.cu"
printf '#include <xfuse/softmax.hpp>\nint main() {\n  if (xf::device::count() == 0) return 0;\n  const xf::array<float, 2> x = xf::ones<float>({64, 64});\n  return xf::softmax(x * 2, 1).size() > 0 ? 0 : 1;\n}\n' > "$tmp/one_softmax.cu"
printf '#include <xfuse/linalg.hpp>\nint main() {\n  if (xf::device::count() == 0) return 0;\n  const xf::array<float, 2> a = xf::ones<float>({64, 64});\n  return xf::matmul(a, a.T()).size() > 0 ? 0 : 1;\n}\n' > "$tmp/one_matmul.cu"
printf '#include <cuda_runtime.h>\n__global__ void k(float* o, const float* x, const float* y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = (x[i] - y[i]) * (x[i] - y[i]) + 1; }\nint main() { k<<<1, 1>>>(nullptr, nullptr, nullptr, 0); }\n' > "$tmp/raw.cu"
kernels=$(nvcc "${flags[@]}" -c "$here/examples/one_expression.cu" -o "$tmp/k.o" -Xptxas -v 2>&1 | grep -c "Compiling entry function")
{
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
  echo "nvcc: $(nvcc --version | tail -1)"
  echo "commit: $(git -C "$here" rev-parse --short HEAD)"
  echo "raw CUDA kernel, no xfuse:             $(time_build "$tmp/raw.cu") s"
  echo "one fused expression, <xfuse/core.hpp>:  $(time_build "$here/examples/one_expression.cu") s"
  echo "one fused expression, <xfuse/xfuse.hpp>: $(time_build "$tmp/one_xfuse.cu") s"
  echo "one fused full reduction, <xfuse/reduce.hpp>: $(time_build "$tmp/one_reduce.cu") s"
  echo "three reductions in one pass (xf::eval), <xfuse/reduce.hpp>: $(time_build "$tmp/three_reduce.cu") s"
  echo "two assignments in one kernel (xf::assign), <xfuse/core.hpp>: $(time_build "$tmp/two_assign.cu") s"
  echo "x / lazy::sum(x, 1, keepdims), one kernel, <xfuse/reduce.hpp>: $(time_build "$tmp/row_statistics.cu") s"
  echo "one cumsum of an expression, <xfuse/scan.hpp>: $(time_build "$tmp/one_scan.cu") s"
  echo "x - lazy::cumsum(x) / n, in the scan's kernel, <xfuse/scan.hpp>: $(time_build "$tmp/scan_consumer.cu") s"
  echo "one sort of a float array, <xfuse/sort.hpp>: $(time_build "$tmp/one_sort.cu") s"
  echo "one softmax of an expression, <xfuse/softmax.hpp>: $(time_build "$tmp/one_softmax.cu") s"
  echo "one matmul, <xfuse/linalg.hpp> (+ link cuBLAS, OpenBLAS): $(time_build "$tmp/one_matmul.cu" -lcublas -lcublasLt -lopenblas) s"
  echo "kernels instantiated by the program:     $kernels (one per expression materialised)"
} | tee ${out:+"$out"}
rm -rf "$tmp"
