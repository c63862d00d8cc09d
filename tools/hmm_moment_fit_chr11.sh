#!/usr/bin/env bash
# Plain spectral HMM vs --moment-fit on chr11 (the chromatin default).
# Usage: tools/hmm_moment_fit_chr11.sh [CLI] [slice|full] [FIT…]
#   FIT = N (--moment-fit N) or N:O (--moment-fit N --moment-order O, O = 2 or 3).
#   slice = the bundled demo slice (GM12878 + K562 chr11:0–30 Mb, K = 6),
#   full  = ../shared/data/chromhmm_hg18_chr11 (both cell types, whole chr11, K = 7).
# Per setting (-1 = plain, then each FIT): at γ = 0 on all bins the weight sum and the mean /
# worst-state |Δ| of the emissions to Baum–Welch EM (--method em --seed $EM_SEED, default 1,
# cached in $CACHE) after
# Hungarian matching; along γ = 0:4:0.1 with genes ∪ TSS ± 2 kb as foreground (path, seed 1) the
# valid points / ranges, identities and identity changes (of foreground-specific states), and the
# largest |Σω − (1 − γ)| over the path.
set -euo pipefail
CLI=${1:-build/app/contrast-cli}
WHICH=${2:-slice}
shift 2 || true
FITS=("$@")
[ ${#FITS[@]} -eq 0 ] && FITS=(-1 0 200)
CACHE=${CACHE:-/tmp/hmm_chr11_em}
mkdir -p "$CACHE"
if [ "$WHICH" = slice ]; then
  S=${SLICE:-resources/demo/chromatin}
  T=$S/GM12878_chr11_0-30Mb_binary.txt.gz,$S/K562_chr11_0-30Mb_binary.txt.gz
  F=$S/RefSeqGene.chr11_0-30Mb.bed.gz,$S/RefSeqTSS2kb.chr11_0-30Mb.bed.gz
  K=${K:-6}
else
  D=${DATA:-/work/shared/data/chromhmm_hg18_chr11}
  T=$D/GM12878_chr11_binary.txt.gz,$D/K562_chr11_binary.txt.gz
  F=$D/COORDS/hg18/RefSeqGene.hg18.bed.gz,$D/COORDS/hg18/RefSeqTSS2kb.hg18.bed.gz
  K=${K:-7}
fi
em=$CACHE/$WHICH.em.k$K.s${EM_SEED:-1}.json
[ -s "$em" ] || "$CLI" hmm --tracks "$T" --k "$K" --gamma 0 --method em --seed "${EM_SEED:-1}" --no-segments \
    --out "$CACHE/out.em.$WHICH" --json > "$em"
for fit in "${FITS[@]}"; do
  sweeps=${fit%%:*}
  order=()
  [ "$sweeps" != "$fit" ] && order=(--moment-order "${fit#*:}")
  "$CLI" hmm --tracks "$T" --k "$K" --gamma 0 --no-segments --moment-fit "$sweeps" "${order[@]}" \
      --out "$CACHE/g0.$WHICH.$fit" --json > "$CACHE/$WHICH.g0.$fit.json"
  "$CLI" hmm --tracks "$T" --fg-regions "$F" --k "$K" --gamma 0 --no-segments --moment-fit "$sweeps" "${order[@]}" \
      --gamma-path 0:4:0.1 --out "$CACHE/path.$WHICH.$fit" --json > "$CACHE/$WHICH.path.$fit.json"
done
python3 - "$em" "$CACHE" "$WHICH" "${FITS[@]}" <<'PY'
import csv, itertools, json, sys
em, cache, which, *fits = sys.argv[1:]
E = json.load(open(em))["model"]["emissions"]
print(f"{'setting':<10} {'sum_w':>6} {'mad':>6} {'max':>6} {'valid':>6} {'ids':>4} {'chg':>4} {'chg_fg':>6} {'max|Σω-(1-γ)|':>14}  valid ranges")
for fit in fits:
    m = json.load(open(f"{cache}/{which}.g0.{fit}.json"))["model"]
    S = m["components"]
    best = None
    for perm in itertools.permutations(range(len(S)), len(E)):
        d = [sum(abs(a - b) for a, b in zip(E[i], S[p])) / len(E[i]) for i, p in enumerate(perm)]
        if best is None or sum(d) < sum(best):
            best = d
    p = json.load(open(f"{cache}/{which}.path.{fit}.json"))["path"]
    sums = {}
    with open(f"{cache}/path.{which}.{fit}/path.tsv") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            g = float(row["gamma"])
            sums[g] = sums.get(g, 0.0) + float(row["weight"])
    dev = max(abs(s - (1 - g)) for g, s in sums.items())
    name = "plain" if fit == "-1" else f"fit {fit}"
    rng = " ".join(f"{a:g}-{b:g}" for a, b in p["valid_ranges"])
    print(f"{name:<10} {sum(m['weights']):6.3f} {sum(best)/len(best):6.3f} {max(best):6.3f} "
          f"{p['valid_points']:>3}/{p['points']:<2} {p['identities']:>4} {p['identity_changes']:>4} "
          f"{p['specific_identity_changes']:>6} {dev:14.3g}  {rng}")
PY
