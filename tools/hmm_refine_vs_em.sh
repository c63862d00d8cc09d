#!/usr/bin/env bash
# Spectral start + Baum–Welch refinement vs Baum–Welch EM from random starts.
# Usage: tools/hmm_refine_vs_em.sh [CLI] [DATASET…]
#   DATASET = an ENCODE cell type of $ENCODE (chr18 + chr20, K = 6), `slice` (the bundled demo
#   slice GM12878 + K562 chr11:0–30 Mb, K = 6) or `full` (../shared/data/chromhmm_hg18_chr11,
#   both cell types, whole chr11, K = 7). Default: the ten ENCODE cell types, slice, full.
# All at γ = 0 on every bin. Per data set: EM (--method em --seed s, s = $SEEDS, to its default
# convergence) and, for --moment-fit F (F = $FITS) and each refinement R of $REFINES
# (N = --refine-em N, exactly N rounds; N:T = --refine-em N --refine-tolerance T, at most N
# rounds, stopping when a round's relative log-likelihood gain is below T), one refined
# spectral run. Everything is cached in $CACHE (a file that exists is not recomputed).
# Prints per data set: EM vs EM (mean |Δ| of the emissions after Hungarian matching over all
# seed pairs: min / median / max; log-likelihood per bin of each seed), then per setting the
# mean |Δ| to each EM seed (mean over states), the worst matched state over all seeds, the
# rounds run, log-likelihood per bin, and the refinement's time (ms; `timings_ms.em`).
set -euo pipefail
CLI=${1:-build/app/contrast-cli}
shift || true
ENCODE=${ENCODE:-/work/shared/data/encode_hg19_10cells_chr18_chr20}
CHR11=${CHR11:-/work/shared/data/chromhmm_hg18_chr11}
SLICE=${SLICE:-resources/demo/chromatin}
CACHE=${CACHE:-/tmp/hmm_refine}
SEEDS=${SEEDS:-"1 2 3 4 5"}
FITS=${FITS:-"0 -1"}
REFINES=${REFINES:-"0 5 10 20 1000:1e-4 1000:1e-5"}
SETS=("$@")
if [ ${#SETS[@]} -eq 0 ]; then
  SETS=(GM12878 H1-hESC HMEC HSMM HUVEC HeLa-S3 HepG2 K562 NHEK NHLF slice full)
fi
mkdir -p "$CACHE"
for set in "${SETS[@]}"; do
  case "$set" in
    slice) T=$SLICE/GM12878_chr11_0-30Mb_binary.txt.gz,$SLICE/K562_chr11_0-30Mb_binary.txt.gz; K=6 ;;
    full) T=$CHR11/GM12878_chr11_binary.txt.gz,$CHR11/K562_chr11_binary.txt.gz; K=7 ;;
    *) T=$ENCODE/${set}_chr18_binary.txt.gz,$ENCODE/${set}_chr20_binary.txt.gz; K=6 ;;
  esac
  for s in $SEEDS; do
    f=$CACHE/$set.em.s$s.json
    [ -s "$f" ] || "$CLI" hmm --tracks "$T" --k "$K" --gamma 0 --method em --seed "$s" --no-segments \
        --out "$CACHE/out" --json > "$f"
  done
  for fit in $FITS; do
    for r in $REFINES; do
      f=$CACHE/$set.fit$fit.r$r.json
      n=${r%%:*}
      tol=()
      [ "$n" != "$r" ] && tol=(--refine-tolerance "${r#*:}")
      [ -s "$f" ] || "$CLI" hmm --tracks "$T" --k "$K" --gamma 0 --no-segments --moment-fit "$fit" \
          --refine-em "$n" "${tol[@]}" --out "$CACHE/out" --json > "$f"
    done
  done
done
python3 - "$CACHE" "$SEEDS" "$FITS" "$REFINES" "${SETS[@]}" <<'PY'
import itertools, json, statistics, sys
cache, seeds, fits, refines, *sets = sys.argv[1:]
seeds, fits, refines = seeds.split(), fits.split(), refines.split()

def load(path):
    d = json.load(open(path))
    m, ll = d["model"], d["log_likelihood"]
    iters = ll.get("em_iterations", 0)
    return m["emissions"], ll["final_per_bin"], iters, d["timings_ms"]["em"]

def match(a, b):
    """Per-state mean |Δ| of a's rows to b's rows under the matching of least total."""
    best = None
    for perm in itertools.permutations(range(len(b)), len(a)):
        d = [sum(abs(x - y) for x, y in zip(a[i], b[p])) / len(a[i]) for i, p in enumerate(perm)]
        if best is None or sum(d) < sum(best):
            best = d
    return best

for name in sets:
    em = {s: load(f"{cache}/{name}.em.s{s}.json") for s in seeds}
    pairs = [statistics.fmean(match(em[a][0], em[b][0])) for a, b in itertools.combinations(seeds, 2)]
    print(f"== {name}: EM vs EM over {len(pairs)} seed pairs: mean |Δ| min {min(pairs):.3f} "
          f"median {statistics.median(pairs):.3f} max {max(pairs):.3f}; EM log-lik/bin "
          + " ".join(f"{em[s][1]:.4f}" for s in seeds) + "; EM rounds "
          + " ".join(str(em[s][2]) for s in seeds))
    print(f"{'setting':<18} {'mean|Δ| to EM seeds':<36} {'mean':>6} {'max':>6} {'worst':>6} "
          f"{'rounds':>6} {'loglik/bin':>10} {'ms':>7}")
    for fit in fits:
        for r in refines:
            try:
                e, ll, it, ms = load(f"{cache}/{name}.fit{fit}.r{r}.json")
            except FileNotFoundError:
                continue
            per = [match(e, em[s][0]) for s in seeds]
            means = [statistics.fmean(p) for p in per]
            worst = max(max(p) for p in per)
            print(f"fit {fit:>2} refine {r:<8} " + " ".join(f"{m:.3f}" for m in means).ljust(36)
                  + f" {statistics.fmean(means):6.3f} {max(means):6.3f} {worst:6.3f} {it:>6} "
                  f"{ll:10.4f} {ms:7.0f}")
PY
