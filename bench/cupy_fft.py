"""bench_fft.cu's cases in CuPy and PyTorch on the same GPU, same run: cupy.fft (its plan cache
warm), cupyx.scipy.signal.fftconvolve, torch.fft; CUDA-event medians, written as JSON."""
import json
import sys

import cupy as cp
import cupyx.scipy.signal as signal

from cupy_elementwise import median_ms

try:
    import torch
    from torch_elementwise import median_ms as torch_median_ms
except ImportError:  # PyTorch is optional
    torch = None


def torch_ms(fn):
    return torch_median_ms(fn, reps=21)


def main(out_path):
    results = {}
    n = 1 << 26
    x = cp.random.uniform(-1, 1, n).astype(cp.float32)
    results["fft/rfft/2^26/f32"] = {"cupy_ms": median_ms(lambda: cp.fft.rfft(x), reps=21)}
    side = 4096
    img = cp.random.uniform(-1, 1, (side, side)).astype(cp.float32)
    results["fft/rfft2/4096^2/f32"] = {"cupy_ms": median_ms(lambda: cp.fft.rfft2(img), reps=21)}
    results["fft/rfft/4096^2-rows/f32"] = {"cupy_ms": median_ms(lambda: cp.fft.rfft(img), reps=21)}
    rows = cp.random.uniform(-1, 1, (16384, side)).astype(cp.complex64)
    results["fft/abs(fft(x))^2/16384x4096/c64"] = {"cupy_ms": median_ms(lambda: cp.abs(cp.fft.fft(rows)) ** 2, reps=21)}
    half = side // 2 + 1
    for name, shape in (("H-row", (1, half)), ("H-full", (side, half))):
        H = cp.random.uniform(-1, 1, shape).astype(cp.complex64)
        results[f"fft/irfft(rfft(x)*H)/4096^2/{name}/f32"] = {
            "cupy_ms": median_ms(lambda: cp.fft.irfft(cp.fft.rfft(img) * H), reps=21)}
    H2 = cp.random.uniform(-1, 1, (side, half)).astype(cp.complex64)
    results["fft/irfft2(rfft2(x)*H)/4096^2/f32"] = {"cupy_ms": median_ms(lambda: cp.fft.irfft2(cp.fft.rfft2(img) * H2), reps=21)}
    xc = img.astype(cp.complex64)
    w = cp.random.uniform(0, 1, side).astype(cp.float32)
    results["fft/fft(x*w)/4096^2/c64"] = {"cupy_ms": median_ms(lambda: cp.fft.fft(xc * w), reps=21)}
    image = cp.random.uniform(-1, 1, (2048, 2048))
    kernel = cp.random.uniform(-1, 1, (255, 255))
    results["fft/fftconvolve/2048^2*255^2/f64"] = {"cupy_ms": median_ms(lambda: signal.fftconvolve(image, kernel), reps=21)}
    if torch is not None:
        tx = torch.as_tensor(x, device="cuda")
        results["fft/rfft/2^26/f32"]["torch_ms"] = torch_ms(lambda: torch.fft.rfft(tx))
        timg = torch.as_tensor(img, device="cuda")
        results["fft/rfft2/4096^2/f32"]["torch_ms"] = torch_ms(lambda: torch.fft.rfft2(timg))
        results["fft/rfft/4096^2-rows/f32"]["torch_ms"] = torch_ms(lambda: torch.fft.rfft(timg))
        trows = torch.as_tensor(rows, device="cuda")
        results["fft/abs(fft(x))^2/16384x4096/c64"]["torch_ms"] = torch_ms(lambda: torch.abs(torch.fft.fft(trows)) ** 2)
        compiled_filter = torch.compile(lambda a, h: torch.fft.irfft(torch.fft.rfft(a) * h))
        for name, shape in (("H-row", (1, half)), ("H-full", (side, half))):
            tH = torch.rand(shape, device="cuda", dtype=torch.complex64)
            key = f"fft/irfft(rfft(x)*H)/4096^2/{name}/f32"
            results[key]["torch_ms"] = torch_ms(lambda: torch.fft.irfft(torch.fft.rfft(timg) * tH))
            try:
                compiled_filter(timg, tH)
                results[key]["torch_compile_ms"] = torch_ms(lambda: compiled_filter(timg, tH))
            except Exception as e:  # torch.compile is optional too
                print(f"torch.compile failed for {key}: {e}")
        tH2 = torch.rand((side, half), device="cuda", dtype=torch.complex64)
        key = "fft/irfft2(rfft2(x)*H)/4096^2/f32"
        results[key]["torch_ms"] = torch_ms(lambda: torch.fft.irfft2(torch.fft.rfft2(timg) * tH2))
        compiled_filter2 = torch.compile(lambda a, h: torch.fft.irfft2(torch.fft.rfft2(a) * h))
        try:
            compiled_filter2(timg, tH2)
            results[key]["torch_compile_ms"] = torch_ms(lambda: compiled_filter2(timg, tH2))
        except Exception as e:
            print(f"torch.compile failed for {key}: {e}")
        txc = timg.to(torch.complex64)
        tw = torch.as_tensor(w, device="cuda")
        results["fft/fft(x*w)/4096^2/c64"]["torch_ms"] = torch_ms(lambda: torch.fft.fft(txc * tw))
    meta = {"cupy": cp.__version__, "torch": torch.__version__ if torch else None,
            "device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode()}
    with open(out_path, "w") as f:
        json.dump({"meta": meta, "results": results}, f, indent=1)
    for key, r in results.items():
        print(f"{key:45s} " + " ".join(f"{k}={v:.4g}" for k, v in r.items()))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "cupy_fft.json")
