"""The benchmark cases of bench_elementwise.cu in CuPy, on the same GPU, in the same run:
fused (cp.fuse) and unfused, timed with CUDA events (medians), written as JSON."""
import json
import sys

import cupy as cp


def median_ms(fn, reps=15, warmup=3):
    for _ in range(warmup):
        fn()
    cp.cuda.Device().synchronize()
    times = []
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(reps):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    times.sort()
    return times[len(times) // 2]


def rand(n, dtype, lo=-1.0, hi=1.0):
    return cp.random.uniform(lo, hi, n).astype(dtype)


def main(out_path):
    big = 1 << 28
    results = {}
    x, y = rand(big, cp.float32), rand(big, cp.float32)
    z = rand(big, cp.float32, 0.5, 2.0)

    squared_diff = cp.fuse(kernel_name="squared_diff")(lambda a, b: (a - b) * (a - b))
    results["contiguous/squared_diff/f32/2^28"] = {
        "fused_ms": median_ms(lambda: squared_diff(x, y)),
        "unfused_ms": median_ms(lambda: (x - y) * (x - y)),
        "bytes": 3 * big * 4,
    }
    axpy = cp.fuse(kernel_name="axpy")(lambda a, b: 1.7 * a + b)
    results["contiguous/axpy/f32/2^28"] = {
        "fused_ms": median_ms(lambda: axpy(x, y)),
        "unfused_ms": median_ms(lambda: cp.float32(1.7) * x + y),
        "bytes": 3 * big * 4,
    }
    scs = cp.fuse(kernel_name="sin_cos_sqrt")(lambda a, b, c: cp.sin(a) + cp.cos(b) / cp.sqrt(c))
    results["contiguous/sin_cos_sqrt/f32/2^28"] = {
        "fused_ms": median_ms(lambda: scs(x, y, z)),
        "unfused_ms": median_ms(lambda: cp.sin(x) + cp.cos(y) / cp.sqrt(z)),
        "bytes": 4 * big * 4,
    }
    del x, y, z
    xd = rand(big // 4, cp.float64, -20, 20)
    sp = cp.fuse(kernel_name="softplus")(lambda a: cp.maximum(0, a) + cp.log1p(cp.exp(-cp.abs(a))))
    results["contiguous/softplus/f64/2^26"] = {
        "fused_ms": median_ms(lambda: sp(xd)),
        "unfused_ms": median_ms(lambda: cp.maximum(0, xd) + cp.log1p(cp.exp(-cp.abs(xd)))),
        "bytes": 2 * (big // 4) * 8,
    }
    del xd
    side = 8192
    a, c = rand(side * side, cp.float32).reshape(side, side), rand(side * side, cp.float32).reshape(side, side)
    add = cp.fuse(kernel_name="add")(lambda u, v: u + v)
    results["strided/A.T()+C/f32/8192^2"] = {"fused_ms": median_ms(lambda: add(a.T, c)), "unfused_ms": median_ms(lambda: a.T + c), "bytes": 3 * side * side * 4}
    col, row = rand(side, cp.float32).reshape(side, 1), rand(side, cp.float32).reshape(1, side)
    results["broadcast/(8192,1)+(1,8192)/f32"] = {"fused_ms": median_ms(lambda: add(col, row)), "unfused_ms": median_ms(lambda: col + row), "bytes": side * side * 4 + 2 * side * 4}
    v, w = rand(side * side, cp.float32), rand(side * side, cp.float32)
    results["strided/x[::-1]+y/f32/8192^2"] = {"fused_ms": median_ms(lambda: add(v[::-1], w)), "unfused_ms": median_ms(lambda: v[::-1] + w), "bytes": 3 * side * side * 4}
    del v, w, a, c
    # Random draws: CuPy's generator writes a buffer; noise is then added in a second kernel.
    rng = cp.random.default_rng(1)
    results["random/uniform/f64/1024^3"] = {"fused_ms": median_ms(lambda: rng.uniform(size=(1024, 1024, 1024)), reps=11),
                                            "bytes": 1024 ** 3 * 8}
    xs = rand(big, cp.float32)
    results["random/x+0.1*normal/f32/2^28"] = {
        "fused_ms": median_ms(lambda: xs + cp.float32(0.1) * rng.standard_normal(big, dtype=cp.float32)),
        "bytes": 2 * big * 4,
    }
    del xs
    counts = 1 << 26
    for name, f in (("poisson(4.5)", lambda: rng.poisson(4.5, counts)), ("poisson(100)", lambda: rng.poisson(100.0, counts)),
                    ("binomial(1000,0.3)", lambda: rng.binomial(1000, 0.3, counts))):
        try:
            results[f"random/{name}/i64/2^26"] = {"fused_ms": median_ms(f), "bytes": counts * 8}
        except (AttributeError, NotImplementedError) as e:  # not in every CuPy's Generator
            print(f"random/{name}: CuPy has no such draw here ({e})")
    import time
    for n in (1000, 10000):
        s, t = rand(n, cp.float32), rand(n, cp.float32)
        for _ in range(1000):
            squared_diff(s, t)
        cp.cuda.Device().synchronize()
        bursts = []
        for _ in range(41):  # short bursts, as in the C++ benchmark: the launch queue never fills
            t0 = time.perf_counter()
            for _ in range(200):
                squared_diff(s, t)
            bursts.append((time.perf_counter() - t0) / 200 * 1e6)
            cp.cuda.Device().synchronize()
        bursts.sort()
        results[f"small/squared_diff/f32/{n}"] = {"host_us_per_eval": bursts[len(bursts) // 2]}
    for k, r in results.items():
        if "bytes" in r:
            r["fused_GBps"] = r["bytes"] / (r["fused_ms"] * 1e6)
    meta = {"cupy": cp.__version__, "device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode()}
    with open(out_path, "w") as f:
        json.dump({"meta": meta, "results": results}, f, indent=1)
    for k, r in results.items():
        print(f"{k:45s} " + " ".join(f"{kk}={vv:.4g}" for kk, vv in r.items() if kk != "bytes"))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "cupy_elementwise.json")
