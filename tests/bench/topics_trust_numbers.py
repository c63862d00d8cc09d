#!/usr/bin/python3
"""The topics trust numbers for one contrast: the γ range the app stands behind, the AUC jumps over
it, precision of the top documents of each foreground-specific topic at the suggested γ, and
NPMI per topic against scikit-learn's LDA on the same document-term matrix.

    /usr/bin/python3 tests/bench/topics_trust_numbers.py --cli build-asan/app/contrast-cli \
        --corpus ../shared/data/reuters21578 --k 10

Steps (every number comes from contrast-cli except LDA's):
  1. `contrast-cli sweep … --json`: per grid γ the AUC, whether the app stands behind it and
     why not; the suggested γ (suggestions.best_gamma). Jumps: |ΔAUC| between neighbouring grid
     points that are both stood behind.
  2. `contrast-cli topics … --gamma BEST --top-docs 20`: precision of each foreground-specific
     topic's 20 documents against the foreground-only label "carries none of the background's
     topics" (every background document carries one, so only foreground documents can).
  3. `contrast-cli convert` (the same reader options) and scikit-learn's
     LatentDirichletAllocation with K topics on the foreground documents of that matrix; NPMI of
     the 10 most probable words of every topic (ours and LDA's) with contrast-cli's definition
     (document co-occurrence over every document of the corpus; a pair never together counts −1).
Needs Debian's python3-sklearn (/usr/bin/python3).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import scipy.sparse as sp

ECON = ("gnp,cpi,trade,bop,money-supply,jobs,ipi,wpi,retail,housing,income,lei,reserves,"
        "instal-debt,interest,money-fx")


def run(cli, *args):
    out = subprocess.run([cli, *args], check=True, capture_output=True, text=True)
    return out.stdout


def read_tsv(path):
    rows = [line.rstrip("\n").split("\t") for line in open(path, encoding="utf-8")]
    return rows[0], rows[1:]


def npmi(binary, words):
    """contrast-cli's npmiCoherence: mean NPMI over the pairs of `words` (binary: docs × vocab)."""
    n = binary.shape[0]
    cols = binary[:, words].toarray().astype(bool)
    values = []
    for a in range(len(words)):
        for b in range(a + 1, len(words)):
            pa, pb = cols[:, a].sum() / n, cols[:, b].sum() / n
            pab = (cols[:, a] & cols[:, b]).sum() / n
            if pab <= 0:
                values.append(-1.0)
            elif pab >= 1:
                values.append(1.0)
            else:
                values.append(np.log(pab / (pa * pb)) / -np.log(pab))
    return float(np.mean(values))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--fg", default="places=usa")
    parser.add_argument("--bg-topics", default=ECON, help="background: stories with one of these topics")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gammas", default="0:10:0.25")
    parser.add_argument("--top-docs", type=int, default=20)
    parser.add_argument("--lda-iterations", type=int, default=20)
    parser.add_argument("--bootstrap", type=int, default=0, help="sweep's --bootstrap (0 = none)")
    parser.add_argument("--no-split-half", action="store_true", help="sweep's --no-split-half")
    parser.add_argument("--no-lda", action="store_true", help="skip step 3")
    parser.add_argument("--reader", default="--drop-numbers --max-df 0.5",
                        help="reader options, as one string (the demo's)")
    args = parser.parse_args()
    reader = args.reader.split()
    bg = "topics=" + args.bg_topics
    positive = "!" + bg
    model = ["--corpus", args.corpus, *reader, "--fg", args.fg, "--bg", bg, "--k", str(args.k),
             "--seed", str(args.seed), "--decomposition", "pencil"]
    work = tempfile.mkdtemp(prefix="cx_trust_")

    # 1. The sweep: trusted γ, reasons, jumps.
    boot = ["--bootstrap", str(args.bootstrap)] if args.bootstrap > 0 else []
    boot += ["--no-split-half"] if args.no_split_half else []
    sweep = json.loads(run(args.cli, "sweep", *model, "--positive", positive, "--gammas", args.gammas, *boot,
                           "--out", os.path.join(work, "sweep"), "--json"))
    points = sweep["points"]
    best = sweep["suggestions"]["best_gamma"]
    trusted = [p for p in points if p.get("trusted")]
    print(f"corpus {args.corpus}  fg {args.fg}  bg {bg}  K {args.k}  seed {args.seed}  grid {args.gammas}"
          f"  bootstrap {args.bootstrap}  split-half {'off' if args.no_split_half else 'on'}")
    print(f"points {len(points)}, stood behind {len(trusted)}; suggested γ {best}")
    reasons = {}
    for p in points:
        if not p.get("trusted"):
            for reason in p.get("not_trusted_because", "").split("; "):
                key = reason.split(" (")[0].split(":")[0]
                key = " ".join(w for w in key.split() if not (w.startswith("T") and w[1:].isdigit()))
                reasons.setdefault(key, []).append(p["gamma"])
    for key, gammas in reasons.items():
        print(f"  not stood behind: {key}: {len(gammas)} γ ({', '.join(f'{g:g}' for g in gammas)})")
    jumps = []
    for a, b in zip(points, points[1:]):
        if a.get("trusted") and b.get("trusted"):
            jumps.append((abs(b["auc"] - a["auc"]), a["gamma"], b["gamma"]))
    across = []
    for a, b in zip(trusted, trusted[1:]):
        across.append((abs(b["auc"] - a["auc"]), a["gamma"], b["gamma"]))
    untrusted_jumps = [(abs(b["auc"] - a["auc"]), a["gamma"], b["gamma"]) for a, b in zip(points, points[1:])
                       if np.isfinite(a["auc"]) and np.isfinite(b["auc"])]
    if jumps:
        j = max(jumps)
        print(f"  largest |ΔAUC| between neighbouring grid γ both stood behind: {j[0]:.3f} ({j[1]:g} → {j[2]:g}); "
              f"{sum(1 for x in jumps if x[0] > 0.05)} of {len(jumps)} pairs above 0.05")
    positive = [x for x in jumps if x[1] > 0]
    if positive:
        j = max(positive)
        print(f"  … among γ > 0 (without the step from γ = 0, where the contrast switches on): {j[0]:.3f} "
              f"({j[1]:g} → {j[2]:g}); {sum(1 for x in positive if x[0] > 0.05)} of {len(positive)} pairs above 0.05")
    if across:
        j = max(across)
        print(f"  largest |ΔAUC| between consecutive stood-behind γ (across shaded gaps): {j[0]:.3f} ({j[1]:g} → {j[2]:g})")
    if untrusted_jumps:
        j = max(untrusted_jumps)
        print(f"  largest |ΔAUC| between any neighbouring grid γ: {j[0]:.3f} ({j[1]:g} → {j[2]:g})")
    # A stricter split-half rule, for comparison (not the app's): every foreground-specific
    # component needs its own significant positive direction (n_fg <= significant_positive).
    strict = [p for p in points if p.get("trusted") and "significant_positive" in p
              and p["n_foreground_specific"] <= p["significant_positive"]]
    strict_jumps = [(abs(b["auc"] - a["auc"]), a["gamma"], b["gamma"]) for a, b in zip(points, points[1:])
                    if a in strict and b in strict]
    if strict_jumps:
        j = max(strict_jumps)
        print(f"  stricter rule (n_fg <= significant positive directions): {len(strict)} γ stood behind; "
              f"largest |ΔAUC| between neighbours both kept {j[0]:.3f} ({j[1]:g} → {j[2]:g})")
    # With a bootstrap: a rule the app does not have yet, for comparison — a foreground-specific
    # component whose weight band reaches 0 (its sign is not determined) is not stood behind.
    if args.bootstrap > 0:
        def sign_determined(p):
            return all(c.get("weight_lo") is None or c["weight_lo"] > 0
                       for c in p.get("components", []) if c.get("foreground_specific"))
        kept = [p for p in points if p.get("trusted") and sign_determined(p)]
        band_jumps = [(abs(b["auc"] - a["auc"]), a["gamma"], b["gamma"]) for a, b in zip(points, points[1:])
                      if a in kept and b in kept]
        if band_jumps:
            j = max(band_jumps)
            print(f"  with 'no foreground-specific weight band reaching 0' added: {len(kept)} γ stood behind; "
                  f"largest |ΔAUC| between neighbours both kept {j[0]:.3f} ({j[1]:g} → {j[2]:g}); "
                  f"{sum(1 for x in band_jumps if x[0] > 0.05)} of {len(band_jumps)} pairs above 0.05")
    for p in points:
        extra = (f" s/n {p['signal_to_noise']:.2f} sig+ {p['significant_positive']} fg {p['n_foreground_specific']}"
                 if "signal_to_noise" in p and p["signal_to_noise"] is not None else "")
        print(f"    γ {p['gamma']:<5g} AUC {p['auc']:.3f}{extra} "
              f"{'ok' if p.get('trusted') else 'NOT: ' + p.get('not_trusted_because', '')}")

    # 2. Top documents at the suggested γ.
    out = os.path.join(work, "topics")
    run(args.cli, "topics", *model, "--gamma", str(best), "--top-docs", str(args.top_docs), "--out", out)
    header, rows = read_tsv(os.path.join(out, "topic_docs.tsv"))
    topic_col, topics_col = header.index("topic"), header.index("topics")
    econ = set(args.bg_topics.split(","))
    blocks = {}
    for r in rows:
        blocks.setdefault(r[topic_col], []).append(r)
    ch, comps = read_tsv(os.path.join(out, "components.tsv"))
    th, tops = read_tsv(os.path.join(out, "top_words.tsv"))
    print(f"\nsuggested γ {best}: top {args.top_docs} documents per foreground-specific topic")
    print("| topic | weight ω | admissible | NPMI (contrast-cli) | precision@%d (no background topic) | most frequent `topics` label (share) | top words |" % args.top_docs)
    print("|---|---|---|---|---|---|---|")
    comp_by = {c[0]: dict(zip(ch, c)) for c in comps}
    top_by = {}
    for t in tops:  # long form: component, …, rank, word
        top_by.setdefault(t[0], []).append((int(t[th.index("rank")]), t[th.index("word")]))
    for topic, block in blocks.items():
        hits = sum(1 for r in block if not (set(filter(None, r[topics_col].split(","))) & econ))
        labels = {}
        for r in block:
            for t in filter(None, r[topics_col].split(",")):
                labels[t] = labels.get(t, 0) + 1
        common = max(labels.items(), key=lambda kv: kv[1]) if labels else ("(none)", 0)
        c = comp_by.get(topic, {})
        words = " ".join(word for _, word in sorted(top_by.get(topic, [])))
        print(f"| {topic} | {float(c.get('signed_weight', c.get('weight', 'nan'))):.3g} | {c.get('admissible', '?')} | "
              f"{float(c.get('npmi', 'nan')):.3f} | {hits}/{len(block)} = {hits / len(block):.2f} | "
              f"{common[0]} ({common[1]}/{len(block)}) | {' '.join(words.split()[:8])} |")

    if args.no_lda:
        return 0
    # 3. NPMI against scikit-learn's LDA on the same matrix.
    from sklearn.decomposition import LatentDirichletAllocation
    conv = os.path.join(work, "uci")
    run(args.cli, "convert", "--corpus", args.corpus, *reader, "--out", conv, "--name", "c")
    with open(os.path.join(conv, "docword.c.txt")) as f:
        n = int(f.readline()); w = int(f.readline()); f.readline()
        data = np.loadtxt(f, dtype=np.int64).reshape(-1, 3)
    x = sp.csr_matrix((data[:, 2].astype(np.float64), (data[:, 0] - 1, data[:, 1] - 1)), shape=(n, w))
    vocab = [line.rstrip("\n") for line in open(os.path.join(conv, "vocab.c.txt"), encoding="utf-8")]
    lh, lrows = read_tsv(os.path.join(conv, "labels.c.tsv"))
    field, value = args.fg.split("=")
    fi = lh.index(field)
    fg = np.array([i for i, r in enumerate(lrows) if value in r[fi].split(",")])
    binary = (x > 0).astype(np.float64).tocsc()
    lda = LatentDirichletAllocation(n_components=args.k, learning_method="batch", max_iter=args.lda_iterations,
                                    random_state=args.seed, n_jobs=1)
    lda.fit(x[fg])
    index = {word: i for i, word in enumerate(vocab)}
    tw = np.loadtxt(os.path.join(out, "topic_word.tsv"), skiprows=1, usecols=range(1, len(comps) + 1), ndmin=2,
                    dtype=str)
    tw_words = [line.split("\t")[0] for line in open(os.path.join(out, "topic_word.tsv"), encoding="utf-8").read().splitlines()[1:]]
    tw = tw.astype(float)
    ours = []
    for j, c in enumerate(comps):
        top = [index[tw_words[i]] for i in np.argsort(-tw[:, j])[:10] if tw_words[i] in index]
        ours.append((c[0], c[ch.index("foreground_specific")] if "foreground_specific" in ch else "?",
                     npmi(binary, top), c[ch.index("npmi")] if "npmi" in ch else "?"))
    theirs = []
    for j in range(args.k):
        top = list(np.argsort(-lda.components_[j])[:10])
        theirs.append((npmi(binary, top), " ".join(vocab[i] for i in top[:6])))
    print(f"\nNPMI per topic (top 10 words, {n} documents, vocabulary {w}); LDA: batch VB, "
          f"{args.lda_iterations} iterations, seed {args.seed}, on the {len(fg)} foreground documents")
    print("ours at γ = %s: " % best + ", ".join(f"{t}{'*' if f == '1' else ''} {v:.3f}" for t, f, v, _ in ours))
    print("  (contrast-cli's own npmi column: " + ", ".join(f"{t} {c}" for t, _, _, c in ours) + ")")
    print("LDA: " + ", ".join(f"{v:.3f}" for v, _ in sorted(theirs, reverse=True)))
    fgs = [v for _, f, v, _ in ours if f == "1"]
    print(f"mean NPMI: ours foreground-specific {np.mean(fgs) if fgs else float('nan'):.3f} ({len(fgs)}), "
          f"ours all {np.mean([v for _, _, v, _ in ours]):.3f} ({len(ours)}), LDA {np.mean([v for v, _ in theirs]):.3f} ({args.k})")
    for v, words in sorted(theirs, reverse=True):
        print(f"  LDA {v:.3f}: {words}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
