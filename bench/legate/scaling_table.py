"""Scaling tables from the output of bench_scaling.cu and cupynumeric_scaling.py.

    python3 scaling_table.py scaling.md > tables.md

The input holds "== weak, 4 GPUs: xfuse" headers, each followed by lines
"| weak | 4 GPUs | statement | size | 1.2345 ms |". Weak-scaling efficiency on G GPUs is
t(1) / t(G) (the same work a GPU); strong-scaling efficiency is t(1) / (G t(G)) (the same total).
"""
import re
import sys
from collections import defaultdict

HEADER = re.compile(r"^== (weak|strong), (\d+) GPUs: (.+)$")
ROW = re.compile(r"^\| (weak|strong) \| (\d+) GPUs \| ([^|]+?) \| ([^|]+?) \| ([0-9.]+) ms \|$")


def read(path):
    times = defaultdict(dict)  # (mode, library, statement) -> {gpus: ms}
    sizes = {}
    order = []
    library = None
    for line in open(path):
        line = line.rstrip("\n")
        header = HEADER.match(line)
        if header:
            library = header.group(3)
            continue
        row = ROW.match(line)
        if row and library:
            mode, gpus, statement, size, ms = row.groups()
            key = (mode, library, statement)
            times[key][int(gpus)] = float(ms)
            sizes[(mode, statement, int(gpus))] = size
            if (mode, statement) not in order:
                order.append((mode, statement))
    return times, sizes, order


def efficiency(mode, t1, tg, gpus):
    return t1 / tg if mode == "weak" else t1 / (gpus * tg)


def main():
    times, sizes, order = read(sys.argv[1])
    libraries = sorted({key[1] for key in times}, key=lambda name: name != "xfuse")
    for mode in ("weak", "strong"):
        statements = [s for m, s in order if m == mode]
        if not statements:
            continue
        gpu_counts = sorted({g for key, by in times.items() if key[0] == mode for g in by})
        print(f"\n### {mode.capitalize()} scaling\n")
        head = ["statement"]
        for library in libraries:
            head += [f"{library} ms ({g} GPU{'s' if g > 1 else ''})" for g in gpu_counts]
            head += [f"{library} efficiency ({g})" for g in gpu_counts if g > 1]
        head += [f"xfuse / {other} ({g})" for other in libraries if other != "xfuse" for g in gpu_counts]
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for statement in statements:
            cells = [statement]
            for library in libraries:
                by = times.get((mode, library, statement), {})
                cells += [f"{by[g]:.3f}" if g in by else "" for g in gpu_counts]
                cells += [f"{efficiency(mode, by[1], by[g], g):.3f}" if 1 in by and g in by else "" for g in gpu_counts if g > 1]
            mine = times.get((mode, "xfuse", statement), {})
            for other in libraries:
                if other == "xfuse":
                    continue
                theirs = times.get((mode, other, statement), {})
                cells += [f"{theirs[g] / mine[g]:.2f}x" if g in mine and g in theirs else "" for g in gpu_counts]
            print("| " + " | ".join(cells) + " |")
        print("\nSizes: " + "; ".join(
            f"{s}: " + ", ".join(f"{sizes[(mode, s, g)]} on {g}" for g in gpu_counts if (mode, s, g) in sizes)
            for s in statements))


if __name__ == "__main__":
    main()
