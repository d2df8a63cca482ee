#!/usr/bin/env python3
"""Markdown tables from a benchmark run: bench_elementwise.json (Google Benchmark) and, when
present beside it, cupy_elementwise.json; the same for reduce, linalg and signal when there.
Usage: summarize.py RUN_DIR > table.md"""
import json
import pathlib
import sys

run = pathlib.Path(sys.argv[1])


def fmt(v, digits=3):
    return "" if v is None else f"{v:.{digits}g}"


base = lambda name: name.split("/iterations")[0]
env = run / "environment.txt"
if env.exists():
    print(env.read_text().strip().replace("\n", "; ") + "\n")

# Element-wise (bench_elementwise.json, cupy_elementwise.json), when the run has them.
ew_path = run / "bench_elementwise.json"
if ew_path.exists():
    gb = json.loads(ew_path.read_text())
    cupy_path = run / "cupy_elementwise.json"
    cupy = json.loads(cupy_path.read_text())["results"] if cupy_path.exists() else {}


    rows = [b for b in gb["benchmarks"] if b.get("run_type", "iteration") == "iteration"]
    print(f"Copy bandwidth "
          f"{fmt(rows[0].get('copy_GBps'), 4)} GB/s (device-to-device, read + write)\n")
    print("| case | xfuse ms | GB/s | vs copy | vs cub | vs hand-written | vs unfused | CuPy fused ms | xfuse vs CuPy |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for b in rows:
        name = base(b["name"])
        if name.startswith(("sweep", "small", "ceiling")):
            continue
        key = "/".join(name.split("/")[:4])
        c = cupy.get(key, {})
        cms = c.get("fused_ms")
        print(f"| {key} | {fmt(b['ms'])} | {fmt(b['GBps'], 4)} | {fmt(b['vs_copy'])} | {fmt(b.get('vs_cub'))} | "
              f"{fmt(b.get('vs_hand'))} | {fmt(b.get('vs_unfused'))} | {fmt(cms)} | {fmt(cms / b['ms'] if cms else None)} |")
    masked = [b for b in rows if "masked_ms" in b]
    if masked:
        print("\n| transposed copy | A.T() ms | vs copy | where(tri(n).T(), A.T(), 0) ms | masked over plain |")
        print("|---|---:|---:|---:|---:|")
        for b in masked:
            print(f"| {base(b['name'])} | {fmt(b['ms'])} | {fmt(b['vs_copy'])} | {fmt(b['masked_ms'])} | {fmt(b['masked_ms'] / b['ms'])} |")
    rnd = [b for b in rows if base(b["name"]).startswith("random/")]
    if rnd:
        print("\n| random draw | xfuse ms | GB/s | vs memset (write ceiling) | vs unfused | CuPy ms | xfuse vs CuPy |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for b in rnd:
            key = base(b["name"])
            cms = cupy.get(key, {}).get("fused_ms")
            print(f"| {key} | {fmt(b['ms'])} | {fmt(b['GBps'], 4)} | {fmt(b.get('vs_memset'))} | {fmt(b.get('vs_unfused'))} | "
                  f"{fmt(cms)} | {fmt(cms / b['ms'] if cms else None)} |")
    if any(base(b["name"]).startswith("small/") for b in rows):
        print("\n| small arrays | xfuse host µs per evaluation | GPU µs | CuPy host µs |")
        print("|---|---:|---:|---:|")
    for b in rows:
        name = base(b["name"])
        if name.startswith("small/squared_diff"):
            n = name.split("/")[-1]
            c = cupy.get(f"small/squared_diff/f32/{n}", {})
            print(f"| squared_diff, n = {n} | {fmt(b['host_us_per_eval'])} | {fmt(b['gpu_us_per_eval'])} | "
                  f"{fmt(c.get('host_us_per_eval'))} |")
    for b in rows:
        if base(b["name"]) in ("small/overhead_parts", "small/launch_apis"):
            parts = ", ".join(f"{k} {fmt(v)}" for k, v in b.items() if k.endswith("_us"))
            print(f"\n{base(b['name'])} (host µs): {parts}")
    if any(base(b["name"]).startswith(("sweep", "ceiling")) for b in rows):
        print("\n| tuning sweep | ms | vs copy |")
        print("|---|---:|---:|")
    for b in rows:
        name = base(b["name"])
        if name.startswith(("sweep", "ceiling")):
            print(f"| {name} | {fmt(b['ms'])} | {fmt(b['vs_copy'])} |")

# Reductions (bench_reduce.json, cupy_reduce.json), when the run has them.
red_path = run / "bench_reduce.json"
if red_path.exists():
    red = json.loads(red_path.read_text())
    cr_path = run / "cupy_reduce.json"
    cr = json.loads(cr_path.read_text())["results"] if cr_path.exists() else {}
    print("\n| reduction, scan, sort | xfuse ms | GB/s | vs copy | vs cub | other | CuPy ms | xfuse vs CuPy |")
    print("|---|---:|---:|---:|---:|---|---:|---:|")
    for b in red["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration":
            continue
        name = base(b["name"])
        c = cr.get(name, {})
        cms = c.get("ms")
        other = []
        if "vs_cub_GBps" in b:
            other.append(f"GB/s vs cub sum of one array {fmt(b['vs_cub_GBps'])}")
        if "vs_parts" in b:
            other.append(f"vs (reduce {fmt(b['reduce_ms'])} + element-wise {fmt(b['elementwise_ms'])} ms) {fmt(b['vs_parts'])}")
        if "unfused_ms" in c:
            other.append(f"CuPy unfused {fmt(c['unfused_ms'])} ms")
        if "keyed_ms" in b:
            other.append(f"the same line as an axis scan (keyed) {fmt(b['keyed_ms'])} ms")
        print(f"| {name} | {fmt(b['ms'])} | {fmt(b['GBps'], 4)} | {fmt(b['vs_copy'])} | {fmt(b.get('vs_cub'))} | "
              f"{'; '.join(other)} | {fmt(cms)} | {fmt(cms / b['ms'] if cms else None)} |")

# Linear algebra (bench_linalg.json, cupy_linalg.json), when the run has them.
la_path = run / "bench_linalg.json"
if la_path.exists():
    la = json.loads(la_path.read_text())
    cl_path = run / "cupy_linalg.json"
    cl = json.loads(cl_path.read_text())["results"] if cl_path.exists() else {}
    print("\n| linear algebra | xfuse ms | TFLOP/s | raw library ms | vs raw (cuBLAS / cuSOLVER) | CuPy ms | xfuse vs CuPy | PyTorch ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    cpu_rows, part_rows = [], []
    for b in la["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration":
            continue
        name = base(b["name"])
        if "lower_copy_ms" in b:
            part_rows.append(f"| {name} | {fmt(b['lower_copy_ms'])} | {fmt(b['fused_copy_ms'])} | {fmt(b['memcpy_ms'])} | "
                             f"{fmt(b['memcpy_potrf_xf_ms'])} |")
            continue
        if "cpu_ms" in b:
            cpu_rows.append(f"| {name} | {fmt(b['cpu_ms'])} | {fmt(b['ms'])} | {fmt(b['gpu_speedup'])} |")
            continue
        if "host_us" in b:
            raw = b.get("raw_host_us")
            if "raw_batched_lu_host_us" in b:
                name += f"; raw cuBLAS batched LU {fmt(b['raw_batched_lu_host_us'])} µs"
            print(f"| {name} (host µs per call) | {fmt(b['host_us'])} µs | | {fmt(raw)} | "
                  f"{fmt(raw / b['host_us'] if raw else None)} | | | |")
            continue
        c = cl.get(name) or cl.get(name[: -len("/4096")] if name.endswith("/4096") else name, {})
        if "vs_unfused" in b:  # the label only; CuPy's results are keyed by the bare name
            name += f"; unfused (GEMM, then an element-wise pass) {fmt(b['unfused_ms'])} ms, vs unfused {fmt(b['vs_unfused'])}"
        cms = c.get("ms")
        vs = b.get("vs_cublas", b.get("vs_cusolver"))
        print(f"| {name} | {fmt(b['ms'])} | {fmt(b.get('TFLOPs'))} | {fmt(b.get('raw_ms'))} | {fmt(vs)} | {fmt(cms)} | "
              f"{fmt(cms / b['ms'] if cms else None)} | {fmt(c.get('torch_ms'))} |")
    if part_rows:
        print("\n| Cholesky's parts | copy kernel ms (lower triangle) | fused masked transpose ms | device memcpy ms | memcpy + potrf through xfuse ms |")
        print("|---|---:|---:|---:|---:|")
        print("\n".join(part_rows))
    if cpu_rows:
        print("\n| same call on host and device arrays | CPU ms (OpenBLAS) | GPU ms | GPU speedup |")
        print("|---|---:|---:|---:|")
        print("\n".join(cpu_rows))

# Convolution (bench_signal.json, cupy_signal.json), when the run has them.
sg_path = run / "bench_signal.json"
if sg_path.exists():
    sg = json.loads(sg_path.read_text())
    cs_path = run / "cupy_signal.json"
    cs = json.loads(cs_path.read_text())["results"] if cs_path.exists() else {}
    print("\n| convolution | xfuse ms | GB/s | vs copy | CuPy ms | xfuse vs CuPy |")
    print("|---|---:|---:|---:|---:|---:|")
    for b in sg["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration":
            continue
        name = base(b["name"])
        cms = cs.get(name, {}).get("fused_ms")
        print(f"| {name} | {fmt(b['ms'])} | {fmt(b['GBps'], 4)} | {fmt(b['vs_copy'])} | {fmt(cms)} | {fmt(cms / b['ms'] if cms else None)} |")

# Reductions fused with their consumers (bench_rows.json, torch_rows.json, cupy_rows.json): each
# column as a fraction of the copy ceiling on the bytes a fused kernel moves (read once, write once).
rw_path = run / "bench_rows.json"
if rw_path.exists():
    rw = json.loads(rw_path.read_text())
    peers = {}
    for name in ("torch_rows.json", "cupy_rows.json"):
        p = run / name
        peers[name] = json.loads(p.read_text())["results"] if p.exists() else {}
    print("\n| fused reduction and consumer | xfuse ms | vs copy | composed ms | xfuse vs composed | two passes ms | torch eager ms | torch.compile ms | CuPy ms | vs copy: composed / two passes / eager / compile / CuPy |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for b in rw["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration":
            continue
        name = base(b["name"])
        t = peers["torch_rows.json"].get(name, {})
        c = peers["cupy_rows.json"].get(name, {})
        copy_ms = b["ms"] * b["vs_copy"]  # the copy ceiling's time for these bytes
        ratio = lambda ms: None if not ms else copy_ms / ms
        peer_ms = [b.get("composed_ms"), b.get("two_pass_ms"), t.get("eager_ms"), t.get("compile_ms"), c.get("ms")]
        print(f"| {name} | {fmt(b['ms'])} | {fmt(b['vs_copy'])} | {fmt(b.get('composed_ms'))} | {fmt(b.get('vs_composed'))} | "
              f"{fmt(b.get('two_pass_ms'))} | {fmt(t.get('eager_ms'))} | {fmt(t.get('compile_ms'))} | {fmt(c.get('ms'))} | "
              f"{' / '.join(fmt(ratio(ms)) or '-' for ms in peer_ms)} |")
