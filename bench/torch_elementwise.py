"""bench_elementwise.cu's main cases in PyTorch on the same GPU, same run: eager (one kernel
per operation, like unfused CuPy) and torch.compile (Inductor's fused Triton kernel), CUDA-event
medians, written as JSON keyed like the C++ cases."""
import json
import sys

import torch


def median_ms(fn, reps=15, warmup=3):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(reps):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    times.sort()
    return times[len(times) // 2]


def case(results, key, fn, *args):
    eager = median_ms(lambda: fn(*args))
    try:
        compiled = torch.compile(fn)
        compiled_ms = median_ms(lambda: compiled(*args), warmup=5)
    except Exception as e:  # no Triton, or a compile failure: report eager only
        print(f"{key}: torch.compile failed: {type(e).__name__}: {e}", file=sys.stderr)
        compiled_ms = None
    results[key] = {"eager_ms": eager, "compile_ms": compiled_ms}


def graph_replay(dev, n=10000):
    """Ten dependent statements on 1e4 floats, eager and replayed from a CUDA graph: GPU time per
    statement over 100 sequences (bench_elementwise.cu's small/graph_replay), in microseconds."""
    x, y = torch.rand(n, device=dev) * 2 - 1, torch.rand(n, device=dev)

    def ten():
        y.copy_(x * 0.5 + y)
        x.copy_(x - 0.25 * y)
        y.copy_(y * y * 0.125)
        x.add_(y)
        y.copy_(torch.sqrt(y + 1.0))
        x.div_(y)
        y.sub_(x)
        x.mul_(0.75)
        y.add_(0.5 * x)
        x.sub_(0.01)

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            ten()
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        ten()
    eager = median_ms(lambda: [ten() for _ in range(100)])  # ms for 1000 statements = us a statement
    replay = median_ms(lambda: [g.replay() for _ in range(100)])
    result = {"eager_us_per_statement": eager, "graph_us_per_statement": replay}
    try:  # Inductor's fused kernels, replayed from its own CUDA graphs
        compiled = torch.compile(ten, mode="reduce-overhead")
        result["reduce_overhead_us_per_statement"] = median_ms(lambda: [compiled() for _ in range(100)], warmup=5)
    except Exception as e:
        print(f"graph_replay: torch.compile(mode='reduce-overhead') failed: {type(e).__name__}: {e}", file=sys.stderr)
    return result


def cg_poisson(dev, n=512, tolerance=1e-6):
    """examples/cg_poisson.cu in PyTorch: conjugate gradients on the 5-point Poisson problem, float64,
    the host reading the residual after every iteration (PyTorch has no loop on the device): eager,
    one iteration replayed from a CUDA graph, and torch.compile(mode="reduce-overhead"); microseconds
    an iteration."""
    h = 1.0 / (n + 1)
    b = torch.zeros(n + 2, n + 2, dtype=torch.float64, device=dev)
    b[1:-1, 1:-1] = h * h
    x, r, p, ap = (torch.zeros_like(b) for _ in range(4))
    rs, rs_new = (torch.zeros((), dtype=torch.float64, device=dev) for _ in range(2))

    def iterate():
        ap[1:-1, 1:-1] = 4.0 * p[1:-1, 1:-1] - p[:-2, 1:-1] - p[2:, 1:-1] - p[1:-1, :-2] - p[1:-1, 2:]
        pap = torch.sum(p * ap)
        x.add_((rs / pap) * p)
        r.sub_((rs / pap) * ap)
        rs_new.copy_(torch.sum(r * r))
        p.copy_(r + (rs_new / rs) * p)
        rs.copy_(rs_new)

    def solve(step):
        x.zero_()
        r.copy_(b)
        p.copy_(r)
        rs.copy_(torch.sum(r * r))
        threshold = tolerance * tolerance * rs.item()
        iterations = 0
        while True:
            step()
            iterations += 1
            if rs.item() <= threshold or iterations >= 10 * n:
                return iterations

    def timed(step):
        solve(step)  # warm-up
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        iterations = solve(step)
        stop.record()
        stop.synchronize()
        return 1e3 * start.elapsed_time(stop) / iterations, iterations

    out = {}
    out["eager_us_per_iteration"], out["iterations"] = timed(iterate)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        solve(iterate)
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        iterate()
    out["graph_us_per_iteration"], _ = timed(g.replay)
    try:
        compiled = torch.compile(iterate, mode="reduce-overhead")
        out["reduce_overhead_us_per_iteration"], _ = timed(compiled)
    except Exception as e:
        print(f"cg_poisson: torch.compile(mode='reduce-overhead') failed: {type(e).__name__}: {e}", file=sys.stderr)
    return out


def small(dev):
    """The small-statement cases only: ten statements replayed, and conjugate gradients."""
    return {"small/graph_replay/10_statements/f32/1e4": graph_replay(dev), "examples/cg_poisson/512^2/f64": cg_poisson(dev)}


def main(out_path):
    dev = "cuda"
    big = 1 << 28
    results = {}
    x = torch.rand(big, device=dev) * 2 - 1
    y = torch.rand(big, device=dev) * 2 - 1
    z = torch.rand(big, device=dev) * 1.5 + 0.5
    case(results, "contiguous/squared_diff/f32/2^28", lambda a, b: (a - b) * (a - b), x, y)
    case(results, "contiguous/axpy/f32/2^28", lambda a, b: 1.7 * a + b, x, y)
    case(results, "contiguous/sin_cos_sqrt/f32/2^28", lambda a, b, c: torch.sin(a) + torch.cos(b) / torch.sqrt(c), x, y, z)
    case(results, "reduce/sum(x*y)/f32/1e8", lambda a, b: torch.sum(a * b), x[:100_000_000], y[:100_000_000])
    case(results, "random/x+0.1*normal/f32/2^28", lambda a: a + 0.1 * torch.randn_like(a), x)
    del x, y, z
    xd = torch.rand(big // 4, device=dev, dtype=torch.float64) * 40 - 20
    case(results, "contiguous/softplus/f64/2^26", lambda a: torch.clamp(a, min=0) + torch.log1p(torch.exp(-torch.abs(a))), xd)
    del xd
    side = 8192
    a = torch.rand(side, side, device=dev)
    c = torch.rand(side, side, device=dev)
    case(results, "strided/A.T()+C/f32/8192^2", lambda u, v: u.T + v, a, c)
    col, row = torch.rand(side, 1, device=dev), torch.rand(1, side, device=dev)
    case(results, "broadcast/(8192,1)+(1,8192)/f32", lambda u, v: u + v, col, row)
    v, w = torch.rand(side * side, device=dev), torch.rand(side * side, device=dev)
    case(results, "strided/x[::-1]+y/f32/8192^2", lambda p, q: torch.flip(p, [0]) + q, v, w)
    graph = small(dev)
    meta = {"torch": torch.__version__, "device": torch.cuda.get_device_name()}
    with open(out_path, "w") as f:
        json.dump({"meta": meta, "results": results, "graph_replay": graph}, f, indent=1)
    for k, r in results.items():
        print(f"{k:45s} eager={r['eager_ms']:.4g} ms compile={r['compile_ms'] if r['compile_ms'] is None else round(r['compile_ms'], 4)} ms")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[2] == "--small":  # the small-statement cases alone
        cases = small("cuda")
        with open(sys.argv[1], "w") as f:
            json.dump({"meta": {"torch": torch.__version__, "device": torch.cuda.get_device_name()}, "graph_replay": cases}, f, indent=1)
        print(json.dumps(cases, indent=1))
    else:
        main(sys.argv[1] if len(sys.argv) > 1 else "torch_elementwise.json")
