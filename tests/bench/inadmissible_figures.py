#!/usr/bin/env python3
"""Inadmissible topic weights along gamma: runs `contrast-cli sweep --json` over
gamma 1..8 step 0.1 and counts the grid points with a component whose weight lies outside
[-gamma, 1] (`admissible` false), of them the points where a foreground-specific component is
inadmissible, and the points without any admissible foreground-specific topic.

Usage: inadmissible_figures.py CLI CORPUS [extra sweep options, e.g. --k 10 --bootstrap 20...]
(the foreground/background/positive rules are Reuters' USA vs economic indicators, as in
gamma_path_figures.py)."""
import json
import subprocess
import sys

BG = ("gnp,cpi,trade,bop,money-supply,jobs,ipi,wpi,retail,housing,income,lei,reserves,"
      "instal-debt,interest,money-fx")


def main():
    cli, corpus, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    cmd = [cli, "sweep", "--corpus", corpus, "--fg", "places=usa", "--bg", "topics=" + BG,
           "--positive", "!topics=" + BG, "--gammas", "1:8:0.1", "--json"] + extra
    data = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    points = data["points"]
    any_bad, fg_bad, above_one, below, no_fg = [], [], [], [], []
    for p in points:
        comps = p["components"]
        bad = [c for c in comps if not c["admissible"]]
        if bad:
            any_bad.append(p["gamma"])
        if any(c["foreground_specific"] for c in bad):
            fg_bad.append(p["gamma"])
        if any(c["weight"] > 1 for c in bad):
            above_one.append(p["gamma"])
        if any(c["weight"] < -p["gamma"] for c in bad):
            below.append(p["gamma"])
        fg = [c for c in comps if c["foreground_specific"]]
        if fg and not any(c["admissible"] for c in fg):
            no_fg.append(p["gamma"])
    largest = max((c["weight"] for p in points for c in p["components"]), default=float("nan"))
    print(json.dumps({
        "command": " ".join(cmd),
        "points": len(points),
        "with_inadmissible": len(any_bad),
        "with_inadmissible_foreground": len(fg_bad),
        "with_weight_above_one": len(above_one),
        "with_weight_below_minus_gamma": len(below),
        "without_admissible_foreground_topic": len(no_fg),
        "largest_weight": largest,
        "inadmissible_gammas": [round(g, 2) for g in any_bad],
    }))


if __name__ == "__main__":
    main()
