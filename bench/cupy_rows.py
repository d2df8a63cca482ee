"""bench_rows.cu's cases in CuPy on the same GPU, same run (cupyx.scipy.special's softmax,
log_softmax and logsumexp), CUDA-event medians, written as JSON keyed like the C++ cases."""
import json
import sys

import cupy as cp

from cupy_elementwise import median_ms


def main(out_path):
    from cupyx.scipy import special
    side = 8192
    a = cp.random.uniform(-8, 8, (side, side)).astype(cp.float32)
    results = {
        "rows/softmax(A,1)/f32/8192^2": {"ms": median_ms(lambda: special.softmax(a, axis=1))},
        "rows/softmax(A,0)/f32/8192^2": {"ms": median_ms(lambda: special.softmax(a, axis=0))},
        "rows/log_softmax(A,1)/f32/8192^2": {"ms": median_ms(lambda: special.log_softmax(a, axis=1))},
        "rows/logsumexp(A,1)/f32/8192^2": {"ms": median_ms(lambda: special.logsumexp(a, axis=1, keepdims=True))},
    }
    del a
    for shape in ((4096, 16384), (2048, 32768), (512, 131072)):
        cols = cp.random.uniform(-8, 8, shape).astype(cp.float32)
        results[f"rows/softmax(A,0)/f32/{shape[0]}x{shape[1]}"] = {"ms": median_ms(lambda: special.softmax(cols, axis=0))}
        del cols
    long_rows = cp.random.uniform(-8, 8, (64, 1 << 20)).astype(cp.float32)
    results["rows/softmax(A,1)/f32/64x2^20"] = {"ms": median_ms(lambda: special.softmax(long_rows, axis=1))}
    del long_rows
    wide_rows = cp.random.uniform(-8, 8, (1024, 32768)).astype(cp.float32)
    results["rows/softmax(A,1)/f32/1024x32768"] = {"ms": median_ms(lambda: special.softmax(wide_rows, axis=1))}
    del wide_rows
    short_rows = cp.random.uniform(-8, 8, (1 << 20, 64)).astype(cp.float32)
    results["rows/softmax(A,1)/f32/2^20x64"] = {"ms": median_ms(lambda: special.softmax(short_rows, axis=1))}
    del short_rows
    mid = cp.random.uniform(-8, 8, (65536, 1024)).astype(cp.float32)
    results["rows/softmax(A,1)/f32/65536x1024"] = {"ms": median_ms(lambda: special.softmax(mid, axis=1))}
    del mid
    # Two outputs of two shared inputs: one cp.fuse kernel returning both.
    x, y = cp.random.uniform(-1, 1, 1 << 28).astype(cp.float32), cp.random.uniform(-1, 1, 1 << 28).astype(cp.float32)
    def sum_and_product(u, v):
        return u + v, u * v - 1

    both = cp.fuse(sum_and_product)
    results["together/z1=x+y,z2=x*y-1/f32/2^28"] = {"ms": median_ms(lambda: both(x, y))}
    del x, y
    # Several reductions of the same elements: CuPy runs one kernel each.
    x = cp.random.uniform(-1, 1, 100_000_000).astype(cp.float32)
    results["together/sum,sum(x*x),max/f32/1e8"] = {"ms": median_ms(lambda: (x.sum(), (x * x).sum(), x.max()))}
    del x
    a = cp.random.uniform(-1, 1, (8192, 8192)).astype(cp.float32)
    results["together/sum(A,1),max(A,1)/f32/8192^2"] = {"ms": median_ms(lambda: (a.sum(1), a.max(1)))}
    results["together/mean(A,0),var(A,0)/f32/8192^2"] = {"ms": median_ms(lambda: (a.mean(0), a.var(0)))}
    del a
    # The general form: an expression using reductions of its own rows (a reduction kernel each,
    # then an element-wise kernel).
    def standardised(u):
        return (u - u.mean(1, keepdims=True)) / cp.sqrt(u.var(1, keepdims=True) + 1e-5)

    a = cp.random.uniform(0.5, 8, (8192, 8192)).astype(cp.float32)
    results["general/x/sum(x,1,kd)/f32/8192^2"] = {"ms": median_ms(lambda: a / a.sum(1, keepdims=True))}
    results["general/x-mean(x,1,kd)/f32/8192^2"] = {"ms": median_ms(lambda: a - a.mean(1, keepdims=True))}
    results["general/x-mean(x,0,kd)/f32/8192^2"] = {"ms": median_ms(lambda: a - a.mean(0, keepdims=True))}
    results["general/(x-mean)/sqrt(var+eps)/f32/8192^2"] = {"ms": median_ms(lambda: standardised(a))}
    w = cp.random.uniform(0.5, 2, (1, 8192)).astype(cp.float32)
    b = cp.random.uniform(-1, 1, (1, 8192)).astype(cp.float32)
    results["general/(x-mean)/sqrt(var+eps)*w+b/f32/8192^2"] = {"ms": median_ms(lambda: standardised(a) * w + b)}
    del a
    short = cp.random.uniform(0.5, 8, (1 << 20, 64)).astype(cp.float32)
    results["general/x-mean(x,1,kd)/f32/2^20x64"] = {"ms": median_ms(lambda: short - short.mean(1, keepdims=True))}
    del short
    mid = cp.random.uniform(0.5, 8, (65536, 1024)).astype(cp.float32)
    results["general/x/sum(x,1,kd)/f32/65536x1024"] = {"ms": median_ms(lambda: mid / mid.sum(1, keepdims=True))}
    results["general/(x-mean)/sqrt(var+eps)/f32/65536x1024"] = {"ms": median_ms(lambda: standardised(mid))}
    w1 = cp.random.uniform(0.5, 2, (1, 1024)).astype(cp.float32)
    b1 = cp.random.uniform(-1, 1, (1, 1024)).astype(cp.float32)
    results["general/(x-mean)/sqrt(var+eps)*w+b/f32/65536x1024"] = {"ms": median_ms(lambda: standardised(mid) * w1 + b1)}
    del mid
    # An expression using a running sum (a scan kernel, then an element-wise kernel).
    x = cp.floor(cp.random.uniform(0, 3, 100_000_000)).astype(cp.float32) - 1
    results["general/x-cumsum(x)/n/f32/1e8"] = {"ms": median_ms(lambda: x - cp.cumsum(x) / x.size)}
    del x
    a = cp.floor(cp.random.uniform(0, 3, (8192, 8192))).astype(cp.float32) - 1
    results["general/A-cumsum(A,1)/n/f32/8192^2"] = {"ms": median_ms(lambda: a - cp.cumsum(a, 1) / 8192)}
    results["general/A-cumsum(A,0)/n/f32/8192^2"] = {"ms": median_ms(lambda: a - cp.cumsum(a, 0) / 8192)}
    with open(out_path, "w") as f:
        json.dump({"device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), "results": results}, f, indent=1)
    for k, v in results.items():
        print(f"{k}: {v['ms']:.4f} ms")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "cupy_rows.json")
