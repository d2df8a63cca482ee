"""bench_signal.cu's cases in CuPy on the same GPU, same run: cupyx.scipy.signal.convolve2d and
cupy.convolve, CUDA-event medians, written as JSON."""
import json
import sys

import cupy as cp
import cupyx.scipy.signal as signal

from cupy_elementwise import median_ms


def main(out_path):
    results = {}
    side, k = 2048, 15
    for dt, name in ((cp.float64, "f64"), (cp.float32, "f32")):
        image = cp.random.uniform(0, 1e-3, (side, side)).astype(dt)
        image[::64, ::64] += 1
        t = cp.arange(k) - (k - 1) / 2
        g = cp.exp(-(t[:, None] ** 2 + t[None, :] ** 2) / 8)
        g = (g / g.sum()).astype(dt)
        results[f"signal/convolve2d/2048^2*15x15/{name}"] = {
            "fused_ms": median_ms(lambda: signal.convolve2d(image, g, mode="same"), reps=21), "bytes": 2 * side * side * image.itemsize}
        n = 1 << 22
        x = cp.random.uniform(-1, 1, n).astype(dt)
        h = cp.random.uniform(0, 1, 15).astype(dt)
        results[f"signal/convolve/4M*15/{name}"] = {"fused_ms": median_ms(lambda: cp.convolve(x, h, mode="same"), reps=21), "bytes": 2 * n * x.itemsize}
    meta = {"cupy": cp.__version__, "device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode()}
    with open(out_path, "w") as f:
        json.dump({"meta": meta, "results": results}, f, indent=1)
    for key, r in results.items():
        print(f"{key:45s} ms={r['fused_ms']:.4g}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "cupy_signal.json")
