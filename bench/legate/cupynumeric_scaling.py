"""The statements of bench_scaling.cu in cuPyNumeric, on the same GPUs and shapes, for the scaling
comparison in docs/performance.md: every operation is a Legate task and a pass over memory.

    LEGATE_CONFIG="--gpus 4 --cpus 1 --fbmem 60000 --sysmem 4000" python3 cupynumeric_scaling.py [weak|strong] [log2 size]

Times come from legate.timing.time, which waits for the operations issued before it; each figure
is the median of several rounds of many statements, in milliseconds a statement, printed in the
same lines as bench_scaling.cu.
"""
import statistics
import sys

import cupynumeric as np
from legate.core import TaskTarget, get_machine
from legate.timing import time


def per_call_ms(f, count, rounds, warmups=2):
    for _ in range(warmups):
        f()
    times = []
    for _ in range(rounds):
        start = time("us")
        for _ in range(count):
            f()
        stop = time("us")
        times.append((stop.value() - start.value()) / 1e3 / count)
    return statistics.median(times)


def elements(n):
    bits = n.bit_length() - 1
    return f"2^{bits} float32" if 1 << bits == n else f"{n} float32"


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "weak"
    weak = mode != "strong"
    gpus = max(1, get_machine().count(TaskTarget.GPU))
    log2_size = int(sys.argv[2]) if len(sys.argv) > 2 else (28 if weak else 30)
    base = 1 << log2_size
    n = base * gpus if weak else base
    side = 1 << (log2_size // 2)
    rng = np.random.default_rng(7)

    def row(statement, size, ms):
        print(f"| {mode} | {gpus} GPUs | {statement} | {size} | {ms:.4f} ms |", flush=True)

    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    z = np.empty(n, dtype=np.float32)

    def squared_difference():
        np.multiply(x - y, x - y, out=z)

    def sum_of_squares():
        return np.sum((x - y) ** 2)

    row("z = (x - y) * (x - y)", elements(n), per_call_ms(squared_difference, 20, 7))
    row("sum((x - y)**2)", elements(n), per_call_ms(sum_of_squares, 20, 7))
    print(f"|   check: sum((x - y)**2) / (n / 6) = {float(sum_of_squares()) / (n / 6):.5f} | | | | |")
    del x, y, z

    columns = min(4096, n)
    rows = n // columns
    a = rng.random((rows, columns), dtype=np.float32) * 8 - 4

    def softmax():
        e = np.exp(a - a.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    row("y = softmax(x, axis=1)", f"{rows} x {columns} float32", per_call_ms(softmax, 10, 7))
    print(f"|   check: every row of softmax sums to 1: max |sum - 1| = {float(np.abs(softmax().sum(axis=1) - 1).max()):.3g} | | | | |")
    del a

    rows = n // side
    u = rng.random((rows, side), dtype=np.float32)
    v = np.zeros((rows, side), dtype=np.float32)

    def stencil():
        v[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])

    row("5-point stencil step", f"{rows} x {side} float32", per_call_ms(stencil, 10, 7))
    del u, v

    rows = side * gpus if weak else side
    p = rng.random((rows, side), dtype=np.float32)
    q = rng.random((side, side), dtype=np.float32)
    ms = per_call_ms(lambda: p @ q, 1, 3, 1)
    row("c = a @ b", f"{rows} x {side} @ {side} x {side} float32", ms)
    flops = 2.0 * rows * side * side / ms * 1e-9
    print(f"|   {flops:.1f} TFLOP/s in all, {flops / gpus:.1f} a GPU | | | | |")


if __name__ == "__main__":
    main()
