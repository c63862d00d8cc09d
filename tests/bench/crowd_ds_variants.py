#!/usr/bin/env python3
"""Dawid–Skene variants against majority vote on bluebird, RTE and TEMP (README, "The bar").

An independent pure-Python implementation (no numpy), outside the C++ code base, used to check
whether any standard variant of Dawid–Skene EM closes the gap to majority vote on TEMP, and why
majority vote with ties to the first-seen label does well there.

    python3 tests/bench/crowd_ds_variants.py [../shared/data]

Every variant starts from the soft majority vote (vote fractions; a tie is 1/2–1/2) and runs
to a relative log-likelihood change below 1e-9 (at most 200 rounds). Prints errors against gold.
"""
import csv
import math
import sys
from collections import Counter
from math import comb


def load(path, gold_path=None):
    sep = "\t" if path.endswith(".tsv") else ","
    with open(path, newline="") as f:
        reader = csv.reader(f, delimiter=sep)
        header = [h.lower().lstrip("!") for h in next(reader)]

        def column(names):
            return next((header.index(n) for n in names if n in header), None)

        ci = column(["orig_id", "question", "item", "task"])
        cw = column(["amt_worker_ids", "worker"])
        cl = column(["response", "answer", "label"])
        cg = column(["gold", "truth"])
        rows = [(r[ci], r[cw], r[cl], r[cg] if cg is not None else None) for r in reader]
    gold = {}
    if gold_path:
        with open(gold_path, newline="") as f:
            reader = csv.reader(f)
            next(reader)
            gold = {r[0]: r[1] for r in reader}
    labels = sorted({r[2] for r in rows}, key=lambda s: (0, int(s)) if s.lstrip("-").isdigit() else (1, s))
    code = {l: i for i, l in enumerate(labels)}
    items, workers, obs, truth = {}, {}, [], {}
    for it, w, l, g in rows:
        i = items.setdefault(it, len(items))
        m = workers.setdefault(w, len(workers))
        obs.append((i, m, code[l]))
        if g is not None:
            truth[i] = code[g]
    for it, g in gold.items():
        if it in items:
            truth[items[it]] = code[g]
    return obs, len(items), len(workers), len(labels), truth


def digamma(x):
    r = 0.0
    while x < 6:
        r -= 1 / x
        x += 1
    f = 1 / (x * x)
    return r + math.log(x) - 0.5 / x - f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f / 132))))


def vote_fractions(obs, N, C):
    q = [[0.0] * C for _ in range(N)]
    for i, m, l in obs:
        q[i][l] += 1
    return [[x / sum(r) for x in r] if sum(r) > 0 else [1.0 / C] * C for r in q]


def counts(obs, q, M, C):
    n = [[[0.0] * C for _ in range(C)] for _ in range(M)]  # n[m][label][class]
    for i, m, l in obs:
        for k in range(C):
            n[m][l][k] += q[i][k]
    return n


def fit_dirichlet(vectors, alpha):
    """Minka's fixed point for a Dirichlet-multinomial prior from (soft) count vectors."""
    for _ in range(200):
        s = sum(alpha)
        den = sum(digamma(sum(v) + s) - digamma(s) for v in vectors)
        new = [max(a * sum(digamma(v[l] + a) - digamma(a) for v in vectors) / den, 1e-6)
               for l, a in enumerate(alpha)]
        done = max(abs(a - b) / b for a, b in zip(new, alpha)) < 1e-9
        alpha = new
        if done:
            break
    return alpha


def dawid_skene(obs, N, M, C, alpha=0.01, uniform_prior=False, one_coin=False, variational=False,
                empirical_bayes=False, rounds=200, start=None):
    q = start if start is not None else vote_fractions(obs, N, C)
    previous = None
    priors = [[1.0] * C for _ in range(C)]
    for _ in range(rounds):
        n = counts(obs, q, M, C)
        log_theta = [[[0.0] * C for _ in range(C)] for _ in range(M)]
        if empirical_bayes:
            priors = [fit_dirichlet([[n[m][l][k] for l in range(C)] for m in range(M)], priors[k])
                      for k in range(C)]
        for m in range(M):
            if one_coin:
                right = sum(n[m][k][k] for k in range(C)) + alpha
                total = sum(n[m][l][k] for l in range(C) for k in range(C)) + C * alpha
                p = right / total
            for k in range(C):
                a = priors[k] if empirical_bayes else [alpha] * C
                total = sum(n[m][l][k] + a[l] for l in range(C))
                for l in range(C):
                    if one_coin:
                        value = p if l == k else (1 - p) / (C - 1)
                        log_theta[m][l][k] = math.log(value)
                    elif variational:
                        log_theta[m][l][k] = digamma(n[m][l][k] + a[l]) - digamma(total)
                    else:
                        log_theta[m][l][k] = math.log(max((n[m][l][k] + a[l]) / total, 1e-300))
        class_mass = [sum(q[i][k] for i in range(N)) for k in range(C)]
        if uniform_prior:
            log_pi = [-math.log(C)] * C
        elif variational:
            log_pi = [digamma(x + 1) - digamma(N + C) for x in class_mass]
        else:
            log_pi = [math.log(max(x / N, 1e-300)) for x in class_mass]
        lq = [list(log_pi) for _ in range(N)]
        for i, m, l in obs:
            for k in range(C):
                lq[i][k] += log_theta[m][l][k]
        ll, q = 0.0, []
        for row in lq:
            top = max(row)
            e = [math.exp(x - top) for x in row]
            ll += top + math.log(sum(e))
            q.append([x / sum(e) for x in e])
        if previous is not None and abs(ll - previous) <= 1e-9 * abs(previous):
            break
        previous = ll
    return q, log_theta, log_pi


def argmax(row):
    return max(range(len(row)), key=lambda k: row[k])


def errors(predicted, truth):
    return sum(1 for i, g in truth.items() if predicted[i] != g)


def vote_counts(obs, N, C):
    cnt = [[0] * C for _ in range(N)]
    first = [[math.inf] * C for _ in range(N)]
    for p, (i, m, l) in enumerate(obs):
        cnt[i][l] += 1
        first[i][l] = min(first[i][l], p)
    return cnt, first


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else "../shared/data"
    sets = {
        "bluebird": load(data + "/crowd_bluebird/answer.csv", data + "/crowd_bluebird/truth.csv"),
        "RTE": load(data + "/crowd_snow2008_rte_temp/rte.standardized.tsv"),
        "TEMP": load(data + "/crowd_snow2008_rte_temp/temp.standardized.tsv"),
    }
    variants = [
        ("Dawid-Skene ML, add 0.01 (the C++ default)", {}),
        ("uniform class prior (Zhang et al.'s stage-2 EM)", {"uniform_prior": True}),
        ("Laplace: add 1", {"alpha": 1.0}),
        ("add 1, uniform class prior", {"alpha": 1.0, "uniform_prior": True}),
        ("Jeffreys: add 0.5", {"alpha": 0.5}),
        ("variational Bayes, Dirichlet(1)", {"alpha": 1.0, "variational": True}),
        ("variational Bayes, Dirichlet(0.5)", {"alpha": 0.5, "variational": True}),
        ("empirical-Bayes Dirichlet prior per class", {"empirical_bayes": True}),
        ("one-coin", {"one_coin": True}),
        ("Zhang et al.'s reference code: add 0, uniform prior, 10 rounds",
         {"alpha": 0.0, "uniform_prior": True, "rounds": 10}),
    ]
    print("variant\t" + "\t".join(sets))
    for label, options in variants:
        row = [label]
        for obs, N, M, C, truth in sets.values():
            q, _, _ = dawid_skene(obs, N, M, C, **options)
            row.append(str(errors([argmax(r) for r in q], truth)))
        print("\t".join(row))
    for name, (obs, N, M, C, truth) in sets.items():
        cnt, first = vote_counts(obs, N, C)
        first_seen = [min(range(C), key=lambda c: (-cnt[i][c], first[i][c])) for i in range(N)]
        smallest = [min(range(C), key=lambda c: (-cnt[i][c], c)) for i in range(N)]
        tied = [i for i in truth if sorted(cnt[i])[-1] == sorted(cnt[i])[-2]]
        expected = sum(1 - (1 / cnt[i].count(max(cnt[i])) if cnt[i][g] == max(cnt[i]) else 0)
                       for i, g in truth.items())
        print(f"\n{name}: {N} items, {M} workers, {len(truth)} gold")
        print(f"  majority vote: ties to first-seen {errors(first_seen, truth)} errors, to the smallest "
              f"label (crowd-kit) {errors(smallest, truth)}, random (expected) {expected:.1f}; "
              f"{len(tied)} tied gold items, first-seen right on {sum(first_seen[i] == truth[i] for i in tied)}")
        if C == 2 and tied:
            wrong_untied = errors(first_seen, truth) - sum(first_seen[i] != truth[i] for i in tied)
            target = errors(first_seen, truth) - wrong_untied
            p = sum(comb(len(tied), k) for k in range(target + 1)) / 2 ** len(tied)
            print(f"  P(random tie-breaking has <= {errors(first_seen, truth)} errors) = {p:.4f}")
        q, log_theta, log_pi = dawid_skene(obs, N, M, C)
        ds = [argmax(r) for r in q]
        accuracy = [sum(math.exp(log_pi[k] + log_theta[m][k][k]) for k in range(C)) for m in range(M)]
        first_worker = {}
        for i, m, l in obs:
            first_worker.setdefault(i, m)
        print(f"  Dawid-Skene accuracy of the first labeller of an item {sum(accuracy[first_worker[i]] for i in range(N)) / N:.3f}, "
              f"of a label drawn at random {sum(accuracy[m] for _, m, _ in obs) / len(obs):.3f}")
        differ = [i for i in range(N) if ds[i] != first_seen[i] and i in truth]
        print(f"  Dawid-Skene and first-seen majority vote differ on {len(differ)} gold items: "
              f"Dawid-Skene right on {sum(ds[i] == truth[i] for i in differ)}, majority vote on "
              f"{sum(first_seen[i] == truth[i] for i in differ)}")
        for i in differ if name == "TEMP" else []:
            votes = "-".join(str(c) for c in cnt[i])
            terms = sorted(((log_theta[m][l][1 - truth[i]] - log_theta[m][l][truth[i]], m, l)
                            for ii, m, l in obs if ii == i), reverse=True)[:2] if C == 2 else []
            strongest = ", ".join(f"worker {m} says {l}: {t:+.2f} nats" for t, m, l in terms)
            print(f"  item {i}: votes {votes}, gold {truth[i]}, first-seen {first_seen[i]}, Dawid-Skene {ds[i]}"
                  + (f"; strongest evidence against gold: {strongest}" if strongest else ""))
        for rule, hard in (("first-seen", first_seen), ("smallest", smallest),
                           ("largest", [max(c for c in range(C) if cnt[i][c] == max(cnt[i])) for i in range(N)])):
            start = [[1.0 if c == hard[i] else 0.0 for c in range(C)] for i in range(N)]
            q, _, _ = dawid_skene(obs, N, M, C, start=start)
            print(f"  Dawid-Skene from the hard majority vote, ties to the {rule} label: "
                  f"{errors([argmax(r) for r in q], truth)} errors")
        if name == "TEMP":
            for a in (0.01, 0.5, 1.0, 2.0):
                q, _, _ = dawid_skene(obs, N, M, C, alpha=a)
                flips = [i for i in differ if argmax(q[i]) == first_seen[i]]
                print(f"  add {a}: {errors([argmax(r) for r in q], truth)} errors; items of the list above now "
                      f"with majority vote: {flips}")


if __name__ == "__main__":
    main()
