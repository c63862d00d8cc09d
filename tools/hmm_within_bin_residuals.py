#!/usr/bin/env python3
"""Within-bin moment residuals of HMM state sets (why a within-bin moment fit
does not converge to Baum-Welch EM).

Usage: tools/hmm_within_bin_residuals.py TRACKS EM.json [HMM.json ...]
  TRACKS  comma-separated ChromHMM binarized files (.txt or .txt.gz) of one cell type
  EM.json `contrast-cli hmm --method em --json` (weights: stationary distribution of its
          transitions); HMM.json: `contrast-cli hmm --json` (its model.weights)
For every state set prints Σ (residual / SE)² over the mark means, the pairs a < b and the
triples a < b < c of the within-bin moments, SE = √(max(value, 1/N)/N) over the N bins (the
weighting of the moment refit; bins are treated as independent, so only the comparison between
rows is meaningful, not the absolute scale).
"""
import gzip
import itertools
import json
import math
import sys
from collections import Counter


def read_patterns(paths):
    counts, n, marks = Counter(), 0, None
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt") as f:
            f.readline()
            header = f.readline().split()
            marks = marks or header
            for line in f:
                counts[tuple(int(x) for x in line.split())] += 1
                n += 1
    return marks, {k: c / n for k, c in counts.items() if 2 not in k}, n


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    marks, pats, n = read_patterns(sys.argv[1].split(","))
    m = len(marks)
    orders = {1: list(itertools.combinations(range(m), 1)),
              2: list(itertools.combinations(range(m), 2)),
              3: list(itertools.combinations(range(m), 3))}
    target = {idx: sum(p * math.prod(x[i] for i in idx) for x, p in pats.items())
              for o in orders.values() for idx in o}

    def chi2(weights, emissions):
        out = []
        for o in (1, 2, 3):
            total = 0.0
            for idx in orders[o]:
                model = sum(w * math.prod(e[i] for i in idx) for w, e in zip(weights, emissions))
                se2 = max(abs(target[idx]), 1.0 / n) / n
                total += (model - target[idx]) ** 2 / se2
            out.append(total)
        return out

    em = json.load(open(sys.argv[2]))["model"]
    a = em["transitions"]
    pi = [1.0 / len(a)] * len(a)
    for _ in range(5000):
        pi = [sum(pi[i] * a[i][j] for i in range(len(a))) for j in range(len(a))]
    print(f"{'states':<40} {'means':>9} {'pairs':>9} {'triples':>9}")
    rows = [("EM " + sys.argv[2], pi, em["emissions"])]
    for path in sys.argv[3:]:
        model = json.load(open(path))["model"]
        rows.append((path, model["weights"], model["components"]))
    for name, w, e in rows:
        c = chi2(w, e)
        print(f"{name[-40:]:<40} {c[0]:9.1f} {c[1]:9.1f} {c[2]:9.1f}")


if __name__ == "__main__":
    main()
