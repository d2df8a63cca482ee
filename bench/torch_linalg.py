"""bench_linalg.cu's product epilogues in PyTorch on the same GPU, same run: eager and torch.compile,
CUDA-event medians, written as JSON keyed like the C++ cases (matmul/epilogue/TYPE/N/ACT, ACT 0 relu,
1 gelu tanh form, 2 bias only), each into a preallocated array (out.copy_) as the C++ cases write,
and the plain product into a preallocated array (torch.matmul(..., out=)) as the baseline."""
import json
import sys

import torch

import torch_elementwise


def main(out_path):
    dev = "cuda"
    results = {}
    F = torch.nn.functional
    acts = {0: lambda x: torch.relu(x), 1: lambda x: F.gelu(x, approximate="tanh"), 2: lambda x: x}
    for dtype, name, sizes in ((torch.float32, "f32", (4096,)), (torch.bfloat16, "bf16", (4096,))):
        for n in sizes:
            a = (torch.rand(n, n, device=dev) * 2 - 1).to(dtype)
            b = (torch.rand(n, n, device=dev) * 2 - 1).to(dtype)
            bias = (torch.rand(n, device=dev) * 2 - 1).to(dtype)
            out = torch.empty(n, n, device=dev, dtype=dtype)
            plain = torch_elementwise.median_ms(lambda: torch.matmul(a, b, out=out))
            for act, f in acts.items():
                key = f"matmul/epilogue/{name}/{n}/{act}"
                torch_elementwise.case(results, key, lambda u, v, q, o, f=f: o.copy_(f(u @ v + q)), a, b, bias, out)
                results[key]["plain_matmul_ms"] = plain
            del a, b, out
    with open(out_path, "w") as fh:
        json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                   "tf32": torch.backends.cuda.matmul.allow_tf32, "results": results}, fh, indent=1)
    for k, v in results.items():
        print(k, v)


if __name__ == "__main__":
    main(sys.argv[1])
