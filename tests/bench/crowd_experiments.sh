#!/bin/sh
# Zhao & Zucker 2015's experiments and the real-data table of README ("Crowdsourcing"), with contrast-cli.
#   tests/bench/crowd_experiments.sh [build/app/contrast-cli] [OUTDIR]
# Needs ../shared/data (bluebird, RTE, TEMP). Writes OUTDIR/real.tsv (mv's error is its
# expectation over random tie-breaks; the extra row mv-first-seen is the vote with ties to the
# first-seen label, and the tied gold items in the |S| column), OUTDIR/ds_variants.txt,
# OUTDIR/sparse03_trace.tsv
# OUTDIR/beta_sweep.tsv and OUTDIR/sparse_labels.tsv. CX_BETAS="0.2 0.3" restricts the β-sparse
# sweep to those β; extra arguments after OUTDIR go to every `crowd` run (e.g. --smoothing 1).
set -eu
CLI=${1:-build/app/contrast-cli}
OUT=${2:-crowd_experiments}
if [ $# -ge 2 ]; then shift 2; else shift $#; fi
DATA=${CX_SHARED_DATA:-../shared/data}
mkdir -p "$OUT"
field() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d$1)"; }

echo "set	method	error_rate	informative_set_size	iterations	ms" > "$OUT/real.tsv"
for set in bluebird rte temp; do
    case $set in
        bluebird) L="$DATA/crowd_bluebird/answer.csv"; G="--gold $DATA/crowd_bluebird/truth.csv" ;;
        rte) L="$DATA/crowd_snow2008_rte_temp/rte.standardized.tsv"; G="" ;;
        temp) L="$DATA/crowd_snow2008_rte_temp/temp.standardized.tsv"; G="" ;;
    esac
    for m in mv mv-em spectral-em em stagewise stagewise-refine; do
        # shellcheck disable=SC2086
        "$CLI" crowd --labels "$L" $G --method $m --json "$@" |
            python3 -c "import json,sys; d=json.load(sys.stdin); print('$set\t$m\t%.4f\t%d\t%d\t%.1f' % (d['error_rate'], d['informative_set_size'], d['iterations'], d['timings_ms']['method'])); print('$set\tmv-first-seen\t%.4f\t%d\t0\t0' % (d['error_rate_first_seen'], d['tied_gold_items'])) if 'error_rate_first_seen' in d else None" >> "$OUT/real.tsv"
    done
done

# Dawid–Skene variants and majority vote's tie rules (independent Python implementation).
python3 "$(dirname "$0")/crowd_ds_variants.py" "$DATA" > "$OUT/ds_variants.txt"

# 0.3-sparse: 100 workers, 1,000 items, 3 classes, experts' accuracy 0.7 → 0.45.
mkdir -p "$OUT/sparse03"
"$CLI" generate-crowd --out "$OUT/sparse03" --items 1000 --workers 100 --classes 3 --beta 0.3 \
    --accuracy 0.7 --last-accuracy 0.45 --seed 1 --json > "$OUT/sparse03/generate.json"
"$CLI" crowd --labels "$OUT/sparse03/crowd.labels.csv" --gold "$OUT/sparse03/crowd.gold.csv" \
    --method stagewise --out "$OUT/sparse03/stagewise" --json "$@" > "$OUT/sparse03/stagewise.json"
cp "$OUT/sparse03/stagewise/trace.tsv" "$OUT/sparse03_trace.tsv"

# β-sparse sweep: informative workers at 0.6, 10 repetitions per β.
echo "beta	seed	true_model	mv	mv-em	spectral-em	em	stagewise	stagewise-refine" > "$OUT/beta_sweep.tsv"
for beta in ${CX_BETAS:-0.05 0.1 0.15 0.2 0.3 0.5}; do
    for seed in 1 2 3 4 5 6 7 8 9 10; do
        D="$OUT/beta_${beta}_${seed}"
        truth=$("$CLI" generate-crowd --out "$D" --items 1000 --workers 100 --classes 3 \
            --beta $beta --accuracy 0.6 --seed $seed --json | field "['true_model_error_rate']")
        row="$beta	$seed	$truth"
        for m in mv mv-em spectral-em em stagewise stagewise-refine; do
            e=$("$CLI" crowd --labels "$D/crowd.labels.csv" --gold "$D/crowd.gold.csv" --method $m \
                --json "$@" | field "['error_rate']")
            row="$row	$e"
        done
        echo "$row" >> "$OUT/beta_sweep.tsv"
        rm -rf "$D"
    done
done
# Sparse labelling like RTE/TEMP: β = 0.3 (experts at 0.6, others random), each worker labels
# an item with probability 0.1 (about 10 labels per item), 10 seeds.
echo "beta	seed	true_model	mv	mv-em	spectral-em	em	stagewise	stagewise-refine" > "$OUT/sparse_labels.tsv"
for seed in ${CX_SPARSE_SEEDS:-1 2 3 4 5 6 7 8 9 10}; do
    D="$OUT/sparse_labels_${seed}"
    truth=$("$CLI" generate-crowd --out "$D" --items 1000 --workers 100 --classes 3 \
        --beta 0.3 --accuracy 0.6 --label-probability 0.1 --seed $seed --json |
        field "['true_model_error_rate']")
    row="0.3	$seed	$truth"
    for m in mv mv-em spectral-em em stagewise stagewise-refine; do
        e=$("$CLI" crowd --labels "$D/crowd.labels.csv" --gold "$D/crowd.gold.csv" --method $m \
            --json "$@" | field "['error_rate']")
        row="$row	$e"
    done
    echo "$row" >> "$OUT/sparse_labels.tsv"
    rm -rf "$D"
done
echo "wrote $OUT/real.tsv $OUT/sparse03_trace.tsv $OUT/beta_sweep.tsv $OUT/sparse_labels.tsv"
