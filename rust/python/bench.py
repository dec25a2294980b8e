"""Calls per second of gcn_vmem_model.eval, one call per input against one batch call
(eval_batch: a list of dicts, or a dict of columns), per unit; `make python-bench`.

Inputs are generated first (not timed), random but inside every field's range; each form is timed
over the same inputs and must give the same answers."""

import argparse
import random
import sys
import time

import gcn_vmem_model as g

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent / "tests"))
from test_eval import random_input  # noqa: E402  (the tests' generator of valid inputs)


def rate(n, f, repeats=3):
    """Inputs per second of `f`, the best of `repeats` runs (the machine is shared), and its result."""
    best = 0.0
    for _ in range(repeats):
        t = time.perf_counter()
        result = f()
        best = max(best, n / (time.perf_counter() - t))
    return best, result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200000, help="inputs per unit")
    ap.add_argument("--unit", action="append", help="units (default: buffer_addr, swizzle, format_unpack)")
    args = ap.parse_args()
    units = args.unit or ["buffer_addr", "swizzle", "format_unpack"]
    print("inputs/s, best of 3: one eval call per input; one eval_batch call with a list of dicts (rows)"
          " or a dict of lists (columns)")
    print(f"{'unit':<14} {'inputs':>8} {'single':>10} {'rows':>10} {'columns':>10} {'rows/single':>12} {'columns/single':>15}")
    for unit in units:
        rng = random.Random(1)
        inputs = [random_input(unit, rng) for _ in range(args.n)]
        columns = {f: [i[f] for i in inputs] for f in g.fields(unit)}
        single, a = rate(args.n, lambda: [g.eval(unit, i) for i in inputs])
        rows, b = rate(args.n, lambda: g.eval_batch(unit, inputs))
        cols, c = rate(args.n, lambda: g.eval_batch(unit, columns))
        assert a == b and all(c[k] == [o.get(k) for o in a] for k in c), unit
        print(f"{unit:<14} {args.n:>8} {single:>10,.0f} {rows:>10,.0f} {cols:>10,.0f} {rows / single:>12.2f} "
              f"{cols / single:>15.2f}")


if __name__ == "__main__":
    main()
