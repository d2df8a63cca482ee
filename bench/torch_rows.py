"""bench_rows.cu's cases in PyTorch on the same GPU, same run: eager and torch.compile, CUDA-event
medians, written as JSON keyed like the C++ cases. A second argument, key prefixes separated by "|"
(e.g. "compose/|rows/softmax"; keys hold commas), runs only the cases whose key starts with one of them."""
import json
import sys

import torch

import torch_elementwise


def main(out_path, only=None):
    prefixes = tuple(only.split("|")) if only else ("",)

    def case(results, key, fn, *args):
        if key.startswith(prefixes):
            torch_elementwise.case(results, key, fn, *args)

    dev = "cuda"
    results = {}
    side = 8192
    a = torch.rand(side, side, device=dev) * 16 - 8
    case(results, "rows/softmax(A,1)/f32/8192^2", lambda u: torch.softmax(u, 1), a)
    case(results, "rows/softmax(A,0)/f32/8192^2", lambda u: torch.softmax(u, 0), a)
    case(results, "rows/log_softmax(A,1)/f32/8192^2", lambda u: torch.log_softmax(u, 1), a)
    case(results, "rows/logsumexp(A,1)/f32/8192^2", lambda u: torch.logsumexp(u, 1, keepdim=True), a)
    w, b = torch.rand(side, device=dev) * 1.5 + 0.5, torch.rand(side, device=dev) * 2 - 1
    F = torch.nn.functional
    case(results, "rows/layer_norm(A,1,w,b)/f32/8192^2", lambda u, p, q: F.layer_norm(u, (side,), p, q, 1e-5), a, w, b)
    case(results, "rows/rms_norm(A,1,w)/f32/8192^2", lambda u, p: F.rms_norm(u, (side,), p, 1e-6), a, w)
    # Along the columns: layer_norm normalises the last axis, so over a transposed view.
    case(results, "rows/layer_norm(A,0,w,b)/f32/8192^2", lambda u, p, q: F.layer_norm(u.t(), (side,), p, q, 1e-5).t(), a, w, b)
    # Composed: into a preallocated array, and inside an expression.
    o = torch.empty_like(a)
    b2 = b.reshape(1, side)
    w2 = w.reshape(1, side)
    case(results, "compose/out.assign(softmax(A,1))/f32/8192^2", lambda u, v: v.copy_(torch.softmax(u, 1)), a, o)
    case(results, "compose/eval(2*softmax(A,1)+b)/f32/8192^2", lambda u, q: 2 * torch.softmax(u, 1) + q, a, b2)
    case(results, "compose/out.assign(layer_norm(A,1))/f32/8192^2", lambda u, v: v.copy_(F.layer_norm(u, (side,), None, None, 1e-5)), a, o)
    case(results, "compose/out.assign(w*layer_norm(A,1)+b)/f32/8192^2",
         lambda u, v, p, q: v.copy_(p * F.layer_norm(u, (side,), None, None, 1e-5) + q), a, o, w2, b2)
    del o
    del a
    for shape in ((4096, 16384), (2048, 32768), (512, 131072)):
        cols = torch.rand(*shape, device=dev) * 16 - 8
        case(results, f"rows/softmax(A,0)/f32/{shape[0]}x{shape[1]}", lambda u: torch.softmax(u, 0), cols)
        if shape[0] == 4096:
            wc, bc = torch.rand(4096, device=dev) * 1.5 + 0.5, torch.rand(4096, device=dev) * 2 - 1
            case(results, "rows/layer_norm(A,0,w,b)/f32/4096x16384",
                 lambda u, p, q: F.layer_norm(u.t(), (4096,), p, q, 1e-5).t(), cols, wc, bc)
        del cols
    long_rows = torch.rand(64, 1 << 20, device=dev) * 16 - 8
    case(results, "rows/softmax(A,1)/f32/64x2^20", lambda u: torch.softmax(u, 1), long_rows)
    o_long = torch.empty_like(long_rows)
    b_long = (torch.rand(1 << 20, device=dev) * 2 - 1).reshape(1, 1 << 20)
    case(results, "compose/out.assign(softmax(A,1))/f32/64x2^20", lambda u, v: v.copy_(torch.softmax(u, 1)), long_rows, o_long)
    case(results, "compose/eval(2*softmax(A,1)+b)/f32/64x2^20", lambda u, q: 2 * torch.softmax(u, 1) + q, long_rows, b_long)
    del o_long
    wl, bl = torch.rand(1 << 20, device=dev) * 1.5 + 0.5, torch.rand(1 << 20, device=dev) * 2 - 1
    case(results, "rows/layer_norm(A,1,w,b)/f32/64x2^20", lambda u, p, q: F.layer_norm(u, (1 << 20,), p, q, 1e-5), long_rows, wl, bl)
    del long_rows
    wide_rows = torch.rand(1024, 32768, device=dev) * 16 - 8
    case(results, "rows/softmax(A,1)/f32/1024x32768", lambda u: torch.softmax(u, 1), wide_rows)
    del wide_rows
    short_rows = torch.rand(1 << 20, 64, device=dev) * 16 - 8
    case(results, "rows/softmax(A,1)/f32/2^20x64", lambda u: torch.softmax(u, 1), short_rows)
    del short_rows
    mid = torch.rand(65536, 1024, device=dev) * 16 - 8
    case(results, "rows/softmax(A,1)/f32/65536x1024", lambda u: torch.softmax(u, 1), mid)
    w1, b1 = torch.rand(1024, device=dev) * 1.5 + 0.5, torch.rand(1024, device=dev) * 2 - 1
    case(results, "rows/layer_norm(A,1,w,b)/f32/65536x1024", lambda u, p, q: F.layer_norm(u, (1024,), p, q, 1e-5), mid, w1, b1)
    # Two outputs of two shared inputs (PyTorch allocates the outputs; its caching allocator reuses them).
    x, y = torch.rand(1 << 28, device=dev) * 2 - 1, torch.rand(1 << 28, device=dev) * 2 - 1
    case(results, "together/z1=x+y,z2=x*y-1/f32/2^28", lambda u, v: (u + v, u * v - 1), x, y)
    del x, y
    # Several reductions of the same elements, one call.
    x = torch.rand(100_000_000, device=dev) * 2 - 1
    case(results, "together/sum,sum(x*x),max/f32/1e8", lambda u: (u.sum(), (u * u).sum(), u.max()), x)
    del x
    a = torch.rand(side, side, device=dev) * 2 - 1
    case(results, "together/sum(A,1),max(A,1)/f32/8192^2", lambda u: (u.sum(1), u.amax(1)), a)
    case(results, "together/mean(A,0),var(A,0)/f32/8192^2", lambda u: torch.var_mean(u, 0, correction=0), a)
    # The general form: an expression using reductions of its own rows.
    def standardised(u):  # each case a lambda of its own: torch.compile caches per function
        return (u - u.mean(1, keepdim=True)) / torch.sqrt(u.var(1, keepdim=True, correction=0) + 1e-5)

    a = torch.rand(side, side, device=dev) * 7.5 + 0.5
    case(results, "general/x/sum(x,1,kd)/f32/8192^2", lambda u: u / u.sum(1, keepdim=True), a)
    case(results, "general/x-mean(x,1,kd)/f32/8192^2", lambda u: u - u.mean(1, keepdim=True), a)
    case(results, "general/x-mean(x,0,kd)/f32/8192^2", lambda u: u - u.mean(0, keepdim=True), a)
    case(results, "general/(x-mean)/sqrt(var+eps)/f32/8192^2", lambda u: standardised(u), a)
    w = torch.rand(1, side, device=dev) * 1.5 + 0.5
    b = torch.rand(1, side, device=dev) * 2 - 1
    case(results, "general/(x-mean)/sqrt(var+eps)*w+b/f32/8192^2", lambda u, p, q: standardised(u) * p + q, a, w, b)
    del a
    short = torch.rand(1 << 20, 64, device=dev) * 7.5 + 0.5
    case(results, "general/x-mean(x,1,kd)/f32/2^20x64", lambda u: u - u.mean(1, keepdim=True), short)
    del short
    mid = torch.rand(65536, 1024, device=dev) * 7.5 + 0.5
    case(results, "general/x/sum(x,1,kd)/f32/65536x1024", lambda u: u / u.sum(1, keepdim=True), mid)
    case(results, "general/(x-mean)/sqrt(var+eps)/f32/65536x1024", lambda u: standardised(u), mid)
    w1 = torch.rand(1, 1024, device=dev) * 1.5 + 0.5
    b1 = torch.rand(1, 1024, device=dev) * 2 - 1
    case(results, "general/(x-mean)/sqrt(var+eps)*w+b/f32/65536x1024", lambda u, p, q: standardised(u) * p + q, mid, w1, b1)
    del mid
    # An expression using a running sum.
    x = torch.rand(100_000_000, device=dev).mul(3).floor().sub(1)
    case(results, "general/x-cumsum(x)/n/f32/1e8", lambda u: u - torch.cumsum(u, 0) / u.shape[0], x)
    o = torch.empty_like(x)
    case(results, "compose/out.assign(cumsum(x))/f32/1e8", lambda u, v: torch.cumsum(u, 0, out=v), x, o)
    case(results, "compose/c=cumsum(x)/f32/1e8", lambda u: torch.cumsum(u, 0), x)
    del o
    del x
    a = torch.rand(side, side, device=dev).mul(3).floor().sub(1)
    case(results, "general/A-cumsum(A,1)/n/f32/8192^2", lambda u: u - torch.cumsum(u, 1) / side, a)
    case(results, "general/A-cumsum(A,0)/n/f32/8192^2", lambda u: u - torch.cumsum(u, 0) / side, a)
    del a
    with open(out_path, "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "results": results}, f, indent=1)
    for k, v in results.items():
        print(f"{k}: eager {v['eager_ms']:.4f} ms, compiled {v['compile_ms'] if v['compile_ms'] is None else round(v['compile_ms'], 4)} ms")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "torch_rows.json", sys.argv[2] if len(sys.argv) > 2 else None)
