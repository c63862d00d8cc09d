#!/bin/bash
# Times ChromHMM BinarizeBam/BinarizeBed against `contrast-cli binarize` on the seeded synthetic
# set of tests/bench/binarize_data.py, checks the outputs are identical, and prints a Markdown
# table (docs/binarize.md). Not part of CI.
# Usage: binarize_compare.sh CONTRAST_CLI WORKDIR [REPEATS]
set -euo pipefail
CLI=$(realpath "$1"); WORK=$2; REPEATS=${3:-3}
JAR=${CHROMHMM_JAR:-/usr/share/java/chromhmm.jar}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$WORK"; cd "$WORK"
[ -f data/table_bam.txt ] || python3 "$HERE/binarize_data.py" data
measure() { # LOG COMMAND... → "seconds maxrss_kB"
    local log=$1; shift
    /usr/bin/time -v "$@" > /dev/null 2> "$log"
    local wall rss
    wall=$(grep 'Elapsed (wall clock)' "$log" | awk '{print $NF}' | awk -F: '{ if (NF == 3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
    rss=$(grep 'Maximum resident' "$log" | awk '{print $NF}')
    echo "$wall $rss"
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "| input | control | ChromHMM time (s) | ChromHMM peak RSS (MB) | contrast-cli time (s) | contrast-cli peak RSS (MB) | speed-up | output |"
echo "|---|---|---|---|---|---|---|---|"
for cfg in bam bam_control bed bed_control; do
    mode=BinarizeBam; [[ $cfg == bed* ]] && mode=BinarizeBed
    : > t_chmm; : > t_ours; : > m_chmm; : > m_ours
    for ((r = 0; r < REPEATS; ++r)); do
        rm -rf "chmm_$cfg" "ours_$cfg"
        read -r s m < <(measure "time_chmm_$cfg.txt" java -mx4G -jar "$JAR" $mode data/chrom.sizes data "data/table_$cfg.txt" "chmm_$cfg")
        echo "$s" >> t_chmm; echo "$m" >> m_chmm
        read -r s m < <(measure "time_ours_$cfg.txt" "$CLI" binarize --chrom-sizes data/chrom.sizes --input-dir data --cellmarkfiletable "data/table_$cfg.txt" --out "ours_$cfg")
        echo "$s" >> t_ours; echo "$m" >> m_ours
    done
    same=$(diff -r "chmm_$cfg" "ours_$cfg" > /dev/null && echo "identical ($(ls "ours_$cfg" | wc -l) files)" || echo DIFFERENT)
    tc=$(median < t_chmm); to=$(median < t_ours); mc=$(sort -g m_chmm | tail -1); mo=$(sort -g m_ours | tail -1)
    echo "| ${cfg%_control} | $([[ $cfg == *control ]] && echo yes || echo no) | $tc | $((mc / 1024)) | $to | $((mo / 1024)) | $(awk -v a="$tc" -v b="$to" 'BEGIN {printf "%.0f×", a / b}') | $same |"
done
