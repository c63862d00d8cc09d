#!/usr/bin/env bash
# Reproduces README's Performance figures for the topic engine on this machine.
# Usage: tests/bench/run_performance.sh [BUILD_DIR]   (default: build)
# Needs a Release build with benchmarks (the default configuration), /usr/bin/time, and for the
# peer comparison Debian's python3-sklearn. Reads ../shared/data when present.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
cli="$build/app/contrast-cli"
bench="$build/tests/cx_bench"
scratch=$(mktemp -d /tmp/cx_perf_XXXXXX)
trap 'rm -rf "$scratch"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"

echo "== 1,000,000 synthetic documents (vocabulary 20k, ~100 tokens): generate, then load + moments + decomposition"
"$cli" generate --out "$scratch/syn1m" --fg-docs 500000 --bg-docs 500000 --vocab 20000 \
    --length 100 --spread 20 --a 3 --b 4 --c 3 --seed 7 >/dev/null
/usr/bin/time -v "$cli" topics --corpus "$scratch/syn1m/docword.synthetic.txt" --fg group=foreground \
    --bg group=background --k 10 --gamma 2 --min-df 1 --json >"$scratch/syn1m.json" 2>"$scratch/syn1m.time"
python3 - "$scratch/syn1m.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); t = d["timings_ms"]
print(f"load {t['load']/1000:.2f} s, moments (range) {t['moments']/1000:.2f} s, projection {t['projection']/1000:.2f} s, "
      f"decomposition {t['decompositions'][0]:.1f} ms; foreground-specific {d['result']['foreground_specific']}, "
      f"weights {[round(w, 4) for w in d['result']['weights'] if w > 0]}")
PY
grep -E "Elapsed|Maximum resident" "$scratch/syn1m.time"
for threads in 1 2; do
    "$cli" topics --corpus "$scratch/syn1m/docword.synthetic.txt" --fg group=foreground \
        --bg group=background --k 10 --gamma 2 --min-df 1 --threads $threads --out "$scratch/t$threads" \
        --json >"$scratch/t$threads.json"
done
if cmp -s "$scratch/t1/topic_word.tsv" "$scratch/t2/topic_word.tsv"; then
    echo "1 and 2 threads: identical topic_word.tsv"
else
    echo "1 and 2 threads: DIFFERENT results"; exit 1
fi
python3 - "$scratch/t1.json" "$scratch/t2.json" <<'PY'
import json, sys
for path, n in zip(sys.argv[1:], (1, 2)):
    t = json.load(open(path))["timings_ms"]
    print(f"{n} thread(s): moments {t['moments']/1000:.2f} s, projection {t['projection']/1000:.2f} s")
PY

reuters=../shared/data/reuters21578
if [ -d "$reuters" ]; then
    econ=gnp,cpi,trade,bop,money-supply,jobs,ipi,wpi,retail,housing,income,lei,reserves,instal-debt,interest,money-fx
    echo "== Reuters-21578: load + moments, then a 41-point sweep with AUC"
    "$cli" sweep --corpus "$reuters" --drop-numbers --max-df 0.5 --fg places=usa --bg topics=$econ \
        --positive "!topics=$econ" --k 10 --gammas 0:4:0.1 --json >"$scratch/reuters.json"
    python3 - "$scratch/reuters.json" <<'PY'
import json, sys, statistics
d = json.load(open(sys.argv[1])); t = d["timings_ms"]
dec = t["decompositions"]
print(f"load {t['load']:.0f} ms, moments {t['moments']:.0f} ms, projection {t['projection']:.0f} ms; "
      f"41-point sweep {t['sweep']:.0f} ms; per-gamma decomposition median {statistics.median(dec):.2f} ms, max {max(dec):.2f} ms")
PY
    echo "== Peer comparison with scikit-learn LDA"
    /usr/bin/python3 tests/bench/peer_comparison.py --cli "$cli" || echo "(peer comparison needs python3-sklearn)"
else
    echo "Reuters data not found at $reuters: Reuters figures skipped"
fi

echo "== Google Benchmark suite"
"$bench" --benchmark_counters_tabular=true --benchmark_filter="${CX_BENCH_FILTER:-BM_(M2|M3|Projection|Engine|Solve|Reuters|Memory)}"
