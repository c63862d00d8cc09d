#!/usr/bin/env bash
# Spectral HMM vs Baum–Welch EM on the ENCODE hg19 chr18+chr20 cell types.
# Usage: tools/hmm_encode_vs_em.sh [CLI] [CELL…]   (K = 6, γ = 0; EM results cached in $CACHE)
# Prints one row per cell: weight sums and mean / worst-state |Δ| to EM after matching, for the
# plain spectral solve (--moment-fit -1) and for --moment-fit $FIT (default 200) with the extra
# options $EXTRA (e.g. EXTRA="--moment-order 3").
set -euo pipefail
CLI=${1:-build/app/contrast-cli}
shift || true
D=${DATA:-/work/shared/data/encode_hg19_10cells_chr18_chr20}
CACHE=${CACHE:-/tmp/hmm_encode_em}
K=${K:-6}
CELLS=("$@")
if [ ${#CELLS[@]} -eq 0 ]; then
  CELLS=(GM12878 H1-hESC HMEC HSMM HUVEC HeLa-S3 HepG2 K562 NHEK NHLF)
fi
mkdir -p "$CACHE"
printf "%-8s %8s %8s %8s %8s %8s %8s\n" cell sum_plain sum_fit mad_plain mad_fit max_plain max_fit
for c in "${CELLS[@]}"; do
  T=$D/${c}_chr18_binary.txt.gz,$D/${c}_chr20_binary.txt.gz
  em=$CACHE/$c.em.k$K.json
  [ -s "$em" ] || "$CLI" hmm --tracks "$T" --k "$K" --gamma 0 --method em --seed 1 --no-segments \
      --out "$CACHE/out.$c" --json > "$em"
  "$CLI" hmm --tracks "$T" --k "$K" --gamma 0 --no-segments --moment-fit -1 --out "$CACHE/sp.$c" --json > "$CACHE/$c.plain.json"
  "$CLI" hmm --tracks "$T" --k "$K" --gamma 0 --no-segments --moment-fit "${FIT:-200}" ${EXTRA:-} --out "$CACHE/fit.$c" --json \
      > "$CACHE/$c.fit.json"
  python3 - "$c" "$em" "$CACHE/$c.plain.json" "$CACHE/$c.fit.json" <<'PY'
import itertools, json, sys
cell, em, plain, fit = sys.argv[1:]
E = json.load(open(em))["model"]["emissions"]
def score(path):
    m = json.load(open(path))["model"]
    S = m["components"]
    best = None
    for perm in itertools.permutations(range(len(S)), len(E)):
        d = [sum(abs(a - b) for a, b in zip(E[i], S[p])) / len(E[i]) for i, p in enumerate(perm)]
        if best is None or sum(d) < sum(best):
            best = d
    return sum(m["weights"]), sum(best) / len(best), max(best)
sp, mp, xp = score(plain)
sf, mf, xf = score(fit)
print(f"{cell:<8} {sp:8.3f} {sf:8.3f} {mp:8.3f} {mf:8.3f} {xp:8.3f} {xf:8.3f}")
PY
done
