"""The cases of bench_reduce.cu in CuPy, on the same GPU, in the same run (CUDA-event
medians), written as JSON: plain reductions, and cp.fuse with a reduction (CuPy's fused form)."""
import json
import sys

import cupy as cp

from cupy_elementwise import median_ms


def main(out_path):
    n, side = 100_000_000, 8192
    x = cp.random.uniform(0, 1, n).astype(cp.float32)
    y = cp.random.uniform(0, 1, n).astype(cp.float32)
    a = cp.random.uniform(-1, 1, (side, side)).astype(cp.float32)
    xs = cp.random.uniform(-1, 1, n).astype(cp.float32)  # half of it above 0
    m, x_set = xs > 0, xs.copy()
    idx = cp.random.randint(0, n, 10_000_000, dtype=cp.int64)
    fused_dot = cp.fuse(kernel_name="sum_product")(lambda p, q: cp.sum(p * q))
    results = {
        "reduce/sum(x)/f32/1e8": {"ms": median_ms(lambda: cp.sum(x)), "bytes": n * 4},
        "reduce/sum(x*y)/f32/1e8": {"ms": median_ms(lambda: fused_dot(x, y), reps=5, warmup=1),
                                    "unfused_ms": median_ms(lambda: cp.sum(x * y)), "bytes": n * 8},
        "reduce/sum(A,1)/f32/8192^2": {"ms": median_ms(lambda: a.sum(1)), "bytes": side * side * 4},
        "reduce/sum(A,0)/f32/8192^2": {"ms": median_ms(lambda: a.sum(0)), "bytes": side * side * 4},
        "reduce/A-mean(A,0)/f32/8192^2": {"ms": median_ms(lambda: a - a.mean(0)), "bytes": 3 * side * side * 4},
        "reduce/max(x)/f32/1e8": {"ms": median_ms(lambda: cp.max(x)), "bytes": n * 4},
        "reduce/argmax(x)/f32/1e8": {"ms": median_ms(lambda: cp.argmax(x)), "bytes": n * 4},
        "reduce/var(x)/f32/1e8": {"ms": median_ms(lambda: cp.var(x)), "bytes": n * 4},
        "scan/cumsum(x)/f32/1e8": {"ms": median_ms(lambda: cp.cumsum(x)), "bytes": n * 8},
        "scan/cumsum(A,1)/f32/8192^2": {"ms": median_ms(lambda: cp.cumsum(a, 1)), "bytes": side * side * 8},
        "scan/cumsum(A,0)/f32/8192^2": {"ms": median_ms(lambda: cp.cumsum(a, 0)), "bytes": side * side * 8},
        "sort/sort(x)/f32/1e8": {"ms": median_ms(lambda: cp.sort(x), reps=7, warmup=1), "bytes": n * 8},
        "sort/argsort(x)/f32/1e8": {"ms": median_ms(lambda: cp.argsort(x), reps=7, warmup=1), "bytes": n * 24},
        "sort/sort(A)/f32/8192^2": {"ms": median_ms(lambda: cp.sort(a), reps=7, warmup=1), "bytes": side * side * 8},
        "sort/sort(A,0)/f32/8192^2": {"ms": median_ms(lambda: cp.sort(a, axis=0), reps=7, warmup=1), "bytes": side * side * 8},
        "quantile/median(x)/f32/1e8": {"ms": median_ms(lambda: cp.median(x), reps=7, warmup=1), "bytes": n * 4},
        "quantile/quantile(x,0.9)/f32/1e8": {"ms": median_ms(lambda: cp.quantile(x, 0.9), reps=7, warmup=1), "bytes": n * 4},
        "select/x(m)/f32/1e8": {"ms": median_ms(lambda: xs[m]), "bytes": n * 8},
        "select/x(x>0)/f32/1e8": {"ms": median_ms(lambda: xs[xs > 0]), "bytes": n * 8},
        "select/x(m)=0/f32/1e8": {"ms": median_ms(lambda: x_set.__setitem__(m, 0)), "bytes": n * 9},
        "select/x(idx)/f32/1e8,1e7": {"ms": median_ms(lambda: xs[idx]), "bytes": 10_000_000 * 16},
    }
    meta = {"device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), "cupy": cp.__version__}
    with open(out_path, "w") as f:
        json.dump({"meta": meta, "results": results}, f, indent=1)
    for k, v in results.items():
        print(f"{k:36s} {v['ms']:.4f} ms")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "cupy_reduce.json")
