#!/usr/bin/env python3
"""γ-path figures for the topics side: runs `contrast-cli sweep --json` over gamma 1..4 step 0.1
and prints the largest AUC drop between neighbouring gamma values, the number of gamma values with
no foreground-specific topic, and the best AUC.

Usage: gamma_path_figures.py CLI CORPUS [extra sweep options...]
(the foreground/background/positive rules are Reuters' USA vs economic indicators)."""
import json
import math
import subprocess
import sys

BG = ("gnp,cpi,trade,bop,money-supply,jobs,ipi,wpi,retail,housing,income,lei,reserves,"
      "instal-debt,interest,money-fx")


def main():
    cli, corpus, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    cmd = [cli, "sweep", "--corpus", corpus, "--fg", "places=usa", "--bg", "topics=" + BG,
           "--positive", "!topics=" + BG, "--gammas", "1:4:0.1", "--json"] + extra
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    data = json.loads(out)
    points = data["points"]
    aucs = [p["auc"] for p in points]
    drops = [aucs[i] - aucs[i + 1] for i in range(len(aucs) - 1)
             if not (math.isnan(aucs[i]) or math.isnan(aucs[i + 1]))]
    # Total variation of the AUC curve against its net change: a monotone curve has
    # total_variation == |net_change|; the excess is the zigzag (sawtooth) part.
    finite_seq = [a for a in aucs if not math.isnan(a)]
    total_variation = sum(abs(finite_seq[i + 1] - finite_seq[i]) for i in range(len(finite_seq) - 1))
    none = sum(1 for p in points if p["n_foreground_specific"] == 0)
    finite = [a for a in aucs if not math.isnan(a)]
    print(json.dumps({
        "command": " ".join(cmd),
        "points": len(points),
        "largest_drop": max(drops) if drops else float("nan"),
        "total_variation": total_variation,
        "zigzag": total_variation - (abs(finite_seq[-1] - finite_seq[0]) if finite_seq else 0.0),
        "gammas_without_fg_topic": none,
        "best_auc": max(finite) if finite else float("nan"),
        "best_relative_auc": max((p["relative_auc"] for p in points
                                  if not math.isnan(p["relative_auc"])), default=float("nan")),
        "baseline_auc": data.get("baseline_auc"),
        "sweep_ms": data["timings_ms"]["sweep"],
    }))


if __name__ == "__main__":
    main()
