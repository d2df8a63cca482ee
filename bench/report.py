#!/usr/bin/env python3
"""The benchmark report of one run folder: report.md (summarize.py's tables, then the headline
table of xfuse against CuPy, PyTorch eager, torch.compile, the unfused chain and the copy limit)
and report.png (the same as a chart; needs matplotlib, otherwise skipped with a message).
Usage: report.py RUN_DIR"""
import json
import pathlib
import subprocess
import sys

run = pathlib.Path(sys.argv[1])
here = pathlib.Path(__file__).resolve().parent


def load(name):
    p = run / name
    return json.loads(p.read_text()) if p.exists() else None


gb = load("bench_elementwise.json")
cupy = (load("cupy_elementwise.json") or {}).get("results", {})
torch = (load("torch_elementwise.json") or {}).get("results", {})
red = load("bench_reduce.json")
cupy_red = (load("cupy_reduce.json") or {}).get("results", {})

# Headline cases: name -> (ms, bytes, unfused ms) from the C++ run.
rows = []
copy = None
for suite in (gb, red):
    for b in (suite or {}).get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration" or "GBps" not in b or b.get("ms", 0) <= 0:
            continue
        name = "/".join(b["name"].split("/iterations")[0].split("/")[:4])
        if not name.startswith(("contiguous/", "strided/", "broadcast/", "random/x+", "reduce/sum(x*y)")):
            continue
        copy = copy or b.get("copy_GBps")
        nbytes = b["GBps"] * b["ms"] * 1e6
        c = cupy.get(name, {}) if suite is gb else cupy_red.get(name, {})
        t = torch.get(name, {})
        rows.append({"case": name, "bytes": nbytes, "xfuse": b["ms"], "unfused": b.get("unfused_ms"),
                     "cupy": c.get("fused_ms", c.get("ms")), "cupy_unfused": c.get("unfused_ms"),
                     "torch": t.get("eager_ms"), "compile": t.get("compile_ms")})

lines = [subprocess.run([sys.executable, str(here / "summarize.py"), str(run)], capture_output=True, text=True).stdout]
if rows:
    def gbps(r, k):
        return None if r.get(k) is None else r["bytes"] / (r[k] * 1e6)

    def cell(r, k):
        g = gbps(r, k)
        return "" if g is None else f"{g:.0f} ({g / copy:.2f})" if copy else f"{g:.0f}"

    lines.append(f"\n## Headline: GB/s (fraction of the {copy:.0f} GB/s copy), higher is better\n" if copy else "\n## Headline: GB/s\n")
    lines.append("| case | xfuse | xfuse unfused chain | CuPy cp.fuse | CuPy unfused | PyTorch eager | torch.compile | xfuse vs best other |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        others = [r[k] for k in ("cupy", "cupy_unfused", "torch", "compile") if r.get(k)]
        best = min(others) if others else None
        ratio = "" if best is None else f"{best / r['xfuse']:.2f}x"
        lines.append(f"| {r['case']} | {cell(r, 'xfuse')} | {cell(r, 'unfused')} | {cell(r, 'cupy')} | {cell(r, 'cupy_unfused')} | "
                     f"{cell(r, 'torch')} | {cell(r, 'compile')} | {ratio} |")
(run / "report.md").write_text("\n".join(lines) + "\n")
print(f"wrote {run / 'report.md'}")

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is not installed: report.png skipped (pip install matplotlib; rerun report.py on the folder)")
    sys.exit(0)
if rows:
    series = [("xfuse", "xfuse"), ("unfused", "xfuse unfused"), ("cupy", "CuPy cp.fuse"), ("cupy_unfused", "CuPy unfused"),
              ("torch", "PyTorch eager"), ("compile", "torch.compile")]
    fig, ax = plt.subplots(figsize=(max(8, 1.6 * len(rows)), 5))
    width = 0.8 / len(series)
    for i, (k, label) in enumerate(series):
        xs = [j + (i - len(series) / 2) * width + width / 2 for j in range(len(rows))]
        ax.bar(xs, [r["bytes"] / (r[k] * 1e6) if r.get(k) else 0 for r in rows], width, label=label)
    if copy:
        ax.axhline(copy, color="black", linestyle="--", linewidth=1, label="device copy")
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([r["case"].replace("/", "\n", 1) for r in rows], fontsize=7)
    ax.set_ylabel("GB/s (bytes the expression must move / time)")
    env = (run / "environment.txt").read_text().splitlines() if (run / "environment.txt").exists() else []
    ax.set_title("xfuse against CuPy and PyTorch, same GPU, same run" + (f" ({env[-1].split(',')[0]})" if env else ""))
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    fig.savefig(run / "report.png", dpi=110)
    print(f"wrote {run / 'report.png'}")
