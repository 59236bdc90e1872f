#!/usr/bin/env python3
"""Reference values for lib/eval/stats.ts, computed with SciPy and NumPy.

    python3 scripts/eval/wilcoxon-reference.py   # rewrites lib/eval/fixtures/wilcoxon-reference.json

The TypeScript test (lib/eval/stats.test.ts) reads the fixture and must agree to 1e-6, so the
app's statistics are checked against the library the paper's numbers are quoted against.
The cases are fixed here (the random ones from a fixed seed); commit both files.

With tie correction: SciPy's wilcoxon(x, y, zero_method="wilcox", correction=False,
method="approx") itself. Without tie correction (the switch the paper's table needs) SciPy has
no option, so the same normal approximation is computed here from scipy.stats.rankdata without
the tie term of the variance.
"""
import json
import math
import pathlib

import numpy as np
import scipy
from scipy import stats

OUT = pathlib.Path(__file__).resolve().parents[2] / "lib" / "eval" / "fixtures" / "wilcoxon-reference.json"


def case(name, x, y):
    return {"name": name, "x": [float(v) for v in x], "y": [float(v) for v in y]}


def cases():
    rng = np.random.default_rng(20250331)
    out = [
        # The paper's shape: every one of 12 raters scored system B higher (W = 0, n = 12).
        case("paper n=12 W=0 with ties", [3, 3, 2, 3, 3, 2, 3, 3, 2, 3, 3, 3], [4, 5, 4, 4, 5, 4, 4, 5, 4, 4, 4, 5]),
        case("n=12 W=0 distinct differences", [0] * 12, list(range(1, 13))),
        case("n=1", [4], [2]),
        case("n=2 mixed signs", [4, 2], [2, 3]),
        case("n=3", [5, 3, 4], [4, 4, 1]),
        case("n=4 ties", [4, 4, 3, 5], [3, 3, 4, 4]),
        case("n=5 mixed", [1, 5, 3, 4, 2], [2, 3, 3.5, 1, 4]),
        case("zero differences dropped", [3, 4, 4, 5, 2, 3, 4, 1], [3, 4, 2, 3, 2, 5, 5, 1]),
        case("all differences tied", [2, 2, 2, 2, 2], [3, 3, 3, 3, 3]),
        case("tied magnitudes, mixed signs", [1, 3, 1, 3, 1, 3], [2, 2, 2, 2, 2, 2]),
        case("likert 1-5, 15 raters", [3, 4, 2, 5, 3, 3, 4, 2, 3, 4, 3, 2, 4, 3, 3], [4, 4, 3, 5, 4, 2, 5, 4, 4, 4, 5, 3, 3, 4, 5]),
        case("fractional values", [0.5, 1.25, 2.75, 3.0, 4.5, 0.1], [0.4, 1.5, 2.0, 3.25, 4.0, 0.35]),
    ]
    for n in (20, 40, 60):
        x = rng.integers(1, 6, n)
        y = np.clip(x + rng.integers(-2, 3, n), 1, 5)
        out.append(case(f"random likert n={n}", x, y))
    x = rng.normal(0, 1, 50).round(3)
    out.append(case("random normal n=50", x, (x + rng.normal(0.3, 1, 50)).round(3)))
    return out


def uncorrected(x, y):
    d = np.asarray(x) - np.asarray(y)
    d = d[d != 0]
    n = len(d)
    r = stats.rankdata(np.abs(d))
    r_plus = float(r[d > 0].sum())
    z = -abs((r_plus - n * (n + 1) / 4) / math.sqrt(n * (n + 1) * (2 * n + 1) / 24))
    return {"z": z, "p": float(2 * stats.norm.sf(abs(z))), "r": z / math.sqrt(n)}


def reference(c):
    x, y = np.asarray(c["x"]), np.asarray(c["y"])
    n = int(np.count_nonzero(x - y))
    res = stats.wilcoxon(x, y, zero_method="wilcox", correction=False, method="approx")
    z = float(res.zstatistic)
    return {
        **c,
        "n": n,
        "W": float(res.statistic),
        "tieCorrected": {"z": z, "p": float(res.pvalue), "r": z / math.sqrt(n)},
        "uncorrected": uncorrected(x, y),
    }


def quantiles():
    samples = [[3], [1, 2], [4, 1, 3], [5, 3, 4, 4, 2, 1], [2.5, 7, 1, 9, 4, 4, 6], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]]
    return [
        {"values": s, "median": float(np.median(s)), "q1": float(np.quantile(s, 0.25)), "q3": float(np.quantile(s, 0.75))}
        for s in samples
    ]


def main():
    doc = {
        "generator": "scripts/eval/wilcoxon-reference.py",
        "scipy": scipy.__version__,
        "numpy": np.__version__,
        "wilcoxon": [reference(c) for c in cases()],
        "quantiles": quantiles(),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(doc, indent=2) + "\n")
    print(f"wrote {len(doc['wilcoxon'])} Wilcoxon cases and {len(doc['quantiles'])} quantile cases to {OUT}")


if __name__ == "__main__":
    main()
