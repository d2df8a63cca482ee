"""The statements of bench_dist.cu in cuPyNumeric, on the same GPU, for the comparison in
docs/performance.md: every operation is a Legate task and a pass over memory (no fusion).

    LEGATE_CONFIG="--gpus 1 --cpus 1 --fbmem 40000 --sysmem 4000" python3 cupynumeric_bench.py

Times come from legate.timing.time, which waits for the operations issued before it; each figure
is the median of several rounds of many statements, in milliseconds a statement.
"""
import statistics

import cupynumeric as np
from legate.timing import time


def per_call_ms(f, count, rounds=7):
    for _ in range(3):
        f()
    times = []
    for _ in range(rounds):
        start = time("us")
        for _ in range(count):
            f()
        stop = time("us")
        times.append((stop.value() - start.value()) / 1e3 / count)
    return statistics.median(times)


def main():
    n = 1 << 28
    rng = np.random.default_rng(7)
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    z = np.empty(n, dtype=np.float32)

    def squared_difference():
        np.multiply(x - y, x - y, out=z)

    def sum_of_squares():
        return np.sum((x - y) ** 2)

    side = 16384
    u = rng.random((side, side), dtype=np.float32)
    v = np.zeros((side, side), dtype=np.float32)

    def stencil():
        v[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])

    def heat(side, count):
        # The heat step of bench_dist.cu: stencil, update, change and two residuals.
        state = {"u": rng.random((side, side), dtype=np.float32)}
        state["next"] = state["u"].copy()
        lap = np.empty((side - 2, side - 2), dtype=np.float32)
        change = np.empty((side - 2, side - 2), dtype=np.float32)

        def step():
            u, nxt = state["u"], state["next"]
            lap[:] = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4.0 * u[1:-1, 1:-1]
            nxt[1:-1, 1:-1] = u[1:-1, 1:-1] + np.float32(0.2) * lap
            change[:] = nxt[1:-1, 1:-1] - u[1:-1, 1:-1]
            largest = np.max(np.abs(change))
            energy = np.sum(change * change)
            state["u"], state["next"] = nxt, u
            return largest, energy

        return per_call_ms(step, count)

    small = np.zeros(4096, dtype=np.float32)

    def small_statement():
        small[:] = small + 1.0

    print("| statement (2^28 float32 unless said) | cuPyNumeric ms |")
    print("|---|---|")
    print(f"| z = (x - y) * (x - y) | {per_call_ms(squared_difference, 20):.4f} |")
    print(f"| sum((x - y)**2) | {per_call_ms(sum_of_squares, 20):.4f} |")
    print(f"| 5-point stencil step, 16384^2 | {per_call_ms(stencil, 10):.4f} |")
    for side in (16384, 4096, 1024, 512):
        print(f"| heat step, 5 statements, {side}^2 float32 | {heat(side, 10 if side >= 16384 else 100):.4f} |")
    print(f"| one statement over 4096 float32 (us) | {per_call_ms(small_statement, 1000, 5) * 1e3:.2f} |")
    print(f"| check: sum((x-y)^2) = {float(sum_of_squares()):.6g} | |")


if __name__ == "__main__":
    main()
