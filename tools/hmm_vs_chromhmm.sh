#!/usr/bin/env bash
# contrast-cli hmm against ChromHMM LearnModel on the ENCODE hg19 chr18+chr20 cell types
#: mean |Δ| of the emissions (per state, after the best matching of states,
# marks matched by name) of `hmm --k 6 --gamma 0` with the old defaults (plain spectral:
# --refine-em 0 --moment-fit -1) and with today's defaults (the GUI's: moment selection +
# Baum–Welch to 1e-5), to ChromHMM's model (K = 6, -s 1, its default information init).
# Usage: tools/hmm_vs_chromhmm.sh [CLI] [CELL…]   (needs java and /usr/share/java/chromhmm.jar
# or CHROMHMM_JAR; work and cache in $WORK, default /tmp/hmm_vs_chromhmm)
set -euo pipefail
CLI=${1:-build/app/contrast-cli}
shift || true
D=${DATA:-/work/shared/data/encode_hg19_10cells_chr18_chr20}
JAR=${CHROMHMM_JAR:-/usr/share/java/chromhmm.jar}
WORK=${WORK:-/tmp/hmm_vs_chromhmm}
CELLS=("$@")
[ ${#CELLS[@]} -eq 0 ] && CELLS=(GM12878 K562 HepG2 HeLa-S3)
mkdir -p "$WORK"
printf "%-8s %10s %10s %10s %10s\n" cell old_mean new_mean old_worst new_worst
for c in "${CELLS[@]}"; do
  W=$WORK/$c
  T=$D/${c}_chr18_binary.txt.gz,$D/${c}_chr20_binary.txt.gz
  if [ ! -s "$W/out/emissions_6.txt" ]; then
    mkdir -p "$W/in"
    for ch in chr18 chr20; do zcat "$D/${c}_${ch}_binary.txt.gz" > "$W/in/${c}_${ch}_binary.txt"; done
    java -mx2G -jar "$JAR" LearnModel -noautoopen -nobrowser -noenrich -noimage -p 1 -s 1 \
      "$W/in" "$W/out" 6 hg19 > "$W/learn.log" 2>&1
    rm -rf "$W/in"
  fi
  "$CLI" hmm --tracks "$T" --k 6 --gamma 0 --no-segments --refine-em 0 --moment-fit -1 \
    --out "$W/old" > /dev/null
  "$CLI" hmm --tracks "$T" --k 6 --gamma 0 --no-segments --out "$W/new" > /dev/null
  python3 - "$c" "$W/out/emissions_6.txt" "$W/old/emissions.tsv" "$W/new/emissions.tsv" <<'PY'
import itertools, sys
def table(path):
    rows = [l.rstrip('\n').split('\t') for l in open(path) if l.strip()]
    return rows[0][1:], [[float(x) for x in r[1:]] for r in rows[1:]]
def score(reference, path):
    hc, C = table(reference)
    ho, O = table(path)
    O = [[r[ho.index(m)] for m in hc] for r in O]
    best = None
    for perm in itertools.permutations(range(len(O)), len(C)):
        d = [sum(abs(a - b) for a, b in zip(C[i], O[p])) / len(C[i]) for i, p in enumerate(perm)]
        if best is None or sum(d) < sum(best):
            best = d
    return sum(best) / len(best), max(best)
cell, ref, old, new = sys.argv[1:]
om, ox = score(ref, old)
nm, nx = score(ref, new)
print(f"{cell:<8} {om:10.3f} {nm:10.3f} {ox:10.3f} {nx:10.3f}")
PY
done
