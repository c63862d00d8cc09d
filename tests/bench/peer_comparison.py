#!/usr/bin/python3
"""Side-by-side comparison of Contrast Explorer's spectral topic model with scikit-learn's
LatentDirichletAllocation on the same document-term matrix and number of topics.

Both models are fitted on the same 80 % of the foreground (Reuters-21578 stories with PLACES=usa)
and scored on the held-out 20 %:
  * wall time of the fit (ours: the whole `contrast-cli topics` process including loading the
    corpus; also its internal moments + decomposition time),
  * held-out per-token log-likelihood under the SAME scoring function for both, a mixture of
    unigrams  log sum_t pi_t prod_w phi_tw^c_w / tokens  with the same additive smoothing
    (ours: pi = recovered weights; LDA: pi = mean document-topic proportion on the training set),
  * LDA's own held-out variational bound per token (sklearn's score), for reference,
  * topic coherence of the top-10 words: UMass on the training documents and NPMI over the whole
    corpus, computed identically for both models.

Run with Debian's python3 (python3-sklearn):
    /usr/bin/python3 tests/bench/peer_comparison.py --cli build/app/contrast-cli
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy.sparse as sp
from sklearn.decomposition import LatentDirichletAllocation

ECON = ("gnp,cpi,trade,bop,money-supply,jobs,ipi,wpi,retail,housing,income,lei,reserves,"
        "instal-debt,interest,money-fx")


def read_uci(docword, vocab, labels):
    with open(docword) as f:
        n = int(f.readline()); w = int(f.readline()); f.readline()
        data = np.loadtxt(f, dtype=np.int64).reshape(-1, 3)
    x = sp.csr_matrix((data[:, 2].astype(np.float64), (data[:, 0] - 1, data[:, 1] - 1)), shape=(n, w))
    words = [line.rstrip("\n") for line in open(vocab)]
    rows = [line.rstrip("\n").split("\t") for line in open(labels)]
    header, rows = rows[0], rows[1:]
    return x, words, header, rows


def mixture_loglik(x, topics, weights, smoothing=0.01):
    """Per-token held-out log-likelihood under a mixture of unigrams (topics: D x K)."""
    d = topics.shape[0]
    log_phi = np.log((topics + smoothing) / (1.0 + d * smoothing))
    log_pi = np.log(weights / weights.sum())
    scores = x @ log_phi + log_pi  # N x K
    top = scores.max(axis=1, keepdims=True)
    ll = (top[:, 0] + np.log(np.exp(scores - top).sum(axis=1)))
    return float(ll.sum() / x.sum())


def coherence(top_words, binary_train, binary_all):
    """Mean UMass (training documents) and NPMI (all documents) over topics' top words."""
    def doc_freq(b, i, j=None):
        col = b[:, i] if j is None else b[:, i].multiply(b[:, j])
        return col.sum()
    umass, npmi = [], []
    n_all = binary_all.shape[0]
    for words in top_words:
        u, p = [], []
        for a in range(1, len(words)):
            for b in range(a):
                wa, wb = words[a], words[b]
                u.append(np.log((doc_freq(binary_train, wa, wb) + 1.0) / max(doc_freq(binary_train, wb), 1.0)))
                pab = doc_freq(binary_all, wa, wb) / n_all
                pa = doc_freq(binary_all, wa) / n_all
                pb = doc_freq(binary_all, wb) / n_all
                if pab <= 0:
                    p.append(-1.0)
                else:
                    p.append(np.log(pab / (pa * pb)) / -np.log(pab))
        umass.append(np.mean(u)); npmi.append(np.mean(p))
    return float(np.mean(umass)), float(np.mean(npmi))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--cli", default=os.path.join(here, "..", "..", "build", "app", "contrast-cli"))
    parser.add_argument("--data", default=os.path.join(here, "..", "..", "..", "shared", "data", "reuters21578"))
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lda-iterations", type=int, default=20)
    parser.add_argument("--out", default=None, help="write the figures as JSON here")
    args = parser.parse_args()
    if not os.path.exists(args.data):
        print(f"Reuters data not found at {args.data}: skipped")
        return 0
    work = tempfile.mkdtemp(prefix="cx_peer_")
    subprocess.run([args.cli, "convert", "--corpus", args.data, "--out", work, "--name", "reuters"],
                   check=True, stdout=subprocess.DEVNULL)
    x, words, header, rows = read_uci(*(os.path.join(work, f) for f in
                                        ("docword.reuters.txt", "vocab.reuters.txt", "labels.reuters.tsv")))
    places = header.index("places")
    fg = np.array([i for i, r in enumerate(rows) if "usa" in r[places].split(",")])
    rng = np.random.default_rng(args.seed)
    perm = rng.permutation(fg)
    n_train = int(0.8 * len(perm))
    train, test = np.sort(perm[:n_train]), np.sort(perm[n_train:])
    split = np.array(["none"] * len(rows), dtype=object)
    split[train] = "train"; split[test] = "test"
    labels_split = os.path.join(work, "labels.split.tsv")
    with open(labels_split, "w") as f:
        f.write("\t".join(header + ["split"]) + "\n")
        for r, s in zip(rows, split):
            f.write("\t".join(r + [s]) + "\n")
    spec = ",".join([os.path.join(work, "docword.reuters.txt"), os.path.join(work, "vocab.reuters.txt"), labels_split])

    # Ours: gamma = 0 is the plain spectral topic model of the training foreground.
    out_dir = os.path.join(work, "ours")
    start = time.perf_counter()
    run = subprocess.run([args.cli, "topics", "--corpus", spec, "--fg", "split=train", "--bg", "topics=" + ECON,
                          "--k", str(args.k), "--gamma", "0", "--seed", str(args.seed), "--min-df", "1",
                          "--out", out_dir, "--json"], check=True, capture_output=True, text=True)
    ours_wall = time.perf_counter() - start
    summary = json.loads(run.stdout)
    t = summary["timings_ms"]
    ours_fit = (t["moments"] + t["projection"] + sum(t["decompositions"])) / 1000.0
    tw = np.loadtxt(os.path.join(out_dir, "topic_word.tsv"), skiprows=1, usecols=range(1, args.k + 1), ndmin=2)
    comps = [line.split("\t") for line in open(os.path.join(out_dir, "components.tsv")).read().splitlines()[1:]]
    keep = [i for i, c in enumerate(comps) if c[3] == "1"]
    ours_topics, ours_weights = tw[:, keep], np.array([float(comps[i][2]) for i in keep])

    # scikit-learn LDA on the same training matrix.
    lda = LatentDirichletAllocation(n_components=args.k, learning_method="batch", max_iter=args.lda_iterations,
                                    random_state=args.seed, n_jobs=2)
    start = time.perf_counter()
    theta = lda.fit_transform(x[train])
    lda_fit = time.perf_counter() - start
    lda_topics = (lda.components_ / lda.components_.sum(axis=1, keepdims=True)).T
    lda_weights = theta.mean(axis=0)
    lda_bound = float(lda.score(x[test]) / x[test].sum())

    binary_all = (x > 0).astype(np.float64).tocsc()
    binary_train = binary_all[train].tocsc()
    def tops(topics):
        return [list(np.argsort(-topics[:, j])[:10]) for j in range(topics.shape[1])]
    ours_umass, ours_npmi = coherence(tops(ours_topics), binary_train, binary_all)
    lda_umass, lda_npmi = coherence(tops(lda_topics), binary_train, binary_all)
    figures = {
        "documents_train": int(len(train)), "documents_test": int(len(test)), "vocabulary": len(words), "k": args.k,
        "ours": {"wall_s": ours_wall, "fit_s": ours_fit, "topics": len(keep),
                 "heldout_mixture_loglik_per_token": mixture_loglik(x[test], ours_topics, ours_weights),
                 "umass": ours_umass, "npmi": ours_npmi},
        "sklearn_lda": {"wall_s": lda_fit, "fit_s": lda_fit, "iterations": args.lda_iterations, "topics": args.k,
                        "heldout_mixture_loglik_per_token": mixture_loglik(x[test], lda_topics, lda_weights),
                        "heldout_bound_per_token": lda_bound, "umass": lda_umass, "npmi": lda_npmi},
    }
    print(f"Reuters-21578 USA foreground: {len(train)} training / {len(test)} held-out stories, "
          f"vocabulary {len(words)}, K = {args.k}\n")
    print("| method | fit wall time (s) | held-out log-lik/token (mixture of unigrams) | UMass | NPMI |")
    print("|---|---|---|---|---|")
    o, l = figures["ours"], figures["sklearn_lda"]
    print(f"| Contrast Explorer spectral (γ = 0), whole CLI run | {o['wall_s']:.2f} (moments + decomposition {o['fit_s']:.2f}) "
          f"| {o['heldout_mixture_loglik_per_token']:.3f} | {o['umass']:.2f} | {o['npmi']:.3f} |")
    print(f"| scikit-learn LDA (batch VB, {args.lda_iterations} iterations, 2 jobs) | {l['fit_s']:.2f} "
          f"| {l['heldout_mixture_loglik_per_token']:.3f} (own bound {l['heldout_bound_per_token']:.3f}) "
          f"| {l['umass']:.2f} | {l['npmi']:.3f} |")
    print("\ntop words:")
    for name, topics in (("ours", ours_topics), ("lda", lda_topics)):
        for j, top in enumerate(tops(topics)[:5]):
            print(f"  {name} {j + 1}: {' '.join(words[i] for i in top)}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(figures, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
