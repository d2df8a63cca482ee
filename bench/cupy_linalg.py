"""The cases of bench_linalg.cu in CuPy (and PyTorch when present), on the same GPU, in the same
run (CUDA-event medians), written as JSON."""
import json
import sys

import cupy as cp

from cupy_elementwise import median_ms


def main(out_path):
    results = {}
    n = 4096
    for name, dt in (("f32", cp.float32), ("f64", cp.float64), ("f16", cp.float16)):
        a = cp.random.uniform(-1, 1, (n, n)).astype(dt)
        b = cp.random.uniform(-1, 1, (n, n)).astype(dt)
        results[f"matmul/f{name[1:]}"] = {"ms": median_ms(lambda: a @ b, reps=21)}
    for k in (1024, 4096):
        a = cp.rint(cp.random.uniform(-1, 1, (k, k)) * 100).astype(cp.int32)
        b = cp.rint(cp.random.uniform(-1, 1, (k, k)) * 100).astype(cp.int32)
        results[f"matmul/i32/{k}"] = {"ms": median_ms(lambda: a @ b, reps=11)}
    a = cp.random.uniform(-1, 1, (n, n)).astype(cp.float32)
    b = cp.random.uniform(-1, 1, (n, n)).astype(cp.float32)
    results["matmul/A.T()@B/f32"] = {"ms": median_ms(lambda: a.T @ b, reps=21)}
    a = cp.random.uniform(-1, 1, (1000, 64, 64)).astype(cp.float32)
    b = cp.random.uniform(-1, 1, (1000, 64, 64)).astype(cp.float32)
    results["matmul/batched/1000x64x64/f32"] = {"ms": median_ms(lambda: a @ b, reps=21)}
    def well_conditioned(k, dt):
        return (cp.random.uniform(-1, 1, (k, k)) + k * cp.eye(k)).astype(dt)

    for k in (512, 4096):
        a = well_conditioned(k, cp.float32)
        b = cp.random.uniform(-1, 1, (k, 1)).astype(cp.float32)
        results[f"solve/f32/{k}"] = {"ms": median_ms(lambda: cp.linalg.solve(a, b), reps=11)}
        results[f"det/f32/{k}"] = {"ms": median_ms(lambda: cp.linalg.det(a), reps=11)}
        spd = a @ a.T
        results[f"cholesky/f32/{k}"] = {"ms": median_ms(lambda: cp.linalg.cholesky(spd), reps=11)}
    a = (cp.random.uniform(-1, 1, (1000, 64, 64)) + 64 * cp.eye(64)).astype(cp.float32)
    b = cp.random.uniform(-1, 1, (1000, 64, 1)).astype(cp.float32)
    results["solve/batched/1000x64x64/f32"] = {"ms": median_ms(lambda: cp.linalg.solve(a, b), reps=11)}
    for k in (512, 4096, 6000):
        a = well_conditioned(k, cp.float32)
        results[f"inv/f32/{k}"] = {"ms": median_ms(lambda: cp.linalg.inv(a), reps=7)}
    for k in (512, 1024, 2048, 4096):
        a = cp.random.uniform(-1, 1, (k, k)).astype(cp.float32)
        results[f"qr/f32/{k}"] = {"ms": median_ms(lambda: cp.linalg.qr(a), reps=7)}
    for k in (512, 2048):
        m = cp.random.uniform(-1, 1, (k, k)).astype(cp.float32)
        a = m + m.T
        results[f"eigh/f32/{k}"] = {"ms": median_ms(lambda: cp.linalg.eigh(a), reps=5)}
    if hasattr(cp.linalg, "eig"):
        for name, dt in (("f32", cp.float32), ("f64", cp.float64)):
            for k in (512, 2048):
                a = cp.random.uniform(-1, 1, (k, k)).astype(dt)
                results[f"eig/{name}/{k}"] = {"ms": median_ms(lambda: cp.linalg.eig(a), reps=5)}
    a = cp.random.uniform(-1, 1, (512, 512)).astype(cp.float32)
    results["svd/f32/512"] = {"ms": median_ms(lambda: cp.linalg.svd(a), reps=5)}
    m = cp.random.uniform(-1, 1, (1000, 32, 32)).astype(cp.float32)
    a = m + m.transpose(0, 2, 1)
    results["eigh/batched/1000x32x32/f32"] = {"ms": median_ms(lambda: cp.linalg.eigh(a), reps=7)}
    try:
        import torch
        for name, dt in (("f32", torch.float32), ("f64", torch.float64), ("f16", torch.float16)):
            ta = torch.rand((n, n), device="cuda", dtype=dt)
            tb = torch.rand((n, n), device="cuda", dtype=dt)
            results[f"matmul/{name}"]["torch_ms"] = median_ms(lambda: ta @ tb, reps=21)
    except Exception as e:  # PyTorch is optional
        print("torch:", e)
    meta = {"device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), "cupy": cp.__version__}
    with open(out_path, "w") as f:
        json.dump({"meta": meta, "results": results}, f, indent=1)
    for k, v in results.items():
        print(f"{k:36s} {v['ms']:.4f} ms" + (f"  torch {v['torch_ms']:.4f} ms" if "torch_ms" in v else ""))


if __name__ == "__main__":
    main(sys.argv[1])
